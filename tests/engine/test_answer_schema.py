"""Answers have a schema: each drill kind declares the exact shape of its answer.

Every test that covers "every drill kind" loops over the engine's registry
(``DRILLS``), so a kind added later is held to the same rules.
"""
from __future__ import annotations

import copy
from typing import Any

import pytest

from trainer.engine.drills import DRILLS, DrillContext, get_drill, new_question
from trainer.engine.drills.schema import MAX_CENTS
from trainer.engine.profiles import FoulPolicy

CTX = DrillContext()
HOUSE_WAY_FOULS = DrillContext(foul_policy=FoulPolicy.HOUSE_WAY)
HUGE = "A" * 1_000_000


def questions(slug: str, seeds: range = range(12), ctx: DrillContext = CTX) -> list[dict]:
    """Return questions of a drill kind; a multi-step drill's every step of each."""
    drill = get_drill(slug)
    out = []
    for seed in seeds:
        question = new_question(slug, seed, ctx)
        steps = len(getattr(drill, "steps", ()))
        out += [drill.at_step(question, s, ctx) for s in range(steps)] if steps else [question]
    return out


def readable(error: ValueError) -> bool:
    """A trainee can read it: one short sentence, never the junk sent."""
    text = str(error)
    return bool(text) and text.endswith((".", "?")) and len(text) < 300 and "A" * 100 not in text


def refused(slug: str, question: dict, answer: Any, ctx: DrillContext = CTX) -> ValueError:
    """Return the ValueError validate_answer raises for ``answer`` (and grade raises too)."""
    drill = get_drill(slug)
    with pytest.raises(ValueError) as caught:
        drill.validate_answer(question, answer, ctx)
    with pytest.raises(ValueError):
        drill.grade(question, answer, ctx)
    assert readable(caught.value), str(caught.value)[:400]
    return caught.value


def leaves(value: Any, path: tuple = ()) -> list[tuple[tuple, Any]]:
    """Return every (path, leaf) of a JSON value: the places a mutation can go."""
    if isinstance(value, dict):
        return [leaf for key, v in value.items() for leaf in leaves(v, (*path, key))]
    if isinstance(value, list):
        return [(path, value)] + [leaf for i, v in enumerate(value) for leaf in leaves(v, (*path, i))]
    return [(path, value)]


def put(value: Any, path: tuple, new: Any) -> Any:
    """Return a copy of ``value`` with the item at ``path`` replaced."""
    out = copy.deepcopy(value)
    if not path:
        return new
    target = out
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = new
    return out


@pytest.mark.parametrize("slug", sorted(DRILLS))
def test_every_drill_accepts_its_own_well_formed_answer_unchanged(slug: str) -> None:
    drill = get_drill(slug)
    for question in questions(slug):
        answer = drill.answer_json(drill.probe(question))
        assert drill.validate_answer(question, answer, CTX) == answer
        assert drill.validate_answer(question, answer, None) == answer


@pytest.mark.parametrize("slug", sorted(DRILLS))
def test_every_drill_refuses_an_unknown_key_at_any_depth(slug: str) -> None:
    drill = get_drill(slug)
    for question in questions(slug):
        answer = drill.answer_json(drill.probe(question))
        assert "does not take: 'x'" in str(refused(slug, question, {**answer, "x": 1}))
        refused(slug, question, {**answer, HUGE: 1})
        for path, leaf in leaves(answer):
            if isinstance(leaf, dict):
                refused(slug, question, put(answer, path, {**leaf, "x": [1, 2]}))


@pytest.mark.parametrize("slug", sorted(DRILLS))
def test_every_drill_refuses_anything_but_an_object(slug: str) -> None:
    for question in questions(slug, range(3)):
        for junk in (None, "front", 5, 5.0, True, [], [{"seat": 1}]):
            assert "JSON object" in str(refused(slug, question, junk))


@pytest.mark.parametrize("slug", sorted(DRILLS))
def test_every_drill_refuses_a_wrong_type_in_every_field(slug: str) -> None:
    drill = get_drill(slug)
    for question in questions(slug):
        answer = drill.answer_json(drill.probe(question))
        for path, _leaf in leaves(answer):
            if path:
                refused(slug, question, put(answer, path, {"deep": [[[["x"]]]]}))


@pytest.mark.parametrize("slug", sorted(DRILLS))
def test_every_drill_takes_no_boolean_for_a_number_and_no_number_for_a_boolean(slug: str) -> None:
    drill = get_drill(slug)
    for question in questions(slug):
        answer = drill.answer_json(drill.probe(question))
        for path, leaf in leaves(answer):
            if isinstance(leaf, bool):
                refused(slug, question, put(answer, path, int(leaf)))
            elif isinstance(leaf, int):
                refused(slug, question, put(answer, path, True))
                refused(slug, question, put(answer, path, float(leaf)))
            elif path:
                refused(slug, question, put(answer, path, True))


@pytest.mark.parametrize("slug", sorted(DRILLS))
def test_every_drill_refuses_a_list_too_long(slug: str) -> None:
    drill = get_drill(slug)
    for question in questions(slug):
        answer = drill.answer_json(drill.probe(question))
        lists = [(path, leaf) for path, leaf in leaves(answer) if isinstance(leaf, list)]
        for path, leaf in lists:
            filler = copy.deepcopy(leaf[-1]) if leaf else {"seat": 2, "action": "take"}
            refused(slug, question, put(answer, path, leaf + [filler] * 10_000))
        first = next(iter(answer))
        refused(slug, question, {**answer, first: [1] * 10_000})


