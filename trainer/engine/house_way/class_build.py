"""Build a house way's class table with the interpreter (``classes`` explains tables).

``build_class_table(way, wheel)`` decides one representative of each of the 292,253
classes (``HouseWay.decide``, the reference path) and records the split, the rule and
the two strengths. ``tools/build_class_tables.py`` writes the presets' tables with it;
a custom house way is built when it is published, never inside a request.
"""
from __future__ import annotations

from collections.abc import Sequence
from multiprocessing import get_context

from ..cards import Card
from .classes import (
    FALLBACK_BIT,
    ClassKeys,
    ClassTable,
    all_classes,
    class_keys,
)
from .interpreter import HouseWay

Row = tuple[int, int]


def decide_classes(way: HouseWay, wheel: str, hands: Sequence[Sequence[Card]]) -> list[Row]:
    """Return (split, rule byte) of each hand, its seven cards in class order."""
    index = {rid: i for i, rid in enumerate(way.rule_ids)}
    rows = []
    for cards in hands:
        split, rule, _ = way.decide(cards, wheel)
        base = rule.removesuffix(".fallback")
        code = index[base] | (FALLBACK_BIT if base != rule else 0)
        rows.append((split, code))
    return rows


_WAY: list[HouseWay] = []


def _decide_part(args: tuple[str, list[tuple[Card, ...]]]) -> list[Row]:
    wheel, hands = args
    return decide_classes(_WAY[0], wheel, hands)


def build_class_table(way: HouseWay, wheel: str, workers: int = 1,
                      keys: ClassKeys | None = None) -> ClassTable:
    """Decide every class of ``way`` under ``wheel`` with the interpreter: its table.

    Every class's representative is decided with its cards in class order, the order
    ``HouseWay.set`` applies the table's split to.
    """
    if len(way.rules) > FALLBACK_BIT:
        raise ValueError(f"{way.name}: a class table holds at most {FALLBACK_BIT} rules.")
    keys = keys or class_keys()
    classes = all_classes()
    if [k for k, _, _ in classes] != list(keys.keys):
        raise ValueError("The class keys do not match the classes (rebuild the key file).")
    hands = [cards for _, cards, _ in classes]
    if workers > 1:
        step = -(-len(hands) // (workers * 8))
        parts = [(wheel, hands[i:i + step]) for i in range(0, len(hands), step)]
        _WAY[:] = [way]
        try:
            with get_context("fork").Pool(workers) as pool:
                rows = [row for part in pool.map(_decide_part, parts) for row in part]
        finally:
            _WAY.clear()
    else:
        rows = decide_classes(way, wheel, hands)
    return ClassTable(way.name, str(wheel), way.rules_digest, way.rule_ids, keys,
                      bytes(r[0] for r in rows), bytes(r[1] for r in rows))
