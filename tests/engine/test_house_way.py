"""The house-way interpreter: presets, the sheets' own examples, properties, errors."""
from __future__ import annotations

import json
import logging
import random
from dataclasses import FrozenInstanceError
from math import comb

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.cli import cli
from trainer.cli.engine import register
from trainer.engine.cards import DECK, parse_cards
from trainer.engine.hands import CARD_RANK, rank2, rank5
from trainer.engine.house_way import (
    DEFAULT_HOUSE_WAY,
    HouseWay,
    HouseWayError,
    HouseWaySetting,
    kinds,
    load,
    preset_names,
    rule_family,
    set_hand,
)
from trainer.engine.house_way.interpreter.splits import BACK_GET, FRONT_GET
from trainer.engine.house_way.verify import class_key, classes_of, rank_multisets

register(cli)

PRESETS = ["trump-plaza", "ballys-atlantic-city", "flamingo-hilton", "foxwoods",
           "golden-nugget", "mgm-grand"]

# The sheets' own examples, copied from house-ways/*.md: cards, front, back, rule.
SHEET_EXAMPLES = {
    "trump-plaza": [
        ("8h 8s 3d 3c Ks Td 5h", "Ks Td", "8h 8s 3d 3c 5h", "two-pair.together.king-or-ace"),
        ("5d 6c 7h 8s 9d Tc 9h", "Tc 9d", "5d 6c 7h 8s 9h", "sf.best-front.one-pair"),
        ("7c 7d 7h 2s 2d JK Kc", "JK Kc", "7c 7d 7h 2s 2d",
         "full-house.together.deuces-ace-king"),
        ("Ac Ad Ah JK Kc Qs Jd", "Ac Ad", "Ah JK Kc Qs Jd", "quads.split.aces"),
    ],
    "ballys-atlantic-city": [
        ("As JK Kd Qc Jh 7s 3d", "Kd Qc", "As JK Jh 7s 3d",
         "one-pair.standard.joker-ace-straight"),
        ("As JK 2d 3c 4h 9s Kd", "Kd 9s", "As JK 2d 3c 4h", "sf.best-front.one-pair"),
        ("9c 9d 9h 9s Qd 7c 4h", "Qd 7c", "9c 9d 9h 9s 4h", "quads.together.2-9"),
        ("Ac Ad Ah As 6h 6d Jc", "Ac Ad", "Ah As 6h 6d Jc", "quads-pair.split.aces"),
    ],
    "foxwoods": [
        ("Tc Th 5s 5d Kc 8h 3s", "5s 5d", "Tc Th Kc 8h 3s", "two-pair.split.no-ace"),
        ("Jc Js Ac 7c 6c 4c 2d", "Ac 7c", "Jc Js 6c 4c 2d",
         "one-pair.standard.ace-improves-front"),
        ("Ks Kh Kd 9c 9s 4h 4d", "9c 9s", "Ks Kh Kd 4h 4d", "trips-two-pair.high-pair-front"),
        ("As Ad Ah Ac 3s 3d 9h", "3s 3d", "As Ad Ah Ac 9h", "quads-pair.pair-front"),
    ],
    "mgm-grand": [
        ("8h 8c 6s 6d Kc Th 2s", "6s 6d", "8h 8c Kc Th 2s", "two-pair.split.no-ace"),
        ("Kh Kd Ah 9h 6h 3h 2c", "Ah 9h", "Kh Kd 6h 3h 2c",
         "one-pair.standard.ace-needed-for-sf"),
        ("6c 6d 5h 5s 4c 3d 2h", "6c 5h", "6d 5s 4c 3d 2h", "sf.best-front.low-low-no-ace"),
        ("As Ad Ah JK 8c 8d 3s", "As Ad", "Ah JK 8c 8d 3s", "quads-pair.split.aces"),
    ],
    "flamingo-hilton": [
        ("Kd Kc 4h 4s Ac 9d 7s", "Ac 9d", "Kd Kc 4h 4s 7s",
         "two-pair.together.face-and-5-or-less-ace"),
        ("5h 6c 7h 8d 9h Qh 2h", "8d 6c", "Qh 9h 7h 5h 2h", "sf.best-front.flush-default"),
        ("Js Jh Jd Jc 5s 5d 9c", "Js Jh", "Jd Jc 5s 5d 9c", "quads-pair.split.j-k"),
        ("5h 6h 7h 8h 9h 4c Ad", "Ad 4c", "5h 6h 7h 8h 9h",
         "sf.best-front.keep-straight-flush"),
    ],
    "golden-nugget": [
        ("5s 5d 4c 4h Jd 8s 2c", "Jd 8s", "5s 5d 4c 4h 2c", "two-pair.together.other"),
        ("Ts Td 9h 9c 8s 7d 6h", "Ts 9h", "Td 9c 8s 7d 6h", "sf.best-front.two-pair"),
        ("4s 5s 6s 7s 8s 3d 9c", "9c 3d", "4s 5s 6s 7s 8s",
         "sf.best-front.keep-straight-flush"),
        ("As Ah Ad Ac JK Qs Qd", "As Ah", "Ad Ac JK Qs Qd", "five-aces.split"),
    ],
}


