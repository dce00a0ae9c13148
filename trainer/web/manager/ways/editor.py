"""The editor page: the way's words and rank groups, moving and deleting rules, repairing
explanations, and the export; ``render_editor`` draws it with its errors."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import (
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from trainer.engine.house_way import editing
from trainer.extensions import db
from trainer.models import User
from trainer.services import house_ways as catalogue
from trainer.web.manager.ways.forms import (
    RANK_GROUPS,
    DetailsForm,
    PublishForm,
    add_error,
    details_field_for,
)
from trainer.web.platform.access import role_required
from trainer.web.words.engine_words import message_words
from trainer.web.words.house_way_words import (
    condition_words,
    sections_in_words,
)

from .blueprint import MANAGERS, bp
from .drafts import (
    base_title,
    draft_data,
    draft_or_404,
    errors_by_path,
    is_stale,
    placed,
    publish_refusal,
    repair_list,
    rule_or_404,
    save_draft,
    stamp,
)
from .job_views import check_summary


def details_form(data: Mapping[str, Any], formdata: Any = None) -> DetailsForm:
    form = DetailsForm(formdata=formdata) if formdata is not None else DetailsForm()
    if formdata is None:
        form.title.data = data.get("title", "")
        form.casino.data = data.get("casino", "")
        form.thresholds.data = data.get("thresholds", "")
        groups = data.get("rank_groups") or {}
        for group in RANK_GROUPS:
            form[group].data = groups.get(group, "")
    return form


def render_editor(row: Any, details: DetailsForm | None = None,
                   top_errors: Sequence[str] = (), group_errors: Sequence[str] = (),
                   publish: PublishForm | None = None) -> str:
    data = draft_data(row)
    check = check_summary(data)
    versions = versions_of(row)
    return render_template(
        "manager/ways/editor.html", way=row, data=data, sections=sections_in_words(data),
        details=details or details_form(data), publish=publish or PublishForm(),
        stamp=stamp(data), check=check, refusal=publish_refusal(row), versions=versions,
        top_errors=list(top_errors), group_errors=list(group_errors), repairs=repair_list(data),
        base_title=base_title(str(row.base_ref))
        if getattr(row, "base_ref", None) else None)


def versions_of(row: Any) -> list[dict[str, Any]]:
    rows = list(catalogue.versions(row.id))
    ids = {v.published_by_id for v in rows if getattr(v, "published_by_id", None)}
    names = dict(db.session.execute(db.select(User.id, User.name).where(User.id.in_(ids))).all()
                 ) if ids else {}
    newest = max((int(v.number) for v in rows), default=0)
    return [{"number": v.number, "ref": v.ref, "note": v.note, "at": v.published_at,
             "by": names.get(v.published_by_id, "—"), "superseded": int(v.number) < newest}
            for v in sorted(rows, key=lambda v: -int(v.number))]


@bp.route("/<id:way_id>")
@role_required(*MANAGERS)
def edit_way(way_id: int) -> str:
    """The editor: the way's words and rank groups, each section's rules, proof and publishing."""
    return render_editor(draft_or_404(way_id))


@bp.route("/<id:way_id>/details", methods=["POST"])
@role_required(*MANAGERS)
def save_details(way_id: int) -> str | Response:
    """Save the casino's name, the title, the thresholds sentence and the rank groups."""
    row = draft_or_404(way_id)
    data = draft_data(row)
    form = details_form(data, request.form)
    if not form.validate_on_submit():
        return render_editor(row, form)
    if is_stale(data):
        return render_editor(row, form, [_("The draft changed since this page was opened; "
                                            "look at it again before saving.")])
    new = editing.set_field(data, "title", (form.title.data or "").strip())
    new = editing.set_field(new, "casino", (form.casino.data or "").strip())
    new = editing.set_field(new, "thresholds", (form.thresholds.data or "").strip())
    groups = {g: form[g].data.strip() for g in RANK_GROUPS if (form[g].data or "").strip()}
    try:
        new = editing.set_rank_groups(new, groups)
    except editing.EditError as error:
        errors = errors_by_path(error.errors)
    except ValueError as error:
        errors = [("rank_groups", str(error))]
    else:
        errors = save_draft(row, new)
    if errors:
        top, groups_wrong = [], []
        for path, message in errors:
            name = details_field_for(path)
            if name == "rank_groups":
                groups_wrong.append(message)
            elif name is None or not add_error(form, name, message):
                top.append(placed(path, message, new))
        return render_editor(row, form, top, groups_wrong)
    flash(_("Saved."), "success")
    return redirect(url_for("manager_ways.edit_way", way_id=way_id))


