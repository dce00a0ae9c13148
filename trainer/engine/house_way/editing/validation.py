"""``validate(data)``: every problem with a house way's data at once; ``build`` after it.

Never raises: checks the fields, the rank groups, each section and rule (its id and
kind, texts, pool, condition, the shapes that reach it and its explanation's fields),
the examples and the translations, and that no section's or rule's condition is one no
hand can meet (``can_hold``).
"""
from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from ...cards import RANK_CHARS
from ...messages import N_, Joined, Message
from .. import explanations as X
from .. import kinds as K
from .. import words as W
from ..interpreter import HouseWay
from .can_hold import code_fields, find_conflict, find_hand, front_fails, shape_codes
from .conditions import validate_condition
from .errors import EditError, Errors, FieldError
from .explanation_checks import rule_number, validate_explain
from .form import CODE_LABELS, TEXT_FIELDS, group_label, kind_words, shape_message
from .values import GROUP_NAME, RULE_ID, SLUG, parse_range, quote, text_error


def validate(data: Any) -> list[FieldError]:
    """Return every problem with a house way's data (an empty list: it can be used).

    Never raises. Checks the fields, the rank groups, every section and rule, and that
    no section's or rule's condition is one that no hand can meet.
    """
    errors = Errors()
    if not isinstance(data, Mapping):
        errors.add("", Message(N_("A house way is a table of fields; this is not one.")))
        return errors
    name = data.get("name")
    if not isinstance(name, str) or not SLUG.fullmatch(name):
        errors.add("name", Message(N_("The short name must be 3 to 40 characters: lowercase "
                                      "letters, digits and hyphens, starting with a letter.")))
    for key, required in (("title", True), ("casino", True), ("thresholds", False),
                          ("source", False), ("authority", False)):
        err = text_error(data.get(key), Message(TEXT_FIELDS[key]), required)
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
                                       rule_number(rule, r))
    return list(errors)


_FIELD_WORDS = {"title": N_("title"), "thresholds": N_("terms"), "notes": N_("notes"),
                "text": N_("text"), "short": N_("short name"), "explain": N_("explanation"),
                "source": N_("source"), "resolved": N_("resolved line"),
                "decided": N_("decided line")}


def _validate_translations(raw: Any, allowed: Sequence[str], path: str,
                           errors: Errors, rule_number: str = "") -> None:
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
                                         "pt, es, it or ru."), value=quote(lang)))
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
                validate_explain(value, f"{where}.explain", errors, rule_number, str(lang))
            elif not isinstance(value, str):
                errors.add(f"{where}.{key}", Message(N_("The translated %(field)s must be text."),
                                                     field=Message(_FIELD_WORDS[key])))


