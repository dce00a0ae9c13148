"""Check a house way on every seven-card hand: never a foul, all seven cards used,
the same answer every time (``trainer house-way verify``).

The 154,143,080 hands fall into classes that a house way cannot tell apart:

* A hand is a rank multiset (the joker a 14th symbol) plus suits. When no five of
  its cards can make a flush, every back's value depends on its ranks alone, so
  one representative stands for all such suit patterns of that multiset.
* When some suit holds five cards (four with the joker), that flush suit is the
  only one that can make a flush; which ranks hold it is all that matters. One
  representative per (multiset, set of flush-suit ranks) stands for the
  4 x prod C(3, .) hands that share them.

Each representative is set by the fast path (the way's class table, when it has
one: ``classes``) and re-derived by the reference path (the interpreter, no cache)
with the cards in another order; the weights sum to C(53, 7). So a full run compares
the class table with the interpreter on every class: the rule and the values of the
back and the front must be the same (``table_mismatches``).
"""
from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence
from math import comb
from multiprocessing import get_context
from typing import Any

from ..cards import DECK, Card, format_cards
from ..hands import Wheel, rank2, rank5
from .classes import classes_of, rank_multisets
from .interpreter import HouseWay, HouseWayError, load
from .interpreter.splits import BACK_GET, FRONT_GET

__all__ = ["TOTAL_HANDS", "check_hand", "class_key", "classes_of", "rank_multisets", "verify"]

# A unit of work: a rank multiset with its joker count, or one sampled hand of card numbers.
Job = tuple[tuple[int, ...], int] | tuple[int, ...]

TOTAL_HANDS = comb(53, 7)
MAX_FAILURES = 10
TABLE_DIFFERS = "the class table's answer differs from the interpreter's"