def same_setting(got: HouseWaySetting, front: str, back: str) -> bool:
    """Grade as README section 4 does: same front value, same back value."""
    f, b = parse_cards(front), parse_cards(back)
    return (rank2(got.front) == rank2(f) and rank5(got.back) == rank5(b)
            and sorted(CARD_RANK[c] for c in got.front) == sorted(CARD_RANK[c] for c in f))


# --- presets and API -------------------------------------------------------------

def test_presets_are_the_six_sheets_default_first() -> None:
    """The six presets ship, trump-plaza (the default) first."""
    assert preset_names()[0] == DEFAULT_HOUSE_WAY == "trump-plaza"
    assert sorted(preset_names()) == sorted(PRESETS)


def test_load_is_cached_and_unknown_names_are_refused() -> None:
    """load() returns one object per preset; an unknown name is a readable ValueError."""
    assert load("foxwoods") is load("foxwoods")
    with pytest.raises(ValueError, match="Unknown house way 'nope'"):
        load("nope")


@pytest.mark.parametrize("name", PRESETS)
def test_preset_file_carries_what_the_printable_sheet_needs(name: str) -> None:
    """Each file has casino, source, rules with id, kind and text, and coverage."""
    way = load(name)
    assert way.name == name and way.casino and way.source and way.title
    assert way.rules and way.coverage and len(way.examples) == 4
    for rule in way.rules:
        assert rule.text and rule.kind in kinds.RULE_KINDS and rule.number
        assert rule.id.startswith(rule.family + ".")


@pytest.mark.parametrize("name", PRESETS)
def test_sheet_examples(name: str) -> None:
    """Each sheet's own examples set as the sheet says (house-ways/*.md, Examples)."""
    for cards, front, back, rule in SHEET_EXAMPLES[name]:
        got = load(name).set(cards)
        assert got.rule == rule, cards
        assert same_setting(got, front, back), (cards, got)


@pytest.mark.parametrize("name", PRESETS)
def test_data_file_examples_are_the_sheets(name: str) -> None:
    """The examples stored in the data file are the sheet's, for the printable sheet."""
    stored = [(e.cards, e.front, e.back, e.rule) for e in load(name).examples]
    assert stored == SHEET_EXAMPLES[name]


def test_explanation_names_the_hand_in_the_sheets_terms() -> None:
    """The explanation is one sentence naming the pairs and the decision."""
    got = set_hand("Jh Js 6c 6d 9h 4c 2s")
    assert got.rule == "two-pair.split.no-ace"
    assert got.explanation == "Two pair, jacks and sixes, no ace: split, sixes in front"
    assert set_hand("As Kd Qc 9h 7s 4c 2d").explanation == (
        "No pair, no straight or flush: the ace stays in back, K-Q in front")


def test_setting_is_a_frozen_dataclass_with_json_form() -> None:
    """HouseWaySetting is immutable and prints canonical cards."""
    got = set_hand("as kd qc 9h 7s 4c 2d")
    with pytest.raises(FrozenInstanceError):
        got.rule = "x"  # type: ignore[misc]
    assert got.as_dict() == {"back": ["As", "9h", "7s", "4c", "2d"], "front": ["Kd", "Qc"],
                             "rule": "pai-gow.standard",
                             "explanation": got.explanation}
    assert len(got.back) == 5 and len(got.front) == 2


