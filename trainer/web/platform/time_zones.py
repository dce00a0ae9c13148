"""The reader's time zone for this request (trainer/services/time_zones.py says the order).

``select_zone`` is Flask-Babel's time zone selector, so every ``datetimeformat`` in a
template shows the stored UTC time in the reader's zone; ``time_zone_label`` names that
zone beside the times. The browser's zone arrives in the ``tz`` cookie (static/js/lib.js).
"""
from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from babel.dates import format_date
from flask import g, has_request_context, request
from flask_babel import get_locale
from flask_login import current_user

from trainer.services import time_zones

COOKIE = "tz"


def select_zone() -> ZoneInfo | None:
    """Return the zone times are shown in on this request (None: UTC)."""
    if not has_request_context():
        return None
    if "reader_zone" not in g:
        g.reader_zone = _reader_zone()
    zone: ZoneInfo | None = g.reader_zone
    return zone


def _reader_zone() -> ZoneInfo | None:
    if current_user.is_authenticated:
        own = time_zones.zone_or_none(getattr(current_user, "time_zone", None))
        if own is not None:
            return own
    room = time_zones.zone_or_none(time_zones.installation_zone())
    if room is not None:
        return room
    return time_zones.zone_or_none(request.cookies.get(COOKIE))


def browser_zone() -> str | None:
    """Return the browser's zone name from its cookie, if it is a known one."""
    name = request.cookies.get(COOKIE) if has_request_context() else None
    return name if time_zones.zone_or_none(name) is not None else None


def time_zone_label() -> str:
    """Return the name of the zone this page's times are in (``Europe/London``, ``UTC``)."""
    zone = select_zone()
    return "UTC" if zone is None else str(zone.key).replace("_", " ")


def local_date(moment: datetime, format: str = "medium") -> str:
    """Write the date of a stored UTC time as the reader sees it: in their time zone and
    their language's date format ("3 Dec 2026", "December 3, 2026", "3 dic 2026").

    ``flask_babel.format_date`` cannot be used on a datetime here: it converts with the
    pytz-only ``normalize``, which the reader's ``ZoneInfo`` does not have (a 500).
    """
    zone = select_zone() if has_request_context() else None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    day = moment.astimezone(zone or UTC).date()
    return format_date(day, format, locale=str(get_locale() or "en"))
