"""The house-way interpreter: set any seven cards by a sheet's ordered rules.

A house way is data: one TOML file per casino in ``presets/``, holding the sheet's
sections and rules in the order written, each rule with its id, its sheet text, its
condition and an explanation template. This package reads a file and applies it
(docs/rules.md §18 and §19). Its modules, one job each (import the names from here):

* ``way``: ``HouseWay``, a sheet loaded (its sections indexed by shape, its class
  tables attached on first use) and ``set``/``decide``, the setting of seven cards
  by it, with the rank-pattern cache;
* ``sheet``: ``Rule``, ``Section``, ``Example`` and ``compile_section``: the sheet
  as data, its conditions compiled and checked when it loads;
* ``hand``: ``SevenCards``, the cards under evaluation (shape, splits, pools, found
  lazily), the foul ``fallback`` and ``sorted_cards``, which reads seven cards;
* ``wording``: a rule's explanation worded for the set hand, in English or a
  translation;
* ``results``: ``HouseWaySetting`` (what ``set`` answers) and ``HouseWayError``;
* ``splits`` and ``sf_screen``: the tables of the hot path, built once a process: the
  21 splits as item getters, and ``may_hold_sf``, the quick straight-or-flush screen;
* ``digest``: ``rules_digest``, the hash of what decides a hand (not its words);
* ``presets``: ``DEFAULT_HOUSE_WAY``, ``preset_names``, ``load`` (each preset once a
  process) and ``set_hand``.
"""
from __future__ import annotations

from .digest import rules_digest
from .presets import DEFAULT_HOUSE_WAY, load, preset_names, set_hand
from .results import HouseWayError, HouseWaySetting
from .sf_screen import may_hold_sf
from .sheet import Example, Rule, Section
from .way import HouseWay

__all__ = [
    "DEFAULT_HOUSE_WAY", "Example", "HouseWay", "HouseWayError", "HouseWaySetting", "Rule",
    "Section", "load", "may_hold_sf", "preset_names", "rules_digest", "set_hand",
]
