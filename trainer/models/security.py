"""Account security: failed sign-ins (to slow guessing) and signed-in sessions.

The password rule is in ``trainer/models/passwords.py``.
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from trainer.extensions import Model
from trainer.models.types import UTCDateTime, utcnow


class LoginFailure(Model):
    """One password check that failed: which login, from where, when (UTC).

    The row is written before the password is checked (a reservation, see
    ``trainer/services/throttle.py``) and deleted again when the password was right.
    ``device`` is the remembered device the check came from (the id in its
    signed device cookie), None for any other device: a remembered device's
    failures count against that device only (issue 24).
    """

    __tablename__ = "login_failures"
    __table_args__ = (
        Index("ix_login_failures_login_at", "login", "at"),
        Index("ix_login_failures_address_at", "address", "at"),
        Index("ix_login_failures_device_at", "device", "at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    login: Mapped[str] = mapped_column(String(64))
    address: Mapped[str] = mapped_column(String(64))
    device: Mapped[str | None] = mapped_column(String(32))
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class UserSession(Model):
    """One sign-in: its random token is part of the session cookie's id.

    Only the token's SHA-256 is kept (``token_hash``): the cookie holds the
    token, so a backup or a read of this table gives no usable session (issue 24).
    Signing out sets ``revoked_at``, which ends this session only; the
    person's other sessions (another device, a running exam) go on. A session
    also ends ``SESSION_LIFETIME`` after ``created_at`` and ``SESSION_IDLE_TIMEOUT``
    after ``last_seen_at`` (written at most about once a minute; ``trainer/web/platform/sessions.py``).
    """

    __tablename__ = "user_sessions"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
