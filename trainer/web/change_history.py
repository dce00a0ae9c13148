"""A change history in words: any audit entry becomes rows of setting, old value, new value.

An entry's ``old`` and ``new`` may each be None (a creation has no old values,
a deletion no new ones), a dict of any keys, a list or a plain value. Both are
flattened to leaves (``settings`` -> drills -> kind -> length) and each leaf
that differs is one row; nothing about an entry's shape is assumed, so a new
action or a new key renders without a change here.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from trainer.web import drill_kinds

MISSING = object()
MAX_DEPTH = 6
ACTIONS = {
    "group.create": _l("Group created"),
    "group.settings": _l("Settings changed"),
}
LABELS = {
    "name": _l("Group name"),
    "house_way": _l("House way"),
    "profile": _l("Table rules"),
    "foul_policy": _l("Foul policy"),
    "drills": _l("Drills"),
    "length": _l("Questions per session"),
    "time_limit_s": _l("Seconds per question (timed)"),
    "certification": _l("Certification"),
    "min_accuracy": _l("Minimum accuracy (%)"),
    "window": _l("Over the last N timed questions"),
    "max_median_s": _l("Median time at most (s)"),
    "exam_length": _l("Exam questions"),
    "exam_time_limit_s": _l("Exam seconds per question"),
}
# Containers that add nothing to a label when something more precise follows them.
QUIET = frozenset({"settings", "criteria"})


@dataclass(frozen=True)
class HistoryRow:
    """One changed value of one audit entry, in words."""

    at: datetime | None
    who: str
    action: str
    setting: str
    old: str
    new: str


def _keyed_by_kind(items: list[Any]) -> bool:
    kinds = [item.get("kind") for item in items if isinstance(item, dict)]
    return (bool(items) and len(kinds) == len(items)
            and all(isinstance(k, str) for k in kinds) and len(set(kinds)) == len(kinds))


def flatten(value: Any, path: tuple[str, ...] = (), depth: int = 0) -> dict[tuple[str, ...], Any]:
    """Return the leaves of a JSON value by path; lists of dicts with a unique "kind" go by kind."""
    if depth < MAX_DEPTH and isinstance(value, dict) and value:
        leaves: dict[tuple[str, ...], Any] = {}
        for key, item in value.items():
            leaves.update(flatten(item, (*path, str(key)), depth + 1))
        return leaves
    if depth < MAX_DEPTH and isinstance(value, list) and _keyed_by_kind(value):
        return flatten({item["kind"]: {k: v for k, v in item.items() if k != "kind"}
                        for item in value}, path, depth)
    return {path: value}


def words(value: Any) -> str:
    """Return a value as plain words: a dash for nothing, yes or no, numbers without noise."""
    if value is MISSING or value is None or value == {} or value == []:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (str, int, float)):
        return str(value)
    if isinstance(value, list):
        return ", ".join(words(item) for item in value)
    return json.dumps(value, sort_keys=True, default=str)


def label(path: tuple[str, ...]) -> str:
    """Return a setting's name in words from its path of keys."""
    parts = [key for i, key in enumerate(path) if key not in QUIET or i == len(path) - 1]
    names = []
    for key in parts:
        if key in LABELS:
            names.append(str(LABELS[key]))
        elif drill_kinds.get_kind(key) is not None:
            names.append(drill_kinds.title(key))
        else:
            names.append(key.replace("_", " ").replace("-", " ").capitalize())
    return " › ".join(names) or "—"


def action_words(action: str) -> str:
    """Return an audit action in words; an action without words is shown as recorded."""
    return str(ACTIONS[action]) if action in ACTIONS else action


def entry_rows(entry: Any) -> list[HistoryRow]:
    """Return the rows of one audit entry: one per changed leaf, at least one."""
    old = {} if entry.old is None else flatten(entry.old)
    new = {} if entry.new is None else flatten(entry.new)
    who = entry.actor.name if getattr(entry, "actor", None) is not None else "—"
    action = action_words(entry.action)
    rows = []
    for path in [*new, *(p for p in old if p not in new)]:
        before, after = old.get(path, MISSING), new.get(path, MISSING)
        if before == after or words(before) == words(after) == "—":
            continue
        rows.append(HistoryRow(entry.at, who, action, label(path), words(before), words(after)))
    return rows or [HistoryRow(entry.at, who, action, "—", "—", "—")]


def history_rows(entries: Iterable[Any]) -> list[HistoryRow]:
    """Return the rows of a change history, entry by entry in the order given."""
    return [row for entry in entries for row in entry_rows(entry)]