def _validate_groups(raw: Any, errors: Errors) -> dict[str, tuple[int, int]] | None:
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
        parsed, err = parse_range(text)
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
                                   rank=RANK_CHARS[rank - 2], one=group_label(holders[0]),
                                   other=group_label(holders[1])))
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
                      errors: Errors, ids: dict[str, str]) -> None:
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
        err = text_error(section.get(key), what, required)
        if err:
            errors.add(f"{path}.{key}", err)
    when = section.get("when", {})
    before = len(errors)
    validate_condition(when, f"{path}.when", groups, errors, post=False, top=True)
    when_ok = len(errors) == before and isinstance(when, Mapping)
    shapes = frozenset(when.get("shapes", K.SHAPES)) if when_ok else frozenset(K.SHAPES)
    rules = section.get("rules")
    if not isinstance(rules, list) or not rules:
        errors.add(f"{path}.rules", Message(N_("%(section)s has no rules."), section=label))
        rules = []
    section_sat = True
    if when_ok and groups is not None:
        atoms = [(k, v) for k, v in when.items() if k != "shapes"]
        conflict = find_conflict(shapes, atoms, groups, None)
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
                   groups: dict[str, tuple[int, int]] | None, errors: Errors,
                   ids: dict[str, str]) -> None:
    """Check one rule: its own fields first, then (when they and its section are sound)
    that its condition can hold, that its kind can place every hand reaching it, and that
    those hands have the cards its explanations name."""
    if not isinstance(rule, Mapping):
        errors.add(path, Message(N_("This rule is not a table of fields.")))
        return
    before = len(errors)
    kind = _check_rule_id(rule, path, errors, ids)
    _check_rule_texts(rule, path, errors)
    fields = validate_explain(rule.get("explain"), f"{path}.explain", errors,
                              rule_number(rule, int(path.rsplit("[", 1)[1].rstrip("]"))), "en")
    _check_rule_pool(rule.get("pool"), path, kind, errors)
    when = rule.get("when", {})
    cond_before = len(errors)
    validate_condition(when, f"{path}.when", groups, errors, post=True, top=True)
    if len(errors) != cond_before or not isinstance(when, Mapping):
        return
    shapes = _shapes_reaching(when, path, section_shapes, kind, errors)
    if shapes is None or kind is None:
        return
    if len(errors) != before or not section_ok or groups is None:
        return
    section_when = section.get("when", {})
    atoms = [(k, v) for k, v in section_when.items() if k != "shapes"]
    rule_atoms = [(k, v) for k, v in when.items() if k != "shapes"]
    if not _rule_can_hold(path, "shapes" in when, shapes, atoms, rule_atoms, groups, kind,
                          errors):
        return
    codes = shape_codes(shapes)
    _check_front_placeable(path, kind, codes, atoms + rule_atoms, groups, errors)
    _check_explanation_cards(rule, path, fields, codes, atoms + rule_atoms, groups, kind,
                             errors)


def _check_rule_id(rule: Mapping[str, Any], path: str, errors: Errors,
                   ids: dict[str, str]) -> K.Kind | None:
    """Check the rule's id (well formed, a known kind, not used twice); return its kind."""
    label = _rule_label(rule, "this rule")
    kind: K.Kind | None = None
    rid = rule.get("id")
    if not isinstance(rid, str) or not RULE_ID.fullmatch(rid):
        errors.add(f"{path}.id", Message(N_("This rule has no valid id (the trainer makes one "
                                            "when a rule is added): add the rule again.")))
    else:
        kind = K.RULE_KINDS.get(K.kind_of(rid))
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
    return kind


def _check_rule_texts(rule: Mapping[str, Any], path: str, errors: Errors) -> None:
    """Check the rule's number, short name, sheet text and resolved and decided lines."""
    for key, what, required in (("number", Message(N_("The rule's number")), False),
                                ("short", Message(N_("The rule's short name")), False),
                                ("text", Message(N_("The rule's sheet text")), True),
                                ("resolved", Message(N_("The rule's resolved line")), False),
                                ("decided", Message(N_("The rule's decided line")), False)):
        err = text_error(rule.get(key), what, required)
        if err:
            if key == "text" and "empty" in str(err):
                err = Message(N_("The rule's sheet text is empty: write the sentence the dealer "
                                 "reads."))
            errors.add(f"{path}.{key}", err)


def _check_rule_pool(pool: Any, path: str, kind: K.Kind | None, errors: Errors) -> None:
    """Check the rule's pool: a known one, and only on a kind that takes one."""
    if kind is not None and kind.front is None:
        if pool is not None and (not isinstance(pool, str) or pool not in K.POOLS):
            errors.add(f"{path}.pool", Message(N_("%(value)s is not a pool: choose one of the "
                                                  "pools the trainer knows."), value=quote(pool)))
    elif pool is not None and kind is not None:
        errors.add(f"{path}.pool", Message(N_("Only a 'best straight or flush setting' rule takes "
                                              "a pool; this kind places the cards itself.")))


