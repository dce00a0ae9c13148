"""The installation's house ways and table-rules profiles: what a manager owns.

One place lists them, with how many groups use each (the manager's "House ways"
page). Today they are the engine's presets and profiles; the house-way editor
(issue 18) adds the published custom versions here, and every page that offers
a house way or a profile is meant to ask this module.
"""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import InstrumentedAttribute

from trainer.engine.house_way import DEFAULT_HOUSE_WAY, load, preset_names
from trainer.extensions import db
from trainer.models import Group
from trainer.services import profiles as profiles_service
from trainer.services.profiles import ProfileEntry


@dataclass(frozen=True, slots=True)
class HouseWayEntry:
    """One house way the installation offers, described for people."""

    name: str
    title: str
    casino: str
    sections: int
    rules: int
    default: bool
    groups: int


def _groups_using(column: InstrumentedAttribute[str]) -> dict[str, int]:
    """Return how many groups hold each value of ``column`` (a house way, a profile)."""
    rows = db.session.execute(select(column, func.count()).group_by(column)).all()
    return {str(value): int(count) for value, count in rows}


def house_ways() -> list[HouseWayEntry]:
    """Return every house way on offer, the default first, with the number of groups on it."""
    used = _groups_using(Group.house_way)
    entries = []
    for name in preset_names():
        way = load(name)
        entries.append(HouseWayEntry(
            name=name, title=way.title, casino=way.casino,
            sections=len(way.sections), rules=len(way.rules),
            default=name == DEFAULT_HOUSE_WAY, groups=used.get(name, 0)))
    return entries


def profiles() -> list[ProfileEntry]:
    """Return every table-rules profile, presets then custom, with its groups (services/profiles.py)."""
    return profiles_service.entries()
