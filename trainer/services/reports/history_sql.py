"""A trainee's history: the latest wrong or timed-out answers (``recent_mistakes``) and the
latest sessions with their figures (``recent_sessions``)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import or_, select

from trainer.extensions import db
from trainer.models import (
    Attempt,
    DrillSession,
)
from trainer.services.reports.aggregates import COUNTED_DEALT, as_float, median_rows, right_answer
from trainer.services.reports.figures import (
    Figures,
)

MISTAKES = 20
RECENT_SESSIONS = 30


@dataclass(frozen=True)
class Mistake:
    """One recent wrong or timed-out answer, with what is needed to show and replay it."""

    attempt_id: int
    kind: str
    rule_id: str | None
    answered_at: datetime
    elapsed_ms: int
    timed_out: bool
    question: dict[str, Any]
    answer: Any
    correct_answer: Any


@dataclass(frozen=True)
class SessionRow:
    """One drill session and its summary."""

    id: int
    kind: str
    mode: str
    length: int
    started_at: datetime
    finished_at: datetime | None
    house_way: str
    figures: Figures
    # How it was dealt (``DrillSession.dealt``): only "balanced" ever counts.
    dealt: str = COUNTED_DEALT


def recent_mistakes(user_id: int, limit: int = MISTAKES) -> list[Mistake]:
    """Return a trainee's latest wrong or timed-out answers, newest first."""
    rows = db.session.execute(
        select(Attempt)
        .where(Attempt.user_id == user_id, or_(~Attempt.correct, Attempt.timed_out))
        .order_by(Attempt.answered_at.desc(), Attempt.id.desc())
        .limit(limit)
    ).scalars()
    return [
        Mistake(a.id, a.kind, a.rule_id, a.answered_at, a.elapsed_ms, a.timed_out,
                a.question, a.answer, a.correct_answer)
        for a in rows
    ]


def recent_sessions(user_id: int, limit: int = RECENT_SESSIONS) -> list[SessionRow]:
    """Return a trainee's latest sessions with their answers, score and median time."""
    sessions = db.session.execute(
        select(DrillSession)
        .where(DrillSession.user_id == user_id)
        .order_by(DrillSession.started_at.desc(), DrillSession.id.desc())
        .limit(limit)
    ).scalars().all()
    ids = [s.id for s in sessions]
    source = select(
        Attempt.session_id, Attempt.elapsed_ms, right_answer().label("right")
    ).where(Attempt.session_id.in_(ids))
    figures = {
        row.session_id: Figures(row.answered, int(row.right or 0), as_float(row.median_ms))
        for row in db.session.execute(median_rows(source.subquery(), ["session_id"])).all()
    } if ids else {}
    return [
        SessionRow(s.id, s.kind, s.mode, s.length, s.started_at, s.finished_at, s.house_way,
                   figures.get(s.id, Figures()), s.dealt)
        for s in sessions
    ]
