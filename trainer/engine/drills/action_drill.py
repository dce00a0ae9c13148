"""The ``action`` drill: call which seat receives the first pile from three dice."""
from __future__ import annotations

import itertools
import random
from typing import Any

from ..action import POSITIONS, action_position, table_position
from ..messages import N_, Message
from .base import Drill, register
from .context import DrillContext, Grade
from .explain import NO_ANSWER, Feedback, book_feedback
from .schema import Fields, Schema, Whole

SEATS = tuple(range(1, POSITIONS + 1))
# Every roll of three dice, by the position its total counts to.
ROLLS: dict[int, list[tuple[int, ...]]] = {}
for _roll in itertools.product(range(1, 7), repeat=3):
    ROLLS.setdefault(action_position(sum(_roll)), []).append(_roll)


def position_of_seat(seat: int, banker_seat: int) -> int:
    """Return a seat's position counted counter-clockwise from the banker (the banker is 1)."""
    return (seat - banker_seat) % POSITIONS + 1


def roll_to_seat(rng: random.Random, seat: int, banker_seat: int) -> list[int]:
    """Roll three dice whose count from ``banker_seat`` lands on ``seat`` (any such roll alike)."""
    return list(rng.choice(ROLLS[position_of_seat(seat, banker_seat)]))


@register
class ActionDrill(Drill):
    """Click the seat that receives the first pile."""

    slug = "action"
    title = "Call the action"
    default_time_limit_s = 10
    families = {"action": 1}
    chance_level = 1 / POSITIONS

    def answer_choices(self, question: dict[str, Any], context: DrillContext) -> dict[str, dict[str, Any]]:
        """Return the seven seats."""
        return {str(seat): {"seat": seat} for seat in SEATS}

    def generate(self, rng: random.Random, context: DrillContext) -> dict[str, Any]:
        """Pick the seat that gets the first pile (evenly), the banker's seat, then the dice.

        Now and then a player banks from another seat.
        """
        seat = rng.choice(SEATS)
        house_banks = rng.random() < 0.7
        if "action.player-banker" in context.focus_rules:
            # "My mistakes" on a player banking: a player banks (the seat stays even).
            house_banks = False
        banker_seat = 1 if house_banks else rng.randint(2, POSITIONS)
        dice = roll_to_seat(rng, seat, banker_seat)
        others = [s for s in range(1, POSITIONS + 1) if s != banker_seat]
        occupied = sorted([banker_seat, *rng.sample(others, rng.randint(2, 6))])
        return {"dice": dice, "banker_seat": banker_seat, "occupied": occupied}

    def _answer(self, question: dict[str, Any]) -> tuple[int, int]:
        position = action_position(sum(question["dice"]))
        return position, table_position(question["banker_seat"], position)

    def rule_of(self, question: dict[str, Any], context: DrillContext) -> str:
        """Return ``action.banker``, ``action.player-banker`` or ``action.count``."""
        position, _ = self._answer(question)
        if question["banker_seat"] != 1:
            return "action.player-banker"
        return "action.banker" if position == 1 else "action.count"

    def answer_schema(self, question: dict[str, Any], context: DrillContext | None) -> Schema:
        """Answer ``{"seat": 1..7}``."""
        return Fields({"seat": Whole(1, POSITIONS, N_("Pick one of the seven seats (1-7)."))})

    def probe(self, question: dict[str, Any]) -> dict[str, Any]:
        """Answer seat 1."""
        return {"seat": 1}

    def grade(self, question: dict[str, Any], answer: dict[str, Any], context: DrillContext) -> Grade:
        """Right when the trainee picked the seat the count lands on."""
        seat = self.validate_answer(question, answer, context)["seat"]
        position, right = self._answer(question)
        total = sum(question["dice"])
        values = {"total": total, "position": position, "banker": question["banker_seat"],
                  "seat": right}
        text = Message(N_("Dice total %(total)s: count %(position)s counter-clockwise from the "
                          "banker (seat %(banker)s is 1), so seat %(seat)s gets the first "
                          "pile."), **values) if right in question["occupied"] else \
            Message(N_("Dice total %(total)s: count %(position)s counter-clockwise from the "
                       "banker (seat %(banker)s is 1), so seat %(seat)s gets the first pile. "
                       "That seat is empty: its pile is dead."), **values)
        return Grade(seat == right, self.rule_of(question, context),
                     {"seat": right, "position": position}, text)

    def feedback(self, question: dict[str, Any], answer: dict[str, Any] | None,
                 context: DrillContext, grade: Grade | None = None,
                 timed_out: bool = False) -> Feedback:
        """Say which seat the trainee picked and where the count lands."""
        grade = grade or self.grade(question, answer or self.probe(question), context)
        return action_feedback(question, answer, grade, timed_out)


def action_feedback(question: dict[str, Any], answer: dict[str, Any] | None, grade: Grade,
                    timed_out: bool) -> Feedback:
    """Return the feedback on a called action (this drill, a round's first step)."""
    key = grade.correct_answer
    said = NO_ANSWER if answer is None else \
        Message(N_("You picked seat %(seat)s"), seat=answer["seat"])
    right = Message(N_("the dice total %(total)s counts %(position)s from the banker in seat "
                       "%(banker)s: seat %(seat)s"), total=sum(question["dice"]),
                    position=key["position"], banker=question["banker_seat"], seat=key["seat"])
    correct = grade.correct and answer is not None and not timed_out
    return book_feedback(correct, said, right, grade.rule_id, grade.explanation, timed_out)
