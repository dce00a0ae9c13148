"""Hand values: five-card and two-card ranking with the joker (docs/rules.md §4–§6).

Every hand has a *strength*, an int where larger is better, laid out as
``category << 20 | k0 << 16 | k1 << 12 | k2 << 8 | k3 << 4 | k4`` with the keys
being the ranks that define the hand in order.  Two-card hands use the same
layout (pair: category one pair, key the pair rank; otherwise high card, the two
ranks), which makes the rule book's foul test a single comparison.

``rank5`` is the fast path: products of primes identify a rank multiset, and two
small tables (flush or not) per wheel setting give the strength.  The tables come
from the exact evaluator, ``evaluate5``, which also says what the joker became and
describes the hand in words.  They are made on first use, one wheel setting at a
time (``rank_tables``): read from the engine's package data (``data/rank5-<wheel>.bin``,
written by ``tools/build_rank_tables.py`` and checked against a fresh build by
``tests/engine/test_rank_tables.py``), or built from ``evaluate5`` if that file is
missing.  Importing this module builds nothing.
"""
from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from itertools import combinations_with_replacement
from typing import Any

from .cards import JOKER, RANK_CHARS, RANK_NAMES, RANK_PLURALS, Card
from .messages import N_

# A described hand with the joker's role, as a sentence in another language says it
# (English: the description itself, byte for byte).
JOKER_AS = N_("%(hand)s, joker as %(rank)s")


class Category(IntEnum):
    """Hand categories, low to high (docs/rules.md §4)."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9
    FIVE_ACES = 10

    @property
    def slug(self) -> str:
        """Return the category's name as used in JSON (``two_pair``)."""
        return self.name.lower()


class Wheel(StrEnum):
    """Where A-2-3-4-5 ranks among straights (a table setting)."""

    SECOND_HIGHEST = "second_highest"
    LOWEST = "lowest"


class Outcome(StrEnum):
    """The result of comparing one hand with another, for the first hand."""

    WIN = "win"
    LOSS = "loss"
    COPY = "copy"


CATEGORY_SHIFT = 20
ACE = 14
WHEEL_RANKS = (5, 4, 3, 2, 14)
# Straights by their top card; 5 is the wheel.
STRAIGHTS: dict[int, tuple[int, ...]] = {
    top: tuple(range(top, top - 5, -1)) for top in range(6, 15)
}
STRAIGHTS[5] = WHEEL_RANKS


def straight_key(top: int, wheel: str) -> int:
    """Return the tie-break key of a straight by its top card under ``wheel``."""
    if wheel == Wheel.SECOND_HIGHEST:
        if top == ACE:
            return 15
        if top == 5:
            return 14
    return top


def pack(category: int, keys: Sequence[int]) -> int:
    """Pack a category and up to five keys into a strength."""
    value = category << CATEGORY_SHIFT
    shift = 16
    for key in keys:
        value |= key << shift
        shift -= 4
    return value


