"""House ways beyond the presets reach the engine as objects (issues 18 and 28).

The engine owns the presets only. A manager's published version (``slug@n``) or a
preset's earlier rule data is found by the services (``services/house_ways.exact``) and
handed down in the drill's context (``DrillContext.way``), as custom table profiles
travel (``custom``): the engine never looks one up by name and nothing installs a
look-up in it. These tests use plain engine objects: no app, no database, no resolver.
"""
from __future__ import annotations

import copy
import random

import pytest

import trainer.engine.house_way as house_way_package
from trainer.engine.cards import card_list
from trainer.engine.drills import DrillContext, get_drill
from trainer.engine.drills.context import preset_way
from trainer.engine.drills.explain import house_way_name, sheet_sentence
from trainer.engine.house_way import HouseWay, HouseWayError, interpreter, load, preset_names

OTHER = "flamingo-hilton"


def _renamed(preset: str, name: str) -> HouseWay:
    data = copy.deepcopy(load(preset).data)
    data["name"] = name
    return HouseWay(data)


def _differing_hand(a: HouseWay, b: HouseWay) -> list[str]:
    """Return seven cards the two ways set with different fronts (drawn from a fixed seed)."""
    rng = random.Random(18)
    for _ in range(20_000):
        seven = rng.sample(range(53), 7)
        if sorted(a.set(seven).front) != sorted(b.set(seven).front):
            return card_list(seven)
    raise AssertionError("no hand sets differently")


def test_the_engine_has_no_resolver_to_install() -> None:
    for module in (interpreter, house_way_package):
        for name in ("set_resolver", "_RESOLVER", "_RESOLVED", "load_exact"):
            assert not hasattr(module, name), f"{module.__name__}.{name}"


def test_load_knows_only_the_presets() -> None:
    assert load("trump-plaza").name == "trump-plaza"
    with pytest.raises(ValueError, match="Unknown house way"):
        load("riverside@1")


def test_preset_way_gives_the_preset_while_its_digest_matches_and_refuses_other_rules() -> None:
    preset = load("trump-plaza")
    assert preset_way("trump-plaza", preset.rules_digest) is preset
    assert preset_way("trump-plaza") is preset
    # A preset's earlier rules or a published version: only the services find those.
    with pytest.raises(HouseWayError):
        preset_way("trump-plaza", "0" * 64)
    with pytest.raises(ValueError, match="only the services"):
        preset_way("riverside@1")


def test_context_stores_the_digest_only_when_set() -> None:
    plain = DrillContext(load("trump-plaza"))
    assert "house_way_digest" not in plain.as_dict()
    digest = load("trump-plaza").rules_digest
    pinned = DrillContext(load("trump-plaza"), house_way_digest=digest)
    assert pinned.as_dict()["house_way_digest"] == digest
    assert DrillContext.from_dict(pinned.as_dict()).house_way_digest == digest


def test_a_context_refuses_a_way_whose_rules_are_not_the_recorded_ones() -> None:
    with pytest.raises(HouseWayError):
        DrillContext(load("trump-plaza"), house_way_digest=load(OTHER).rules_digest)
    with pytest.raises(TypeError):
        DrillContext("trump-plaza")  # type: ignore[arg-type]  # a name is no way


def test_a_context_stored_before_digests_grades_by_the_current_preset() -> None:
    old_json = {"house_way": "mgm-grand", "profile": "nevada", "foul_policy": "house_way",
                "focus_rules": [], "generator": 2}
    context = DrillContext.from_dict(old_json)
    assert context.house_way_digest is None
    assert context.way is load("mgm-grand")
    assert context.as_dict() == {**old_json, "side_bet_rules": 1}


def test_a_stored_context_of_a_custom_way_is_read_with_the_way_the_services_resolved() -> None:
    custom = _renamed(OTHER, "riverside@1")
    stored = DrillContext(custom, house_way_digest=custom.rules_digest).as_dict()
    assert stored["house_way"] == "riverside@1"
    with pytest.raises(ValueError, match="only the services"):
        DrillContext.from_dict(stored)  # the engine alone cannot find it
    again = DrillContext.from_dict(stored, custom)
    assert again.way is custom and again.as_dict() == stored


def test_grading_a_custom_way_needs_no_resolver_the_context_carries_it() -> None:
    """A house-way question under ``riverside@1`` is graded by that version's rules."""
    custom = _renamed(OTHER, "riverside@1")
    default = load("trump-plaza")
    cards = _differing_hand(default, custom)
    drill = get_drill("house-way")
    question = drill.read_question({"kind": "house-way", "cards": cards})
    context = DrillContext(custom, house_way_digest=custom.rules_digest)
    assert context.house_way == "riverside@1"
    custom_front = drill.read_answer(question, {"front": card_list(custom.set(cards).front)}, context)
    default_front = drill.read_answer(question, {"front": card_list(default.set(cards).front)},
                                      context)
    assert drill.grade(question, custom_front, context).correct
    assert not drill.grade(question, default_front, context).correct
    # Its feedback quotes the version's sheet and names the version's ref.
    feedback = drill.feedback(question, default_front, context)
    assert feedback.house_way == "riverside@1"


def test_the_feedback_words_take_the_way_itself() -> None:
    custom = _renamed(OTHER, "riverside@1")
    rule = custom.rules[0]
    assert house_way_name(custom) == custom.title.removesuffix(" house way")
    assert sheet_sentence(custom, rule.id) == f"{house_way_name(custom)} {rule.number}: {rule.text}"
    assert sheet_sentence(custom, "no-such-rule") == ""


def test_every_preset_resolves_exactly_by_its_own_digest() -> None:
    for name in preset_names():
        way = load(name)
        assert preset_way(name, way.rules_digest) is way
