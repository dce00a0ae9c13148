"""Editing a house way as data (issue 18): the manager's editor, import and export.

A house way is the mapping a preset file holds (``interpreter.HouseWay`` reads it).
This package is what an editor needs around that mapping, with no Flask, no database
and no I/O beyond the engine's own package data. Its modules, one job each (import the
names from here):

* ``validation``: ``validate(data)``, every error at once, each a ``FieldError(path,
  message)`` (``errors``) whose message is a plain sentence for a table-games manager,
  with each condition's tests checked by ``conditions``, the explanation templates by
  ``explanation_checks`` and the values read by ``values``. It includes "this condition
  can never hold", decided exactly over every hand of the rule's shapes (``can_hold``,
  over ``facts``); ``build(data)``: validate, then the ``HouseWay`` (``EditError``
  otherwise);
* ``toml_file``: ``from_toml(text)`` / ``to_toml(data)``, import and export in the
  presets' format;
* ``drafts``: the draft operations (``move_rule``, ``delete_rule``, ``insert_rule``,
  ``replace_rule``, ``add_section``, ``delete_section``, ``move_section``,
  ``set_field``, ``set_rank_groups``), pure: each returns a new mapping, and a bad
  index is a ``ValueError`` with a sentence; ``new_rule_id`` names a rule added by form;
  ``preset_data(name)``: a preset's mapping, for "copy and edit";
* ``form``: ``RULE_KIND_INFO`` and ``CONDITION_FIELDS`` (with ``pair_group_choices(data)``):
  what the rule form offers, in words;
* ``explanation_checks``: ``explanation_problems`` and ``repair_explanations`` (issue 24).
"""
from __future__ import annotations

from .drafts import (
    add_section,
    delete_rule,
    delete_section,
    insert_rule,
    move_rule,
    move_section,
    new_rule_id,
    preset_data,
    replace_rule,
    set_field,
    set_rank_groups,
)
from .errors import EditError, FieldError
from .explanation_checks import explanation_problems, repair_explanations
from .form import CONDITION_FIELDS, RULE_KIND_INFO, ConditionField, KindInfo, pair_group_choices
from .toml_file import from_toml, to_toml
from .validation import build, validate

__all__ = [
    "CONDITION_FIELDS", "RULE_KIND_INFO", "ConditionField", "EditError", "FieldError",
    "KindInfo", "add_section", "build", "delete_rule", "delete_section",
    "explanation_problems", "from_toml", "insert_rule", "move_rule", "move_section",
    "new_rule_id", "pair_group_choices", "preset_data", "repair_explanations", "replace_rule",
    "set_field", "set_rank_groups", "to_toml", "validate",
]
