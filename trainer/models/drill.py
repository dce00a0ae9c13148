"""Questions issued to a drill session and not yet answered, with their server clock."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from trainer.extensions import db
from trainer.models.types import UTCDateTime


class IssuedQuestion(db.Model):
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
