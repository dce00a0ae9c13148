"""The foul rule, part by part (rules.md §3): which part of it a set hand turns on."""
from __future__ import annotations

from collections.abc import Sequence

from ....hands import Category, evaluate2, evaluate5

BOUNDARY_RULES = frozenset(("foul.legal.same-pair", "foul.legal.same-top-ranks",
                            "foul.higher-cards-in-front", "foul.higher-pair-in-front"))
ANSWERS = ("fouled", "legal")
# The answers each family's questions have: a boundary hand is either.
FAMILY_ANSWERS = {"fouled": frozenset({"fouled"}), "legal": frozenset({"legal"}),
                  "boundary": frozenset(ANSWERS)}


def answer_of(rule: str) -> str:
    """Return "legal" or "fouled": the answer to a hand that turns on ``rule``."""
    return "legal" if rule.startswith("foul.legal") else "fouled"


def fits(rule: str, answer: str, family: str | None) -> bool:
    """Tell whether a setting's rule has ``answer`` and belongs to ``family`` (None: any)."""
    if answer_of(rule) != answer:
        return False
    return family != "boundary" or rule in BOUNDARY_RULES


def foul_rule(back: Sequence[int], front: Sequence[int], wheel: str) -> str:
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
