"""The no-commission profile's queen-high rule (rules.md, table-rules profiles).

When the banker's seven cards are a queen-high pai gow, every player's bet pushes,
whatever it would have been; a fouled hand still loses under ``foul_policy = "lose"``
and, under ``"house_way"``, is reset and then pushes too.
"""
import math
import random
from collections import Counter
from itertools import combinations, product

import pytest
from engine.json_edge import JsonDrill

from trainer.cli.house_way import summarize
from trainer.engine.cards import JOKER
from trainer.engine.cards import parse_cards as P
from trainer.engine.drills import DrillContext, get_drill
from trainer.engine.drills.kinds import round as round_kind
from trainer.engine.drills.kinds import settlement
from trainer.engine.drills.kinds.round import banker_cards, settle_all
from trainer.engine.hands import CATEGORY_SHIFT, Category, Outcome, rank5
from trainer.engine.profiles import FoulPolicy, get_profile
from trainer.engine.settlement import Result, is_queen_high_pai_gow, settle

W, L = Outcome.WIN, Outcome.LOSS
NO_COMMISSION = get_profile("no-commission")
# Seven different ranks, queen high, no straight, no flush: a queen-high pai gow.
QUEEN_HIGH_BANKER = (P("Qc 9d 7h 4s 2d"), P("Jc 8d"))
WOULD_WIN = (P("Ac Kd 3h 5s 6d"), P("Ks Qs"))    # A-K high and K-Q: wins both hands
WOULD_LOSE = (P("Tc 8s 3h 5s 6d"), P("2s 3c"))   # T high and 3-2: loses both hands
FOULED = (P("Kh Js 8c 7s 3d"), P("Ac Ah"))       # the aces set in front
FOULED_LOW = (P("Tc 8s 6h 5s 3d"), P("Jd 9h"))   # the jack set in front


def test_queen_high_banker_makes_a_hand_that_would_win_push():
    assert is_queen_high_pai_gow(QUEEN_HIGH_BANKER[0] + QUEEN_HIGH_BANKER[1])
    nevada = settle(*WOULD_WIN, *QUEEN_HIGH_BANKER, 2000, "nevada")
    assert nevada.outcome is Result.WIN
    s = settle(*WOULD_WIN, *QUEEN_HIGH_BANKER, 2000, NO_COMMISSION)
    assert (s.back, s.front, s.outcome, s.commission_cents, s.net_cents) == (
        W, W, Result.PUSH, 0, 0)


def test_queen_high_banker_makes_a_hand_that_would_lose_push():
    nevada = settle(*WOULD_LOSE, *QUEEN_HIGH_BANKER, 2000, "nevada")
    assert nevada.outcome is Result.LOSE
    s = settle(*WOULD_LOSE, *QUEEN_HIGH_BANKER, 2000, NO_COMMISSION)
    assert (s.back, s.front, s.outcome, s.net_cents) == (L, L, Result.PUSH, 0)


def test_queen_high_banker_fouled_hand_still_loses_under_foul_policy_lose():
    s = settle(*FOULED, *QUEEN_HIGH_BANKER, 2000, NO_COMMISSION)
    assert NO_COMMISSION.foul_policy is FoulPolicy.LOSE
    assert s.fouled and s.outcome is Result.LOSE and s.net_cents == -2000


def test_queen_high_banker_fouled_hand_is_reset_and_pushes_under_foul_policy_house_way():
    profile = NO_COMMISSION.with_settings(foul_policy=FoulPolicy.HOUSE_WAY)
    s = settle(*FOULED, *QUEEN_HIGH_BANKER, 2000, profile, "trump-plaza")
    assert s.fouled and s.reset_back is not None
    # Reset, the aces play in back and K-J in front: it would have won both hands.
    assert (s.back, s.front) == (W, W)
    assert (s.outcome, s.net_cents) == (Result.PUSH, 0)
    # J-high set with the J in front is fouled; reset (J-8-6-5-3 and T-9) it would lose.
    low = settle(*FOULED_LOW, *QUEEN_HIGH_BANKER, 2000, profile, "trump-plaza")
    assert low.fouled and low.reset_back is not None
    assert (low.back, low.front) == (L, L)
    assert (low.outcome, low.net_cents) == (Result.PUSH, 0)


