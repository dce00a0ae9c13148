"""The skills targeted practice deals for in one drill kind under one context, with their shares.

``catalogue(drill, context)`` lists the skills a question can be dealt for
(``Drill.deal_for``), numbered as the policy and the benchmark number them: a house
way's rules by the number of the 154,143,080 seven-card hands each decides (its class
table, ``house_way.dealing.rule_hands``; a fallback's hands count for its rule), the
most first, ties by id; every other kind's declared skills in their declared order,
with equal shares (their generators' shares are not worked out). The *floor* skills are
those the readiness criterion asks for: a way's rules deciding at least ``FLOOR_SHARE``
of hands; every skill of another kind.

A rule that decides no hand (shadowed by an earlier one), and a declared skill for which
``deal_for`` deals nothing under this context (a pay line of another table, the queen-
high push where the profile has none), is left out: it is never dealt for.

The last ``CACHE_SIZE`` catalogues are kept (a way's costs its class table's index once).
"""
from __future__ import annotations

import json
import random
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ..drills.base import Drill
from ..drills.context import DrillContext
from ..house_way.dealing import ClassTableMissing, rule_hands
from .keys import skill_id
from .policy import FLOOR_SHARE

TOTAL_HANDS = 154_143_080
CACHE_SIZE = 32
# Seeds ``deal_for`` is tried with before a declared skill counts as never dealt here.
PROBE_SEEDS = 3

_CACHE: OrderedDict[str, Catalogue] = OrderedDict()
_LOCK = threading.Lock()


@dataclass(frozen=True)
class Catalogue:
    """The skills of a kind under a context: ids in the policy's order, shares, floor."""

    kind: str
    skills: tuple[str, ...]
    shares: tuple[float, ...]
    floor: frozenset[int]
    # Whether the skills are a house way's rules (scoped to the way and its rules).
    of_a_way: bool
    index: dict[str, int] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        self.index.update((s, i) for i, s in enumerate(self.skills))

    def unseen_order(self, seen: set[int]) -> list[int]:
        """Return the skills not in ``seen`` in the order to introduce them: floor first."""
        return sorted((i for i in range(len(self.skills)) if i not in seen),
                      key=lambda i: (i not in self.floor, i))


def _way_skills(context: DrillContext) -> list[tuple[str, float]] | None:
    """Return a way's reachable rules with their shares of all hands; None without a class table."""
    try:
        hands = rule_hands(context.way, context.table.wheel)
    except ClassTableMissing:
        return None
    merged: dict[str, int] = {}
    for rule, count in hands.items():
        merged[skill_id(rule)] = merged.get(skill_id(rule), 0) + count
    ordered = sorted(merged.items(), key=lambda kv: (-kv[1], kv[0]))
    return [(rule, count / TOTAL_HANDS) for rule, count in ordered if count > 0]


def _dealable(drill: Drill, context: DrillContext, skill: str) -> bool:
    return any(drill.deal_for(random.Random(seed), context, skill) is not None
               for seed in range(PROBE_SEEDS))


def _build(drill: Drill, context: DrillContext) -> Catalogue:
    declared = drill.skills_of(context)
    rule_ids = set(context.way.rule_ids)
    if declared and all(s.id in rule_ids for s in declared):
        found = _way_skills(context)
        if found is None:   # no class table: the sheet's rules, equal shares
            found = [(s.id, 1 / len(declared)) for s in declared]
        return Catalogue(drill.slug, tuple(r for r, _ in found), tuple(s for _, s in found),
                         frozenset(i for i, (_, share) in enumerate(found)
                                   if share >= FLOOR_SHARE), True)
    usable = [s.id for s in declared if _dealable(drill, context, s.id)]
    share = 1 / len(usable) if usable else 0.0
    return Catalogue(drill.slug, tuple(usable), tuple(share for _ in usable),
                     frozenset(range(len(usable))), False)


def _cache_key(drill: Drill, context: DrillContext) -> str:
    data: dict[str, Any] = context.as_dict()
    data.pop("focus_rules", None)
    return drill.slug + "\n" + json.dumps(data, sort_keys=True)


def catalogue(drill: Drill, context: DrillContext) -> Catalogue:
    """Return the catalogue of ``drill`` under ``context`` (kept; module docstring)."""
    key = _cache_key(drill, context)
    with _LOCK:
        found = _CACHE.get(key)
        if found is not None:
            _CACHE.move_to_end(key)
            return found
    built = _build(drill, context)
    with _LOCK:
        _CACHE[key] = built
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    return built
