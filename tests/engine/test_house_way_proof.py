"""Proving a house way (issue 18): the check, what a way changes, and its edge.

The full check of the default preset runs here (every class, both wheels, two
workers; about 8 s on an idle machine); the broken ways are checked on the classes
their change touches (``classes=``). ``bench/house_way_check.py`` runs the full check
of the changed way, its diff and a 1,000,000-deal paired simulation (figures in
docs/house-ways.md). Expected counts are worked out here by counting cards, not by
the code under test.
"""
from __future__ import annotations

import copy
import tomllib
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from importlib import resources
from itertools import pairwise
from math import comb, sqrt

import pytest

from trainer.engine.cards import parse_cards
from trainer.engine.hands import CARD_RANK, Wheel, rank2, rank5
from trainer.engine.house_way import DEFAULT_HOUSE_WAY, HouseWay, load, preset_names, proof
from trainer.engine.house_way import kinds as K
from trainer.engine.house_way.classes import FALLBACK_BIT, ClassTable, all_classes
from trainer.engine.house_way.interpreter.splits import BACK_GET, FRONT_GET
from trainer.engine.house_way.proof import check_way, diff_ways, wheel_matters
from trainer.engine.house_way.simulate import paired_simulate, simulate
from trainer.engine.house_way_edge import edge_change
from trainer.engine.profiles import get_profile

SECOND, LOWEST = Wheel.SECOND_HIGHEST.value, Wheel.LOWEST.value
ALL_HANDS = 154_143_080
MEDIUM = range(7, 11)


# --- fixtures and ways ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def every():
    """Every class (computed once here; ``check_way`` is pointed at this list)."""
    classes = all_classes()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(proof, "all_classes", lambda: classes)
        yield classes


def shape(cards) -> K.Shape:
    return K.shape_of(tuple(CARD_RANK[c] for c in cards))


@pytest.fixture(scope="module")
def shapes(every) -> list[str]:
    return [shape(cards).name for _, cards, _ in every]


