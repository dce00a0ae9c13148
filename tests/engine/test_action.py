"""The dice action (rules.md, "Dealing and the action")."""
import random

import pytest

from trainer.engine.action import action_position, deal_order, pile_order, roll_dice, table_position


@pytest.mark.parametrize("total", [1, 8, 15])
def test_totals_one_eight_fifteen_land_on_the_banker(total):
    assert action_position(total) == 1


def test_position_formula_for_every_total():
    for total in range(1, 19):
        assert action_position(total) == (total - 1) % 7 + 1


def test_piles_follow_counter_clockwise_from_the_action():
    assert pile_order(10) == [3, 4, 5, 6, 7, 1, 2]


def test_pile_on_an_empty_seat_is_dead():
    order = deal_order(10, occupied={1, 3, 6})
    assert order == [(0, 3), (1, None), (2, None), (3, 6), (4, None), (5, 1), (6, None)]


@pytest.mark.parametrize("total", [0, 19, -3, "7", 2.5])
def test_bad_total_is_refused(total):
    with pytest.raises(ValueError):
        action_position(total)


def test_three_dice_replay_from_seed():
    assert roll_dice(random.Random(3)) == roll_dice(random.Random(3))
    assert all(1 <= d <= 6 for d in roll_dice(random.Random(3)))


def test_positions_count_from_a_player_banker_seat():
    # Banker in seat 4: position 1 is seat 4, position 5 wraps to seat 1.
    assert table_position(4, 1) == 4
    assert table_position(4, 5) == 1
