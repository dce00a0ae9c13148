"""The hand-reading drill's first question generator (generator 1), kept so older attempts replay.

Moved here unchanged from ``engine/drills/legacy.py``: questions recorded before
generator 2 carry no ``generator`` in their context and must deal again the hands the
trainee saw. New questions never use it.
"""
from __future__ import annotations

import random

from ....cards import Card, card_list
from ...base import pick_family
from ...context import DrillContext
from .deal import Hand, copy_of, deal_category, second_hand, weighted_category
from .questions import ReadingQuestion

FAMILIES = {"category": 4, "joker": 3, "compare-five": 2, "compare-two": 1, "copy": 2}


def _family(rule_id: str) -> str:
    parts = rule_id.split(".")
    if parts[1:2] == ["copy"]:
        return "copy"
    if parts[1:2] == ["compare"]:
        return "compare-two" if parts[-1] == "two" else "compare-five"
    return "joker" if parts[-1] == "joker" else "category"


def generate(rng: random.Random, context: DrillContext) -> ReadingQuestion:
    """Generate a hand-reading question as generator 1 did."""
    family = pick_family(rng, FAMILIES, [_family(r) for r in context.focus_rules])
    if family in ("category", "joker"):
        hand = deal_category(rng, weighted_category(rng), family == "joker")
        return ReadingQuestion(mode="category", hand=tuple(card_list(hand)))
    if family == "compare-two" or (family == "copy" and rng.random() < 0.4):
        a: Hand = tuple(Card(c) for c in rng.sample(range(53), 2))
    else:
        a = deal_category(rng, weighted_category(rng), rng.random() < 0.2)
    b = copy_of(rng, a) if family == "copy" else None
    if b is None:
        b = second_hand(rng, a)
    return ReadingQuestion(mode="compare", a=tuple(card_list(a)), b=tuple(card_list(b)))
