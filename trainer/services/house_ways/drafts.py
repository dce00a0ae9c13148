"""A custom way's draft: started from a preset, a version or an import, and saved.

Only valid data is stored (the editor's rules, ``editing.validate``); its rules digest
is kept beside it. A copy of a preset or version leaves its provenance behind
(``without_provenance``): the copy is the new casino's own way.
"""
from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from sqlalchemy import select

from trainer.engine.house_way import DEFAULT_HOUSE_WAY
from trainer.engine.house_way.interpreter import rules_digest as digest_of
from trainer.engine.messages import N_, Message
from trainer.extensions import db
from trainer.models import CustomHouseWay, utcnow
from trainer.services import audit

from .entries import WayError
from .refs import SLUG, is_preset, version_row


def _checked(data: Mapping[str, Any]) -> str:
    """Validate house-way data (the editor's rules); return its rules digest.

    Raises the editor's ``EditError`` (each field's message) when it is not valid.
    """
    from trainer.engine.house_way import editing

    errors = editing.validate(dict(data))
    if errors:
        raise editing.EditError(errors)
    return digest_of(data)


def _base_data(base_ref: str) -> dict[str, Any]:
    if is_preset(base_ref):
        from trainer.engine.house_way import editing

        return editing.preset_data(base_ref)
    version = version_row(base_ref)
    if version is None:
        raise WayError(Message(N_("There is no published house way called %(ref)s to copy."),
                               ref=repr(base_ref)))
    return copy.deepcopy(dict(version.data))


def slug_problem(slug: str) -> Message | None:
    """Return why ``slug`` cannot name a new custom way (a sentence; str() is English), else None."""
    if not isinstance(slug, str) or not SLUG.fullmatch(slug):
        return Message(N_("A short name is 3 to 40 characters: lowercase letters, digits and '-', "
                          "starting with a letter."))
    if is_preset(slug):
        return Message(N_("%(slug)s is the name of a preset house way; choose another."),
                       slug=repr(slug))
    taken = db.session.execute(
        select(CustomHouseWay.id).where(CustomHouseWay.slug == slug)).first()
    if taken is not None:
        return Message(N_("There is already a house way called %(slug)s."), slug=repr(slug))
    return None


# What a preset's sheet says about where it comes from and how the trainer read it: its
# source, the authority of that source, its notes, and the "resolved"/"decided" lines that
# explain a reading (often by other casinos' sheets). None of it is the copying casino's.
PROVENANCE_FIELDS = ("source", "authority", "notes")
READING_NOTES = ("resolved", "decided")


def without_provenance(data: dict[str, Any]) -> dict[str, Any]:
    """Drop a copied way's provenance and reading notes, in place (and return it).

    A copy is the new casino's own way (docs/house-ways.md, "Sheets"): its sheet prints
    what the casino writes, never the preset's sources or notes about other casinos.
    """
    # The authority's marks ("lines marked [2002] are the casino's text"): meaningless
    # without it, so they leave the copied lines too.
    marks = set(re.findall(r"\[[^\[\]\s]{1,20}\]", str(data.get("authority") or "")))
    if marks:
        pattern = re.compile(r"\s*(?:" + "|".join(re.escape(m) for m in sorted(marks)) + ")")
        _unmark(data, pattern)
    for key in PROVENANCE_FIELDS:
        data.pop(key, None)
    for words in (data.get("translations") or {}).values():
        if isinstance(words, dict):
            for key in PROVENANCE_FIELDS:
                words.pop(key, None)
    for section in data.get("sections") or []:
        if not isinstance(section, dict):
            continue
        for key in READING_NOTES:
            section.pop(key, None)
        for rule in section.get("rules") or []:
            if isinstance(rule, dict):
                for key in READING_NOTES:
                    rule.pop(key, None)
    return data


def _unmark(value: Any, pattern: re.Pattern[str]) -> Any:
    """Remove the marks ``pattern`` finds from every string in ``value``, in place."""
    items = value.items() if isinstance(value, dict) else \
        enumerate(value) if isinstance(value, list) else ()
    for key, item in list(items):
        if isinstance(item, str):
            value[key] = pattern.sub("", item)
        else:
            _unmark(item, pattern)
    return value


def create_draft(slug: str, casino: str, base_ref: str | None = None,
                 data: Mapping[str, Any] | None = None, *, user_id: int | None,
                 title: str | None = None) -> CustomHouseWay:
    """Start a custom way: a copy of ``base_ref`` (a preset or version) or ``data`` (an import).

    Its name becomes ``slug`` and its casino ``casino``; WayError for a bad slug or base,
    the editor's EditError when the data is not valid. Logged and committed. A copy named
    for another casino takes ``title`` (the web words it in the manager's language,
    "%(casino)s house way"; the manager's own data from then on), else "<casino> house way".
    """
    problem = slug_problem(slug)
    if problem:
        raise WayError(problem)
    casino = (casino or "").strip()
    copied = data is None
    if data is None:
        data = _base_data(base_ref or DEFAULT_HOUSE_WAY)
    draft = copy.deepcopy(dict(data))
    if copied:
        without_provenance(draft)
    draft["name"] = slug
    if casino and casino != draft.get("casino"):
        # A copy is the new casino's way: its casino and title name it (the manager
        # may reword the title in the editor).
        draft["casino"] = casino
        draft["title"] = (title or "").strip() or f"{casino} house way"
        # The copied sheet's translated titles name the other casino (issue 19): dropped,
        # so readers in every language see the new title until it is translated.
        for words in (draft.get("translations") or {}).values():
            if isinstance(words, dict):
                words.pop("title", None)
    digest = _checked(draft)
    now = utcnow()
    record = CustomHouseWay(
        slug=slug, casino=str(draft.get("casino", "")), title=str(draft.get("title") or slug),
        base_ref=base_ref, draft=draft, draft_digest=digest, created_by_id=user_id,
        created_at=now, updated_by_id=user_id, updated_at=now)
    db.session.add(record)
    db.session.flush()
    audit.record(user_id, "house_way.create", "house_way", record.id,
                 new={"name": slug, "casino": record.casino, "copied_from": base_ref})
    db.session.commit()
    return record


def get_draft(way_id: int) -> CustomHouseWay:
    """Return a custom way (its draft) by id; WayError when there is none."""
    record = db.session.get(CustomHouseWay, way_id) if isinstance(way_id, int) else None
    if record is None:
        raise WayError(Message(N_("There is no such custom house way.")))
    return record


def save_draft(way_id: int, data: Mapping[str, Any], user_id: int | None) -> CustomHouseWay:
    """Store a valid draft (its name stays the way's slug); the editor's EditError otherwise,
    and nothing is stored. Committed."""
    record = get_draft(way_id)
    draft = copy.deepcopy(dict(data))
    draft["name"] = record.slug
    digest = _checked(draft)
    record.draft, record.draft_digest = draft, digest
    record.casino = str(draft.get("casino", record.casino))
    record.title = str(draft.get("title") or record.title)
    record.updated_by_id, record.updated_at = user_id, utcnow()
    db.session.commit()
    return record
