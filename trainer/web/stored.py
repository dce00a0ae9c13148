"""Stored attempts in templates: every page reads a question and answer through one function."""
from __future__ import annotations

from typing import Any

from flask import Flask

from trainer.stored_answers import shown_attempt


def listed(value: Any) -> list[Any]:
    """Return a stored value if it is a list, else an empty one (a loop over old rows never fails)."""
    return value if isinstance(value, list) else []


def register(app: Flask) -> None:
    """Make ``shown_attempt`` and ``listed`` available to every template."""
    app.jinja_env.globals.update(shown_attempt=shown_attempt, listed=listed)
