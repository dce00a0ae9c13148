"""The action, settlement and round drills in their homes (issue 28): dealing by skill,
typed questions and answers that read back from their JSON, and a wrong answer on demand.

Dealing by skill (part 6): for every skill a kind declares, 20 questions dealt for it are
on that skill (its ``rule_of``), or the skill is reported unreachable under the context
(None at once) for the reason the rule book gives. A round's settle-step mistakes are no
question's rule: a step dealt for one is a step where the mistake can be made, and making
it is graded under that skill.
"""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine.drills import DrillContext, get_drill, new_question
from trainer.engine.drills.codec import from_json, to_json
from trainer.engine.drills.kinds import action, settlement
from trainer.engine.drills.kinds import house_way as house_way_kind
from trainer.engine.drills.kinds import round as round_kind
from trainer.engine.drills.kinds.round import OrderEntry, SettleAnswer, SettleKey
from trainer.engine.drills.kinds.settlement import (
    BonusPart,
    EnvyPart,
    PositionKey,
    SeatPart,
    SettlementKey,
    SidePaid,
)
from trainer.engine.house_way import load
from trainer.engine.profiles import FoulPolicy

SLUGS = (action.SLUG, settlement.SLUG, round_kind.SLUG)
DEALT = 20
CONTEXTS = {
    "default": DrillContext(),
    "no-commission": DrillContext(profile="no-commission"),
    "house-way-fouls": DrillContext(way=load("mgm-grand"), profile="nevada-fortune",
                                    foul_policy=FoulPolicy.HOUSE_WAY),
}
# Skills no question can reach under a context, and why (the rule book's own reasons).
UNREACHABLE = {
    ("settlement.queen-high", "default"):
        "a table that charges commission: a queen-high pai gow banker is settled as any other",
    ("settlement.queen-high", "house-way-fouls"):
        "a table that charges commission: a queen-high pai gow banker is settled as any other",
    ("settlement.foul", "house-way-fouls"):
        "the house-way foul policy resets a fouled hand, which then settles as set: no hand "
        "loses for its foul",
}
MISTAKES = ("round.settle.outcome", "round.settle.order", "round.settle.amount",
            "round.settle.banker-commission")


def skills(slug: str) -> list[str]:
    return [s.id for s in get_drill(slug).skills]


def mistake(skill: str, question: Any, key: SettleKey) -> SettleAnswer:
    """Return the right settling with exactly the mistake ``skill`` names."""
    order = key.order
    commission = key.banker_commission_cents
    if skill == "round.settle.order":
        order = order[::-1]
    elif skill == "round.settle.amount":
        at = next(i for i, e in enumerate(order) if e.action == "pay")
        order = tuple(replace(e, paid_cents=(e.paid_cents or 0) + 100) if i == at else e
                      for i, e in enumerate(order))
    elif skill == "round.settle.banker-commission":
        commission = (commission or 0) + 1
    else:
        seat = question.players[0].seat
        left = tuple(e for e in order if e.seat != seat)
        taken = any(e.seat == seat and e.action == "take" for e in order)
        order = left if taken else (OrderEntry(seat=seat, action="take"), *left)
    return SettleAnswer(order=order, banker_commission_cents=commission, side=key.side)


@pytest.mark.parametrize("name", list(CONTEXTS))
@pytest.mark.parametrize("slug", SLUGS)
def test_every_skill_is_dealt_twenty_times_or_reported_unreachable(slug: str, name: str) -> None:
    drill, context = get_drill(slug), CONTEXTS[name]
    rng = random.Random(f"{slug} {name}")
    families = {r.family for r in context.way.rules}
    for skill in skills(slug):
        first = drill.deal_for(rng, context, skill)
        # A banker's hand of a family the house way has no rule for is no step's rule.
        absent = skill.startswith("round.banker.") and \
            skill.removeprefix("round.banker.") not in families
        if (skill, name) in UNREACHABLE or absent:
            assert first is None, (skill, name)
            continue
        assert first is not None, (skill, name)
        dealt = [first, *(drill.deal_for(rng, context, skill) for _ in range(DEALT - 1))]
        for question in dealt:
            assert question is not None, (skill, name)
            # Well-formed: it reads back from its JSON and grades its own probe.
            assert drill.read_question(drill.question_json(question)) == question
            key = drill.grade(question, drill.probe(question), context).correct_answer
            if skill in MISTAKES:
                grade = drill.grade(question, mistake(skill, question, key), context)
                assert not grade.correct and grade.rule_id == skill, (skill, name)
            else:
                assert drill.rule_of(question, context) == skill, (skill, name)


def test_a_skill_of_another_kind_is_dealt_by_none_of_these() -> None:
    context = CONTEXTS["default"]
    rng = random.Random(3)
    for slug in SLUGS:
        assert get_drill(slug).deal_for(rng, context, "two-pair.split.always") is None
        assert get_drill(slug).deal_for(rng, context, "round.banker.no-such-family") is None


def test_the_round_banker_step_is_dealt_for_each_family_of_the_way() -> None:
    drill, context = get_drill(round_kind.SLUG), DrillContext()
    families = {r.family for r in context.way.rules}
    dealt = {skill.removeprefix("round.banker.") for skill in skills(round_kind.SLUG)
             if skill.startswith("round.banker.")
             and drill.deal_for(random.Random(skill), context, skill) is not None}
    assert dealt == families


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SLUGS), st.integers(0, 2**63 - 1), st.sampled_from(list(CONTEXTS)),
       st.booleans())
