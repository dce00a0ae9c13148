"""Dealing for the hand-reading drill: five cards of a category, and two hands to compare."""
from __future__ import annotations

import random

from ....cards import JOKER, Card
from ....hands import Category, Outcome, compare, evaluate5

CATEGORY_WEIGHTS = {
    Category.FIVE_ACES: 1, Category.ROYAL_FLUSH: 2, Category.STRAIGHT_FLUSH: 3,
    Category.FOUR_OF_A_KIND: 3, Category.FULL_HOUSE: 4, Category.FLUSH: 5,
    Category.STRAIGHT: 6, Category.THREE_OF_A_KIND: 4, Category.TWO_PAIR: 5,
    Category.ONE_PAIR: 4, Category.HIGH_CARD: 3,
}
# Tries at dealing a pair of hands with the wanted winner.
PAIR_TRIES = 500

Hand = tuple[Card, ...]


def deal_category(rng: random.Random, category: Category, joker: bool) -> Hand:
    """Deal five cards of ``category`` (the joker in them when asked and possible)."""
    for _ in range(400):
        suit = rng.randrange(4)
        if category is Category.FIVE_ACES:
            return tuple(Card(c) for c in rng.sample([48, 49, 50, 51, 52], 5))
        if category in (Category.ROYAL_FLUSH, Category.STRAIGHT_FLUSH, Category.STRAIGHT):
            top = 14 if category is Category.ROYAL_FLUSH else rng.randint(5, 13)
            ranks = [14, 2, 3, 4, 5] if top == 5 else list(range(top - 4, top + 1))
            suited = category is not Category.STRAIGHT
            cards = [(r - 2) * 4 + (suit if suited else rng.randrange(4)) for r in ranks]
        elif category is Category.FLUSH:
            cards = [r * 4 + suit for r in rng.sample(range(13), 5)]
        else:
            shape = {Category.FOUR_OF_A_KIND: (4, 1), Category.FULL_HOUSE: (3, 2),
                     Category.THREE_OF_A_KIND: (3, 1, 1), Category.TWO_PAIR: (2, 2, 1),
                     Category.ONE_PAIR: (2, 1, 1, 1),
                     Category.HIGH_CARD: (1, 1, 1, 1, 1)}[category]
            cards = []
            for rank, count in zip(rng.sample(range(13), len(shape)), shape, strict=True):
                cards += [rank * 4 + s for s in rng.sample(range(4), count)]
        if joker:
            cards[rng.randrange(5)] = JOKER
        if len(set(cards)) == 5 and evaluate5(cards).category is category:
            rng.shuffle(cards)
            return tuple(Card(c) for c in cards)
    return deal_category(rng, category, False)


def copy_of(rng: random.Random, hand: Hand) -> Hand | None:
    """Return another hand of the same ranks in other suits, if the deck allows."""
    out: list[Card] = []
    used: set[int] = set(hand)
    for card in hand:
        options = [c for c in range(52) if c // 4 == card // 4 and c not in used] \
            if card != JOKER else []
        if not options:
            return None
        pick = rng.choice(options)
        used.add(pick)
        out.append(Card(pick))
    if len(hand) == 5 and evaluate5(out).strength != evaluate5(hand).strength:
        return None
    return tuple(out)


def weighted_category(rng: random.Random) -> Category:
    """Draw a category by ``CATEGORY_WEIGHTS``."""
    return rng.choices(list(CATEGORY_WEIGHTS), list(CATEGORY_WEIGHTS.values()))[0]


def second_hand(rng: random.Random, a: Hand) -> Hand:
    """Deal a hand to set beside ``a``, as many cards, from the rest of the deck: beside five
    cards, five of ``a``'s category six times in ten (else of a weighted category), dealt
    anew from the rest of the deck when they share a card with ``a``."""
    deck = [c for c in range(53) if c not in a]
    if len(a) != 5:
        return tuple(Card(c) for c in rng.sample(deck, 2))
    b = deal_category(rng, evaluate5(a).category if rng.random() < 0.6 else weighted_category(rng),
                      False)
    if set(a) & set(b):
        b = tuple(Card(c) for c in rng.sample(deck, 5))
    return b


def deal_pair(rng: random.Random, family: str, winner: str, wheel: str) -> tuple[Hand, Hand]:
    """Deal two hands (two cards each for ``compare-two``, else five) of which ``winner``
    ("a", "b" or "copy") wins; after ``PAIR_TRIES`` tries, the last pair dealt."""
    b: Hand | None = None
    for _ in range(PAIR_TRIES):
        if family == "compare-two":
            a = tuple(Card(c) for c in rng.sample(range(53), 2))
        else:
            a = deal_category(rng, weighted_category(rng), rng.random() < 0.2)
        if winner == "copy":
            b = copy_of(rng, a)
            if b is None or compare(a, b, wheel) is not Outcome.COPY:
                continue
        else:
            b = second_hand(rng, a)
            outcome = compare(a, b, wheel)
            if outcome is Outcome.COPY:
                continue
            if (outcome is Outcome.WIN) != (winner == "a"):
                a, b = b, a
        break
    assert b is not None  # the loop ends on a pair of hands
    return a, b
