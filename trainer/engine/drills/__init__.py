"""Drill kinds, registered by slug: each generates questions and grades answers."""
from . import action_drill, foul_check, hand_reading, house_way_drill, settlement_drill  # noqa: F401  (registration)
from . import round_drill  # noqa: F401  (registration)
from .base import DRILLS, Drill, DrillContext, Grade, get_drill, new_question

__all__ = ["DRILLS", "Drill", "DrillContext", "Grade", "get_drill", "new_question"]
