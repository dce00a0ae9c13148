"""The ``round`` drill: a whole round in the floor's order, each step graded (rules.md)."""
from __future__ import annotations

from collections import Counter

import pytest
from engine.json_edge import JsonDrill
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine.action import action_position, table_position
from trainer.engine.cards import parse_cards
from trainer.engine.drills import DrillContext
from trainer.engine.drills.kinds.round import DEALER_SEAT, SLUG, STEPS, seat_of_pile
from trainer.engine.house_way import load
from trainer.engine.setting import is_foul, splits
from trainer.engine.settlement import commission_cents, payout_cents

CTX = DrillContext()
# The drill through its JSON edge: questions, answers and keys as a stored row holds them.
DRILL = JsonDrill(SLUG)


def new_question(slug: str, seed: int, ctx: DrillContext) -> dict:
    """Return the JSON of the round dealt from ``seed``."""
    return JsonDrill(slug).question(seed, ctx)


def round_of(seed: int, ctx: DrillContext = CTX) -> list[dict]:
    """Return the three step questions of the round dealt from ``seed``."""
    base = new_question(SLUG, seed, ctx)
    return [DRILL.at_step(base, step, ctx) for step in range(len(STEPS))]


def find(predicate, ctx: DrillContext = CTX, limit: int = 3000) -> list[dict]:
    """Return the first round whose base question satisfies ``predicate``."""
    for seed in range(limit):
        steps = round_of(seed, ctx)
        if predicate(steps):
            return steps
    raise AssertionError("no such round in the first seeds")


def key(question: dict, ctx: DrillContext = CTX) -> dict:
    """Return the right answer to a step, as the grader works it out."""
    return DRILL.grade(question, DRILL.probe(question), ctx).correct_answer


def settle_answer(question: dict, ctx: DrillContext = CTX) -> dict:
    """Return the right settle answer: the order, and the bank's commission when a player banks."""
    right = key(question, ctx)
    answer = {"order": right["order"]}
    if "banker_commission_cents" in right:
        answer["banker_commission_cents"] = right["banker_commission_cents"]
    return answer


# --- the round's shape -------------------------------------------------------


def test_a_round_is_three_steps_in_the_floors_order() -> None:
    assert STEPS == ("action", "banker", "settle")
    assert DRILL.steps == STEPS
    steps = round_of(7)
    assert [q["step"] for q in steps] == list(STEPS)
    # The three steps are one round: same dice, seats and cards.
    for field in ("dice", "banker_seat", "occupied", "piles", "unused", "players"):
        assert steps[0][field] == steps[1][field] == steps[2][field]
    assert new_question("round", 7, CTX) == new_question("round", 7, CTX)


def test_seven_piles_of_seven_and_four_unused_from_one_deck() -> None:
    for seed in range(50):
        base = new_question("round", seed, CTX)
        cards = [c for pile in base["piles"] for c in pile] + base["unused"]
        assert len(base["piles"]) == 7 and all(len(p) == 7 for p in base["piles"])
        assert len(base["unused"]) == 4
        assert len(set(cards)) == 53


def test_each_player_holds_the_pile_dealt_to_the_seat() -> None:
    for seed in range(50):
        base = new_question("round", seed, CTX)
        seats = seat_of_pile(sum(base["dice"]), base["banker_seat"])
        for player in base["players"]:
            pile = base["piles"][seats.index(player["seat"])]
            assert sorted(player["back"] + player["front"]) == sorted(pile)
            assert player["seat"] in base["occupied"] and player["seat"] != base["banker_seat"]


def test_only_the_settle_step_shows_the_bankers_setting() -> None:
    action, banker, settle = round_of(3)
    assert "banker" not in action and "banker_cards" not in action
    assert "banker" not in banker and len(banker["banker_cards"]) == 7
    way = load(CTX.house_way).set(parse_cards(banker["banker_cards"], 7))
    assert settle["banker"] == {"back": [str(c) for c in way.back],
                                "front": [str(c) for c in way.front]}


