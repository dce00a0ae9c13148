"""The installation's house ways and table-rules profiles: what a manager owns.

The one owner of "the presets plus the published custom versions" (issue 18, item 6):
every page, drill, exam and command that offers or loads a house way asks this module.
The engine owns the presets (``engine/house_way``); a manager's own ways are stored
here (``models/house_way.py``).

A house way is named by a *ref*: a preset's name (``trump-plaza``) or a published
version of a custom way, ``<slug>@<n>`` (``riverside@2``). Decisions
(docs/house-ways.md, "Versions"):

- A custom way has one draft, which only its editors see; publishing freezes the
  draft as the next version number (who, when, a note, the check report). Drafts
  never reach trainees: only presets and published versions are refs.
- Publishing is refused unless the newest check job of the draft's exact rule data
  (``check:<rules digest>``, services/jobs.py) finished with 0 fouled and 0
  undecided hands.
- Every published version stays offered and readable; a later version *supersedes*
  an earlier one (shown so), but a group on version 1 stays on it until a
  supervisor switches it.
- A session, exam or game hand records the ref and ``pin(ref)``, the rules digest it
  grades by. For a preset the rule data is stored once (a *snapshot*, keyed by
  ref and digest), so its attempts re-grade exactly after the preset file changes;
  a version is frozen, so its digest finds it.
- The engine knows the presets only and never calls up (issue 28): this module resolves
  a ref (``get_way``, ``exact``: a preset, a preset's snapshot, a published version) and
  hands the house way itself down, in a drill's context or a game's hand. What it finds
  is kept for the process per (ref, rules digest); the app factory empties that memory
  (``forget``) for a new app, as a new app may have a new database.
"""
from __future__ import annotations

import copy
import re
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import InstrumentedAttribute, Session

from trainer.engine.house_way import (
    DEFAULT_HOUSE_WAY,
    HouseWay,
    HouseWayError,
    load,
    preset_names,
)
from trainer.engine.house_way.classes import ClassTable, class_keys
from trainer.engine.house_way.interpreter import rules_digest as digest_of
from trainer.engine.messages import N_, Joined, Message, Nn_, Plural
from trainer.extensions import db
from trainer.models import (
    CustomHouseWay,
    Group,
    HouseWaySnapshot,
    HouseWayTable,
    HouseWayVersion,
    utcnow,
)
from trainer.services import audit
from trainer.services import profiles as profiles_service
from trainer.services.profiles import ProfileEntry

SLUG = re.compile(r"[a-z][a-z0-9-]{2,39}")
REF = re.compile(r"([a-z][a-z0-9-]{2,39})@([1-9][0-9]{0,8})")
NOTE_LENGTH = 2000


class WayError(ValueError):
    """A house-way request was refused; the message says why, in words."""