def test_a_question_answer_and_key_read_back_from_their_json(slug: str, seed: int, name: str,
                                                             first: bool) -> None:
    context = CONTEXTS[name]
    if first:
        context = DrillContext.from_dict({**context.as_dict(), "generator": 1}, context.way)
    drill = get_drill(slug)
    dealt = new_question(slug, seed, context)
    for question in ([drill.at_step(dealt, s, context) for s in range(len(drill.steps))]
                     if drill.steps else [dealt]):
        assert drill.read_question(drill.question_json(question)) == question
        for answer in (drill.probe(question),
                       drill.wrong_answer(question, context, random.Random(seed))):
            assert drill.read_answer(question, drill.answer_json(answer), context) == answer
        grade = drill.grade(question, drill.probe(question), context)
        key = grade.correct_answer
        assert from_json(type(key), drill.key_json(key)) == key
        for part in grade.parts:
            assert from_json(type(part), to_json(part)) == part


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.from_type(SettleKey), st.from_type(SettlementKey), st.from_type(PositionKey),
                 st.from_type(SeatPart), st.from_type(BonusPart), st.from_type(EnvyPart),
                 st.from_type(SidePaid)))
def test_any_key_or_part_reads_back_from_its_json(value: Any) -> None:
    assert from_json(type(value), to_json(value)) == value


def test_an_envy_part_is_stored_under_its_json_name() -> None:
    part = EnvyPart(seat=2, part="envy", correct=True, rule_id="bonus.envy.nothing",
                    paid_cents=0, given_cents=0, bet_cents=500, paid_by=((None, "Four aces", 500),))
    data = to_json(part)
    assert data["from"] == [[None, "Four aces", 500]] and "paid_by" not in data
    assert from_json(EnvyPart, data) == part


@pytest.mark.parametrize("name", list(CONTEXTS))
@pytest.mark.parametrize("slug", SLUGS)
def test_a_wrong_answer_is_well_formed_and_graded_wrong(slug: str, name: str) -> None:
    drill, context = get_drill(slug), CONTEXTS[name]
    for seed in range(30):
        dealt = new_question(slug, seed, context)
        for question in ([drill.at_step(dealt, s, context) for s in range(len(drill.steps))]
                         if drill.steps else [dealt]):
            wrong = drill.wrong_answer(question, context, random.Random(seed))
            assert drill.read_answer(question, drill.answer_json(wrong), context) == wrong
            assert not drill.grade(question, wrong, context).correct


def test_the_rounds_steps_are_named_by_the_kinds_they_reuse() -> None:
    assert round_kind.STEPS[0] == action.SLUG
    assert round_kind.STEPS == ("action", "banker", "settle")
    rounds = get_drill(round_kind.SLUG)
    step = rounds.at_step(new_question(round_kind.SLUG, 4, DrillContext()), 1, DrillContext())
    # The banker step's answer and key are the house-way drill's.
    assert isinstance(rounds.probe(step), house_way_kind.SetAnswer)
    assert isinstance(rounds.grade(step, rounds.probe(step), DrillContext()).correct_answer,
                      house_way_kind.SetKey)


def test_each_kind_declares_its_web_entry_criterion_and_chance_level() -> None:
    assert [get_drill(s).order for s in SLUGS] == [30, 20, 60]
    assert get_drill(action.SLUG).title == "Call the action"
    assert get_drill(settlement.SLUG).title == "Settle the table"
    assert get_drill(round_kind.SLUG).title == "Run a round"
    assert all(get_drill(s).blurb for s in SLUGS)
    criterion = get_drill(settlement.SLUG).criterion
    assert criterion is not None and (criterion.min_accuracy, criterion.window,
                                      criterion.exam_length) == (99.0, 50, 20)
    assert get_drill(action.SLUG).criterion is None and get_drill(round_kind.SLUG).criterion is None
    assert get_drill(action.SLUG).chance_level == pytest.approx(1 / 7)
    assert get_drill(settlement.SLUG).chance_level is None


@pytest.mark.parametrize("slug", SLUGS)
def test_every_rule_a_question_is_graded_under_is_a_declared_skill(slug: str) -> None:
    drill = get_drill(slug)
    declared = set(skills(slug))
    for name, context in CONTEXTS.items():
        for seed in range(40):
            dealt = new_question(slug, seed, context)
            for question in ([drill.at_step(dealt, s, context) for s in range(len(drill.steps))]
                             if drill.steps else [dealt]):
                assert drill.rule_of(question, context) in declared, name
                skill = next(s for s in drill.skills if s.id == drill.rule_of(question, context))
                assert skill.section.startswith("§") and skill.sentence and skill.hint


def test_a_null_amount_for_a_position_not_won_is_stored_as_the_page_sends_it() -> None:
    """Decided (docs/drills.md): ``{"outcome": "push", "paid_cents": null}`` is accepted, as
    before, and stored as the page sends it, without the amount; it grades alike."""
    drill, context = get_drill(settlement.SLUG), DrillContext()
    question = new_question(settlement.SLUG, 3, context)
    sent = {"positions": [{"outcome": "push", "paid_cents": None} for _ in question.positions]}
    read = drill.read_answer(question, sent, context)
    shown = {"positions": [{"outcome": "push"} for _ in question.positions]}
    assert drill.answer_json(read) == shown
    assert drill.grade(question, read, context) == drill.grade(
        question, drill.read_answer(question, shown, context), context)