def operate(row: Any, operation: Any, done: str) -> Response:
    """Apply a draft operation (move, delete); refuse it, unchanged, with the engine's words."""
    data = draft_data(row)
    form = FlaskForm()
    if not form.validate_on_submit():
        abort(400)
    if is_stale(data):
        flash(_("The draft changed since this page was opened; nothing was changed."), "error")
        return redirect(url_for("manager_ways.edit_way", way_id=row.id))
    try:
        new = operation(data)
    except editing.EditError as error:
        errors = errors_by_path(error.errors)
    except (ValueError, IndexError, KeyError, TypeError) as error:
        errors = [("", message_words(error))]
    else:
        errors = save_draft(row, new)
    if errors:
        flash(_("Not changed: %(why)s", why=" ".join(message for _p, message in errors)), "error")
    else:
        flash(done, "success")
    return redirect(url_for("manager_ways.edit_way", way_id=row.id) + "#rules")


@bp.route("/<id:way_id>/sections/<id:section>/rules/<id:rule>/move", methods=["POST"])
@role_required(*MANAGERS)
def move_rule(way_id: int, section: int, rule: int) -> Response:
    """Move a rule one place up (``delta=-1``) or down (``delta=1``) in its section."""
    s, r = section - 1, rule - 1  # the route counts from 1, the draft from 0
    row = draft_or_404(way_id)
    rule_or_404(draft_data(row), s, r)
    delta = -1 if request.form.get("delta") == "-1" else 1
    return operate(row, lambda d: editing.move_rule(d, s, r, delta),
                    _("Rule moved up.") if delta < 0 else _("Rule moved down."))


@bp.route("/<id:way_id>/sections/<id:section>/rules/<id:rule>/delete", methods=["GET", "POST"])
@role_required(*MANAGERS)
def delete_rule(way_id: int, section: int, rule: int) -> str | Response:
    """Ask, then delete a rule (a GET shows the question; the POST deletes)."""
    s, r = section - 1, rule - 1
    row = draft_or_404(way_id)
    data = draft_data(row)
    found = rule_or_404(data, s, r)
    if request.method == "POST":
        return operate(row, lambda d: editing.delete_rule(d, s, r),
                        _("Rule %(number)s deleted.", number=found.get("number", "")))
    return render_template("manager/ways/delete_rule.html", way=row, rule=found, s=s, r=r,
                           stamp=stamp(data), form=FlaskForm(),
                           condition=condition_words(found.get("when")))


@bp.route("/<id:way_id>/repair-explanations", methods=["POST"])
@role_required(*MANAGERS)
def repair_explanations(way_id: int) -> Response:
    """Replace each explanation of the draft that cannot be used by the generated sentence
    (what trainees are shown instead), for the manager to reword (issue 24)."""
    row = draft_or_404(way_id)
    count = len(editing.explanation_problems(draft_data(row)))
    return operate(row, editing.repair_explanations,
                    ngettext("%(num)s explanation replaced by the generated sentence: reword it "
                             "in its rule if you wish, then check and publish.",
                             "%(num)s explanations replaced by the generated sentence: reword "
                             "them in their rules if you wish, then check and publish.", count))


@bp.route("/<id:way_id>/export")
@role_required(*MANAGERS)
def export_way(way_id: int) -> Response:
    """Download the draft as a house-way file in the presets' format, named after its short name."""
    row = draft_or_404(way_id)
    text = editing.to_toml(draft_data(row))
    response: Response = current_app.response_class(text, mimetype="application/toml")
    response.headers["Content-Disposition"] = f'attachment; filename="{row.slug}.toml"'
    return response
