"""The draft operations, pure: each returns a new mapping and leaves its argument alone.

Move, delete, insert or replace a rule; add, delete or move a section; ``set_field``,
``set_rank_groups``; ``new_rule_id`` names a rule added by form, and ``preset_data``
is a preset's mapping to copy and edit. A bad place is an ``EngineError`` whose
sentence names the rule or section.
"""
from __future__ import annotations

import copy
import tomllib
from collections.abc import Mapping
from importlib import resources
from typing import Any

from ...messages import N_, EngineError, Message, Nn_, Plural
from .. import kinds as K
from ..interpreter import preset_names
from .form import TEXT_FIELDS


def preset_data(name: str) -> dict[str, Any]:
    """Return a preset's data as its file holds it (a fresh copy), for "copy and edit"."""
    if name not in preset_names():
        raise ValueError(f"Unknown house way '{name}': the presets are "
                         f"{', '.join(preset_names())}.")
    presets = resources.files("trainer.engine.house_way").joinpath("presets")
    text = presets.joinpath(f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _copy(data: Mapping[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(dict(data))


# A draft operation's refusals about places (issue 19): whole sentences for a rule of a
# section and for a section of the house way, so no noun ("section", "this house way") is
# dropped into another language's sentence; the counts are plural entries.
_PLACE_SENTENCES: dict[str, dict[str, tuple[str, str] | str]] = {
    "rule": {
        "none": Nn_("There is no rule %(number)s: section %(section)s has %(count)s rule.",
                    "There is no rule %(number)s: section %(section)s has %(count)s rules."),
        "insert": Nn_("A rule cannot go at place %(number)s: section %(section)s has %(count)s "
                      "rule, so the places are 1 to %(last)s.",
                      "A rule cannot go at place %(number)s: section %(section)s has %(count)s "
                      "rules, so the places are 1 to %(last)s."),
        "how_far": N_("Say how far to move the rule: up (-1) or down (+1)."),
        "first": N_("Rule %(number)s of section %(section)s is already first."),
        "last": N_("Rule %(number)s of section %(section)s is already last."),
    },
    "section": {
        "none": Nn_("There is no section %(number)s: this house way has %(count)s section.",
                    "There is no section %(number)s: this house way has %(count)s sections."),
        "insert": Nn_("A section cannot go at place %(number)s: this house way has %(count)s "
                      "section, so the places are 1 to %(last)s.",
                      "A section cannot go at place %(number)s: this house way has %(count)s "
                      "sections, so the places are 1 to %(last)s."),
        "how_far": N_("Say how far to move the section: up (-1) or down (+1)."),
        "first": N_("Section %(number)s of this house way is already first."),
        "last": N_("Section %(number)s of this house way is already last."),
    },
}


def _place_error(what: str, which: str, section: int | None, **params: Any) -> EngineError:
    """Return the refusal ``which`` about a ``what`` ("rule", "section"), whole sentence.

    ``section`` is the rule's section (counted from 0), None for a section.
    """
    sentence = _PLACE_SENTENCES[what][which]
    if section is not None:
        params["section"] = section + 1
    if isinstance(sentence, tuple):
        count = params.pop("count")
        return EngineError(Plural(sentence, count, **params))
    return EngineError(Message(sentence, **params))


def _index(value: Any, size: int, what: str, section: int | None = None,
           insert: bool = False) -> int:
    """Return ``value``, a place among ``size`` rules of ``section`` (or sections, None)."""
    top = size if insert else size - 1
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
        shown = value + 1 if isinstance(value, int) and not isinstance(value, bool) else value
        if insert:
            raise _place_error(what, "insert", section, number=shown, count=size,
                               last=size + 1)
        raise _place_error(what, "none", section, number=shown, count=size)
    return value


def _sections(data: Mapping[str, Any]) -> list[Any]:
    sections = data.get("sections")
    if not isinstance(sections, list):
        raise ValueError("This house way has no list of sections.")
    return sections


def _rules(data: dict[str, Any], s: int) -> list[Any]:
    sections = _sections(data)
    _index(s, len(sections), "section")
    section = sections[s]
    if not isinstance(section, dict):
        raise ValueError(f"Section {s + 1} is not a table of fields.")
    rules = section.setdefault("rules", [])
    if not isinstance(rules, list):
        raise ValueError(f"Section {s + 1}'s rules are not a list.")
    return rules


def _check_item(item: Any, what: str) -> dict[str, Any]:
    if not isinstance(item, Mapping):
        raise ValueError(f"A {what} is a table of fields.")
    return copy.deepcopy(dict(item))


def _moved(items: list[Any], i: int, delta: Any, what: str,
           section: int | None = None) -> None:
    if isinstance(delta, bool) or not isinstance(delta, int) or delta == 0:
        raise _place_error(what, "how_far", section)
    j = i + delta
    if j < 0:
        raise _place_error(what, "first", section, number=i + 1)
    if j >= len(items):
        raise _place_error(what, "last", section, number=i + 1)
    items.insert(j, items.pop(i))


def move_rule(data: Mapping[str, Any], s: int, r: int, delta: int) -> dict[str, Any]:
    """Move rule ``r`` of section ``s`` by ``delta`` places within its section."""
    out = _copy(data)
    rules = _rules(out, s)
    _index(r, len(rules), "rule", s)
    _moved(rules, r, delta, "rule", s)
    return out


def delete_rule(data: Mapping[str, Any], s: int, r: int) -> dict[str, Any]:
    """Delete rule ``r`` of section ``s``, and the sheet's examples that cite it."""
    out = _copy(data)
    rules = _rules(out, s)
    _index(r, len(rules), "rule", s)
    gone = rules.pop(r)
    rid = gone.get("id") if isinstance(gone, Mapping) else None
    if isinstance(out.get("examples"), list):
        out["examples"] = [e for e in out["examples"]
                           if not (isinstance(e, Mapping) and e.get("rule") == rid)]
    return out


def insert_rule(data: Mapping[str, Any], s: int, pos: int,
                rule: Mapping[str, Any]) -> dict[str, Any]:
    """Insert a rule at place ``pos`` (0 = first) of section ``s``."""
    out = _copy(data)
    rules = _rules(out, s)
    _index(pos, len(rules), "rule", s, insert=True)
    rules.insert(pos, _check_item(rule, "rule"))
    return out


def replace_rule(data: Mapping[str, Any], s: int, r: int,
                 rule: Mapping[str, Any]) -> dict[str, Any]:
    """Replace rule ``r`` of section ``s`` (an edited rule)."""
    out = _copy(data)
    rules = _rules(out, s)
    _index(r, len(rules), "rule", s)
    new = _check_item(rule, "rule")
    old = rules[r]
    if "translations" not in new and isinstance(old, Mapping) \
            and isinstance(old.get("translations"), Mapping):
        # A form does not carry the translations (issue 19): keep each translated word
        # whose English is unchanged; a changed sentence reads in English until translated.
        kept = {lang: {k: v for k, v in words.items() if new.get(k) == old.get(k)}
                for lang, words in old["translations"].items() if isinstance(words, Mapping)}
        kept = {lang: words for lang, words in kept.items() if words}
        if kept:
            new = {**new, "translations": kept}
    rules[r] = new
    return out


def add_section(data: Mapping[str, Any], pos: int,
                section: Mapping[str, Any]) -> dict[str, Any]:
    """Insert a section at place ``pos`` (0 = first)."""
    out = _copy(data)
    sections = _sections(out)
    _index(pos, len(sections), "section", insert=True)
    sections.insert(pos, _check_item(section, "section"))
    return out


def delete_section(data: Mapping[str, Any], s: int) -> dict[str, Any]:
    """Delete section ``s`` with its rules (and the examples that cite them)."""
    out = _copy(data)
    sections = _sections(out)
    _index(s, len(sections), "section")
    gone = sections.pop(s)
    ids = {r.get("id") for r in (gone.get("rules") or []) if isinstance(r, Mapping)} \
        if isinstance(gone, Mapping) else set()
    if isinstance(out.get("examples"), list):
        out["examples"] = [e for e in out["examples"]
                           if not (isinstance(e, Mapping) and e.get("rule") in ids)]
    return out


def move_section(data: Mapping[str, Any], s: int, delta: int) -> dict[str, Any]:
    """Move section ``s`` by ``delta`` places."""
    out = _copy(data)
    sections = _sections(out)
    _index(s, len(sections), "section")
    _moved(sections, s, delta, "section")
    return out


def set_field(data: Mapping[str, Any], key: str, value: str) -> dict[str, Any]:
    """Set one of the way's text fields: name, title, casino, thresholds, source, authority."""
    if not isinstance(key, str) or key not in TEXT_FIELDS:
        raise ValueError(f"'{key}' is not a field the editor sets: use "
                         f"{', '.join(TEXT_FIELDS)}.")
    if not isinstance(value, str):
        raise ValueError(f"{TEXT_FIELDS[key]} must be text.")
    out = _copy(data)
    if out.get(key) != value.strip():
        # Its translations translated the old words (issue 19): drop them.
        for words in (out.get("translations") or {}).values():
            if isinstance(words, dict):
                words.pop(key, None)
    out[key] = value.strip()
    return out


def set_rank_groups(data: Mapping[str, Any], groups: Mapping[str, str]) -> dict[str, Any]:
    """Replace the rank groups ({"low": "2-6", ...}); ``validate`` checks them."""
    if not isinstance(groups, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in groups.items()):
        raise ValueError("Rank groups are names with a rank range each, such as low: 2-6.")
    out = _copy(data)
    out["rank_groups"] = {k.strip(): v.strip() for k, v in groups.items()}
    return out


def new_rule_id(data: Mapping[str, Any], kind: str) -> str:
    """Return an id for a rule added by form: ``<kind>.custom-<n>``, unused on the sheet."""
    if not isinstance(kind, str) or kind not in K.RULE_KINDS:
        raise ValueError(f"'{kind}' is not a rule kind.")
    used = {r.get("id") for s in (data.get("sections") or []) if isinstance(s, Mapping)
            for r in (s.get("rules") or []) if isinstance(r, Mapping)}
    n = 1
    while f"{kind}.custom-{n}" in used:
        n += 1
    return f"{kind}.custom-{n}"
