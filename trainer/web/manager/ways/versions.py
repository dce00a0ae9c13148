"""Publishing a draft as a version, a version's page, and rolling a version out to groups."""
from __future__ import annotations

from flask import (
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import current_user
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from trainer.extensions import db
from trainer.models import Group
from trainer.models.types import ID_MAX, bounded_int
from trainer.services import house_ways as catalogue
from trainer.services import way_rollouts
from trainer.web.manager.ways.forms import (
    PublishForm,
    add_error,
)
from trainer.web.platform import languages, pdf_jobs
from trainer.web.platform.access import role_required
from trainer.web.words.engine_words import message_words
from trainer.web.words.house_way_words import (
    sections_in_words,
)

from .blueprint import MANAGERS, bp
from .drafts import draft_data, draft_or_404, is_stale, publish_refusal, repair_list
from .editor import render_editor, versions_of


@bp.route("/<id:way_id>/publish", methods=["POST"])
@role_required(*MANAGERS)
def publish_way(way_id: int) -> str | Response:
    """Publish the draft as the next version: refused, with the reason, unless its check is clean."""
    row = draft_or_404(way_id)
    form = PublishForm()
    if not form.validate_on_submit():
        if not form.is_submitted():
            abort(400)
        return render_editor(row, publish=form)
    if is_stale(draft_data(row)):
        add_error(form, "note", _("The draft changed since this page was opened; look at it "
                                  "again before publishing."))
        return render_editor(row, publish=form)
    refusal = publish_refusal(row)
    if refusal is not None:
        add_error(form, "note", refusal)
        return render_editor(row, publish=form)
    try:
        version = catalogue.publish(way_id, (form.note.data or "").strip(), current_user.id)
    except catalogue.PublishRefused as refused:
        db.session.rollback()
        add_error(form, "note", message_words(getattr(refused, "reason", refused)))
        return render_editor(row, publish=form)
    number = getattr(version, "number", None)
    if number:  # its printed sheets, made now by a worker in the groups' languages (issue 25)
        pdf_jobs.prepare_way(f"{row.slug}@{number}", row.slug)
    flash(_("Published as version %(n)s. Supervisors may now choose it for their groups.",
            n=number) if number else _("Published."), "success")
    return redirect(url_for("manager_ways.edit_way", way_id=way_id) + "#versions")


@bp.route("/<id:way_id>/versions/<id:number>")
@role_required(*MANAGERS)
def show_version(way_id: int, number: int) -> str:
    """A published version, read-only, as its sheet reads (superseded versions stay readable)."""
    row = draft_or_404(way_id)
    versions = versions_of(row)
    found = next((v for v in catalogue.versions(row.id) if int(v.number) == number), None)
    if found is None:
        abort(404)
    data = dict(found.data or {})
    newest = max(int(v["number"]) for v in versions)
    return render_template("manager/ways/version.html", way=row, version=found, data=data,
                           sections=sections_in_words(data, languages.language()),
                           lang=languages.language(), superseded=number < newest,
                           repairs=repair_list(data),
                           by=next((v["by"] for v in versions if v["number"] == number), "—"),
                           groups=way_rollouts.groups(row.id))


# --- rolling a version out to groups (issue 27) -----------------------------------------------


@bp.route("/<id:way_id>/versions/<id:number>/roll-out", methods=["POST"])
@role_required(*MANAGERS)
def roll_out(way_id: int, number: int) -> str | Response:
    """Put a published version on chosen groups, or on every group on an older version.

    Two steps: the form's choice is listed for confirmation (the groups by name, from
    which house way to this version); the confirmation names the groups it lists, so a
    group that moved in between is never changed unseen. Services: ``way_rollouts``.
    """
    row = draft_or_404(way_id)
    try:
        version = way_rollouts.get_version(row.id, number)
    except catalogue.WayError:
        abort(404)
    if not FlaskForm().validate_on_submit():
        abort(400)
    back = url_for("manager_ways.show_version", way_id=row.id, number=number) + "#roll-out"
    target = request.form.get("target", "")
    ids = [bounded_int(value, 1, ID_MAX) for value in request.form.getlist("group")]
    try:
        if target == "older":
            chosen = way_rollouts.older_groups(row.id, number)
        elif target == "chosen" and None not in ids:
            chosen = way_rollouts.chosen_groups(row.id, [i for i in ids if i is not None])
        else:
            abort(400)
    except catalogue.WayError as error:
        flash(message_words(error), "error")
        return redirect(back)
    chosen = [g for g in chosen if g.house_way != version.ref]
    if not chosen:
        flash(_("No group to change: choose groups that are not on this version yet.")
              if target == "chosen" else
              _("No group is on an older version of this house way."), "error")
        return redirect(back)
    if request.form.get("confirm") != "yes":
        return render_template("manager/ways/rollout.html", way=row, version=version,
                               data=dict(version.data or {}), groups=chosen)
    try:
        changed = way_rollouts.roll_out(row.id, number, [g.id for g in chosen], current_user.id)
    except catalogue.WayError as error:
        db.session.rollback()
        flash(message_words(error), "error")
        return redirect(back)
    for group_id in changed:  # their printed sheets, made by a job worker (issue 25)
        group = db.session.get(Group, group_id)
        if group is not None:
            pdf_jobs.prepare_group(group)
    flash(ngettext("Version %(n)s is now the house way of %(num)d group.",
                   "Version %(n)s is now the house way of %(num)d groups.",
                   len(changed), n=number), "success")
    return redirect(back)