def test_player_banker_rounds_come_now_and_then() -> None:
    bankers = Counter(new_question("round", s, CTX)["banker_seat"] != DEALER_SEAT
                      for s in range(400))
    assert 50 <= bankers[True] <= 150


# --- step 1: the action ------------------------------------------------------


def test_action_counts_from_the_banker_as_position_one() -> None:
    for seed in range(40):
        action = round_of(seed)[0]
        total = sum(action["dice"])
        right = table_position(action["banker_seat"], action_position(total))
        assert key(action)["seat"] == right
        assert DRILL.grade(action, {"seat": right}, CTX).correct
        wrong = right % 7 + 1
        assert not DRILL.grade(action, {"seat": wrong}, CTX).correct
        assert DRILL.rule_of(action, CTX) == "round.action" + (
            ".player-banker" if action["banker_seat"] != DEALER_SEAT else "")


def test_a_round_with_empty_seats_has_dead_piles() -> None:
    action, _banker, settle = find(lambda s: len(s[0]["occupied"]) <= 3)
    piles = key(action)["piles"]
    assert [p["pile"] for p in piles] == list(range(1, 8))
    dead = {p["seat"] for p in piles if p["dead"]}
    assert dead == set(range(1, 8)) - set(action["occupied"])
    assert len(dead) >= 4
    assert "Dead piles" in str(DRILL.grade(action, {"seat": 1}, CTX).explanation)
    assert "four cards left over" in str(DRILL.grade(action, {"seat": 1}, CTX).explanation)
    # Only the seated players are settled.
    assert {p["seat"] for p in settle["players"]} == set(settle["occupied"]) - {settle["banker_seat"]}


def test_a_full_table_has_no_dead_pile() -> None:
    action = find(lambda s: len(s[0]["occupied"]) == 7)[0]
    assert not any(p["dead"] for p in key(action)["piles"])
    assert "no pile is dead" in str(DRILL.grade(action, {"seat": 1}, CTX).explanation)


# --- step 2: the banker's hand -----------------------------------------------


def test_banker_step_takes_the_house_way_and_any_setting_of_equal_value() -> None:
    way = load(CTX.house_way)
    for seed in range(30):
        banker = round_of(seed)[1]
        setting = way.set(parse_cards(banker["banker_cards"], 7))
        grade = DRILL.grade(banker, {"front": [str(c) for c in setting.front]}, CTX)
        assert grade.correct
        assert grade.rule_id == "round.banker." + setting.rule.split(".", 1)[0]
        assert grade.family == "round"
        assert grade.correct_answer["rule"] == setting.rule
        for other in splits(parse_cards(banker["banker_cards"], 7)):
            same = (sorted(c.rank for c in other.front) == sorted(c.rank for c in setting.front)
                    and not is_foul(other.back, other.front))
            if not same:
                continue
            assert DRILL.grade(banker, {"front": [str(c) for c in other.front]}, CTX).correct


def test_banker_step_refuses_cards_that_are_not_the_bankers() -> None:
    banker = round_of(5)[1]
    outsider = next(c for c in banker["piles"][0] + banker["unused"] if c not in banker["banker_cards"])
    with pytest.raises(ValueError, match="not one of this hand's cards"):
        DRILL.grade(banker, {"front": [outsider, banker["banker_cards"][0]]}, CTX)


# --- step 3: settle the table ------------------------------------------------


def has_win_and_loss(steps: list[dict]) -> bool:
    """Tell whether the settle step has at least one loser and one winner."""
    right = key(steps[2])
    actions = {e["action"] for e in right["order"]}
    return steps[2]["banker_seat"] == DEALER_SEAT and actions == {"take", "pay"}


def test_settle_takes_losers_first_then_pays_winners_and_leaves_pushes() -> None:
    settle = find(has_win_and_loss)[2]
    right = key(settle)
    kinds = [e["action"] for e in right["order"]]
    assert kinds == sorted(kinds, key=["take", "pay"].index)
    for entry in right["order"]:
        player = next(p for p in settle["players"] if p["seat"] == entry["seat"])
        if entry["action"] == "pay":
            assert entry["paid_cents"] == payout_cents(player["bet_cents"])
    assert not set(right["pushes"]) & {e["seat"] for e in right["order"]}
    grade = DRILL.grade(settle, settle_answer(settle), CTX)
    assert grade.correct and grade.rule_id == "round.settle" and grade.family == "round"


