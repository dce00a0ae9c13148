"""Dealing by rule (issue 28 part 6): a hand that a given rule of a house way decides.

``deal_for_rule(way, rule_id, rng)`` deals seven cards that ``way`` sets with
``rule_id`` (the id ``HouseWay.set(...).rule`` answers: a rule of the sheet, or
``<rule>.fallback`` for the hands where that rule's own setting would foul and the
§19 fallback plays). The hand is drawn from the way's class table (``classes``): a
class the rule decides, chosen with a weight equal to the number of seven-card hands
in the class, then one of that class's hands uniformly at random (suits, ranks and
the joker as the class holds them). The two steps together deal every hand that the
rule decides with the same chance: a deal conditioned on the rule.

A rule that decides no class (shadowed by an earlier rule, or a condition no hand
meets) is *unreachable*: ``deal_for_rule`` raises ``UnreachableRule`` at once, it never
deals and re-deals hoping to meet it; ``reachable_rules``/``unreachable_rules`` list
them, ``rule_hands`` says how many hands each rule decides.

The table is only ever read, never built: a preset's shipped table or the table
attached to (or passed with) a custom way. A way without one raises
``ClassTableMissing``; the app builds a custom way's tables when it is published
(``class_build``, in a worker), never in a request.

The per-table index (``rule_index``) is built once and kept: the class numbers grouped
by rule (``array('I')``) and their running weights (``array('I')``; all 154,143,080
hands fit), about 2.3 MB a (way, wheel). It is keyed by what decides it (the table's
rule column, rule ids and keys), so a way loaded twice shares it; the last
``INDEX_CACHE_SIZE`` indexes are kept. The class weights are computed once a process
from the shared class keys (``class_weights``).
"""
from __future__ import annotations

import random
import threading
from array import array
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import accumulate, combinations, product
from math import comb

from ..cards import DECK, Card
from ..hands import JOKER_PRIME, PRIMES, Wheel
from ..messages import N_, EngineError, Message
from .classes import MASK_BITS, ClassKeys, ClassTable, class_keys
from .interpreter import HouseWay

FALLBACK = ".fallback"
INDEX_CACHE_SIZE = 16
# Rejection tries for a class without a flush before listing its hands (never needed in
# practice: over 84% of a rank pattern's suit choices hold no flush; see ``_plain``).
PLAIN_TRIES = 64
_MASK = (1 << MASK_BITS) - 1
_ALL_PRIMES = (*PRIMES, JOKER_PRIME)


# --- refusals ----------------------------------------------------------------------------

class ClassTableMissing(EngineError):
    """The house way has no class table for this wheel setting: nothing can be dealt."""


class UnreachableRule(EngineError):
    """No hand is set by this rule: it cannot be dealt for."""


class UnknownRule(EngineError):
    """The house way has no such rule."""


# --- the classes' weights ------------------------------------------------------------------

def decode(key: int) -> tuple[tuple[int, ...], int, int]:
    """Return (count of each rank index 0..12, joker 0/1, flush mask) of a class key."""
    product_, mask = key >> MASK_BITS, key & _MASK
    counts = [0] * 14
    for i, p in enumerate(_ALL_PRIMES):
        while product_ % p == 0:
            product_ //= p
            counts[i] += 1
    if product_ != 1 or sum(counts) != 7 or counts[13] > 1:
        raise ValueError(f"{key} is not a class key.")
    return tuple(counts[:13]), counts[13], mask


_WEIGHTS: dict[str, array[int]] = {}
# Two locks: an index build reads the weights (one process-wide ``threading.Lock`` each).
_WEIGHTS_LOCK = threading.Lock()
_INDEX_LOCK = threading.Lock()


def class_weights(keys: ClassKeys) -> array[int]:
    """Return the number of seven-card hands in each class, in key order (once a process).

    A flush class counts its flush suit (4) times the other suits of each rank; the one
    class without a flush of a rank pattern (mask 0, first of its pattern's keys, which
    are consecutive) holds the rest of the pattern's hands.
    """
    found = _WEIGHTS.get(keys.digest)
    if found is not None:
        return found
    with _WEIGHTS_LOCK:
        found = _WEIGHTS.get(keys.digest)
        if found is None:
            found = _WEIGHTS[keys.digest] = _weights(keys.keys)
    return found


def _weights(keys: array[int]) -> array[int]:
    n = len(keys)
    weights = array("I", bytes(4 * n))
    i = 0
    while i < n:
        pattern = keys[i] >> MASK_BITS
        j = i + 1
        while j < n and keys[j] >> MASK_BITS == pattern:
            j += 1
        counts, _, _ = decode(keys[i])
        # A flush class: its flush suit (4 ways), then for each rank held the other suits:
        # one card fewer of them for a rank in the flush suit.
        held = [(1 << r, comb(3, c - 1), comb(3, c)) for r, c in enumerate(counts) if c]
        flushes = 0
        for k in range(i, j):
            mask = keys[k] & _MASK
            if mask:
                w = 4
                for bit, inside, outside in held:
                    w *= inside if mask & bit else outside
                weights[k] = w
                flushes += w
        if not keys[i] & _MASK:
            total = 1
            for c in counts:
                total *= comb(4, c)
            weights[i] = total - flushes
        i = j
    return weights


