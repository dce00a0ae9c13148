"""Time zones: times are stored in UTC and shown in the reader's zone (docs/operations.md).

The zone a page uses is, in order: the reader's own (``User.time_zone``, chosen on the
account page and set by ``services/accounts.py``), the training room's (an installation
setting the admin sets), the browser's (sent by ``static/js/lib.js`` in a cookie), else
UTC. Zone names are IANA names checked against the system's time zone database
(``zoneinfo``); a bad name is refused with a sentence and nothing is changed.
"""
from __future__ import annotations

from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from trainer.extensions import db
from trainer.models import InstallationSetting
from trainer.services import audit

ROOM_ZONE_KEY = "time_zone"
MAX_ZONE_LENGTH = 64


@cache
def _known_zones() -> frozenset[str]:
    return frozenset(available_timezones()) | {"UTC"}


def zone_or_none(name: object) -> ZoneInfo | None:
    """Return the zone of a name if it is a known IANA name, else None (never raises)."""
    if not isinstance(name, str) or not name or len(name) > MAX_ZONE_LENGTH:
        return None
    if name not in _known_zones():
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def checked_zone(name: str) -> str | None:
    """Return a zone name as it will be kept (None for empty); ValueError, in words, for a bad one."""
    name = (name or "").strip()
    if not name:
        return None
    if zone_or_none(name) is None:
        raise ValueError(f"\u201c{name[:MAX_ZONE_LENGTH]}\u201d is not a time zone name; "
                         "write one like Europe/London or America/New_York.")
    return name


def installation_zone() -> str | None:
    """Return the training room's time zone name, None when the admin has set none."""
    row = db.session.get(InstallationSetting, ROOM_ZONE_KEY)
    return row.value if row is not None and zone_or_none(row.value) else None


def set_installation_zone(actor_id: int, name: str) -> None:
    """Set (or clear, with an empty name) the room's time zone, and log it; the caller commits."""
    zone = checked_zone(name)
    row = db.session.get(InstallationSetting, ROOM_ZONE_KEY)
    old = row.value if row is not None else None
    if zone == old:
        return
    if zone is None:
        if row is not None:
            db.session.delete(row)
    elif row is None:
        db.session.add(InstallationSetting(key=ROOM_ZONE_KEY, value=zone))
    else:
        row.value = zone
    audit.record(actor_id, "installation.settings", "installation", 0,
                 old={"time_zone": old}, new={"time_zone": zone})
