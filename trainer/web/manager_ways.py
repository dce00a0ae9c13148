"""The manager's house-way editor (issue 18, items 3 to 6): copy, import, edit, prove, publish.

A draft is a custom house way's data dict (``services.house_ways`` stores it; it is
saved only when the engine's ``editing.validate`` finds nothing wrong). Every change
is an engine draft operation (``editing.move_rule``, ``insert_rule``...) on a copy;
errors come back as ``FieldError`` paths, shown beside the field they name, and the
stored draft is left as it was. The check, what it changes and the edge change are
background jobs (``services.jobs``, kinds in ``services.house_way_jobs``): their pages
show the latest job for exactly this draft's rules, with a progress bar that polls
``job_state`` (``static/js/job.js``) and, without script, a Refresh link.

Only managers and admins reach these pages (403 for everyone else, as the manager's
other pages). A draft that does not exist answers 404.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    jsonify,
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

from trainer.engine import toml_limits
from trainer.engine.house_way import editing, explanations
from trainer.engine.house_way import kinds as engine_kinds
from trainer.engine.house_way.interpreter import rules_digest
from trainer.engine.profiles import DEFAULT_PROFILE, profile_names
from trainer.extensions import db
from trainer.models import Group, Role, User
from trainer.models.types import ID_MAX, bounded_int
from trainer.services import house_way_jobs, jobs, way_rollouts
from trainer.services import house_ways as catalogue
from trainer.services import profiles as profile_service
from trainer.web import languages, pdf_jobs
from trainer.web.access import role_required
from trainer.web.engine_words import say
from trainer.web.house_way_forms import (
    ALTERNATIVES,
    DEALS_DEFAULT,
    DEALS_MAX,
    DEALS_MIN,
    RANK_GROUPS,
    CopyForm,
    DetailsForm,
    DiffForm,
    EdgeForm,
    ImportForm,
    PublishForm,
    add_error,
    block_fields,
    build_rule_form,
    condition_from,
    deals_value,
    details_field_for,
    fill_rule_form,
    rule_field_for,
    split_rule_path,
)
from trainer.web.house_way_words import (
    check_words,
    condition_words,
    diff_words,
    edge_words,
    editable_fields,
    kind_choices,
    kind_info,
    path_words,
    pool_choices,
    rule_kind,
    sections_in_words,
)
from trainer.web.languages import number
from trainer.web.names import profile_name
from trainer.web.reference import way_label

bp = Blueprint("manager_ways", __name__, url_prefix="/manager/house-ways")
MANAGERS = (Role.MANAGER, Role.ADMIN)
SEED = house_way_jobs.DEFAULT_SEED  # the same deals every time, so results compare
MAX_UPLOAD_BYTES = toml_limits.MAX_BYTES  # the engine's limit on a house-way file


# --- the draft and its words -----------------------------------------------------------------


def _draft(way_id: int) -> Any:
    """Return the custom way ``way_id`` (its draft), or 404."""
    try:
        row = catalogue.get_draft(way_id)
    except (LookupError, ValueError):
        abort(404)
    if row is None:
        abort(404)
    return row


def _data(row: Any) -> dict[str, Any]:
    return dict(row.draft or {})


def _stamp(data: Mapping[str, Any]) -> str:
    """Return a short fingerprint of a draft: a form made from an older draft is refused."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _stale(data: Mapping[str, Any]) -> bool:
    sent = request.form.get("stamp")
    return bool(sent) and sent != _stamp(data)


class _Placed(str):
    """A problem's words that already say where it is ("Rule 3.2, explanation in Spanish:
    ..."): shown without the path's words in front."""

    __slots__ = ()


def _errors_by_path(errors: Sequence[Any]) -> list[tuple[str, str]]:
    # The engine's problem in the manager's language (FieldError.sentence, web/engine_words.py).
    out: list[tuple[str, str]] = []
    for e in errors:
        said = getattr(e, "sentence", getattr(e, "message", e))
        words = say(said)
        if getattr(said, "template", None) == explanations.NAMED:
            words = _Placed(words)
        out.append((str(getattr(e, "path", "") or ""), words))
    return out


