"""The app's Flask class: Flask's own, with its per-request "is this a coroutine?" checks kept.

Flask asks ``ensure_sync`` about every view, hook and context processor it calls,
about fourteen times a request, and each answer is ``inspect.iscoroutinefunction``
worked out again (issue 15: a question and an answer in 2 ms). A plain function
found not to be a coroutine function is remembered (its code never changes);
anything else (a coroutine function, a bound method, a partial) goes through
Flask's own check every time. The remembered set is bounded, so functions made
per request cannot grow it without end.
"""
from __future__ import annotations

from types import FunctionType
from typing import Any

from flask import Flask

_KEPT = 2048


class TrainerFlask(Flask):
    """Flask with ``ensure_sync`` remembering the plain functions that are not coroutines."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sync_functions: set[FunctionType] = set()

    def ensure_sync(self, func: Any) -> Any:
        if type(func) is not FunctionType:
            return super().ensure_sync(func)
        if func in self._sync_functions:
            return func
        found = super().ensure_sync(func)
        if found is func and len(self._sync_functions) < _KEPT:
            self._sync_functions.add(func)
        return found