# --- the index: rule -> classes, running weights -------------------------------------------

@dataclass(frozen=True, slots=True)
class RuleIndex:
    """One class table's classes grouped by deciding rule, with running hand counts.

    ``classes[start:end]`` are the class numbers a rule byte decides (in key order) and
    ``running[k]`` the hands of ``classes[..k]`` of the same rule, so a class is drawn
    with one bisection. ``spans`` maps a rule id (``.fallback`` ids included) to
    (start, end); only rules that decide a class are in it.
    """

    name: str
    wheel: str
    rule_ids: tuple[str, ...]
    keys: ClassKeys
    classes: array[int]
    running: array[int]
    spans: Mapping[str, tuple[int, int]]

    def hands(self, rule_id: str) -> int:
        """Return how many seven-card hands the rule decides (0: unreachable)."""
        span = self.spans.get(rule_id)
        return self.running[span[1] - 1] if span else 0


_INDEXES: OrderedDict[tuple[str, tuple[str, ...], str, bytes], RuleIndex] = OrderedDict()


def _build_index(table: ClassTable) -> RuleIndex:
    """Group the classes by rule byte (a ``bytes.find`` walk per rule: no list of 292,253
    ints is ever made) and run the weights within each group."""
    weights = class_weights(table.keys)
    rule = table.rule
    names = table.rule_names
    classes = array("I")
    running = array("I")
    spans: dict[str, tuple[int, int]] = {}
    for code in sorted(set(rule)):
        mark = bytes((code,))
        start = len(classes)
        i = rule.find(mark)
        while i != -1:
            classes.append(i)
            i = rule.find(mark, i + 1)
        running.extend(accumulate(weights[i] for i in classes[start:]))
        spans[names[code]] = (start, len(classes))
    return RuleIndex(table.name, table.wheel, table.rule_ids, table.keys, classes, running,
                     spans)


def table_of(way: HouseWay, wheel: str = Wheel.SECOND_HIGHEST,
             table: ClassTable | None = None) -> ClassTable:
    """Return the class table to deal from: ``table`` (which must be ``way``'s), or the one
    the way holds (a preset's shipped table, or one attached); never built here.

    ``ClassTableMissing`` when there is none.
    """
    wheel = Wheel(wheel).value
    if table is not None:
        if table.rules_digest != way.rules_digest or table.rule_ids != way.rule_ids \
                or table.wheel != wheel:
            raise ValueError(f"{way.name}: this class table was built from other rules or "
                             "for another wheel setting.")
        return table
    found = way.class_table(wheel)
    if found is None:
        raise ClassTableMissing(Message(
            N_("The house way %(name)s has no class table yet, so no hand can be dealt by "
               "its rules; the table is made when the way is published."), name=way.name))
    return found


def rule_index(way: HouseWay, wheel: str = Wheel.SECOND_HIGHEST,
               table: ClassTable | None = None) -> RuleIndex:
    """Return the dealing index of ``way``'s class table for ``wheel`` (built once, kept)."""
    found = table_of(way, wheel, table)
    key = (found.wheel, found.rule_ids, found.keys.digest, found.rule)
    with _INDEX_LOCK:
        index = _INDEXES.get(key)
        if index is None:
            index = _INDEXES[key] = _build_index(found)
            while len(_INDEXES) > INDEX_CACHE_SIZE:
                _INDEXES.popitem(last=False)
        else:
            _INDEXES.move_to_end(key)
    return index


def warm(tables: Iterable[tuple[HouseWay, str]]) -> int:
    """Build now the shared class weights and the dealing index of each (house way, wheel
    setting) given that has a class table; return how many indexes were built or found.

    A web server calls it at start (``trainer/cli/gunicorn_conf.py``: under ``--preload``
    once in the master, whose workers share the arrays) for the ways its groups deal
    from, so no request pays for them: about 1.5 s for the weights and 0.2 to 0.5 s for
    an index, measured at load average 8; the weights 1.2 MB, an index 2.3 MB.
    """
    class_weights(class_keys())
    built = 0
    for way, wheel in tables:
        if way.class_table(Wheel(wheel).value) is not None:
            rule_index(way, wheel)
            built += 1
    return built


def _rule_ids_with_fallbacks(way: HouseWay) -> list[str]:
    return [rid for r in way.rule_ids for rid in (r, r + FALLBACK)]


