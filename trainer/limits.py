"""Ranges the database can hold, and one parser for the numbers a request carries.

The primary keys are PostgreSQL ``integer`` columns (32-bit, also on SQLite as
mapped), so an id above ``ID_MAX`` names nothing; it must never reach a query,
where PostgreSQL answers "integer out of range" and SQLite "Python int too large".
"""
from __future__ import annotations

from typing import Any

ID_MAX = 2**31 - 1


def bounded_int(value: Any, low: int, high: int) -> int | None:
    """Return ``value`` as an int within ``low..high``, or None for anything else.

    Accepts an int (not a bool) or a string of decimal digits, as a form, a query
    string or a JSON body carries it; the digit count is checked before ``int()``
    so a million-digit string costs nothing.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        text = value.strip()
        if not text.isascii() or not text.isdigit() or len(text) > len(str(high)):
            return None
        value = int(text)
    if not isinstance(value, int) or not low <= value <= high:
        return None
    return value


def parse_id(value: Any) -> int | None:
    """Return ``value`` as a row id (1..2**31-1), or None when it cannot be one."""
    return bounded_int(value, 1, ID_MAX)
