"""Dealing by skill (issue 28 part 6) for the house-way, foul-check and hand-reading drills.

Every skill of each kind is dealt 20 questions, each of which the drill's own ``rule_of``
reads as that skill (the house way: the way's rule that decides the hand, for every rule
of every preset and of a custom way), or the skill is reported unreachable (``deal_for``
returns None at once, never dealing and re-dealing). A dealt question is a question like
any other: its JSON reads back to it and the drill grades it.
"""
from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from typing import Any

import pytest

from trainer.engine.drills import DrillContext, get_drill
from trainer.engine.drills.kinds import foul_check, hand_reading, house_way
from trainer.engine.hands import Wheel
from trainer.engine.house_way import HouseWay, load, preset_names
from trainer.engine.house_way import dealing as D
from trainer.engine.house_way.editing import build
from trainer.engine.profiles import FoulPolicy

PER_SKILL = 20


def _dealing_by_rule() -> Any:
    """The custom way of the dealing-by-rule tests (beside this file; not a package)."""
    spec = importlib.util.spec_from_file_location(
        "dealing_by_rule_cases", Path(__file__).with_name("test_dealing_by_rule.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def deal_every_skill(slug: str, context: DrillContext, seed: int) -> list[str]:
    """Deal ``PER_SKILL`` questions for each skill; return the skills reported unreachable."""
    drill = get_drill(slug)
    rng = random.Random(seed)
    skills = drill.skills_of(context)
    assert skills, slug
    unreachable = []
    for skill in skills:
        first = drill.deal_for(rng, context, skill.id)
        if first is None:
            unreachable.append(skill.id)
            continue
        for question in [first, *(drill.deal_for(rng, context, skill.id)
                                  for _ in range(PER_SKILL - 1))]:
            assert question is not None, (slug, skill.id)
            assert drill.rule_of(question, context) == skill.id, (slug, skill.id, question)
            assert drill.read_question(drill.question_json(question)) == question
            drill.grade(question, drill.probe(question), context)
    return unreachable


@pytest.mark.parametrize("name", preset_names())
def test_every_rule_of_every_preset_deals_20_hands_the_house_way_sets_by_that_rule(name: str) -> None:
    context = DrillContext(way=load(name))
    assert [s.id for s in get_drill(house_way.SLUG).skills_of(context)] == list(context.way.rule_ids)
    assert deal_every_skill(house_way.SLUG, context, seed=28) == []


def test_every_rule_deals_under_the_lowest_wheel_setting_too() -> None:
    context = DrillContext(way=load("golden-nugget"), profile="california")
    assert context.table.wheel == Wheel.LOWEST
    assert deal_every_skill(house_way.SLUG, context, seed=6) == []


@pytest.fixture(scope="module")
def custom_way() -> HouseWay:
    cases = _dealing_by_rule()
    way = build(cases.custom_data())
    base = load("foxwoods").class_table(Wheel.SECOND_HIGHEST.value)
    assert base is not None
    way.attach_table(cases.table_redeciding(way, base, "two-trips", Wheel.SECOND_HIGHEST.value))
    return way


def test_every_rule_of_a_custom_way_deals_20_hands_or_is_reported_unreachable(
        custom_way: HouseWay) -> None:
    context = DrillContext(way=custom_way)
    shadowed = _dealing_by_rule().SHADOWED
    assert deal_every_skill(house_way.SLUG, context, seed=29) == [shadowed]
    # Reported at once: the rule decides no hand, so not a card is dealt for it.

    class NoDraws(random.Random):
        def random(self) -> float:
            raise AssertionError("dealt for an unreachable rule")

        def getrandbits(self, k: int) -> int:
            raise AssertionError("dealt for an unreachable rule")

    assert get_drill(house_way.SLUG).deal_for(NoDraws(1), context, shadowed) is None
    # The changed rule is the custom way's own: the preset has no such skill to deal.
    assert get_drill(house_way.SLUG).deal_for(random.Random(1), DrillContext(way=load("foxwoods")),
                                              "two-trips.low-pair-front") is None


@pytest.mark.parametrize("context", [
    DrillContext(), DrillContext(profile="california", foul_policy=FoulPolicy.HOUSE_WAY),
], ids=["default", "lowest-wheel-house-way-fouls"])
@pytest.mark.parametrize("slug", [foul_check.SLUG, hand_reading.SLUG])
def test_every_foul_and_reading_skill_deals_20_questions_on_it(slug: str, context: DrillContext) -> None:
    assert deal_every_skill(slug, context, seed=7) == []


def test_a_skill_of_no_kind_is_reported_never_dealt() -> None:
    context = DrillContext()
    for slug in (house_way.SLUG, foul_check.SLUG, hand_reading.SLUG):
        assert get_drill(slug).deal_for(random.Random(1), context, "no.such.rule") is None
    # Five aces always hold the joker: no such reading skill without it, and none dealt.
    reading = get_drill(hand_reading.SLUG)
    assert "reading.five-aces" not in {s.id for s in reading.skills}
    assert reading.deal_for(random.Random(1), context, "reading.five-aces") is None
    assert reading.deal_for(random.Random(1), context, "reading.five-aces.joker") is not None


def test_the_house_way_deals_by_the_class_table_not_by_a_search() -> None:
    """The hands of a rule come in the weights of its classes (``dealing.deal_for_rule``):
    a rare rule is dealt as readily as a common one, in one draw each."""
    way = load("trump-plaza")
    hands = D.rule_hands(way)
    rarest = min(hands, key=hands.__getitem__)
    assert hands[rarest] < 10_000 < hands["two-pair.split.always"]
    question = get_drill(house_way.SLUG).deal_for(random.Random(5), DrillContext(way=way), rarest)
    assert question is not None
    assert get_drill(house_way.SLUG).rule_of(question, DrillContext(way=way)) == rarest
