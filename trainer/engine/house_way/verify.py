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

Each representative is set by the fast path and re-derived by the reference
path (no cache) with the cards in another order; the weights sum to C(53, 7).
"""
from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations
from math import comb
from multiprocessing import get_context
from typing import Any

from ..cards import DECK, Card, format_cards
from ..hands import Wheel, rank2, rank5
from .interpreter import _BACK_GET, _FRONT_GET, HouseWay, HouseWayError, load

# A unit of work: a rank multiset with its joker count, or one sampled hand of card numbers.
Job = tuple[tuple[int, ...], int] | tuple[int, ...]

TOTAL_HANDS = comb(53, 7)
MAX_FAILURES = 10


def rank_multisets() -> Iterator[tuple[tuple[int, ...], int]]:
    """Yield (count of each rank 2..A, joker 0/1) for every seven-card rank multiset."""
    for joker in (0, 1):
        for c in _fill([0] * 13, 0, 7 - joker):
            yield c, joker


def _fill(counts: list[int], i: int, left: int) -> Iterator[tuple[int, ...]]:
    """Yield each way to spread ``left`` cards over ranks ``i``..A, at most four of a rank."""
    if i == 12:
        if left <= 4:
            counts[12] = left
            yield tuple(counts)
        return
    for n in range(min(4, left) + 1):
        counts[i] = n
        yield from _fill(counts, i + 1, left - n)
    counts[i] = 0


def _card(rank_index: int, suit: int) -> Card:
    return DECK[rank_index * 4 + suit]


def classes_of(counts: Sequence[int], joker: int) -> list[tuple[tuple[Card, ...], int]]:
    """Return one representative hand per class of a rank multiset, with its weight."""
    total = 1
    for c in counts:
        total *= comb(4, c)
    out: list[tuple[tuple[Card, ...], int]] = []
    held = [r for r in range(13) if counts[r]]
    need = 5 - joker
    flushy = 0
    for size in range(need, len(held) + 1):
        for S in combinations(held, size):
            ins = set(S)
            weight = 4
            for r in held:
                weight *= comb(3, counts[r] - 1) if r in ins else comb(3, counts[r])
            if not weight:
                continue
            cards = []
            for r in held:
                if r in ins:
                    cards.append(_card(r, 0))
                    cards.extend(_card(r, s) for s in range(1, counts[r]))
                else:
                    cards.extend(_card(r, s) for s in range(1, counts[r] + 1))
            if joker:
                cards.append(DECK[52])
            out.append((tuple(cards), weight))
            flushy += weight
    plain = total - flushy
    if plain:
        load_ = [0, 0, 0, 0]
        cards = []
        for r in sorted(held, key=lambda r: -counts[r]):
            suits = sorted(range(4), key=lambda s: (load_[s], s))[:counts[r]]
            for s in suits:
                load_[s] += 1
                cards.append(_card(r, s))
        if max(load_) + joker >= 5:
            raise AssertionError(f"no flush-free representative for {counts}")
        if joker:
            cards.append(DECK[52])
        out.append((tuple(cards), plain))
    return out


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
    """Set one hand and check it; return (rule id, failure or None)."""
    try:
        got = way.set(cards, wheel)
    except HouseWayError as exc:
        return "undecided", str(exc)
    if len(got.back) != 5 or len(got.front) != 2 or \
            sorted(got.back + got.front) != sorted(cards):
        return got.rule, "does not use the seven cards once each"
    if rank5(got.back, wheel) < rank2(got.front):
        return got.rule, "fouled"
    again = way.set(tuple(reversed(cards)), wheel)
    if again != got:
        return got.rule, "depends on the order of the cards"
    split, rule, _ = way.decide(sorted(cards), wheel)
    ref_back, ref_front = _BACK_GET[split](sorted(cards)), _FRONT_GET[split](sorted(cards))
    if rule != got.rule or rank5(ref_back, wheel) != rank5(got.back, wheel) or \
            rank2(ref_front) != rank2(got.front):
        return got.rule, f"cached answer differs from the reference ({rule})"
    return got.rule, None


def _work(args: tuple[str, str, list[Job]]
          ) -> tuple[Counter[str], int, int, list[dict[str, Any]], int]:
    name, wheel, jobs = args
    way = load(name)
    by_rule: Counter[str] = Counter()
    failures: list[dict[str, Any]] = []
    failed = hands = checked = 0
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
                if len(failures) < MAX_FAILURES:
                    failures.append({"hand": format_cards(cards), "rule": rule,
                                     "failure": failure, "weight": weight})
    return by_rule, hands, failed, failures, checked


def verify(name: str, sample: int | None = None, seed: int = 0,
           wheel: str = Wheel.SECOND_HIGHEST, workers: int = 2) -> dict[str, Any]:
    """Check every hand (or a random sample) of a house way; return a summary."""
    way = load(name)
    start = time.perf_counter()
    if sample is None:
        jobs: list[Job] = list(rank_multisets())
        method = ("every hand, by classes: rank multiset (joker as a 14th symbol) x "
                  "flush-suit ranks, weighted by their number of hands")
    else:
        rng = random.Random(seed)
        jobs = [tuple(rng.sample(range(53), 7)) for _ in range(sample)]
        method = f"{sample} random hands, seed {seed}"
    chunks = [(name, wheel, jobs[i::max(1, workers) * 8])
              for i in range(max(1, workers) * 8)]
    if workers > 1:
        with get_context("fork").Pool(workers) as pool:
            parts = pool.map(_work, chunks)
    else:
        parts = [_work(c) for c in chunks]
    by_rule: Counter[str] = Counter()
    hands = failed = checked = 0
    failures: list[dict[str, Any]] = []
    for part_rules, part_hands, part_failed, part_failures, part_checked in parts:
        by_rule.update(part_rules)
        hands += part_hands
        failed += part_failed
        checked += part_checked
        failures.extend(part_failures)
    order = {rid: i for i, rid in enumerate(way.rule_ids)}
    counts = dict(sorted(by_rule.items(), key=lambda kv: (order.get(kv[0], 999), kv[0])))
    summary: dict[str, Any] = {
        "house_way": name,
        "wheel": str(wheel),
        "method": method,
        "hands_checked": hands,
        "classes_checked": checked,
        "all_hands": TOTAL_HANDS if sample is None else None,
        "complete": sample is None and hands == TOTAL_HANDS,
        "failed_hands": failed,
        "failures": failures[:MAX_FAILURES],
        "rules_reached": len(counts),
        "rules_on_sheet": len(way.rules),
        "rules_not_reached": [r for r in way.rule_ids if r not in by_rule],
        "per_rule": counts,
        "seconds": round(time.perf_counter() - start, 2),
    }
    if sample is not None:
        del summary["classes_checked"], summary["all_hands"]
    return summary
