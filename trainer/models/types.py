"""Column types shared by the models, and the id range the database can hold."""
from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator


def utcnow() -> datetime:
    """Return the current time as an aware UTC datetime."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """Store aware datetimes as UTC and hand them back aware on every backend.

    PostgreSQL keeps the offset itself; SQLite has no time zone type, so the
    value is stored as naive UTC and the zone is put back on the way out.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Reject naive datetimes and convert aware ones to UTC."""
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError("Times must be aware datetimes, in UTC.")
        value = value.astimezone(UTC)
        if dialect.name == "sqlite":
            return value.replace(tzinfo=None)
        return value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Return the stored time as an aware UTC datetime."""
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


# Ranges the database can hold, and one parser for the numbers a request carries.
#
# The primary keys are PostgreSQL ``integer`` columns (32-bit, also on SQLite as
# mapped), so an id above ``ID_MAX`` names nothing; it must never reach a query,
# where PostgreSQL answers "integer out of range" and SQLite "Python int too large".
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
