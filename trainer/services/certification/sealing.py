"""Sealed exams: when an exam is over, and which of a trainee's answers stay hidden until then.

Below both the drills and the exams: ``trainer.services.drills`` asks whether an
exam's time is over and leaves sealed answers out of "my mistakes", and
``exams`` schedules, starts and judges the exams these checks are about.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import Select, select

from trainer.extensions import db
from trainer.models import Attempt, CertificationExam, DrillSession, ExamStatus, utcnow
from trainer.services.timing import GRACE_MS

# An exam left half-done is over once every question's time (and this) has passed.
ABANDON_SLACK = timedelta(minutes=5)


def exam_deadline(started_at: datetime, length: int, time_limit_ms: int) -> datetime:
    """Return when an exam is over even if not finished: every question's time, then the slack."""
    return started_at + length * timedelta(
        milliseconds=time_limit_ms + GRACE_MS
    ) + ABANDON_SLACK


class SessionTimes(Protocol):
    """What the exam-time-over rule reads of a drill session (an ORM row or a plain one)."""

    @property
    def mode(self) -> str: ...
    @property
    def started_at(self) -> datetime: ...
    @property
    def length(self) -> int: ...
    @property
    def time_limit_ms(self) -> int | None: ...


class ExamTimes(Protocol):
    """What the exam-time-over rule reads of a certification exam (an ORM row or a plain one)."""

    @property
    def started_at(self) -> datetime | None: ...
    @property
    def length(self) -> int: ...
    @property
    def time_limit_ms(self) -> int: ...


def _session_deadline(session: SessionTimes, exam: ExamTimes | None) -> datetime:
    """Return when an exam session is over: by its exam's figures, or its own without one."""
    if exam is not None:
        return exam_deadline(exam.started_at or session.started_at, exam.length, exam.time_limit_ms)
    return exam_deadline(session.started_at, session.length, session.time_limit_ms or 0)


def exam_time_over_by(session: SessionTimes, exam: ExamTimes | None) -> bool:
    """Tell whether an exam session's time is over, by its exam row (or None) read by the caller."""
    return session.mode == "exam" and utcnow() > _session_deadline(session, exam)


def sealed_session_ids(user_id: int) -> set[int]:
    """Return the user's exam sessions whose exam has not ended: their results stay hidden.

    An exam ends when its session is finished, when it has been judged, or when
    its time is over (``exam_deadline``), whichever comes first.
    """
    now = utcnow()
    rows = db.session.execute(
        select(DrillSession, CertificationExam)
        .outerjoin(CertificationExam, CertificationExam.session_id == DrillSession.id)
        .where(
            DrillSession.user_id == user_id,
            DrillSession.mode == "exam",
            DrillSession.finished_at.is_(None),
        )
    ).all()
    return {
        session.id for session, exam in rows
        if (exam is None or exam.status != ExamStatus.FINISHED)
        and now <= _session_deadline(session, exam)
    }


def exam_in_progress(user_id: int) -> bool:
    """Tell whether the user has an exam started and not yet ended."""
    if sealed_session_ids(user_id):
        return True
    # Claimed but its session not made yet (``start_exam`` between its two commits).
    now = utcnow()
    claimed = db.session.execute(
        select(CertificationExam).where(
            CertificationExam.trainee_id == user_id,
            CertificationExam.status == ExamStatus.STARTED,
            CertificationExam.session_id.is_(None),
        )
    ).scalars()
    return any(now <= exam_deadline(exam.started_at or now, exam.length, exam.time_limit_ms)
               for exam in claimed)


def without_sealed(query: Select[Any], user_id: int) -> Select[Any]:
    """Leave out of a query on attempts the user's attempts in exams not yet ended."""
    sealed = sealed_session_ids(user_id)
    return query.where(Attempt.session_id.not_in(sealed)) if sealed else query


def attempt_sealed(attempt: Attempt) -> bool:
    """Tell whether an attempt belongs to an exam of its owner's that has not ended."""
    return attempt.session_id in sealed_session_ids(attempt.user_id)