def preset_data(name: str = DEFAULT_HOUSE_WAY) -> dict:
    text = resources.files("trainer.engine.house_way").joinpath(
        "presets", f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def section(data: dict, number: str) -> dict:
    return next(s for s in data["sections"] if s["number"] == number)


def rule_at(data: dict, rule_id: str) -> tuple[list, int]:
    for s in data["sections"]:
        for i, r in enumerate(s["rules"]):
            if r["id"] == rule_id:
                return s["rules"], i
    raise KeyError(rule_id)


def medium_ace_split_data() -> dict:
    """The issue's browser scenario: Trump Plaza, with two pair Medium + Medium and an ace
    split (rule 3.3 keeps Low + High with an ace together; a new rule before it splits
    Medium + Medium with an ace)."""
    data = preset_data()
    data["name"] = "trump-plaza-medium-ace-split"
    rules, i = rule_at(data, "two-pair.together.ace")
    rules[i]["when"] = {"pair_groups": ["low+high"], "ace": True}
    rules.insert(i, {"number": "3.3", "id": "two-pair.split.medium-ace",
                     "text": "Medium + Medium with an ace singleton: split.",
                     "when": {"pair_groups": ["medium+medium"], "ace": True},
                     "explain": "Two pair, {high_pair} and {low_pair}, Medium with Medium "
                                "and an ace: split, {low_pair} in front"})
    return data


def indices_of(shapes: list[str], *names: str) -> list[int]:
    return [i for i, s in enumerate(shapes) if s in names]


def table_for_two_pair_change(way: HouseWay, base: HouseWay, wheel: str, every,
                              shapes) -> ClassTable:
    """``way``'s class table when it differs from ``base`` only in two-pair rules: the
    interpreter decides every two-pair class, the rest are ``base``'s answers (the
    interpreter offers a two-pair rule to no other shape). A full check of the way is
    ``bench/house_way_check.py``'s."""
    changed = {r.id for r in way.rules} ^ {r.id for r in base.rules}
    changed |= {r.id for r in way.rules if r.id in base._by_id and r.when != base.rule(r.id).when}
    assert changed and all(way.rule(r).shapes == {"two-pair"} for r in changed
                           if r in way._by_id)
    base_table = base.class_table(wheel)
    assert base_table is not None
    index = {rid: i for i, rid in enumerate(way.rule_ids)}
    split, rule = bytearray(base_table.split), bytearray(len(every))
    for i, (_, cards, _) in enumerate(every):
        if shapes[i] == "two-pair":
            split[i], rid, _ = way.decide(cards, wheel)
        else:
            rid = base_table.rule_id(i)
        plain = rid.removesuffix(".fallback")
        rule[i] = index[plain] | (FALLBACK_BIT if plain != rid else 0)
    return ClassTable(way.name, wheel, way.rules_digest, way.rule_ids, base_table.keys,
                      bytes(split), bytes(rule))


@pytest.fixture(scope="module")
def medium_ace_way(every, shapes) -> HouseWay:
    way = HouseWay(medium_ace_split_data())
    way.attach_table(table_for_two_pair_change(way, load(DEFAULT_HOUSE_WAY), SECOND,
                                               every, shapes))
    return way


def medium_medium_ace_hands() -> int:
    """Two pair, both pairs 7 to 10, an ace singleton (a real ace or the joker), and two
    more singletons of other ranks (not an ace: an ace with the joker is a pair)."""
    pairs = comb(4, 2) * comb(4, 2) ** 2
    ace = 4 + 1
    others = comb(13 - 2 - 1, 2) * 4 ** 2
    return pairs * ace * others


# --- the check: the default preset, every hand ----------------------------------------------

@pytest.fixture(scope="module")
def trump_check(every):
    calls: list[tuple[int, int]] = []
    result = check_way(load(DEFAULT_HOUSE_WAY, table=False),
                       progress=lambda done, total: calls.append((done, total)), workers=2)
    return result, calls


def test_check_trump_plaza_every_hand_no_foul_no_undecided(trump_check, every) -> None:
    """All 292,253 classes, 154,143,080 hands, under both wheels: nothing fouls or is left
    undecided, every rule is reached, and each rule's hands are the shipped table's."""
    report = trump_check[0].report
    assert report["complete"] and report["classes"] == 292_253
    assert report["hands"] == ALL_HANDS == comb(53, 7)
    assert report["fouled_hands"] == report["undecided_hands"] == 0
    assert report["fouls"] == report["undecided"] == []
    assert report["never_reached"] == report["shadowed"] == []
    assert sum(report["per_rule"].values()) == sum(report["per_rule_lowest"].values()) \
        == ALL_HANDS
    way = load(DEFAULT_HOUSE_WAY)
    for wheel, key in ((SECOND, "per_rule"), (LOWEST, "per_rule_lowest")):
        table = way.class_table(wheel)
        assert table is not None
        shipped: Counter[str] = Counter()
        for i, (_, _, weight) in enumerate(every):
            shipped[table.rule_id(i)] += weight
        assert report[key] == {r: shipped[r] for r in way.rule_ids}
    assert report["rules_digest"] == way.rules_digest


def test_check_tables_equal_the_shipped_tables_so_the_lowest_wheel_shortcut_holds(
        trump_check) -> None:
    """The check's tables (the lowest wheel decided only where A-2-3-4-5 can be made)
    are byte for byte the shipped ones, which the interpreter decided on every class
    (tests/engine/test_class_tables.py rebuilds them), and ``attach_table`` takes them."""
    result = trump_check[0]
    assert set(result.tables) == {SECOND, LOWEST}
    assert result.report["by_wheel"][LOWEST]["classes_decided"] < 292_253 // 10
    way = load(DEFAULT_HOUSE_WAY)
    fresh = HouseWay(preset_data(), table=False)
    for wheel, table in result.tables.items():
        shipped = way.class_table(wheel)
        assert shipped is not None and table.to_bytes() == shipped.to_bytes()
        fresh.attach_table(table)
        assert fresh.set("Ah Ad 7c 7s Kd 4h 2c", wheel).rule == "two-pair.split.aces"


def test_check_progress_is_reported_every_two_percent(trump_check) -> None:
    """progress(done, total) is called in the parent, never going back, at least every
    2% of the work, ending at the total. (The last call may jump by a tenth: the budget
    of the third pass, which tests the conditions of rules that decide no hand; the
    default preset has none.)"""
    calls = trump_check[1]
    assert calls and all(total == calls[0][1] for _, total in calls)
    total = calls[0][1]
    done = [0] + [d for d, _ in calls]
    assert done == sorted(done) and done[-1] == total
    assert max(b - a for a, b in pairwise(done[:-1])) <= total * 0.02
    assert total - done[-2] <= total // 10 + 1


def test_lowest_wheel_shortcut_every_preset_every_class(every, trump_check) -> None:
    """Where no five cards can make A-2-3-4-5, every preset's shipped tables (the
    interpreter's full decide under each wheel) give the same split and rule under both
    wheels, so the check decides only the other classes under the lowest wheel.

    (In fact no preset's answer depends on the wheel anywhere: with today's rule kinds,
    backs are compared only between settings with the same front, which hold the same
    ranks. The pass stays, cheaply, for kinds that may compare more.)"""
    matters = [wheel_matters(cards) for _, cards, _ in every]
    for name in preset_names():
        second, lowest = load(name).class_table(SECOND), load(name).class_table(LOWEST)
        assert second is not None and lowest is not None
        for i, m in enumerate(matters):
            if not m:
                assert second.split[i] == lowest.split[i] and \
                    second.rule[i] == lowest.rule[i], (name, every[i][1])
    decided = trump_check[0].report["by_wheel"][LOWEST]["classes_decided"]
    assert decided == sum(matters) > 0


def test_wheel_matters_only_with_five_wheel_ranks() -> None:
    """A-2-3-4-5 needs five of its ranks, the joker filling one."""
    assert wheel_matters(parse_cards("Ah 2c 3d 4s 5h Kd Qc"))
    assert wheel_matters(parse_cards("JK 2c 3d 4s 5h Kd Qc"))
    assert wheel_matters(parse_cards("Ah 2c 3d 4s JK Kd Qc"))
    assert not wheel_matters(parse_cards("Ah 2c 3d 4s 6h Kd Qc"))
    assert not wheel_matters(parse_cards("Ah 2c 3d JK 9h Kd Qc"))
    assert not wheel_matters(parse_cards("Ah Ac 2d 2s 3h 3d 4c"))


# --- the check: broken ways, on the classes they touch ---------------------------------------

def test_check_same_report_with_one_or_two_workers(every) -> None:
    """A deterministic subset (every 29th class): the same report whatever the workers,
    its hands the subset's weights, and the rules' counts those of the shipped table."""
    chosen = slice(0, None, 29)
    way = load(DEFAULT_HOUSE_WAY)
    one = check_way(way, workers=1, classes=chosen).report
    two = check_way(way, workers=2, classes=chosen).report
    del one["seconds"], two["seconds"]
    assert one == two
    assert not one["complete"] and check_way(way, classes=chosen).tables == {}
    assert one["hands"] == sum(w for _, _, w in every[chosen])
    table = way.class_table(SECOND)
    assert table is not None
    shipped: Counter[str] = Counter()
    for i in range(len(every))[chosen]:
        shipped[table.rule_id(i)] += every[i][2]
    assert {r: h for r, h in one["per_rule"].items() if h} == dict(shipped)


@pytest.fixture
def higher_pair_front_kind(monkeypatch):
    """A rule kind that puts the higher pair of a two pair in front. No shipped kind can
    foul (each was tried on every class of its shapes when this test was written), so a
    fouling rule needs a kind made for the test."""
    kind = K.Kind("two-pair.high-front", frozenset({"two-pair"}),
                  lambda s: (s.pairs[0], s.pairs[0]), "higher pair", "lower pair + three")
    monkeypatch.setitem(K.RULE_KINDS, kind.name, kind)
    return kind


def test_check_reports_a_fouling_rule_with_examples(every, shapes,
                                                    higher_pair_front_kind) -> None:
    """Two pair Low + Low, higher pair in front: every such hand fouls (the back keeps
    only the lower pair); the report counts them, names the rule and shows hands."""
    data = preset_data()
    data["name"] = "fouls"
    section(data, "3")["rules"].insert(0, {
        "id": "two-pair.high-front.low", "text": "Low + Low: higher pair in front.",
        "when": {"pair_groups": ["low+low"]}, "explain": "Higher pair, {high_pair}, in front"})
    report = check_way(HouseWay(data), workers=2,
                       classes=indices_of(shapes, "two-pair")).report
    # Two pairs of 2-6; three singletons of three other ranks, the ace's place taken by
    # one of four aces or the joker.
    low_low = comb(5, 2) * 6 * 6 * (comb(10, 3) * 4 ** 3 + comb(10, 2) * 4 ** 2 * 5)
    assert report["fouled_hands"] == low_low == 4_060_800
    assert report["fouls_by_rule"] == {"two-pair.high-front.low": low_low}
    assert report["by_wheel"][LOWEST]["fouled_hands"] == low_low
    assert report["per_rule"]["two-pair.high-front.low.fallback"] == low_low
    assert len(report["fouls"]) == proof.MAX_EXAMPLES
    for example in report["fouls"]:
        cards = parse_cards(example["cards"])
        low, high = shape(cards).pairs[1], shape(cards).pairs[0]
        assert high <= 6 and example["rule"] == "two-pair.high-front.low"
        front, back = parse_cards(example["front"]), parse_cards(example["back"])
        assert [CARD_RANK[c] for c in front] == [high, high]
        assert rank5(back, example["wheel"]) < rank2(front)        # it fouls
        assert sorted(front + back) == sorted(cards)
        played_front = parse_cards(example["fallback_front"])
        played_back = parse_cards(example["fallback_back"])
        assert rank5(played_back, example["wheel"]) >= rank2(played_front)
        assert low <= 6


def test_check_reports_undecided_hands_of_a_section_without_rules(every, shapes) -> None:
    """Section 12's rules removed: the 1,128 five-aces hands (four aces, the joker and two
    of the 48 other cards) are decided by no rule, under either wheel; no tables."""
    data = preset_data()
    data["name"] = "no-five-aces"
    section(data, "12")["rules"] = []
    result = check_way(HouseWay(data), classes=indices_of(shapes, "five-aces", "quads"))
    report = result.report
    assert report["undecided_hands"] == comb(48, 2) == 1_128
    assert report["by_wheel"][SECOND]["undecided_hands"] == 1_128
    assert report["by_wheel"][LOWEST]["undecided_hands"] == 1_128
    assert report["fouled_hands"] == 0 and result.tables == {}
    assert report["undecided"]
    for example in report["undecided"]:
        cards = parse_cards(example["cards"])
        assert sum(CARD_RANK[c] == 14 for c in cards) == 5 and 52 in cards
        assert "no rule decides" in example["reason"]


def test_check_reports_a_rule_that_cannot_place_the_cards_as_undecided(shapes) -> None:
    """Rule 12.1 (kings in front) without its condition: a five-aces hand with no pair
    (1,056 hands) has no pair for the front, which the check reports, not crashes on."""
    data = preset_data()
    data["name"] = "kings-always"
    rules, i = rule_at(data, "five-aces.kings-front")
    del rules[i]["when"]
    report = check_way(HouseWay(data), classes=indices_of(shapes, "five-aces")).report
    assert report["undecided_hands"] == comb(12, 2) * 4 * 4 == 1_056
    assert all("cannot place" in e["reason"] for e in report["undecided"])


def test_check_reports_a_rule_after_an_identical_rule_as_shadowed(shapes) -> None:
    """A copy of rule 3.2 right after it decides nothing: shadowed by 3.2, on 3.2's hands."""
    data = preset_data()
    data["name"] = "shadowed"
    rules, i = rule_at(data, "two-pair.split.always")
    again = copy.deepcopy(rules[i])
    again["id"] = "two-pair.split.always-again"
    rules.insert(i + 1, again)
    way = HouseWay(data)
    report = check_way(way, workers=2, classes=indices_of(shapes, "two-pair")).report
    assert report["per_rule"]["two-pair.split.always-again"] == 0
    shadowed = {s["rule"]: s for s in report["shadowed"]}
    assert set(shadowed) == {"two-pair.split.always-again"}
    entry = shadowed["two-pair.split.always-again"]
    assert entry["by"] == ["two-pair.split.always"]
    assert entry["hands"] == entry["by_hands"]["two-pair.split.always"] \
        == report["per_rule"]["two-pair.split.always"] > 0
    example = parse_cards(entry["example"]["cards"])
    assert entry["example"]["rule"] == "two-pair.split.always"
    assert shape(example).pairs[0] in range(11, 14)           # a High pair with High/Medium
    # The rules of other shapes decide nothing in this subset and hold on none of it.
    others = {r.id for r in way.rules if "two-pair" not in r.shapes}
    assert set(report["never_reached"]) == others


def test_check_reports_a_condition_that_holds_on_no_hand_as_never_reached(shapes) -> None:
    """A two-pair rule whose higher pair must be 2-6 and lower pair J-K holds nowhere."""
    data = preset_data()
    data["name"] = "never"
    section(data, "3")["rules"].insert(0, {
        "id": "two-pair.split.never", "text": "Never.",
        "when": {"high_pair": "2-6", "low_pair": "J-K"}, "explain": "Never"})
    report = check_way(HouseWay(data), classes=indices_of(shapes, "two-pair")).report
    assert "two-pair.split.never" in report["never_reached"]
    assert "two-pair.split.never" not in {s["rule"] for s in report["shadowed"]}
    assert report["per_rule"]["two-pair.split.never"] == 0
    assert report["undecided_hands"] == report["fouled_hands"] == 0


# --- what a way changes -----------------------------------------------------------------------

def test_diff_of_a_way_with_itself_is_zero() -> None:
    way = load(DEFAULT_HOUSE_WAY)
    diff = diff_ways(way, way)
    assert diff["changed_hands"] == 0 and diff["share"] == 0 and diff["per_rule"] == []
    assert diff["hands"] == ALL_HANDS and diff["share_text"] == "0.000%"


def test_diff_medium_medium_ace_split_changes_exactly_those_hands(medium_ace_way) -> None:
    """Trump Plaza against the browser scenario's change: exactly the two pair Medium +
    Medium hands with an ace singleton set differently, all by the new rule, each example
    such a hand (together before, split now)."""
    diff = diff_ways(load(DEFAULT_HOUSE_WAY), medium_ace_way, examples=5)
    expected = medium_medium_ace_hands()
    assert diff["changed_hands"] == expected == 777_600
    assert diff["share"] == pytest.approx(expected / ALL_HANDS)
    assert diff["share_text"] == f"{100 * expected / ALL_HANDS:.3f}%" == "0.504%"
    assert [e["rule"] for e in diff["per_rule"]] == ["two-pair.split.medium-ace"]
    entry = diff["per_rule"][0]
    assert entry["hands"] == expected and len(entry["examples"]) == 5
    for example in entry["examples"]:
        cards = parse_cards(example["cards"])
        hand = shape(cards)
        assert hand.name == "two-pair" and hand.ace
        assert all(p in MEDIUM for p in hand.pairs)
        assert example["old_rule"] == "two-pair.together.ace"
        new_front = [CARD_RANK[c] for c in parse_cards(example["new_front"])]
        old_front = [CARD_RANK[c] for c in parse_cards(example["old_front"])]
        assert new_front == [hand.pairs[1]] * 2 and 14 in old_front
    back = diff_ways(medium_ace_way, load(DEFAULT_HOUSE_WAY))
    assert back["changed_hands"] == expected
    assert [e["rule"] for e in back["per_rule"]] == ["two-pair.together.ace"]


def test_diff_counts_values_not_card_choices(every) -> None:
    """A table that plays another split of the same value (another suit of a rank, say)
    changes no hand: settings are compared by value (rules.md §16)."""
    way = load(DEFAULT_HOUSE_WAY)
    table = way.class_table(SECOND)
    assert table is not None
    split = bytearray(table.split)
    moved = 0
    for i, (_, cards, _) in enumerate(every[:20_000]):
        s = table.split[i]
        value = (rank5(BACK_GET[s](cards), SECOND), rank2(FRONT_GET[s](cards)))
        for other in range(21):
            if other != s and (rank5(BACK_GET[other](cards), SECOND),
                               rank2(FRONT_GET[other](cards))) == value:
                split[i] = other
                moved += 1
                break
    twin = HouseWay(preset_data(), table=False)
    twin.attach_table(replace(table, split=bytes(split)))
    assert moved > 500
    assert diff_ways(way, twin)["changed_hands"] == 0


def test_diff_needs_both_tables() -> None:
    data = preset_data()
    data["name"] = "no-table-yet"
    with pytest.raises(ValueError, match="no class table"):
        diff_ways(load(DEFAULT_HOUSE_WAY), HouseWay(data))


# --- the paired simulation and the edge --------------------------------------------------------

def test_paired_simulate_same_counts_with_one_or_two_workers(medium_ace_way) -> None:
    """100,000 deals: the counts depend on the seed, not on the number of workers; with
    the changed way some deals turn out differently."""
    way = load(DEFAULT_HOUSE_WAY)
    one = paired_simulate(way, way, medium_ace_way, SECOND, 100_000, 7, workers=1)
    two = paired_simulate(way, way, medium_ace_way, SECOND, 100_000, 7, workers=2)
    assert one["joint"] == two["joint"] and len(one["joint"]) == 18
    assert sum(r["deals"] for r in one["joint"]) == 100_000
    assert sum(r["deals"] for r in one["joint"] if r["old"] != r["new"]) > 0
    other_seed = paired_simulate(way, way, medium_ace_way, SECOND, 100_000, 8)
    assert other_seed["joint"] != one["joint"]


def test_paired_simulate_plays_the_deals_of_simulate() -> None:
    """Old and new the same way: every deal the same outcome twice, and the counts are
    ``simulate``'s for the same seed."""
    way = load(DEFAULT_HOUSE_WAY)
    calls: list[int] = []
    paired = paired_simulate(way, way, way, SECOND, 70_000, 3,
                             progress=lambda done, total: calls.append(done))
    assert calls == [32_768, 65_536, 70_000]
    assert all(r["deals"] == 0 for r in paired["joint"] if r["old"] != r["new"])
    plain = simulate(DEFAULT_HOUSE_WAY, DEFAULT_HOUSE_WAY, 70_000, 3, SECOND, workers=1)
    for key in ("old_counts", "new_counts"):
        assert all(paired[key][k] == plain[k] for k in paired[key])


def test_paired_simulate_without_a_table_plays_by_the_interpreter(medium_ace_way) -> None:
    """A way with no class table yet is set hand by hand: the same counts."""
    way = load(DEFAULT_HOUSE_WAY)
    bare = HouseWay(medium_ace_split_data(), table=False)
    assert bare.class_table(SECOND) is None
    by_table = paired_simulate(way, way, medium_ace_way, SECOND, 3_000, 11)
    by_hand = paired_simulate(way, way, bare, SECOND, 3_000, 11)
    assert by_table["joint"] == by_hand["joint"]


def test_edge_change_is_exactly_zero_for_the_same_way() -> None:
    way = load(DEFAULT_HOUSE_WAY)
    counts = paired_simulate(way, way, way, SECOND, 40_000, 5)
    for profile in ("nevada", "no-commission"):
        edge = edge_change(counts, profile)
        assert edge["change_points"] == 0 and edge["change_ci95_points"] == [0, 0]
        assert edge["old_edge"] == edge["new_edge"] and edge["changed_deals"] == 0
        assert edge["direction"] == "same" and edge["change_exact"] == "0/1"


def counts_of(rows: list[tuple[str, str, bool, int]], wheel: str = SECOND) -> dict:
    return {"hands": sum(r[3] for r in rows), "wheel": wheel,
            "joint": [{"old": o, "new": n, "queen_high": q, "deals": d} for o, n, q, d in rows]}


def test_edge_change_money_in_cents_and_the_paired_interval() -> None:
    """Four deals worked by hand: a $100 bet wins $95 after the 5% commission, pushes 0,
    loses $100; the queen-high deal pushes at a no-commission table."""
    counts = counts_of([("win", "win", False, 1), ("win", "lose", False, 1),
                        ("push", "push", False, 1), ("lose", "win", True, 1)])
    nevada = edge_change(counts, "nevada", bet_cents=10_000)
    # Old nets 9,500 + 9,500 + 0 - 10,000; new 9,500 - 10,000 + 0 + 9,500: both 9,000.
    assert nevada["old_edge"] == nevada["new_edge"] == -9_000 / 40_000
    assert nevada["change_points"] == 0 and nevada["changed_deals"] == 2
    # Differences 0, -19,500, 0, +19,500 cents: sample variance 2 x 19,500^2 / 3.
    half = 1.96 * sqrt(2 * 19_500 ** 2 / 3 / 4) / 10_000 * 100
    assert nevada["change_ci95_points"] == pytest.approx([-half, half], abs=1e-12)
    free = edge_change(counts, "no-commission", bet_cents=10_000)
    # The queen-high deal pushes both times; the second deal now costs 20,000 cents.
    assert free["change_exact"] == str(Fraction(20_000, 40_000)) == "1/2"
    assert free["change_points"] == 50.0 and free["direction"] == "more"
    rounding = edge_change(counts_of([("lose", "win", False, 1)]), "nevada", bet_cents=250)
    # 5% of $2.50 is 12.5 cents, rounded to 13: a win nets 237 cents, a loss -250.
    assert rounding["change_exact"] == str(Fraction(-(237 + 250), 250)) \
        and rounding["change_ci95_points"] == [rounding["change_points"]] * 2


def test_edge_change_refuses_counts_it_cannot_use() -> None:
    counts = counts_of([("win", "win", False, 3)])
    with pytest.raises(ValueError, match="wheel"):
        edge_change(counts, get_profile("california"))
    with pytest.raises(ValueError, match="add up"):
        edge_change({**counts, "hands": 4}, "nevada")
    with pytest.raises(ValueError, match="not an outcome"):
        edge_change(counts_of([("won", "win", False, 3)]), "nevada")
    with pytest.raises(ValueError):
        edge_change(counts, "nevada", bet_cents=0)
