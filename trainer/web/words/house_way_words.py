"""The house-way editor's words: rule kinds, conditions, reports and the edge, for people.

What ``manager_ways`` shows is said here: a rule kind as "Split: lower pair in front"
(never its id), a condition as lines of words, the engine's check report
(``proof.check_way``), its comparison (``proof.diff_ways``) and the edge change
(``house_way_edge.edge_change``) as sentences a table-games manager reads, and an error
path (``sections[2].rules[3].text``) as the place it names ("Rule 3.4 (text)").
Rule ids are kept only for ``title=`` tooltips.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from flask_babel import gettext as _

from trainer.engine.hands import Wheel
from trainer.engine.house_way import editing, explanations
from trainer.engine.house_way import kinds as engine_kinds
from trainer.web.platform.languages import number
from trainer.web.words.names import family_name

# A choice's parts that are ranks ("a-k-q-j-t"), written as cards write them.
RANK_PARTS = frozenset("23456789tjqka") | {"10"}
# The condition fields that hold other conditions (their alternatives, not fields of their own).
NESTED_KEYS = frozenset({"any", "not"})
# A rule's error path from the engine: ``sections[2].rules[3].text``.
_RULE_PATH = re.compile(r"^sections\[(\d+)\]\.rules\[(\d+)\]\.?(.*)$")


def choice_words(text: str) -> str:
    """Return a choice's slug in words: "no-pair" as "no pair", but ranks as cards write
    them, hyphens kept: "2-6" stays "2-6", "a-k-q-j-t" reads "A-K-Q-J-10" (issue 26)."""
    parts = text.split("-")
    if len(parts) > 1 and all(p.lower() in RANK_PARTS for p in parts):
        return "-".join("10" if p.lower() == "t" else p.upper() for p in parts)
    return text.replace("-", " ")


def pair_group_words(text: str) -> str:
    """Return "low+high" as "Low + High"."""
    return " + ".join(part.strip().capitalize() for part in text.split("+"))


def condition_fields(all_fields: Iterable[Any]) -> list[Any]:
    """Return the engine's condition fields a form edits one by one (not any/not)."""
    return [f for f in all_fields if str(getattr(f, "key", "")) not in NESTED_KEYS]


def split_rule_path(path: str) -> tuple[int, int, str] | None:
    """Return (section, rule, rest) of a rule's error path, or None."""
    match = _RULE_PATH.match(path or "")
    if not match:
        return None
    return int(match.group(1)), int(match.group(2)), match.group(3)


def kind_info() -> dict[str, Any]:
    return {k.name: k for k in editing.RULE_KIND_INFO}


def kind_label(info: Any) -> str:
    """Return a rule kind in words: "Split: lower pair in front", never its id."""
    name = str(info.name)
    if getattr(info, "takes_pool", False):
        return _("The best straight-or-flush setting (from the chosen settings)")
    verb = name.split(".", 1)[1] if "." in name else name
    verb_words = {"split": _("Split"), "together": _("Together"), "standard": _("Standard"),
                  "high-front": _("Highest pair in front"), "aces-split": _("Break the aces"),
                  "high-pair-front": _("Higher pair in front"), "pair-front": _("Pair in front"),
                  "low-front": _("Lowest pair in front"),
                  "low-pair-front": _("Lower pair in front"),
                  "kings-front": _("Kings in front"), "best-front": _("Best front")}.get(
                      verb, verb.replace("-", " ").capitalize())
    # The placing's words are the engine's (kinds.py, N_-marked): in the reader's language.
    return _("%(verb)s: %(front)s in front", verb=verb_words, front=_(info.front_text))


def kind_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    groups: dict[str, list[tuple[str, str]]] = {}
    for info in editing.RULE_KIND_INFO:
        family = str(info.name).split(".", 1)[0]
        groups.setdefault(family_name(family), []).append((str(info.name), kind_label(info)))
    return list(groups.items())


def pool_choices() -> list[tuple[str, str]]:
    return [(name, description.capitalize()) for name, (description, _test)
            in engine_kinds.POOLS.items()]


def editable_fields() -> list[Any]:
    return condition_fields(editing.CONDITION_FIELDS)


def _field_labels() -> dict[str, str]:
    return {str(f.key): str(f.label) for f in editing.CONDITION_FIELDS}


def _choice_words(key: str) -> dict[str, str]:
    """The engine's words for a condition's values ("royal" -> "a royal flush"), if it has any."""
    for field in editing.CONDITION_FIELDS:
        if str(field.key) == key:
            return {str(value): str(label) for value, label in (field.choices or ())
                    if str(label) != str(value)}
    return {}


