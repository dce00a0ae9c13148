"""The audit log: who changed what, when, with the old and new values."""
from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from trainer.extensions import Model
from trainer.models.types import UTCDateTime, utcnow

if TYPE_CHECKING:
    from trainer.models.user import User


class AuditLog(Model):
    """Who changed what, when, with the old and new values."""

    __tablename__ = "audit_log"
    __table_args__ = (
        Index("ix_audit_log_target_type_target_id_at", "target_type", "target_id", "at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    action: Mapped[str] = mapped_column(String(64))
    target_type: Mapped[str] = mapped_column(String(32))
    target_id: Mapped[int]
    old: Mapped[Any | None] = mapped_column(JSON)
    new: Mapped[Any | None] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    actor: Mapped[User | None] = relationship()
