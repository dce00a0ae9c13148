"""Bonus categories of seven cards, the joker as the bug (docs/rules.md, side bets).

A bonus category is judged on all seven cards, whatever the player's setting. Two
functions answer it: ``bonus_category`` (fast: suit and rank bit masks and three small
tables over the 8,192 rank masks, made on first use) and ``bonus_hand`` (clear: it
tries the five-card subsets with the exact evaluator and every card the joker could
stand for, and names the cards that make the category). The tests check that the two
always agree.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import IntEnum, StrEnum
from functools import cache
from itertools import combinations
from typing import Any

from ..cards import DECK, JOKER, RANK_CHARS, RANK_NAMES, SUIT_CHARS, SUIT_NAMES, Card, verify_distinct
from ..hands import Category, HandName, evaluate5
from ..messages import N_, Message, Worded


class BonusCategory(IntEnum):
    """The bonus categories; a larger value pays more (pay order is descending)."""

    NOTHING = 0
    STRAIGHT = 1
    THREE_OF_A_KIND = 2
    FLUSH = 3
    FULL_HOUSE = 4
    FOUR_OF_A_KIND = 5
    STRAIGHT_FLUSH = 6
    ROYAL_FLUSH = 7
    FIVE_ACES = 8
    SEVEN_CARD_STRAIGHT_FLUSH_JOKER = 9
    ROYAL_PLUS_MATCH = 10
    NATURAL_SEVEN_CARD_STRAIGHT_FLUSH = 11

    @property
    def slug(self) -> str:
        """Return the category's name in rule ids and JSON (``four-of-a-kind``)."""
        return _SLUGS[self]

    @property
    def title(self) -> str:
        """Return the category's name in words."""
        return _TITLES[self]

    @classmethod
    def from_slug(cls, slug: str) -> BonusCategory:
        """Return the category named by ``slug`` (ValueError for an unknown one)."""
        for category, known in _SLUGS.items():
            if known == slug:
                return category
        raise ValueError(f"There is no bonus category called {slug!r}.")


_SLUGS = {
    BonusCategory.NOTHING: "nothing",
    BonusCategory.STRAIGHT: "straight",
    BonusCategory.THREE_OF_A_KIND: "three-of-a-kind",
    BonusCategory.FLUSH: "flush",
    BonusCategory.FULL_HOUSE: "full-house",
    BonusCategory.FOUR_OF_A_KIND: "four-of-a-kind",
    BonusCategory.STRAIGHT_FLUSH: "straight-flush",
    BonusCategory.ROYAL_FLUSH: "royal-flush",
    BonusCategory.FIVE_ACES: "five-aces",
    BonusCategory.SEVEN_CARD_STRAIGHT_FLUSH_JOKER: "seven-card-straight-flush-joker",
    BonusCategory.ROYAL_PLUS_MATCH: "royal-plus-match",
    BonusCategory.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH: "natural-seven-card-straight-flush",
}
_TITLES = {
    BonusCategory.NOTHING: "Nothing",
    BonusCategory.STRAIGHT: "Straight",
    BonusCategory.THREE_OF_A_KIND: "Three of a kind",
    BonusCategory.FLUSH: "Flush",
    BonusCategory.FULL_HOUSE: "Full house",
    BonusCategory.FOUR_OF_A_KIND: "Four of a kind",
    BonusCategory.STRAIGHT_FLUSH: "Straight flush",
    BonusCategory.ROYAL_FLUSH: "Royal flush",
    BonusCategory.FIVE_ACES: "Five aces",
    BonusCategory.SEVEN_CARD_STRAIGHT_FLUSH_JOKER: "Seven-card straight flush with the joker",
    BonusCategory.ROYAL_PLUS_MATCH: "Royal flush plus royal match",
    BonusCategory.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH: "Seven-card straight flush (no joker)",
}
PAY_ORDER: tuple[BonusCategory, ...] = tuple(sorted(BonusCategory, reverse=True))


class Match(StrEnum):
    """The two natural cards that make a royal flush a "royal plus match"."""

    KING_QUEEN = "king-queen"   # Fortune Pai Gow: a natural king and queen of one suit
    ACE_KING = "ace-king"       # Emperor's Treasure: a natural ace and king of one suit

    @property
    def ranks(self) -> frozenset[int]:
        """Return the rank indexes (0 = deuce .. 12 = ace) of the match's two cards."""
        return frozenset({11, 10}) if self is Match.KING_QUEEN else frozenset({12, 11})

    @property
    def words(self) -> str:
        """Return the match in words ("king and queen")."""
        return "king and queen" if self is Match.KING_QUEEN else "ace and king"


