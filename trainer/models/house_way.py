"""The casino's own house ways (issue 18): drafts, published versions, snapshots, class tables.

``services/house_ways/`` is the one owner of these rows; the engine owns the presets.

- ``CustomHouseWay``: one casino's way being written by a manager, its draft's data
  (the engine's house-way mapping, as a preset file reads) and the draft's rules digest.
- ``HouseWayVersion``: a frozen, published version ``<slug>@<n>``: never changed once
  written; a later version supersedes it but it stays readable.
- ``HouseWaySnapshot``: the rule data of a preset as it was when it graded a session,
  so an attempt re-grades exactly after the preset file changes.
- ``HouseWayTable``: the class table of a checked or published way for one wheel
  setting (``engine/house_way/classes.py``), keyed by rules digest.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from trainer.extensions import Model
from trainer.models.types import UTCDateTime, utcnow


class CustomHouseWay(Model):
    """One custom house way: its slug (the refs' first part), casino, title and draft."""

    __tablename__ = "custom_house_ways"

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(40), unique=True)
    casino: Mapped[str] = mapped_column(String(120))
    title: Mapped[str] = mapped_column(String(200))
    # The ref it was copied from (a preset or ``slug@n``), None when written or imported.
    base_ref: Mapped[str | None] = mapped_column(String(64))
    # The draft: the house-way data mapping; only a valid draft is stored.
    draft: Mapped[dict[str, Any]] = mapped_column(JSON)
    draft_digest: Mapped[str | None] = mapped_column(String(64))
    created_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    versions: Mapped[list[HouseWayVersion]] = relationship(
        back_populates="way", order_by="HouseWayVersion.number")

    def __repr__(self) -> str:
        return f"<CustomHouseWay {self.slug!r}>"


class HouseWayVersion(Model):
    """One published version of a custom house way, frozen: ``ref`` is ``<slug>@<number>``."""

    __tablename__ = "house_way_versions"
    __table_args__ = (UniqueConstraint("way_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    way_id: Mapped[int] = mapped_column(
        ForeignKey("custom_house_ways.id", ondelete="RESTRICT"), index=True)
    number: Mapped[int]
    ref: Mapped[str] = mapped_column(String(64), unique=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    rules_digest: Mapped[str] = mapped_column(String(64), index=True)
    note: Mapped[str] = mapped_column(Text, default="")
    published_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    published_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    # The check report it was published on (the check job's result).
    check: Mapped[dict[str, Any] | None] = mapped_column(JSON)

    way: Mapped[CustomHouseWay] = relationship(back_populates="versions")

    def __repr__(self) -> str:
        return f"<HouseWayVersion {self.ref!r}>"


class HouseWaySnapshot(Model):
    """A preset's rule data as it was when it graded a session (one row per digest)."""

    __tablename__ = "house_way_snapshots"
    __table_args__ = (UniqueConstraint("ref", "rules_digest"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    ref: Mapped[str] = mapped_column(String(64))
    rules_digest: Mapped[str] = mapped_column(String(64))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class HouseWayTable(Model):
    """The class table of one rule data (by digest) and wheel setting: two bytes a class."""

    __tablename__ = "house_way_tables"
    __table_args__ = (UniqueConstraint("rules_digest", "wheel"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    rules_digest: Mapped[str] = mapped_column(String(64))
    wheel: Mapped[str] = mapped_column(String(32))
    rule_ids: Mapped[list[str]] = mapped_column(JSON)
    # zlib-compressed columns (``ClassTable.split`` and ``ClassTable.rule``).
    split: Mapped[bytes] = mapped_column(LargeBinary)
    rule: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