class PublishRefused(WayError):
    """Publishing a draft was refused; ``reason`` says why, in words."""

    def __init__(self, reason: Message | str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class HouseWayEntry:
    """One house way of the installation, described for people (the manager's list).

    A preset, or a custom way (``way_id`` set) with its draft and published versions.
    """

    name: str
    title: str
    casino: str
    sections: int
    rules: int
    default: bool
    groups: int
    way_id: int | None = None
    versions: tuple[HouseWayChoice, ...] = ()
    # A custom way's draft differs from its latest version (or nothing is published yet).
    unpublished_changes: bool = False
    # Its draft or a published version holds an explanation that cannot be used (issue 24;
    # ``editing.explanation_problems``): the editor and the version's page say which.
    needs_repair: bool = False


@dataclass(frozen=True, slots=True)
class HouseWayChoice:
    """A house way a group may train on: a preset or a published custom version."""

    ref: str
    title: str
    casino: str
    version: int | None
    published_at: datetime | None
    note: str
    preset: bool
    superseded: bool


# --- refs ------------------------------------------------------------------------------

def parse_ref(ref: str) -> tuple[str, int] | None:
    """Return (slug, version number) of a custom version's ref, None for anything else."""
    found = REF.fullmatch(ref) if isinstance(ref, str) else None
    return (found[1], int(found[2])) if found else None


def is_preset(ref: str) -> bool:
    """Tell whether ``ref`` names one of the engine's presets."""
    return ref in preset_names()


def _version(ref: str) -> HouseWayVersion | None:
    if parse_ref(ref) is None:
        return None
    return db.session.execute(
        select(HouseWayVersion).where(HouseWayVersion.ref == ref)).scalar_one_or_none()


# --- resolving a ref (the services' own look-up; the engine has none) --------------------

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
    version = _version(ref)
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


# --- what is offered ---------------------------------------------------------------------

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


def is_offered(ref: str) -> bool:
    """Tell whether a group may train on ``ref``: a preset or a published version.

    A version is never withdrawn or deleted, so one found is remembered for the process.
    """
    if not isinstance(ref, str):
        return False
    if is_preset(ref) or ref in _OFFERED:
        return True
    if _version(ref) is None:
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


def _insert_ignoring_duplicates(session: Any, table: Any, values: Mapping[str, Any]) -> None:
    """INSERT a row unless one with the same unique key is there (no race between processes)."""
    dialect = session.get_bind().dialect.name
    maker = pg_insert if dialect == "postgresql" else sqlite_insert
    session.execute(maker(table).values(**values).on_conflict_do_nothing())


def _store_snapshot(ref: str, digest: str, data: Mapping[str, Any]) -> None:
    _insert_ignoring_duplicates(db.session, HouseWaySnapshot.__table__, {
        "ref": ref, "rules_digest": digest, "data": copy.deepcopy(dict(data)),
        "created_at": utcnow()})


# --- class tables ------------------------------------------------------------------------

def store_tables(rules_digest: str, tables: Mapping[str, ClassTable] | Iterable[ClassTable],
                 session: Session | None = None) -> None:
    """Keep the class tables of a checked way (one per wheel setting), by rules digest.

    A table already stored for the digest and wheel is kept as it is. With ``session``
    (a job worker's own), the rows join its transaction and the caller commits;
    otherwise they are committed here.
    """
    own = session is None
    target: Any = db.session if session is None else session
    items = tables.values() if isinstance(tables, Mapping) else tables
    for table in items:
        if table.rules_digest != rules_digest:
            raise ValueError("This class table was built from other rules.")
        _insert_ignoring_duplicates(target, HouseWayTable.__table__, {
            "rules_digest": rules_digest, "wheel": table.wheel,
            "rule_ids": list(table.rule_ids), "split": zlib.compress(table.split, 6),
            "rule": zlib.compress(table.rule, 6), "created_at": utcnow()})
    if own:
        db.session.commit()


def load_tables(rules_digest: str, session: Session | None = None) -> dict[str, ClassTable]:
    """Return the stored class tables of a rules digest by wheel setting (none: {}).

    ``session``: a job worker's own (default: the app's).
    """
    source: Any = db.session if session is None else session
    rows = source.execute(
        select(HouseWayTable).where(HouseWayTable.rules_digest == rules_digest)).scalars()
    keys = class_keys()
    n = len(keys.keys)
    tables = {}
    for row in rows:
        try:
            split, rule = zlib.decompress(row.split), zlib.decompress(row.rule)
        except zlib.error:
            continue
        if len(split) != n or len(rule) != n:
            continue
        tables[row.wheel] = ClassTable("", row.wheel, rules_digest, tuple(row.rule_ids),
                                       keys, split, rule)
    return tables


# --- drafts and versions -----------------------------------------------------------------

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
    version = _version(base_ref)
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


def versions(way_id: int) -> list[HouseWayVersion]:
    """Return a custom way's published versions, the first first."""
    return list(db.session.execute(
        select(HouseWayVersion).where(HouseWayVersion.way_id == way_id)
        .order_by(HouseWayVersion.number)).scalars())


def check_report(rules_digest: str) -> dict[str, Any] | None:
    """Return the report of the newest finished check of this rule data, or None."""
    from trainer.services import jobs

    job = jobs.latest(f"check:{rules_digest}")
    if job is None or job.status != "done" or not isinstance(job.result, dict):
        return None
    return job.result


def publish_refusal(record: CustomHouseWay) -> Message | None:
    """Return why the draft cannot be published now, a sentence to say (str() is English);
    None when it can."""
    from trainer.engine.house_way import editing
    from trainer.services import jobs

    digest = record.draft_digest
    if digest is None or digest != digest_of(record.draft):
        return Message(N_("The draft has errors: correct them and check it first."))
    # An explanation that cannot be used (issue 24): stored before the rule, or past the
    # editor. Its rules digest is unchanged (words are not rules), so it is asked here.
    if editing.explanation_problems(record.draft):
        return Message(N_("An explanation of this draft needs repair (listed above): correct "
                          "it before publishing."))
    job = jobs.latest(f"check:{digest}")
    if job is None:
        return Message(N_("This draft has not been checked: run Check and publish once it finds "
                          "no foul."))
    if job.status != "done" or not isinstance(job.result, dict):
        return Message(N_("The check of this draft has not finished: publish once it reports "
                          "no foul and no undecided hand."))
    fouled = int(job.result.get("fouled_hands", 1) or 0)
    undecided = int(job.result.get("undecided_hands", 1) or 0)
    if fouled or undecided:
        parts = []
        if fouled:
            parts.append(Plural(Nn_("%(count)s hand foul", "%(count)s hands foul"), fouled))
        if undecided:
            parts.append(Plural(Nn_("no rule decides %(count)s hand",
                                    "no rule decides %(count)s hands"), undecided))
        return Message(N_("The check found that %(problems)s: correct the rules and check again."),
                       problems=Joined(parts, N_(" and ")))
    return None


def publish(way_id: int, note: str, user_id: int | None) -> HouseWayVersion:
    """Freeze the draft as the next version (PublishRefused unless its check is clean).

    The version keeps the check report; the class tables the check stored serve it
    (they are keyed by the rules digest). Logged and committed.
    """
    record = get_draft(way_id)
    problem = publish_refusal(record)
    if problem:
        raise PublishRefused(problem)
    note = (note or "").strip()
    if len(note) > NOTE_LENGTH:
        raise PublishRefused(Message(N_("A note has at most %(most)s characters."), most=NOTE_LENGTH))
    number = int(db.session.execute(select(func.coalesce(func.max(HouseWayVersion.number), 0))
                                    .where(HouseWayVersion.way_id == record.id)).scalar_one()) + 1
    ref = f"{record.slug}@{number}"
    assert record.draft_digest is not None  # publish_refusal checked it
    version = HouseWayVersion(
        way_id=record.id, number=number, ref=ref, data=copy.deepcopy(record.draft),
        rules_digest=record.draft_digest, note=note, published_by_id=user_id,
        published_at=utcnow(), check=check_report(record.draft_digest))
    db.session.add(version)
    db.session.flush()
    audit.record(user_id, "house_way.publish", "house_way", record.id,
                 new={"version": ref, "note": note})
    db.session.commit()
    return version


# --- the manager's list -------------------------------------------------------------------

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