def test_rule_family_is_the_first_part_of_the_id() -> None:
    """Drills group rules by family."""
    assert rule_family("two-pair.together.king-or-ace") == "two-pair"
    assert rule_family("sf.best-front.no-pair.fallback") == "sf"
    assert set_hand("8h 8s 3d 3c Ks Td 5h").family == "two-pair"


@pytest.mark.parametrize("bad, message", [
    ("As Kd Qc 9h 7s 4c", "7 cards; 6 were given"),
    ("As Kd Qc 9h 7s 4c 2d 3d", "7 cards; 8 were given"),
    ("As As Qc 9h 7s 4c 2d", "As appears twice"),
    ("As Kd Qc 9h 7s 4c Zz", "Zz is not a card"),
    ([48, 48, 1, 2, 3, 4, 5], "As appears twice"),
    ([1, 2, 3, 4, 5, 6, 99], "99 is not a card"),
    ([1, 2, 3, 4, 5, 6], "6 were given"),
])
def test_bad_input_is_a_readable_value_error(bad, message: str) -> None:
    """Not seven cards, or a card twice, raises ValueError naming the problem."""
    with pytest.raises(ValueError, match=message):
        set_hand(bad)


def test_cards_may_be_text_strings_or_ints() -> None:
    """Input in any accepted notation gives the same setting."""
    text = "Jh Js 6c 6d 9h 4c 2s"
    as_ints = [int(c) for c in parse_cards(text)]
    assert set_hand(text) == set_hand(text.split()) == set_hand(as_ints) == \
        set_hand(tuple(reversed(as_ints)))


def test_unknown_wheel_is_refused() -> None:
    """The wheel setting is second_highest or lowest."""
    with pytest.raises(ValueError, match="wheel"):
        set_hand("As Kd Qc 9h 7s 4c 2d", wheel="middle")


def test_wheel_setting_values_the_back() -> None:
    """The best front comes first under either wheel; the wheel values the back."""
    hand = "As 2d 3c 4h 5s 6d Kc"
    for wheel in ("second_highest", "lowest"):
        assert same_setting(set_hand(hand, wheel=wheel), "As Kc", "2d 3c 4h 5s 6d")
    joker = "JK 2d 3c 4h 5s 9c Kd"
    high, low = set_hand(joker), set_hand(joker, wheel="lowest")
    assert (high.front, high.back) == (low.front, low.back)
    assert "five-high straight (the wheel)" in high.explanation   # joker as the ace
    assert "six-high straight" in low.explanation                 # joker as the 6


def test_house_way_foul_policy_resets_a_fouled_hand() -> None:
    """set_hand is the dealer's reset: the player's seven cards, set the house way."""
    fouled_back, fouled_front = parse_cards("Kh Jd 9c 7s 3d"), parse_cards("Kd Qc")
    got = set_hand(fouled_back + fouled_front)
    assert rank5(got.back) >= rank2(got.front)
    assert got.rule == "one-pair.standard"


# --- properties -------------------------------------------------------------------

hands = st.lists(st.integers(0, 52), min_size=7, max_size=7, unique=True)


@pytest.mark.parametrize("name", PRESETS)
@settings(max_examples=150, deadline=None)
@given(seven=hands, wheel=st.sampled_from(["second_highest", "lowest"]))
def test_never_fouls_and_uses_all_seven_cards(name: str, seven: list[int], wheel: str):
    """README section 7: a house way never fouls and always uses all seven cards."""
    got = load(name).set(seven, wheel)
    assert sorted(got.back + got.front) == sorted(seven)
    assert rank5(got.back, wheel) >= rank2(got.front)
    assert got.rule in load(name).rule_ids


@pytest.mark.parametrize("name", PRESETS)
@settings(max_examples=100, deadline=None)
@given(seven=hands, data=st.data())
def test_setting_does_not_depend_on_card_order(name: str, seven: list[int], data):
    """The same seven cards in any order give the same setting."""
    shuffled = data.draw(st.permutations(seven))
    assert load(name).set(seven) == load(name).set(shuffled)


