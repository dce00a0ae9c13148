"""The ``house-way`` drill: set the banker's seven cards by the house way."""
from __future__ import annotations

import random
from typing import Any

from ..cards import card_list, parse_cards
from ..house_way import HouseWaySetting, load
from ..setting import is_foul, same_value
from .base import Drill, DrillContext, Grade, register
from .dealing import HOUSE_WAY_FAMILIES, deal_family
from .schema import Cards, Fields, Schema


@register
class HouseWayDrill(Drill):
    """Pick the two front cards of the banker's hand, as the house way sets it."""

    slug = "house-way"
    title = "Set the banker's hand"
    default_time_limit_s = 30
    families = HOUSE_WAY_FAMILIES

    def generate(self, rng: random.Random, context: DrillContext) -> dict[str, Any]:
        """Deal seven cards of a weighted rule family, shown in shuffled order."""
        family = self.pick_family(rng, context)
        cards = list(deal_family(rng, family, context.house_way, context.table.wheel))
        rng.shuffle(cards)
        return {"cards": card_list(cards)}

    def key(self, question: dict[str, Any], context: DrillContext) -> HouseWaySetting:
        """Return the house way's setting of the question's cards."""
        return load(context.house_way).set(parse_cards(question["cards"], 7),
                                           context.table.wheel)

    def rule_of(self, question: dict[str, Any], context: DrillContext) -> str:
        """Return the house-way rule id that decides the hand."""
        return self.key(question, context).rule

    def answer_schema(self, question: dict[str, Any], context: DrillContext | None) -> Schema:
        """Answer ``{"front": [two of the seven cards]}``."""
        return Fields({"front": Cards(2, question["cards"], "front")})

    def probe(self, question: dict[str, Any]) -> dict[str, Any]:
        """Put the first two cards in front."""
        return {"front": list(question["cards"][:2])}

    def grade(self, question: dict[str, Any], answer: dict[str, Any], context: DrillContext) -> Grade:
        """Right when the trainee's back and front have the house way's values."""
        front = self.validate_answer(question, answer, context)["front"]
        wheel = context.table.wheel
        seven = parse_cards(question["cards"], 7)
        front_cards = parse_cards(front, 2)
        back_cards = tuple(c for c in seven if c not in front_cards)
        key = self.key(question, context)
        correct = same_value(back_cards, front_cards, key.back, key.front, wheel)
        note = ""
        if not correct and is_foul(back_cards, front_cards, wheel):
            note = " Your setting was fouled."
        return Grade(
            correct=correct,
            rule_id=key.rule,
            correct_answer=key.as_dict(),
            explanation=key.explanation + "." + note,
        )