# Windows of ranks, as 13-bit masks over rank indexes (bit 0 = deuce, bit 12 = ace);
# the ace also plays low (A-2-3-4-5, A-2-3-4-5-6-7).
_ACE = 12
_ROYAL = 0b1111100000000
_WINDOWS5 = (0b1000000001111, *((0b11111 << low) for low in range(9)))
_WINDOWS7 = (0b1000000111111, *((0b1111111 << low) for low in range(7)))


@cache
def _mask_tables() -> tuple[bytes, bytes, bytes]:
    """Per 13-bit rank mask: 5-card straight in it; with one rank missing; inside one 7-window."""
    straight = bytearray(8192)
    straight_joker = bytearray(8192)
    in_seven = bytearray(8192)
    for mask in range(8192):
        straight[mask] = any(mask & w == w for w in _WINDOWS5)
        straight_joker[mask] = any((mask & w).bit_count() >= 4 for w in _WINDOWS5)
        in_seven[mask] = any(mask & ~w == 0 for w in _WINDOWS7)
    return bytes(straight), bytes(straight_joker), bytes(in_seven)


def _check_seven(cards: Sequence[int]) -> None:
    if len(cards) != 7:
        raise ValueError(f"A bonus hand has 7 cards; {len(cards)} were given.")
    for card in cards:
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card <= 52:
            raise ValueError(f"{card!r} is not a card.")
    verify_distinct(cards)


def bonus_category(cards: Sequence[int], match: Match | str = Match.KING_QUEEN) -> BonusCategory:
    """Return the best bonus category of seven cards (fast)."""
    _check_seven(cards)
    return _category(cards, Match(match))


def _category(cards: Sequence[int], match: Match) -> BonusCategory:
    straight, straight_joker, in_seven = _mask_tables()
    suits = [0, 0, 0, 0]
    counts = [0] * 13
    joker = False
    for c in cards:
        if c == 52:
            joker = True
            continue
        suits[c & 3] |= 1 << (c >> 2)
        counts[c >> 2] += 1
    flush_suit = -1
    for s in range(4):
        n = suits[s].bit_count()
        if n >= 5 or (joker and n >= 4):
            flush_suit = s
            break
    royal = False
    if flush_suit >= 0:
        ms = suits[flush_suit]
        n = ms.bit_count()
        if n == 7 and in_seven[ms]:
            return BonusCategory.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH
        royal = ms & _ROYAL == _ROYAL or (joker and (ms & _ROYAL).bit_count() == 4)
        if royal and _has_match(cards, flush_suit, joker, match):
            return BonusCategory.ROYAL_PLUS_MATCH
        if joker and n == 6 and in_seven[ms]:
            return BonusCategory.SEVEN_CARD_STRAIGHT_FLUSH_JOKER
    aces = counts[_ACE] + joker   # the joker counts as an ace in pairs, trips and quads
    if aces == 5:
        return BonusCategory.FIVE_ACES
    if flush_suit >= 0:
        if royal:
            return BonusCategory.ROYAL_FLUSH
        if (straight_joker if joker else straight)[suits[flush_suit]]:
            return BonusCategory.STRAIGHT_FLUSH
    counts[_ACE] = aces
    most = max(counts)
    if most >= 4:
        return BonusCategory.FOUR_OF_A_KIND
    if most == 3 and sum(1 for k in counts if k >= 2) >= 2:
        return BonusCategory.FULL_HOUSE
    if flush_suit >= 0:
        return BonusCategory.FLUSH
    if most == 3:
        return BonusCategory.THREE_OF_A_KIND
    ranks = suits[0] | suits[1] | suits[2] | suits[3]
    if (straight_joker if joker else straight)[ranks]:
        return BonusCategory.STRAIGHT
    return BonusCategory.NOTHING


def _has_match(cards: Sequence[int], flush_suit: int, joker: bool, match: Match) -> bool:
    """Tell whether the two cards left beside the royal are the natural match of one suit.

    With a natural royal and the joker, the two left include the joker: no match (the
    joker never counts in the match, and letting it fill the royal instead would leave
    a card of the royal's suit whose partner is already in the royal).
    """
    royal_cards = [c for c in cards if c != 52 and c & 3 == flush_suit and (1 << (c >> 2)) & _ROYAL]
    rest = [c for c in cards if c != 52 and c not in royal_cards]
    if len(rest) != 2:   # a natural royal with the joker leaves one natural card
        return False
    a, b = rest
    return a & 3 == b & 3 and {a >> 2, b >> 2} == match.ranks


# --- the clear function ---------------------------------------------------------