def test_queen_high_push_rule_is_only_for_no_commission_tables():
    for name in ("nevada", "california"):
        s = settle(*WOULD_LOSE, *QUEEN_HIGH_BANKER, 2000, name)
        assert s.outcome is Result.LOSE


def _multisets(size: int):
    """Yield rank multisets (13 ranks, at most four of each) of ``size`` cards as counts."""
    def walk(rank: int, left: int, counts: tuple[int, ...]):
        if rank == 13:
            if left == 0:
                yield counts
            return
        for m in range(min(4, left) + 1):
            yield from walk(rank + 1, left - m, (*counts, m))
    yield from walk(0, size, ())


def _suit_vectors():
    """Yield (suit counts, number of ways) for dealing suits to seven different ranks."""
    for vector in product(range(8), repeat=4):
        if sum(vector) == 7:
            ways = math.factorial(7) // math.prod(math.factorial(k) for k in vector)
            yield vector, ways


def test_queen_high_pai_gow_count_is_2719500_of_154143080_seven_card_hands():
    """Count exactly by rank multiset and suit pattern, classifying with the engine's test."""
    total = queen_high = 0
    suit_vectors = list(_suit_vectors())
    assert sum(ways for _, ways in suit_vectors) == 4 ** 7
    for joker in (False, True):
        for counts in _multisets(6 if joker else 7):
            if joker or max(counts) > 1:
                # A pair or the joker: one representative per multiset, weighted by
                # the ways to choose the suits of each rank.
                hand = [r * 4 + s for r, m in enumerate(counts) for s in range(m)]
                hand += [JOKER] if joker else []
                weight = math.prod(math.comb(4, m) for m in counts)
                total += weight
                queen_high += weight * is_queen_high_pai_gow(hand)
                continue
            ranks = [r for r, m in enumerate(counts) if m]
            for vector, ways in suit_vectors:
                suits = [s for s, k in enumerate(vector) for _ in range(k)]
                hand = [r * 4 + s for r, s in zip(ranks, suits, strict=True)]
                total += ways
                queen_high += ways * is_queen_high_pai_gow(hand)
    assert total == math.comb(53, 7) == 154_143_080
    assert queen_high == 2_719_500
    # The same by hand: six of the ten ranks 2..J beside the queen with no five in a
    # row, times the suit patterns with no five of one suit (4^7 minus the 844 flushes).
    no_straight = sum(
        1 for six in combinations(range(10), 6)
        if not any(all(r in {*six, 10} for r in range(low, low + 5)) for low in range(7)))
    flushes = 4 * sum(math.comb(7, k) * 3 ** (7 - k) for k in (5, 6, 7))
    assert (no_straight, flushes) == (175, 844)
    assert no_straight * (4 ** 7 - flushes) == 2_719_500


