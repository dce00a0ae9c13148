"""House ways: each casino's rules for setting seven cards, as data, and their interpreter.

One TOML file per casino in ``presets/``; ``load(name)`` reads it and
``HouseWay.set`` applies it. ``set_hand`` is the dealer's "set the player's hand
the house way" and the ``house_way`` foul policy.
"""
from .interpreter import (
    DEFAULT_HOUSE_WAY,
    Example,
    HouseWay,
    HouseWayError,
    HouseWaySetting,
    Rule,
    Section,
    load,
    may_hold_sf,
    preset_names,
    set_hand,
)
from .kinds import POOLS, RULE_KINDS, kind_of, rule_family

__all__ = [
    "DEFAULT_HOUSE_WAY",
    "POOLS",
    "RULE_KINDS",
    "Example",
    "HouseWay",
    "HouseWayError",
    "HouseWaySetting",
    "Rule",
    "Section",
    "kind_of",
    "load",
    "may_hold_sf",
    "preset_names",
    "rule_family",
    "set_hand",
]