@pytest.mark.parametrize("slug", sorted(DRILLS))
def test_every_drill_refuses_a_huge_string_without_repeating_it(slug: str) -> None:
    drill = get_drill(slug)
    for question in questions(slug):
        answer = drill.answer_json(drill.probe(question))
        for path, _leaf in leaves(answer):
            if path:
                refused(slug, question, put(answer, path, HUGE))


@pytest.mark.parametrize("slug", sorted(DRILLS))
def test_every_drill_grades_only_what_its_schema_accepts(slug: str) -> None:
    drill = get_drill(slug)
    for question in questions(slug):
        answer = drill.answer_json(drill.probe(question))
        grade = drill.grade(question, drill.read_answer(question, answer, CTX), CTX)
        assert isinstance(grade.correct, bool) and grade.rule_id


def test_cards_are_normalized_to_their_canonical_names() -> None:
    drill = get_drill("house-way")
    q = drill.read_question({"cards": ["Kh", "Kd", "9c", "Ts", "5h", "3c", "JK"]})
    assert drill.validate_answer(q, {"front": ["10s", "joker"]}) == {"front": ["Ts", "JK"]}
    assert drill.read_answer(q, {"front": ["10s", "joker"]}, None).front == ("Ts", "JK")
    assert drill.validate_answer(q, {"front": ["kh", "KD"]}) == {"front": ["Kh", "Kd"]}


def test_an_action_seat_is_a_whole_number_from_one_to_seven() -> None:
    q = new_question("action", 1, CTX)
    for bad in (0, 8, -1, 2**70, True, 3.0, "3", None):
        assert str(refused("action", q, {"seat": bad})) == "Pick one of the seven seats (1-7)."
    assert get_drill("action").validate_answer(q, {"seat": 7}) == {"seat": 7}


def test_a_settled_winner_needs_an_amount_and_a_push_or_loser_has_none() -> None:
    q = new_question("settlement", 3, CTX)
    seat = q.positions[0].seat
    rest = [{"outcome": "lose"} for _ in q.positions[1:]]
    drill = get_drill("settlement")
    ok = {"positions": [{"outcome": "win", "paid_cents": 950}, *rest]}
    assert drill.validate_answer(q, ok) == ok
    assert drill.validate_answer(q, {"positions": [{"outcome": "push", "paid_cents": None}, *rest]})
    for bad, words in [({"outcome": "win"}, "amount paid"),
                       ({"outcome": "win", "paid_cents": None}, "amount paid"),
                       ({"outcome": "win", "paid_cents": -5}, "amount paid"),
                       ({"outcome": "win", "paid_cents": MAX_CENTS + 1}, "amount paid"),
                       ({"outcome": "win", "paid_cents": 9.5}, "amount paid"),
                       ({"outcome": "push", "paid_cents": 500}, "only a winner is paid"),
                       ({"outcome": None}, "win, push or lose"),
                       ({"paid_cents": 500}, "win, push or lose")]:
        error = refused("settlement", q, {"positions": [bad, *rest]})
        assert str(error).startswith(f"Seat {seat}:") and words in str(error)
    assert "Settle all" in str(refused("settlement", q, {"positions": rest}))


def test_a_round_settle_step_names_each_seat_with_a_hand_at_most_once() -> None:
    drill = get_drill("round")
    settle = next(q for q in questions("round", range(40))
                  if q.step == "settle" and q.banker_seat == 1 and len(q.players) >= 2)
    seat = settle.players[0].seat
    empty = next(s for s in range(1, 8) if s not in [p.seat for p in settle.players])
    assert drill.validate_answer(settle, {"order": [{"seat": seat, "action": "pay", "paid_cents": 95}]})
    for bad, words in [({"order": [{"seat": seat, "action": "take"}] * 2}, "settled twice"),
                       ({"order": [{"seat": empty, "action": "take"}]}, "seats that have a hand"),
                       ({"order": [{"seat": seat, "action": "pay"}]}, "amount paid"),
                       ({"order": [{"seat": seat, "action": "take", "paid_cents": 5}]}, "not paid"),
                       ({"order": [], "banker_commission_cents": 0}, "does not take"),
                       ({"order": [{"seat": seat, "action": "push"}]}, "take the bet or pay it")]:
        assert words in str(refused("round", settle, bad))


def test_a_player_banked_round_needs_the_banker_commission() -> None:
    settle = next(q for q in questions("round", range(80))
                  if q.step == "settle" and q.banker_seat != 1)
    assert "commission the player-banker pays" in str(refused("round", settle, {"order": []}))
    refused("round", settle, {"order": [], "banker_commission_cents": True})
    assert get_drill("round").validate_answer(
        settle, {"order": [], "banker_commission_cents": 0}) == {"order": [], "banker_commission_cents": 0}


def test_calling_a_hand_fouled_under_the_house_way_policy_needs_the_reset_whatever_the_hand() -> None:
    # The shape of an answer never depends on the right answer: a bare "fouled"
    # is refused for a legal hand and a fouled one alike, so a refusal tells nothing.
    drill = get_drill("foul-check")
    legal = drill.read_question({"back": ["Ah", "Ad", "9c", "7s", "3d"], "front": ["Kc", "Qh"]})
    fouled = drill.read_question({"back": ["Kh", "Js", "8c", "7s", "3d"], "front": ["Ac", "Ah"]})
    for q in (legal, fouled):
        assert "missing 'front'" in str(refused("foul-check", q, {"fouled": True}, HOUSE_WAY_FOULS))
        assert drill.validate_answer(q, {"fouled": True}, CTX) == {"fouled": True}
        assert "Only a hand called fouled" in str(
            refused("foul-check", q, {"fouled": False, "front": list(q.front)}))
