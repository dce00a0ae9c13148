"""Class tables: setting a hand by a look-up, checked against the interpreter.

The interpreter (``HouseWay.decide``) is the reference: the default preset's tables
must agree with it on every class (both wheel settings), the other presets' on a
sample; a house-way file whose rule data changed must not use its old table; and the
shipped files must be what the build tool writes today. The full run over every
preset is ``bench/class_table_verify.py``.
"""
from __future__ import annotations

import logging
import pickle
import random
import tomllib
from dataclasses import replace
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine.hands import Wheel, is_queen_high_pai_gow, rank2, rank5
from trainer.engine.house_way import DEFAULT_HOUSE_WAY, HouseWay, load, preset_names
from trainer.engine.house_way.class_build import build_class_table
from trainer.engine.house_way.classes import (
    all_classes,
    build_class_keys,
    class_keys,
    class_order,
    keys_to_bytes,
    table_file_name,
)
from trainer.engine.house_way.interpreter.splits import BACK_GET, FRONT_GET
from trainer.engine.house_way.simulate import deal_block, simulate
from trainer.engine.house_way.verify import verify

WHEELS = [w.value for w in Wheel]
TABLES = resources.files("trainer.engine.house_way").joinpath("tables")


@pytest.fixture(scope="module")
def classes() -> list:
    return all_classes()


