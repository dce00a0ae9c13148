"""Settlement with copies, fouls and commission (rules.md, "Settlement")."""
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine.cards import parse_cards as P
from trainer.engine.hands import Outcome
from trainer.engine.profiles import FoulPolicy, Rounding, get_profile
from trainer.engine.setting import is_foul, splits
from trainer.engine.settlement import (
    SETTLEMENT_TABLE,
    Result,
    commission_cents,
    is_queen_high_pai_gow,
    payout_cents,
    settle,
)

W, L, C = Outcome.WIN, Outcome.LOSS, Outcome.COPY


@pytest.mark.parametrize("back, front, result", [
    (W, W, Result.WIN), (W, L, Result.PUSH), (L, W, Result.PUSH),
    (W, C, Result.PUSH), (C, W, Result.PUSH), (L, L, Result.LOSE),
    (L, C, Result.LOSE), (C, L, Result.LOSE), (C, C, Result.LOSE),
])
def test_settlement_table_row(back, front, result):
    assert SETTLEMENT_TABLE[(back, front)] is result


# Banker: back K-high straight, front Q-J.
BANKER = (P("9c Td Jh Qs Kd"), P("Qc Jd"))


@pytest.mark.parametrize("player_back, player_front, back, front, outcome, net", [
    ("Ac 2d 3h 4s 5d", "Ks 2c", W, W, "win", 1900),      # wheel beats K-high straight
    ("Ac 2d 3h 4s 5d", "Ts 2c", W, L, "push", 0),
    ("7c 7d 3h 4s 2d", "Ks 2c", L, W, "push", 0),
    ("Ac 2d 3h 4s 5d", "Qh Js", W, C, "push", 0),        # copy front goes to banker
    ("9s Th Jc Qd Kh", "Ks 2c", C, W, "push", 0),        # copy back goes to banker
    ("7c 7d 3h 4s 2d", "Ts 2c", L, L, "lose", -2000),
    ("9s Th Jc Qd Kh", "Qh Js", C, C, "lose", -2000),    # two copies lose
    ("7c 7d 3h 4s 2d", "Qh Js", L, C, "lose", -2000),
])
def test_copy_goes_to_banker_in_every_row(player_back, player_front, back, front,
                                          outcome, net):
    s = settle(P(player_back), P(player_front), *BANKER, 2000)
    assert (s.back, s.front, s.outcome.value, s.net_cents) == (back, front, outcome, net)


def test_fouled_hand_loses_under_default_policy():
    s = settle(P("Kh Js 8c 7s 3d"), P("Ac Ah"), *BANKER, 2000)
    assert s.fouled and s.outcome is Result.LOSE and s.net_cents == -2000


def test_foul_policy_house_way_resets_and_settles_normally():
    profile = get_profile("nevada").with_settings(foul_policy=FoulPolicy.HOUSE_WAY)
    # Pair of aces set in front over a king-high back: fouled.  The house way puts
    # the aces in back and K-J in front: the back loses to the banker's straight,
    # the front K-J beats Q-J, so the bet pushes.
    s = settle(P("Kh Js 8c 7s 3d"), P("Ac Ah"), *BANKER, 2000, profile)
    assert s.fouled
    assert sorted(s.reset_front) == sorted(P("Kh Js"))
    assert not is_foul(s.reset_back, s.reset_front)
    assert (s.back, s.front, s.outcome, s.net_cents) == (L, W, Result.PUSH, 0)
    assert s.reset_rule.startswith("one-pair")


@pytest.mark.parametrize("bet, cent, quarter, dollar", [
    (500, 25, 25, 100),
    (2000, 100, 100, 100),
    (2500, 125, 125, 200),
    (3300, 165, 175, 200),
])
def test_commission_rounding_by_mode(bet, cent, quarter, dollar):
    nevada = get_profile("nevada")
    for mode, expected in ((Rounding.CENT, cent), (Rounding.QUARTER_UP, quarter),
                           (Rounding.DOLLAR_UP, dollar)):
        profile = nevada.with_settings(commission_rounding=mode)
        assert commission_cents(bet, profile) == expected
        assert payout_cents(bet, profile) == bet - expected


def test_commission_examples_of_the_rule_book():
    assert payout_cents(2000) == 1900
    assert payout_cents(2500) == 2375
    assert payout_cents(500) == 475


def test_commission_cent_rounds_half_up():
    profile = get_profile("nevada").with_settings(commission_rate=Decimal("0.05"))
    assert commission_cents(1010, profile) == 51   # 50.5 cents -> 51
    assert commission_cents(1009, profile) == 50   # 50.45 -> 50


def test_commission_rate_is_a_setting():
    assert commission_cents(2000, get_profile("nevada").with_settings(
        commission_rate=Decimal("0.04"))) == 80


def test_flat_fee_is_charged_win_or_lose():
    california = get_profile("california")
    win = settle(P("Ah 8h 6h 4h 3h"), P("Ks 2c"), *BANKER, 2000, california)
    lose = settle(P("7c 7d 3h 4s 2d"), P("Ts 2c"), *BANKER, 2000, california)
    push = settle(P("7c 7d 3h 4s 2d"), P("Ks 2c"), *BANKER, 2000, california)
    assert (win.commission_cents, win.net_cents) == (100, 1900)
    assert (lose.commission_cents, lose.net_cents) == (100, -2100)
    assert (push.commission_cents, push.net_cents) == (100, -100)