@dataclass(frozen=True, slots=True)
class HandValue:
    """A ranked hand: its category, defining ranks, the joker's role, and strength."""

    cards: tuple[Card, ...]
    category: Category
    ranks: tuple[int, ...]
    joker_as: str | None
    strength: int
    description: str

    @property
    def name(self) -> HandName:
        """Return the description as a sentence's value, worded in the reader's language."""
        return HandName(len(self.cards) == 5, self.category, self.ranks, self.joker_as,
                        self.description)

    @property
    def rank_chars(self) -> list[str]:
        """Return the defining ranks in notation (``["K", "A", "7", "3"]``)."""
        return [RANK_CHARS[r - 2] for r in self.ranks]

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON form used by the command line."""
        return {
            "cards": [str(c) for c in self.cards],
            "category": self.category.slug,
            "ranks": self.rank_chars,
            "joker_as": self.joker_as,
            "description": self.description,
        }


@dataclass(frozen=True, slots=True)
class HandName:
    """A hand's description inside a ``Message`` ("Pair of eights", "K-7, joker as A").

    ``str()`` is the English description (``HandValue.description``, byte for byte); the
    web words it in the reader's language from ``house_way/words.py``'s tables
    (``web/words/engine_words.py``), the joker's role through ``JOKER_AS``.
    """

    five: bool
    category: Category
    ranks: tuple[int, ...]
    joker_as: str | None
    english: str

    def __str__(self) -> str:
        return self.english


def _r(rank: int) -> str:
    """A rank as a sentence for people writes it: the cards' own figure, so ten is "10"
    (the notation's "T" stays in ids, JSON and stored data: ``rank_chars``)."""
    return "10" if rank == 10 else RANK_CHARS[rank - 2]


def _word(rank: int) -> str:
    return RANK_NAMES[rank].capitalize()


def _describe(category: Category, ranks: tuple[int, ...]) -> str:
    kick = "-".join(_r(r) for r in ranks[1:])
    if category is Category.FIVE_ACES:
        return "Five aces"
    if category is Category.ROYAL_FLUSH:
        return "Royal flush"
    if category in (Category.STRAIGHT_FLUSH, Category.STRAIGHT):
        name = "straight flush" if category is Category.STRAIGHT_FLUSH else "straight"
        top = ranks[0]
        wheel = " (the wheel)" if ranks == WHEEL_RANKS else ""
        return f"{_word(top)}-high {name}{wheel}"
    if category is Category.FOUR_OF_A_KIND:
        return f"Four {RANK_PLURALS[ranks[0]]}, {_r(ranks[1])} kicker"
    if category is Category.FULL_HOUSE:
        return f"{RANK_PLURALS[ranks[0]].capitalize()} full of {RANK_PLURALS[ranks[1]]}"
    if category is Category.FLUSH:
        return f"{_word(ranks[0])}-high flush, " + "-".join(_r(r) for r in ranks)
    if category is Category.THREE_OF_A_KIND:
        return f"Three {RANK_PLURALS[ranks[0]]}, {kick}"
    if category is Category.TWO_PAIR:
        return (f"Two pair, {RANK_PLURALS[ranks[0]]} and {RANK_PLURALS[ranks[1]]}, "
                f"{_r(ranks[2])} kicker")
    if category is Category.ONE_PAIR:
        return f"Pair of {RANK_PLURALS[ranks[0]]}" + (f", {kick}" if kick else "")
    return f"{_word(ranks[0])}-high pai gow, " + "-".join(_r(r) for r in ranks)


def _classify_natural(ranks: list[int], flush: bool, wheel: str
                      ) -> tuple[Category, tuple[int, ...], int]:
    """Classify five ranks (an ace may stand for the joker) with a known flush flag."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(c for _, c in groups)
    order = tuple(r for r, _ in groups)
    if shape == (5,):
        return Category.FIVE_ACES, (ACE,), pack(Category.FIVE_ACES, (ACE,))
    distinct = sorted(counts, reverse=True)
    top = None
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            top = distinct[0]
        elif distinct == [14, 5, 4, 3, 2]:
            top = 5
    if top is not None:
        cat = Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT
        if flush and top == ACE:
            cat = Category.ROYAL_FLUSH
        return cat, STRAIGHTS[top], pack(cat, (straight_key(top, wheel),))
    if flush:
        return Category.FLUSH, tuple(distinct), pack(Category.FLUSH, distinct)
    cat = {
        (4, 1): Category.FOUR_OF_A_KIND,
        (3, 2): Category.FULL_HOUSE,
        (3, 1, 1): Category.THREE_OF_A_KIND,
        (2, 2, 1): Category.TWO_PAIR,
        (2, 1, 1, 1): Category.ONE_PAIR,
        (1, 1, 1, 1, 1): Category.HIGH_CARD,
    }[shape]
    return cat, order, pack(cat, order)


def _joker_candidates(natural_ranks: list[int], suited: bool, wheel: str
                      ) -> Iterator[tuple[Category, tuple[int, ...], int, int]]:
    """Yield (category, ranks, strength, joker rank) for each reading of the joker."""
    # As an ace (it pairs with aces, or plays as an ace kicker, or tops a straight).
    cat, ranks, strength = _classify_natural([*natural_ranks, ACE], False, wheel)
    if cat in (Category.STRAIGHT,) and suited:
        pass  # the suited reading below covers the straight flush
    yield cat, ranks, strength, ACE
    present = set(natural_ranks)
    if len(present) == 4:
        # Completing a straight (or straight flush): the highest one it can make.
        for top in sorted(STRAIGHTS, key=lambda t: straight_key(t, wheel), reverse=True):
            needed = set(STRAIGHTS[top])
            if present <= needed:
                missing = (needed - present).pop()
                cat = Category.STRAIGHT
                if suited:
                    cat = Category.ROYAL_FLUSH if top == ACE else Category.STRAIGHT_FLUSH
                yield cat, STRAIGHTS[top], pack(cat, (straight_key(top, wheel),)), missing
                break
        if suited:
            # Completing a flush: the highest rank of the suit not already held.
            missing = max(r for r in range(2, 15) if r not in present)
            ranks = tuple(sorted(present | {missing}, reverse=True))
            yield Category.FLUSH, ranks, pack(Category.FLUSH, ranks), missing


def evaluate5(cards: Sequence[int], wheel: str = Wheel.SECOND_HIGHEST) -> HandValue:
    """Rank a five-card hand exactly, saying what the joker became."""
    hand = tuple(Card(c) for c in cards)
    if len(hand) != 5:
        raise ValueError(f"A five-card hand has 5 cards; {len(hand)} were given.")
    natural = [c for c in hand if c != JOKER]
    suits = {c.suit for c in natural}
    ranks = [c.rank for c in natural]
    if len(natural) == 5:
        cat, order, strength = _classify_natural(ranks, len(suits) == 1, wheel)
        return HandValue(hand, cat, order, None, strength, _describe(cat, order))
    best = max(_joker_candidates(ranks, len(suits) == 1, wheel), key=lambda c: c[2])
    cat, order, strength, joker_rank = best
    text = f"{_describe(cat, order)}, joker as {_r(joker_rank)}"
    return HandValue(hand, cat, order, RANK_CHARS[joker_rank - 2], strength, text)


def evaluate2(cards: Sequence[int]) -> HandValue:
    """Rank a two-card hand; the joker is always an ace there."""
    hand = tuple(Card(c) for c in cards)
    if len(hand) != 2:
        raise ValueError(f"A two-card hand has 2 cards; {len(hand)} were given.")
    strength = rank2(hand)
    hi, lo = sorted((c.rank for c in hand), reverse=True)
    joker_as = "A" if JOKER in hand else None
    order: tuple[int, ...]
    if hi == lo:
        cat, order, text = Category.ONE_PAIR, (hi,), f"Pair of {RANK_PLURALS[hi]}"
    else:
        cat, order, text = Category.HIGH_CARD, (hi, lo), f"{_r(hi)}-{_r(lo)}"
    if joker_as:
        text += ", joker as A"
    return HandValue(hand, cat, order, joker_as, strength, text)


def evaluate(cards: Sequence[int], wheel: str = Wheel.SECOND_HIGHEST) -> HandValue:
    """Rank a five-card or two-card hand."""
    if len(cards) == 2:
        return evaluate2(cards)
    return evaluate5(cards, wheel)


# --- the fast path -------------------------------------------------------------

PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
JOKER_PRIME = 43
CARD_PRIME: tuple[int, ...] = (*(PRIMES[c // 4] for c in range(52)), JOKER_PRIME)
CARD_SUITBIT: tuple[int, ...] = (*(1 << (c % 4) for c in range(52)), 0)
CARD_RANK: tuple[int, ...] = (*(c // 4 + 2 for c in range(52)), ACE)
SINGLE_SUIT = frozenset((1, 2, 4, 8))


def _build_tables(wheel: str) -> tuple[dict[int, int], dict[int, int]]:
    """Build the (not flush, flush) strength tables keyed by prime product."""
    plain: dict[int, int] = {}
    flush: dict[int, int] = {}
    # Rank multisets of the natural cards: 5 natural, or 4 natural + joker.
    for n_natural in (5, 4):
        for combo in combinations_with_replacement(range(13), n_natural):
            if any(combo.count(r) > 4 for r in set(combo)):
                continue
            # Spread suits so no flush: card i of a rank gets suit i; distinct ranks
            # rotate suits.
            cards: list[int] = []
            used: dict[int, int] = {}
            for i, r in enumerate(combo):
                k = used.get(r, 0)
                used[r] = k + 1
                suit = (k + i) % 4 if len(set(combo)) == len(combo) else k
                cards.append(r * 4 + suit)
            if len(set(combo)) == len(combo) and len({c % 4 for c in cards}) == 1:
                cards[0] = cards[0] // 4 * 4 + (cards[0] + 1) % 4
            if n_natural == 4:
                cards.append(52)
            key = 1
            for c in cards:
                key *= CARD_PRIME[c]
            plain[key] = evaluate5(cards, wheel).strength
            if len(set(combo)) == len(combo):
                suited = [r * 4 for r in combo] + ([52] if n_natural == 4 else [])
                flush[key] = evaluate5(suited, wheel).strength
    return plain, flush


RankTables = tuple[dict[int, int], dict[int, int]]
_TABLES: dict[str, RankTables] = {}
_TABLE_MAGIC = b"PGR5"


def tables_to_bytes(tables: RankTables) -> bytes:
    """Serialise (not flush, flush) tables: a magic, the two sizes, then key-value pairs.

    Little-endian unsigned 32-bit words, each table sorted by key, so the same tables
    always give the same bytes.
    """
    words = array("I", [len(tables[0]), len(tables[1])])
    for table in tables:
        for key in sorted(table):
            words.append(key)
            words.append(table[key])
    if sys.byteorder == "big":
        words.byteswap()
    return _TABLE_MAGIC + words.tobytes()


def tables_from_bytes(data: bytes) -> RankTables:
    """Read tables written by ``tables_to_bytes``."""
    if data[:4] != _TABLE_MAGIC:
        raise ValueError("Not a five-card rank table.")
    words = array("I")
    words.frombytes(data[4:])
    if sys.byteorder == "big":
        words.byteswap()
    n_plain, n_flush = words[0], words[1]
    end = 2 + 2 * n_plain
    if len(words) != end + 2 * n_flush:
        raise ValueError("A five-card rank table of the wrong size.")
    plain = dict(zip(words[2:end:2], words[3:end:2], strict=True))
    flush = dict(zip(words[end::2], words[end + 1::2], strict=True))
    return plain, flush


def table_file_name(wheel: str) -> str:
    """Return the package-data file name of one wheel setting's tables."""
    return f"rank5-{Wheel(wheel).value}.bin"


def _load_tables(wheel: str) -> RankTables:
    """Read one wheel setting's shipped tables, or build them if the file is missing."""
    from importlib import resources

    try:
        data = resources.files(__package__).joinpath("data", table_file_name(wheel)).read_bytes()
    except FileNotFoundError:
        return _build_tables(wheel)
    return tables_from_bytes(data)


def rank_tables(wheel: str = Wheel.SECOND_HIGHEST) -> RankTables:
    """Return the (not flush, flush) tables of a wheel setting, made on first use."""
    tables = _TABLES.get(wheel)
    if tables is None:
        wheel = Wheel(wheel).value
        tables = _TABLES[wheel] = _load_tables(wheel)
    return tables


def warm_rank_tables() -> None:
    """Make the tables of every wheel setting now (the app does, so no request pays)."""
    for w in Wheel:
        rank_tables(w.value)


def rank5(cards: Sequence[int], wheel: str = Wheel.SECOND_HIGHEST) -> int:
    """Return the strength of a five-card hand (fast; no validation)."""
    plain, flush = _TABLES.get(wheel) or rank_tables(wheel)
    a, b, c, d, e = cards
    p = CARD_PRIME
    s = CARD_SUITBIT
    key = p[a] * p[b] * p[c] * p[d] * p[e]
    if (s[a] | s[b] | s[c] | s[d] | s[e]) in SINGLE_SUIT:
        return flush[key]
    return plain[key]


def rank5_function(wheel: str = Wheel.SECOND_HIGHEST) -> Callable[[Sequence[int]], int]:
    """Return a fast five-card ranking function bound to one wheel setting."""
    plain, flush = rank_tables(wheel)
    p = CARD_PRIME
    s = CARD_SUITBIT
    single = SINGLE_SUIT

    def rank(cards: Sequence[int]) -> int:
        a, b, c, d, e = cards
        key = p[a] * p[b] * p[c] * p[d] * p[e]
        if (s[a] | s[b] | s[c] | s[d] | s[e]) in single:
            return flush[key]
        return plain[key]

    return rank


def rank2(cards: Sequence[int]) -> int:
    """Return the strength of a two-card hand; the joker plays as an ace."""
    a, b = CARD_RANK[cards[0]], CARD_RANK[cards[1]]
    if a == b:
        return (Category.ONE_PAIR << CATEGORY_SHIFT) | (a << 16)
    if a < b:
        a, b = b, a
    return (a << 16) | (b << 12)


def rank_hand(cards: Sequence[int], wheel: str = Wheel.SECOND_HIGHEST) -> int:
    """Return the strength of a five-card or two-card hand."""
    return rank2(cards) if len(cards) == 2 else rank5(cards, wheel)


def compare(a: Sequence[int], b: Sequence[int], wheel: str = Wheel.SECOND_HIGHEST
            ) -> Outcome:
    """Compare two hands of the same size: win, loss or copy for ``a``."""
    if len(a) != len(b) or len(a) not in (2, 5):
        raise ValueError("Compare two five-card hands or two two-card hands.")
    sa, sb = rank_hand(a, wheel), rank_hand(b, wheel)
    if sa > sb:
        return Outcome.WIN
    if sa < sb:
        return Outcome.LOSS
    return Outcome.COPY


def compare_strengths(a: int, b: int) -> Outcome:
    """Compare two strengths: win, loss or copy for ``a``."""
    return Outcome.WIN if a > b else Outcome.LOSS if a < b else Outcome.COPY


_QUEEN_INDEX = 10   # card // 4 of a queen (ranks 2..A are 0..12)


def is_queen_high_pai_gow(seven: Sequence[int]) -> bool:
    """Tell whether seven cards are a queen-high pai gow (the no-commission push rule).

    Seven different ranks, no joker, the queen the highest card, and no straight,
    flush or straight flush among them. Without an ace no wheel is possible, so the
    answer is the same under either wheel setting.
    """
    if len(seven) != 7 or JOKER in seven:
        return False
    ranks = {c // 4 for c in seven}
    if len(ranks) != 7 or max(ranks) != _QUEEN_INDEX:
        return False
    suits = [c % 4 for c in seven]
    if max(suits.count(s) for s in range(4)) >= 5:
        return False
    return not any(all(r in ranks for r in range(low, low + 5))
                   for low in range(_QUEEN_INDEX - 4 + 1))
