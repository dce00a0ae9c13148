"""Prove a house way on every hand, and measure what it changes (issue 18).

``check_way(way)`` has the interpreter decide every class of seven-card hands
(``classes``: 292,253 a wheel setting, weighted to the 154,143,080 hands) under both
wheel settings, as ``class_build`` does, and reports:

* the hands that **foul** (the deciding rule's own setting puts a stronger hand in
  front; the interpreter then plays the fallback and names the rule ``<id>.fallback``),
  with example hands;
* the hands that **no rule decides** (``HouseWayError``), with example hands;
* each rule's hands, the rules **never reached** (their own condition holds on no hand)
  and the rules **shadowed** (their condition holds on some hands, but earlier rules
  always decide those: named with their hands and an example).

A rule is "reached" when it decides a hand under either wheel setting. For a rule that
decides none, its own condition is tested on every class of its shapes: the section's
condition, the rule's condition, its pool (an ``sf.best-front`` rule needs a setting in
its pool) and its conditions on its own front (``beats_pool``, ``front_at_least``) with
the setting the rule itself would play.

The lowest-wheel pass decides only the classes where the wheel setting can matter
(``wheel_matters``) and reuses the second-highest answers for the rest: without five
cards that can make A-2-3-4-5, every five-card strength of every split orders the same
way under both settings (only the ace-high straight's key moves, 15 against 14, and it
stays the highest straight), the S/F categories held and the ace-high test of the pools
are the same, so every decision is the same. ``tests/engine/test_house_way_proof.py``
checks this on every class of every preset's shipped tables.

``CheckResult.tables`` holds the two class tables (for ``HouseWay.attach_table``) when
every class was checked and every hand decided; otherwise it is empty (a table needs an
answer for every class; a fouling way still gets tables, its fouls set by the fallback).

``diff_ways(reference, new)`` compares two ways' class tables (second-highest wheel):
the exact share of all hands whose setting differs in value, per rule of the new way,
with example hands. It lives in ``comparison.py`` and is named here too, beside the
check that makes the tables.

``check_way`` reads as its steps: the classes to check, the second-highest pass, the
lowest pass, where the conditions of the rules that decided nothing hold, those rules
never reached or shadowed, and the fouled and undecided hands.
"""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from ..cards import Card, format_cards
from ..hands import CARD_RANK, Wheel
from . import kinds as K
from .classes import (
    FALLBACK_BIT,
    ClassKeys,
    ClassTable,
    all_classes,
    class_keys,
)
from .comparison import TOTAL_HANDS, diff_ways
from .interpreter import HouseWay, HouseWayError, Rule, Section
from .interpreter.hand import SevenCards
from .interpreter.splits import BACK_GET, FRONT_GET
from .interpreter.way import log as interpreter_log

__all__ = ["TOTAL_HANDS", "CheckResult", "check_way", "diff_ways", "wheel_matters"]

MAX_EXAMPLES = 10
UNDECIDED = 0xFF
# Work units a pass is cut into: progress is reported after each (about 1.6% each).
CHUNKS = 64
SECOND, LOWEST = Wheel.SECOND_HIGHEST.value, Wheel.LOWEST.value
_SHAPE_INDEX = {name: i for i, name in enumerate(K.SHAPES)}
# Rank indices (0 = deuce .. 12 = ace) of an A-2-3-4-5 straight.
_WHEEL_RANKS = frozenset({12, 0, 1, 2, 3})
# What a rule's data can do wrong on a hand, besides leaving it undecided: a kind asked
# for a card its shape lacks (A's validation should stop it; the check reports it).
_DATA_ERRORS = (HouseWayError, IndexError, KeyError, ValueError)

Progress = Callable[[int, int], None]
# ``run(fn, jobs)``: the results in order, from a fork pool or this process (``_runner``).
Run = Callable[[Callable[..., Any], list[Any]], Iterator[Any]]


@dataclass(frozen=True, slots=True)
class CheckResult:
    """A check's report (JSON-able) and the way's class tables by wheel setting."""

    report: dict[str, Any]
    tables: dict[str, ClassTable] = field(default_factory=dict)