def test_paying_a_winner_before_taking_a_loser_is_wrong() -> None:
    settle = find(has_win_and_loss)[2]
    order = key(settle)["order"]
    grade = DRILL.grade(settle, {"order": order[::-1]}, CTX)
    assert not grade.correct and grade.rule_id == "round.settle.order"
    assert all(p["correct"] for p in grade.parts)


def test_losers_may_be_taken_in_any_order() -> None:
    settle = find(lambda s: s[2]["banker_seat"] == DEALER_SEAT
                  and sum(e["action"] == "take" for e in key(s[2])["order"]) >= 2)[2]
    order = key(settle)["order"]
    takes = [e for e in order if e["action"] == "take"]
    pays = [e for e in order if e["action"] == "pay"]
    assert DRILL.grade(settle, {"order": takes[::-1] + pays}, CTX).correct


def test_a_wrong_payout_is_graded_on_the_amount() -> None:
    settle = find(has_win_and_loss)[2]
    order = [dict(e) for e in key(settle)["order"]]
    pay = next(e for e in order if e["action"] == "pay")
    pay["paid_cents"] += 25
    grade = DRILL.grade(settle, {"order": order}, CTX)
    assert not grade.correct and grade.rule_id == "round.settle.amount"
    assert [p["seat"] for p in grade.parts if not p["correct"]] == [pay["seat"]]


def test_touching_a_push_or_leaving_a_loser_is_wrong() -> None:
    settle = find(lambda s: s[2]["banker_seat"] == DEALER_SEAT and key(s[2])["pushes"]
                  and any(e["action"] == "take" for e in key(s[2])["order"]))[2]
    right = key(settle)
    push = right["pushes"][0]
    grade = DRILL.grade(settle, {"order": [{"seat": push, "action": "take"}] + right["order"]}, CTX)
    assert not grade.correct and grade.rule_id == "round.settle.outcome"
    left = [e for e in right["order"] if e["action"] != "take" or e is not right["order"][0]]
    assert not DRILL.grade(settle, {"order": left}, CTX).correct


@pytest.mark.parametrize("answer, message", [
    ({"order": [{"seat": 9, "action": "take"}]}, "only the seats that have a hand"),
    ({"order": ["3"]}, "must be an object"),
    ({"order": [{"seat": 0, "action": "take"}]}, "only the seats"),
    ({}, "missing 'order'"),
])
def test_settle_refuses_malformed_answers(answer: dict, message: str) -> None:
    settle = round_of(11)[2]
    with pytest.raises(ValueError, match=message):
        DRILL.grade(settle, answer, CTX)


def test_settle_refuses_a_seat_twice_and_a_payout_without_an_amount() -> None:
    settle = round_of(11)[2]
    seat = settle["players"][0]["seat"]
    with pytest.raises(ValueError, match="settled twice"):
        DRILL.grade(settle, {"order": [{"seat": seat, "action": "take"}] * 2}, CTX)
    with pytest.raises(ValueError, match="amount paid"):
        DRILL.grade(settle, {"order": [{"seat": seat, "action": "pay"}]}, CTX)
    with pytest.raises(ValueError, match="take the bet or pay it"):
        DRILL.grade(settle, {"order": [{"seat": seat, "action": "push"}]}, CTX)


def test_a_fouled_player_hand_loses_under_the_default_policy() -> None:
    def fouled(steps: list[dict]) -> bool:
        return any(is_foul(parse_cards(p["back"], 5), parse_cards(p["front"], 2))
                   for p in steps[2]["players"])

    settle = find(fouled)[2]
    grade = DRILL.grade(settle, settle_answer(settle), CTX)
    assert grade.correct
    part = next(p for p in grade.parts if p["fouled"])
    assert part["outcome"] == "lose"


