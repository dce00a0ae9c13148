"""When a trainee's memories change: exactly when a grade becomes visible to them.

- **At the answer**, in practice and timed sessions (``review_answer``, in the answer's
  own transaction and statements: ``services/drills/sessions.answer_question``). An
  exam's answers are not reviewed there: nothing a trainee sees during an exam changes
  with their exam answers.
- **At the exam's end** (``exam_ended``, from ``certification.exams`` when it judges the
  exam), and **at the lock** for a live class's answers (``record_class_attempts``, which
  the classroom service calls with the attempts it records at the lock).
- A question the server records as timed out because the trainee left it (the sweeper,
  or the next question's request after a reload) has no answer request; its grade
  becomes visible on the trainee's summary and results pages. It is reviewed by
  ``bring_up_to_date``, which every reader of memories calls first.

``bring_up_to_date`` also makes the memories whole whatever happened: it compares, per
trainee and skill, the reviews stored with the answers on record that the trainee can see
(every attempt but those of an exam not yet ended), and rebuilds a skill whose counts
differ from its attempts, in the order they were answered, each rated by its session's
rating time (``rating.py``; worked out now for a session that has none). So answers
recorded before issue 30, a class's answers if the lock did not review them, an exam's
at its end and a timed-out question are all reviewed once; a memory is always the one an
uninterrupted run of FSRS over the trainee's visible answers gives.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from trainer.engine.learning.keys import FALLBACK, SkillKey, skill_id, skill_key
from trainer.engine.learning.memory import rating
from trainer.extensions import db
from trainer.models import Attempt, DrillSession, Group, SkillMemory
from trainer.services.certification.sealing import sealed_session_ids
from trainer.services.group_settings import GroupSettings
from trainer.services.learning import rating as rating_time
from trainer.services.learning.records import (
    Memory,
    memories_of,
    record_in,
    replace_all,
    review_one,
    reviewed,
    split_aggregate,
)


class Reviewed:
    """An answer's review: its skill's memory after it, and the others its statement read
    (split and read from their JSON only when asked for: a targeted session's next question)."""

    def __init__(self, key: SkillKey, memory: Memory, aggregate: str | None) -> None:
        self.key = key
        self.memory = memory
        self.aggregate = aggregate

    def all(self) -> dict[SkillKey, Memory]:
        """Return every memory of the kind the answer's statement read, this review's included."""
        others = split_aggregate(self.key.kind, self.aggregate)
        found = {k: Memory.from_json(k, text) for k, text in others.items() if k != self.key}
        found[self.key] = self.memory
        return found


def review_answer(*, user_id: int, kind: str, rule_id: str, house_way: str,
                  rules_digest: str | None, aggregate: str | None, correct: bool,
                  timed_out: bool, elapsed_ms: int, rating_ms: int | None,
                  when: datetime) -> Reviewed:
    """Review the skill an answer exercised, from the memories its statement read
    (``aggregate``; only its own skill's is read). One write, unless raced."""
    key = skill_key(kind, rule_id, house_way, rules_digest)
    record = record_in(aggregate, key)
    before = None if record is None else Memory.from_json(key, record)
    grade = rating(correct, timed_out, elapsed_ms, rating_ms)
    return Reviewed(key, review_one(user_id, before, key, grade, when), aggregate)


class _RatingTimes:
    """The rating time of sessions that kept none: worked out once per group and kind."""

    def __init__(self) -> None:
        self.found: dict[tuple[int | None, str], int | None] = {}

    def of(self, session_ms: int | None, group_id: int | None, kind: str) -> int | None:
        if session_ms is not None:
            return session_ms
        if (group_id, kind) not in self.found:
            group = db.session.get(Group, group_id) if group_id is not None else None
            self.found[group_id, kind] = rating_time.rating_time_ms(
                GroupSettings.of(group), group_id, kind)
        return self.found[group_id, kind]


def record_class_attempts(attempts: Sequence[Attempt]) -> None:
    """Review the skills of a live class's answers, recorded at the lock (issue 31).

    The classroom service calls this in the lock's transaction, with the attempts it has
    just added (flushed): each is reviewed at its answer time, in the order answered.
    """
    if not attempts:
        return
    kinds = {a.kind for a in attempts}
    users = {a.user_id for a in attempts}
    stored: dict[int, dict[SkillKey, Memory]] = {u: {} for u in users}
    for kind in kinds:
        for user_id, found in memories_of(users, kind).items():
            stored[user_id].update(found)
    times = _RatingTimes()
    for attempt in sorted(attempts, key=lambda a: (a.answered_at, a.id or 0)):
        if attempt.rule_id is None:
            continue
        session = attempt.session
        key = skill_key(attempt.kind, attempt.rule_id, session.house_way,
                        session.house_way_digest)
        grade = rating(attempt.correct, attempt.timed_out, attempt.elapsed_ms,
                       times.of(session.rating_time_ms, session.group_id, attempt.kind))
        memories = stored[attempt.user_id]
        memories[key] = review_one(attempt.user_id, memories.get(key), key, grade,
                                   attempt.answered_at)


def exam_ended(user_id: int, kind: str) -> int:
    """Review an exam's answers once it has ended (``certification.exams`` judges it)."""
    return bring_up_to_date([user_id], kind)


# --- making the memories whole ---------------------------------------------------------------


def _sealed(user_ids: Sequence[int]) -> dict[int, set[int]]:
    """Return, per user with one, the sessions of their exams not yet ended."""
    open_exams = db.session.execute(
        select(DrillSession.user_id).distinct().where(
            DrillSession.user_id.in_(user_ids), DrillSession.mode == "exam",
            DrillSession.finished_at.is_(None))).scalars().all()
    return {user_id: sealed_session_ids(user_id) for user_id in open_exams}


def _visible(query: Any, sealed: Iterable[int]) -> Any:
    hidden = sorted(set(sealed))
    return query.where(Attempt.session_id.not_in(hidden)) if hidden else query


def _answered_counts(user_ids: Sequence[int], kind: str | None,
                     sealed: Mapping[int, set[int]]) -> dict[tuple[int, str, str], int]:
    query = (select(Attempt.user_id, Attempt.kind, Attempt.rule_id, func.count())
             .where(Attempt.user_id.in_(user_ids), Attempt.rule_id.is_not(None))
             .group_by(Attempt.user_id, Attempt.kind, Attempt.rule_id))
    if kind is not None:
        query = query.where(Attempt.kind == kind)
    query = _visible(query, set().union(*sealed.values()) if sealed else ())
    counts: dict[tuple[int, str, str], int] = {}
    for user_id, attempt_kind, rule_id, count in db.session.execute(query):
        key = (user_id, attempt_kind, skill_id(rule_id))
        counts[key] = counts.get(key, 0) + count
    return counts


def _reviewed_counts(user_ids: Sequence[int], kind: str | None) -> dict[tuple[int, str, str], int]:
    table = SkillMemory.__table__
    query = (select(table.c.user_id, table.c.kind, table.c.skill, func.sum(table.c.reviews))
             .where(table.c.user_id.in_(user_ids))
             .group_by(table.c.user_id, table.c.kind, table.c.skill))
    if kind is not None:
        query = query.where(table.c.kind == kind)
    return {(u, k, s): int(n) for u, k, s, n in db.session.execute(query)}


def rebuild(user_id: int, kind: str, skill: str, sealed: Iterable[int] = (),
            times: _RatingTimes | None = None) -> dict[SkillKey, Memory]:
    """Replay every visible answer of ``skill`` through FSRS, in the order answered, and
    store the memories it gives (one per house way and rules it was answered under)."""
    times = times or _RatingTimes()
    query = (select(Attempt.answered_at, Attempt.correct, Attempt.timed_out, Attempt.elapsed_ms,
                    Attempt.rule_id, DrillSession.house_way, DrillSession.house_way_digest,
                    DrillSession.rating_time_ms, DrillSession.group_id)
             .join(DrillSession, DrillSession.id == Attempt.session_id)
             .where(Attempt.user_id == user_id, Attempt.kind == kind,
                    Attempt.rule_id.in_([skill, skill + FALLBACK]))
             .order_by(Attempt.answered_at, Attempt.id))
    memories: dict[SkillKey, Memory] = {}
    for row in db.session.execute(_visible(query, sealed)):
        key = skill_key(kind, row.rule_id, row.house_way, row.house_way_digest)
        grade = rating(row.correct, row.timed_out, row.elapsed_ms,
                       times.of(row.rating_time_ms, row.group_id, kind))
        memories[key] = reviewed(memories.get(key), key, grade, row.answered_at)
    replace_all(user_id, kind, skill, memories)
    return memories


def bring_up_to_date(user_ids: Iterable[int], kind: str | None = None) -> int:
    """Rebuild every memory of these users (of ``kind``) whose reviews differ from their
    visible answers (module docstring); return how many skills were rebuilt. Not committed."""
    ids = sorted(set(user_ids))
    if not ids:
        return 0
    sealed = _sealed(ids)
    answered = _answered_counts(ids, kind, sealed)
    stored = _reviewed_counts(ids, kind)
    times = _RatingTimes()
    rebuilt = 0
    for user_id, attempt_kind, skill in sorted(set(answered) | set(stored)):
        key = (user_id, attempt_kind, skill)
        if answered.get(key, 0) != stored.get(key, 0):
            rebuild(user_id, attempt_kind, skill, sealed.get(user_id, ()), times)
            rebuilt += 1
    return rebuilt