def wheel_matters(cards: Sequence[int]) -> bool:
    """Tell whether some five of seven cards can make A-2-3-4-5 (the joker filling one).

    Only then can the wheel setting change a decision (the module's docstring says why).
    """
    ranks = {c >> 2 for c in cards if c != 52}
    return len(ranks & _WHEEL_RANKS) + (52 in cards) >= 5


# --- the work in each process ----------------------------------------------------------

# (way, every class) for the worker processes: set before they fork, like class_build.
_STATE: list[Any] = []


@contextmanager
def _quiet() -> Iterator[None]:
    """Keep the interpreter from logging each fouling hand (the report counts them)."""
    logger = interpreter_log
    before = logger.disabled
    logger.disabled = True
    try:
        yield
    finally:
        logger.disabled = before


def _shape_of(cards: Sequence[Card], cache: dict[tuple[int, ...], int]) -> int:
    ranks = tuple(CARD_RANK[c] for c in cards)
    got = cache.get(ranks)
    if got is None:
        got = cache[ranks] = _SHAPE_INDEX[K.shape_of(ranks).name]
    return got


def _decide_chunk(args: tuple[str, Sequence[int]], state: Sequence[Any] | None = None
                  ) -> tuple[bytes, bytes, bytes, list[tuple[int, str]]]:
    """Decide classes: (split, rule byte, shape index, [(position, why undecided)])."""
    wheel, indices = args
    way: HouseWay = (state or _STATE)[0]
    every: Sequence[tuple[int, tuple[Card, ...], int]] = (state or _STATE)[1]
    index = {rid: i for i, rid in enumerate(way.rule_ids)}
    split, rule, shape = bytearray(len(indices)), bytearray(len(indices)), bytearray(len(indices))
    errors: list[tuple[int, str]] = []
    shapes: dict[tuple[int, ...], int] = {}
    with _quiet():
        for pos, i in enumerate(indices):
            cards = every[i][1]
            shape[pos] = _shape_of(cards, shapes)
            try:
                s, rid, _ = way.decide(cards, wheel)
            except _DATA_ERRORS as exc:
                split[pos], rule[pos] = 0, UNDECIDED
                errors.append((pos, _reason(exc)))
                continue
            base = rid.removesuffix(".fallback")
            split[pos] = s
            rule[pos] = index[base] | (FALLBACK_BIT if base != rid else 0)
    return bytes(split), bytes(rule), bytes(shape), errors


def _reason(exc: Exception) -> str:
    if isinstance(exc, HouseWayError):
        return str(exc)
    return f"a rule cannot place these cards ({type(exc).__name__}: {exc})"


def _section_of(way: HouseWay, rule: Rule) -> Section:
    return next(s for s in way.sections if rule in s.rules)


def _rule_split(rule: Rule, hand: SevenCards) -> int | None:
    """Return the setting a rule would play on a hand (its pool's best, or its kind's)."""
    if rule.pool is not None:
        return hand.pool_best(rule.pool)
    front = K.RULE_KINDS[rule.kind].front
    assert front is not None
    return hand.choose(front(hand.shape))


def condition_holds(way: HouseWay, rule: Rule, cards: Sequence[Card], wheel: str) -> bool:
    """Tell whether a rule's own condition holds on a hand (as ``decide`` tests it).

    The section's and the rule's conditions, a setting in its pool, and its conditions
    on its own front; whatever earlier rules do.
    """
    hand = SevenCards(cards, wheel, None)
    if hand.shape.name not in rule.shapes:
        return False
    section = _section_of(way, rule)
    if not all(p(hand) for p in section.pre) or not all(p(hand) for p in rule.pre):
        return False
    try:
        split = _rule_split(rule, hand)
    except _DATA_ERRORS:
        return False
    return split is not None and all(p(hand, split) for p in rule.post)


