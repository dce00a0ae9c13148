"""Editing a house way as data (issue 18): the manager's editor, import and export.

A house way is the mapping a preset file holds (``interpreter.HouseWay`` reads it).
This module is what an editor needs around that mapping, with no Flask, no database
and no I/O beyond the engine's own package data:

* ``validate(data)``: every error at once, each a ``FieldError(path, message)`` whose
  message is a plain sentence for a table-games manager. It includes "this condition
  can never hold", decided exactly over every hand of the rule's shapes (``facts``);
* ``build(data)``: validate, then the ``HouseWay`` (``EditError`` otherwise);
* ``from_toml(text)`` / ``to_toml(data)``: import and export in the presets' format;
  ``preset_data(name)``: a preset's mapping, for "copy and edit";
* the draft operations (``move_rule``, ``delete_rule``, ``insert_rule``,
  ``replace_rule``, ``add_section``, ``delete_section``, ``move_section``,
  ``set_field``, ``set_rank_groups``), pure: each returns a new mapping, and a bad
  index is a ``ValueError`` with a sentence; ``new_rule_id`` names a rule added by form;
* ``RULE_KINDS`` and ``CONDITION_FIELDS`` (with ``pair_group_choices(data)``): what
  the rule form offers, in words.
"""
from __future__ import annotations

import copy
import json
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import combinations
from math import isfinite
from typing import Any

from .. import toml_limits
from ..cards import RANK_CHARS, RANK_PLURALS
from ..hands import rank2
from ..messages import N_, Capital, EngineError, Joined, Message, Nn_, Plural
from . import explanations as X
from . import kinds as K
from . import words as W
from .facts import HOLD_BIT, POOL_BIT, SF_BIT, shape_facts, shapes
from .interpreter import HouseWay, preset_names

__all__ = [
    "CONDITION_FIELDS", "RULE_KINDS", "ConditionField", "EditError", "FieldError",
    "KindInfo", "add_section", "build", "delete_rule", "delete_section",
    "explanation_problems", "from_toml", "insert_rule", "move_rule", "move_section",
    "new_rule_id", "pair_group_choices", "preset_data", "repair_explanations", "replace_rule",
    "set_field", "set_rank_groups", "to_toml", "validate",
]

SLUG = re.compile(r"[a-z][a-z0-9-]{2,39}")
RULE_ID = re.compile(r"[a-z0-9-]+(\.[a-z0-9-]+)+")
GROUP_NAME = re.compile(r"[a-z][a-z0-9_-]{0,29}")
MAX_TEXT = 2000
RANK_HELP = "use 2-9, T, J, Q, K or A"
# Each problem is a sentence marked for the catalogues (``N_``), kept as a ``Message``
# (``FieldError.said``) so the editor shows it in the manager's language; ``message`` is
# its English, as the commands and tests read it.

# --- errors ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FieldError:
    """One problem with a house way: where (``sections[2].rules[0].when.high_pair``) and why."""

    path: str
    message: str
    said: Message | None = None

    @property
    def sentence(self) -> Message | str:
        """Return the problem as a sentence to say (its ``Message``, or the English text)."""
        return self.said if self.said is not None else self.message


class EditError(ValueError):
    """A house way that cannot be used as it is; ``errors`` says every problem."""

    def __init__(self, errors: Iterable[FieldError]) -> None:
        self.errors = list(errors)
        super().__init__(" ".join(e.message for e in self.errors[:3]))


# --- what the form offers ----------------------------------------------------------

# The labels are marked for the catalogues: the editor's problems quote them as values
# the web translates (``Message(label)``, issue 19).
SHAPE_LABELS: dict[str, str] = {
    "no-pair": N_("no-pair"), "one-pair": N_("one-pair"), "two-pair": N_("two-pair"),
    "three-pair": N_("three-pair"), "trips": N_("trips"), "full-house": N_("full house"),
    "trips-two-pair": N_("trips + two pair"), "two-trips": N_("two sets of trips"),
    "quads": N_("four of a kind"), "quads-pair": N_("four of a kind + a pair"),
    "quads-trips": N_("four of a kind + trips"), "five-aces": N_("five aces"),
}
CODE_LABELS: dict[str, str] = {code: SHAPE_LABELS[name] for code, name in K.SHAPE_NAMES.items()}
CODE_LABELS.update({"511": N_("five aces without a pair"), "52": N_("five aces with a pair")})
HOLD_LABELS: dict[str, str] = {"straight": "a straight", "flush": "a flush",
                               "straight-flush": "a straight flush", "royal": "a royal flush"}
TEXT_FIELDS = {"name": N_("The short name"), "title": N_("The title"),
               "casino": N_("The casino's name"), "thresholds": N_("The thresholds text"),
               "source": N_("The source"), "authority": N_("The authority")}


@dataclass(frozen=True, slots=True)
class KindInfo:
    """A rule kind as the form shows it: which hands it sets and where the cards go."""

    name: str
    shapes: tuple[str, ...]
    front_text: str
    back_text: str
    takes_pool: bool
    label: str = ""


@dataclass(frozen=True, slots=True)
class ConditionField:
    """One condition the rule form can edit. ``kind`` says which input it needs:
    shapes, bool, range (a rank or rank range), ranks (a list of ranks), pair-groups
    (choices from ``pair_group_choices(data)``), holds, pool, threshold, any (a list of
    flat conditions) or not (one flat condition). ``choices`` are (value, words)."""

    key: str
    label: str
    kind: str
    choices: tuple[tuple[str, str], ...] = ()
    help: str = ""


def _kind_words(kind: K.Kind) -> Message:
    """Return ``_kind_label`` as a message: the shape's label and the placing's words
    (``front_text``, ``N_``-marked in kinds.py) translated."""
    if kind.front is None:
        return Message(N_("Straight or flush: the best S/F setting of a pool"))
    shape = SHAPE_LABELS[next(s for s in K.SHAPES if s in kind.shapes)]
    return Message(N_("%(shape)s: %(front)s in front"), shape=Capital(Message(shape)),
                   front=Message(kind.front_text))


def _shape_message(shapes: Iterable[str]) -> Message | Joined | str:
    """Return ``_shape_words`` as a message whose labels are translated."""
    names = [Message(SHAPE_LABELS[s]) for s in K.SHAPES if s in set(shapes)]
    if len(names) <= 1:
        return names[0] if names else Message(N_("such"))
    return Message(N_("%(some)s or %(last)s"), some=Joined(names[:-1], ", "), last=names[-1])


