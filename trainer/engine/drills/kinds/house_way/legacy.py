"""The house-way drill's first question generator (generator 1), kept so older attempts replay.

Questions recorded before generator 2 carry no ``generator`` in their context; their
seeds must still deal the cards the trainee saw, so this draws exactly as generator 1
did (moved here unchanged from ``engine/drills/legacy.py``). New questions never use it.
"""
from __future__ import annotations

import random

from ....cards import card_list
from ....house_way import rule_family
from ...base import pick_family
from ...context import DrillContext
from ...dealing import HOUSE_WAY_FAMILIES, deal_family
from .questions import SetQuestion


def generate(rng: random.Random, context: DrillContext) -> SetQuestion:
    """Generate a house-way question as generator 1 did (the cards as dealt, unshuffled)."""
    family = pick_family(rng, HOUSE_WAY_FAMILIES, [rule_family(r) for r in context.focus_rules])
    cards = deal_family(rng, family, context.way, context.table.wheel)
    return SetQuestion(cards=tuple(card_list(cards)))
