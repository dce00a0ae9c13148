"""The forms of the manager's house-way editor (issue 18, item 3).

The editor never lets a manager type code: a rule is a kind chosen from the engine's
rule kinds (``editing.RULE_KIND_INFO``, shown in words), its pool when it takes one, and
a condition built from the engine's condition fields (``editing.CONDITION_FIELDS``):
checkboxes, yes/no/either selects and short rank texts, with up to
``ALTERNATIVES`` "any of" alternatives and an "unless" condition. The engine
(``editing.validate``) judges the result; its ``FieldError.path`` is mapped back to
the form field it names (``field_for_path``) so each message shows beside its field.

Form fields are named ``when-<key>`` (the rule's own condition), ``any-<i>-<key>``
(alternative i) and ``not-<key>`` (the "unless" condition).
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import (
    Field,
    SelectField,
    SelectMultipleField,
    StringField,
    SubmitField,
    TextAreaField,
    widgets,
)
from wtforms.validators import DataRequired, Length, Optional, Regexp

from trainer.web.words.house_way_words import choice_words, pair_group_words

SLUG_PATTERN = r"^[a-z][a-z0-9-]{2,39}$"
ALTERNATIVES = 4
RANK_GROUPS = ("low", "medium", "high", "aces")
# Keys of a condition that test the rule's own front: never inside "any of" or "unless".
POST_KEYS = frozenset({"beats_pool", "front_at_least"})
TRI = [("", _l("either")), ("yes", _l("yes")), ("no", _l("no"))]


class MultiCheckboxField(SelectMultipleField):
    """Several choices as checkboxes."""

    widget = widgets.ListWidget(prefix_label=False)
    option_widget = widgets.CheckboxInput()


class CopyForm(FlaskForm):
    """Copy and edit: the new way's short name and casino."""

    slug = StringField(
        _l("Short name (for links and files)"),
        description=_l("3 to 40 lowercase letters, digits and dashes, starting with a letter, "
                       "such as golden-sands."),
        validators=[DataRequired(_l("Give the house way a short name, such as golden-sands.")),
                    Regexp(SLUG_PATTERN, message=_l(
                        "A short name has 3 to 40 lowercase letters, digits and dashes, "
                        "and starts with a letter (such as golden-sands)."))])
    casino = StringField(_l("Casino's name"), validators=[
        DataRequired(_l("Write the casino's name.")),
        Length(3, 120, _l("A casino's name has 3 to 120 characters."))])
    submit = SubmitField(_l("Copy and edit"))


class ImportForm(FlaskForm):
    """A house-way file to start a draft from."""

    file = FileField(_l("House-way file (.toml, as exported)"),
                     validators=[FileRequired(_l("Choose a house-way file to import."))])
    slug = StringField(
        _l("Short name (leave empty to use the file's)"),
        validators=[Optional(), Regexp(SLUG_PATTERN, message=_l(
            "A short name has 3 to 40 lowercase letters, digits and dashes, "
            "and starts with a letter (such as golden-sands)."))])
    casino = StringField(_l("Casino's name (leave empty to use the file's)"),
                         validators=[Optional(), Length(3, 120, _l(
                             "A casino's name has 3 to 120 characters."))])
    submit = SubmitField(_l("Import"))


def _group_length(example: str) -> Length:
    return Length(max=8, message=_l("Write a rank range such as %(example)s.", example=example))


class DetailsForm(FlaskForm):
    """The way's words and its rank groups."""

    title = StringField(_l("Title (as printed on the sheet)"), validators=[
        DataRequired(_l("Write the sheet's title.")),
        Length(3, 120, _l("A title has 3 to 120 characters."))])
    casino = StringField(_l("Casino's name"), validators=[
        DataRequired(_l("Write the casino's name.")),
        Length(3, 120, _l("A casino's name has 3 to 120 characters."))])
    thresholds = TextAreaField(_l("Thresholds (a sentence for the sheet)"), validators=[
        Length(max=600, message=_l("Keep the thresholds to 600 characters."))])
    low = StringField(_l("Low"), validators=[_group_length("2-6")])
    medium = StringField(_l("Medium"), validators=[_group_length("7-T")])
    high = StringField(_l("High"), validators=[_group_length("J-K")])
    aces = StringField(_l("Aces"), validators=[_group_length("A")])
    submit = SubmitField(_l("Save"))


