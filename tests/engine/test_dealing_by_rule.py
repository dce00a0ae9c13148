"""Dealing by rule (issue 28 part 6): a hand that a given rule of a house way decides.

Every dealt hand is checked with the interpreter (``HouseWay.decide``, the reference
path, no class table): the rule it reads must be the rule asked for. Every rule of every
preset and of a custom way made with the editor's ``build`` is dealt 20 hands, or is
reported unreachable; the weights of the classes are checked against the cards, and the
deals against those weights (fixed seeds: the chi-square bounds are far in the tail, so
the checks cannot flake, but a sampler off by a class or a suit fails them).
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from itertools import combinations, product
from math import comb, sqrt
from typing import Any

import pytest

from trainer.engine.cards import DECK
from trainer.engine.hands import CARD_RANK, Wheel
from trainer.engine.house_way import HouseWay, class_build, load, preset_names
from trainer.engine.house_way import dealing as D
from trainer.engine.house_way import kinds as K
from trainer.engine.house_way.classes import (
    FALLBACK_BIT,
    ClassTable,
    class_keys,
    class_order,
    classes_of,
    rank_multisets,
)
from trainer.engine.house_way.editing import build, preset_data

SECOND, LOWEST = Wheel.SECOND_HIGHEST.value, Wheel.LOWEST.value
ALL_HANDS = comb(53, 7)
PER_RULE = 20
PRESETS = ["trump-plaza", "foxwoods", "golden-nugget", "mgm-grand", "ballys-atlantic-city",
           "flamingo-hilton"]
SHADOWED = "two-trips.high-pair-front.after-the-catch-all"


def read_rule(reference: HouseWay, cards: tuple[int, ...], wheel: str = SECOND) -> str:
    """The rule the interpreter (no class table) sets these cards with."""
    return reference.decide(sorted(DECK[c] for c in cards), wheel)[1]


def class_number(cards: tuple[int, ...]) -> int:
    return class_keys().index(class_order(cards)[0])


def chi_square(observed: Counter[Any], expected: dict[Any, float]) -> tuple[float, int]:
    assert set(observed) <= set(expected), "a deal outside the cells"
    stat = sum((observed.get(cell, 0) - e) ** 2 / e for cell, e in expected.items())
    return stat, len(expected) - 1


def far_tail(df: int) -> float:
    """A bound a chi-square with ``df`` degrees exceeds with chance far below one in a
    million (mean df, standard deviation sqrt(2 df))."""
    return df + 7 * sqrt(2 * df) + 10


# --- the custom way: Foxwoods copied, section 6 changed, a rule nothing reaches ---------------

def custom_data() -> dict[str, Any]:
    """Foxwoods as a manager copies it: two sets now put two cards of the LOWER set in
    front (a changed rule), and a second rule after that catch-all, which no hand reaches."""
    data = preset_data("foxwoods")
    data["name"] = "my-casino"
    section = next(s for s in data["sections"] if s["number"] == "6")
    section["rules"] = [
        {"number": "6.1", "id": "two-trips.low-pair-front",
         "text": "A pair from the lower set in front.",
         "explain": "Two sets of trips: a pair of {low_trips} in front"},
        {"number": "6.2", "id": SHADOWED,
         "text": "A pair from the higher set in front.",
         "explain": "Two sets of trips: a pair of {high_trips} in front"},
    ]
    return data


def table_redeciding(way: HouseWay, base: ClassTable, shape: str, wheel: str) -> ClassTable:
    """``way``'s class table when it differs from ``base``'s way only in rules for
    ``shape`` hands: the interpreter decides every class of that shape (its representative
    in class order, as ``class_build`` does), the other classes keep ``base``'s answers."""
    keys = class_keys()
    index = {rid: i for i, rid in enumerate(way.rule_ids)}
    split, rule = bytearray(base.split), bytearray(len(base.rule))
    gone = set()  # classes of a rule the way no longer has: each must be redecided
    for i in range(len(rule)):
        base_rule = base.rule_id(i)
        plain = base_rule.removesuffix(".fallback")
        if plain in index:
            rule[i] = index[plain] | (FALLBACK_BIT if plain != base_rule else 0)
        else:
            gone.add(i)
    redecided = set()
    for counts, joker in rank_multisets():
        ranks = [r + 2 for r, c in enumerate(counts) for _ in range(c)] + [14] * joker
        if K.shape_of(ranks).name != shape:
            continue
        for cards, _ in classes_of(counts, joker):
            key, ordered = class_order(cards)
            i = keys.index(key)
            split[i], rid, _ = way.decide(ordered, wheel)
            plain = rid.removesuffix(".fallback")
            rule[i] = index[plain] | (FALLBACK_BIT if plain != rid else 0)
            redecided.add(i)
    assert len(redecided) > 100 and gone <= redecided
    return ClassTable(way.name, wheel, way.rules_digest, way.rule_ids, keys, bytes(split),
                      bytes(rule))


