"""Account security: password rules, failed sign-ins (to slow guessing) and signed-in sessions."""
from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from pathlib import Path

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from trainer.extensions import Model
from trainer.models.types import UTCDateTime, utcnow

# Password rules beyond length: not the login, not a common password.
COMMON_PASSWORDS_FILE = Path(__file__).resolve().parent.parent / "data" / "common-passwords.txt"


@lru_cache(maxsize=1)
def common_passwords() -> frozenset[str]:
    """Return the shipped list of common passwords, lower case (read once per process)."""
    with COMMON_PASSWORDS_FILE.open(encoding="utf-8") as handle:
        return frozenset(
            line.strip().casefold() for line in handle if line.strip() and not line.startswith("#")
        )


def password_problem(password: str, login: str | None) -> str | None:
    """Return why ``password`` may not be used by ``login``, or None when it may."""
    folded = password.strip().casefold()
    if login and folded == login.strip().casefold():
        return "A password may not be the same as the login."
    if folded in common_passwords():
        return "That password is on a list of common passwords; choose another."
    return None


class LoginFailure(Model):
    """One password check that failed: which login, from where, when (UTC).

    The row is written before the password is checked (a reservation, see
    ``trainer/services/throttle.py``) and deleted again when the password was right.
    """

    __tablename__ = "login_failures"
    __table_args__ = (
        Index("ix_login_failures_login_at", "login", "at"),
        Index("ix_login_failures_address_at", "address", "at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    login: Mapped[str] = mapped_column(String(64))
    address: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class UserSession(Model):
    """One sign-in: its random token is part of the session cookie's id.

    Signing out sets ``revoked_at``, which ends this session only; the
    person's other sessions (another device, a running exam) go on.
    """

    __tablename__ = "user_sessions"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