class PublishForm(FlaskForm):
    """Publish the draft as the next version, with a note."""

    note = StringField(_l("Note (what changed, for the version list)"), validators=[
        DataRequired(_l("Write a short note on what this version changes.")),
        Length(max=200, message=_l("Keep the note to 200 characters."))])
    submit = SubmitField(_l("Publish"))


class DiffForm(FlaskForm):
    """What it changes: against which reference."""

    reference = SelectField(_l("Compare with"))
    submit = SubmitField(_l("Work out what it changes"))


DEALS_MIN, DEALS_MAX, DEALS_DEFAULT = 10_000, 10_000_000, 1_000_000


class EdgeForm(FlaskForm):
    """The edge change: which table rules, how many deals."""

    profile = SelectField(_l("Table rules"))
    deals = StringField(_l("Deals to simulate"), default=str(DEALS_DEFAULT))
    submit = SubmitField(_l("Simulate"))


def deals_value(text: str | None) -> int | None:
    """Return the typed number of deals, or None when it is not a whole number.

    A whole number has no decimals, so any language's digit grouping is read: "1,000,000",
    "1.000.000", "1 000 000" (with a plain, no-break or thin space) and "1'000'000".
    """
    cleaned = (text or "").strip()
    for mark in (",", ".", " ", "\u00a0", "\u202f", "'", "_"):
        cleaned = cleaned.replace(mark, "")
    if not cleaned.isdigit() or len(cleaned) > 9:
        return None
    return int(cleaned)


# --- the rule form ------------------------------------------------------------------------


def _field_kind(field: Any) -> str:
    """Return how a condition field is drawn: tri (yes/no/either), multi, select, ranks or text."""
    kind = str(getattr(field, "kind", "") or "").lower()
    key = str(getattr(field, "key", ""))
    if kind == "bool":
        return "tri"
    if kind in ("shapes", "holds", "pair-groups", "pair_groups", "multi"):
        return "multi"
    if kind == "pool":
        return "select"
    if kind == "ranks" or key == "singletons":
        return "ranks"
    return "text"  # range, threshold


def _choices(field: Any, pair_groups: Sequence[Any]) -> list[tuple[str, str]]:
    if str(getattr(field, "key", "")) == "pair_groups":
        return [_choice(c) for c in pair_groups]
    return [_choice(c) for c in (getattr(field, "choices", None) or ())]


def _choice(choice: Any) -> tuple[str, str]:
    if isinstance(choice, (tuple, list)) and len(choice) >= 2:
        value, label = str(choice[0]), str(choice[1])
        # A label that is the value itself ("no-pair") is shown in words ("no pair").
        return value, choice_words(label) if label == value else label
    text = str(choice)
    return text, pair_group_words(text) if "+" in text else choice_words(text)


def _make_field(spec: Any, pair_groups: Sequence[Any]) -> tuple[Field, list[Any] | None]:
    """Return an unbound field for a condition key, and its choices (set once bound:
    WTForms warns about choices given as pairs to the constructor)."""
    label = str(getattr(spec, "label", "") or spec.key)
    kind = _field_kind(spec)
    if kind == "tri":
        return SelectField(label, default="", validate_choice=False), list(TRI)
    if kind == "multi":
        return (MultiCheckboxField(label, default=[], validate_choice=False),
                _choices(spec, pair_groups))
    if kind == "select":
        return (SelectField(label, default="", validate_choice=False),
                [("", _l("any")), *_choices(spec, ())])
    return StringField(label, validators=[Length(max=40, message=_l("Keep this short."))]), None


