"""Five-card and two-card ranking with the joker (rules.md, "Five-card hands", "The joker")."""
import random
from collections import Counter
from itertools import combinations, pairwise

import pytest

from trainer.engine.cards import parse_cards as P
from trainer.engine.hands import (
    Category,
    Outcome,
    Wheel,
    compare,
    evaluate2,
    evaluate5,
    rank2,
    rank5,
    rank5_function,
)

PUBLISHED_FIVE_CARD_COUNTS = {
    Category.FIVE_ACES: 1,
    Category.ROYAL_FLUSH: 24,
    Category.STRAIGHT_FLUSH: 180,
    Category.FOUR_OF_A_KIND: 828,
    Category.FULL_HOUSE: 4_368,
    Category.FLUSH: 7_804,
    Category.STRAIGHT: 20_532,
    Category.THREE_OF_A_KIND: 63_360,
    Category.TWO_PAIR: 138_600,
    Category.ONE_PAIR: 1_215_024,
    Category.HIGH_CARD: 1_418_964,
}


def test_five_card_category_counts_match_published_table():
    rank = rank5_function()
    counts = Counter(rank(hand) >> 20 for hand in combinations(range(53), 5))
    assert sum(counts.values()) == 2_869_685
    assert {Category(k): v for k, v in counts.items()} == PUBLISHED_FIVE_CARD_COUNTS


def _reference_key(value):
    """Order hands as the rule book writes it, independently of the strength layout."""
    ranks = value.ranks
    if value.category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        top = ranks[0]
        ranks = (13.5,) if top == 5 else (top,)
    return (int(value.category), ranks)


def test_order_of_all_hand_values_is_total_and_consistent_with_compare():
    # One representative of every distinct strength over all 2,869,685 hands.
    rank = rank5_function()
    reps = {}
    for hand in combinations(range(53), 5):
        reps.setdefault(rank(hand), hand)
    values = {}
    for hand in reps.values():
        v = evaluate5(hand)
        values.setdefault((v.category, v.ranks), (hand, v))
    assert len(values) == len(reps)
    items = list(values.values())
    by_strength = {}
    for hand, v in items:
        assert v.strength == rank5(hand)
        # equal strength means equal value: the strength is a total order of values
        assert by_strength.setdefault(v.strength, (v.category, v.ranks)) == (
            v.category, v.ranks)
    ordered = sorted(items, key=lambda hv: hv[1].strength)
    keys = [_reference_key(v) for _, v in ordered]
    assert keys == sorted(keys)
    for (ha, _), (hb, _) in pairwise(ordered):
        assert compare(hb, ha) is Outcome.WIN
        assert compare(ha, hb) is Outcome.LOSS


def test_fast_ranking_agrees_with_exact_evaluator_on_a_sample():
    rng = random.Random(11)
    for _ in range(40_000):
        hand = rng.sample(range(53), 5)
        for wheel in Wheel:
            assert rank5(hand, wheel) == evaluate5(hand, wheel).strength


def test_suits_never_break_a_tie_copy():
    assert compare(P("As Kd Qc 9h 4s"), P("Ad Kh Qs 9c 4d")) is Outcome.COPY
    assert compare(P("As Ks"), P("Ad Kd")) is Outcome.COPY


def test_joker_plays_as_ace_kicker_with_a_pair():
    v = evaluate5(P("Kh Kd JK 7c 3s"))
    assert (v.category, v.rank_chars, v.joker_as) == (Category.ONE_PAIR,
                                                      ["K", "A", "7", "3"], "A")
    assert v.description == "Pair of kings, A-7-3, joker as A"


def test_joker_pairs_with_aces():
    assert evaluate5(P("Ah Ad JK 7c 3s")).category is Category.THREE_OF_A_KIND
    assert evaluate5(P("Ah JK 9d 7c 3s")).rank_chars == ["A", "9", "7", "3"]


def test_joker_fills_the_highest_straight():
    v = evaluate5(P("9h Td Jc Qs JK"))
    assert (v.category, v.rank_chars[0], v.joker_as) == (Category.STRAIGHT, "K", "K")
    assert v.description == "King-high straight, joker as K"


def test_joker_fills_an_inside_straight():
    v = evaluate5(P("9h Td Qs Kc JK"))
    assert (v.category, v.joker_as) == (Category.STRAIGHT, "J")


def test_joker_fills_flush_with_highest_missing_rank():
    v = evaluate5(P("Ah Kh 9h 4h JK"))
    assert (v.category, v.rank_chars, v.joker_as) == (
        Category.FLUSH, ["A", "K", "Q", "9", "4"], "Q")


def test_joker_flush_without_ace_becomes_ace():
    v = evaluate5(P("Kh 9h 6h 4h JK"))
    assert v.rank_chars == ["A", "K", "9", "6", "4"]


def test_joker_completes_straight_flush_and_royal():
    assert evaluate5(P("9s Ts Js Qs JK")).category is Category.STRAIGHT_FLUSH
    assert evaluate5(P("9s Ts Js Qs JK")).rank_chars[0] == "K"
    assert evaluate5(P("Ts Js Qs Ks JK")).category is Category.ROYAL_FLUSH
    assert evaluate5(P("As Js Qs Ks JK")).category is Category.ROYAL_FLUSH