@pytest.mark.parametrize("name", PRESETS)
@settings(max_examples=100, deadline=None)
@given(seven=hands)
def test_cached_answer_matches_the_reference_path(name: str, seven: list[int]):
    """The rank-multiset cache gives what the uncached interpreter gives."""
    way = load(name)
    got = way.set(seven)
    cards = sorted(DECK[c] for c in seven)
    split, rule, _ = way.decide(cards)
    assert rule == got.rule
    assert rank5(BACK_GET[split](cards)) == rank5(got.back)
    assert rank2(FRONT_GET[split](cards)) == rank2(got.front)


# --- the exhaustive check's classes --------------------------------------------------

def test_classes_weigh_exactly_all_hands() -> None:
    """The verify classes' weights add up to C(53, 7) = 154,143,080 hands."""
    total = sum(w for counts, joker in rank_multisets() for _, w in classes_of(counts, joker))
    assert total == comb(53, 7) == 154_143_080


@pytest.mark.parametrize("name", PRESETS)
def test_a_hand_sets_like_its_class_representative(name: str) -> None:
    """Suit symmetry: every hand gets its class representative's rule and values."""
    way = load(name)
    rng = random.Random(7)
    reps = {}
    for _ in range(300):
        hand = rng.sample(range(53), 7)
        key = class_key(hand)
        counts, joker, _ = key
        if (counts, joker) not in reps:
            reps[(counts, joker)] = {class_key(c): c for c, _ in classes_of(counts, joker)}
        rep = reps[(counts, joker)][key]
        a, b = way.set(hand), way.set(rep)
        assert a.rule == b.rule
        assert (rank5(a.back), rank2(a.front)) == (rank5(b.back), rank2(b.front))


# --- the section 7 fallback and data errors ---------------------------------------------

def _trump_text() -> str:
    from importlib import resources
    return resources.files("trainer.engine.house_way").joinpath(
        "presets", "trump-plaza.toml").read_text(encoding="utf-8")


def test_a_fouling_rule_falls_back_and_logs_a_sheet_error(monkeypatch, caplog) -> None:
    """README section 7: a setting that would foul is replaced, under <id>.fallback."""
    bad = kinds.Kind("one-pair.standard", frozenset({"one-pair"}),
                     lambda s: (s.pairs[0], s.pairs[0]), "the pair", "the rest")
    monkeypatch.setitem(kinds.RULE_KINDS, "one-pair.standard", bad)
    # The interpreter: the shipped class table holds the real kind's answers.
    way = HouseWay.from_toml(_trump_text(), table=False)
    with caplog.at_level(logging.ERROR):
        got = way.set("Kh Kd Jd 9c 7s 3d 2c")
    assert got.rule == "one-pair.standard.fallback"
    assert "fouls" in caplog.text
    # Step 1: the best legal front no better than K-K. K-J would foul (back
    # K-9-7-3-2); K-9 leaves K-J-7-3-2 in back, which is legal.
    assert rank5(got.back) >= rank2(got.front)
    assert same_setting(got, "Kd 9c", "Kh Jd 7s 3d 2c")


def test_a_hand_no_rule_decides_is_an_error() -> None:
    """A sheet that leaves a hand undecided raises HouseWayError (verify lists it)."""
    text = _trump_text().split("# 2 ---")[0]
    text = text.replace('name = "trump-plaza"', 'name = "partial"')
    way = HouseWay.from_toml(text)
    assert way.set("As Kd Qc 9h 7s 4c 2d").rule == "pai-gow.standard"
    with pytest.raises(HouseWayError, match="no rule decides"):
        way.set("9s 9h Kd Qc 7h 4c 2d")


@pytest.mark.parametrize("change, message", [
    (('id = "pai-gow.standard"', 'id = "pai-gow.sideways"'), "unknown rule kind"),
    (('id = "two-pair.split.always"', 'id = "two-pair.split.aces"'), "used twice"),
    (('when = { high_pair = "A" }', 'when = { high_pairs = "A" }'), "unknown condition"),
    (('when = { quads = "2-6" }', 'when = { quads = "6-2" }'), "low to high"),
    (('pair_groups = ["high+high", "medium+high"]', 'pair_groups = ["high+giant"]'),
     "rank groups"),
    (('when = { shapes = ["three-pair"] }', 'when = { shapes = ["three-pair", "trips"] }'),
     "cannot set a trips hand"),
    (('explain = "Three pair: the', 'explain = "{nope} Three pair: the'),
     "explanation template"),
])
def test_data_errors_are_caught_when_a_file_is_loaded(change, message: str) -> None:
    """A data file naming an unknown kind, condition or group fails to load, clearly."""
    old, new = change
    text = _trump_text()
    assert old in text
    with pytest.raises(ValueError, match=message):
        HouseWay.from_toml(text.replace(old, new, 1))