def _literal_queen_high(seven) -> bool:
    """Apply the definition literally: seven ranks, queen high, no 5-card S, F or SF."""
    if JOKER in seven:
        return False
    ranks = Counter(c // 4 + 2 for c in seven)
    if len(ranks) != 7 or max(ranks) != 12:
        return False
    bad = {Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH}
    return not any(Category(rank5(five, wheel) >> CATEGORY_SHIFT) in bad
                   for five in combinations(seven, 5)
                   for wheel in ("second_highest", "lowest"))


def test_queen_high_pai_gow_test_agrees_with_the_definition_on_sampled_hands():
    rng = random.Random(13)
    low_deck = list(range(44))          # 2 to Q, no joker: where queen-high hands live
    hands = [rng.sample(range(53), 7) for _ in range(1500)]
    hands += [rng.sample(low_deck, 7) for _ in range(1500)]
    found = 0
    for seven in hands:
        expected = _literal_queen_high(seven)
        assert is_queen_high_pai_gow(seven) is expected, seven
        found += expected
    assert found > 50


def test_simulation_summary_pushes_every_deal_against_a_queen_high_banker():
    counts = {"hands": 100, "win": 30, "push": 40, "lose": 30, "seconds": 1.0,
              "win_vs_queen_high": 2, "push_vs_queen_high": 1, "lose_vs_queen_high": 3}
    ez = summarize("trump-plaza", "trump-plaza", counts, NO_COMMISSION, 10_000)
    assert (ez["player_win"], ez["push"], ez["banker_win"]) == (0.28, 0.45, 0.27)
    nevada = summarize("trump-plaza", "trump-plaza", counts, get_profile("nevada"), 10_000)
    assert (nevada["player_win"], nevada["push"], nevada["banker_win"]) == (0.3, 0.4, 0.3)


def test_simulation_compares_with_the_rule_books_new_reference_figures():
    counts = {"hands": 10_000_000, "win": 2_860_000, "push": 4_149_000, "lose": 2_991_000,
              "seconds": 1.0}
    out = summarize("trump-plaza", "trump-plaza", counts, get_profile("nevada"), 10_000)
    assert out["reference"] == {"player_win": 0.2860, "push": 0.4149, "banker_win": 0.2991}
    assert all(out["reference_within_3se"].values())
    # The old Appendix 4 figures (28.55 / 41.47 / 29.98) are 7 points of the share off.
    old = dict(counts, win=2_855_000, push=4_147_000, lose=2_998_000)
    out = summarize("trump-plaza", "trump-plaza", old, get_profile("nevada"), 10_000)
    assert not out["reference_within_3se"]["banker_win"]


def _settlement_question() -> dict:
    return {"banker": {"back": ["Qc", "9d", "7h", "4s", "2d"], "front": ["Jc", "8d"]},
            "positions": [
                {"seat": 2, "back": ["Ac", "Kd", "3h", "5s", "6d"], "front": ["Ks", "Qs"],
                 "bet_cents": 2000},
                {"seat": 3, "back": ["Tc", "8s", "3h", "5s", "6d"], "front": ["2s", "3c"],
                 "bet_cents": 2000}]}


def test_settlement_drill_grades_every_bet_a_push_against_a_queen_high_banker():
    drill = JsonDrill(settlement.SLUG)
    question = _settlement_question()
    question["positions"][1]["back"] = ["Tc", "8s", "3h", "5h", "6h"]
    context = DrillContext(profile="no-commission")
    pushes = {"positions": [{"outcome": "push"}, {"outcome": "push"}]}
    grade = drill.grade(question, pushes, context)
    assert grade.correct
    assert [p["rule_id"] for p in grade.parts] == ["settlement.queen-high"] * 2
    assert "queen-high pai gow" in str(grade.explanation)
    assert "every bet pushes" in str(grade.explanation)
    nevada = drill.grade(question, pushes, DrillContext(profile="nevada"))
    assert not nevada.correct and "queen-high" not in str(nevada.explanation)


def test_round_drill_explains_the_queen_high_push():
    drill = get_drill(round_kind.SLUG)
    context = DrillContext(profile="no-commission")
    for seed in range(5000):
        question = drill.generate(random.Random(seed), context)
        if is_queen_high_pai_gow(P(banker_cards(question))):
            break
    else:  # pragma: no cover
        pytest.fail("no queen-high banker in 5000 rounds")
    step = drill.at_step(question, 2, context)
    settled = settle_all(step, context)
    assert all(s.outcome is Result.PUSH or (s.fouled and s.reset_back is None)
               for s in settled)
    answer = {"order": [{"seat": p.seat, "action": "take"}
                        for p, s in zip(step.players, settled, strict=True)
                        if s.outcome is Result.LOSE]}
    if step.banker_seat != 1:
        answer["banker_commission_cents"] = 0
    grade = drill.grade(step, drill.read_answer(step, answer, context), context)
    assert grade.correct
    assert "queen-high pai gow" in str(grade.explanation)


def test_no_commission_profile_description_says_every_bet_pushes():
    assert "every bet pushes" in NO_COMMISSION.describe()
