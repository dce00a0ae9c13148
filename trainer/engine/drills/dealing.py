"""Dealing seven-card hands of a chosen rule family, so trainees meet the hard cases.

Plain random deals are 90% no pair or one pair; drills instead pick a family by
weight and deal a hand of that shape (ranks and suits drawn at random), checking
the result with the house way itself.
"""
from __future__ import annotations

import random

from ..cards import JOKER, Card
from ..house_way import HouseWay, load

# Shapes by house-way family: rank counts of the seven cards (the joker is dealt
# as an ace where the family calls for one).
SHAPES: dict[str, tuple[int, ...]] = {
    "pai-gow": (1, 1, 1, 1, 1, 1, 1),
    "one-pair": (2, 1, 1, 1, 1, 1),
    "two-pair": (2, 2, 1, 1, 1),
    "three-pair": (2, 2, 2, 1),
    "trips": (3, 1, 1, 1, 1),
    "two-trips": (3, 3, 1),
    "full-house": (3, 2, 1, 1),
    "trips-two-pair": (3, 2, 2),
    "quads": (4, 1, 1, 1),
    "quads-pair": (4, 2, 1),
    "quads-trips": (4, 3),
}

HOUSE_WAY_FAMILIES: dict[str, int] = {
    "two-pair": 20, "sf": 14, "joker": 12, "one-pair": 9, "pai-gow": 7, "trips": 8,
    "full-house": 8, "three-pair": 6, "quads": 5, "two-trips": 2, "trips-two-pair": 2,
    "quads-pair": 1, "quads-trips": 1, "five-aces": 2,
}


def deal_shape(rng: random.Random, shape: tuple[int, ...],
               exclude: frozenset[int] = frozenset()) -> tuple[Card, ...]:
    """Deal seven cards whose rank counts are ``shape``; sometimes with the joker as an ace."""
    for _ in range(200):
        ranks = rng.sample(range(13), len(shape))
        cards: list[int] = []
        joker_used = False
        for rank, count in zip(ranks, shape, strict=True):
            suits = rng.sample(range(4), min(count, 4))
            group = [rank * 4 + s for s in suits]
            if rank == 12 and not joker_used and JOKER not in exclude and rng.random() < 0.3:
                group[0] = JOKER
                joker_used = True
            cards.extend(group)
        if not exclude.intersection(cards) and len(set(cards)) == 7:
            rng.shuffle(cards)
            return tuple(Card(c) for c in cards)
    raise RuntimeError("could not deal the shape")  # pragma: no cover - 200 tries


def deal_family(rng: random.Random, family: str, house_way: HouseWay | str,
                wheel: str = "second_highest",
                exclude: frozenset[int] = frozenset()) -> tuple[Card, ...]:
    """Deal seven cards the house way sets by a rule of ``family`` (best effort).

    Shapes are dealt directly; ``sf`` and ``joker`` hands by a bounded search of
    random deals. The last try is returned even if it landed in another family.
    ``house_way``: the way itself (a drill's ``context.way``) or a preset's name.
    """
    way = house_way if isinstance(house_way, HouseWay) else load(house_way)
    deck = [c for c in range(53) if c not in exclude]
    cards: tuple[Card, ...] = ()
    for _ in range(60):
        if family == "five-aces":
            aces = [48, 49, 50, 51, 52]
            rest = [c for c in deck if c not in aces]
            cards = tuple(Card(c) for c in aces + rng.sample(rest, 2))
            if not exclude.intersection(aces):
                rng_cards = list(cards)
                rng.shuffle(rng_cards)
                return tuple(rng_cards)
            family = "sf"
            continue
        if family == "joker" and JOKER not in exclude:
            rest = [c for c in deck if c != JOKER]
            cards = tuple(Card(c) for c in [*rng.sample(rest, 6), JOKER])
            return cards
        if family in SHAPES:
            cards = deal_shape(rng, SHAPES[family], exclude)
        else:
            cards = tuple(Card(c) for c in rng.sample(deck, 7))
        if way.set(cards, wheel).family == family:
            return cards
    return cards
