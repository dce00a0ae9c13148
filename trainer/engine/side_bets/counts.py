"""Exact counts of the bonus categories over all seven-card hands, and what they give.

``compute_category_counts`` counts every bonus category over all C(53, 7) =
154,143,080 hands without dealing them one by one. Hands are grouped into classes
whose members all have the same category (the method of docs/seven-card-counts.md):
the rank multiset of the natural cards, the joker or not, and the set R of ranks in
the flush suit if the hand has one (5+ natural cards of a suit, or 4+ with the joker;
with seven cards at most one suit qualifies and every other suit holds at most two
natural cards). With c_r copies of rank r the class of flush suit R holds
4 x prod_{r in R} C(3, c_r - 1) x prod_{r not in R} C(3, c_r) hands, and the class
without a flush suit holds the rest of prod C(4, c_r).

One thing besides R depends on suits: the royal plus match, whose two cards lie
outside the flush suit. When exactly two natural cards lie outside it and their ranks
differ, each is in one of the three other suits, independently: 3 of those 9 pairs
share a suit, so the class splits 1/3 (same suit) to 2/3 (not), each part judged on
its own representative.

The counts ship as package data (``data/counts.json``, written by
``tools/build_bonus_counts.py``); a test recounts and compares.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from functools import cache
from importlib import resources
from itertools import combinations
from math import comb, prod

from ..hands import is_queen_high_pai_gow
from .categories import BonusCategory, Match, _category
from .paytables import PayTable, TableKind, load_table

ALL_HANDS = comb(53, 7)
# Queen's Dragon's paying line (tables/queens-dragon.toml).
QUEEN_HIGH_SLUG = "queen-high-pai-gow"
Counts = dict[BonusCategory, int]


def _multisets(ranks: tuple[int, ...], n: int) -> Iterator[tuple[int, ...]]:
    """Yield count vectors (one count per rank of ``ranks``, each 0..4) summing to n."""
    if not ranks:
        if n == 0:
            yield ()
        return
    for k in range(min(4, n) + 1):
        for rest in _multisets(ranks[1:], n - k):
            yield (k, *rest)


def _deal_other_suits(cards: list[int], rank_copies: Iterable[tuple[int, int]],
                      suits: tuple[int, ...]) -> None:
    """Give each rank's copies to the least-filled distinct suits of ``suits``."""
    fill = dict.fromkeys(suits, 0)
    for card in cards:
        if card != 52 and card & 3 in fill:
            fill[card & 3] += 1
    for rank, copies in rank_copies:
        for s in sorted(suits, key=lambda s: (fill[s], s))[:copies]:
            cards.append(rank * 4 + s)
            fill[s] += 1


def hand_classes(ranks: Iterable[int] = range(13), size: int = 7
                 ) -> Iterator[tuple[list[int], int]]:
    """Yield every class of hands of a deck: a representative hand and how many hands it stands for.

    The deck is the four suits of ``ranks`` (rank indexes, 0 = deuce .. 12 = ace) and
    the joker; the default is the full 53-card deck. Every hand of a class has the
    same rank multiset, joker or not, flush-suit rank set and, beside a flush suit, the
    same "two outside cards of one suit or not" (the royal match), so any judge that
    reads only these (a bonus category, a queen-high pai gow) judges the whole class
    by its representative. The weights add up to C(deck, size).
    """
    rank_list = tuple(sorted(set(ranks)))
    for joker in (False, True):
        n = size - joker
        for vector in _multisets(rank_list, n):
            held = [(r, k) for r, k in zip(rank_list, vector, strict=True) if k]
            copies = dict(held)
            total = prod(comb(4, k) for _, k in held)
            flush_total = 0
            least = 4 if joker else 5
            for width in range(least, len(held) + 1):
                for flush_ranks in combinations(copies, width):
                    in_flush = set(flush_ranks)
                    weight = 4 * prod(comb(3, k - (r in in_flush)) for r, k in held)
                    if not weight:
                        continue
                    flush_total += weight
                    cards = [r * 4 for r in flush_ranks] + ([52] if joker else [])
                    outside = [(r, k - (r in in_flush)) for r, k in held if k - (r in in_flush)]
                    if len(outside) == 2 and sum(k for _, k in outside) == 2:
                        (r1, _), (r2, _) = outside
                        yield [*cards, r1 * 4 + 1, r2 * 4 + 1], weight // 3
                        yield [*cards, r1 * 4 + 1, r2 * 4 + 2], weight - weight // 3
                        continue
                    _deal_other_suits(cards, outside, (1, 2, 3))
                    yield cards, weight
            rest = total - flush_total
            if rest:
                cards = [52] if joker else []
                _deal_other_suits(cards, held, (0, 1, 2, 3))
                yield cards, rest