def test_wheel_with_joker_is_second_highest_straight():
    v = evaluate5(P("2c 3d 4h 5s JK"))
    assert (v.category, v.rank_chars, v.joker_as) == (
        Category.STRAIGHT, ["5", "4", "3", "2", "A"], "A")
    assert compare(P("2c 3d 4h 5s JK"), P("9c Td Jh Qs Kd")) is Outcome.WIN
    assert compare(P("2c 3d 4h 5s JK"), P("Tc Jd Qh Ks Ad")) is Outcome.LOSS


def test_wheel_with_joker_under_lowest_is_six_high():
    v = evaluate5(P("2c 3d 4h 5s JK"), Wheel.LOWEST)
    assert (v.rank_chars[0], v.joker_as) == ("6", "6")


def test_wheel_is_second_highest_straight():
    wheel, king, ace = P("Ac 2d 3h 4s 5d"), P("9c Td Jh Qs Kd"), P("Tc Jd Qh Ks Ad")
    assert compare(wheel, king) is Outcome.WIN
    assert compare(wheel, ace) is Outcome.LOSS


def test_wheel_is_lowest_straight_under_lowest_setting():
    wheel, six = P("Ac 2d 3h 4s 5d"), P("2c 3s 4d 5h 6c")
    assert compare(wheel, six, Wheel.LOWEST) is Outcome.LOSS
    assert compare(wheel, six, Wheel.SECOND_HIGHEST) is Outcome.WIN


def test_wheel_straight_flush_is_second_highest_straight_flush():
    wheel_sf, king_sf = P("Ac 2c 3c 4c 5c"), P("9d Td Jd Qd Kd")
    assert compare(wheel_sf, king_sf) is Outcome.WIN
    assert compare(wheel_sf, P("Ts Js Qs Ks As")) is Outcome.LOSS
    assert compare(wheel_sf, king_sf, Wheel.LOWEST) is Outcome.LOSS


def test_five_aces_beat_a_royal_flush():
    five = evaluate5(P("As Ad Ah Ac JK"))
    assert five.category is Category.FIVE_ACES
    assert compare(P("As Ad Ah Ac JK"), P("Th Jh Qh Kh Ah")) is Outcome.WIN


def test_category_order_high_to_low():
    ladder = ["As Ad Ah Ac JK", "Ts Js Qs Ks As", "9d Td Jd Qd Kd", "7s 7h 7d 7c 2s",
              "7s 7h 7d 2c 2s", "Ah 9h 7h 4h 2h", "9c Td Jh Qs Kd", "7s 7h 7d Kc 2s",
              "7s 7h 2d 2c Ks", "7s 7h Qd 4c 2s", "Ks Jh 9d 7c 3s"]
    strengths = [rank5(P(h)) for h in ladder]
    assert strengths == sorted(strengths, reverse=True)
    assert [evaluate5(P(h)).category for h in ladder] == sorted(Category, reverse=True)


def test_quads_then_kicker_and_full_house_trips_first():
    assert rank5(P("7s 7h 7d 7c Ks")) > rank5(P("7s 7h 7d 7c Qs"))
    assert rank5(P("8s 8h 8d 2c 2s")) > rank5(P("7s 7h 7d Ac As"))


def test_two_pair_compares_high_pair_low_pair_kicker():
    assert rank5(P("Ks Kh 3d 3c 2s")) > rank5(P("Qs Qh Jd Jc As"))
    assert rank5(P("Ks Kh 4d 4c 2s")) > rank5(P("Kd Kc 3s 3h As"))
    assert rank5(P("Ks Kh 4d 4c 3s")) > rank5(P("Kd Kc 4s 4h 2s"))


def test_two_card_joker_is_an_ace():
    assert evaluate2(P("JK Ah")).category is Category.ONE_PAIR
    assert evaluate2(P("JK Ah")).rank_chars == ["A"]
    assert evaluate2(P("JK Kh")).rank_chars == ["A", "K"]
    assert evaluate2(P("JK Kh")).description == "A-K, joker as A"


def test_two_card_pair_beats_any_non_pair():
    assert compare(P("2s 2h"), P("As Kd")) is Outcome.WIN


def test_two_card_non_pairs_rank_by_high_then_low():
    assert compare(P("As Qd"), P("Ah Jd")) is Outcome.WIN
    assert compare(P("Ks Qd"), P("Ah 2d")) is Outcome.LOSS
    assert compare(P("Qs Jd"), P("Qh Jc")) is Outcome.COPY


def test_two_card_straights_and_flushes_do_not_exist():
    assert evaluate2(P("Ks Qs")).category is Category.HIGH_CARD
    assert rank2(P("Ks Qs")) == rank2(P("Kd Qh"))


def test_compare_refuses_hands_of_different_sizes():
    with pytest.raises(ValueError):
        compare(P("As Ks"), P("Ad Kd Qd Jd 9s"))


def test_every_two_card_hand_orders_consistently():
    hands = list(combinations(range(53), 2))
    keys = {}
    for h in hands:
        v = evaluate2(h)
        keys.setdefault(v.strength, (v.category, v.ranks))
        assert keys[v.strength] == (v.category, v.ranks)
    # 13 pairs + 78 non-pairs
    assert len(keys) == 13 + 78