def _value_words(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    words = _choice_words(key)
    values = list(value) if isinstance(value, (list, tuple)) else [value]
    parts = [words.get(str(v)) or (pair_group_words(str(v)) if "+" in str(v)
                                   else choice_words(str(v))) for v in values]
    if key in ("pool_empty", "beats_pool") and str(value) in engine_kinds.POOLS:
        return engine_kinds.POOLS[str(value)][0]
    if key == "holds":
        return _(" and ").join(parts)
    return _(" or ").join(parts) if key in ("pair_groups", "shapes") else ", ".join(parts)


def condition_words(when: Mapping[str, Any] | None) -> list[str]:
    """Return a condition as lines of words ("The higher pair: A"), for the rule list."""
    labels = _field_labels()
    lines = []
    for key, value in (when or {}).items():
        if key == "any" and isinstance(value, list):
            alternatives = ["; ".join(condition_words(alt)) for alt in value
                            if isinstance(alt, Mapping)]
            lines.append(_("Any of: %(alternatives)s", alternatives=" | ".join(alternatives)))
        elif key == "not" and isinstance(value, Mapping):
            lines.append(_("Unless: %(condition)s", condition="; ".join(condition_words(value))))
        else:
            lines.append(f"{labels.get(key, key.replace('_', ' ').capitalize())}: "
                         f"{_value_words(key, value)}")
    return lines


def rule_kind(rule: Mapping[str, Any]) -> str:
    return engine_kinds.kind_of(str(rule.get("id", "")))


def _translated(table: Mapping[str, Any], lang: str | None) -> Mapping[str, Any]:
    """Return a table's words in ``lang`` (its ``translations.<lang>``), {} when it has none."""
    given = table.get("translations") if lang else None
    words = given.get(lang) if isinstance(given, Mapping) else None
    return words if isinstance(words, Mapping) else {}


def sections_in_words(data: Mapping[str, Any], lang: str | None = None) -> list[dict[str, Any]]:
    """Return the draft's sections and rules for the editor page, in words.

    ``lang``: the sheet's own words (titles, rule sentences, short names) in that language
    where the way has them, as its printable sheet shows them (a published version's page);
    None (the editor, which edits the English): the English originals.
    """
    kinds = kind_info()
    out = []
    for s, section in enumerate(data.get("sections") or []):
        rules = []
        section_words = _translated(section, lang)
        for r, rule in enumerate(section.get("rules") or []):
            info = kinds.get(rule_kind(rule))
            words = _translated(rule, lang)
            # As the sheet: a rule without a short name of its own reads its section's title.
            short = words.get("short") or (section_words.get("title") if not rule.get("short")
                                           else None) or rule.get("short", "")
            rules.append({"index": r, "number": rule.get("number", ""), "id": rule.get("id", ""),
                          "short": short,
                          "text": words.get("text") or rule.get("text", ""),
                          "kind": kind_label(info) if info else "",
                          "pool": (engine_kinds.POOLS.get(str(rule.get("pool")), ("",))[0]
                                   if rule.get("pool") else ""),
                          "condition": condition_words(rule.get("when"))})
        out.append({"index": s, "number": section.get("number", ""),
                    "title": section_words.get("title") or section.get("title", ""),
                    "text": section_words.get("text") or section.get("text", ""),
                    "condition": condition_words(section.get("when")), "rules": rules})
    return out


def path_words(path: str, data: Mapping[str, Any]) -> str:
    """Return where an error path points, in words: "Rule 3.3, its sheet sentence"."""
    place = split_rule_path(path)
    if place is not None:
        s, r, rest = place
        try:
            number = data["sections"][s]["rules"][r].get("number", "")
        except (KeyError, IndexError, TypeError, AttributeError):
            number = ""
        field = rest.split(".")[-1].replace("_", " ") if rest else ""
        words = _("Rule %(number)s", number=number) if number else _("A rule")
        lang = rest.split(".")[1] if rest.startswith("translations.") and rest.count(".") > 1 \
            else None
        if lang in explanations.LANGUAGE_WORDS:  # a translation's words: say the language
            field = f"{field}, {_(explanations.LANGUAGE_WORDS[lang])}"
        return f"{words} ({field})" if field else words
    if path.startswith("sections["):
        try:
            index = int(path[len("sections["):].split("]")[0])
            return _("Section %(number)s", number=data["sections"][index].get("number", index + 1))
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            return _("A section")
    return path.replace("_", " ").replace(".", ", ").capitalize()


def rule_names(data: Mapping[str, Any]) -> dict[str, str]:
    names = {}
    for section in data.get("sections") or []:
        for rule in section.get("rules") or []:
            names[str(rule.get("id"))] = _("Rule %(number)s: %(short)s",
                                           number=rule.get("number", ""),
                                           short=rule.get("short", ""))
    return names


def _cards(text: Any) -> list[str]:
    if isinstance(text, (list, tuple)):
        return [str(c) for c in text]
    return str(text or "").split()


def _example(example: Any) -> dict[str, Any]:
    if not isinstance(example, Mapping):
        return {"cards": _cards(example), "front": [], "back": [], "rule": ""}
    return {"cards": _cards(example.get("cards")), "front": _cards(example.get("front")),
            "back": _cards(example.get("back")), "rule": str(example.get("rule") or ""),
            "wheel": str(example.get("wheel") or ""), "reason": str(example.get("reason") or ""),
            "lowest": str(example.get("wheel") or "") == Wheel.LOWEST.value}


def check_words(report: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
    """Turn the engine's check report into what the page says."""
    names = rule_names(data)
    per_rule = report.get("per_rule") or {}
    rows = []
    for section in data.get("sections") or []:
        for rule in section.get("rules") or []:
            rid = str(rule.get("id"))
            rows.append({"id": rid, "name": names.get(rid, rid), "hands": int(per_rule.get(rid, 0))})
    shadowed = []
    for item in report.get("shadowed") or []:
        if not isinstance(item, Mapping):
            continue
        by = [names.get(str(b), str(b)) for b in (item.get("by") or [])]
        shadowed.append({"id": str(item.get("rule")), "name": names.get(str(item.get("rule")), ""),
                         "by": by, "hands": int(item.get("hands") or 0),
                         "example": _example(item.get("example")) if item.get("example") else None})
    return {
        "hands": int(report.get("hands") or 0),
        "fouled": int(report.get("fouled_hands") or 0),
        "undecided": int(report.get("undecided_hands") or 0),
        "fouls": [_example(e) | {"rule_name": names.get(str(_example(e)["rule"]), "")}
                  for e in (report.get("fouls") or [])[:6]],
        "undecided_examples": [_example(e) for e in (report.get("undecided") or [])[:6]],
        "never": [{"id": str(rid), "name": names.get(str(rid), str(rid))}
                  for rid in report.get("never_reached") or []],
        "shadowed": shadowed, "per_rule": rows, "seconds": report.get("seconds"),
    }


def diff_words(result: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
    names = rule_names(data)
    rows = []
    for item in result.get("per_rule") or []:
        if not isinstance(item, Mapping):
            continue
        examples = []
        for e in item.get("examples") or []:
            if isinstance(e, Mapping):
                examples.append({"cards": _cards(e.get("cards")),
                                 "old_front": _cards(e.get("old_front")),
                                 "old_back": _cards(e.get("old_back")),
                                 "new_front": _cards(e.get("new_front")),
                                 "new_back": _cards(e.get("new_back"))})
        rows.append({"id": str(item.get("rule")), "name": names.get(str(item.get("rule")), ""),
                     "hands": int(item.get("hands") or 0), "examples": examples})
    hands, changed = int(result.get("hands") or 0), int(result.get("changed_hands") or 0)
    # The share in the reader's number format (the engine's share_text is English).
    if not hands:
        share = number(0, 3) + "%"
    elif 0 < changed * 200_000 < hands:  # under 0.0005%: rounds to 0.000
        share = _("under %(share)s", share=number(0.001, 3) + "%")
    else:
        share = number(100 * changed / hands, 3) + "%"
    return {"hands": hands, "changed": changed, "share": share, "per_rule": rows}


def _points(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _signed(points: float) -> str:
    """Return a change of the house's share in words: "0.02 points less"."""
    amount = number(abs(points), 2)
    if round(abs(points), 2) == 0:
        return _("no change")
    return _("%(points)s points more", points=amount) if points > 0 else \
        _("%(points)s points less", points=amount)


def edge_words(result: Mapping[str, Any]) -> dict[str, Any]:
    """Say the edge change as a manager reads it (``house_way_edge.edge_change``'s figures):
    "the house keeps about 0.04 points less of every bet (95% interval 0.02 to 0.06 points)".

    The edge is the house's: the player's average loss per unit bet, in points (percent).
    """
    raw = result.get("edge")
    edge: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    change = _points(edge.get("change_points"))
    interval = edge.get("change_ci95_points")
    low = high = None
    if isinstance(interval, (list, tuple)) and len(interval) == 2:
        low, high = _points(interval[0]), _points(interval[1])
    sentence = ""
    if change == 0 and edge.get("changed_deals") == 0:
        # Not one deal ended differently: no interval to give ("from no change to no change").
        sentence = _("the house keeps exactly the same share of every bet: no deal ended "
                     "differently")
    elif change is not None:
        amount = number(abs(change), 2)
        if round(abs(change), 2) == 0:
            sentence = _("the house keeps about the same share of every bet")
        elif change > 0:
            sentence = _("the house keeps about %(points)s points more of every bet",
                         points=amount)
        else:
            sentence = _("the house keeps about %(points)s points less of every bet",
                         points=amount)
        if low is not None and high is not None:
            if round(abs(change), 2) != 0 and (low > 0) == (high > 0) == (change > 0) and low * high > 0:
                first, last = sorted((abs(low), abs(high)))
                sentence += " " + _("(95%% interval %(low)s to %(high)s points)",
                                    low=number(first, 2), high=number(last, 2))
            else:
                sentence += " " + _("(95%% interval: from %(low)s to %(high)s)",
                                    low=_signed(low), high=_signed(high))
    return {"sentence": sentence, "old": _points(edge.get("old_edge_points")),
            "new": _points(edge.get("new_edge_points")), "change": change,
            "hands": int(result.get("hands") or edge.get("hands") or 0),
            "changed": int(edge.get("changed_deals") or 0)}
