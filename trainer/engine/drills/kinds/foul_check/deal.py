"""Dealing set hands for the foul check: of a family, with a given answer, or on one rule."""
from __future__ import annotations

import random
from collections.abc import Sequence

from ....cards import Card, card_list
from ....house_way import HouseWay
from ....setting import splits
from ...dealing import deal_family
from .questions import FoulQuestion
from .rules import foul_rule

# The seven-card families the generator deals a hand from before setting it.
DEALS = ("pai-gow", "one-pair", "two-pair", "joker")
# Dealing for one rule draws from more shapes: a front pair under a back of two pair or
# better needs three pair or trips with a pair, a pair in front of its own kind four of it.
RULE_DEALS = (*DEALS, "three-pair", "full-house", "trips", "quads")
RULE_TRIES = 300


def _same_pair(rng: random.Random) -> tuple[list[Card], list[Card]]:
    """A pair in front and a pair of the same rank in back: legal (rules.md §3)."""
    rank, *others = rng.sample(range(13), 4)
    suits = rng.sample(range(4), 4)
    front = [rank * 4 + suits[0], rank * 4 + suits[1]]
    back = [rank * 4 + suits[2], rank * 4 + suits[3]]
    back += [r * 4 + rng.randrange(4) for r in others]
    return [Card(c) for c in back], [Card(c) for c in front]


def _same_top_ranks(rng: random.Random) -> tuple[list[Card], list[Card]]:
    """No pair, the front's two ranks the back's two highest: legal (unless the back's
    other cards make it a straight or a flush, which the caller checks)."""
    high, low = sorted(rng.sample(range(3, 13), 2), reverse=True)
    others = rng.sample(range(low), 3)
    a, b = rng.sample(range(4), 2), rng.sample(range(4), 2)
    front = [high * 4 + a[0], low * 4 + b[0]]
    back = [high * 4 + a[1], low * 4 + b[1]]
    back += [r * 4 + rng.randrange(4) for r in others]
    return [Card(c) for c in back], [Card(c) for c in front]


def legal_boundary(rng: random.Random) -> tuple[list[Card], list[Card]]:
    """Build a legal hand on the boundary: the same pair, or the same two top cards, in both."""
    return _same_pair(rng) if rng.random() < 0.25 else _same_top_ranks(rng)


def shown(rng: random.Random, back: Sequence[int], front: Sequence[int]) -> FoulQuestion:
    """Return a set hand as shown: the cards shuffled within the back and within the front."""
    shown_back, shown_front = list(back), list(front)
    rng.shuffle(shown_back)
    rng.shuffle(shown_front)
    return FoulQuestion(back=tuple(card_list(shown_back)), front=tuple(card_list(shown_front)))


BUILT = {"foul.legal.same-pair": _same_pair, "foul.legal.same-top-ranks": _same_top_ranks}


def deal_rule(rng: random.Random, rule: str, way: HouseWay, wheel: str) -> FoulQuestion | None:
    """Deal a set hand that turns on ``rule``, or None when ``RULE_TRIES`` deals find none.

    The two legal boundaries, rare in dealt hands, are built directly; any other rule is
    a setting of a dealt hand (each of the hand's 21 settings looked at, in random order).
    """
    build = BUILT.get(rule)
    if build is not None:
        for _ in range(RULE_TRIES):
            back, front = build(rng)
            if foul_rule(back, front, wheel) == rule:
                return shown(rng, back, front)
        return None
    for _ in range(RULE_TRIES):
        ways = splits(deal_family(rng, rng.choice(RULE_DEALS), way, wheel))
        rng.shuffle(ways)
        found = next((w for w in ways if foul_rule(w.back, w.front, wheel) == rule), None)
        if found is not None:
            return shown(rng, found.back, found.front)
    return None
