"""The stored memories (``SkillMemory`` rows): their JSON record, read and written here only.

A memory's ``record`` is a JSON text: the FSRS card (``CardState.as_dict``: floats as
Python writes them, so a memory read back reviews exactly as one kept in memory), the
reviews and misses, the recent miss rate and the first review's time. The typed columns
repeat what queries filter and order by.

The answer of a drill question reads the trainee's memories of its kind in the same
statement as its session and question (``aggregate_column``: one text, the records of
the kind joined with two separator characters no JSON text holds; ``group_concat`` on
SQLite, ``string_agg`` on PostgreSQL), so the review costs one more statement only, the
write (``save``): an UPDATE that checks the number of reviews it read, or an INSERT
that does nothing on a duplicate. When another request reviewed the same skill first,
the write changes no row and ``review_again`` reads the row and reviews it once more,
so no review is lost (issue 30: at most five statements an answer).
"""
from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import Table, Text, and_, bindparam, cast, func, literal, or_, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.functions import FunctionElement

from trainer.engine.learning.keys import SkillKey
from trainer.engine.learning.memory import CardState, Grade, recent_miss, review
from trainer.extensions import db
from trainer.models import DrillSession, SkillMemory

# Between records, and between a record's fields, in ``aggregate_column``'s text.
RECORD_SEPARATOR = "\x1e"
FIELD_SEPARATOR = "\x1f"
# Tries of ``review_again`` before it gives up (each means another request won a race).
RETRIES = 5
TABLE: Table = SkillMemory.__table__  # type: ignore[assignment]


