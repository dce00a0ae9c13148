"""A new draft: copied from a preset or a published version, or imported from a file."""
from __future__ import annotations

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
from flask_login import current_user
from werkzeug.wrappers import Response

from trainer.engine.house_way import editing
from trainer.extensions import db
from trainer.services import house_ways as catalogue
from trainer.web.manager.ways.forms import (
    CopyForm,
    ImportForm,
    add_error,
)
from trainer.web.platform.access import role_required
from trainer.web.words.engine_words import message_words

from .blueprint import MANAGERS, MAX_UPLOAD_BYTES, bp
from .drafts import base_title, errors_by_path, placed


def _create(form: Any, slug: str, casino: str, base_ref: str | None,
            data: dict[str, Any] | None) -> Any:
    """Create the draft; return its row, or None after putting the refusal beside the name."""
    try:
        # A copy for another casino is titled in the manager's language (docs/languages.md).
        return catalogue.create_draft(slug, casino, base_ref=base_ref, data=data,
                                      user_id=current_user.id,
                                      title=_("%(casino)s house way", casino=(casino or "").strip()))
    except editing.EditError as error:
        db.session.rollback()
        for path, message in errors_by_path(error.errors):
            target = {"name": "slug", "casino": "casino"}.get(path, "slug")
            add_error(form, target, message)
    except ValueError as error:
        db.session.rollback()
        add_error(form, "slug", message_words(error))
    return None


@bp.route("/copy", methods=["GET", "POST"])
@role_required(*MANAGERS)
def copy_way() -> str | Response:
    """Copy and edit: a new draft from a preset or a published version (``?from=<ref>``)."""
    base = (request.args.get("from") or request.form.get("from") or "").strip()[:64]
    title = base_title(base) if base else None
    if title is None:
        abort(404)
    form = CopyForm()
    if form.validate_on_submit():
        row = _create(form, (form.slug.data or "").strip(), (form.casino.data or "").strip(), base, None)
        if row is not None:
            flash(_("Draft %(name)s made from %(base)s. Change it, check it, then publish it.",
                    name=row.slug, base=title), "success")
            return redirect(url_for("manager_ways.edit_way", way_id=row.id))
    return render_template("manager/ways/copy.html", form=form, base=base, base_title=title)


@bp.route("/import", methods=["GET", "POST"])
@role_required(*MANAGERS)
def import_way() -> str | Response:
    """Start a draft from a house-way file: TOML errors with their line, rule errors listed."""
    form = ImportForm()
    problems: list[str] = []
    if form.validate_on_submit():
        upload = form.file.data
        raw = upload.read(MAX_UPLOAD_BYTES + 1)
        if len(raw) > MAX_UPLOAD_BYTES:
            add_error(form, "file", _("A house-way file is at most %(kb)s KB.",
                                      kb=MAX_UPLOAD_BYTES // 1024))
        elif not raw.strip():
            add_error(form, "file", _("This file is empty: choose a house-way file."))
        else:
            try:
                data = editing.from_toml(raw.decode("utf-8"))
            except UnicodeDecodeError:
                add_error(form, "file", _("This file is not text (UTF-8)."))
                data = None
            except editing.EditError as error:
                for _path, message in errors_by_path(error.errors):
                    add_error(form, "file", message)
                data = None
            if data is not None:
                slug = (form.slug.data or "").strip() or str(data.get("name") or "")
                casino = (form.casino.data or "").strip() or str(data.get("casino") or "")
                data = dict(data, name=slug, casino=casino)
                problems = [placed(path, message, data)
                            for path, message in errors_by_path(editing.validate(data))]
                if not problems:
                    row = _create(form, slug, casino, None, data)
                    if row is not None:
                        flash(_("Draft %(name)s imported. Check it, then publish it.",
                                name=row.slug), "success")
                        return redirect(url_for("manager_ways.edit_way", way_id=row.id))
    return render_template("manager/ways/import.html", form=form, problems=problems)