@pytest.fixture(scope="module")
def custom_way() -> HouseWay:
    way = build(custom_data())
    base = load("foxwoods").class_table(SECOND)
    assert base is not None
    way.attach_table(table_redeciding(way, base, "two-trips", SECOND))
    return way


# --- every rule of every preset, and of the custom way ----------------------------------------

def deal_every_rule(way: HouseWay, reference: HouseWay, wheel: str, per_rule: int,
                    seed: int) -> dict[str, int]:
    """Deal ``per_rule`` hands for every rule of the sheet (and every reachable fallback);
    each must read that rule on the interpreter. Return the unreachable rules' hands (0)."""
    rng = random.Random(seed)
    unreachable = set(D.unreachable_rules(way, wheel))
    reachable = D.reachable_rules(way, wheel)
    assert set(way.rule_ids) <= unreachable | set(reachable)
    hands = D.rule_hands(way, wheel)
    for rule_id in [*way.rule_ids, *(r for r in reachable if r.endswith(".fallback"))]:
        if rule_id in unreachable:
            with pytest.raises(D.UnreachableRule, match="No hand is set by rule"):
                D.deal_for_rule(way, rule_id, rng, wheel)
            continue
        assert hands[rule_id] > 0
        for _ in range(per_rule):
            cards = D.deal_for_rule(way, rule_id, rng, wheel)
            assert len(cards) == 7 and len(set(cards)) == 7 and all(0 <= c <= 52 for c in cards)
            assert read_rule(reference, cards, wheel) == rule_id, (rule_id, cards)
            assert way.set(cards, wheel).rule == rule_id  # the table's answer agrees
    return dict.fromkeys(unreachable, 0)


@pytest.mark.parametrize("name", PRESETS)
def test_every_rule_of_every_preset_deals_20_hands_the_interpreter_reads_as_that_rule(
        name: str) -> None:
    assert sorted(PRESETS) == sorted(preset_names())
    way = load(name)
    unreachable = deal_every_rule(way, load(name, table=False), SECOND, PER_RULE, seed=28)
    # Every preset's rules are all reached (a shadowed rule would be reported here).
    assert unreachable == {}
    # What the rules decide adds up to every hand, and fallbacks are none (no preset fouls).
    assert sum(D.rule_hands(way, SECOND).values()) == ALL_HANDS
    assert not [r for r in D.reachable_rules(way, SECOND) if r.endswith(".fallback")]


def test_every_rule_deals_under_the_lowest_wheel_setting_too() -> None:
    """The wheel setting picks the class table (a straight's place changes some decisions)."""
    for name in ("trump-plaza", "golden-nugget"):
        deal_every_rule(load(name), load(name, table=False), LOWEST, 5, seed=6)


def test_every_rule_of_a_custom_way_built_by_the_editor_deals_20_hands_or_is_unreachable(
        custom_way: HouseWay) -> None:
    reference = HouseWay(custom_way.data, table=False)
    unreachable = deal_every_rule(custom_way, reference, SECOND, PER_RULE, seed=29)
    assert unreachable == {SHADOWED: 0}
    # The changed rule deals two sets that the interpreter sets with the lower set in front.
    rng = random.Random(3)
    for _ in range(PER_RULE):
        cards = D.deal_for_rule(custom_way, "two-trips.low-pair-front", rng)
        setting = custom_way.set(cards)
        lower = min(CARD_RANK[c] for c in cards if sum(
            CARD_RANK[d] == CARD_RANK[c] for d in cards) == 3)
        assert {CARD_RANK[c] for c in setting.front} == {lower}
    # Foxwoods itself never deals that rule: it has no such rule.
    with pytest.raises(D.UnknownRule, match=r"has no rule two-trips\.low-pair-front"):
        D.deal_for_rule(load("foxwoods"), "two-trips.low-pair-front", rng)