def preset_data(name: str) -> dict:
    text = resources.files("trainer.engine.house_way").joinpath(
        "presets", f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def same_as_interpreter(way: HouseWay, cards, wheel: str) -> str | None:
    """Set by the table and decide by the interpreter; say how they differ, or None."""
    got = way.set(cards, wheel)
    ordered = sorted(cards)
    split, rule, _ = way.decide(ordered, wheel)
    if got.rule != rule:
        return f"rule {got.rule} != {rule}"
    if rank5(got.back, wheel) != rank5(BACK_GET[split](ordered), wheel):
        return "back value"
    if rank2(got.front) != rank2(FRONT_GET[split](ordered)):
        return "front value"
    if sorted(got.back + got.front) != ordered:
        return "not the seven cards"
    return None


def test_class_keys_name_every_class_once(classes) -> None:
    """292,253 classes, distinct keys in order, weights summing to C(53, 7)."""
    keys = class_keys()
    assert len(keys.keys) == len(classes) == 292_253
    assert list(keys.keys) == [k for k, _, _ in classes]
    assert sum(w for _, _, w in classes) == 154_143_080
    # The queen-high flags count the no-commission rule's 2,719,500 hands.
    assert sum(w for (_, _, w), q in zip(classes, keys.queen_high, strict=True) if q) \
        == 2_719_500


@pytest.mark.parametrize("wheel", WHEELS)
def test_default_table_agrees_with_the_interpreter_on_every_class(wheel, classes) -> None:
    """The interpreter decides all 292,253 classes afresh: the shipped table holds the
    same split and rule for each (byte for byte, header included), and ``set`` through
    the table (key, look-up, card mapping) returns that split and rule."""
    fresh = build_class_table(load(DEFAULT_HOUSE_WAY, table=False), wheel, workers=2)
    shipped = TABLES.joinpath(table_file_name(DEFAULT_HOUSE_WAY, wheel)).read_bytes()
    assert fresh.to_bytes() == shipped
    way = load(DEFAULT_HOUSE_WAY)
    table = way.class_table(wheel)
    assert table is not None and table.split == fresh.split and table.rule == fresh.rule
    wrong = []
    for i, (_, cards, _) in enumerate(classes):
        got = way.set(cards, wheel)
        split = fresh.split[i]
        if got.rule != fresh.rule_id(i) or got.back != BACK_GET[split](cards) or \
                got.front != FRONT_GET[split](cards):
            wrong.append(cards)
    assert wrong == []


def test_verify_reports_the_table_against_the_interpreter(monkeypatch) -> None:
    """verify sets hands from the table and counts the classes where it disagrees."""
    summary = verify(DEFAULT_HOUSE_WAY, sample=500, seed=1, workers=1)
    assert summary["class_table"]["used"] and summary["class_table"]["table_mismatches"] == 0
    way = load(DEFAULT_HOUSE_WAY)
    table = way.class_table(Wheel.SECOND_HIGHEST.value)
    assert table is not None
    # A corrupt table (every split moved on by one) must be caught.
    bad = replace(table, split=bytes((s + 1) % 21 for s in table.split))
    monkeypatch.setitem(way._tables, Wheel.SECOND_HIGHEST.value, bad)
    summary = verify(DEFAULT_HOUSE_WAY, sample=500, seed=1, workers=1)
    assert summary["class_table"]["table_mismatches"] > 0
    assert "class table" in summary["failures"][0]["failure"]
    off = verify(DEFAULT_HOUSE_WAY, sample=500, seed=1, workers=1, table=False)
    assert off["class_table"]["used"] is False and off["failed_hands"] == 0


@pytest.mark.parametrize("name", [n for n in preset_names() if n != DEFAULT_HOUSE_WAY])
def test_other_presets_tables_agree_with_the_interpreter_on_sampled_classes(
        name, classes) -> None:
    """20,000 random classes of each other preset (10,000 per wheel setting)."""
    way = load(name)
    rng = random.Random(name)
    for wheel in WHEELS:
        assert way.class_table(wheel) is not None
        for _, cards, _ in rng.sample(classes, 10_000):
            assert same_as_interpreter(way, cards, wheel) is None, (name, wheel, cards)


def test_shipped_key_file_matches_a_fresh_build() -> None:
    """The shared key file is what the tool writes now."""
    keys, flags = build_class_keys()
    assert keys_to_bytes(keys, flags) == TABLES.joinpath("classes.bin").read_bytes()


def test_every_preset_ships_both_tables_with_its_rules_digest() -> None:
    """Each preset's two tables load and carry its current rules digest."""
    for name in preset_names():
        for wheel in WHEELS:
            table = load(name).class_table(wheel)
            assert table is not None, (name, wheel)
            assert table.rules_digest == load(name).rules_digest
            assert table.rule_ids == load(name).rule_ids


def _flip_a_condition(data: dict) -> dict:
    """Make Trump Plaza's rule 3.2 split two pair Low + High too (with an ace as well)."""
    for section in data["sections"]:
        for rule in section.get("rules", []):
            if rule["id"] == "two-pair.split.always":
                rule["when"]["pair_groups"].append("low+high")
                return data
    raise AssertionError("the rule to change is not in the preset")


def test_a_changed_rule_condition_invalidates_the_table(caplog) -> None:
    """Rule data changed -> digest differs -> table rejected -> the interpreter decides."""
    original = load(DEFAULT_HOUSE_WAY)
    changed = HouseWay(_flip_a_condition(preset_data(DEFAULT_HOUSE_WAY)))
    assert changed.name == original.name
    assert changed.rules_digest != original.rules_digest
    with caplog.at_level(logging.WARNING, logger="trainer.engine.house_way.classes"):
        assert changed.class_table(Wheel.SECOND_HIGHEST.value) is None
    assert "built from other rules" in caplog.text
    reference = HouseWay(_flip_a_condition(preset_data(DEFAULT_HOUSE_WAY)), table=False)
    rng = random.Random(7)
    differs = 0
    for _ in range(3000):
        hand = rng.sample(range(53), 7)
        assert changed.set(hand) == reference.set(hand)
        differs += changed.set(hand).rule != original.set(hand).rule
    # Two pair, low and high, with an ace: now split by rule 3.2.
    hand = "Ac 3d 3h Kc Kd 7s 9h"
    assert changed.set(hand).rule != original.set(hand).rule
    assert differs > 0


def test_changed_wording_keeps_the_table() -> None:
    """Titles, sheet text and explanations are not rule data: the table still serves."""
    data = preset_data(DEFAULT_HOUSE_WAY)
    data["title"] = "Another title"
    for section in data["sections"]:
        section["title"] = "Reworded"
        for rule in section.get("rules", []):
            rule["text"] = "Reworded sheet text."
            rule["explain"] = "Reworded: {front} in front."
    way = HouseWay(data)
    assert way.rules_digest == load(DEFAULT_HOUSE_WAY).rules_digest
    assert way.digest != load(DEFAULT_HOUSE_WAY).digest
    assert way.class_table(Wheel.SECOND_HIGHEST.value) is not None
    got = way.set("Ac 3d 3h Kc Kd 7s 9h")
    assert got.rule == load(DEFAULT_HOUSE_WAY).set("Ac 3d 3h Kc Kd 7s 9h").rule
    assert got.explanation.startswith("Reworded: ")


def test_a_custom_way_without_a_table_uses_the_interpreter_until_one_is_attached() -> None:
    """A way with no shipped table: the interpreter; attach_table takes only its own rules."""
    data = preset_data("foxwoods")
    data["name"] = "my-casino"
    way = HouseWay(data)
    assert way.class_table(Wheel.LOWEST.value) is None
    hand = "Ac 3d 3h Kc Kd 7s 9h"
    before = way.set(hand, Wheel.LOWEST.value)
    with pytest.raises(ValueError, match="other rules"):
        way.attach_table(load(DEFAULT_HOUSE_WAY).class_table(Wheel.LOWEST.value))  # type: ignore[arg-type]
    # Same rule data as foxwoods: its table (as build_class_table would make it) fits.
    table = load("foxwoods").class_table(Wheel.LOWEST.value)
    assert table is not None
    way.attach_table(table)
    assert way.class_table(Wheel.LOWEST.value) is table
    assert way.set(hand, Wheel.LOWEST.value) == before


# --- the card mapping: random hands, set by the table and by the interpreter -----------

HANDS = st.lists(st.integers(0, 52), min_size=7, max_size=7, unique=True)


@st.composite
def flushy_hands(draw: st.DrawFn) -> list[int]:
    """Hands that mostly can make a flush, in any suit, with pairs across suits: one
    suit's thirteen cards, the joker, and every card of five ranks (the card mapping
    puts the flush-suit card of a pair first, which sorting by number does not do
    unless the flush suit is clubs)."""
    suit = draw(st.sampled_from([0, 1, 2, 3]))
    pool = sorted({*range(suit, 52, 4), 52, *(r * 4 + t for r in (0, 3, 9, 11, 12)
                                             for t in range(4))})
    return draw(st.lists(st.sampled_from(pool), min_size=7, max_size=7, unique=True))


FLUSHY = flushy_hands()


@settings(max_examples=300, deadline=None)
@given(hand=st.one_of(HANDS, FLUSHY), wheel=st.sampled_from(WHEELS),
       name=st.sampled_from(["trump-plaza", "foxwoods", "mgm-grand"]))
def test_table_setting_has_the_interpreters_values_rule_and_words(hand, wheel, name) -> None:
    """Table set(): same back and front values, rule and explanation as the interpreter."""
    way, reference = load(name), load(name, table=False)
    assert way.class_table(wheel) is not None and reference.class_table(wheel) is None
    assert same_as_interpreter(way, hand, wheel) is None
    got, want = way.set(hand, wheel), reference.set(hand, wheel)
    assert got.rule == want.rule and got.explanation == want.explanation
    assert (rank5(got.back, wheel), rank2(got.front)) == (rank5(want.back, wheel),
                                                         rank2(want.front))


@settings(max_examples=200, deadline=None)
@given(hand=st.one_of(HANDS, FLUSHY))
def test_class_order_keys_a_hand_like_its_class(hand) -> None:
    """A hand's key is its class's key: the rep built from the key has the same one."""
    key, ordered = class_order(hand)
    assert sorted(ordered) == sorted(hand)
    i = class_keys().index(key)
    assert class_keys().keys[i] == key


def test_explanation_is_worded_on_first_access_only() -> None:
    """Setting from the table words nothing; the words come when asked, then stay."""
    got = load(DEFAULT_HOUSE_WAY).set("As Kd Qc 9h 7s 4c 2d")
    assert got._text is None
    assert got.explanation == ("No pair, no straight or flush: the ace stays in back, "
                               "K-Q in front")
    assert got._text == got.explanation
    again = pickle.loads(pickle.dumps(load(DEFAULT_HOUSE_WAY).set("As Kd Qc 9h 7s 4c 2d")))
    assert again == got and hash(again) == hash(got)
    assert got == load(DEFAULT_HOUSE_WAY, table=False).set("As Kd Qc 9h 7s 4c 2d")


# --- simulation --------------------------------------------------------------------------

def test_simulation_counts_do_not_depend_on_the_worker_count() -> None:
    """Blocks seeded by (seed, block): the same counts with one worker or two."""
    one = simulate("trump-plaza", "trump-plaza", 70_000, 11, workers=1)
    two = simulate("trump-plaza", "trump-plaza", 70_000, 11, workers=2)
    for d in (one, two):
        d.pop("seconds")
    assert one == two
    assert one["win"] + one["push"] + one["lose"] == 70_000


def test_simulation_by_table_equals_simulation_by_interpreter() -> None:
    """The table path's counts equal those of setting every hand with the interpreter."""
    by_table = simulate("trump-plaza", "foxwoods", 2000, 4, "lowest", 1)
    by_interpreter = simulate("trump-plaza", "foxwoods", 2000, 4, "lowest", 1, table=False)
    by_table.pop("seconds"), by_interpreter.pop("seconds")
    assert by_table == by_interpreter


def test_simulation_counts_queen_high_bankers_by_the_cards() -> None:
    """The queen-high counts are the banker hands that are queen-high pai gows."""
    deals = 4000
    counts = simulate("trump-plaza", "trump-plaza", deals, 9, workers=1)
    cards = deal_block(9, 0, deals)
    assert len({tuple(sorted(r)) for r in cards.tolist()}) == deals
    assert all(len(set(r)) == 14 for r in cards.tolist())
    expected = sum(is_queen_high_pai_gow(r[7:]) for r in cards.tolist())
    got = sum(counts[f"{k}_vs_queen_high"] for k in ("win", "push", "lose"))
    assert got == expected > 0


def test_setting_hands_and_the_engine_commands_load_no_numpy() -> None:
    """numpy is the simulation's alone: set() by table and `hand set` never import it."""
    import json
    import subprocess
    import sys

    code = ("import sys, json\n"
            "from trainer.engine.house_way import load\n"
            "load().set('As Kd Qc 9h 7s 4c 2d')\n"
            "from trainer.cli import main\n"
            "try:\n    main(['hand', 'set', 'As Ah Kd Qc 7s 5h 2c'])\n"
            "except SystemExit:\n    pass\n"
            "print(json.dumps('numpy' in sys.modules), file=sys.stderr)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60, check=True)
    assert json.loads(result.stderr.strip().splitlines()[-1]) is False
    assert json.loads(result.stdout)["rule"]