def test_a_new_casino_is_a_data_file() -> None:
    """A sheet using existing kinds loads from TOML alone (here: Trump Plaza, renamed)."""
    way = HouseWay.from_toml(_trump_text().replace('name = "trump-plaza"',
                                                   'name = "new-casino"'))
    assert way.name == "new-casino"
    assert way.set("8h 8s 3d 3c Ks Td 5h").rule == "two-pair.together.king-or-ace"


# --- command line -----------------------------------------------------------------------

@pytest.fixture()
def run():
    runner = CliRunner()
    return lambda *args, stdin=None: runner.invoke(cli, list(args), input=stdin)


def test_cli_hand_set_prints_back_front_rule_explanation(run) -> None:
    """trainer hand set: one JSON answer in canonical notation."""
    r = run("hand", "set", "--house-way", "foxwoods", "tc th 5s 5d kc 8h 3s")
    assert r.exit_code == 0
    answer = json.loads(r.stdout)
    assert answer["rule"] == "two-pair.split.no-ace"
    assert sorted(answer["front"]) == ["5d", "5s"]
    assert sorted(answer["back"]) == sorted(["Tc", "Th", "Kc", "8h", "3s"])
    assert answer["explanation"]


@pytest.mark.parametrize("args, fragment", [
    (("hand", "set", "As Kd Qc 9h 7s 4c"), "6 were given"),
    (("hand", "set", "As As Qc 9h 7s 4c 2d"), "As appears twice"),
    (("hand", "set", "--house-way", "nope", "As Kd Qc 9h 7s 4c 2d"), "Unknown house way"),
    (("house-way", "verify", "nope"), "Unknown house way"),
    (("house-way", "simulate", "trump-plaza"), "Give the number of hands"),
    (("house-way", "simulate", "trump-plaza", "--hands", "x"), "not a whole number"),
])
def test_cli_bad_input_exits_2_with_one_line(run, args, fragment: str) -> None:
    """Bad input: exit status 2 and a one-line error."""
    r = run(*args)
    assert r.exit_code == 2
    assert fragment in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_cli_hand_set_jsonl_streams_and_reports_bad_lines(run) -> None:
    """--jsonl: one answer per line; a bad line answers an error and the rest go on."""
    stdin = 'As Kd Qc 9h 7s 4c 2d\nAs As\n["Jh","Js","6c","6d","9h","4c","2s"]\n'
    r = run("hand", "set", "--jsonl", stdin=stdin)
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert r.exit_code == 2
    assert lines[0]["rule"] == "pai-gow.standard"
    assert "error" in lines[1]
    assert lines[2]["rule"] == "two-pair.split.no-ace"


def test_cli_house_way_list(run) -> None:
    """house-way list: the presets with casino name and rule count."""
    r = run("house-way", "list")
    presets = json.loads(r.stdout)["presets"]
    assert presets[0]["name"] == "trump-plaza"
    assert {p["name"]: p["rules"] for p in presets}["trump-plaza"] == 28


def test_cli_verify_sample_finds_no_failure(run) -> None:
    """house-way verify on a small sample: no foul, all cards, deterministic."""
    r = run("house-way", "verify", "mgm-grand", "--sample", "3000", "--seed", "5",
            "--workers", "1")
    summary = json.loads(r.stdout)
    assert r.exit_code == 0
    assert summary["hands_checked"] == 3000 and summary["failed_hands"] == 0
    assert sum(summary["per_rule"].values()) == 3000


def test_cli_simulate_reports_rates_and_edge(run) -> None:
    """house-way simulate: rates that sum to one and an edge inside its interval."""
    r = run("house-way", "simulate", "trump-plaza", "--hands", "2000", "--seed", "3",
            "--workers", "1")
    out = json.loads(r.stdout)
    assert r.exit_code == 0
    assert abs(out["player_win"] + out["push"] + out["banker_win"] - 1) < 1e-5
    lo, hi = out["house_edge_ci95"]
    assert lo <= out["house_edge"] <= hi