# --- a player-banker round ---------------------------------------------------


def test_a_player_banker_round_counts_from_the_bankers_seat_and_settles_the_dealer_too() -> None:
    action, banker, settle = find(lambda s: s[0]["banker_seat"] not in (DEALER_SEAT, 2))
    seat = action["banker_seat"]
    total = sum(action["dice"])
    assert key(action)["seat"] == (seat - 1 + action_position(total) - 1) % 7 + 1
    assert DRILL.rule_of(action, CTX) == "round.action.player-banker"
    assert DRILL.rule_of(settle, CTX) == "round.settle.player-banker"
    assert DRILL.rule_of(banker, CTX).startswith("round.banker.")
    # The dealer's hand plays against the player-banker, set the house way.
    dealer = next(p for p in settle["players"] if p["seat"] == DEALER_SEAT)
    dealt = parse_cards(dealer["back"] + dealer["front"], 7)
    house = load(CTX.house_way).set(dealt)
    assert dealer["front"] == [str(c) for c in house.front]
    assert seat not in {p["seat"] for p in settle["players"]}


def test_the_player_banker_pays_commission_on_the_net_win_of_the_bank() -> None:
    def bank_wins(steps: list[dict]) -> bool:
        s = steps[2]
        return s["banker_seat"] != DEALER_SEAT and key(s)["banker_net_cents"] > 0

    settle = find(bank_wins)[2]
    right = key(settle)
    bets = {p["seat"]: p["bet_cents"] for p in settle["players"]}
    takes = sum(bets[e["seat"]] for e in right["order"] if e["action"] == "take")
    pays = sum(bets[e["seat"]] for e in right["order"] if e["action"] == "pay")
    assert right["banker_net_cents"] == takes - pays
    assert right["banker_commission_cents"] == commission_cents(takes - pays)
    assert DRILL.grade(settle, settle_answer(settle), CTX).correct
    wrong = {**settle_answer(settle), "banker_commission_cents": right["banker_commission_cents"] + 1}
    grade = DRILL.grade(settle, wrong, CTX)
    assert not grade.correct and grade.rule_id == "round.settle.banker-commission"
    with pytest.raises(ValueError, match="commission the player-banker pays"):
        DRILL.grade(settle, {"order": right["order"]}, CTX)


def test_a_bank_that_loses_pays_no_commission() -> None:
    settle = find(lambda s: s[2]["banker_seat"] != DEALER_SEAT
                  and key(s[2])["banker_net_cents"] <= 0)[2]
    assert key(settle)["banker_commission_cents"] == 0


def test_the_groups_table_rules_apply_to_the_round() -> None:
    ctx = DrillContext(profile="california")
    settle = find(lambda s: any(e["action"] == "pay" for e in key(s[2], ctx)["order"]), ctx)[2]
    pay = next(e for e in key(settle, ctx)["order"] if e["action"] == "pay")
    bet = next(p["bet_cents"] for p in settle["players"] if p["seat"] == pay["seat"])
    assert pay["paid_cents"] == payout_cents(bet, "california") == bet


# --- any answer is graded or refused in a sentence ---------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 20) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)
answers = st.one_of(
    json_values,
    st.fixed_dictionaries({"seat": json_values}),
    st.fixed_dictionaries({"front": json_values}),
    st.fixed_dictionaries({"order": st.lists(st.fixed_dictionaries(
        {"seat": st.integers(0, 8), "action": st.sampled_from(["take", "pay", "x"]),
         "paid_cents": json_values}), max_size=7),
        "banker_commission_cents": json_values}),
)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 5000), st.integers(0, 2), answers)
def test_every_step_grades_or_refuses_any_answer(seed: int, step: int, answer: object) -> None:
    question = round_of(seed)[step]
    try:
        grade = DRILL.grade(question, answer, CTX)
    except ValueError as error:
        text = str(error)
        assert text and text.rstrip().endswith((".", "?")) and len(text) < 300
        return
    assert isinstance(grade.correct, bool) and grade.rule_id.startswith("round.")
