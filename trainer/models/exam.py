"""Certification exams: scheduled, sealed while they run, and their kept result."""
from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from trainer.extensions import Model
from trainer.models.types import UTCDateTime, utcnow

if TYPE_CHECKING:
    from trainer.models.group import Group
    from trainer.models.user import User


class ExamStatus(StrEnum):
    """Where a scheduled certification exam stands."""

    SCHEDULED = "scheduled"
    STARTED = "started"
    FINISHED = "finished"


class CertificationExam(Model):
    """One sealed exam a supervisor scheduled for a trainee, and its kept result.

    The criteria, house way and table rules are copied at scheduling, so the
    record says what the trainee passed or failed even after the group changes.
    """

    __tablename__ = "certification_exams"
    __table_args__ = (
        CheckConstraint("status IN ('scheduled', 'started', 'finished')", name="status"),
        Index("ix_certification_exams_trainee_id_status", "trainee_id", "status"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="RESTRICT"), index=True)
    trainee_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="RESTRICT"))
    scheduled_by_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="RESTRICT"))
    scheduled_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    kind: Mapped[str] = mapped_column(String(32))
    length: Mapped[int]
    time_limit_ms: Mapped[int]
    criteria: Mapped[dict[str, Any]] = mapped_column(JSON)
    house_way: Mapped[str] = mapped_column(String(64))
    # The rules digest of the house way at scheduling (issue 18); None: exams before it.
    house_way_digest: Mapped[str | None] = mapped_column(String(64))
    profile: Mapped[str] = mapped_column(String(64))
    # The table rules themselves at scheduling (issue 24): the profile's data, the engine's
    # ``TableProfile.as_dict()``, so a manager's later edit of a custom profile changes
    # neither a scheduled nor a running exam. None: a profile unknown when it was filled.
    table_rules: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # The foul policy copied at scheduling too (None on exams scheduled before it was kept:
    # those take the group's at the start).
    foul_policy: Mapped[str | None] = mapped_column(String(16))
    session_id: Mapped[int | None] = mapped_column(
        ForeignKey("drill_sessions.id", ondelete="RESTRICT"), unique=True
    )
    status: Mapped[str] = mapped_column(String(16), default=ExamStatus.SCHEDULED)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    passed: Mapped[bool | None]
    # The figures the verdict was reached on: questions (or settled positions) and
    # how many were right, and the median answer time.
    counted: Mapped[int | None]
    right: Mapped[int | None]
    median_ms: Mapped[int | None]

    group: Mapped[Group] = relationship()
    trainee: Mapped[User] = relationship(foreign_keys=[trainee_id])
    scheduled_by: Mapped[User] = relationship(foreign_keys=[scheduled_by_id])

    @property
    def accuracy(self) -> float | None:
        """Return the share of questions (or positions) right, once finished."""
        if not self.counted:
            return None
        return (self.right or 0) / self.counted