def _kind_label(kind: K.Kind) -> str:
    if kind.front is None:
        return "Straight or flush: the best S/F setting of a pool"
    shape = SHAPE_LABELS[next(s for s in K.SHAPES if s in kind.shapes)]
    return f"{shape[0].upper()}{shape[1:]}: {kind.front_text} in front"


RULE_KINDS: list[KindInfo] = [
    KindInfo(k.name, tuple(s for s in K.SHAPES if s in k.shapes), k.front_text, k.back_text,
             k.front is None, _kind_label(k)) for k in K.KINDS.values()]

_SHAPE_CHOICES = tuple((s, SHAPE_LABELS[s]) for s in K.SHAPES)
_YES_NO = (("true", "yes"), ("false", "no"))
_POOL_CHOICES = tuple((p, desc) for p, (desc, _) in K.POOLS.items())
CONDITION_FIELDS: list[ConditionField] = [
    ConditionField("shapes", N_("Hand shapes"), "shapes", _SHAPE_CHOICES,
                   "The rule is for these hands only."),
    ConditionField("sf", N_("Has a straight or flush"), "bool", _YES_NO),
    ConditionField("pair", N_("The pair (one pair only)"), "range", (), "A rank or a range: 9, 2-6, J-K."),
    ConditionField("high_pair", N_("The higher pair"), "range", (), "A rank or a range: A, T-K."),
    ConditionField("low_pair", N_("The lower pair"), "range", (), "A rank or a range: 2-6."),
    ConditionField("trips", N_("The trips"), "range", (), "A rank or a range."),
    ConditionField("quads", N_("The four of a kind"), "range", (), "A rank or a range."),
    ConditionField("pair_groups", N_("The two pairs' rank groups"), "pair-groups", (),
                   "Combinations of this sheet's rank groups."),
    ConditionField("singletons", N_("The singletons, exactly"), "ranks", (),
                   "Every singleton's rank, such as A K."),
    ConditionField("ace", N_("An ace singleton (the joker counts)"), "bool", _YES_NO),
    ConditionField("king_or_ace", N_("A king or ace singleton"), "bool", _YES_NO),
    ConditionField("ace_and_face", N_("An ace and a J, Q or K singleton"), "bool", _YES_NO),
    ConditionField("holds", N_("Holds (all of these)"), "holds", tuple(HOLD_LABELS.items())),
    ConditionField("pool_empty", N_("No straight-or-flush setting in the pool"), "pool", _POOL_CHOICES),
    ConditionField("beats_pool", N_("This rule's front beats the best front of the pool"), "pool",
                   _POOL_CHOICES),
    ConditionField("front_at_least", N_("This rule's front is at least"), "threshold", (),
                   "K (a king or better), A-J, J."),
    ConditionField("any", N_("Any one of these"), "any", (), "Alternatives: one must hold."),
    ConditionField("not", N_("Not this"), "not", (), "A condition that must not hold."),
]
_FIELD_LABEL = {f.key: f.label for f in CONDITION_FIELDS}
_RANGE_KEYS = ("pair", "high_pair", "low_pair", "trips", "quads")
_BOOL_KEYS = ("sf", "ace", "king_or_ace", "ace_and_face")
_RANK_KEYS = frozenset({"shapes", "pair", "high_pair", "low_pair", "trips", "quads",
                        "pair_groups", "singletons", "ace", "king_or_ace", "ace_and_face"})


def _group_label(name: str) -> str:
    return name[:1].upper() + name[1:]