def test_a_rule_no_hand_reaches_is_reported_at_once_never_dealt_for(
        custom_way: HouseWay, monkeypatch: pytest.MonkeyPatch) -> None:
    """The shadowed rule decides no class: it is listed as unreachable, and asking for it
    raises without a single card dealt (the random source is never touched)."""
    assert D.unreachable_rules(custom_way) == (SHADOWED,)
    assert SHADOWED not in D.reachable_rules(custom_way)
    assert SHADOWED not in D.rule_hands(custom_way)

    class NoDraws(random.Random):
        def random(self) -> float:  # every draw of random.Random goes through here or below
            raise AssertionError("dealt for an unreachable rule")

        def getrandbits(self, k: int) -> int:
            raise AssertionError("dealt for an unreachable rule")

    with pytest.raises(D.UnreachableRule) as raised:
        D.deal_for_rule(custom_way, SHADOWED, NoDraws(1))
    assert SHADOWED in str(raised.value) and "my-casino" in str(raised.value)
    assert raised.value.template.startswith("No hand is set by rule %(rule)s")


def test_an_unknown_rule_is_refused_in_words() -> None:
    with pytest.raises(D.UnknownRule, match=r"trump-plaza has no rule two-pair\.nonsense"):
        D.deal_for_rule(load("trump-plaza"), "two-pair.nonsense", random.Random(1))
    with pytest.raises(D.UnknownRule):
        D.deal_for_rule(load("trump-plaza"), None, random.Random(1))  # type: ignore[arg-type]


# --- the class table: read, never built --------------------------------------------------------