def _shapes_reaching(when: Mapping[str, Any], path: str, section_shapes: frozenset[str],
                     kind: K.Kind | None, errors: Errors) -> frozenset[str] | None:
    """Return the hand shapes that reach the rule (its own within its section's); None when
    none can, when its kind is unknown, or when its kind cannot set one of them."""
    own = frozenset(when["shapes"]) if "shapes" in when else None
    shapes = (own & section_shapes) if own is not None else section_shapes
    if own is not None and not shapes:
        errors.add(f"{path}.when.shapes",
                   Message(N_("This rule is for %(shapes)s hands, but its section is only for "
                              "%(section)s hands, so it can never apply."),
                           shapes=shape_message(own), section=shape_message(section_shapes)))
        return None
    if kind is None:
        return None
    if not shapes <= kind.shapes:
        bad = [s for s in K.SHAPES if s in shapes - kind.shapes]
        errors.add(f"{path}.when.shapes",
                   Message(N_("A '%(kind)s' rule can only set %(shapes)s hands, but %(bad)s "
                              "hands can reach this rule: choose the hand shapes it is for."),
                           kind=kind_words(kind), shapes=shape_message(kind.shapes),
                           bad=shape_message(bad)))
        return None
    return shapes


def _rule_can_hold(path: str, own_shapes: bool, shapes: frozenset[str],
                   atoms: list[tuple[str, Any]], rule_atoms: list[tuple[str, Any]],
                   groups: dict[str, tuple[int, int]], kind: K.Kind, errors: Errors) -> bool:
    """Tell whether some hand meets the section's tests (``atoms``) and the rule's; when none
    does, add the problem, worded by the smallest conflicting set, at the rule's test."""
    conflict = find_conflict(shapes, atoms + rule_atoms, groups, kind, len(atoms))
    if conflict is None:
        return True
    keys, words = conflict
    where = f"{path}.when.{keys[-1]}" if keys else (
        f"{path}.when.shapes" if own_shapes else f"{path}.when")
    errors.add(where, Message(N_("This condition can never hold: %(why)s."), why=words))
    return False


def _check_front_placeable(path: str, kind: K.Kind, codes: list[str],
                           atoms: list[tuple[str, Any]], groups: dict[str, tuple[int, int]],
                           errors: Errors) -> None:
    """Add a problem when a hand the kind cannot place (no front it can make) reaches it."""
    if kind.front is None:
        return
    # (a test of the rule's front cannot be made where the front cannot be placed)
    hand_atoms = [(k, v) for k, v in atoms if k not in K.POST_KEYS]
    for code in codes:
        if front_fails(kind, code) and find_hand([code], hand_atoms, groups, None):
            errors.add(f"{path}.id",
                       Message(N_("A '%(kind)s' rule cannot set %(shape)s hands, and this "
                                  "rule's condition lets one reach it: narrow its "
                                  "condition."), kind=kind_words(kind),
                               shape=Message(CODE_LABELS[code])))
            break


def _check_explanation_cards(rule: Mapping[str, Any], path: str, fields: list[str],
                             codes: list[str], atoms: list[tuple[str, Any]],
                             groups: dict[str, tuple[int, int]], kind: K.Kind,
                             errors: Errors) -> None:
    """Add a problem for each explanation field some hand reaching the rule has no cards for.

    The English explanation's fields, then each translation's (issue 19) that it lacks;
    whole sentences per field (issue 19: "The %(what)s uses" cannot agree in every language).
    """
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
            if field not in code_fields(code) and find_hand(
                    [code], atoms, groups, kind) is not None:
                errors.add(where, Message(which, field="{" + field + "}",
                                          shape=Message(CODE_LABELS[code])))
                break


EXAMPLE_MISSING = {"cards": N_("Example %(number)s has no cards."),
                   "front": N_("Example %(number)s has no front."),
                   "back": N_("Example %(number)s has no back."),
                   "rule": N_("Example %(number)s has no rule.")}


def _validate_examples(examples: Any, ids: set[str], errors: Errors) -> None:
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


# --- building ------------------------------------------------------------------------

def build(data: Mapping[str, Any], table: bool = True) -> HouseWay:
    """Validate a house way's data and return its ``HouseWay``; ``EditError`` otherwise."""
    errors = validate(data)
    if errors:
        raise EditError(errors)
    try:
        return HouseWay(copy.deepcopy(dict(data)), table)
    except (ValueError, KeyError, TypeError) as exc:  # validate should have said it
        raise EditError([FieldError("", f"This house way cannot be used: {exc}")]) from None
