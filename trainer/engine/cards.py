"""Cards, notation and the 53-card deck (docs/rules.md §1)."""
from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from .messages import N_, Joined, refusal

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "shdc"
RANK_NAMES = {
    2: "deuce", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
    9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace",
}
RANK_PLURALS = {
    2: "deuces", 3: "threes", 4: "fours", 5: "fives", 6: "sixes", 7: "sevens",
    8: "eights", 9: "nines", 10: "tens", 11: "jacks", 12: "queens", 13: "kings",
    14: "aces",
}
SUIT_SYMBOLS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}


class Card(int):
    """One card as a small int: ``(rank - 2) * 4 + suit``; the joker is 52.

    Cards are ints so that the hot paths (ranking, setting) stay fast, but they
    print and compare by their canonical notation.
    """

    __slots__ = ()

    @property
    def is_joker(self) -> bool:
        """Tell whether this card is the joker."""
        return self == 52

    @property
    def rank(self) -> int:
        """Return the rank 2..14; the joker answers 14 (it plays as an ace)."""
        return 14 if self == 52 else self // 4 + 2

    @property
    def suit(self) -> str | None:
        """Return the suit letter, or None for the joker."""
        return None if self == 52 else SUIT_CHARS[self % 4]

    def __str__(self) -> str:
        if self == 52:
            return "JK"
        return RANK_CHARS[self // 4] + SUIT_CHARS[self % 4]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @property
    def name(self) -> str:
        """Return the card's accessible name ("ace of spades", "joker")."""
        if self == 52:
            return "joker"
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[SUIT_CHARS[self % 4]]}"


JOKER = Card(52)
DECK: tuple[Card, ...] = tuple(Card(i) for i in range(53))

_BY_TEXT: dict[str, Card] = {}
for _c in DECK[:52]:
    _r, _s = str(_c)[0], str(_c)[1]
    for _rt in ({_r, _r.lower()} | ({"10"} if _r == "T" else set())):
        for _st in (_s, _s.upper()):
            _BY_TEXT[_rt + _st] = _c
_BY_TEXT.update({"JK": JOKER, "jk": JOKER, "Jk": JOKER, "jK": JOKER})
_BY_TEXT.update({"joker": JOKER, "JOKER": JOKER, "Joker": JOKER})


def parse_card(text: str) -> Card:
    """Parse one card such as ``As``, ``10h``, ``td`` or ``joker``."""
    card = _BY_TEXT.get(text.strip()) if isinstance(text, str) else None
    if card is None and isinstance(text, str):
        card = _BY_TEXT.get(text.strip().lower())
    if card is None:
        shown = text if isinstance(text, str) else repr(text)
        raise refusal(N_("%(text)s is not a card: write a rank (2-9, T or 10, J, Q, K, A) "
                         "and a suit (s, h, d, c), or JK for the joker."), text=shown)
    return card


def parse_cards(text: str | Iterable[str], count: int | Sequence[int] | None = None
                ) -> tuple[Card, ...]:
    """Parse a space- or comma-separated list of distinct cards.

    ``count`` is the number of cards required (or a sequence of allowed numbers).
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards = tuple(parse_card(t) for t in tokens)
    verify_distinct(cards)
    if count is not None:
        allowed = (count,) if isinstance(count, int) else tuple(count)
        if len(cards) not in allowed:
            raise refusal(N_("A hand here has %(wanted)s cards; %(given)s were given."),
                          wanted=Joined(allowed, N_(" or ")), given=len(cards))
    return cards


def verify_distinct(cards: Iterable[int]) -> None:
    """Raise ValueError naming the first card that appears twice."""
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise refusal(N_("%(card)s appears twice in the hand."), card=Card(card))
        seen.add(card)


def format_cards(cards: Iterable[int]) -> str:
    """Write cards in canonical notation, space-separated."""
    return " ".join(str(Card(c)) for c in cards)


def card_list(cards: Iterable[int]) -> list[str]:
    """Return the canonical notation of each card."""
    return [str(Card(c)) for c in cards]


def shuffled_deck(rng: random.Random) -> list[Card]:
    """Return the 53 cards shuffled by the injected generator."""
    deck = list(DECK)
    rng.shuffle(deck)
    return deck


def deal(rng: random.Random, count: int, exclude: Iterable[int] = ()) -> tuple[Card, ...]:
    """Deal ``count`` distinct cards from a fresh deck, replayable from ``rng``."""
    excluded = set(exclude)
    pool = [c for c in DECK if c not in excluded]
    if not 0 <= count <= len(pool):
        raise ValueError(f"Cannot deal {count} cards from {len(pool)}.")
    return tuple(rng.sample(pool, count))


def deal_piles(rng: random.Random) -> tuple[list[tuple[Card, ...]], tuple[Card, ...]]:
    """Shuffle and make seven piles of seven; return the piles and the four unused."""
    deck = shuffled_deck(rng)
    piles = [tuple(deck[i * 7:(i + 1) * 7]) for i in range(7)]
    return piles, tuple(deck[49:])
