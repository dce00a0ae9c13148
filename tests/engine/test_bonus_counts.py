"""Exact bonus counts: the shipped figures, the class method against brute force, the edges."""
from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from importlib import resources
from itertools import combinations
from math import comb

import pytest

from trainer.engine.side_bets import BonusCategory, Match, bonus_category
from trainer.engine.side_bets.counts import (
    ALL_HANDS,
    category_counts,
    compute_category_counts,
    counts_json,
    envy_per_player,
    house_edge,
)


@pytest.mark.parametrize("match", list(Match))
def test_shipped_counts_cover_all_154143080_hands_in_twelve_categories(match) -> None:
    counts = category_counts(match)
    assert len(counts) == 12 and set(counts) == set(BonusCategory)
    assert sum(counts.values()) == comb(53, 7) == 154_143_080


def test_shipped_counts_match_a_full_recount() -> None:
    shipped = resources.files("trainer.engine.side_bets").joinpath("data", "counts.json")
    assert shipped.read_text(encoding="utf-8") == counts_json(compute_category_counts())


def test_counts_that_can_be_worked_out_by_hand() -> None:
    counts = category_counts()
    assert counts[BonusCategory.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH] == 8 * 4  # 8 windows, 4 suits
    # Four aces and the joker, with two of the other 48 cards.
    assert counts[BonusCategory.FIVE_ACES] == comb(48, 2)
    # Seven-card straight flush with the joker: 8 windows x 4 suits x the 7 places the
    # joker fills, less the double counts where a 6-card run plus joker fits two windows
    # (runs 2-7 .. 8-K and A-6: the joker at either end) -> 32 * 7 - 7 * 4 = 196.
    assert counts[BonusCategory.SEVEN_CARD_STRAIGHT_FLUSH_JOKER] == 8 * 4 * 7 - 7 * 4


def _brute(ranks: list[int]) -> dict[Match, Counter]:
    deck = [r * 4 + s for r in ranks for s in range(4)] + [52]
    out = {m: Counter() for m in Match}
    for hand in combinations(deck, 7):
        for m in Match:
            out[m][bonus_category(hand, m)] += 1
    return out


@pytest.mark.parametrize("ranks", [[0, 8, 9, 10, 11, 12], [12, 0, 1, 2, 3, 4]],
                         ids=["2-and-royals", "ace-to-six"])
def test_the_class_method_equals_brute_force_on_a_reduced_deck(ranks) -> None:
    brute = _brute(ranks)
    classes = compute_category_counts(ranks)
    for m in Match:
        assert {c: n for c, n in classes[m].items() if n} == dict(brute[m])
    assert brute[Match.KING_QUEEN][BonusCategory.ROYAL_PLUS_MATCH] or ranks[0] == 12


def test_fortune_standard_edge_is_the_published_7_77_percent() -> None:
    edge = house_edge("fortune-standard")
    assert round(float(edge) * 100, 2) == 7.77
    # Exactly: the expectation over the shipped counts and the table's odds, worked here.
    c = category_counts()
    odds = [8000, 2000, 1000, 400, 150, 50, 25, 5, 4, 3, 2]
    paid = sum(n * o for n, o in zip([c[k] for k in sorted(c, reverse=True)][:11], odds, strict=True))
    assert edge == Fraction(c[BonusCategory.NOTHING] - paid, ALL_HANDS)


def test_fortune_5000_and_emperors_treasure_edges() -> None:
    assert house_edge("fortune-5000") - house_edge("fortune-standard") == Fraction(3000 * 32, ALL_HANDS)
    # Royal plus suited A-K is exactly as likely as royal plus suited K-Q.
    assert house_edge("emperors-treasure") == house_edge("fortune-standard")


def test_progressive_edge_falls_with_the_meter() -> None:
    low, high = house_edge("progressive", 1_000_000), house_edge("progressive", 2_000_000)
    top = sum(category_counts(Match.ACE_KING)[c] for c in (
        BonusCategory.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH, BonusCategory.ROYAL_PLUS_MATCH,
        BonusCategory.SEVEN_CARD_STRAIGHT_FLUSH_JOKER, BonusCategory.FIVE_ACES))
    assert low - high == Fraction(top * 1_000_000, ALL_HANDS * 100)
    with pytest.raises(ValueError, match="meter"):
        house_edge("progressive")


def test_envy_per_additional_player_is_about_0_92_points() -> None:
    share = envy_per_player("envy", 500)
    assert 0.0090 < float(share) < 0.0095   # published "about 0.92 points per player"
    c = category_counts()
    amounts = {BonusCategory.FOUR_OF_A_KIND: 500, BonusCategory.STRAIGHT_FLUSH: 2000,
               BonusCategory.ROYAL_FLUSH: 5000, BonusCategory.FIVE_ACES: 25_000,
               BonusCategory.SEVEN_CARD_STRAIGHT_FLUSH_JOKER: 50_000,
               BonusCategory.ROYAL_PLUS_MATCH: 100_000,
               BonusCategory.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH: 500_000}
    assert share == Fraction(sum(c[k] * a for k, a in amounts.items()), ALL_HANDS * 500)


def test_counts_json_is_readable_json() -> None:
    data = json.loads(counts_json(compute_category_counts([0, 8, 9, 10, 11, 12])))
    assert set(data["counts"]) == {"king-queen", "ace-king"}