class RuleForm(FlaskForm):
    """A rule: its kind, pool, numbers and words; condition fields are added per form."""

    kind = SelectField(_l("What the rule does"), validate_choice=False)
    pool = SelectField(_l("Straight-or-flush settings it chooses from"), validate_choice=False)
    position = SelectField(_l("Place"), validate_choice=False)
    number = StringField(_l("Number on the sheet"), validators=[
        DataRequired(_l("Give the rule its number on the sheet, such as 3.4.")),
        Length(max=12, message=_l("A rule number has at most 12 characters."))])
    short = StringField(_l("Short name"), validators=[
        DataRequired(_l("Give the rule a short name, such as 'Two pair with aces: split'.")),
        Length(max=90, message=_l("A short name has at most 90 characters."))])
    text = TextAreaField(_l("Sheet sentence"), validators=[
        DataRequired(_l("Write the rule as the sheet says it.")),
        Length(max=600, message=_l("Keep the sheet sentence to 600 characters."))])
    explain = TextAreaField(
        _l("Explanation shown after an answer"),
        description=_l("May name the hand's cards: {pair}, {high_pair}, {low_pair}, {trips}, "
                       "{quads}, {high_card}, {front}, {back}."),
        validators=[DataRequired(_l("Write the explanation a trainee reads after answering.")),
                    Length(max=300, message=_l("Keep the explanation to 300 characters."))])
    submit = SubmitField(_l("Save rule"))


def build_rule_form(kinds: Sequence[tuple[str, list[tuple[str, str]]]],
                    pools: Sequence[tuple[str, str]], positions: Sequence[tuple[str, str]],
                    fields: Sequence[Any], pair_groups: Sequence[Any],
                    formdata: Any = None) -> RuleForm:
    """Return the rule form with a field per condition key, for the rule, its alternatives and "unless"."""

    class Form(RuleForm):
        pass

    choices: dict[str, list[Any]] = {}
    for spec in fields:
        key = spec.key
        names = [f"when-{key}"]
        if key not in POST_KEYS:
            names += [f"any-{i}-{key}" for i in range(ALTERNATIVES)] + [f"not-{key}"]
        for name in names:
            unbound, options = _make_field(spec, pair_groups)
            setattr(Form, name, unbound)
            if options is not None:
                choices[name] = options
    form = Form(formdata=formdata) if formdata is not None else Form()
    for name, options in choices.items():
        select = form[name]
        assert isinstance(select, SelectField)  # only the select kinds have choices (_make_field)
        select.choices = options
    form.kind.choices = {str(group): list(items) for group, items in kinds}  # optgroups
    form.pool.choices = [("", _l("— (this kind takes none)")), *list(pools)]
    form.position.choices = list(positions)
    return form


def block_fields(form: RuleForm, prefix: str, fields: Sequence[Any]) -> list[Field]:
    """Return the bound fields of one condition block (``when``, ``any-0``, ``not``)."""
    out = []
    for spec in fields:
        bound = form._fields.get(f"{prefix}-{spec.key}")
        if bound is not None:
            out.append(bound)
    return out


def _ranks_list(text: str) -> list[str]:
    return [part.upper() for part in re.split(r"[\s,]+", text.strip()) if part]