@dataclass(frozen=True, slots=True)
class Memory:
    """One trainee's memory of one skill."""

    key: SkillKey
    card: CardState
    reviews: int
    lapses: int
    recent_miss: float
    first_reviewed_at: datetime

    @classmethod
    def first(cls, key: SkillKey, grade: Grade, when: datetime) -> Memory:
        """Return the memory of a skill after its first answer, rated ``grade`` at ``when``."""
        missed = grade is Grade.AGAIN
        return cls(key, review(None, grade, when), 1, int(missed), recent_miss(None, missed), when)

    def reviewed(self, grade: Grade, when: datetime) -> Memory:
        """Return this memory after one more answer, rated ``grade`` at ``when``."""
        missed = grade is Grade.AGAIN
        return replace(self, card=review(self.card, grade, when), reviews=self.reviews + 1,
                       lapses=self.lapses + int(missed),
                       recent_miss=recent_miss(self.recent_miss, missed))

    def as_json(self) -> str:
        """Return the record stored."""
        return json.dumps({"card": self.card.as_dict(), "reviews": self.reviews,
                           "lapses": self.lapses, "recent_miss": self.recent_miss,
                           "first": self.first_reviewed_at.isoformat()},
                          separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, key: SkillKey, text: str) -> Memory:
        """Read a stored record; ValueError for anything that is not one."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("A stored memory must be a JSON object.")
        try:
            return cls(key, CardState.from_dict(data["card"]), int(data["reviews"]),
                       int(data["lapses"]), float(data["recent_miss"]),
                       datetime.fromisoformat(str(data["first"])))
        except (KeyError, TypeError) as error:
            raise ValueError(f"A stored memory is missing a field: {error}") from None


def reviewed(memory: Memory | None, key: SkillKey, grade: Grade, when: datetime) -> Memory:
    """Return ``memory`` (None: the skill's first answer) after one answer rated ``grade``."""
    return Memory.first(key, grade, when) if memory is None else memory.reviewed(grade, when)


# --- the read in the answer's statement -------------------------------------------------


class _concat_all(FunctionElement[str]):
    """Every value of a text expression joined with a separator (an aggregate)."""

    type = Text()
    inherit_cache = True
    name = "concat_all"


@compiles(_concat_all)
def _concat_all_sqlite(element: Any, compiler: Any, **kw: Any) -> str:
    return f"group_concat({compiler.process(element.clauses, **kw)})"


@compiles(_concat_all, "postgresql")
def _concat_all_postgresql(element: Any, compiler: Any, **kw: Any) -> str:
    return f"string_agg({compiler.process(element.clauses, **kw)})"


def aggregate_column() -> Any:
    """Return a scalar subquery of the session's trainee's memories of its kind, as one text.

    Correlated with ``drill_sessions`` in the query it is put in: the memories of the
    session's user and kind, of the rules a kind declares or of the session's house way
    and rules; ``parse_aggregate`` reads it.
    """
    table = TABLE
    unit = (table.c.skill + FIELD_SEPARATOR + table.c.way + FIELD_SEPARATOR + table.c.digest
            + FIELD_SEPARATOR + table.c.record)
    return (
        select(_concat_all(unit, cast(literal(RECORD_SEPARATOR), Text)))
        .where(table.c.user_id == DrillSession.user_id, table.c.kind == DrillSession.kind,
               or_(and_(table.c.way == "", table.c.digest == ""),
                   and_(table.c.way == DrillSession.house_way,
                        table.c.digest == func.coalesce(DrillSession.house_way_digest, ""))))
        .scalar_subquery()
    )


def split_aggregate(kind: str, text: str | None) -> dict[SkillKey, str]:
    """Split ``aggregate_column``'s text into the records by skill, still JSON text: an
    answer reads only its own skill's (``Memory.from_json``), a targeted session all."""
    found: dict[SkillKey, str] = {}
    for part in (text or "").split(RECORD_SEPARATOR):
        if part:
            skill, way, digest, record = part.split(FIELD_SEPARATOR, 3)
            found[SkillKey(kind, skill, way, digest)] = record
    return found


def record_in(text: str | None, key: SkillKey) -> str | None:
    """Return the record of ``key`` in ``aggregate_column``'s text (None: none), without
    splitting the others (an answer reads only its own skill's)."""
    if not text:
        return None
    head = FIELD_SEPARATOR.join((key.skill, key.way, key.digest)) + FIELD_SEPARATOR
    if text.startswith(head):
        start = len(head)
    else:
        at = text.find(RECORD_SEPARATOR + head)
        if at < 0:
            return None
        start = at + 1 + len(head)
    end = text.find(RECORD_SEPARATOR, start)
    return text[start:] if end < 0 else text[start:end]


def parse_aggregate(kind: str, text: str | None) -> dict[SkillKey, Memory]:
    """Read ``aggregate_column``'s text: the memories by skill."""
    return {key: Memory.from_json(key, record)
            for key, record in split_aggregate(kind, text).items()}


# --- reading rows -----------------------------------------------------------------------


def _key(row: Any) -> SkillKey:
    return SkillKey(row.kind, row.skill, row.way, row.digest)


def memories_of(user_ids: Iterable[int], kind: str | None = None
                ) -> dict[int, dict[SkillKey, Memory]]:
    """Return the stored memories of these users (of ``kind`` only, when given), by user."""
    ids = sorted(set(user_ids))
    found: dict[int, dict[SkillKey, Memory]] = {i: {} for i in ids}
    if not ids:
        return found
    table = TABLE
    query = select(table.c.user_id, table.c.kind, table.c.skill, table.c.way, table.c.digest,
                   table.c.record).where(table.c.user_id.in_(ids))
    if kind is not None:
        query = query.where(table.c.kind == kind)
    for row in db.session.execute(query):
        key = _key(row)
        found[row.user_id][key] = Memory.from_json(key, row.record)
    return found


def memory_of(user_id: int, key: SkillKey, for_update: bool = False) -> Memory | None:
    """Return one stored memory, or None (``for_update``: the row locked, on PostgreSQL)."""
    table = TABLE
    query = select(table.c.record).where(
        table.c.user_id == user_id, table.c.kind == key.kind, table.c.skill == key.skill,
        table.c.way == key.way, table.c.digest == key.digest)
    if for_update:
        query = query.with_for_update()
    record = db.session.execute(query).scalar_one_or_none()
    return None if record is None else Memory.from_json(key, record)


# --- writing ----------------------------------------------------------------------------


def _values(user_id: int, memory: Memory) -> dict[str, Any]:
    return {"user_id": user_id, "kind": memory.key.kind, "skill": memory.key.skill,
            "way": memory.key.way, "digest": memory.key.digest, "record": memory.as_json(),
            "reviews": memory.reviews, "lapses": memory.lapses, "due": memory.card.due,
            "last_review": memory.card.last_review or memory.first_reviewed_at,
            "first_reviewed_at": memory.first_reviewed_at}


@functools.cache
def _insert_statement(dialect: str) -> Any:
    """Build, once a process, the INSERT of a new memory that does nothing on a duplicate; it
    returns the new row's id, so no row back means a duplicate (the driver's row count of
    such an INSERT is not to be trusted on every backend)."""
    maker = pg_insert if dialect == "postgresql" else sqlite_insert
    return maker(TABLE).on_conflict_do_nothing().returning(TABLE.c.id)


@functools.cache
def _update_statement() -> Any:
    """Build, once a process, the UPDATE of a memory that holds the number of reviews read."""
    table = TABLE
    return (table.update()
            .where(table.c.user_id == bindparam("b_user_id"), table.c.kind == bindparam("b_kind"),
                   table.c.skill == bindparam("b_skill"), table.c.way == bindparam("b_way"),
                   table.c.digest == bindparam("b_digest"),
                   table.c.reviews == bindparam("b_reviews"))
            .values({name: bindparam(name) for name in
                     ("record", "reviews", "lapses", "due", "last_review")}))


def save(user_id: int, before: Memory | None, after: Memory) -> bool:
    """Write ``after`` over ``before`` (None: no row yet) in one statement; False when another
    request changed or made the row first (nothing is written then)."""
    connection = db.session.connection()
    values = _values(user_id, after)
    if before is None:
        inserted = connection.execute(_insert_statement(connection.dialect.name), values)
        return inserted.first() is not None
    key = before.key
    result: Any = connection.execute(_update_statement(), {
        "b_user_id": user_id, "b_kind": key.kind, "b_skill": key.skill, "b_way": key.way,
        "b_digest": key.digest, "b_reviews": before.reviews,
        **{name: values[name] for name in ("record", "reviews", "lapses", "due", "last_review")}})
    return bool(result.rowcount == 1)


def review_again(user_id: int, key: SkillKey, grade: Grade, when: datetime) -> Memory:
    """Review a skill whose row another request changed meanwhile: read it, review, write."""
    for _ in range(RETRIES):
        before = memory_of(user_id, key, for_update=True)
        after = reviewed(before, key, grade, when)
        if save(user_id, before, after):
            return after
    raise RuntimeError(f"Could not record the review of {key} for user {user_id}.")


def review_one(user_id: int, before: Memory | None, key: SkillKey, grade: Grade,
               when: datetime) -> Memory:
    """Review a skill whose memory was read as ``before``: one statement unless raced."""
    after = reviewed(before, key, grade, when)
    return after if save(user_id, before, after) else review_again(user_id, key, grade, when)


def replace_all(user_id: int, kind: str, skill: str, memories: Mapping[SkillKey, Memory]) -> None:
    """Replace every stored memory of ``skill`` (any house way) with ``memories``."""
    table = TABLE
    db.session.execute(table.delete().where(
        table.c.user_id == user_id, table.c.kind == kind, table.c.skill == skill))
    if memories:
        db.session.execute(table.insert(), [_values(user_id, m) for m in memories.values()])
