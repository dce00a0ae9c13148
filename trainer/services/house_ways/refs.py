"""Refs: the names of the house ways a group may train on.

A preset's name (``trump-plaza``), or a published version of a custom way,
``<slug>@<n>`` (``riverside@2``); a custom way's slug is ``SLUG``.
"""
from __future__ import annotations

import re

from sqlalchemy import select

from trainer.engine.house_way import preset_names
from trainer.extensions import db
from trainer.models import HouseWayVersion

SLUG = re.compile(r"[a-z][a-z0-9-]{2,39}")
REF = re.compile(r"([a-z][a-z0-9-]{2,39})@([1-9][0-9]{0,8})")


def parse_ref(ref: str) -> tuple[str, int] | None:
    """Return (slug, version number) of a custom version's ref, None for anything else."""
    found = REF.fullmatch(ref) if isinstance(ref, str) else None
    return (found[1], int(found[2])) if found else None


def is_preset(ref: str) -> bool:
    """Tell whether ``ref`` names one of the engine's presets."""
    return ref in preset_names()


def version_row(ref: str) -> HouseWayVersion | None:
    """Return the published version a ref names (its row), None for anything else."""
    if parse_ref(ref) is None:
        return None
    return db.session.execute(
        select(HouseWayVersion).where(HouseWayVersion.ref == ref)).scalar_one_or_none()
