"""A house-way request refused, in words, and the house ways as the manager's pages list them."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from trainer.engine.messages import Message


class WayError(ValueError):
    """A house-way request was refused; the message says why, in words."""


class PublishRefused(WayError):
    """Publishing a draft was refused; ``reason`` says why, in words."""

    def __init__(self, reason: Message | str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class HouseWayEntry:
    """One house way of the installation, described for people (the manager's list).

    A preset, or a custom way (``way_id`` set) with its draft and published versions.
    """

    name: str
    title: str
    casino: str
    sections: int
    rules: int
    default: bool
    groups: int
    way_id: int | None = None
    versions: tuple[HouseWayChoice, ...] = ()
    # A custom way's draft differs from its latest version (or nothing is published yet).
    unpublished_changes: bool = False
    # Its draft or a published version holds an explanation that cannot be used (issue 24;
    # ``editing.explanation_problems``): the editor and the version's page say which.
    needs_repair: bool = False


@dataclass(frozen=True, slots=True)
class HouseWayChoice:
    """A house way a group may train on: a preset or a published custom version."""

    ref: str
    title: str
    casino: str
    version: int | None
    published_at: datetime | None
    note: str
    preset: bool
    superseded: bool