def _block_value(form: RuleForm, prefix: str, fields: Sequence[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for spec in fields:
        bound = form._fields.get(f"{prefix}-{spec.key}")
        if bound is None:
            continue
        kind = _field_kind(spec)
        value = bound.data
        if kind == "tri":
            if value in ("yes", "no"):
                out[spec.key] = value == "yes"
        elif kind == "multi":
            picked = [str(v) for v in (value or []) if str(v)]
            if picked:
                # One holding is written as the presets write it: holds = "royal".
                out[spec.key] = picked[0] if spec.key == "holds" and len(picked) == 1 else picked
        elif kind == "select":
            if value:
                out[spec.key] = str(value)
        elif kind == "ranks":
            ranks = _ranks_list(str(value or ""))
            if ranks:
                out[spec.key] = ranks
        else:
            text = str(value or "").strip()
            if text:
                out[spec.key] = text.upper()
    return out


def condition_from(form: RuleForm, fields: Sequence[Any]) -> dict[str, Any]:
    """Return the condition (``when``) the form describes, in the presets' shape."""
    when = _block_value(form, "when", fields)
    alternatives = [alt for alt in (_block_value(form, f"any-{i}", fields)
                                    for i in range(ALTERNATIVES)) if alt]
    if alternatives:
        when["any"] = alternatives
    unless = _block_value(form, "not", fields)
    if unless:
        when["not"] = unless
    return when


def _fill_block(form: RuleForm, prefix: str, values: Mapping[str, Any],
                fields: Sequence[Any]) -> None:
    for spec in fields:
        bound = form._fields.get(f"{prefix}-{spec.key}")
        if bound is None or spec.key not in values:
            continue
        value = values[spec.key]
        kind = _field_kind(spec)
        if kind == "tri":
            bound.data = "yes" if value else "no"
        elif kind == "multi":
            bound.data = [str(v) for v in ([value] if isinstance(value, str) else value)]
        elif kind == "ranks":
            bound.data = " ".join(str(v) for v in ([value] if isinstance(value, str) else value))
        else:
            bound.data = str(value)


def fill_rule_form(form: RuleForm, rule: Mapping[str, Any], kind: str,
                   fields: Sequence[Any]) -> None:
    """Fill the form from a rule of the draft."""
    form.kind.data = kind
    form.pool.data = str(rule.get("pool") or "")
    form.number.data = str(rule.get("number", ""))
    form.short.data = str(rule.get("short", ""))
    form.text.data = str(rule.get("text", ""))
    form.explain.data = str(rule.get("explain", ""))
    when = dict(rule.get("when") or {})
    _fill_block(form, "when", when, fields)
    for i, alt in enumerate(list(when.get("any") or [])[:ALTERNATIVES]):
        if isinstance(alt, Mapping):
            _fill_block(form, f"any-{i}", alt, fields)
    unless = when.get("not")
    if isinstance(unless, Mapping):
        _fill_block(form, "not", unless, fields)


# --- engine error paths -> form fields ------------------------------------------------------
# (a rule's path split into section, rule and the rest: ``house_way_words.split_rule_path``)

_ANY_PATH = re.compile(r"^when\.any\[(\d+)\]\.?(.*)$")


def rule_field_for(rest: str) -> str | None:
    """Map the part of an error path after ``sections[s].rules[r].`` to a rule-form field name."""
    if rest in ("number", "short", "text", "explain", "pool"):
        return rest
    if rest in ("id", "kind"):
        return "kind"
    match = _ANY_PATH.match(rest)
    if match:
        index, key = int(match.group(1)), match.group(2).split(".")[0].split("[")[0]
        return f"any-{index}-{key}" if key and index < ALTERNATIVES else "when-any"
    if rest.startswith("when.not."):
        return "not-" + rest.removeprefix("when.not.").split(".")[0].split("[")[0]
    if rest == "when.not":
        return "when-not"
    if rest.startswith("when."):
        return "when-" + rest.removeprefix("when.").split(".")[0].split("[")[0]
    return None


def details_field_for(path: str) -> str | None:
    """Map an error path on the way's details to a details-form field name."""
    if path in ("title", "casino", "thresholds"):
        return path
    if path.startswith("rank_groups."):
        group = path.removeprefix("rank_groups.")
        return group if group in RANK_GROUPS else "rank_groups"
    if path == "rank_groups":
        return "rank_groups"
    return None


def add_error(form: FlaskForm, name: str, message: str) -> bool:
    """Put ``message`` beside the field ``name``; return False when the form has no such field."""
    field = form._fields.get(name)
    if field is None:
        return False
    if not isinstance(field.errors, list):
        field.errors = list(field.errors)
    field.errors.append(message)
    return True