def reachable_rules(way: HouseWay, wheel: str = Wheel.SECOND_HIGHEST,
                    table: ClassTable | None = None) -> tuple[str, ...]:
    """Return the rule ids that decide some hand, in the sheet's order (a rule's
    ``.fallback`` id after it, when some of its hands fall back)."""
    spans = rule_index(way, wheel, table).spans
    return tuple(r for r in _rule_ids_with_fallbacks(way) if r in spans)


def unreachable_rules(way: HouseWay, wheel: str = Wheel.SECOND_HIGHEST,
                      table: ClassTable | None = None) -> tuple[str, ...]:
    """Return the sheet's rules that decide no hand at all, in the sheet's order."""
    spans = rule_index(way, wheel, table).spans
    return tuple(r for r in way.rule_ids if r not in spans)


def rule_hands(way: HouseWay, wheel: str = Wheel.SECOND_HIGHEST,
               table: ClassTable | None = None) -> dict[str, int]:
    """Return how many of the 154,143,080 hands each reachable rule id decides."""
    index = rule_index(way, wheel, table)
    return {r: index.hands(r) for r in reachable_rules(way, wheel, table)}


# --- dealing -------------------------------------------------------------------------------

def deal_for_rule(way: HouseWay, rule_id: str, rng: random.Random,
                  wheel: str = Wheel.SECOND_HIGHEST,
                  table: ClassTable | None = None) -> tuple[Card, ...]:
    """Deal seven cards (in dealt order) that ``way`` sets with ``rule_id`` under ``wheel``.

    Every hand the rule decides is equally likely. ``UnknownRule`` for an id that is not
    on the sheet, ``UnreachableRule`` when the rule decides no hand, ``ClassTableMissing``
    when the way has no class table (``table`` may pass a stored one).
    """
    base = rule_id.removesuffix(FALLBACK) if isinstance(rule_id, str) else ""
    if base not in way.rule_ids:
        raise UnknownRule(Message(N_("The house way %(name)s has no rule %(rule)s."),
                                  name=way.name, rule=str(rule_id)))
    index = rule_index(way, wheel, table)
    span = index.spans.get(rule_id)
    if span is None:
        raise UnreachableRule(Message(
            N_("No hand is set by rule %(rule)s of the house way %(name)s, so none can be "
               "dealt for it."), rule=rule_id, name=way.name))
    start, end = span
    running = index.running
    pick = rng.randrange(running[end - 1])
    k = bisect_right(running, pick, start, end)
    return deal_in_class(index.keys.keys[index.classes[k]], rng)


def deal_in_class(key: int, rng: random.Random, tries: int = PLAIN_TRIES) -> tuple[Card, ...]:
    """Deal one of a class's hands, each with the same chance, in a random order."""
    counts, joker, mask = decode(key)
    cards = _flush(counts, mask, rng) if mask else _plain(counts, joker, rng, tries)
    if joker:
        cards.append(52)
    rng.shuffle(cards)
    return tuple(DECK[c] for c in cards)


def _flush(counts: tuple[int, ...], mask: int, rng: random.Random) -> list[int]:
    """A flush class: any flush suit; each rank in the mask holds it, the rest do not.

    Every such choice is a hand of the class (a suit with five cards, four with the
    joker, is the only one that can: seven cards hold no two), and the choices are
    independent, so each hand has the same chance.
    """
    suit = rng.randrange(4)
    others = [s for s in range(4) if s != suit]
    cards: list[int] = []
    for r, c in enumerate(counts):
        if not c:
            continue
        suits = [suit, *rng.sample(others, c - 1)] if mask >> r & 1 else rng.sample(others, c)
        cards.extend(r * 4 + s for s in suits)
    return cards


def _plain(counts: tuple[int, ...], joker: int, rng: random.Random, tries: int) -> list[int]:
    """A class without a flush: suits drawn per rank, again while they make a flush.

    Over 84% of a rank pattern's suit choices make no flush (the worst is six different
    ranks with the joker: 616 of 4,096 choices hold four of a suit), so the expected
    number of draws is below 1.18 and 64 draws all fail with a chance below 1e-52.
    After ``tries`` draws the class's hands are listed and one is chosen (the same
    chance for each either way): never a loop without end.
    """
    need = 5 - joker
    held = [(r, c) for r, c in enumerate(counts) if c]
    for _ in range(tries):
        load = [0, 0, 0, 0]
        cards: list[int] = []
        for r, c in held:
            for s in rng.sample(range(4), c):
                load[s] += 1
                cards.append(r * 4 + s)
        if max(load) < need:
            return cards
    hands = []
    for choice in product(*(combinations(range(4), c) for _, c in held)):
        load = [0, 0, 0, 0]
        for suits in choice:
            for s in suits:
                load[s] += 1
        if max(load) < need:
            hands.append(choice)
    if not hands:
        raise ValueError("This rank pattern has no hand without a flush.")
    chosen = hands[rng.randrange(len(hands))]
    return [r * 4 + s for (r, _), suits in zip(held, chosen, strict=True) for s in suits]

