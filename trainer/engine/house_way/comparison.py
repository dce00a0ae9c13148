"""What a way changes: the share of all hands another way sets to another value (issue 18).

``diff_ways(reference, new)`` compares two ways' class tables (second-highest wheel by
default): the exact share of all hands whose setting differs in value, per rule of the
new way, with example hands. ``class_hands`` finds a class key's representative hand.
``proof`` makes the tables (``check_way``) and names ``diff_ways`` too.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from fractions import Fraction
from math import comb
from typing import Any

from ..cards import Card, format_cards
from ..hands import CARD_PRIME, Wheel, rank2, rank5
from .classes import MASK_BITS, class_order, classes_of
from .interpreter import HouseWay
from .interpreter.splits import BACK_GET, FRONT_GET

__all__ = ["TOTAL_HANDS", "class_hands", "diff_ways"]

TOTAL_HANDS = comb(53, 7)
SECOND = Wheel.SECOND_HIGHEST.value

_RANK_PRIMES = tuple(CARD_PRIME[r * 4] for r in range(13))


def _multiset(product: int) -> tuple[tuple[int, ...], int]:
    """Return (count of each rank, joker) of a class key's prime product."""
    counts = []
    for p in _RANK_PRIMES:
        c = 0
        while product % p == 0:
            product //= p
            c += 1
        counts.append(c)
    joker = int(product == CARD_PRIME[52])
    if product not in (1, CARD_PRIME[52]) or sum(counts) + joker != 7:
        raise ValueError("A class key that is not seven cards.")
    return tuple(counts), joker


def class_hands(keys: Sequence[int]) -> dict[int, tuple[tuple[Card, ...], int]]:
    """Return each class key's representative (in class order) and its weight."""
    out: dict[int, tuple[tuple[Card, ...], int]] = {}
    wanted = set(keys)
    for product in sorted({k >> MASK_BITS for k in wanted}):
        for cards, weight in classes_of(*_multiset(product)):
            key, ordered = class_order(cards)
            if key in wanted:
                out[key] = (tuple(ordered), weight)
    if len(out) != len(wanted):
        raise ValueError("A class key that names no class.")
    return out


def _share_text(share: Fraction) -> str:
    if 0 < share < Fraction(5, 10 ** 6):
        return "less than 0.001%"
    return f"{float(share) * 100:.3f}%"


def diff_ways(reference: HouseWay, new: HouseWay, examples: int = 3,
              wheel: str = SECOND) -> dict[str, Any]:
    """Compare two ways on every class: the share of hands set to another value.

    Both ways need a class table for ``wheel`` (shipped or attached). Two settings
    differ when the back or the front has another value (rules.md §16: card choices of
    the same value are the same setting). ``per_rule`` breaks the changed hands down by
    the rule of ``new`` that decides them, most hands first, each with example hands
    (the first in class order).
    """
    start = time.perf_counter()
    old_t, new_t = reference.class_table(wheel), new.class_table(wheel)
    for way, table in ((reference, old_t), (new, new_t)):
        if table is None:
            raise ValueError(f"{way.title} has no class table for the {wheel} wheel "
                             "setting: check it first.")
    assert old_t is not None and new_t is not None
    if old_t.keys.digest != new_t.keys.digest:
        raise ValueError("The two class tables were made for other class keys.")
    keys = old_t.keys.keys
    candidates = [i for i, (a, b) in enumerate(zip(old_t.split, new_t.split, strict=True))
                  if a != b]
    hands = class_hands([keys[i] for i in candidates])
    changed = classes_changed = 0
    by_rule: dict[str, dict[str, Any]] = {}
    for i in candidates:
        cards, weight = hands[keys[i]]
        a, b = old_t.split[i], new_t.split[i]
        old_back, old_front = BACK_GET[a](cards), FRONT_GET[a](cards)
        new_back, new_front = BACK_GET[b](cards), FRONT_GET[b](cards)
        if rank5(old_back, wheel) == rank5(new_back, wheel) and \
                rank2(old_front) == rank2(new_front):
            continue
        changed += weight
        classes_changed += 1
        rid = new_t.rule_id(i)
        entry = by_rule.setdefault(rid, {"rule": rid, "hands": 0, "examples": []})
        entry["hands"] += weight
        if len(entry["examples"]) < examples:
            entry["examples"].append({
                "cards": format_cards(cards), "hands": weight,
                "old_front": format_cards(old_front), "old_back": format_cards(old_back),
                "new_front": format_cards(new_front), "new_back": format_cards(new_back),
                "old_rule": old_t.rule_id(i)})
    order = {r: i for i, r in enumerate(new.rule_ids)}
    per_rule = sorted(by_rule.values(), key=lambda e: (
        -e["hands"], order.get(e["rule"].removesuffix(".fallback"), 0), e["rule"]))
    share = Fraction(changed, TOTAL_HANDS)
    return {
        "reference": {"name": reference.name, "rules_digest": reference.rules_digest},
        "new": {"name": new.name, "rules_digest": new.rules_digest},
        "wheel": wheel,
        "hands": TOTAL_HANDS,
        "changed_hands": changed,
        "classes_changed": classes_changed,
        "share": float(share),
        "share_text": _share_text(share),
        "per_rule": per_rule,
        "seconds": round(time.perf_counter() - start, 2),
    }
