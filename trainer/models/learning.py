"""Practice that adapts (issue 30): each trainee's memory of each skill, and supervisors' assignments.

``services/learning/`` keeps them; these are the rows only.

- ``SkillMemory``: one per trainee and skill (``engine/learning/keys.SkillKey``: the drill
  kind, the rule id and, for a house way's rule, the way's ref and rules digest; "" for a
  rule a kind declares). ``record`` is the memory itself, a JSON text written and read
  by ``services/learning/records.py`` only: the FSRS card (floats as Python writes them,
  so it reads back exactly), the reviews and misses, the recent miss rate and the first
  review's time. The typed columns repeat what queries filter and order by; ``reviews``
  is also the version an update checks, so two requests never lose a review.
- ``LearningAssignment``: a rule or a rule family a supervisor assigned to one trainee or
  to the whole group, for one drill kind; targeted practice favours it until it is ended.
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from trainer.extensions import Model
from trainer.models.types import UTCDateTime, utcnow

ASSIGNMENT_TARGETS = ("rule", "family")


class SkillMemory(Model):
    """One trainee's FSRS memory of one skill."""

    __tablename__ = "skill_memory"
    __table_args__ = (
        UniqueConstraint("user_id", "kind", "skill", "way", "digest"),
        CheckConstraint("reviews >= 1 AND lapses >= 0 AND lapses <= reviews", name="counts"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(32))
    skill: Mapped[str] = mapped_column(String(64))
    # The house way's ref and rules digest of a way's rule; "" for a rule a kind declares.
    way: Mapped[str] = mapped_column(String(64), default="", server_default="")
    digest: Mapped[str] = mapped_column(String(64), default="", server_default="")
    record: Mapped[str] = mapped_column(Text)
    reviews: Mapped[int]
    lapses: Mapped[int]
    due: Mapped[datetime] = mapped_column(UTCDateTime())
    last_review: Mapped[datetime] = mapped_column(UTCDateTime())
    first_reviewed_at: Mapped[datetime] = mapped_column(UTCDateTime())


class LearningAssignment(Model):
    """A rule or family a supervisor assigned to a trainee (or, with none, to the group)."""

    __tablename__ = "learning_assignments"
    __table_args__ = (
        CheckConstraint("target_type IN ('rule', 'family')", name="target_type"),
        Index("ix_learning_assignments_group_id_ended_at", "group_id", "ended_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    # None: every trainee of the group.
    trainee_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(32))
    target_type: Mapped[str] = mapped_column(String(8))
    target: Mapped[str] = mapped_column(String(64))
    assigned_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"))
    assigned_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    ended_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