_FIVE_CARD = {
    Category.FIVE_ACES: BonusCategory.FIVE_ACES,
    Category.ROYAL_FLUSH: BonusCategory.ROYAL_FLUSH,
    Category.STRAIGHT_FLUSH: BonusCategory.STRAIGHT_FLUSH,
    Category.FOUR_OF_A_KIND: BonusCategory.FOUR_OF_A_KIND,
    Category.FULL_HOUSE: BonusCategory.FULL_HOUSE,
    Category.FLUSH: BonusCategory.FLUSH,
    Category.THREE_OF_A_KIND: BonusCategory.THREE_OF_A_KIND,
    Category.STRAIGHT: BonusCategory.STRAIGHT,
}


@dataclass(frozen=True)
class BonusHand:
    """A judged bonus hand: its category and the cards that make it, in words."""

    cards: tuple[Card, ...]
    category: BonusCategory
    made_by: tuple[Card, ...]
    match_cards: tuple[Card, ...]
    joker_as: str | None
    description: str
    # The description as a sentence's value the web says in the reader's language: a
    # five-card hand's ``HandName``, the no-hand sentence, or for the seven-card and
    # royal-match hands the category's title in place of the English phrase (``Worded``).
    # ``str(said)`` is ``description``.
    said: Any = field(default=None, compare=False)

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON form used by the command line."""
        return {
            "cards": [str(c) for c in self.cards],
            "category": self.category.slug,
            "made_by": [str(c) for c in self.made_by],
            "match_cards": [str(c) for c in self.match_cards],
            "joker_as": self.joker_as,
            "description": self.description,
        }


def _in_sequence(cards: Sequence[int]) -> bool:
    """Tell whether seven natural cards are one suit in sequence (A-2-3-4-5-6-7 counts)."""
    if len({c & 3 for c in cards}) != 1:
        return False
    ranks = sorted(c >> 2 for c in cards)
    if ranks == list(range(ranks[0], ranks[0] + 7)):
        return True
    return ranks == [0, 1, 2, 3, 4, 5, _ACE]


def bonus_hand(cards: Sequence[int], match: Match | str = Match.KING_QUEEN) -> BonusHand:
    """Judge seven cards the plain way and name the cards that make the category."""
    _check_seven(cards)
    match = Match(match)
    hand = tuple(Card(c) for c in cards)
    natural = [c for c in hand if c != JOKER]
    if len(natural) == 7 and _in_sequence(natural):
        return _special(BonusHand(hand, BonusCategory.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH, hand,
                                  (), None, f"Seven-card straight flush in "
                                  f"{SUIT_NAMES[natural[0].suit or 's']}, no joker"))
    for five in combinations(hand, 5):
        rest = tuple(c for c in hand if c not in five)
        value = evaluate5(five)
        if (value.category is Category.ROYAL_FLUSH and JOKER not in rest
                and rest[0].suit == rest[1].suit and {c // 4 for c in rest} == match.ranks):
            suit = next(c.suit for c in five if c != JOKER)
            text = (f"Royal flush in {SUIT_NAMES[suit or 's']}{_joker_words(value.joker_as, suit)}"
                    f" with the {match.words} of {SUIT_NAMES[rest[0].suit or 's']}")
            return _special(BonusHand(hand, BonusCategory.ROYAL_PLUS_MATCH, five + rest, rest,
                                      _joker_card(value.joker_as, suit), text))
    if len(natural) == 6:
        for stand_in in DECK[:52]:
            if stand_in not in natural and _in_sequence([*natural, stand_in]):
                return _special(BonusHand(
                    hand, BonusCategory.SEVEN_CARD_STRAIGHT_FLUSH_JOKER, hand, (), str(stand_in),
                    f"Seven-card straight flush in {SUIT_NAMES[stand_in.suit or 's']}"
                    f", joker as the {RANK_NAMES[stand_in.rank]}"))
    best: tuple[BonusCategory, int, tuple[Card, ...]] | None = None
    for five in combinations(hand, 5):
        value = evaluate5(five)
        category = _FIVE_CARD.get(value.category, BonusCategory.NOTHING)
        if best is None or (category, value.strength) > best[:2]:
            best = (category, value.strength, five)
    assert best is not None
    category, _, best_five = best
    chosen: tuple[Card, ...] = tuple(best_five)
    if category is BonusCategory.NOTHING:
        return BonusHand(hand, category, (), (), None, NOTHING_WORDS, Message(NOTHING_WORDS))
    value = evaluate5(chosen)
    made_by: tuple[Card, ...] = chosen
    if category in (BonusCategory.FOUR_OF_A_KIND, BonusCategory.THREE_OF_A_KIND):
        rank = value.ranks[0]
        made_by = tuple(c for c in chosen if c.rank == rank)   # the joker answers rank 14
    suit = next((c.suit for c in chosen if c != JOKER), None)
    joker_as = value.joker_as if JOKER in made_by else None
    if joker_as and category in (BonusCategory.ROYAL_FLUSH, BonusCategory.STRAIGHT_FLUSH):
        joker_as = _joker_card(joker_as, suit)
    text = value.description.split(", joker as")[0]
    trips_of_more = (category is BonusCategory.THREE_OF_A_KIND
                     and value.category is not Category.THREE_OF_A_KIND)
    if trips_of_more:
        text = f"Three of a kind, {RANK_NAMES[made_by[0].rank]}s"
    if joker_as:
        text += f", joker as {'the ' + _card_words(joker_as) if len(joker_as) == 2 else 'an ace'}"
    # The five cards' own name (the joker's role as the rank it stands for); trips named
    # from a larger hand have no such name and read as their category.
    said = (Worded(text, Message(category.title)) if trips_of_more
            else HandName(True, value.category, value.ranks, value.joker_as if joker_as else None,
                          text))
    return BonusHand(hand, category, made_by, (), joker_as, text, said)


# The words of a seven-card hand that makes no bonus hand (its English description).
NOTHING_WORDS = N_("Nothing: no straight or better")


def _special(hand: BonusHand) -> BonusHand:
    """Give a seven-card or royal-match hand its ``said``: the category's title in place of
    the English phrase built from suit and rank names."""
    return replace(hand, said=Worded(hand.description, Message(hand.category.title)))


def _joker_card(joker_as: str | None, suit: str | None) -> str | None:
    return None if joker_as is None else joker_as + (suit or "")


def _joker_words(joker_as: str | None, suit: str | None) -> str:
    if joker_as is None:
        return ""
    return f" (joker as the {RANK_NAMES[RANK_CHARS.index(joker_as) + 2]})"


def _card_words(text: str) -> str:
    rank = RANK_NAMES[RANK_CHARS.index(text[0]) + 2]
    return f"{rank} of {SUIT_NAMES[text[1]]}" if len(text) > 1 and text[1] in SUIT_CHARS else rank


# --- dealing a hand of a given category (for drills) ------------------------------

def sample_hand(category: BonusCategory, rng: random.Random,
                match: Match | str = Match.KING_QUEEN) -> tuple[Card, ...]:
    """Return seven shuffled cards whose bonus category is exactly ``category``."""
    match = Match(match)
    category = BonusCategory(category)
    for _ in range(100_000):
        hand = _candidate(category, rng, match)
        if _category(hand, match) is category:
            cards = list(hand)
            rng.shuffle(cards)
            return tuple(Card(c) for c in cards)
    raise RuntimeError(f"Could not deal a {category.title.lower()}.")  # pragma: no cover


def _fill(rng: random.Random, cards: list[int]) -> tuple[int, ...]:
    pool = [c for c in range(53) if c not in cards]
    return (*cards, *rng.sample(pool, 7 - len(cards)))


def _window_cards(rng: random.Random, windows: Sequence[int], suit: int) -> list[int]:
    window = rng.choice(windows)
    return [r * 4 + suit for r in range(13) if window >> r & 1]


def _candidate(category: BonusCategory, rng: random.Random, match: Match) -> tuple[int, ...]:
    suit = rng.randrange(4)
    if category is BonusCategory.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH:
        return tuple(_window_cards(rng, _WINDOWS7, suit))
    if category is BonusCategory.SEVEN_CARD_STRAIGHT_FLUSH_JOKER:
        cards = _window_cards(rng, _WINDOWS7, suit)
        cards.remove(rng.choice(cards))
        return (*cards, 52)
    if category in (BonusCategory.ROYAL_PLUS_MATCH, BonusCategory.ROYAL_FLUSH):
        cards = [r * 4 + suit for r in range(8, 13)]
        if rng.random() < 0.3:
            cards[rng.randrange(5)] = 52
        if category is BonusCategory.ROYAL_PLUS_MATCH:
            other = rng.choice([s for s in range(4) if s != suit])
            return (*cards, *(r * 4 + other for r in match.ranks))
        return _fill(rng, cards)
    if category is BonusCategory.FIVE_ACES:
        return _fill(rng, [48, 49, 50, 51, 52])
    if category is BonusCategory.STRAIGHT_FLUSH:
        cards = _window_cards(rng, _WINDOWS5[:-1], suit)
        if rng.random() < 0.3:
            cards[rng.randrange(5)] = 52
        return _fill(rng, cards)
    if category is BonusCategory.FOUR_OF_A_KIND:
        rank = rng.randrange(13)
        cards = [rank * 4 + s for s in range(4)]
        if rank == _ACE and rng.random() < 0.3:
            cards[rng.randrange(4)] = 52
        return _fill(rng, cards)
    return tuple(rng.sample(range(53), 7))
