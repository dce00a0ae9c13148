"""A rule's page, new or edited: the form filled, the posted rule read and checked, saved,
or its problems shown beside the fields they name (``services.house_ways`` stores it)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import (
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from trainer.engine.house_way import editing
from trainer.engine.house_way import kinds as engine_kinds
from trainer.web.manager.ways.forms import (
    ALTERNATIVES,
    RuleForm,
    add_error,
    block_fields,
    build_rule_form,
    condition_from,
    fill_rule_form,
    rule_field_for,
)
from trainer.web.platform.access import role_required
from trainer.web.words.engine_words import message_words
from trainer.web.words.house_way_words import (
    condition_words,
    editable_fields,
    kind_choices,
    kind_info,
    pool_choices,
    rule_kind,
    split_rule_path,
)

from .blueprint import MANAGERS, bp
from .drafts import (
    draft_data,
    draft_or_404,
    errors_by_path,
    is_stale,
    placed,
    rule_or_404,
    save_draft,
    stamp,
)


def _positions(data: Mapping[str, Any], s: int, editing_index: int | None) -> list[tuple[str, str]]:
    rules = list(data["sections"][s].get("rules") or [])
    if editing_index is not None:
        return [(str(editing_index), _("Where it is"))]
    out = [("0", _("First in the section"))]
    for i, rule in enumerate(rules):
        out.append((str(i + 1), _("After rule %(number)s (%(short)s)",
                                  number=rule.get("number", i + 1), short=rule.get("short", ""))))
    return out


def _rule_page(row: Any, s: int, r: int | None) -> str | Response:
    """The rule form of section ``s``: rule ``r`` edited, or a new rule (``r`` None)."""
    data = draft_data(row)
    try:
        section = data["sections"][s]
    except (KeyError, IndexError, TypeError):
        abort(404)
    existing = rule_or_404(data, s, r) if r is not None else None
    fields = editable_fields()
    form = build_rule_form(kind_choices(), pool_choices(), _positions(data, s, r), fields,
                           editing.pair_group_choices(data),
                           request.form if request.method == "POST" else None)
    if request.method == "GET":
        _fill(form, section, s, existing, fields)
    page = _RulePage(row, data, section, s, r, existing, form, fields)
    if request.method == "POST":
        saved = _post(page)
        if saved is not None:
            return saved
    return _render(page)


class _RulePage:
    """What the rule page works on: the draft, the section, the rule edited (or None for a
    new one), the form, and the problems to show above the form and in each condition
    block (``when``, ``any``, ``not``)."""

    def __init__(self, row: Any, data: dict[str, Any], section: Mapping[str, Any], s: int,
                 r: int | None, existing: Mapping[str, Any] | None, form: RuleForm,
                 fields: Sequence[Any]) -> None:
        self.row, self.data, self.section, self.s, self.r = row, data, section, s, r
        self.existing, self.form, self.fields = existing, form, fields
        self.top: list[str] = []
        self.blocks: dict[str, list[str]] = {"when": [], "any": [], "not": []}


def _fill(form: RuleForm, section: Mapping[str, Any], s: int,
          existing: Mapping[str, Any] | None, fields: Sequence[Any]) -> None:
    """Fill a GET's form: the rule as it is, or a new rule's place (``?at=``) and number."""
    if existing is not None:
        fill_rule_form(form, existing, rule_kind(existing), fields)
        return
    count = len(section.get("rules") or [])
    at = request.args.get("at", "")
    form.position.data = at if at.isdigit() and int(at) <= count else str(count)
    form.number.data = f"{section.get('number', s + 1)}.{count + 1}"


def _post(page: _RulePage) -> Response | None:
    """Read, check and save the posted rule: the redirect when saved, None to show the form
    again with its problems."""
    form = page.form
    valid = form.validate_on_submit()
    if not form.is_submitted():
        abort(400)
    kind = form.kind.data or ""
    valid = _kind_and_pool_ok(form, kind) and valid
    if is_stale(page.data):
        page.top.append(_("The draft changed since this page was opened; look at it again "
                          "before saving."))
        valid = False
    if not valid:
        return None
    rule = _rule_from_form(page, kind)
    target, new, errors = _store(page, rule)
    if not errors:
        flash(_("Rule %(number)s saved.", number=rule["number"]), "success")
        return redirect(url_for("manager_ways.edit_way", way_id=page.row.id)
                        + f"#section-{page.s}")
    _place_errors(page, errors, target, new)
    return None


def _kind_and_pool_ok(form: RuleForm, kind: str) -> bool:
    """Check the rule's kind (one from the list) and its pool (only on a kind that takes one)."""
    kinds = kind_info()
    if kind not in kinds:
        add_error(form, "kind", _("Choose what the rule does from the list."))
        return False
    takes_pool = getattr(kinds[kind], "takes_pool", False)
    if not takes_pool and form.pool.data:
        add_error(form, "pool", _("Only a straight-or-flush rule chooses from settings; "
                                  "leave this empty for this kind."))
        return False
    if takes_pool and form.pool.data and form.pool.data not in engine_kinds.POOLS:
        add_error(form, "pool", _("Choose the settings from the list."))
        return False
    return True


