"""Resolving a ref: the services' own look-up of a house way (the engine has none).

``exact`` and ``get_way`` find a preset, a preset's snapshot or a published version and
hand the engine's ``HouseWay`` itself down; ``pin`` names the rules a session, exam or
hand grades by (storing a preset's snapshot once); ``is_offered`` and ``check_choice``
say which refs a group may train on. What is found is kept for the process per (ref,
rules digest); ``forget`` empties that memory (the app factory, for a new app).
"""
from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from sqlalchemy import select

from trainer.engine.house_way import HouseWay, HouseWayError, load, preset_names
from trainer.engine.messages import N_, Message
from trainer.extensions import db
from trainer.models import CustomHouseWay, HouseWaySnapshot, utcnow

from .entries import WayError
from .refs import is_preset, parse_ref, version_row
from .tables import insert_ignoring_duplicates, load_tables

# pin()'s memory for this process: the (ref, rules digest) pairs whose rules are stored
# (a preset's snapshot, a version's own row); emptied by ``forget`` (a new app, a new
# database).
_PINNED: set[tuple[str, str]] = set()
# Published versions seen by ``is_offered`` in this process (emptied with ``_PINNED``).
_OFFERED: set[str] = set()
# The house ways found beyond the presets, per (ref, rules digest asked for; None: any):
# a version is frozen and a snapshot is keyed by its digest, so each is read once a
# process. Only what was found is kept: a version published later is found then.
_FOUND: dict[tuple[str, str | None], HouseWay] = {}


def _build(data: Mapping[str, Any], ref: str) -> HouseWay:
    """Return a stored way's data as the engine's house way named ``ref``, tables attached."""
    named = copy.deepcopy(dict(data))
    named["name"] = ref
    way = HouseWay(named)
    for table in load_tables(way.rules_digest).values():
        if table.rule_ids == way.rule_ids:
            way.attach_table(table)
    return way


def resolve(ref: str, rules_digest: str | None) -> HouseWay | None:
    """Read a house way that is not a current preset from the database (nothing kept).

    A published version by its ref (its digest must match when given), or a preset's
    snapshot by ref and digest; None when nothing is stored.
    """
    if is_preset(ref):
        if rules_digest is None:
            return None
        snapshot = db.session.execute(select(HouseWaySnapshot).where(
            HouseWaySnapshot.ref == ref, HouseWaySnapshot.rules_digest == rules_digest)
        ).scalar_one_or_none()
        return _build(snapshot.data, ref) if snapshot is not None else None
    version = version_row(ref)
    if version is None or (rules_digest is not None and version.rules_digest != rules_digest):
        return None
    return _build(version.data, ref)


def _found(ref: str, rules_digest: str | None) -> HouseWay | None:
    """Return ``resolve``'s answer, kept per (ref, digest) for the process once found."""
    key = (ref, rules_digest)
    way = _FOUND.get(key)
    if way is None:
        way = resolve(ref, rules_digest)
        if way is not None:
            _FOUND[key] = way
            # A version is one set of rules: found by its ref, it is found by its digest too.
            _FOUND.setdefault((ref, way.rules_digest), way)
    return way


def exact(ref: str, rules_digest: str | None = None) -> HouseWay:
    """Return the house way ``ref`` exactly as it was when its rules digest was ``rules_digest``.

    A preset whose rule data still has that digest (or ``rules_digest`` None) is the
    engine's preset; otherwise the stored copy (a snapshot of the preset's earlier rule
    data, or a published version). HouseWayError when the rules graded by are not
    stored; ValueError "Unknown house way" for a ref that names nothing (digest None).
    """
    if is_preset(ref):
        way = load(ref)
        if rules_digest is None or way.rules_digest == rules_digest:
            return way
    elif rules_digest is None:
        found = _found(ref, None) if isinstance(ref, str) else None
        if found is None:
            raise ValueError(f"Unknown house way {ref!r}; the presets are "
                             f"{', '.join(preset_names())}.")
        return found
    found = _found(ref, rules_digest)
    if found is None or found.rules_digest != rules_digest:
        raise HouseWayError(f"{ref}: the house way this was graded under is not stored "
                            f"(rules {str(rules_digest)[:12]}).")
    return found


def forget() -> None:
    """Forget what this process found and pinned (the app factory calls it: a new app may
    have a new database)."""
    _PINNED.clear()
    _OFFERED.clear()
    _FOUND.clear()


def get_way(ref: str) -> HouseWay:
    """Return a preset or published version by ref (superseded ones too), loaded once a process.

    WayError for anything else (a draft has no ref).
    """
    if not isinstance(ref, str) or not (is_preset(ref) or parse_ref(ref)):
        raise WayError(Message(N_("There is no house way called %(ref)s."), ref=repr(ref)))
    try:
        return exact(ref)
    except ValueError:
        raise WayError(Message(N_("There is no house way called %(ref)s."), ref=repr(ref))) from None


def title_of(ref: str) -> str:
    """Return a house way's title ("Riverside house way"), or the ref when unknown."""
    try:
        return get_way(ref).title
    except (WayError, RuntimeError):
        return ref


def pin(ref: str) -> str:
    """Return the rules digest ``ref`` grades by now, for a session, exam or hand to record.

    For a preset, its rule data is stored as a snapshot the first time a process pins
    it (one INSERT that ignores a copy already stored); later calls ask no database.
    """
    way = get_way(ref)  # the engine's, loaded once a process
    digest = way.rules_digest
    if (ref, digest) not in _PINNED:
        if is_preset(ref):
            _store_snapshot(ref, digest, way.data)
        else:
            _OFFERED.add(ref)
        _PINNED.add((ref, digest))
    return digest


def _store_snapshot(ref: str, digest: str, data: Mapping[str, Any]) -> None:
    insert_ignoring_duplicates(db.session, HouseWaySnapshot.__table__, {
        "ref": ref, "rules_digest": digest, "data": copy.deepcopy(dict(data)),
        "created_at": utcnow()})


def is_offered(ref: str) -> bool:
    """Tell whether a group may train on ``ref``: a preset or a published version.

    A version is never withdrawn or deleted, so one found is remembered for the process.
    """
    if not isinstance(ref, str):
        return False
    if is_preset(ref) or ref in _OFFERED:
        return True
    if version_row(ref) is None:
        return False
    _OFFERED.add(ref)
    return True


def check_choice(ref: str) -> None:
    """Refuse (WayError, in words) a house way a group may not choose: a draft, or unknown."""
    if is_offered(ref):
        return
    slug = ref.split("@", 1)[0] if isinstance(ref, str) else ""
    custom = db.session.execute(
        select(CustomHouseWay).where(CustomHouseWay.slug == slug)).scalar_one_or_none()
    if custom is not None:
        raise WayError(Message(N_("%(title)s is not published in that version: a group can "
                                  "train only on a preset or a published version."),
                               title=custom.title))
    raise WayError(Message(N_("There is no published house way called %(ref)s: choose a preset "
                              "or a published version."), ref=repr(ref)))
