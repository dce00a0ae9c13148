"""Shown means counted: the timeout sweeper.

A question whose clock started in a timed session or exam and that got no answer
within its limit plus GRACE_MS becomes a timed-out attempt (wrong, no answer),
whatever the trainee did instead: asked for the next question, left the page or
never came back. ``settle_overdue`` records these; the session's own calls
(``sessions.issue_question`` settles what its one read found, with ``overdue`` and
``settle``), the trainee's pages, the supervisors' pages and the ``trainer
sweep-timeouts`` command run it. The unique (session_id, position) of attempts keeps
it to one row.
"""
from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased

from trainer.engine.drills import get_drill
from trainer.extensions import commit_keeping_state, db
from trainer.models import Attempt, DrillSession, IssuedQuestion, utcnow
from trainer.services.drills import store
from trainer.services.drills.context import context_from_json
from trainer.services.drills.store import IssuedRow, SessionRow
from trainer.services.timing import GRACE_MS

log = logging.getLogger(__name__)


def _clock_ms() -> Any:
    """Return an SQL expression for an issued question's clock start, in ms since 1970."""
    if db.session.get_bind().dialect.name == "postgresql":
        return func.extract("epoch", IssuedQuestion.issued_at) * 1000
    # SQLite keeps naive UTC text, which julianday() reads; 2440587.5 is 1970-01-01.
    return (func.julianday(IssuedQuestion.issued_at) - 2440587.5) * 86_400_000.0


def overdue_query(user_ids: Sequence[int] | None, session_id: int | None, now: datetime) -> Any:
    """Select (id, issued_at, time_limit_ms) of the clocked questions past their limit, unanswered.

    Only an unfinished timed session's latest question can be waiting for an
    answer (the next one is issued once it is answered), so the query walks the
    open sessions of the users asked about, one index probe for their latest
    question and one for its attempt. The deadline test in SQL is a filter; the
    caller checks it again exactly.
    """
    later = aliased(IssuedQuestion)
    has_later = select(later.id).where(
        later.session_id == IssuedQuestion.session_id, later.position > IssuedQuestion.position
    ).exists()
    answered = select(Attempt.id).where(
        Attempt.session_id == IssuedQuestion.session_id, Attempt.position == IssuedQuestion.position
    ).exists()
    query = (
        select(IssuedQuestion.id, IssuedQuestion.issued_at, DrillSession.time_limit_ms)
        .join(DrillSession, DrillSession.id == IssuedQuestion.session_id)
        .where(
            DrillSession.finished_at.is_(None),
            DrillSession.time_limit_ms.is_not(None),
            IssuedQuestion.issued_at.is_not(None),
            _clock_ms() + DrillSession.time_limit_ms + GRACE_MS < now.timestamp() * 1000,
            ~has_later,
            ~answered,
        )
    )
    if session_id is not None:
        query = query.where(DrillSession.id == session_id)
    if user_ids is not None:
        query = query.where(DrillSession.user_id.in_(list(user_ids)))
    return query


def timeout_deadline(issued_at: datetime, time_limit_ms: int) -> datetime:
    """Return the moment an unanswered question counts as timed out: its limit plus the grace."""
    return issued_at + timedelta(milliseconds=time_limit_ms + GRACE_MS)


def overdue(loaded: store.Loaded, now: datetime) -> bool:
    """Tell whether the loaded (latest) question is what ``settle_overdue`` would settle.

    The same test as ``overdue_query`` for one session: unfinished and timed,
    its latest question's clock started, unanswered and past its limit plus the grace.
    """
    session, issued = loaded.session, loaded.issued
    return (
        session.finished_at is None
        and session.time_limit_ms is not None
        and issued is not None
        and issued.issued_at is not None
        and not loaded.answered
        and timeout_deadline(issued.issued_at, session.time_limit_ms) < now
    )


