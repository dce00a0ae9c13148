"""Drill sessions, the questions issued to them, and the attempts supervisors read."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    ForeignKey,
    Index,
    String,
    UniqueConstraint,
    event,
)
from sqlalchemy.orm import Mapped, Session, mapped_column, relationship

from trainer.extensions import Model
from trainer.models.types import UTCDateTime, utcnow


class DrillSession(Model):
    """One run of a drill by one user, with the settings it was played under."""

    __tablename__ = "drill_sessions"
    __table_args__ = (
        CheckConstraint("mode IN ('practice', 'timed', 'exam')", name="mode"),
        CheckConstraint("dealt IN ('balanced', 'mistakes', 'focused', 'class', 'targeted')",
                        name="dealt"),
        Index("ix_drill_sessions_user_id_started_at", "user_id", "started_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="RESTRICT"))
    group_id: Mapped[int | None] = mapped_column(
        ForeignKey("groups.id", ondelete="SET NULL"), index=True
    )
    kind: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(16), default="practice")
    # How its questions were dealt (issue 24): ``balanced``, the normal generator, the
    # only sessions whose timed answers count toward readiness and certification;
    # ``mistakes`` ("my mistakes") and ``focused`` (any other targeted practice) are
    # practice only, timed or not (docs/drills.md, "Practice only"); ``class``: a trainee's
    # answers in a live class (issue 31, services/classroom/), practice only too;
    # ``targeted``: practice that adapts, each question's rule chosen by the trainee's
    # memory (issue 30, services/learning/), practice only.
    dealt: Mapped[str] = mapped_column(String(16), default="balanced",
                                       server_default="balanced")
    length: Mapped[int]
    time_limit_ms: Mapped[int | None]
    house_way: Mapped[str] = mapped_column(String(64))
    # The rules digest of the house way it grades by (issue 18); None: sessions before it.
    house_way_digest: Mapped[str | None] = mapped_column(String(64))
    profile: Mapped[str] = mapped_column(String(64))
    started_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # The answer time its right answers are rated Hard above and Easy under half of (issue
    # 30, services/learning/rating.py), fixed at the start; None: none known (Good).
    rating_time_ms: Mapped[int | None]

    attempts: Mapped[list[Attempt]] = relationship(
        back_populates="session", order_by="Attempt.position"
    )


class IssuedQuestion(Model):
    """One question sent to the browser: what was asked, under which settings, and when.

    The answer key is never stored: it is worked out again from the seed and the
    context when the answer comes in, and only then recorded on the ``Attempt``.
    """

    __tablename__ = "issued_questions"
    __table_args__ = (
        # One question per place in a session, so a double "next" cannot issue two.
        UniqueConstraint("session_id", "position"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(
        ForeignKey("drill_sessions.id", ondelete="CASCADE")
    )
    position: Mapped[int]
    seed: Mapped[int] = mapped_column(BigInteger)
    question: Mapped[dict[str, Any]] = mapped_column(JSON)
    # The DrillContext the question was generated under, as DrillContext.as_dict().
    context: Mapped[dict[str, Any]] = mapped_column(JSON)
    rule_id: Mapped[str | None] = mapped_column(String(64))
    # When the question was first handed to the browser: its clock starts here.
    # None while a prepared question waits for the page that shows it.
    issued_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class Attempt(Model):
    """One answered question: the record supervisors read, never changed once written."""

    __tablename__ = "attempts"
    __table_args__ = (
        # One attempt per question of a session, so a double submit cannot record twice.
        UniqueConstraint("session_id", "position"),
        Index("ix_attempts_user_id_answered_at", "user_id", "answered_at"),
        Index("ix_attempts_rule_id", "rule_id"),
        # For the dashboards (migration 0006; docs/dashboards.md, Indexes). Answers
        # and right answers per trainee, drill and rule id, grouped in index order:
        Index("ix_attempts_user_id_kind_rule_id", "user_id", "kind", "rule_id", "answered_at",
              "correct", "timed_out"),
        # SQLite's exact medians: knowing a trainee's count for a drill, walk to the
        # middle one or two answers in elapsed order (answered_at for the period):
        Index("ix_attempts_user_id_kind_elapsed_ms", "user_id", "kind", "elapsed_ms",
              "answered_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(
        ForeignKey("drill_sessions.id", ondelete="RESTRICT")
    )
    position: Mapped[int]
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="RESTRICT"))
    kind: Mapped[str] = mapped_column(String(32))
    seed: Mapped[int] = mapped_column(BigInteger)
    question: Mapped[dict[str, Any]] = mapped_column(JSON)
    answer: Mapped[Any | None] = mapped_column(JSON)
    correct_answer: Mapped[Any] = mapped_column(JSON)
    correct: Mapped[bool]
    timed_out: Mapped[bool] = mapped_column(default=False)
    rule_id: Mapped[str | None] = mapped_column(String(64))
    issued_at: Mapped[datetime] = mapped_column(UTCDateTime())
    answered_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    elapsed_ms: Mapped[int]

    session: Mapped[DrillSession] = relationship(back_populates="attempts")


# The dashboards read a trainee's attempts by drill kind and time; the columns
# after answered_at make the index cover those queries, so the rows (which carry
# the question JSON) are not read (migration 0006).
Index(
    "ix_attempts_user_id_kind_answered_at",
    Attempt.user_id, Attempt.kind, Attempt.answered_at,
    Attempt.correct, Attempt.timed_out, Attempt.elapsed_ms, Attempt.session_id, Attempt.rule_id,
)


class AppendOnlyError(RuntimeError):
    """Raised when code tries to change or delete a recorded attempt."""


@event.listens_for(Session, "before_flush")
def _keep_attempts_append_only(session: Session, flush_context: Any, instances: Any) -> None:
    """Refuse to flush an update or delete of an attempt."""
    for obj in (*session.dirty, *session.deleted):
        if isinstance(obj, Attempt) and (obj in session.deleted or session.is_modified(obj)):
            raise AppendOnlyError("Attempts are a record: they cannot be changed or deleted.")
