"""Failed sign-ins, kept to slow down password guessing."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import Index, String
from sqlalchemy.orm import Mapped, mapped_column

from trainer.extensions import db
from trainer.models.types import UTCDateTime, utcnow


class LoginFailure(db.Model):
    """One failed sign-in: which login was tried, from where, when (UTC)."""

    __tablename__ = "login_failures"
    __table_args__ = (
        Index("ix_login_failures_login_at", "login", "at"),
        Index("ix_login_failures_address_at", "address", "at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    login: Mapped[str] = mapped_column(String(64))
    address: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