def _placed(path: str, message: str, data: Mapping[str, Any]) -> str:
    """Return a problem with the words of where it is in front (unless it says so itself)."""
    if not path or isinstance(message, _Placed):
        return message
    return f"{path_words(path, data)}: {message}"


def repair_list(data: Mapping[str, Any]) -> list[str]:
    """Return, in the manager's language, each explanation of a stored draft or version
    that cannot be used (issue 24): which rule, which language, why."""
    return [say(e.sentence) for e in editing.explanation_problems(data)]


def _save(row: Any, data: dict[str, Any]) -> list[tuple[str, str]]:
    """Validate and store the draft; return the engine's errors (nothing stored) or []."""
    errors = _errors_by_path(editing.validate(data))
    if errors:
        return errors
    try:
        catalogue.save_draft(row.id, data, current_user.id)
    except editing.EditError as error:
        db.session.rollback()
        return _errors_by_path(error.errors)
    return []


# --- jobs: the check, what it changes, the edge ----------------------------------------------


def _runner() -> jobs.Runner:
    runner: jobs.Runner = current_app.extensions[jobs.EXTENSION]
    return runner


def _start_job(start: Callable[[], Any]) -> None:
    """Queue a job for a worker; a person's limit reached is said on the page (issue 25)."""
    try:
        start()
    except jobs.JobRefused as refused:
        flash(say(refused.message), "error")


def check_key(data: Mapping[str, Any]) -> str:
    return house_way_jobs.check_key(rules_digest(data))


def diff_key(data: Mapping[str, Any], reference: str) -> str:
    return house_way_jobs.diff_key(rules_digest(data), reference)


def edge_key(data: Mapping[str, Any], reference: str, profile: str, hands: int) -> str:
    return house_way_jobs.simulate_key(rules_digest(data), reference, reference, profile, hands,
                                       SEED)


def _job_view(job: Any) -> dict[str, Any] | None:
    """Return what a page shows of a job: status, percent, message, result, error."""
    if job is None:
        return None
    state = jobs.state(job, _runner().stale_seconds)
    error = state.error or ""
    if state.stale or error == jobs.WORKER_STOPPED:
        error = _("The worker stopped before it finished.")
    elif state.said is not None:  # a kind's refusal, in the reader's language
        error = say(state.said)
    return {"id": job.id, "status": state.status, "percent": int(state.progress * 100),
            "message": stage_words(state.message or ""), "result": state.result, "error": error,
            "done": not state.active}


def stage_words(message: str) -> str:
    """Say a running job's stage (``house_way_jobs.STAGE_*``, stored as a bare name) in words."""
    words = {house_way_jobs.STAGE_CHECKING: _("Setting every hand by the draft"),
             house_way_jobs.STAGE_TABLES: _("Preparing the tables of every hand"),
             house_way_jobs.STAGE_COMPARING: _("Comparing the two ways"),
             house_way_jobs.STAGE_DEALING: _("Dealing the hands")}
    return words.get(message, message)


