"""Drill kinds, registered by slug: each generates questions and grades answers."""
# Importing each kind's module registers it.
from . import (  # noqa: F401
    action_drill,
    bonus_drill,
    foul_check,
    hand_reading,
    house_way_drill,
    round_drill,
    settlement_drill,
)
from .base import DRILLS, Drill, get_drill, new_question
from .context import DrillContext, Grade

__all__ = ["DRILLS", "Drill", "DrillContext", "Grade", "get_drill", "new_question"]