def _timed_out_attempt(session: SessionRow, issued: IssuedRow) -> dict[str, Any]:
    """Build the timed-out attempt of an unanswered question, as the clock running out records it.

    It is stamped at the question's deadline (``timeout_deadline``), with the
    limit plus the grace as its time, however late it is settled, so a sweep a
    day later neither moves the trainee's activity nor their median time.
    """
    assert session.time_limit_ms is not None and issued.issued_at is not None
    rule_id, correct_answer = issued.rule_id, None
    try:
        drill = get_drill(session.kind)
        key = drill.answer_key(drill.read_question(issued.question),
                               context_from_json(issued.context))
        rule_id, correct_answer = key.rule_id, drill.key_json(key.correct_answer)
    except (LookupError, ValueError, TypeError, AttributeError, RuntimeError):
        # A drill or question the engine no longer grades (or whose house way's rules are
        # not stored): still counted, with its rule.
        log.warning("Could not work out the answer key of session %s question %s",
                    session.id, issued.position, exc_info=True)
    deadline = timeout_deadline(issued.issued_at, session.time_limit_ms)
    return store.attempt_values(
        session_id=session.id, position=issued.position, user_id=session.user_id,
        kind=session.kind, seed=issued.seed, question=issued.question, context=issued.context,
        answer=None, correct_answer=correct_answer, correct=False, timed_out=True,
        rule_id=rule_id, issued_at=issued.issued_at, answered_at=deadline,
        elapsed_ms=session.time_limit_ms + GRACE_MS)


def settle(session: SessionRow, issued: IssuedRow, keep_state: bool = False) -> bool:
    """Record one overdue question's timed-out attempt; False when another request did first.

    One INSERT (and an UPDATE when it was the session's last question), committed.
    ``keep_state`` commits without expiring what the ORM session holds
    (``extensions.commit_keeping_state``), for a request that goes on after it.
    """
    attempt = _timed_out_attempt(session, issued)
    finish = issued.position >= session.length and session.finished_at is None
    try:
        store.insert_row(Attempt.__table__, attempt)
        if finish:
            store.set_finished_at(session, attempt["answered_at"])
        if keep_state:
            commit_keeping_state()
        else:
            db.session.commit()
    except IntegrityError:
        # The answer, or another settle, got there first: one attempt per question.
        db.session.rollback()
        return False
    if finish:
        session.finished_at = attempt["answered_at"]
    return True


@functools.cache
def _settle_statement() -> Any:
    """Build, once per process, the read of an issued question and its session by the question's id."""
    return (
        select(*store.row_columns()[:store.ISSUED_END])
        .select_from(IssuedQuestion)
        .join(DrillSession, DrillSession.id == IssuedQuestion.session_id)
        .where(IssuedQuestion.id == bindparam("issued_id"))
    )


def settle_one(issued_id: int) -> bool:
    """Record one overdue question's timed-out attempt by its id; False when another request did first.

    A plain commit: it expires what the ORM session holds, so a caller that read
    the session as an ORM object (``summary``) reads it again, finished or not.
    """
    row = db.session.execute(_settle_statement(), {"issued_id": issued_id}).first()
    if row is None:
        return False
    return settle(SessionRow(*row[:store.SESSION_END]),
                  IssuedRow(*row[store.SESSION_END:store.ISSUED_END]))


def settle_overdue(
    user_ids: Sequence[int] | None = None,
    session_id: int | None = None,
    now: datetime | None = None,
) -> int:
    """Record a timed-out attempt for each clocked question left unanswered past its limit.

    ``user_ids`` limits it to those users' sessions (an empty list settles
    nothing), ``session_id`` to one session; with neither it sweeps every
    session. Returns how many attempts this call recorded. Usually one query
    that finds nothing; each question found is committed on its own, and a
    question answered or settled meanwhile by another request is skipped.
    """
    if user_ids is not None and not user_ids:
        return 0
    now = now or utcnow()
    rows = db.session.execute(overdue_query(user_ids, session_id, now)).all()
    settled = 0
    for row in rows:
        if timeout_deadline(row.issued_at, row.time_limit_ms) < now and settle_one(row.id):
            settled += 1
    if settled:
        log.info("Recorded %d unanswered question(s) as timed out.", settled)
    return settled
