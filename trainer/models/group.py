"""Groups of trainees, their supervisor and the casino settings they train on."""
from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from trainer.engine.house_way import DEFAULT_HOUSE_WAY
from trainer.engine.profiles import DEFAULT_PROFILE
from trainer.extensions import Model
from trainer.models.types import UTCDateTime, utcnow

if TYPE_CHECKING:
    from trainer.models.user import User

# The defaults are the engine's; re-exported for ``from trainer.models import DEFAULT_HOUSE_WAY``.
__all__ = ["DEFAULT_HOUSE_WAY", "DEFAULT_PROFILE", "Group", "Membership"]


class Group(Model):
    """A class of trainees led by one supervisor, with its casino settings."""

    __tablename__ = "groups"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    supervisor_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="RESTRICT"), index=True
    )
    house_way: Mapped[str] = mapped_column(String(64), default=DEFAULT_HOUSE_WAY)
    profile: Mapped[str] = mapped_column(String(64), default=DEFAULT_PROFILE)
    # Drill lengths, time limits and the like; later issues define the keys.
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    supervisor: Mapped[User] = relationship(back_populates="groups_supervised")
    memberships: Mapped[list[Membership]] = relationship(
        back_populates="group", cascade="all, delete-orphan"
    )

    def __repr__(self) -> str:
        return f"<Group {self.name!r}>"


class Membership(Model):
    """A trainee's place in a group; the primary key keeps it to one group each."""

    __tablename__ = "memberships"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    group_id: Mapped[int] = mapped_column(
        ForeignKey("groups.id", ondelete="CASCADE"), index=True
    )
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    user: Mapped[User] = relationship(back_populates="membership")
    group: Mapped[Group] = relationship(back_populates="memberships")