def class_key(cards: Sequence[int]) -> tuple[tuple[int, ...], int, tuple[int, ...] | None]:
    """Return the class of a hand (rank counts, joker, ranks of the flush suit or None)."""
    counts = [0] * 13
    suits: list[list[int]] = [[] for _ in range(4)]
    joker = 0
    for c in cards:
        if c == 52:
            joker = 1
        else:
            counts[c // 4] += 1
            suits[c % 4].append(c // 4)
    flush = None
    for held in suits:
        if len(held) + joker >= 5:
            flush = tuple(sorted(held))
    return tuple(counts), joker, flush


def check_hand(way: HouseWay, cards: Sequence[Card], wheel: str) -> tuple[str, str | None]:
    """Set one hand and check it; return (rule id, failure or None).

    The answer is compared with the interpreter's first: when the class table gave
    it, a difference is the table's failure (``TABLE_DIFFERS``).
    """
    try:
        got = way.set(cards, wheel)
    except HouseWayError as exc:
        return "undecided", str(exc)
    split, rule, _ = way.decide(sorted(cards), wheel)
    ref_back, ref_front = BACK_GET[split](sorted(cards)), FRONT_GET[split](sorted(cards))
    if rule != got.rule or len(got.back) != 5 or len(got.front) != 2 or \
            rank5(ref_back, wheel) != rank5(got.back, wheel) or \
            rank2(ref_front) != rank2(got.front):
        if way.class_table(wheel) is not None:
            return got.rule, f"{TABLE_DIFFERS} ({rule})"
        return got.rule, f"cached answer differs from the reference ({rule})"
    if sorted(got.back + got.front) != sorted(cards):
        return got.rule, "does not use the seven cards once each"
    if rank5(got.back, wheel) < rank2(got.front):
        return got.rule, "fouled"
    again = way.set(tuple(reversed(cards)), wheel)
    if again != got:
        return got.rule, "depends on the order of the cards"
    return got.rule, None


# House ways given as objects (a file's, a stored version's), by the key their jobs carry:
# put here before the workers fork, so each worker finds the same object.
_GIVEN: dict[str, HouseWay] = {}


def _way_of(name: str, table: bool) -> HouseWay:
    given = _GIVEN.get(name)
    return given if given is not None else load(name, table)


def _work(args: tuple[str, str, list[Job], bool]
          ) -> tuple[Counter[str], int, int, list[dict[str, Any]], int, int]:
    name, wheel, jobs, table = args
    way = _way_of(name, table)
    by_rule: Counter[str] = Counter()
    failures: list[dict[str, Any]] = []
    failed = hands = checked = mismatched = 0
    for job in jobs:
        if isinstance(job[0], tuple):          # a rank multiset
            counts, joker = job
            reps = classes_of(counts, joker)
        else:                                  # a sampled hand
            reps = [(tuple(DECK[c] for c in job), 1)]
        for cards, weight in reps:
            checked += 1
            rule, failure = check_hand(way, cards, wheel)
            by_rule[rule] += weight
            hands += weight
            if failure:
                failed += weight
                mismatched += failure.startswith(TABLE_DIFFERS)
                if len(failures) < MAX_FAILURES:
                    failures.append({"hand": format_cards(cards), "rule": rule,
                                     "failure": failure, "weight": weight})
    return by_rule, hands, failed, failures, checked, mismatched


def verify(name: str | HouseWay, sample: int | None = None, seed: int = 0,
           wheel: str = Wheel.SECOND_HIGHEST, workers: int = 2,
           table: bool = True) -> dict[str, Any]:
    """Check every hand (or a random sample) of a house way; return a summary.

    ``name`` is a preset's name or a house way itself (read from a file, or a stored
    custom version): the same check, by its class table when it has one (attached or
    shipped), else by the interpreter alone; a given way is used as it is (``table``
    applies to a name). With ``table`` (the default) hands are set from the way's class
    table when it has one, and each class's answer is compared with the interpreter's.
    """
    if isinstance(name, HouseWay):
        way = name
        name = f"{way.name}#{way.digest}"
        _GIVEN[name] = way
        try:
            return _verify(name, way, sample, seed, wheel, workers, table)
        finally:
            del _GIVEN[name]
    return _verify(name, load(name, table), sample, seed, wheel, workers, table)


def _verify(name: str, way: HouseWay, sample: int | None, seed: int, wheel: str,
            workers: int, table: bool) -> dict[str, Any]:
    has_table = way.class_table(wheel) is not None
    start = time.perf_counter()
    if sample is None:
        jobs: list[Job] = list(rank_multisets())
        method = ("every hand, by classes: rank multiset (joker as a 14th symbol) x "
                  "flush-suit ranks, weighted by their number of hands")
    else:
        rng = random.Random(seed)
        jobs = [tuple(rng.sample(range(53), 7)) for _ in range(sample)]
        method = f"{sample} random hands, seed {seed}"
    chunks = [(name, wheel, jobs[i::max(1, workers) * 8], table)
              for i in range(max(1, workers) * 8)]
    if workers > 1:
        with get_context("fork").Pool(workers) as pool:
            parts = pool.map(_work, chunks)
    else:
        parts = [_work(c) for c in chunks]
    by_rule: Counter[str] = Counter()
    hands = failed = checked = mismatched = 0
    failures: list[dict[str, Any]] = []
    for part_rules, part_hands, part_failed, part_failures, part_checked, part_mismatched \
            in parts:
        mismatched += part_mismatched
        by_rule.update(part_rules)
        hands += part_hands
        failed += part_failed
        checked += part_checked
        failures.extend(part_failures)
    order = {rid: i for i, rid in enumerate(way.rule_ids)}
    counts = dict(sorted(by_rule.items(), key=lambda kv: (order.get(kv[0], 999), kv[0])))
    summary: dict[str, Any] = {
        "house_way": way.name,
        "wheel": str(wheel),
        "method": method,
        "hands_checked": hands,
        "classes_checked": checked,
        "all_hands": TOTAL_HANDS if sample is None else None,
        "complete": sample is None and hands == TOTAL_HANDS,
        "failed_hands": failed,
        "failures": failures[:MAX_FAILURES],
        # Which path set the hands, and on how many classes (or sampled hands) the
        # class table and the interpreter disagreed.
        "class_table": ({"used": True, "rules_digest": way.rules_digest,
                         "table_mismatches": mismatched} if has_table else
                        {"used": False, "table_mismatches": None}),
        "rules_reached": len(counts),
        "rules_on_sheet": len(way.rules),
        "rules_not_reached": [r for r in way.rule_ids if r not in by_rule],
        "per_rule": counts,
        "seconds": round(time.perf_counter() - start, 2),
    }
    if sample is not None:
        del summary["classes_checked"], summary["all_hands"]
    return summary
