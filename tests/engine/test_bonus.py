"""Side bets: bonus categories, pay lines, settlement with bonuses, envy, Queen's Dragon."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine.bonus_settlement import (
    envy_payments,
    queens_dragon,
    settle_bonus,
    settle_round_bonuses,
    settle_seat,
)
from trainer.engine.cards import parse_cards
from trainer.engine.profiles import PROFILES, SideBetOffer, TableProfile, get_profile, profile_names
from trainer.engine.side_bets import (
    BonusCategory,
    Match,
    bonus_category,
    bonus_hand,
    load_table,
    sample_hand,
    table_names,
)

C = BonusCategory

# One hand per category, written out by hand (category under the king-queen match).
EXAMPLES = {
    C.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH: "8h 9h Th Jh Qh Kh Ah",
    C.ROYAL_PLUS_MATCH: "As Ks Qs Js Ts Kd Qd",
    C.SEVEN_CARD_STRAIGHT_FLUSH_JOKER: "3c 4c 5c JK 7c 8c 9c",
    C.FIVE_ACES: "As Ah Ad Ac JK 7h 2d",
    C.ROYAL_FLUSH: "Ad Kd Qd Jd Td 4s 4h",
    C.STRAIGHT_FLUSH: "5s 6s 7s 8s 9s Kh 2d",
    C.FOUR_OF_A_KIND: "9s 9h 9d 9c Kh 4d 2c",
    C.FULL_HOUSE: "Js Jh Jd 4c 4h 8d 2c",
    C.FLUSH: "2h 5h 9h Jh Kh 3c 3d",
    C.THREE_OF_A_KIND: "7s 7h 7d Kc 2h 9d 4c",
    C.STRAIGHT: "4s 5h 6d 7c 8h Kd Kc",
    C.NOTHING: "As Kh 9d 7c 4h 3d 2c",
}
ODDS = {C.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH: 8000, C.ROYAL_PLUS_MATCH: 2000,
        C.SEVEN_CARD_STRAIGHT_FLUSH_JOKER: 1000, C.FIVE_ACES: 400, C.ROYAL_FLUSH: 150,
        C.STRAIGHT_FLUSH: 50, C.FOUR_OF_A_KIND: 25, C.FULL_HOUSE: 5, C.FLUSH: 4,
        C.THREE_OF_A_KIND: 3, C.STRAIGHT: 2}
ENVY = {C.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH: 500_000, C.ROYAL_PLUS_MATCH: 100_000,
        C.SEVEN_CARD_STRAIGHT_FLUSH_JOKER: 50_000, C.FIVE_ACES: 25_000, C.ROYAL_FLUSH: 5_000,
        C.STRAIGHT_FLUSH: 2_000, C.FOUR_OF_A_KIND: 500}


def cards(text: str) -> tuple:
    return parse_cards(text)


# --- categories ------------------------------------------------------------------

@pytest.mark.parametrize("category", list(C), ids=lambda c: c.slug)
def test_each_category_is_recognised_by_both_functions(category) -> None:
    hand = cards(EXAMPLES[category])
    assert bonus_category(hand) is category
    assert bonus_hand(hand).category is category


def test_the_joker_fills_a_seven_card_straight_flush() -> None:
    assert bonus_category(cards("3c 4c 5c JK 7c 8c 9c")) is C.SEVEN_CARD_STRAIGHT_FLUSH_JOKER
    assert bonus_category(cards("JK 4c 5c 6c 7c 8c 9c")) is C.SEVEN_CARD_STRAIGHT_FLUSH_JOKER
    assert bonus_hand(cards("3c 4c 5c JK 7c 8c 9c")).joker_as == "6c"
    # Six of one suit and the joker but a gap of two: only a straight flush.
    assert bonus_category(cards("3c 4c 5c 6c JK 9c Tc")) is C.STRAIGHT_FLUSH


def test_a_seven_card_straight_flush_without_the_joker_is_natural() -> None:
    assert bonus_category(cards("2d 3d 4d 5d 6d 7d 8d")) is C.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH


def test_wheel_a_2_3_4_5_6_7_is_a_seven_card_straight_flush() -> None:
    assert bonus_category(cards("As 2s 3s 4s 5s 6s 7s")) is C.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH
    assert bonus_category(cards("JK 2s 3s 4s 5s 6s 7s")) is C.SEVEN_CARD_STRAIGHT_FLUSH_JOKER
    assert bonus_category(cards("As 2s 3s JK 5s 6s 7s")) is C.SEVEN_CARD_STRAIGHT_FLUSH_JOKER
    # Q-K-A-2-3-4-5 does not wrap round.
    assert bonus_category(cards("Qs Ks As 2s 3s 4s 5s")) is C.STRAIGHT_FLUSH


def test_wheel_straights_count_in_seven_cards() -> None:
    assert bonus_category(cards("As 2h 3d 4c 5h Kd 9c")) is C.STRAIGHT
    assert bonus_category(cards("JK 2h 3d 4c 5h Kd 9c")) is C.STRAIGHT


def test_five_aces_beat_a_royal_flush() -> None:
    hand = cards("As Ks Qs Js Ts Ah Ad")
    assert bonus_category(hand) is C.ROYAL_FLUSH   # three natural aces and no joker
    hand = cards("As Ah Ad Ac JK Ks Qs")
    assert bonus_category(hand) is C.FIVE_ACES
    # A royal filled by the joker and four aces: the joker is one card, five aces rank higher.
    assert bonus_category(cards("Ks Qs Js Ts As Ah Ad")) is C.ROYAL_FLUSH
    assert bonus_category(cards("Ks Qs Js Ts As Ah JK")) is C.ROYAL_FLUSH


def test_royal_plus_match_needs_a_natural_suited_king_queen() -> None:
    assert bonus_category(cards("As Ks Qs Js Ts Kh Qh")) is C.ROYAL_PLUS_MATCH
    assert bonus_category(cards("As Ks Qs Js Ts Kh Qd")) is C.ROYAL_FLUSH      # not one suit
    assert bonus_category(cards("As Ks Qs Js Ts Kh JK")) is C.ROYAL_FLUSH      # joker never matches
    assert bonus_category(cards("As Ks Qs Js Ts Ah Kh")) is C.ROYAL_FLUSH      # A-K is Emperor's
    assert bonus_category(cards("JK Ks Qs Js Ts Kh Qh")) is C.ROYAL_PLUS_MATCH  # joker in the royal
    hand = bonus_hand(cards("As Ks Qs Js Ts Kh Qh"))
    assert [str(c) for c in hand.match_cards] == ["Kh", "Qh"]


def test_emperors_royal_plus_match_needs_a_natural_suited_ace_king() -> None:
    ak = Match.ACE_KING
    assert bonus_category(cards("As Ks Qs Js Ts Ah Kh"), ak) is C.ROYAL_PLUS_MATCH
    assert bonus_category(cards("As Ks Qs Js Ts Kh Qh"), ak) is C.ROYAL_FLUSH
    assert bonus_category(cards("As Ks Qs Js Ts Ah Kd"), ak) is C.ROYAL_FLUSH
    assert bonus_category(cards("JK Ks Qs Js Ts Ah Kh"), ak) is C.ROYAL_PLUS_MATCH
    assert bonus_category(cards("As Ks Qs Js Ts Ah JK"), ak) is C.ROYAL_FLUSH


def test_three_of_a_kind_ranks_above_a_straight_in_the_bonus() -> None:
    assert bonus_category(cards("5c 5d 5h 6s 7c 8d 9h")) is C.THREE_OF_A_KIND


def test_the_joker_is_the_bug_in_pairs_it_is_only_an_ace() -> None:
    assert bonus_category(cards("Ks Kh Kd JK 7c 4h 2d")) is C.THREE_OF_A_KIND
    assert bonus_category(cards("As Ah Ad JK 7c 4h 2d")) is C.FOUR_OF_A_KIND
    assert bonus_category(cards("Ks Kh Kd JK Ac 4h 2d")) is C.FULL_HOUSE  # kings full of aces


def test_a_bonus_hand_has_exactly_seven_distinct_cards() -> None:
    with pytest.raises(ValueError, match="7 cards"):
        bonus_category(cards("As Ks Qs Js Ts Kh"))
    with pytest.raises(ValueError, match="twice"):
        bonus_category([0, 0, 1, 2, 3, 4, 5])


@pytest.mark.parametrize("category", list(C), ids=lambda c: c.slug)
@pytest.mark.parametrize("match", list(Match))
def test_sample_hand_deals_the_asked_category(category, match) -> None:
    rng = random.Random(category * 7 + len(match))
    for _ in range(20):
        hand = sample_hand(category, rng, match)
        assert len(set(hand)) == 7
        assert bonus_hand(hand, match).category is category


seven_cards = st.lists(st.integers(0, 52), min_size=7, max_size=7, unique=True)


@settings(max_examples=400, deadline=None)
@given(seven_cards, st.sampled_from(list(Match)), st.randoms())
def test_a_bonus_is_judged_on_all_seven_cards_whatever_the_order(hand, match, rng) -> None:
    shuffled = list(hand)
    rng.shuffle(shuffled)
    assert bonus_category(shuffled, match) is bonus_category(hand, match)


@settings(max_examples=400, deadline=None)
@given(seven_cards, st.sampled_from(list(Match)))
def test_the_fast_category_equals_the_clear_one(hand, match) -> None:
    assert bonus_category(hand, match) is bonus_hand(hand, match).category


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(list(C)), st.sampled_from(list(Match)), st.randoms())
def test_the_fast_and_clear_functions_agree_on_rare_hands(category, match, rng) -> None:
    hand = sample_hand(category, random.Random(rng.random()), match)
    assert bonus_category(hand, match) is bonus_hand(hand, match).category is category


# --- pay tables ------------------------------------------------------------------

@pytest.mark.parametrize("category", list(ODDS), ids=lambda c: c.slug)
def test_fortune_standard_pay_line(category) -> None:
    result = settle_bonus(cards(EXAMPLES[category]), 500, "nevada-fortune")
    assert result.rule_id == f"bonus.fortune-standard.{category.slug}"
    assert result.win_cents == 500 * ODDS[category]
    assert result.net_cents == 500 * ODDS[category]      # no commission on the bonus
    assert result.commission_cents == 0


def test_fortune_standard_losing_bonus_bet_is_taken() -> None:
    result = settle_bonus(cards(EXAMPLES[C.NOTHING]), 500, "nevada-fortune")
    assert (result.rule_id, result.win_cents, result.net_cents) == (
        "bonus.fortune-standard.nothing", 0, -500)


def test_fortune_5000_pays_5000_for_the_natural_seven_card_straight_flush() -> None:
    table = load_table("fortune-5000")
    assert table.line_for(C.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH).win_cents(100) == 500_000
    assert table.line_for(C.ROYAL_PLUS_MATCH).win_cents(100) == 200_000


def test_emperors_treasure_pays_the_royal_with_suited_ace_king() -> None:
    won = settle_bonus(cards("As Ks Qs Js Ts Ah Kh"), 1000, "nevada-emperors")
    assert (won.rule_id, won.win_cents) == ("bonus.emperors-treasure.royal-plus-match", 2_000_000)
    royal = settle_bonus(cards("As Ks Qs Js Ts Kh Qh"), 1000, "nevada-emperors")
    assert (royal.rule_id, royal.win_cents) == ("bonus.emperors-treasure.royal-flush", 150_000)


@pytest.mark.parametrize(("category", "expected"), [
    (C.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH, 1_234_500), (C.FIVE_ACES, 1_234_500),
    (C.SEVEN_CARD_STRAIGHT_FLUSH_JOKER, 1_234_500), (C.ROYAL_FLUSH, 32_500),
    (C.STRAIGHT_FLUSH, 7_500), (C.FOUR_OF_A_KIND, 5_000), (C.FULL_HOUSE, 500), (C.FLUSH, 0),
], ids=lambda v: getattr(v, "slug", str(v)))
def test_progressive_pay_line(category, expected) -> None:
    result = settle_bonus(cards(EXAMPLES[category]), 100, "nevada-progressive",
                          meter_cents=1_234_500)
    assert result.win_cents == result.paid_cents == expected
    # Paid "for 1" (docs/rules.md §12): the $1 was collected at the deal, none returned.
    assert result.net_cents == (expected - 100 if expected else -100)


def test_progressive_pays_the_meter_for_a_royal_with_suited_ace_king() -> None:
    result = settle_bonus(cards("As Ks Qs Js Ts Ah Kh"), 100, "nevada-progressive",
                          meter_cents=5_000_000)
    assert (result.rule_id, result.win_cents) == ("bonus.progressive.royal-plus-match", 5_000_000)


def test_progressive_is_a_fixed_one_dollar_bet_and_needs_the_meter() -> None:
    with pytest.raises(ValueError, match=r"fixed \$1.00"):
        settle_bonus(cards(EXAMPLES[C.FLUSH]), 500, "nevada-progressive", meter_cents=100)
    with pytest.raises(ValueError, match="meter"):
        settle_bonus(cards(EXAMPLES[C.FIVE_ACES]), 100, "nevada-progressive")


def test_side_bet_limits_default_one_to_twenty_five_dollars() -> None:
    for bad in (99, 2501, 0, -500):
        with pytest.raises(ValueError, match=r"between \$1.00 and \$25.00"):
            settle_bonus(cards(EXAMPLES[C.FLUSH]), bad, "nevada-fortune")
    with pytest.raises(ValueError, match="whole number"):
        settle_bonus(cards(EXAMPLES[C.FLUSH]), 5.0, "nevada-fortune")  # type: ignore[arg-type]


def test_a_table_without_the_side_bet_refuses_it() -> None:
    with pytest.raises(ValueError, match="offers no"):
        settle_bonus(cards(EXAMPLES[C.FLUSH]), 500, "nevada")


def test_commission_on_bonus_wins_only_when_the_profile_says_so() -> None:
    taxed = TableProfile("taxed", side_bets=(SideBetOffer("fortune-standard", commission=True),))
    result = settle_bonus(cards(EXAMPLES[C.FLUSH]), 1000, taxed)
    assert (result.win_cents, result.commission_cents, result.net_cents) == (4000, 200, 3800)


def test_every_pay_line_has_a_rule_id_a_name_and_a_sheet_sentence() -> None:
    for name in table_names():
        table = load_table(name)
        for line in table.lines:
            assert line.rule_id == f"bonus.{name}.{line.slug}"
            assert line.name and line.sheet.endswith(".") and line.pays in line.sheet


# --- settlement with a bonus ------------------------------------------------------

def test_a_bonus_on_a_fouled_hand_is_still_paid() -> None:
    # A pair of eights in front of ten-high: fouled, the main bet lost; the seven cards
    # make a straight (4-5-6-7-8), which the bonus pays.
    seat = settle_seat(cards("4s 5h 6d 7c Th"), cards("8h 8d"), cards("Ac Qc Jd 8s 3h"),
                       cards("6h 5c"), 1000, 500, "nevada-fortune")
    assert seat.main.fouled and seat.main.net_cents == -1000
    assert seat.bonus is not None and seat.bonus.rule_id == "bonus.fortune-standard.straight"
    assert seat.bonus.net_cents == 1000 and seat.net_cents == 0


def test_settle_seat_without_a_bonus_bet_is_the_main_bet() -> None:
    seat = settle_seat(cards("9s 9h 4d 2c 7h"), cards("Kh 3d"), cards("Ac Qc Jd 8s 3h"),
                       cards("6d 5c"), 1000, 0, "nevada-fortune")
    assert seat.bonus is None and seat.net_cents == seat.main.net_cents == 950


def test_player_banker_never_pays_a_bonus() -> None:
    hands = [cards(EXAMPLES[C.FOUR_OF_A_KIND]), cards("Ad Kd Qd Jd Td 4s 4h")]
    result = settle_round_bonuses(hands, [500, 500], "nevada-fortune", banker_seat=1)
    assert result.banker_pays_cents == 0
    # Seat 1 banks and still wins its royal bonus from the house, plus an envy for seat 0.
    assert result.bonuses[1].win_cents == 500 * 150
    assert result.house_pays_cents == 500 * 25 + 500 * 150 + 500 + 5000


def test_queens_dragon_pays_fifty_to_one_on_the_bankers_queen_high_pai_gow() -> None:
    won = queens_dragon(cards("Qs Th 8d 6c 5h 3d 2c"), 500, "ez")
    assert (won.rule_id, won.win_cents) == ("bonus.queens-dragon.queen-high-pai-gow", 25_000)
    lost = queens_dragon(cards("Ks Th 8d 6c 5h 3d 2c"), 500, "ez")
    assert (lost.rule_id, lost.net_cents) == ("bonus.queens-dragon.nothing", -500)
    straight = queens_dragon(cards("Qs Jh Td 9c 8h 3d 2c"), 500, "ez")
    assert straight.net_cents == -500


def test_queens_dragon_in_a_round_is_against_the_house() -> None:
    banker = cards("Qs Th 8d 6c 5h 3d 2c")
    result = settle_round_bonuses([None, None], [0, 0], "ez", banker_hand=banker, banker_seat=0,
                                  dragon_bets_cents=[500, 0])
    assert result.dragon[0].win_cents == 25_000 and result.house_pays_cents == 25_000
    assert result.banker_pays_cents == 0


# --- envy ------------------------------------------------------------------------

def test_envy_own_hand_is_never_envied() -> None:
    assert envy_payments([cards(EXAMPLES[C.FOUR_OF_A_KIND])], [500], "nevada-fortune") == []


@pytest.mark.parametrize("category", list(ENVY), ids=lambda c: c.slug)
def test_envy_pay_line(category) -> None:
    paid = envy_payments([cards(EXAMPLES[category]), None], [0, 0], "nevada-fortune")
    assert paid == []
    other = parse_cards("2d 3h 9c Td 6s 8c 7c") if category is not C.STRAIGHT_FLUSH else \
        parse_cards("2d 3h 9c Td Jh Kc Ad")
    paid = envy_payments([cards(EXAMPLES[category]), other], [0, 500], "nevada-fortune")
    assert [(p.seat, p.from_seat, p.rule_id, p.amount_cents) for p in paid] == [
        (1, 0, f"bonus.envy.{category.slug}", ENVY[category])]


def test_several_qualifying_hands_pay_several_envies() -> None:
    hands = [cards("2d 3h 9c Td 6s 8c 7c"), cards(EXAMPLES[C.FOUR_OF_A_KIND]),
             cards("Ad Kd Qd Jd Td 4c 3h")]
    paid = envy_payments(hands, [500, 500, 500], "nevada-fortune")
    assert sorted((p.seat, p.from_seat, p.amount_cents) for p in paid) == [
        (0, 1, 500), (0, 2, 5000), (1, 2, 5000), (2, 1, 500)]


def test_envy_needs_a_bonus_bet_of_at_least_five_dollars() -> None:
    hands = [cards("2d 3h 9c Td 6s 8c 7c"), cards(EXAMPLES[C.FOUR_OF_A_KIND])]
    assert envy_payments(hands, [499, 0], "nevada-fortune") == []
    assert [p.amount_cents for p in envy_payments(hands, [500, 0], "nevada-fortune")] == [500]


def test_envy_a_fouled_player_still_collects() -> None:
    # Envy depends on the seven cards and the bet only: nothing about the setting is asked.
    hands = [cards("9s 9h 4d 2c 7h Kh Kd"), cards(EXAMPLES[C.FOUR_OF_A_KIND])]
    assert len(envy_payments(hands, [500, 0], "nevada-fortune")) == 1


def test_envy_dealer_hand_pays_only_when_the_table_says_so() -> None:
    hands = [cards("2d 3h 9c Td 6s 8c 7c")]
    dealer = cards("As Ah Ad Ac JK Kc Qh")
    assert envy_payments(hands, [500], "nevada-fortune", dealer_hand=dealer) == []
    assert load_table("envy").dealer_pays is False
    from dataclasses import replace

    generous = replace(load_table("envy"), dealer_pays=True)
    import trainer.engine.bonus_settlement as module

    original = module.load_table
    module.load_table = lambda name: generous if name == "envy" else original(name)
    try:
        paid = envy_payments(hands, [500], "nevada-fortune", dealer_hand=dealer)
    finally:
        module.load_table = original
    assert [(p.from_seat, p.rule_id, p.amount_cents) for p in paid] == [
        (None, "bonus.envy.five-aces", 25_000)]


# --- profiles ----------------------------------------------------------------------

def test_every_shipped_side_bet_is_reachable_through_a_named_profile() -> None:
    offered = {o.table for p in PROFILES.values() for o in p.side_bets}
    offered |= {o.envy for p in PROFILES.values() for o in p.side_bets if o.envy}
    assert {"fortune-standard", "emperors-treasure", "progressive", "queens-dragon", "envy"} <= offered
    for name in ("nevada-fortune", "nevada-emperors", "nevada-progressive", "ez"):
        assert name in profile_names()
        assert "side bets:" in get_profile(name).describe()
    assert get_profile("ez").no_commission


def test_a_profile_cannot_offer_envy_alone_or_a_wrong_progressive_bet() -> None:
    with pytest.raises(ValueError, match="not offered alone"):
        TableProfile("x", side_bets=(SideBetOffer("envy"),))
    with pytest.raises(ValueError, match="fixed bet"):
        TableProfile("x", side_bets=(SideBetOffer("progressive"),))