def _rank_groups(data: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    """The rank groups that parse (the others are reported by ``validate``)."""
    groups = data.get("rank_groups")
    out: dict[str, tuple[int, int]] = {}
    if isinstance(groups, Mapping):
        for name, text in groups.items():
            parsed, _ = _parse_range(text)
            if parsed is not None and isinstance(name, str):
                out[name] = parsed
    return out


def pair_group_choices(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Return the two-pair combinations of a way's rank groups: ("low+high", "Low + High").

    Lower group first; a one-rank group (aces) is not paired with itself, since two
    pairs have two different ranks.
    """
    groups = sorted(_rank_groups(data).items(), key=lambda kv: kv[1])
    out = []
    for i, (a, (lo, hi)) in enumerate(groups):
        for b, _ in groups[i:]:
            if a == b and lo == hi:
                continue
            out.append((f"{a}+{b}", f"{_group_label(a)} + {_group_label(b)}"))
    return out


# --- reading values ------------------------------------------------------------------

def _quote(value: Any) -> str | Message:
    return f"'{value}'" if isinstance(value, str) else Message(N_("this value"))


def _parse_rank(text: Any) -> tuple[int | None, Message | None]:
    if isinstance(text, bool) or not isinstance(text, str | int):
        return None, Message(N_("A rank is written as text: use 2-9, T, J, Q, K or A."))
    t = str(text).strip().upper()
    if t == "10":
        t = "T"
    if len(t) != 1 or t not in RANK_CHARS:
        return None, Message(N_("'%(text)s' is not a rank: use 2-9, T, J, Q, K or A."),
                             text=str(text).strip())
    return RANK_CHARS.index(t) + 2, None


def _parse_range(text: Any) -> tuple[tuple[int, int] | None, Message | None]:
    if isinstance(text, bool) or not isinstance(text, str | int):
        return None, Message(N_("Write a rank or a range of ranks such as 2-6 or J-K "
                                "(use 2-9, T, J, Q, K or A)."))
    parts = str(text).strip().split("-")
    if len(parts) > 2 or not str(text).strip():
        return None, Message(N_("'%(text)s' is not a rank or a range of ranks such as 2-6 or "
                                "J-K."), text=str(text))
    ranks = []
    for p in parts:
        r, err = _parse_rank(p)
        if err:
            return None, err
        assert r is not None
        ranks.append(r)
    lo, hi = ranks[0], ranks[-1]
    if lo > hi:
        return None, Message(N_("'%(text)s' runs high to low: write it low to high, as "
                                "%(low)s-%(high)s."), text=str(text),
                             low=RANK_CHARS[hi - 2], high=RANK_CHARS[lo - 2])
    return (lo, hi), None


def _range_words(lo: int, hi: int) -> str:
    if lo == hi:
        return RANK_PLURALS[lo]
    return f"{RANK_PLURALS[lo]} to {RANK_PLURALS[hi]}"


def _text_error(value: Any, what: str | Message, required: bool) -> Message | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return Message(N_("%(what)s is empty: write it."), what=what) if required else None
    if not isinstance(value, str):
        return Message(N_("%(what)s must be text."), what=what)
    if len(value) > MAX_TEXT:
        # (the limit written as it always was, without a thousands comma)
        return Message(N_("%(what)s is too long: at most %(most)s characters."), what=what,
                       most=str(MAX_TEXT))
    return None


# --- validation --------------------------------------------------------------------

def _said(path: str, message: Message) -> FieldError:
    """Return a problem whose words are ``message`` (its English as ``message``)."""
    return FieldError(path, str(message), message)


class _Errors(list[FieldError]):
    def add(self, path: str, message: Message | str) -> None:
        if isinstance(message, Message):
            self.append(_said(path, message))
        else:
            self.append(FieldError(path, message))


def validate(data: Any) -> list[FieldError]:
    """Return every problem with a house way's data (an empty list: it can be used).

    Never raises. Checks the fields, the rank groups, every section and rule, and that
    no section's or rule's condition is one that no hand can meet.
    """
    errors = _Errors()
    if not isinstance(data, Mapping):
        errors.add("", Message(N_("A house way is a table of fields; this is not one.")))
        return errors
    name = data.get("name")
    if not isinstance(name, str) or not SLUG.fullmatch(name):
        errors.add("name", Message(N_("The short name must be 3 to 40 characters: lowercase "
                                      "letters, digits and hyphens, starting with a letter.")))
    for key, required in (("title", True), ("casino", True), ("thresholds", False),
                          ("source", False), ("authority", False)):
        err = _text_error(data.get(key), Message(TEXT_FIELDS[key]), required)
        if err:
            errors.add(key, err)
    notes = data.get("notes", [])
    if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
        errors.add("notes", Message(N_("The notes must be a list of sentences.")))
    groups = _validate_groups(data.get("rank_groups", {}), errors)
    sections = data.get("sections")
    if not isinstance(sections, list) or not sections:
        errors.add("sections", Message(N_("The house way has no sections: add at least one.")))
        sections = []
    ids: dict[str, str] = {}
    for s, section in enumerate(sections):
        _validate_section(section, s, groups, errors, ids)
    _validate_examples(data.get("examples", []), set(ids), errors)
    _validate_translations(data.get("translations"), W.TOP_FIELDS, "translations", errors)
    for s, section in enumerate(sections):
        if not isinstance(section, Mapping):
            continue
        _validate_translations(section.get("translations"), W.SECTION_FIELDS,
                               f"sections[{s}].translations", errors)
        rules = section.get("rules")
        for r, rule in enumerate(rules if isinstance(rules, list) else []):
            if isinstance(rule, Mapping):
                _validate_translations(rule.get("translations"), W.RULE_FIELDS,
                                       f"sections[{s}].rules[{r}].translations", errors,
                                       _rule_number(rule, r))
    return list(errors)


_FIELD_WORDS = {"title": N_("title"), "thresholds": N_("terms"), "notes": N_("notes"),
                "text": N_("text"), "short": N_("short name"), "explain": N_("explanation"),
                "source": N_("source"), "resolved": N_("resolved line"),
                "decided": N_("decided line")}


def _validate_translations(raw: Any, allowed: Sequence[str], path: str,
                           errors: _Errors, rule_number: str = "") -> None:
    """Check a ``translations`` table (issue 19): pt, es, it, ru; only the words a level has.

    (Whether the hands reaching a rule have a translated explanation's words is checked
    with the English one's, in ``_validate_rule``.)
    """
    listed = [Message(_FIELD_WORDS[k]) for k in allowed]
    only = Message(N_("%(some)s and %(last)s"), some=Joined(listed[:-1], ", "), last=listed[-1])
    if raw is None:
        return
    if not isinstance(raw, Mapping):
        errors.add(path, Message(N_("The translations must be a table with one table per "
                                    "language.")))
        return
    for lang, words in raw.items():
        where = f"{path}.{lang}"
        if lang not in W.LANGUAGES:
            errors.add(where, Message(N_("%(value)s is not a language the trainer speaks: use "
                                         "pt, es, it or ru."), value=_quote(lang)))
            continue
        if not isinstance(words, Mapping):
            errors.add(where, Message(N_("A translation is a table of words.")))
            continue
        for key, value in words.items():
            if key not in allowed:
                errors.add(f"{where}.{key}", Message(N_("Only the %(fields)s can be translated "
                                                        "here."), fields=only))
            elif key == "notes":
                if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                    errors.add(f"{where}.notes",
                               Message(N_("The notes must be a list of sentences.")))
            elif key == "explain":
                _validate_explain(value, f"{where}.explain", errors, rule_number, str(lang))
            elif not isinstance(value, str):
                errors.add(f"{where}.{key}", Message(N_("The translated %(field)s must be text."),
                                                     field=Message(_FIELD_WORDS[key])))


def _validate_groups(raw: Any, errors: _Errors) -> dict[str, tuple[int, int]] | None:
    """Check the rank groups; return them parsed, or None when any is wrong."""
    if not isinstance(raw, Mapping):
        errors.add("rank_groups", Message(N_("The rank groups must be a table of names and "
                                             "ranges.")))
        return None
    groups: dict[str, tuple[int, int]] = {}
    ok = True
    for name, text in raw.items():
        path = f"rank_groups.{name}"
        if not isinstance(name, str) or not GROUP_NAME.fullmatch(name):
            errors.add(path, Message(N_("A rank group's name is one word in lowercase letters "
                                        "(such as low, medium, high).")))
            ok = False
            continue
        parsed, err = _parse_range(text)
        if err:
            errors.add(path, err)
            ok = False
            continue
        assert parsed is not None
        groups[name] = parsed
    if groups and ok:
        missing = []
        for rank in range(2, 15):
            holders = [g for g, (lo, hi) in groups.items() if lo <= rank <= hi]
            if not holders:
                missing.append(RANK_CHARS[rank - 2])
            elif len(holders) > 1:
                errors.add(f"rank_groups.{holders[1]}",
                           Message(N_("Rank %(rank)s is in two groups, %(one)s and %(other)s: "
                                      "each rank belongs to one group."),
                                   rank=RANK_CHARS[rank - 2], one=_group_label(holders[0]),
                                   other=_group_label(holders[1])))
                ok = False
        if missing:
            if len(missing) > 1:
                errors.add("rank_groups", Message(N_("Ranks %(ranks)s and %(last)s are in no rank "
                                                     "group: every rank from 2 to A must be in "
                                                     "one."), ranks=", ".join(missing[:-1]),
                                                  last=missing[-1]))
            else:
                errors.add("rank_groups", Message(N_("Rank %(rank)s is in no rank group: every "
                                                     "rank from 2 to A must be in one."),
                                                  rank=missing[0]))
            ok = False
    return groups if ok else None


def _section_name(section: Any, s: int) -> Message:
    number = section.get("number") if isinstance(section, Mapping) else None
    return Message(N_("Section %(number)s"),
                   number=number if isinstance(number, str) and number.strip() else str(s + 1))


def _validate_section(section: Any, s: int, groups: dict[str, tuple[int, int]] | None,
                      errors: _Errors, ids: dict[str, str]) -> None:
    path = f"sections[{s}]"
    if not isinstance(section, Mapping):
        errors.add(path, Message(N_("Section %(number)s is not a table of fields."),
                                 number=str(s + 1)))
        return
    label = _section_name(section, s)
    for key, what, required in (("number", Message(N_("%(section)s's number"), section=label), True),
                                ("title", Message(N_("%(section)s's title"), section=label), True),
                                ("text", Message(N_("%(section)s's text"), section=label), False),
                                ("resolved", Message(N_("%(section)s's resolved line"),
                                                     section=label), False),
                                ("decided", Message(N_("%(section)s's decided line"),
                                                    section=label), False)):
        err = _text_error(section.get(key), what, required)
        if err:
            errors.add(f"{path}.{key}", err)
    when = section.get("when", {})
    before = len(errors)
    _validate_condition(when, f"{path}.when", groups, errors, post=False, top=True)
    when_ok = len(errors) == before and isinstance(when, Mapping)
    shapes = frozenset(when.get("shapes", K.SHAPES)) if when_ok else frozenset(K.SHAPES)
    rules = section.get("rules")
    if not isinstance(rules, list) or not rules:
        errors.add(f"{path}.rules", Message(N_("%(section)s has no rules."), section=label))
        rules = []
    section_sat = True
    if when_ok and groups is not None:
        atoms = [(k, v) for k, v in when.items() if k != "shapes"]
        conflict = _conflict(shapes, atoms, groups, None)
        if conflict is not None:
            keys, words = conflict
            errors.add(f"{path}.when" + (f".{keys[-1]}" if keys else ""),
                       Message(N_("%(section)s's condition can never hold: %(why)s."),
                               section=label, why=words))
            section_sat = False
    for r, rule in enumerate(rules):
        _validate_rule(rule, f"{path}.rules[{r}]", section, shapes,
                       when_ok and section_sat, groups, errors, ids)


def _rule_label(rule: Mapping[str, Any], fallback: str) -> str:
    """Return "rule 3.2" (the name two rules with one id are told apart by), or the fallback."""
    number = rule.get("number")
    return f"rule {number}" if isinstance(number, str) and number.strip() else fallback


def _validate_rule(rule: Any, path: str, section: Mapping[str, Any],
                   section_shapes: frozenset[str], section_ok: bool,
                   groups: dict[str, tuple[int, int]] | None, errors: _Errors,
                   ids: dict[str, str]) -> None:
    if not isinstance(rule, Mapping):
        errors.add(path, Message(N_("This rule is not a table of fields.")))
        return
    before = len(errors)
    label = _rule_label(rule, "this rule")
    kind: K.Kind | None = None
    rid = rule.get("id")
    if not isinstance(rid, str) or not RULE_ID.fullmatch(rid):
        errors.add(f"{path}.id", Message(N_("This rule has no valid id (the trainer makes one "
                                            "when a rule is added): add the rule again.")))
    else:
        kind = K.KINDS.get(K.kind_of(rid))
        if kind is None:
            errors.add(f"{path}.id", Message(N_("'%(kind)s' is not a rule kind: choose one of "
                                                "the kinds the trainer knows."),
                                             kind=K.kind_of(rid)))
        if rid in ids:
            errors.add(f"{path}.id", Message(N_("Two rules have the same id (%(one)s and "
                                                "%(other)s): delete one and add it again."),
                                             one=ids[rid], other=label))
        else:
            ids[rid] = label
    for key, what, required in (("number", Message(N_("The rule's number")), False),
                                ("short", Message(N_("The rule's short name")), False),
                                ("text", Message(N_("The rule's sheet text")), True),
                                ("resolved", Message(N_("The rule's resolved line")), False),
                                ("decided", Message(N_("The rule's decided line")), False)):
        err = _text_error(rule.get(key), what, required)
        if err:
            if key == "text" and "empty" in str(err):
                err = Message(N_("The rule's sheet text is empty: write the sentence the dealer "
                                 "reads."))
            errors.add(f"{path}.{key}", err)
    fields = _validate_explain(rule.get("explain"), f"{path}.explain", errors,
                               _rule_number(rule, int(path.rsplit("[", 1)[1].rstrip("]"))), "en")
    pool = rule.get("pool")
    if kind is not None and kind.front is None:
        if pool is not None and (not isinstance(pool, str) or pool not in K.POOLS):
            errors.add(f"{path}.pool", Message(N_("%(value)s is not a pool: choose one of the "
                                                  "pools the trainer knows."), value=_quote(pool)))
    elif pool is not None and kind is not None:
        errors.add(f"{path}.pool", Message(N_("Only a 'best straight or flush setting' rule takes "
                                              "a pool; this kind places the cards itself.")))
    when = rule.get("when", {})
    cond_before = len(errors)
    _validate_condition(when, f"{path}.when", groups, errors, post=True, top=True)
    if len(errors) != cond_before or not isinstance(when, Mapping):
        return
    own = frozenset(when["shapes"]) if "shapes" in when else None
    shapes = (own & section_shapes) if own is not None else section_shapes
    if own is not None and not shapes:
        errors.add(f"{path}.when.shapes",
                   Message(N_("This rule is for %(shapes)s hands, but its section is only for "
                              "%(section)s hands, so it can never apply."),
                           shapes=_shape_message(own), section=_shape_message(section_shapes)))
        return
    if kind is None:
        return
    if not shapes <= kind.shapes:
        bad = [s for s in K.SHAPES if s in shapes - kind.shapes]
        errors.add(f"{path}.when.shapes",
                   Message(N_("A '%(kind)s' rule can only set %(shapes)s hands, but %(bad)s "
                              "hands can reach this rule: choose the hand shapes it is for."),
                           kind=_kind_words(kind), shapes=_shape_message(kind.shapes),
                           bad=_shape_message(bad)))
        return
    if len(errors) != before or not section_ok or groups is None:
        return
    sec_when = section.get("when", {})
    atoms = [(k, v) for k, v in sec_when.items() if k != "shapes"]
    rule_atoms = [(k, v) for k, v in when.items() if k != "shapes"]
    conflict = _conflict(shapes, atoms + rule_atoms, groups, kind, len(atoms))
    if conflict is not None:
        keys, words = conflict
        where = f"{path}.when.{keys[-1]}" if keys else (
            f"{path}.when.shapes" if own is not None else f"{path}.when")
        errors.add(where, Message(N_("This condition can never hold: %(why)s."), why=words))
        return
    codes = _codes(shapes)
    if kind.front is not None:
        # (a test of the rule's front cannot be made where the front cannot be placed)
        hand_atoms = [(k, v) for k, v in atoms + rule_atoms if k not in K.POST_KEYS]
        for code in codes:
            if _front_fails(kind, code) and _find([code], hand_atoms, groups, None):
                errors.add(f"{path}.id",
                           Message(N_("A '%(kind)s' rule cannot set %(shape)s hands, and this "
                                      "rule's condition lets one reach it: narrow its "
                                      "condition."), kind=_kind_words(kind),
                                   shape=Message(CODE_LABELS[code])))
                break
    # The English explanation's words, then each translation's (issue 19) that it lacks.
    # Whole sentences per field (issue 19: "The %(what)s uses" cannot agree in every language).
    checks = [(f"{path}.explain", N_("The explanation uses %(field)s, but %(shape)s hands can "
                                     "reach this rule, and they have no such cards to name."), f)
              for f in fields]
    translations = rule.get("translations")
    for lang, words in (translations.items() if isinstance(translations, Mapping) else ()):
        text = words.get("explain") if isinstance(words, Mapping) else None
        found = list(X.parse(text).fields) if X.problem(text) is None else []
        checks += [(f"{path}.translations.{lang}.explain",
                    N_("The translated explanation uses %(field)s, but %(shape)s hands can "
                       "reach this rule, and they have no such cards to name."), f)
                   for f in dict.fromkeys(found) if f in K.TEMPLATE_FIELDS and f not in fields]
    for where, which, field in checks:
        for code in codes:
            if field not in _code_fields(code) and _find(
                    [code], atoms + rule_atoms, groups, kind) is not None:
                errors.add(where, Message(which, field="{" + field + "}",
                                          shape=Message(CODE_LABELS[code])))
                break


def _validate_explain(text: Any, path: str, errors: _Errors, rule: str, lang: str) -> list[str]:
    """Check an explanation template (``explanations``: plain ``{fields}`` only, at most 300
    characters and 20 of them); return the fields it uses. ``rule`` (its number) and
    ``lang`` name it in the problems issue 24 added."""
    if not isinstance(text, str) or not text.strip():
        err = _text_error(text, Message(N_("The explanation")), True)
        if err:
            errors.add(path, err)
        return []
    problem = X.problem(text)
    if problem is not None:
        # Unknown fields and unpaired braces were refused before issue 24, in these words.
        errors.add(path, problem.said if problem.code in (X.UNKNOWN, X.BRACES)
                   else X.named(problem, rule, lang))
        return []
    return list(X.parse(text).fields)


def _rule_number(rule: Any, r: int) -> str:
    """Return a rule's number as its problems name it (its place in the section without one)."""
    number = rule.get("number") if isinstance(rule, Mapping) else None
    return number.strip() if isinstance(number, str) and number.strip() else str(r + 1)


def explanation_problems(data: Any) -> list[FieldError]:
    """Return every explanation of a way's data that cannot be used (issue 24), English and
    translations, each naming its rule and language: what a stored draft or version made
    before the rule (or written past the editor) may hold, shown to its manager as needing
    repair. Never raises."""
    errors = _Errors()
    sections = data.get("sections") if isinstance(data, Mapping) else None
    for s, section in enumerate(sections if isinstance(sections, list) else []):
        rules = section.get("rules") if isinstance(section, Mapping) else None
        for r, rule in enumerate(rules if isinstance(rules, list) else []):
            if not isinstance(rule, Mapping):
                continue
            number = _rule_number(rule, r)
            path = f"sections[{s}].rules[{r}]"
            texts = [(f"{path}.explain", "en", rule.get("explain"))]
            translations = rule.get("translations")
            for lang, words in (translations.items() if isinstance(translations, Mapping)
                                else ()):
                if isinstance(words, Mapping) and "explain" in words:
                    texts.append((f"{path}.translations.{lang}.explain", str(lang),
                                  words["explain"]))
            for where, lang, text in texts:
                problem = X.problem(text)
                if problem is not None:
                    errors.add(where, X.named(problem, number, lang))
    return list(errors)


def repair_explanations(data: Mapping[str, Any]) -> dict[str, Any]:
    """Return a copy of a way's data with every explanation that cannot be used replaced by
    the generated sentence's template in its language (what its readers are shown instead),
    for the manager to reword; the rest unchanged."""
    new = copy.deepcopy(dict(data))
    for problem in explanation_problems(new):
        place = _EXPLAIN_PATH.fullmatch(problem.path)
        if place is None:
            continue
        rule = new["sections"][int(place[1])]["rules"][int(place[2])]
        if place[3]:
            rule["translations"][place[3]]["explain"] = W.generated_template(place[3])
        else:
            rule["explain"] = W.generated_template(None)
    return new


_EXPLAIN_PATH = re.compile(
    r"sections\[(\d+)\]\.rules\[(\d+)\]\.(?:translations\.([a-z]+)\.)?explain")


def _validate_condition(cond: Any, path: str, groups: dict[str, tuple[int, int]] | None,
                        errors: _Errors, post: bool, top: bool) -> None:
    if not isinstance(cond, Mapping):
        errors.add(path, Message(N_("A condition is a table of tests.")))
        return
    for key, value in cond.items():
        kpath = f"{path}.{key}"
        if key not in K.CONDITION_KEYS:
            errors.add(kpath, Message(N_("%(value)s is not a condition the trainer knows."),
                                      value=_quote(key)))
        elif key in K.POST_KEYS and not post:
            errors.add(kpath, Message(N_("'%(test)s' tests a rule's own front, so it belongs in a "
                                         "rule's condition, not here."), test=Message(_FIELD_LABEL[key])))
        elif key == "shapes":
            if not isinstance(value, list) or not value:
                errors.add(kpath, Message(N_("Choose at least one hand shape.")))
            else:
                bad = [v for v in value if v not in K.SHAPES]
                if bad:
                    errors.add(kpath, Message(N_("%(value)s is not a hand shape: use %(shapes)s."),
                                              value=_quote(bad[0]), shapes=", ".join(K.SHAPES)))
        elif key in _BOOL_KEYS:
            if not isinstance(value, bool):
                errors.add(kpath, Message(N_("'%(test)s' is answered yes or no."),
                                          test=Message(_FIELD_LABEL[key])))
        elif key in _RANGE_KEYS:
            _, err = _parse_range(value)
            if err:
                errors.add(kpath, err)
        elif key == "pair_groups":
            _check_pair_groups(value, kpath, groups, errors)
        elif key == "singletons":
            if not isinstance(value, list) or not value:
                errors.add(kpath, Message(N_("List the singletons' ranks, such as A K.")))
            else:
                for v in value:
                    _, err = _parse_rank(v)
                    if err:
                        errors.add(kpath, err)
                        break
        elif key == "holds":
            items = [value] if isinstance(value, str) else value
            if not isinstance(items, list) or not items or \
                    any(not isinstance(i, str) or i not in K.HOLD_NAMES for i in items):
                errors.add(kpath, Message(N_("Holds takes a straight, a flush, a straight flush "
                                             "or a royal flush.")))
        elif key in ("pool_empty", "beats_pool"):
            if not isinstance(value, str) or value not in K.POOLS:
                errors.add(kpath, Message(N_("%(value)s is not a pool: choose one of the pools "
                                             "the trainer knows."), value=_quote(value)))
        elif key == "front_at_least":
            _check_threshold(value, kpath, errors)
        elif key == "any":
            if not isinstance(value, list) or not value:
                errors.add(kpath, Message(N_("'Any one of these' needs at least one alternative.")))
            else:
                for i, sub in enumerate(value):
                    _validate_condition(sub, f"{kpath}[{i}]", groups, errors, False, False)
        elif key == "not":
            _validate_condition(value, kpath, groups, errors, False, False)


def _check_pair_groups(value: Any, path: str, groups: dict[str, tuple[int, int]] | None,
                       errors: _Errors) -> None:
    if not isinstance(value, list) or not value:
        errors.add(path, Message(N_("Choose at least one combination of rank groups.")))
        return
    if groups is None:      # the rank groups' own errors say what to fix
        return
    if not groups:
        errors.add(path, Message(N_("This house way has no rank groups: add them before using "
                                    "pair groups.")))
        return
    names = ", ".join(groups)
    for text in value:
        parts = [p.strip() for p in text.split("+")] if isinstance(text, str) else []
        if len(parts) != 2 or any(p not in groups for p in parts):
            errors.add(path, Message(N_("%(value)s is not two of this house way's rank groups "
                                        "joined by + (%(names)s), such as low+high."),
                                     value=_quote(text), names=names))
            return


def _check_threshold(value: Any, path: str, errors: _Errors) -> None:
    parts = str(value).strip().split("-") if isinstance(value, str) else []
    ok = 1 <= len(parts) <= 2
    for p in parts:
        _, err = _parse_rank(p)
        ok = ok and err is None
    if not ok:
        errors.add(path, Message(N_("Write the lowest front the rule takes as a rank (K: a king "
                                    "or better) or two ranks (A-J).")))


EXAMPLE_MISSING = {"cards": N_("Example %(number)s has no cards."),
                   "front": N_("Example %(number)s has no front."),
                   "back": N_("Example %(number)s has no back."),
                   "rule": N_("Example %(number)s has no rule.")}


def _validate_examples(examples: Any, ids: set[str], errors: _Errors) -> None:
    if not isinstance(examples, list):
        errors.add("examples", Message(N_("The examples must be a list.")))
        return
    for i, ex in enumerate(examples):
        path = f"examples[{i}]"
        if not isinstance(ex, Mapping):
            errors.add(path, Message(N_("Example %(number)s is not a table of fields."),
                                     number=str(i + 1)))
            continue
        for key in ("cards", "front", "back", "rule"):
            if not isinstance(ex.get(key), str) or not ex[key].strip():
                errors.add(f"{path}.{key}", Message(EXAMPLE_MISSING[key], number=str(i + 1)))
        if isinstance(ex.get("rule"), str) and ex["rule"] not in ids:
            errors.add(f"{path}.rule", Message(N_("Example %(number)s (%(cards)s) is explained by "
                                                  "a rule that is no longer on the sheet: delete "
                                                  "the example."), number=str(i + 1),
                                               cards=str(ex.get("cards", ""))))


# --- can a condition hold? -------------------------------------------------------------

class _Facts(K.HandFacts):
    """One point of the search: a rank structure and one fact vector of its hands."""

    __slots__ = ("front", "sf", "shape", "v")

    def __init__(self) -> None:
        self.front = 0
        self.v = 0

    def holds(self, category: int) -> bool:
        return bool(self.v & HOLD_BIT[category])

    def pool_best(self, pool: str) -> int | None:
        return 0 if self.v & POOL_BIT[pool] else None

    def front_strength(self, split: int) -> int:
        return self.front


@cache
def _points() -> dict[str, tuple[tuple[K.Shape, tuple[int, ...]], ...]]:
    """Every rank structure (the joker as an ace) with the fact vectors of its hands, by
    shape code. Built once from the shipped facts."""
    by_code: dict[str, list[tuple[K.Shape, tuple[int, ...]]]] = {}
    for shape, vectors in zip(shapes(), shape_facts(), strict=True):
        by_code.setdefault(shape.code, []).append((shape, tuple(sorted(vectors))))
    return {code: tuple(v) for code, v in by_code.items()}


def _codes(shapes: Iterable[str]) -> list[str]:
    names = set(shapes)
    return [code for code, name in K.SHAPE_NAMES.items() if name in names]


@cache
def _code_fields(code: str) -> frozenset[str]:
    shape = _points()[code][0][0]
    return frozenset(K.shape_fields(shape)) | {"front", "back"}


@cache
def _front_fails(kind: K.Kind, code: str) -> bool:
    assert kind.front is not None
    try:
        kind.front(_points()[code][0][0])
    except IndexError:
        return True
    return False


def _front_of(kind: K.Kind, shape: K.Shape) -> int:
    assert kind.front is not None
    a, b = kind.front(shape)
    return rank2(((a - 2) * 4, (b - 2) * 4))


def _rank_only(key: str, value: Any) -> bool:
    if key in _RANK_KEYS:
        return True
    if key == "any":
        return all(_rank_only(k, v) for sub in value for k, v in sub.items())
    if key == "not":
        return all(_rank_only(k, v) for k, v in value.items())
    return False


_FOUND: dict[str, bool] = {}


def _find(codes: Sequence[str], atoms: Sequence[tuple[str, Any]],
          groups: Mapping[str, tuple[int, int]], kind: K.Kind | None) -> bool | None:
    """Tell whether some hand of these shape codes meets every atom: True, or None.

    Exact for every test on the hand; a rule's front is tested only where it follows
    from the hand's ranks (``front_at_least`` on a kind that places the cards itself),
    and ``beats_pool`` is taken to hold (the proof decides it).
    """
    use = [(k, v) for k, v in atoms if k not in K.POST_KEYS or (
        k == "front_at_least" and kind is not None and kind.front is not None)]
    key = json.dumps([sorted(codes), use, sorted(groups.items()),
                      kind.name if kind is not None and any(
                          k in K.POST_KEYS for k, _ in use) else None],
                     sort_keys=True, default=str)
    if key in _FOUND:
        return True if _FOUND[key] else None
    rank_pre: list[K.Pre] = []
    suit_pre: list[K.Pre] = []
    post: list[K.Post] = []
    for k, v in use:
        pre, post_part = K.compile_condition({k: v}, groups, "editor")
        (rank_pre if _rank_only(k, v) else suit_pre).extend(pre)
        post.extend(post_part)
    found = _search(codes, rank_pre, suit_pre, post, kind if post else None)
    if len(_FOUND) > 50_000:
        _FOUND.clear()
    _FOUND[key] = found
    return True if found else None


def _search(codes: Sequence[str], rank_pre: list[K.Pre], suit_pre: list[K.Pre],
            post: list[K.Post], kind: K.Kind | None) -> bool:
    points = _points()
    h = _Facts()
    for code in codes:
        if kind is not None and _front_fails(kind, code):
            continue
        for shape, vectors in points.get(code, ()):
            h.shape = shape
            if not all(p(h) for p in rank_pre):
                continue
            if kind is not None:
                h.front = _front_of(kind, shape)
            for v in vectors:
                h.v = v
                h.sf = bool(v & SF_BIT)
                if all(p(h) for p in suit_pre) and all(p(h, 0) for p in post):
                    return True
    return False


def _conflict(shapes: frozenset[str], atoms: Sequence[tuple[str, Any]],
              groups: Mapping[str, tuple[int, int]], kind: K.Kind | None,
              first_own: int = 0) -> tuple[list[str], str] | None:
    """Return None when some hand of these shapes meets every atom; otherwise the keys
    of the smallest conflicting set found (the rule's own, from ``first_own``) and words."""
    codes = _codes(shapes)
    if _find(codes, atoms, groups, kind):
        return None
    gl = {g: _group_label(g) for g in groups}
    where = f"no {_shape_words(shapes)} hand has"
    for size in (1, 2):
        if len(atoms) > 7 and size == 2:
            break
        for combo in combinations(range(len(atoms)), size):
            picked = [atoms[i] for i in combo]
            if not _find(codes, picked, groups, kind):
                own = [atoms[i][0] for i in combo if i >= first_own]
                words = " and ".join(_describe(k, v, gl) for k, v in picked)
                return own, f"{where} {words}"
    own = [k for k, _ in atoms[first_own:]]
    words = " and ".join(_describe(k, v, gl) for k, v in atoms)
    return own, f"{where} {words}" if atoms else f"no hand is {_shape_words(shapes)}"


def _shape_words(shapes: Iterable[str]) -> str:
    names = [SHAPE_LABELS[s] for s in K.SHAPES if s in set(shapes)]
    if len(names) <= 1:
        return names[0] if names else "such"
    return ", ".join(names[:-1]) + " or " + names[-1]


def _describe(key: str, value: Any, groups: Mapping[str, str]) -> str:
    """Word one condition for a manager ("a higher pair of deuces to sixes")."""
    if key in _RANGE_KEYS:
        parsed, _ = _parse_range(value)
        assert parsed is not None
        words = _range_words(*parsed)
        return {"pair": f"one pair of {words}", "high_pair": f"a higher pair of {words}",
                "low_pair": f"a lower pair of {words}", "trips": f"trips of {words}",
                "quads": f"four {words}"}[key]
    if key in _BOOL_KEYS:
        yes = {"sf": "a straight or flush", "ace": "an ace singleton",
               "king_or_ace": "a king or ace singleton",
               "ace_and_face": "an ace and a J, Q or K singleton"}[key]
        if value:
            return yes
        return {"sf": "no straight or flush", "ace": "no ace singleton",
                "king_or_ace": "no king or ace singleton",
                "ace_and_face": "not both an ace and a J, Q or K singleton"}[key]
    if key == "pair_groups":
        combos = [" + ".join(groups.get(p.strip(), p.strip()) for p in t.split("+"))
                  for t in value]
        return "pairs " + " or ".join(combos)
    if key == "singletons":
        return "exactly the singletons " + ", ".join(str(v).upper() for v in value)
    if key == "holds":
        items = [value] if isinstance(value, str) else value
        return " and ".join(HOLD_LABELS[i] for i in items)
    if key == "pool_empty":
        return f"nothing among {K.POOLS[value][0]}"
    if key == "beats_pool":
        return f"a front better than the best among {K.POOLS[value][0]}"
    if key == "front_at_least":
        return f"a front of {value} or better"
    if key == "shapes":
        return f"a {_shape_words(value)} hand"
    if key == "any":
        alts = [" and ".join(_describe(k, v, groups) for k, v in sub.items()) for sub in value]
        return "either " + " or ".join(alts) if len(alts) > 1 else alts[0]
    if key == "not":
        return "not " + " and ".join(_describe(k, v, groups) for k, v in value.items())
    return key


# --- building, import and export ---------------------------------------------------------

def build(data: Mapping[str, Any], table: bool = True) -> HouseWay:
    """Validate a house way's data and return its ``HouseWay``; ``EditError`` otherwise."""
    errors = validate(data)
    if errors:
        raise EditError(errors)
    try:
        return HouseWay(copy.deepcopy(dict(data)), table)
    except (ValueError, KeyError, TypeError) as exc:  # validate should have said it
        raise EditError([FieldError("", f"This house way cannot be used: {exc}")]) from None


_TOML_WHERE = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


def from_toml(text: str) -> dict[str, Any]:
    """Read a house-way file's text; a TOML syntax error is an ``EditError`` naming the line."""
    if not isinstance(text, str):
        raise EditError([_said("file", Message(N_("The file is not text.")))])
    # Size, nesting and number length before parsing: tomllib recurses on nesting and
    # Python refuses a decimal int past 4,300 digits (engine/toml_limits.py).
    too_much = toml_limits.check(text)
    if too_much is not None:
        raise EditError([_said("file", too_much)])
    try:
        return tomllib.loads(text)
    except RecursionError:  # the scan above should have said it
        raise EditError([_said("file", Plural(Nn_(
            "The file nests more than %(count)s level deep.",
            "The file nests more than %(count)s levels deep."), toml_limits.MAX_DEPTH))]) from None
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        where = _TOML_WHERE.search(message)
        if where is None:
            raise EditError([_said("file", Message(N_("The file is not a house-way file: "
                                                      "%(error)s."), error=message))]) from None
        line, column = where.groups()
        what = message[:where.start()].rstrip(".")
        raise EditError([_said(f"line {line}", Message(N_("The file cannot be read at line "
                                                          "%(line)s, column %(column)s: "
                                                          "%(error)s."), line=line,
                                                       column=column, error=what))]) from None
    except ValueError:  # a number Python will not read (past 4,300 digits): as the scan says
        raise EditError([_said("file", Plural(Nn_(
            "The file holds a number longer than %(count)s character.",
            "The file holds a number longer than %(count)s characters."),
            toml_limits.MAX_NUMBER_CHARS))]) from None


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
            "\r": "\\r"}


def _toml_str(s: str) -> str:
    out = []
    for ch in s:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _toml_key(k: Any) -> str:
    if not isinstance(k, str):
        raise ValueError("A house way's field names must be text.")
    return k if _BARE_KEY.fullmatch(k) else _toml_str(k)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not isfinite(v):
            raise ValueError("A house way cannot hold an infinite number.")
        return repr(v)
    if isinstance(v, str):
        return _toml_str(v)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        items = [f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items() if x is not None]
        return "{ " + ", ".join(items) + " }" if items else "{}"
    raise ValueError("A house way holds only text, numbers, yes/no, lists and tables.")


def _is_table_list(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, Mapping) for x in v)


def to_toml(data: Mapping[str, Any]) -> str:
    """Write a house way in the presets' format: the top-level fields, then
    ``[rank_groups]``, then each ``[[sections]]`` with its ``[[sections.rules]]``
    (conditions as inline ``when = { ... }``), ``[[coverage]]`` and ``[[examples]]``.
    ``tomllib.loads(to_toml(d)) == d`` (fields whose value is None are left out)."""
    title = str(data.get("title", data.get("name", "House way")))
    lines = ["# " + "".join(ch if ch.isprintable() else " " for ch in title).strip(),
             "# Exported by the Pai Gow dealer trainer; the same format as its preset files.",
             ""]
    _toml_table(lines, [], data)
    return "\n".join(lines).rstrip("\n") + "\n"


def _toml_table(lines: list[str], path: list[str], table: Mapping[str, Any]) -> None:
    top = not path
    later = []
    for k, v in table.items():
        if v is None:
            continue
        if (top and isinstance(v, Mapping)) or _is_table_list(v) or (
                k == "translations" and isinstance(v, Mapping)
                and all(isinstance(w, Mapping) for w in v.values())):
            later.append((k, v))
        else:
            lines.append(f"{_toml_key(k)} = {_toml_value(v)}")
    for k, v in later:
        name = ".".join(_toml_key(p) for p in [*path, k])
        if k == "translations" and isinstance(v, Mapping):
            # One table a language, beside the words it translates (the presets' layout).
            for lang, words in v.items():
                lines.extend(["", f"[{name}.{_toml_key(lang)}]"])
                _toml_table(lines, [*path, k, lang], words)
        elif isinstance(v, Mapping):
            lines.extend(["", f"[{name}]"])
            _toml_table(lines, [*path, k], v)
        else:
            for item in v:
                lines.extend(["", f"[[{name}]]"])
                _toml_table(lines, [*path, k], item)


def preset_data(name: str) -> dict[str, Any]:
    """Return a preset's data as its file holds it (a fresh copy), for "copy and edit"."""
    if name not in preset_names():
        raise ValueError(f"Unknown house way '{name}': the presets are "
                         f"{', '.join(preset_names())}.")
    text = resources.files(__package__).joinpath("presets", f"{name}.toml").read_text(
        encoding="utf-8")
    return tomllib.loads(text)


# --- draft operations (pure) ----------------------------------------------------------------

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
    if not isinstance(kind, str) or kind not in K.KINDS:
        raise ValueError(f"'{kind}' is not a rule kind.")
    used = {r.get("id") for s in (data.get("sections") or []) if isinstance(s, Mapping)
            for r in (s.get("rules") or []) if isinstance(r, Mapping)}
    n = 1
    while f"{kind}.custom-{n}" in used:
        n += 1
    return f"{kind}.custom-{n}"