def _conditions_chunk(args: tuple[str, Sequence[str], Sequence[int]],
                      state: Sequence[Any] | None = None) -> list[list[int]]:
    """For each rule, the positions of the classes where its own condition holds."""
    wheel, rule_ids, indices = args
    way: HouseWay = (state or _STATE)[0]
    every: Sequence[tuple[int, tuple[Card, ...], int]] = (state or _STATE)[1]
    rules = [way.rule(r) for r in rule_ids]
    out: list[list[int]] = [[] for _ in rules]
    with _quiet():
        for pos, i in enumerate(indices):
            cards = every[i][1]
            for k, rule in enumerate(rules):
                if condition_holds(way, rule, cards, wheel):
                    out[k].append(pos)
    return out


@contextmanager
def _runner(way: HouseWay, every: Sequence[Any], workers: int) -> Iterator[Run]:
    """Yield ``run(fn, jobs)``: the results in order, from a fork pool or this process.

    The pool's processes find the way and the classes in ``_STATE`` (set before they
    fork); in this process they are passed along, so checks in two threads never mix.
    """
    if workers <= 1:
        yield lambda fn, jobs: (fn(job, (way, every)) for job in jobs)
        return
    _STATE[:] = [way, every]
    try:
        with get_context("fork").Pool(workers) as pool:
            yield lambda fn, jobs: pool.imap(fn, jobs)
    finally:
        _STATE.clear()