def test_a_custom_way_without_a_class_table_is_reported_and_none_is_built(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def no_build(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a class table was built to deal")

    monkeypatch.setattr(class_build, "build_class_table", no_build)
    way = build(custom_data())
    assert way.class_table(SECOND) is None
    for call in (lambda: D.deal_for_rule(way, "two-trips.low-pair-front", random.Random(1)),
                 lambda: D.reachable_rules(way), lambda: D.rule_hands(way)):
        with pytest.raises(D.ClassTableMissing, match="my-casino has no class table yet"):
            call()


def test_a_stored_table_passed_in_is_used_and_another_ways_table_refused(
        custom_way: HouseWay) -> None:
    """Services may pass the way's stored table; a table of other rules is refused."""
    stored = custom_way.class_table(SECOND)
    bare = build(custom_data())
    cards = D.deal_for_rule(bare, "two-trips.low-pair-front", random.Random(5), table=stored)
    assert read_rule(HouseWay(bare.data, table=False), cards) == "two-trips.low-pair-front"
    with pytest.raises(ValueError, match="other rules"):
        D.deal_for_rule(bare, "one-pair.standard", random.Random(5),
                        table=load("foxwoods").class_table(SECOND))
    with pytest.raises(ValueError, match="other rules"):
        D.deal_for_rule(bare, "one-pair.standard", random.Random(5), wheel=LOWEST, table=stored)


def test_the_index_is_built_once_per_table_and_shared() -> None:
    way = load("mgm-grand")
    first = D.rule_index(way)
    assert D.rule_index(way) is first
    # The same rules loaded again (a copy of the preset with its table): the same index.
    twin = HouseWay(preset_data("mgm-grand"))
    table = way.class_table(SECOND)
    assert table is not None
    twin.attach_table(table)
    assert D.rule_index(twin) is first
    assert D.rule_index(way, LOWEST) is not first
    assert len(first.classes) == len(first.running) == len(class_keys().keys)
    assert first.classes.typecode == first.running.typecode == "I"


def test_a_fallback_id_deals_the_classes_where_the_rule_fell_back() -> None:
    """A table whose rule fell back on some classes (a sheet error, §19): the ``.fallback``
    id deals exactly those classes, the rule itself only the others."""
    way = HouseWay(preset_data("foxwoods"))
    base = load("foxwoods").class_table(SECOND)
    assert base is not None
    code = way.rule_ids.index("five-aces.kings-front")
    marked = bytes(r | FALLBACK_BIT if r == code else r for r in base.rule)
    way.attach_table(replace(base, rule=marked))
    assert "five-aces.kings-front.fallback" in D.reachable_rules(way)
    assert D.unreachable_rules(way) == ("five-aces.kings-front",)
    rng = random.Random(9)
    for _ in range(PER_RULE):
        cards = D.deal_for_rule(way, "five-aces.kings-front.fallback", rng)
        assert marked[class_number(cards)] == code | FALLBACK_BIT
    with pytest.raises(D.UnreachableRule):
        D.deal_for_rule(way, "five-aces.kings-front", rng)


# --- the weights, and the deals against them ----------------------------------------------------

def test_the_class_weights_count_every_seven_card_hand_once() -> None:
    keys = class_keys()
    weights = D.class_weights(keys)
    assert D.class_weights(keys) is weights
    assert len(weights) == len(keys.keys) and min(weights) > 0
    assert sum(weights) == ALL_HANDS
    # Against the classes' own enumeration (``classes_of`` counts suits its own way), on
    # every 37th rank pattern.
    for n, (counts, joker) in enumerate(rank_multisets()):
        if n % 37:
            continue
        for cards, weight in classes_of(counts, joker):
            assert weights[keys.index(class_order(cards)[0])] == weight


def test_the_classes_of_a_rule_are_dealt_in_proportion_to_their_hands() -> None:
    """Foxwoods's five aces without a pair of kings: 4 aces, the joker and two of the other
    48 cards, 1,122 hands in 77 classes (11 pairs of 6 hands, 66 two-rank classes of 16).
    The expected share of each class is counted here from the cards themselves."""
    way = load("foxwoods")
    aces = (48, 49, 50, 51, 52)
    expected: Counter[int] = Counter()
    for two in combinations(range(48), 2):
        if CARD_RANK[two[0]] == CARD_RANK[two[1]] == 13:
            continue  # kings in front: the other rule
        expected[class_number((*aces, *two))] += 1
    assert sum(expected.values()) == 1122 and len(expected) == 77
    rng = random.Random(2028)
    deals = 6000
    seen = Counter(class_number(D.deal_for_rule(way, "five-aces.split", rng))
                   for _ in range(deals))
    stat, df = chi_square(seen, {c: deals * n / 1122 for c, n in expected.items()})
    assert stat < far_tail(df), (stat, df)
    # The two kinds of class in their proportion: a pair is 66 of 1,122 hands.
    pairs = sum(n for c, n in seen.items() if expected[c] == 6)
    assert abs(pairs / deals - 66 / 1122) < 0.02


def hands_of_class(key: int) -> list[tuple[int, ...]]:
    """Every hand of a class, by brute force over the suits of its rank pattern."""
    counts, joker, _ = D.decode(key)
    held = [(r, c) for r, c in enumerate(counts) if c]
    hands = []
    for choice in product(*(combinations(range(4), c) for _, c in held)):
        cards = tuple(sorted(r * 4 + s for (r, _), suits in zip(held, choice, strict=True)
                             for s in suits)) + ((52,) if joker else ())
        if class_order(cards)[0] == key:
            hands.append(cards)
    return hands


@pytest.mark.parametrize(("flush", "tries", "least"),
                         [(False, D.PLAIN_TRIES, 100), (False, 0, 100), (True, D.PLAIN_TRIES, 36)])
def test_each_hand_of_a_class_is_dealt_with_the_same_chance(flush: bool, tries: int,
                                                             least: int) -> None:
    """A class of ``least`` to 200 hands (a flush class holds at most 36), dealt 25 times
    its size: every hand comes up, as often as chance says (with no tries, the listed
    hands of a class without a flush)."""
    keys = class_keys()
    weights = D.class_weights(keys)
    i = next(i for i in range(7, len(keys.keys), 13)
             if bool(keys.keys[i] & 0x1FFF) == flush and least <= weights[i] <= 200)
    key = keys.keys[i]
    hands = hands_of_class(key)
    assert len(hands) == weights[i]
    rng = random.Random(17)
    deals = 25 * len(hands)
    seen = Counter(tuple(sorted(D.deal_in_class(key, rng, tries))) for _ in range(deals))
    stat, df = chi_square(seen, dict.fromkeys(hands, deals / len(hands)))
    assert stat < far_tail(df), (stat, df)
    assert set(seen) == set(hands)


def test_the_same_seed_deals_the_same_hands_and_another_seed_others() -> None:
    way = load("golden-nugget")

    def deals(seed: int) -> list[tuple[int, ...]]:
        rng = random.Random(seed)
        return [D.deal_for_rule(way, rule_id, rng) for rule_id in way.rule_ids for _ in range(3)]

    first = deals(41)
    assert deals(41) == first
    assert deals(42) != first
    # Cards come in dealt order, not sorted (a sorted hand gives the answer's layout away).
    assert any(list(h) != sorted(h) for h in first)