def check_summary(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """Return the latest check of exactly this draft's rules (a job view), or None."""
    return _job_view(jobs.latest(check_key(data)))


def publish_refusal(row: Any) -> str | None:
    """Return why the draft cannot be published yet (the service's words, said in the
    reader's language), or None."""
    refusal = catalogue.publish_refusal(row)
    if refusal is not None:
        return say(refusal)
    newest = max(catalogue.versions(row.id), key=lambda v: int(v.number), default=None)
    if newest is not None and dict(newest.data or {}) == _data(row):
        return _("This draft is version %(n)s as published: change it before publishing again.",
                 n=newest.number)
    return None


def _references(row: Any) -> list[tuple[str, str]]:
    """Return every way a draft may be compared with: the base first, then the rest on offer."""
    choices = []
    for choice in catalogue.choices():
        choices.append((str(choice.ref), way_label(choice)))
    base = str(getattr(row, "base_ref", "") or "")
    choices.sort(key=lambda c: c[0] != base)
    return choices


def _profiles() -> list[tuple[str, str]]:
    names = list(profile_names())
    names += [n for n in profile_service.offered_names() if n not in names]
    return [(n, profile_name(n)) for n in names]


# --- the list: copy, import -----------------------------------------------------------------


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
        for path, message in _errors_by_path(error.errors):
            target = {"name": "slug", "casino": "casino"}.get(path, "slug")
            add_error(form, target, message)
    except ValueError as error:
        db.session.rollback()
        add_error(form, "slug", say(error))
    return None


def _base_title(ref: str) -> str | None:
    for choice in catalogue.choices():
        if str(choice.ref) == ref:
            return way_label(choice)
    return None


@bp.route("/copy", methods=["GET", "POST"])
@role_required(*MANAGERS)
def copy_way() -> str | Response:
    """Copy and edit: a new draft from a preset or a published version (``?from=<ref>``)."""
    base = (request.args.get("from") or request.form.get("from") or "").strip()[:64]
    title = _base_title(base) if base else None
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
                for _path, message in _errors_by_path(error.errors):
                    add_error(form, "file", message)
                data = None
            if data is not None:
                slug = (form.slug.data or "").strip() or str(data.get("name") or "")
                casino = (form.casino.data or "").strip() or str(data.get("casino") or "")
                data = dict(data, name=slug, casino=casino)
                problems = [_placed(path, message, data)
                            for path, message in _errors_by_path(editing.validate(data))]
                if not problems:
                    row = _create(form, slug, casino, None, data)
                    if row is not None:
                        flash(_("Draft %(name)s imported. Check it, then publish it.",
                                name=row.slug), "success")
                        return redirect(url_for("manager_ways.edit_way", way_id=row.id))
    return render_template("manager/ways/import.html", form=form, problems=problems)


# --- the editor -------------------------------------------------------------------------------


def _details_form(data: Mapping[str, Any], formdata: Any = None) -> DetailsForm:
    form = DetailsForm(formdata=formdata) if formdata is not None else DetailsForm()
    if formdata is None:
        form.title.data = data.get("title", "")
        form.casino.data = data.get("casino", "")
        form.thresholds.data = data.get("thresholds", "")
        groups = data.get("rank_groups") or {}
        for group in RANK_GROUPS:
            form[group].data = groups.get(group, "")
    return form


def _render_editor(row: Any, details: DetailsForm | None = None,
                   top_errors: Sequence[str] = (), group_errors: Sequence[str] = (),
                   publish: PublishForm | None = None) -> str:
    data = _data(row)
    check = check_summary(data)
    versions = _versions(row)
    return render_template(
        "manager/ways/editor.html", way=row, data=data, sections=sections_in_words(data),
        details=details or _details_form(data), publish=publish or PublishForm(),
        stamp=_stamp(data), check=check, refusal=publish_refusal(row), versions=versions,
        top_errors=list(top_errors), group_errors=list(group_errors), repairs=repair_list(data),
        base_title=_base_title(str(row.base_ref))
        if getattr(row, "base_ref", None) else None)


def _versions(row: Any) -> list[dict[str, Any]]:
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
    return _render_editor(_draft(way_id))


@bp.route("/<id:way_id>/details", methods=["POST"])
@role_required(*MANAGERS)
def save_details(way_id: int) -> str | Response:
    """Save the casino's name, the title, the thresholds sentence and the rank groups."""
    row = _draft(way_id)
    data = _data(row)
    form = _details_form(data, request.form)
    if not form.validate_on_submit():
        return _render_editor(row, form)
    if _stale(data):
        return _render_editor(row, form, [_("The draft changed since this page was opened; "
                                            "look at it again before saving.")])
    new = editing.set_field(data, "title", (form.title.data or "").strip())
    new = editing.set_field(new, "casino", (form.casino.data or "").strip())
    new = editing.set_field(new, "thresholds", (form.thresholds.data or "").strip())
    groups = {g: form[g].data.strip() for g in RANK_GROUPS if (form[g].data or "").strip()}
    try:
        new = editing.set_rank_groups(new, groups)
    except editing.EditError as error:
        errors = _errors_by_path(error.errors)
    except ValueError as error:
        errors = [("rank_groups", str(error))]
    else:
        errors = _save(row, new)
    if errors:
        top, groups_wrong = [], []
        for path, message in errors:
            name = details_field_for(path)
            if name == "rank_groups":
                groups_wrong.append(message)
            elif name is None or not add_error(form, name, message):
                top.append(_placed(path, message, new))
        return _render_editor(row, form, top, groups_wrong)
    flash(_("Saved."), "success")
    return redirect(url_for("manager_ways.edit_way", way_id=way_id))


def _operate(row: Any, operation: Any, done: str) -> Response:
    """Apply a draft operation (move, delete); refuse it, unchanged, with the engine's words."""
    data = _data(row)
    form = FlaskForm()
    if not form.validate_on_submit():
        abort(400)
    if _stale(data):
        flash(_("The draft changed since this page was opened; nothing was changed."), "error")
        return redirect(url_for("manager_ways.edit_way", way_id=row.id))
    try:
        new = operation(data)
    except editing.EditError as error:
        errors = _errors_by_path(error.errors)
    except (ValueError, IndexError, KeyError, TypeError) as error:
        errors = [("", say(error))]
    else:
        errors = _save(row, new)
    if errors:
        flash(_("Not changed: %(why)s", why=" ".join(message for _p, message in errors)), "error")
    else:
        flash(done, "success")
    return redirect(url_for("manager_ways.edit_way", way_id=row.id) + "#rules")


def _rule(data: Mapping[str, Any], s: int, r: int) -> Mapping[str, Any]:
    try:
        section = data["sections"][s]
        return section["rules"][r]
    except (KeyError, IndexError, TypeError):
        abort(404)


@bp.route("/<id:way_id>/sections/<id:section>/rules/<id:rule>/move", methods=["POST"])
@role_required(*MANAGERS)
def move_rule(way_id: int, section: int, rule: int) -> Response:
    """Move a rule one place up (``delta=-1``) or down (``delta=1``) in its section."""
    s, r = section - 1, rule - 1  # the route counts from 1, the draft from 0
    row = _draft(way_id)
    _rule(_data(row), s, r)
    delta = -1 if request.form.get("delta") == "-1" else 1
    return _operate(row, lambda d: editing.move_rule(d, s, r, delta),
                    _("Rule moved up.") if delta < 0 else _("Rule moved down."))


@bp.route("/<id:way_id>/sections/<id:section>/rules/<id:rule>/delete", methods=["GET", "POST"])
@role_required(*MANAGERS)
def delete_rule(way_id: int, section: int, rule: int) -> str | Response:
    """Ask, then delete a rule (a GET shows the question; the POST deletes)."""
    s, r = section - 1, rule - 1
    row = _draft(way_id)
    data = _data(row)
    found = _rule(data, s, r)
    if request.method == "POST":
        return _operate(row, lambda d: editing.delete_rule(d, s, r),
                        _("Rule %(number)s deleted.", number=found.get("number", "")))
    return render_template("manager/ways/delete_rule.html", way=row, rule=found, s=s, r=r,
                           stamp=_stamp(data), form=FlaskForm(),
                           condition=condition_words(found.get("when")))


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
    data = _data(row)
    try:
        section = data["sections"][s]
    except (KeyError, IndexError, TypeError):
        abort(404)
    existing = _rule(data, s, r) if r is not None else None
    fields = editable_fields()
    form = build_rule_form(kind_choices(), pool_choices(), _positions(data, s, r), fields,
                           editing.pair_group_choices(data),
                           request.form if request.method == "POST" else None)
    if request.method == "GET":
        if existing is not None:
            fill_rule_form(form, existing, rule_kind(existing), fields)
        else:
            count = len(section.get("rules") or [])
            at = request.args.get("at", "")
            form.position.data = at if at.isdigit() and int(at) <= count else str(count)
            form.number.data = f"{section.get('number', s + 1)}.{count + 1}"
    top: list[str] = []
    blocks: dict[str, list[str]] = {"when": [], "any": [], "not": []}
    if request.method == "POST":
        valid = form.validate_on_submit()
        if not form.is_submitted():
            abort(400)
        kinds = kind_info()
        kind = form.kind.data or ""
        if kind not in kinds:
            add_error(form, "kind", _("Choose what the rule does from the list."))
            valid = False
        elif not getattr(kinds[kind], "takes_pool", False) and form.pool.data:
            add_error(form, "pool", _("Only a straight-or-flush rule chooses from settings; "
                                      "leave this empty for this kind."))
            valid = False
        elif getattr(kinds[kind], "takes_pool", False) and form.pool.data and \
                form.pool.data not in engine_kinds.POOLS:
            add_error(form, "pool", _("Choose the settings from the list."))
            valid = False
        if _stale(data):
            top.append(_("The draft changed since this page was opened; look at it again "
                         "before saving."))
            valid = False
        if valid:
            when = condition_from(form, fields)
            rule: dict[str, Any] = {"number": (form.number.data or "").strip()}
            same_kind = existing is not None and rule_kind(existing) == kind
            rule["id"] = str(existing["id"]) if same_kind and existing else \
                editing.new_rule_id(data, kind)
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
            try:
                if r is None:
                    pos = int(form.position.data) if str(form.position.data).isdigit() else \
                        len(section.get("rules") or [])
                    target = pos
                    new = editing.insert_rule(data, s, pos, rule)
                else:
                    target = r
                    new = editing.replace_rule(data, s, r, rule)
            except editing.EditError as error:
                errors = _errors_by_path(error.errors)
            except (ValueError, IndexError) as error:
                errors = [("", say(error))]
            else:
                errors = _save(row, new)
            if not errors:
                flash(_("Rule %(number)s saved.", number=rule["number"]), "success")
                return redirect(url_for("manager_ways.edit_way", way_id=row.id) + f"#section-{s}")
            for path, message in errors:
                place = split_rule_path(path)
                name = rule_field_for(place[2]) if place and place[:2] == (s, target) else None
                if name == "when-shapes" and not form["when-shapes"].data:
                    name = "kind"  # the kind cannot set the shapes the rule reaches
                if name in ("when-any", "when-not", "when-when"):
                    blocks["any" if name == "when-any" else "not" if name == "when-not"
                           else "when"].append(message)
                elif name is None or not add_error(form, name, message):
                    if place and place[:2] == (s, target) and place[2].startswith("when"):
                        blocks["when"].append(message)
                    else:
                        top.append(_placed(path, message, new))
    any_fields = [block_fields(form, f"any-{i}", fields) for i in range(ALTERNATIVES)]
    not_fields = block_fields(form, "not", fields)
    return render_template(
        "manager/ways/rule_form.html", way=row, form=form, section=section, s=s, r=r,
        existing=existing, stamp=_stamp(data), top_errors=top, blocks=blocks,
        when_fields=block_fields(form, "when", fields),
        any_fields=any_fields, not_fields=not_fields,
        any_open=any(f.data for block in any_fields for f in block),
        not_open=any(f.data for f in not_fields),
        pool_kinds=[k.name for k in editing.RULE_KINDS if getattr(k, "takes_pool", False)],
        section_condition=condition_words(section.get("when")))


@bp.route("/<id:way_id>/sections/<id:section>/rules/new", methods=["GET", "POST"])
@role_required(*MANAGERS)
def new_rule(way_id: int, section: int) -> str | Response:
    """Add a rule to a section: its kind, pool, condition, number and words."""
    return _rule_page(_draft(way_id), section - 1, None)


@bp.route("/<id:way_id>/sections/<id:section>/rules/<id:rule>/edit", methods=["GET", "POST"])
@role_required(*MANAGERS)
def edit_rule(way_id: int, section: int, rule: int) -> str | Response:
    """Change a rule: every field checked where it is entered, the draft unchanged on error."""
    return _rule_page(_draft(way_id), section - 1, rule - 1)


@bp.route("/<id:way_id>/repair-explanations", methods=["POST"])
@role_required(*MANAGERS)
def repair_explanations(way_id: int) -> Response:
    """Replace each explanation of the draft that cannot be used by the generated sentence
    (what trainees are shown instead), for the manager to reword (issue 24)."""
    row = _draft(way_id)
    count = len(editing.explanation_problems(_data(row)))
    return _operate(row, editing.repair_explanations,
                    ngettext("%(num)s explanation replaced by the generated sentence: reword it "
                             "in its rule if you wish, then check and publish.",
                             "%(num)s explanations replaced by the generated sentence: reword "
                             "them in their rules if you wish, then check and publish.", count))


@bp.route("/<id:way_id>/export")
@role_required(*MANAGERS)
def export_way(way_id: int) -> Response:
    """Download the draft as a house-way file in the presets' format, named after its short name."""
    row = _draft(way_id)
    text = editing.to_toml(_data(row))
    response: Response = current_app.response_class(text, mimetype="application/toml")
    response.headers["Content-Disposition"] = f'attachment; filename="{row.slug}.toml"'
    return response


# --- proof: check, what it changes, edge ------------------------------------------------------


@bp.route("/<id:way_id>/check", methods=["GET", "POST"])
@role_required(*MANAGERS)
def check_way(way_id: int) -> str | Response:
    """Check every hand of the draft (a background job); the report in words."""
    row = _draft(way_id)
    data = _data(row)
    form = FlaskForm()
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        _start_job(lambda: house_way_jobs.start_check(data, current_user.id, runner=_runner()))
        return redirect(url_for("manager_ways.check_way", way_id=way_id))
    job = check_summary(data)
    return render_template("manager/ways/check.html", way=row, job=job, form=form,
                           report=check_words(job["result"], data) if job and
                           job["status"] == "done" and job["result"] else None,
                           refusal=publish_refusal(row))


@bp.route("/<id:way_id>/changes", methods=["GET", "POST"])
@role_required(*MANAGERS)
def diff_way(way_id: int) -> str | Response:
    """What it changes: the share of all hands set differently from a reference, per rule."""
    row = _draft(way_id)
    data = _data(row)
    form = DiffForm()
    form.reference.choices = _references(row)
    refs = [ref for ref, _label in form.reference.choices]
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        reference = form.reference.data
        _start_job(lambda: house_way_jobs.start_diff(data, reference, current_user.id,
                                                     runner=_runner()))
        return redirect(url_for("manager_ways.diff_way", way_id=way_id, reference=reference))
    reference = request.args.get("reference") or (refs[0] if refs else "")
    if reference not in refs:
        reference = refs[0] if refs else ""
    form.reference.data = reference
    job = _job_view(jobs.latest(diff_key(data, reference))) if reference else None
    result = diff_words(job["result"], data) if job and job["status"] == "done" and \
        job["result"] else None
    return render_template("manager/ways/diff.html", way=row, form=form, job=job,
                           result=result, reference=reference,
                           reference_title=dict(form.reference.choices).get(reference, ""))


@bp.route("/<id:way_id>/edge", methods=["GET", "POST"])
@role_required(*MANAGERS)
def edge_way(way_id: int) -> str | Response:
    """The banker's edge change: a paired simulation of the same deals under the old and new way."""
    row = _draft(way_id)
    data = _data(row)
    form = EdgeForm()
    form.profile.choices = _profiles()
    profiles = [name for name, _label in form.profile.choices]
    references = _references(row)
    reference = references[0][0] if references else ""
    if request.method == "POST":
        valid = form.validate_on_submit()
        if not form.is_submitted():
            abort(400)
        hands = deals_value(form.deals.data)
        if hands is None or not DEALS_MIN <= hands <= DEALS_MAX:
            add_error(form, "deals", _("Simulate from %(least)s to %(most)s deals, such as "
                                       "1,000,000.", least=number(DEALS_MIN), most=number(DEALS_MAX)))
            valid = False
        if form.profile.data not in profiles:
            add_error(form, "profile", _("Choose table rules from the list."))
            valid = False
        if valid and hands is not None and reference:
            profile, deals = form.profile.data, hands
            try:
                _start_job(lambda: house_way_jobs.start_simulate(
                    data, reference, reference, profile, current_user.id, runner=_runner(),
                    hands=deals, seed=SEED))
            except ValueError as error:
                add_error(form, "deals", say(error))
                return render_template("manager/ways/edge.html", way=row, form=form, job=None,
                                       result=None, hands=hands,
                                       reference_title=dict(references).get(reference, ""))
            return redirect(url_for("manager_ways.edge_way", way_id=way_id, profile=profile,
                                    deals=hands))
        return render_template("manager/ways/edge.html", way=row, form=form, job=None,
                               result=None, reference_title=dict(references).get(reference, ""))
    profile = request.args.get("profile") or DEFAULT_PROFILE
    if profile not in profiles:
        profile = DEFAULT_PROFILE
    hands = deals_value(request.args.get("deals")) or DEALS_DEFAULT
    if not DEALS_MIN <= hands <= DEALS_MAX:
        hands = DEALS_DEFAULT
    form.profile.data, form.deals.data = profile, number(hands)
    job = _job_view(jobs.latest(edge_key(data, reference, profile, hands))) if reference else None
    result = edge_words(job["result"]) if job and job["status"] == "done" and job["result"] \
        else None
    return render_template("manager/ways/edge.html", way=row, form=form, job=job, result=result,
                           reference_title=dict(references).get(reference, ""),
                           profile_title=profile_name(profile), hands=hands)


@bp.route("/jobs/<id:job_id>")
@role_required(*MANAGERS)
def job_state(job_id: int) -> Response:
    """A job's progress for the progress bar (``job.js``): status, percent, message."""
    view = _job_view(jobs.get(job_id))
    if view is None:
        abort(404)
    return jsonify({"status": view["status"], "percent": view["percent"],
                    "message": view["message"], "done": view["done"]})


@bp.route("/jobs/<id:job_id>/restart", methods=["POST"])
@role_required(*MANAGERS)
def restart_job(job_id: int) -> Response:
    """Start a failed job again (a worker that died shows its job failed); a finished job
    is answered with its result, never run again."""
    if not FlaskForm().validate_on_submit():
        abort(400)
    if jobs.get(job_id) is None:
        abort(404)
    try:
        jobs.restart(job_id, current_user.id, runner=_runner())
    except jobs.JobRefused as refused:
        flash(say(refused.message), "error")
    except (LookupError, ValueError) as error:
        flash(str(error), "error")
    target = request.form.get("back") or ""
    if not target.startswith("/manager/house-ways/"):
        target = url_for("manager.house_ways")
    return redirect(target)


# --- publishing and versions ------------------------------------------------------------------


@bp.route("/<id:way_id>/publish", methods=["POST"])
@role_required(*MANAGERS)
def publish_way(way_id: int) -> str | Response:
    """Publish the draft as the next version: refused, with the reason, unless its check is clean."""
    row = _draft(way_id)
    form = PublishForm()
    if not form.validate_on_submit():
        if not form.is_submitted():
            abort(400)
        return _render_editor(row, publish=form)
    if _stale(_data(row)):
        add_error(form, "note", _("The draft changed since this page was opened; look at it "
                                  "again before publishing."))
        return _render_editor(row, publish=form)
    refusal = publish_refusal(row)
    if refusal is not None:
        add_error(form, "note", refusal)
        return _render_editor(row, publish=form)
    try:
        version = catalogue.publish(way_id, (form.note.data or "").strip(), current_user.id)
    except catalogue.PublishRefused as refused:
        db.session.rollback()
        add_error(form, "note", say(getattr(refused, "reason", refused)))
        return _render_editor(row, publish=form)
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
    row = _draft(way_id)
    versions = _versions(row)
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
    row = _draft(way_id)
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
        flash(say(error), "error")
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
        flash(say(error), "error")
        return redirect(back)
    for group_id in changed:  # their printed sheets, made by a job worker (issue 25)
        group = db.session.get(Group, group_id)
        if group is not None:
            pdf_jobs.prepare_group(group)
    flash(ngettext("Version %(n)s is now the house way of %(num)d group.",
                   "Version %(n)s is now the house way of %(num)d groups.",
                   len(changed), n=number), "success")
    return redirect(back)
