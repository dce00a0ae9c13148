"""Setting a hand: the 21 splits and the foul test (rules.md, "Setting a hand")."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine.cards import parse_cards as P
from trainer.engine.hands import Category, evaluate2, evaluate5
from trainer.engine.setting import foul_reason, is_foul, splits


@pytest.mark.parametrize("back, front, fouled", [
    ("Kh Jd 9c 7s 3d", "Kc Qd", True),    # rules.md: K-J-9-7-3 with K-Q is fouled
    ("Ah Kd 9c 7s 3d", "Ac Qd", False),   # A-K-9-7-3 with A-Q is legal
    ("Th Td Jc 5s 4d", "Tc Ts", False),   # T-T-J-5-4 with T-T is legal
    ("7h 7d Kc 5s 2d", "8c 8s", True),    # 7-7-K-5-2 with 8-8 is fouled
])
def test_foul_examples_of_the_rule_book(back, front, fouled):
    assert is_foul(P(back), P(front)) is fouled
    assert (foul_reason(P(back), P(front)) is not None) is fouled


def test_front_equal_to_back_top_ranks_is_not_a_foul():
    assert not is_foul(P("Ah Kd 9c 7s 3d"), P("Ac Kh"))


def test_pair_in_front_over_no_pair_back_is_a_foul():
    assert is_foul(P("Ah Kd 9c 7s 3d"), P("2c 2h"))


def test_pair_back_beats_any_non_pair_front():
    assert not is_foul(P("2h 2d 9c 7s 3d"), P("Ac Kh"))


def test_joker_in_front_is_an_ace_for_the_foul_test():
    assert is_foul(P("Kh Qd 9c 7s 3d"), P("JK 2h"))
    assert is_foul(P("Kh Kd 9c 7s 3d"), P("JK As"))


def test_joker_in_back_counts_as_ace_for_the_foul_test():
    assert not is_foul(P("JK Kd 9c 7s 3d"), P("Ac Qh"))


def test_straight_or_better_back_is_never_fouled_by_a_pair():
    assert not is_foul(P("2h 3d 4c 5s 6d"), P("Ac As"))


def test_wrong_number_of_cards_is_refused():
    with pytest.raises(ValueError, match="5 cards; it has 4"):
        is_foul(P("Ah Kd 9c 7s"), P("Ac Qh"))
    with pytest.raises(ValueError, match="appears twice"):
        is_foul(P("Ah Kd 9c 7s 3d"), P("Ah Qh"))


def test_there_are_21_ways_to_set_seven_cards():
    seven = P("As Kd Qc Jh 9s 5d 2c")
    ways = splits(seven)
    assert len(ways) == 21
    assert len({frozenset(w.front) for w in ways}) == 21
    for w in ways:
        assert sorted(w.back + w.front) == sorted(seven)


def _foul_by_definition(back, front):
    """The rule book's definition, written out from categories and ranks."""
    b, f = evaluate5(back), evaluate2(front)
    if f.category is Category.ONE_PAIR:
        if b.category == Category.HIGH_CARD:
            return True
        if b.category == Category.ONE_PAIR:
            return f.ranks[0] > b.ranks[0]
        return False
    if b.category != Category.HIGH_CARD:
        return False
    return f.ranks > b.ranks[:2]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 52), min_size=7, max_size=7, unique=True))
def test_each_split_fouls_exactly_as_the_definition_says(seven):
    for way in splits(seven):
        assert is_foul(way.back, way.front) == _foul_by_definition(way.back, way.front)