def _rule_from_form(page: _RulePage, kind: str) -> dict[str, Any]:
    """Return the rule the form describes: an edited rule of the same kind keeps its id (a
    new kind gets a new one) and its resolved and decided lines."""
    form, existing = page.form, page.existing
    when = condition_from(form, page.fields)
    rule: dict[str, Any] = {"number": (form.number.data or "").strip()}
    same_kind = existing is not None and rule_kind(existing) == kind
    rule["id"] = str(existing["id"]) if same_kind and existing else \
        editing.new_rule_id(page.data, kind)
    rule["short"] = (form.short.data or "").strip()
    rule["text"] = (form.text.data or "").strip()
    if existing is not None:
        for note in ("resolved", "decided"):
            if existing.get(note):
                rule[note] = existing[note]
    if when:
        rule["when"] = when
    if form.pool.data:
        rule["pool"] = form.pool.data
    rule["explain"] = (form.explain.data or "").strip()
    return rule


def _store(page: _RulePage, rule: dict[str, Any]
           ) -> tuple[int | None, dict[str, Any], list[tuple[str, str]]]:
    """Insert or replace the rule and save the draft; return the rule's place, the draft as
    it would be (as it was, when the change itself is refused) and the problems ([]: saved)."""
    position, target = page.form.position.data, page.r
    try:
        if target is None:
            target = int(position) if str(position).isdigit() else \
                len(page.section.get("rules") or [])
            new = editing.insert_rule(page.data, page.s, target, rule)
        else:
            new = editing.replace_rule(page.data, page.s, target, rule)
    except editing.EditError as error:
        return target, page.data, errors_by_path(error.errors)
    except (ValueError, IndexError) as error:
        return target, page.data, [("", message_words(error))]
    return target, new, save_draft(page.row, new)


def _place_errors(page: _RulePage, errors: list[tuple[str, str]], target: int | None,
                  new: Mapping[str, Any]) -> None:
    """Show each problem beside the field it names; a condition's in its block; the rest
    (another rule's, the way's) above the form, with the words of where it is."""
    form = page.form
    for path, message in errors:
        place = split_rule_path(path)
        name = rule_field_for(place[2]) if place and place[:2] == (page.s, target) else None
        if name == "when-shapes" and not form["when-shapes"].data:
            name = "kind"  # the kind cannot set the shapes the rule reaches
        if name in ("when-any", "when-not", "when-when"):
            page.blocks["any" if name == "when-any" else "not" if name == "when-not"
                        else "when"].append(message)
        elif name is None or not add_error(form, name, message):
            if place and place[:2] == (page.s, target) and place[2].startswith("when"):
                page.blocks["when"].append(message)
            else:
                page.top.append(placed(path, message, new))


def _render(page: _RulePage) -> str:
    """Draw the rule form with its problems and the condition blocks (open when filled)."""
    form, fields, section = page.form, page.fields, page.section
    any_fields = [block_fields(form, f"any-{i}", fields) for i in range(ALTERNATIVES)]
    not_fields = block_fields(form, "not", fields)
    return render_template(
        "manager/ways/rule_form.html", way=page.row, form=form, section=section, s=page.s,
        r=page.r, existing=page.existing, stamp=stamp(page.data), top_errors=page.top,
        blocks=page.blocks, when_fields=block_fields(form, "when", fields),
        any_fields=any_fields, not_fields=not_fields,
        any_open=any(f.data for block in any_fields for f in block),
        not_open=any(f.data for f in not_fields),
        pool_kinds=[k.name for k in editing.RULE_KIND_INFO if getattr(k, "takes_pool", False)],
        section_condition=condition_words(section.get("when")))


@bp.route("/<id:way_id>/sections/<id:section>/rules/new", methods=["GET", "POST"])
@role_required(*MANAGERS)
def new_rule(way_id: int, section: int) -> str | Response:
    """Add a rule to a section: its kind, pool, condition, number and words."""
    return _rule_page(draft_or_404(way_id), section - 1, None)


@bp.route("/<id:way_id>/sections/<id:section>/rules/<id:rule>/edit", methods=["GET", "POST"])
@role_required(*MANAGERS)
def edit_rule(way_id: int, section: int, rule: int) -> str | Response:
    """Change a rule: every field checked where it is entered, the draft unchanged on error."""
    return _rule_page(draft_or_404(way_id), section - 1, rule - 1)
