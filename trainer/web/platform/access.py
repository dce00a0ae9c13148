"""Who may see what: the role gate, the ownership check on a row, and the check on login's ``next``."""
from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, ParamSpec, TypeVar
from urllib.parse import urlsplit

from flask import abort
from flask.typing import ResponseReturnValue
from flask_login import current_user, login_required

from trainer.extensions import db

P = ParamSpec("P")
R = TypeVar("R")
M = TypeVar("M")


def role_required(*roles: str) -> Callable[[Callable[P, R]], Callable[P, R | ResponseReturnValue]]:
    """Send anonymous users to sign in and answer 403 to other roles."""

    def decorator(view: Callable[P, R]) -> Callable[P, R | ResponseReturnValue]:
        @wraps(view)
        def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
            if current_user.role not in roles:
                abort(403)
            return view(*args, **kwargs)

        return login_required(wrapped)

    return decorator


def get_owned_or_404(model: type[M], row_id: Any,
                     allowed: Callable[[M], bool] | None = None) -> M:
    """Return the ``model`` row ``row_id`` if ``allowed`` lets the signed-in user see it, else 404.

    A missing row and someone else's answer alike (404, not 403), so ids cannot be
    probed for what exists.
    """
    row = db.session.get(model, row_id)
    if row is None or (allowed is not None and not allowed(row)):
        abort(404)
    return row


def safe_next(target: str | None) -> str | None:
    """Return ``target`` if it is a path on this site, else None."""
    if not target:
        return None
    # Browsers read a backslash as a slash, so "/\evil.example" leaves the site.
    if "\\" in target or any(ord(ch) < 32 for ch in target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return None
    if not target.startswith("/") or target.startswith("//"):
        return None
    return target