def compute_category_counts(ranks: Iterable[int] = range(13), size: int = 7
                            ) -> dict[Match, Counts]:
    """Count every bonus category, for each kind of match, over all hands of a deck.

    The deck is the four suits of ``ranks`` (rank indexes, 0 = deuce .. 12 = ace) and
    the joker; the default is the full 53-card deck.
    """
    counts = {m: dict.fromkeys(BonusCategory, 0) for m in Match}
    for cards, weight in hand_classes(ranks, size):
        for m in Match:
            counts[m][_category(cards, m)] += weight
    return counts


def count_hands(judge: Callable[[Sequence[int]], bool], ranks: Iterable[int] = range(13),
                size: int = 7) -> int:
    """Count the hands ``judge`` accepts, exactly, class by class (``hand_classes``)."""
    return sum(weight for cards, weight in hand_classes(ranks, size) if judge(cards))


@cache
def queen_high_count() -> int:
    """Return how many of the 154,143,080 seven-card hands are a queen-high pai gow.

    Judged by the engine's own rule (``hands.is_queen_high_pai_gow``, the no-commission
    push and Queen's Dragon) on every class of hands: 2,719,500.
    """
    return count_hands(is_queen_high_pai_gow)


@cache
def _shipped() -> dict[Match, Counts]:
    path = resources.files(__package__).joinpath("data", "counts.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    return {Match(m): {BonusCategory.from_slug(slug): int(n) for slug, n in table.items()}
            for m, table in data["counts"].items()}


def category_counts(match: Match | str = Match.KING_QUEEN) -> Counts:
    """Return the exact number of seven-card hands in each bonus category (shipped data)."""
    return dict(_shipped()[Match(match)])


def counts_json(counts: dict[Match, Counts]) -> str:
    """Return the shipped file's text for ``counts``."""
    data = {"hands": ALL_HANDS,
            "counts": {m.value: {c.slug: counts[m][c] for c in sorted(counts[m], reverse=True)}
                       for m in Match}}
    return json.dumps(data, indent=2) + "\n"


def house_edge(table: PayTable | str, meter_cents: int | None = None) -> Fraction:
    """Return a table's house edge exactly, as a fraction of the bet.

    For a progressive, the bet is its fixed amount and ``meter_cents`` the meter; a
    table paid "for 1" returns no stake to a winner (``PayTable.net_cents``). Queen's
    Dragon is judged on the banker's seven cards: its paying hands are the queen-high
    pai gows (``queen_high_count``), every other hand loses the bet.
    """
    table = load_table(table) if isinstance(table, str) else table
    bet = table.fixed_bet_cents or 100
    if table.kind is TableKind.QUEENS_DRAGON:
        line = table.line_by_slug(QUEEN_HIGH_SLUG)
        if line is None:
            raise ValueError(f"{table.title} has no queen-high pai gow line.")
        hits = queen_high_count()
        expected = (Fraction(hits * table.net_cents(line.win_cents(bet), bet), ALL_HANDS)
                    + Fraction((ALL_HANDS - hits) * -bet, ALL_HANDS))
        return -expected / bet
    if table.kind not in (TableKind.BONUS, TableKind.PROGRESSIVE):
        raise ValueError(f"{table.title} has no house edge of its own: it is not a bet on a hand.")
    counts = category_counts(table.match)
    expected = Fraction(0)
    for category, hands in counts.items():
        line = table.line_for(category)
        paid = line.win_cents(bet, meter_cents) if line else 0
        expected += Fraction(hands * table.net_cents(paid, bet), ALL_HANDS)
    return -expected / bet


def envy_per_player(table: PayTable | str = "envy", bonus_bet_cents: int | None = None) -> Fraction:
    """Return the expected envy from one other hand, as a fraction of the bonus bet.

    The other hand is seven cards drawn from the 46 the player does not hold. Averaged
    over the player's own hand, the pair (own hand, other hand) is a random ordered pair
    of disjoint seven-card hands, so the other hand is as likely to be in each category
    as a hand dealt from the full deck (every seven-card hand is the other hand of
    exactly C(46, 7) pairs): the expectation uses the full-deck counts.
    """
    table = load_table(table) if isinstance(table, str) else table
    if table.kind is not TableKind.ENVY:
        raise ValueError(f"{table.title} is not an envy table.")
    bet = bonus_bet_cents or table.min_bonus_bet_cents or 500
    counts = category_counts(table.match)
    expected = sum((Fraction(counts[line.category] * (line.amount_cents or 0), ALL_HANDS)
                    for line in table.lines if line.category is not None), Fraction(0))
    return expected / bet
