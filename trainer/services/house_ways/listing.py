"""What is listed: the house ways a group may choose, and the manager's list of them all."""
from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import InstrumentedAttribute

from trainer.engine.house_way import DEFAULT_HOUSE_WAY, load, preset_names
from trainer.extensions import db
from trainer.models import CustomHouseWay, Group, HouseWayVersion
from trainer.services import profiles as profiles_service
from trainer.services.profiles import ProfileEntry

from .entries import HouseWayChoice, HouseWayEntry
from .refs import SLUG


def _latest_numbers() -> dict[int, int]:
    rows = db.session.execute(select(HouseWayVersion.way_id, func.max(HouseWayVersion.number))
                              .group_by(HouseWayVersion.way_id)).all()
    return {int(way_id): int(number) for way_id, number in rows}


def latest_ref(slug: str) -> str | None:
    """Return the ref of a custom way's newest published version; None when it has none."""
    if not isinstance(slug, str) or not SLUG.fullmatch(slug):
        return None
    number = db.session.execute(
        select(func.max(HouseWayVersion.number)).join(CustomHouseWay)
        .where(CustomHouseWay.slug == slug)).scalar_one_or_none()
    return None if number is None else f"{slug}@{int(number)}"


def _choice(version: HouseWayVersion, latest: int) -> HouseWayChoice:
    data = version.data or {}
    return HouseWayChoice(version.ref, str(data.get("title") or version.ref),
                          str(data.get("casino") or ""), version.number, version.published_at,
                          version.note or "", False, version.number < latest)


def choices() -> list[HouseWayChoice]:
    """Return every house way a group may choose: the presets (default first), then each
    custom way's published versions, newest first (earlier ones marked superseded)."""
    result = []
    for name in preset_names():
        way = load(name)
        result.append(HouseWayChoice(name, way.title, way.casino, None, None, "", True, False))
    latest = _latest_numbers()
    versions = db.session.execute(
        select(HouseWayVersion).join(CustomHouseWay)
        .order_by(CustomHouseWay.title, CustomHouseWay.slug, HouseWayVersion.number.desc())
    ).scalars()
    result.extend(_choice(v, latest[v.way_id]) for v in versions)
    return result


def _groups_using(column: InstrumentedAttribute[str]) -> dict[str, int]:
    """Return how many groups hold each value of ``column`` (a house way, a profile)."""
    rows = db.session.execute(select(column, func.count()).group_by(column)).all()
    return {str(value): int(count) for value, count in rows}


def house_ways() -> list[HouseWayEntry]:
    """Return every house way: the presets (default first), then the custom ways with their
    versions (newest first), each with the number of groups on it."""
    used = _groups_using(Group.house_way)
    entries = []
    for name in preset_names():
        way = load(name)
        entries.append(HouseWayEntry(
            name=name, title=way.title, casino=way.casino,
            sections=len(way.sections), rules=len(way.rules),
            default=name == DEFAULT_HOUSE_WAY, groups=used.get(name, 0)))
    latest = _latest_numbers()
    from trainer.engine.house_way import editing

    by_way: dict[int, list[HouseWayChoice]] = {}
    last_digest: dict[int, str] = {}
    repair: set[int] = set()
    for v in db.session.execute(select(HouseWayVersion)
                                .order_by(HouseWayVersion.number.desc())).scalars():
        by_way.setdefault(v.way_id, []).append(_choice(v, latest[v.way_id]))
        last_digest.setdefault(v.way_id, v.rules_digest)
        if editing.explanation_problems(v.data):
            repair.add(v.way_id)
    records = db.session.execute(
        select(CustomHouseWay).order_by(CustomHouseWay.title, CustomHouseWay.slug)).scalars()
    for record in records:
        sections = record.draft.get("sections", []) if isinstance(record.draft, dict) else []
        refs = by_way.get(record.id, [])
        entries.append(HouseWayEntry(
            name=record.slug, title=record.title, casino=record.casino,
            sections=len(sections), rules=sum(len(s.get("rules", [])) for s in sections),
            default=False, groups=sum(used.get(c.ref, 0) for c in refs),
            way_id=record.id, versions=tuple(refs),
            unpublished_changes=last_digest.get(record.id) != record.draft_digest,
            needs_repair=record.id in repair or bool(editing.explanation_problems(record.draft))))
    return entries


def profiles() -> list[ProfileEntry]:
    """Return every table-rules profile, presets then custom, with its groups (services/profiles.py)."""
    return profiles_service.entries()
