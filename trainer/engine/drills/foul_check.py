"""The ``foul-check`` drill: is this player's set hand legal or fouled?"""
from __future__ import annotations

import random

from ..cards import card_list, parse_cards
from ..hands import Category, evaluate2, evaluate5, rank2, rank5
from ..house_way import load
from ..profiles import FoulPolicy
from ..setting import splits
from .base import Drill, DrillContext, Grade, cards_in, register, require
from .dealing import deal_family
from .house_way_drill import same_value


BOUNDARY_RULES = frozenset(("foul.legal.same-pair", "foul.legal.same-top-ranks",
                            "foul.higher-cards-in-front", "foul.higher-pair-in-front"))


def foul_rule(back, front, wheel: str) -> str:
    """Classify a set hand by the part of the foul rule it turns on."""
    b, f = evaluate5(back, wheel), evaluate2(front)
    fouled = b.strength < f.strength
    if f.category is Category.ONE_PAIR:
        if b.category is Category.HIGH_CARD:
            return "foul.pair-over-no-pair"
        if b.category is Category.ONE_PAIR:
            if fouled:
                return "foul.higher-pair-in-front"
            return ("foul.legal.same-pair" if b.ranks[0] == f.ranks[0]
                    else "foul.legal.pair-under-pair")
        return "foul.legal.pair-under-better"
    if b.category is Category.HIGH_CARD:
        if fouled:
            return "foul.higher-cards-in-front"
        return ("foul.legal.same-top-ranks" if b.ranks[:2] == f.ranks
                else "foul.legal.no-pair")
    return "foul.legal"


@register
class FoulCheckDrill(Drill):
    """Say whether a set hand is fouled; reset it the house way where that is the rule."""

    slug = "foul-check"
    title = "Spot the foul"
    default_time_limit_s = 10
    families = {"fouled": 5, "boundary": 4, "legal": 2}

    def focus_family(self, rule_id: str) -> str:
        """Map a foul rule id back to the family that asks it."""
        if rule_id in BOUNDARY_RULES:
            return "boundary"
        return "legal" if rule_id.startswith("foul.legal") else "fouled"

    def generate(self, rng: random.Random, context: DrillContext) -> dict:
        """Deal a hand and pick a fouled, a boundary or a plainly legal setting."""
        wheel = context.table.wheel
        family = self.pick_family(rng, context)
        for _ in range(60):
            seven = deal_family(rng, rng.choice(["pai-gow", "one-pair", "two-pair",
                                                 "joker"]), context.house_way, wheel)
            ways = splits(seven)
            rules = [foul_rule(w.back, w.front, wheel) for w in ways]
            if family == "fouled":
                pick = [w for w, r in zip(ways, rules) if not r.startswith("foul.legal")]
            elif family == "boundary":
                pick = [w for w, r in zip(ways, rules) if r in BOUNDARY_RULES]
            else:
                pick = [w for w, r in zip(ways, rules) if r.startswith("foul.legal")]
            if pick:
                way = rng.choice(pick)
                return {"back": card_list(way.back), "front": card_list(way.front)}
        way = ways[0]
        return {"back": card_list(way.back), "front": card_list(way.front)}

    def rule_of(self, question: dict, context: DrillContext) -> str:
        """Return the foul rule the hand turns on."""
        return foul_rule(parse_cards(question["back"], 5),
                         parse_cards(question["front"], 2), context.table.wheel)

    def grade(self, question: dict, answer: dict, context: DrillContext) -> Grade:
        """Right when legal/fouled is right (and, under ``house_way``, the reset too)."""
        wheel = context.table.wheel
        back = parse_cards(question["back"], 5)
        front = parse_cards(question["front"], 2)
        fouled = rank5(back, wheel) < rank2(front)
        said = require(answer, "fouled", bool)
        rule = foul_rule(back, front, wheel)
        b, f = evaluate5(back, wheel), evaluate2(front)
        text = (f"Back: {b.description}. Front: {f.description}. "
                + ("Fouled: the front outranks the back." if fouled
                   else "Legal: the back is the higher hand."))
        key: dict = {"fouled": fouled}
        correct = said == fouled
        if fouled and context.table.foul_policy == FoulPolicy.HOUSE_WAY:
            reset = load(context.house_way).set(back + front, wheel)
            key["reset"] = reset.as_dict()
            text += f" Reset the house way: {reset.explanation}."
            if correct:
                seven = card_list(back + front)
                chosen = cards_in(require(answer, "front", list), seven, 2, "front")
                new_front = parse_cards(chosen, 2)
                new_back = tuple(c for c in back + front if c not in new_front)
                correct = same_value(new_back, new_front, reset.back, reset.front, wheel)
        return Grade(correct, rule, key, text)
