"""The foul check's first question generator (generator 1), kept so older attempts replay.

Moved here unchanged from ``engine/drills/legacy.py``: questions recorded before
generator 2 carry no ``generator`` in their context and must deal again the hand the
trainee saw (cards as set, unshuffled). New questions never use it.
"""
from __future__ import annotations

import random

from ....cards import card_list
from ....setting import splits
from ...base import pick_family
from ...context import DrillContext
from ...dealing import deal_family
from .questions import FoulQuestion
from .rules import BOUNDARY_RULES, foul_rule

FAMILIES = {"fouled": 5, "boundary": 4, "legal": 2}


def _family(rule_id: str) -> str:
    if rule_id in BOUNDARY_RULES:
        return "boundary"
    return "legal" if rule_id.startswith("foul.legal") else "fouled"


def generate(rng: random.Random, context: DrillContext) -> FoulQuestion:
    """Generate a foul-check question as generator 1 did."""
    wheel = context.table.wheel
    family = pick_family(rng, FAMILIES, [_family(r) for r in context.focus_rules])
    for _ in range(60):
        seven = deal_family(rng, rng.choice(["pai-gow", "one-pair", "two-pair", "joker"]),
                            context.way, wheel)
        ways = splits(seven)
        rules = [foul_rule(w.back, w.front, wheel) for w in ways]
        if family == "fouled":
            pick = [w for w, r in zip(ways, rules, strict=True) if not r.startswith("foul.legal")]
        elif family == "boundary":
            pick = [w for w, r in zip(ways, rules, strict=True) if r in BOUNDARY_RULES]
        else:
            pick = [w for w, r in zip(ways, rules, strict=True) if r.startswith("foul.legal")]
        if pick:
            way = rng.choice(pick)
            return FoulQuestion(back=tuple(card_list(way.back)), front=tuple(card_list(way.front)))
    way = ways[0]
    return FoulQuestion(back=tuple(card_list(way.back)), front=tuple(card_list(way.front)))