def test_california_wheel_is_lowest():
    california = get_profile("california")
    # Under 'lowest' the wheel loses to the banker's K-high straight.
    s = settle(P("Ac 2d 3h 4s 5d"), P("Ks 2c"), *BANKER, 2000, california)
    assert s.back is Outcome.LOSS


def test_no_commission_queen_high_pai_gow_pushes_every_bet():
    profile = get_profile("no-commission")
    banker = (P("Qc 9d 7h 4s 2d"), P("Jc 8d"))    # seven ranks, Q high, no S/F
    assert is_queen_high_pai_gow(banker[0] + banker[1])
    s = settle(P("Ac Kd 3h 5s 6d"), P("Ks Qs"), *banker, 2000, profile)
    assert (s.back, s.front, s.outcome, s.net_cents) == (W, W, Result.PUSH, 0)
    lose = settle(P("Tc 8s 3h 5s 6d"), P("2s 3c"), *banker, 2000, profile)
    assert (lose.back, lose.front, lose.outcome, lose.net_cents) == (L, L, Result.PUSH, 0)
    # A fouled hand still loses under the default foul policy ("lose").
    fouled = settle(P("Kh Js 8c 7s 3d"), P("Ac Ah"), *banker, 2000, profile)
    assert fouled.fouled and fouled.outcome is Result.LOSE and fouled.net_cents == -2000


def test_no_commission_pays_full_win_otherwise():
    s = settle(P("Ac 2d 3h 4s 5d"), P("Ks 2c"), *BANKER, 2000, "no-commission")
    assert (s.outcome, s.commission_cents, s.net_cents) == (Result.WIN, 0, 2000)


@pytest.mark.parametrize("seven, expected", [
    ("Qc Jd 9h 7s 5d 3c 2s", True),
    ("Qc Jd Th 9s 8d 3c 2s", False),   # Q-J-T-9-8 straight
    ("Qc Jc 9c 7c 5c 3d 2s", False),   # flush
    ("Kc Jd 9h 7s 5d 3c 2s", False),   # king high
    ("Qc Qd 9h 7s 5d 3c 2s", False),   # a pair
    ("Qc JK 9h 7s 5d 3c 2s", False),   # the joker
])
def test_queen_high_pai_gow_definition(seven, expected):
    assert is_queen_high_pai_gow(P(seven)) is expected


@pytest.mark.parametrize("bet", [0, -500, 12.5, "100", True])
def test_bad_bet_is_refused(bet):
    with pytest.raises(ValueError):
        settle(P("Ac 2d 3h 4s 5d"), P("Ks 2c"), *BANKER, bet)


def test_player_and_banker_cannot_share_a_card():
    with pytest.raises(ValueError, match="appears twice"):
        settle(P("Kd 2d 3h 4s 5d"), P("Ks 2c"), *BANKER, 2000)


def _legal_split(seven, choice):
    legal = [w for w in splits(seven) if not is_foul(w.back, w.front)]
    return legal[choice % len(legal)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 52), min_size=14, max_size=14, unique=True),
       st.integers(0, 20), st.integers(0, 20), st.integers(1, 1_000_000),
       st.sampled_from(["nevada", "california", "no-commission"]))
def test_settlement_never_pays_a_copy_and_net_is_bounded(cards, i, j, bet, profile):
    player = splits(cards[:7])[i]
    banker = _legal_split(cards[7:], j)
    s = settle(player.back, player.front, banker.back, banker.front, bet, profile)
    fee = get_profile(profile).fee_cents or 0
    assert -bet - fee <= s.net_cents <= bet
    if s.outcome is Result.WIN:
        assert s.back is Outcome.WIN and s.front is Outcome.WIN and not s.fouled
        assert -fee <= s.net_cents <= bet
    if Outcome.COPY in (s.back, s.front) and not s.fouled:
        assert s.outcome is not Result.WIN
    if s.fouled:
        assert s.outcome is Result.LOSE


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 52), min_size=14, max_size=14, unique=True),
       st.integers(0, 20), st.integers(0, 20))
def test_settlement_is_symmetric_between_two_legal_hands(cards, i, j):
    a, b = _legal_split(cards[:7], i), _legal_split(cards[7:], j)
    ab = settle(a.back, a.front, b.back, b.front, 1000)
    ba = settle(b.back, b.front, a.back, a.front, 1000)
    flip = {W: L, L: W, C: C}
    assert ba.back is flip[ab.back] and ba.front is flip[ab.front]
    # A win one way is a loss the other; a push either way stays a push unless a
    # copy decides it, and a copy never favours whoever holds the player's seat.
    if ab.outcome is Result.WIN:
        assert ba.outcome is Result.LOSE
    if Outcome.COPY not in (ab.back, ab.front) and ab.outcome is Result.PUSH:
        assert ba.outcome is Result.PUSH