def _chunks(items: Sequence[int], parts: int = CHUNKS) -> list[Sequence[int]]:
    step = max(1, -(-len(items) // parts))
    return [items[i:i + step] for i in range(0, len(items), step)]


class _Progress:
    def __init__(self, progress: Progress | None, total: int) -> None:
        self.progress, self.total, self.done = progress, max(1, total), 0

    def add(self, units: int) -> None:
        self.done = min(self.total, self.done + units)
        if self.progress is not None:
            self.progress(self.done, self.total)


# --- the check -------------------------------------------------------------------------

def _select(classes: slice | Sequence[int] | None, count: int) -> list[int]:
    if classes is None:
        return list(range(count))
    if isinstance(classes, slice):
        return list(range(count))[classes]
    chosen = sorted(set(classes))
    if chosen and (chosen[0] < 0 or chosen[-1] >= count):
        raise ValueError(f"A class index must be between 0 and {count - 1}.")
    return chosen


def _texts(cards: Sequence[Card], split: int) -> tuple[str, str]:
    return format_cards(FRONT_GET[split](cards)), format_cards(BACK_GET[split](cards))


@dataclass(slots=True)
class _Passes:
    """The two passes' answers, by position among the checked classes: each class's split
    and rule byte under the second-highest wheel (``split2``, ``rule2``) and the lowest
    (``split1``, ``rule1``), its shape index, and why a class is undecided, by wheel."""

    split2: bytearray
    rule2: bytearray
    shape: bytearray
    errors2: dict[int, str]
    split1: bytearray
    rule1: bytearray
    errors1: dict[int, str]


class _RuleCodes:
    """A class's rule byte in words: its rule id, ``<id>.fallback``, or "undecided"."""

    def __init__(self, rule_ids: Sequence[str]) -> None:
        self.names = dict(enumerate(rule_ids))

    def name(self, code: int) -> str:
        if code == UNDECIDED:
            return "undecided"
        base = self.names[code & ~FALLBACK_BIT & 0xFF]
        return base + ".fallback" if code & FALLBACK_BIT else base

    @staticmethod
    def fell_back(code: int) -> bool:
        return code != UNDECIDED and bool(code & FALLBACK_BIT)



def check_way(way: HouseWay, progress: Progress | None = None, workers: int = 1,
              classes: slice | Sequence[int] | None = None) -> CheckResult:
    """Decide every class of ``way`` under both wheel settings; report and tables.

    ``classes`` limits the check to some class indices (a slice or a list, in key
    order; tests): the report then covers those classes only and there are no tables.
    ``progress(done, total)`` is called in this process after each of about 64 parts of
    each pass. ``workers`` > 1 forks that many processes (like ``class_build``).
    """
    start = time.perf_counter()
    keys, every, indices = _classes_to_check(way, classes)
    weights = [every[i][2] for i in indices]
    touched = [pos for pos, i in enumerate(indices) if wheel_matters(every[i][1])]
    n, m = len(indices), len(touched)
    # The third pass (the conditions of rules that decide nothing) is budgeted a tenth.
    track = _Progress(progress, n + m + (n + m) // 10)
    rule_ids = way.rule_ids
    with _runner(way, every, max(1, workers)) as run:
        passes = _decide_second_highest(run, indices, track)
        _decide_lowest(run, indices, touched, passes, track)
        per_rule = _per_rule(rule_ids, passes.rule2, weights)
        per_rule_lowest = _per_rule(rule_ids, passes.rule1, weights)
        reached = {r.removesuffix(".fallback") for counts in (per_rule, per_rule_lowest)
                   for r, hands in counts.items() if hands}
        unreached = [r for r in rule_ids if r not in reached]
        holds2, holds1 = _where_conditions_hold(run, way, unreached, indices, touched,
                                                passes.shape, track)
    track.add(track.total)
    codes = _RuleCodes(rule_ids)
    cards = [every[i][1] for i in indices]
    never_reached, shadowed = _unreached_rules(unreached, holds2, holds1, passes, codes,
                                               cards, weights, rule_ids)
    complete = len(indices) == len(every)
    undecided = sorted(set(passes.errors2) | set(passes.errors1))
    report: dict[str, Any] = {
        "name": way.name,
        "rules_digest": way.rules_digest,
        "complete": complete,
        "hands": sum(weights),
        "classes": n,
        **_fouls_and_undecided(way, passes, codes, cards, weights, undecided, m),
        "per_rule": per_rule,
        "per_rule_lowest": per_rule_lowest,
        "never_reached": never_reached,
        "shadowed": shadowed,
        "seconds": round(time.perf_counter() - start, 2),
    }
    tables: dict[str, ClassTable] = {}
    if complete and not undecided:
        for wheel, s, r in ((SECOND, passes.split2, passes.rule2),
                            (LOWEST, passes.split1, passes.rule1)):
            tables[wheel] = ClassTable(way.name, wheel, way.rules_digest, rule_ids, keys,
                                       bytes(s), bytes(r))
    return CheckResult(report, tables)


def _classes_to_check(way: HouseWay, classes: slice | Sequence[int] | None
                      ) -> tuple[ClassKeys, Sequence[tuple[int, tuple[Card, ...], int]], list[int]]:
    """Return the class keys, every class and the indices of those to check; refuse a way
    with more rules than a rule byte holds, and keys that do not match the classes."""
    if len(way.rules) > FALLBACK_BIT:
        raise ValueError(f"A house way may have at most {FALLBACK_BIT} rules; "
                         f"this one has {len(way.rules)}.")
    keys = class_keys()
    every = all_classes()
    if len(every) != len(keys.keys):
        raise ValueError("The class keys do not match the classes (rebuild the key file).")
    return keys, every, _select(classes, len(every))


def _decide_second_highest(run: Run, indices: Sequence[int], track: _Progress) -> _Passes:
    """Decide every class under the second-highest wheel; the lowest wheel's answers start
    as copies of these (``_decide_lowest`` redoes the classes where the wheel matters)."""
    n = len(indices)
    split2, rule2, shape = bytearray(n), bytearray(n), bytearray(n)
    errors2: dict[int, str] = {}
    parts = _chunks(range(n))
    for part, (s, r, sh, errs) in zip(
            parts, run(_decide_chunk, [(SECOND, [indices[p] for p in part])
                                       for part in parts]), strict=True):
        lo = part[0]
        split2[lo:lo + len(part)], rule2[lo:lo + len(part)] = s, r
        shape[lo:lo + len(part)] = sh
        errors2.update((lo + p, why) for p, why in errs)
        track.add(len(part))
    return _Passes(split2, rule2, shape, errors2, bytearray(split2), bytearray(rule2),
                   dict(errors2))


def _decide_lowest(run: Run, indices: Sequence[int], touched: Sequence[int], passes: _Passes,
                   track: _Progress) -> None:
    """Decide under the lowest wheel the classes where it can matter (``touched``)."""
    tparts = _chunks(touched)
    for part, (s, r, _, errs) in zip(
            tparts, run(_decide_chunk, [(LOWEST, [indices[p] for p in part])
                                        for part in tparts]), strict=True):
        for k, pos in enumerate(part):
            passes.split1[pos], passes.rule1[pos] = s[k], r[k]
            passes.errors1.pop(pos, None)
        passes.errors1.update((part[p], why) for p, why in errs)
        track.add(len(part))


def _where_conditions_hold(run: Run, way: HouseWay, unreached: Sequence[str],
                           indices: Sequence[int], touched: Sequence[int], shape: bytearray,
                           track: _Progress) -> tuple[list[list[int]], list[list[int]]]:
    """For each rule that decides nothing, the positions where its own condition holds,
    under the second-highest wheel and under the lowest (where the wheel matters)."""
    holds2: list[list[int]] = [[] for _ in unreached]
    holds1: list[list[int]] = [[] for _ in unreached]
    if not unreached:
        return holds2, holds1
    n, m = len(indices), len(touched)
    wanted = {_SHAPE_INDEX[s] for r in unreached for s in way.rule(r).shapes}
    cand2 = [p for p in range(n) if shape[p] in wanted]
    touched_set = set(touched)
    cand1 = [p for p in cand2 if p in touched_set]
    budget = (n + m) // 10
    units = max(1, len(cand2) + len(cand1))
    for cand, wheel, holds in ((cand2, SECOND, holds2), (cand1, LOWEST, holds1)):
        cparts = _chunks(cand)
        for part, found in zip(cparts, run(
                _conditions_chunk,
                [(wheel, unreached, [indices[p] for p in part]) for part in cparts]),
                strict=True):
            for k, positions in enumerate(found):
                holds[k].extend(part[p] for p in positions)
            track.add(len(part) * budget // units)
    return holds2, holds1


def _unreached_rules(unreached: Sequence[str], holds2: Sequence[list[int]],
                     holds1: Sequence[list[int]], passes: _Passes, codes: _RuleCodes,
                     cards: Sequence[tuple[Card, ...]], weights: Sequence[int],
                     rule_ids: Sequence[str]) -> tuple[list[str], list[dict[str, Any]]]:
    """Split the rules that decide nothing into the never reached (their own condition
    holds on no hand) and the shadowed: the rules that decide those hands, most hands
    first, and the first such hand."""
    never_reached: list[str] = []
    shadowed: list[dict[str, Any]] = []
    order = {r: i for i, r in enumerate(rule_ids)}
    for k, rid in enumerate(unreached):
        where = dict.fromkeys(holds2[k], SECOND)
        for p in holds1[k]:
            where.setdefault(p, LOWEST)
        if not where:
            never_reached.append(rid)
            continue
        by: Counter[str] = Counter()
        for p, wheel in where.items():
            by[codes.name((passes.rule2 if wheel == SECOND else passes.rule1)[p])] += weights[p]
        first = min(where)
        ranked = sorted(by, key=lambda r: (-by[r], order.get(r.removesuffix(".fallback"), 0)))
        shadowed.append({
            "rule": rid, "by": ranked, "by_hands": {r: by[r] for r in ranked},
            "hands": sum(by.values()),
            "example": {"cards": format_cards(cards[first]),
                        "rule": codes.name(
                            (passes.rule2 if where[first] == SECOND else passes.rule1)[first]),
                        "wheel": where[first]}})
    return never_reached, shadowed


def _fouls_and_undecided(way: HouseWay, passes: _Passes, codes: _RuleCodes,
                         cards: Sequence[tuple[Card, ...]], weights: Sequence[int],
                         undecided: Sequence[int], lowest_classes: int) -> dict[str, Any]:
    """Return the report's fouled and undecided hands: counts, examples, fouls by rule and
    both by wheel (``lowest_classes``: how many the lowest wheel decided itself)."""
    n = len(weights)
    rule2, rule1 = passes.rule2, passes.rule1
    fouled = [p for p in range(n) if codes.fell_back(rule2[p]) or codes.fell_back(rule1[p])]

    def weight_of(positions: Iterable[int]) -> int:
        return sum(weights[p] for p in positions)

    fouls_by_rule: Counter[str] = Counter()
    for p in fouled:
        code = rule2[p] if codes.fell_back(rule2[p]) else rule1[p]
        fouls_by_rule[codes.name(code).removesuffix(".fallback")] += weights[p]
    return {
        "fouled_hands": weight_of(fouled),
        "fouls": _foul_examples(way, passes, codes, cards, weights, fouled),
        "fouls_by_rule": dict(fouls_by_rule),
        "undecided_hands": weight_of(undecided),
        "undecided": _undecided_examples(passes, cards, weights, undecided),
        "by_wheel": {
            SECOND: {"fouled_hands": weight_of(p for p in range(n) if codes.fell_back(rule2[p])),
                     "undecided_hands": weight_of(passes.errors2)},
            LOWEST: {"fouled_hands": weight_of(p for p in range(n) if codes.fell_back(rule1[p])),
                     "undecided_hands": weight_of(passes.errors1),
                     "classes_decided": lowest_classes},
        },
    }


def _foul_examples(way: HouseWay, passes: _Passes, codes: _RuleCodes,
                   cards: Sequence[tuple[Card, ...]], weights: Sequence[int],
                   fouled: Sequence[int]) -> list[dict[str, Any]]:
    """Return up to ``MAX_EXAMPLES`` fouling hands, the lowest wheel's only where it differs."""
    fouls: list[dict[str, Any]] = []
    for pos in fouled:
        for wheel, rules, splits in ((SECOND, passes.rule2, passes.split2),
                                     (LOWEST, passes.rule1, passes.split1)):
            code = rules[pos]
            if len(fouls) >= MAX_EXAMPLES or not codes.fell_back(code):
                continue
            if wheel == LOWEST and passes.rule2[pos] == code and passes.split2[pos] == splits[pos]:
                continue    # the same answer as the second-highest wheel's
            fouls.append(_foul_example(way, cards[pos], codes.name(code), splits[pos],
                                       wheel, weights[pos]))
    return fouls


def _undecided_examples(passes: _Passes, cards: Sequence[tuple[Card, ...]],
                        weights: Sequence[int], undecided: Sequence[int]
                        ) -> list[dict[str, Any]]:
    """Return up to ``MAX_EXAMPLES`` hands no rule decides, each with why."""
    examples = []
    for pos in undecided[:MAX_EXAMPLES]:
        wheel = SECOND if pos in passes.errors2 else LOWEST
        why = passes.errors2.get(pos) or passes.errors1[pos]
        examples.append({"cards": format_cards(cards[pos]), "wheel": wheel,
                         "hands": weights[pos], "reason": why})
    return examples


def _per_rule(rule_ids: Sequence[str], rules: bytes | bytearray, weights: Sequence[int]
              ) -> dict[str, int]:
    """Hands decided by each rule id (``.fallback`` apart), in the sheet's order, 0s kept."""
    by = [0] * 256
    for code, w in zip(rules, weights, strict=True):
        by[code] += w
    out = {}
    for i, rid in enumerate(rule_ids):
        out[rid] = by[i]
        if by[i | FALLBACK_BIT]:
            out[rid + ".fallback"] = by[i | FALLBACK_BIT]
    return out


def _foul_example(way: HouseWay, cards: Sequence[Card], rule_id: str, played: int,
                  wheel: str, hands: int) -> dict[str, Any]:
    """Describe a fouling hand: the rule's own setting, and the fallback's."""
    rule = way.rule(rule_id)
    split = _rule_split(rule, SevenCards(cards, wheel, None))
    front, back = _texts(cards, played if split is None else split)
    fallback_front, fallback_back = _texts(cards, played)
    return {"cards": format_cards(cards), "rule": rule.id, "front": front, "back": back,
            "fallback_front": fallback_front, "fallback_back": fallback_back,
            "wheel": wheel, "hands": hands}
