"""House ways beyond the presets (issue 18): the resolver, ``load_exact`` and ``DrillContext.way``.

The engine owns the presets; a published custom version (``slug@n``) or a preset's
earlier rule data is found through the resolver the app installs. These tests install
their own resolver (a dict of house ways), so no app or database is involved.
"""
from __future__ import annotations

import copy
import random
from collections.abc import Iterator

import pytest

from trainer.engine.cards import card_list
from trainer.engine.drills import DrillContext, get_drill
from trainer.engine.house_way import (
    HouseWay,
    HouseWayError,
    interpreter,
    load,
    load_exact,
    preset_names,
    set_resolver,
)

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


class Stored:
    """What the test resolver knows (by ref and digest) and what it was asked."""

    def __init__(self) -> None:
        self.ways: dict[tuple[str, str], HouseWay] = {}
        self.calls: list[tuple[str, str | None]] = []

    def add(self, ref: str, way: HouseWay) -> None:
        self.ways[(ref, way.rules_digest)] = way

    def find(self, ref: str, digest: str | None) -> HouseWay | None:
        self.calls.append((ref, digest))
        for (r, d), way in self.ways.items():
            if r == ref and (digest is None or d == digest):
                return way
        return None


@pytest.fixture
def resolver() -> Iterator[Stored]:
    """Install a resolver answering from ``Stored``; put the previous one back after."""
    stored = Stored()
    previous = list(interpreter._RESOLVER)
    set_resolver(stored.find)
    yield stored
    set_resolver(previous[0] if previous else None)


def test_load_asks_the_resolver_for_a_name_that_is_no_preset_once(resolver: Stored) -> None:
    way = _renamed(OTHER, "riverside@1")
    resolver.add("riverside@1", way)
    assert load("riverside@1") is way
    assert load("riverside@1") is way
    assert resolver.calls == [("riverside@1", None)]
    # A preset never asks the resolver.
    assert load("trump-plaza").name == "trump-plaza"
    assert resolver.calls == [("riverside@1", None)]


def test_load_of_a_name_nobody_knows_says_unknown_house_way(resolver: Stored) -> None:
    with pytest.raises(ValueError, match="Unknown house way"):
        load("riverside@9")
    # Not found is not remembered: a version published later is found then.
    way = _renamed(OTHER, "riverside@9")
    resolver.add("riverside@9", way)
    assert load("riverside@9") is way


def test_load_without_a_resolver_knows_only_the_presets() -> None:
    previous = list(interpreter._RESOLVER)
    set_resolver(None)
    try:
        with pytest.raises(ValueError, match="Unknown house way"):
            load("riverside@1")
    finally:
        set_resolver(previous[0] if previous else None)


def test_load_exact_gives_the_preset_while_its_digest_matches(resolver: Stored) -> None:
    preset = load("trump-plaza")
    assert load_exact("trump-plaza", preset.rules_digest) is preset
    assert load_exact("trump-plaza", None) is preset
    assert resolver.calls == []


def test_load_exact_gives_the_stored_snapshot_when_the_preset_changed(resolver: Stored) -> None:
    # A snapshot of trump-plaza's rules as they were (here: another sheet's rules).
    old = _renamed(OTHER, "trump-plaza")
    resolver.add("trump-plaza", old)
    assert old.rules_digest != load("trump-plaza").rules_digest
    assert load_exact("trump-plaza", old.rules_digest) is old


def test_load_exact_refuses_when_the_graded_rules_are_not_stored(resolver: Stored) -> None:
    with pytest.raises(HouseWayError, match="not stored"):
        load_exact("trump-plaza", "0" * 64)
    way = _renamed(OTHER, "riverside@1")
    resolver.add("riverside@1", way)
    assert load_exact("riverside@1", way.rules_digest) is way
    with pytest.raises(HouseWayError, match="not stored"):
        load_exact("riverside@1", "0" * 64)


def test_context_stores_the_digest_only_when_set() -> None:
    plain = DrillContext("trump-plaza")
    assert "house_way_digest" not in plain.as_dict()
    digest = load("trump-plaza").rules_digest
    pinned = DrillContext("trump-plaza", house_way_digest=digest)
    assert pinned.as_dict()["house_way_digest"] == digest
    assert DrillContext.from_dict(pinned.as_dict()).house_way_digest == digest


def test_a_context_stored_before_digests_grades_by_the_current_preset() -> None:
    old_json = {"house_way": "mgm-grand", "profile": "nevada", "foul_policy": "house_way",
                "focus_rules": [], "generator": 2}
    context = DrillContext.from_dict(old_json)
    assert context.house_way_digest is None
    assert context.way is load("mgm-grand")


def test_drills_grade_by_the_contexts_way_not_by_its_name(resolver: Stored) -> None:
    """A house-way question under ``riverside@1`` is graded by that version's rules."""
    custom = _renamed(OTHER, "riverside@1")
    resolver.add("riverside@1", custom)
    default = load("trump-plaza")
    cards = _differing_hand(default, custom)
    question = {"kind": "house-way", "cards": cards}
    drill = get_drill("house-way")
    context = DrillContext("riverside@1", house_way_digest=custom.rules_digest)
    custom_front = card_list(custom.set(cards).front)
    default_front = card_list(default.set(cards).front)
    assert drill.grade(question, {"front": custom_front}, context).correct
    assert not drill.grade(question, {"front": default_front}, context).correct
    # Its feedback quotes the version's sheet and names the version's ref.
    feedback = drill.feedback(question, {"front": default_front}, context)
    assert feedback.house_way == "riverside@1"


def test_every_preset_resolves_exactly_by_its_own_digest() -> None:
    for name in preset_names():
        way = load(name)
        assert load_exact(name, way.rules_digest) is way
