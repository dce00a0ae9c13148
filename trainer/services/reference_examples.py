"""Example hands for the printable house-way sheet: one per rule, set by the engine itself.

The sheet shows, beside every rule, a hand that the house way really sets under
that rule. Hands are found by a seeded search of random and shaped deals, so
the same sheet prints every time; rules a search rarely reaches (five aces) fall
back to the sheet's own examples, then to a few constructed hands. Every hand
is checked with ``HouseWay.set`` before it is shown.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from trainer.engine.cards import Card, card_list, parse_cards
from trainer.engine.drills.dealing import SHAPES, deal_shape
from trainer.engine.hands import Wheel
from trainer.engine.house_way import HouseWay, load, preset_names

EXAMPLE_WHEEL = Wheel.SECOND_HIGHEST
SEARCH_DEALS = 30_000
_DEAL_SHAPES = tuple(SHAPES.values())

# Hands a random search almost never deals: five aces (the joker with all four aces),
# with a pair of kings, with another pair and with two singletons.
CONSTRUCTED = (
    "As Ah Ad Ac JK Ks Kd",
    "As Ah Ad Ac JK 9c 4d",
    "As Ah Ad Ac JK 7c 7d",
    "As Ah Ad Ac JK Qh 2c",
    "7c 7d 7h 2s 2d Ah Kc",
    "As Ks Qs Js Ts 9d 2c",
    "As Ks Qs Js Ts 9s 2c",
    "Ah Kh Qh Jh Th 9h Ad",
    "9h 8h 7h 6h 5h Ad Kc",
    "9h 8h 7h 6h 5h Ah Kc",
)


@dataclass(frozen=True, slots=True)
class RuleExample:
    """One example hand for a rule: the seven cards and how the engine sets them."""

    rule: str
    cards: tuple[str, ...]
    front: tuple[str, ...]
    back: tuple[str, ...]
    explanation: str
    source: str  # "search", "sheet" or "constructed"


def _example(way: HouseWay, rule_id: str, cards: tuple[Card, ...], source: str
             ) -> RuleExample | None:
    """Return the example if the engine sets ``cards`` under ``rule_id``, else None."""
    setting = way.set(cards, EXAMPLE_WHEEL)
    if setting.rule != rule_id:
        return None
    seven = sorted(cards, key=lambda c: (c.rank, c), reverse=True)
    return RuleExample(rule_id, tuple(card_list(seven)), tuple(card_list(setting.front)),
                       tuple(card_list(setting.back)), setting.explanation, source)


def _deal_run(rng: random.Random) -> tuple[Card, ...]:
    """Deal five cards in a row of ranks (sometimes suited) and two more at random."""
    top = rng.randrange(3, 13)  # rank index of the run's top card: 5-high to ace-high
    ranks = [(top - k) % 13 if top - k >= 0 else 12 for k in range(5)]
    suit = rng.randrange(4)
    suited = rng.random() < 0.5
    run = [r * 4 + (suit if suited else rng.randrange(4)) for r in ranks]
    if rng.random() < 0.2:
        run[rng.randrange(5)] = 52  # the joker fills the straight or flush
    rest = [c for c in range(53) if c not in run]
    return tuple(Card(c) for c in run + rng.sample(rest, 2))


def _deal_five_aces(rng: random.Random) -> tuple[Card, ...]:
    """Deal the four aces and the joker with two more cards (a pair of kings now and then)."""
    if rng.random() < 0.3:
        return tuple(Card(c) for c in (48, 49, 50, 51, 52, 44, 45))
    return tuple(Card(c) for c in [48, 49, 50, 51, 52, *rng.sample(range(48), 2)])


def _search(way: HouseWay, wanted: set[str], seed: str, deals: int
            ) -> dict[str, tuple[Card, ...]]:
    """Deal seeded random and shaped hands until every wanted rule is reached."""
    rng = random.Random(seed)
    found: dict[str, tuple[Card, ...]] = {}
    for i in range(deals):
        if i % 4 == 0:
            cards = tuple(Card(c) for c in rng.sample(range(53), 7))
        elif i % 4 == 1:
            cards = _deal_run(rng)
        elif i % 16 == 2:
            cards = _deal_five_aces(rng)
        else:
            cards = deal_shape(rng, rng.choice(_DEAL_SHAPES))
        rule = way.set(cards, EXAMPLE_WHEEL).rule
        if rule in wanted and rule not in found:
            found[rule] = cards
            if len(found) == len(wanted):
                break
    return found


@cache
def rule_examples(preset: str, deals: int = SEARCH_DEALS) -> dict[str, RuleExample]:
    """Return one verified example hand per rule of a preset (rules with none are absent)."""
    return _examples(load(preset), deals)


# A custom way's examples, by its data's digest (a published version never changes; a
# few kept, as many custom ways as sheet pages may show in a while).
_BY_DIGEST: dict[tuple[str, int], dict[str, RuleExample]] = {}
_KEEP = 16


def way_examples(way: HouseWay, deals: int = SEARCH_DEALS) -> dict[str, RuleExample]:
    """Return one verified example hand per rule of any house way: a preset or a custom one.

    The search is seeded by the way's name, so a preset's are ``rule_examples``'s and a
    custom way's sheet prints the same hands every time.
    """
    if way.name in preset_names() and load(way.name) is way:
        return rule_examples(way.name, deals)  # a preset's own, kept for the process
    key = (way.digest, deals)
    found = _BY_DIGEST.get(key)
    if found is None:
        found = _examples(way, deals)
        if len(_BY_DIGEST) >= _KEEP:
            _BY_DIGEST.pop(next(iter(_BY_DIGEST)), None)
        _BY_DIGEST[key] = found
    return found


def _examples(way: HouseWay, deals: int) -> dict[str, RuleExample]:
    wanted = set(way.rule_ids)
    examples: dict[str, RuleExample] = {}
    for rule_id, cards in _search(way, wanted, f"reference-sheet:{way.name}", deals).items():
        example = _example(way, rule_id, cards, "search")
        if example is not None:
            examples[rule_id] = example
    for sheet_example in way.examples:
        if sheet_example.rule not in examples:
            example = _example(way, sheet_example.rule, parse_cards(sheet_example.cards, 7),
                               "sheet")
            if example is not None:
                examples[sheet_example.rule] = example
    for text in CONSTRUCTED:
        cards = parse_cards(text, 7)
        rule_id = way.set(cards, EXAMPLE_WHEEL).rule
        if rule_id in wanted and rule_id not in examples:
            examples[rule_id] = _example(way, rule_id, cards, "constructed")  # type: ignore[assignment]
    return {r: examples[r] for r in way.rule_ids if r in examples}
