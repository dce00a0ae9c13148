"""The ``action`` drill: call which seat receives the first pile from three dice."""
from __future__ import annotations

import random

from ..action import POSITIONS, action_position, roll_dice, table_position
from .base import Drill, DrillContext, Grade, register, require


@register
class ActionDrill(Drill):
    """Click the seat that receives the first pile."""

    slug = "action"
    title = "Call the action"
    default_time_limit_s = 10
    families = {"action": 1}

    def generate(self, rng: random.Random, context: DrillContext) -> dict:
        """Roll three dice; now and then a player banks from another seat."""
        dice = list(roll_dice(rng))
        banker_seat = 1 if rng.random() < 0.7 else rng.randint(2, POSITIONS)
        others = [s for s in range(1, POSITIONS + 1) if s != banker_seat]
        occupied = sorted([banker_seat] + rng.sample(others, rng.randint(2, 6)))
        return {"dice": dice, "banker_seat": banker_seat, "occupied": occupied}

    def _answer(self, question: dict) -> tuple[int, int]:
        position = action_position(sum(question["dice"]))
        return position, table_position(question["banker_seat"], position)

    def rule_of(self, question: dict, context: DrillContext) -> str:
        """Return ``action.banker``, ``action.player-banker`` or ``action.count``."""
        position, _ = self._answer(question)
        if question["banker_seat"] != 1:
            return "action.player-banker"
        return "action.banker" if position == 1 else "action.count"

    def grade(self, question: dict, answer: dict, context: DrillContext) -> Grade:
        """Right when the trainee picked the seat the count lands on."""
        seat = require(answer, "seat", int)
        if not 1 <= seat <= POSITIONS:
            raise ValueError("Pick one of the seven seats (1-7).")
        position, right = self._answer(question)
        total = sum(question["dice"])
        dead = "" if right in question["occupied"] else " That seat is empty: its pile is dead."
        text = (f"Dice total {total}: count {position} counter-clockwise from the "
                f"banker (seat {question['banker_seat']} is 1), so seat {right} gets "
                f"the first pile.{dead}")
        return Grade(seat == right, self.rule_of(question, context),
                     {"seat": right, "position": position}, text)
