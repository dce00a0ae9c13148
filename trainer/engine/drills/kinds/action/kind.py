"""The ``action`` drill: call which seat receives the first pile from three dice."""
from __future__ import annotations

import itertools
import random

from ....action import POSITIONS, action_position, table_position
from ...base import Drill, register
from ...context import DrillContext, Grade
from ...explain import Feedback
from . import legacy
from .questions import SEATS, ActionAnswer, ActionKey, ActionQuestion
from .words import (
    BANKER,
    BLURB,
    COUNT,
    PLAYER_BANKER,
    SKILLS,
    TITLE,
    action_feedback,
    count_explanation,
)

SLUG = "action"

# Every roll of three dice, by the position its total counts to.
ROLLS: dict[int, list[tuple[int, ...]]] = {}
for _roll in itertools.product(range(1, 7), repeat=3):
    ROLLS.setdefault(action_position(sum(_roll)), []).append(_roll)
# How often the house banks (otherwise a player banks from another seat).
HOUSE_BANKS = 0.7


def position_of_seat(seat: int, banker_seat: int) -> int:
    """Return a seat's position counted counter-clockwise from the banker (the banker is 1)."""
    return (seat - banker_seat) % POSITIONS + 1


def roll_to_seat(rng: random.Random, seat: int, banker_seat: int) -> tuple[int, ...]:
    """Roll three dice whose count from ``banker_seat`` lands on ``seat`` (any such roll alike)."""
    return tuple(rng.choice(ROLLS[position_of_seat(seat, banker_seat)]))


def action_key(question: ActionQuestion) -> ActionKey:
    """Return the seat the dice's count lands on, and its position from the banker."""
    position = action_position(sum(question.dice))
    return ActionKey(seat=table_position(question.banker_seat, position), position=position)


@register
class ActionDrill(Drill):
    """Click the seat that receives the first pile."""

    slug = SLUG
    title = TITLE
    blurb = BLURB
    order = 30
    default_time_limit_s = 10
    families = {SLUG: 1}
    chance_level = 1 / POSITIONS
    question_type = ActionQuestion
    answer_type = ActionAnswer
    key_type = ActionKey
    legacy = legacy
    skills = SKILLS

    def answer_choices(self, question: ActionQuestion, context: DrillContext
                       ) -> dict[str, ActionAnswer]:
        """Return the seven seats."""
        return {str(seat): ActionAnswer(seat=seat) for seat in SEATS}

    def generate(self, rng: random.Random, context: DrillContext) -> ActionQuestion:
        """Pick the seat that gets the first pile (evenly), the banker's seat, then the dice.

        Now and then a player banks from another seat.
        """
        seat = rng.choice(SEATS)
        house_banks = rng.random() < HOUSE_BANKS
        if PLAYER_BANKER in context.focus_rules:
            # "My mistakes" on a player banking: a player banks (the seat stays even).
            house_banks = False
        banker_seat = 1 if house_banks else rng.randint(2, POSITIONS)
        return self._deal(rng, seat, banker_seat)

    def _deal(self, rng: random.Random, seat: int, banker_seat: int) -> ActionQuestion:
        """Roll dice that land on ``seat`` from ``banker_seat``, and seat some players."""
        dice = roll_to_seat(rng, seat, banker_seat)
        others = [s for s in range(1, POSITIONS + 1) if s != banker_seat]
        occupied = sorted([banker_seat, *rng.sample(others, rng.randint(2, 6))])
        return ActionQuestion(dice=dice, banker_seat=banker_seat, occupied=tuple(occupied))


    def deal_for(self, rng: random.Random, context: DrillContext, skill: str
                 ) -> ActionQuestion | None:
        """Deal a question on ``skill`` directly: the count landing on the house banker's
        seat, on another seat, or a player banking; None for a skill not the action's."""
        if skill == BANKER:
            return self._deal(rng, 1, 1)
        if skill == COUNT:
            return self._deal(rng, rng.choice(SEATS[1:]), 1)
        if skill == PLAYER_BANKER:
            return self._deal(rng, rng.choice(SEATS), rng.randint(2, POSITIONS))
        return None

    def rule_of(self, question: ActionQuestion, context: DrillContext) -> str:
        """Return ``action.banker``, ``action.player-banker`` or ``action.count``."""
        if question.banker_seat != 1:
            return PLAYER_BANKER
        return BANKER if action_key(question).position == 1 else COUNT

    def probe(self, question: ActionQuestion) -> ActionAnswer:
        """Answer seat 1."""
        return ActionAnswer(seat=1)

    def wrong_answer(self, question: ActionQuestion, context: DrillContext,
                     rng: random.Random) -> ActionAnswer:
        """Return a seat the count does not land on."""
        right = action_key(question).seat
        return ActionAnswer(seat=rng.choice([s for s in SEATS if s != right]))

    def grade(self, question: ActionQuestion, answer: ActionAnswer, context: DrillContext
              ) -> Grade:
        """Right when the trainee picked the seat the count lands on (the answer checked first)."""
        answer = self.read_answer(question, self.answer_json(answer), context)
        key = action_key(question)
        return Grade(answer.seat == key.seat, self.rule_of(question, context), key,
                     count_explanation(question, key))

    def feedback(self, question: ActionQuestion, answer: ActionAnswer | None,
                 context: DrillContext, grade: Grade | None = None,
                 timed_out: bool = False) -> Feedback:
        """Say which seat the trainee picked and where the count lands."""
        grade = grade or self.grade(question, answer or self.probe(question), context)
        return action_feedback(question, answer, grade, timed_out)
