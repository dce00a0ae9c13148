"""The action drill's first generator (generator 1), kept so that older attempts replay.

Questions recorded before generator 2 carry no ``generator`` in their context; their
seeds must still deal the question the trainee saw, so these draws never change.
"""
from __future__ import annotations

import random

from ....action import POSITIONS, roll_dice
from ...context import DrillContext
from .questions import ActionQuestion


def generate(rng: random.Random, context: DrillContext) -> ActionQuestion:
    """Generate an action question as generator 1 did."""
    dice = roll_dice(rng)
    banker_seat = 1 if rng.random() < 0.7 else rng.randint(2, POSITIONS)
    others = [s for s in range(1, POSITIONS + 1) if s != banker_seat]
    occupied = sorted([banker_seat, *rng.sample(others, rng.randint(2, 6))])
    return ActionQuestion(dice=dice, banker_seat=banker_seat, occupied=tuple(occupied))
