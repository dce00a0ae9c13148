"""Proof: the check of every hand, what it changes and the edge (background jobs), and
the progress and restart of a job."""
from __future__ import annotations

from flask import (
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_login import current_user
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from trainer.engine.profiles import DEFAULT_PROFILE
from trainer.services import house_way_jobs, jobs
from trainer.web.manager.ways.forms import (
    DEALS_DEFAULT,
    DEALS_MAX,
    DEALS_MIN,
    DiffForm,
    EdgeForm,
    add_error,
    deals_value,
)
from trainer.web.platform.access import role_required
from trainer.web.platform.languages import number
from trainer.web.words.engine_words import message_words
from trainer.web.words.house_way_words import (
    check_words,
    diff_words,
    edge_words,
)
from trainer.web.words.names import profile_name

from .blueprint import MANAGERS, SEED, bp
from .drafts import draft_data, draft_or_404, publish_refusal
from .job_views import (
    check_summary,
    diff_key,
    edge_key,
    job_runner,
    job_view,
    profile_choices,
    reference_choices,
    start_job,
)


@bp.route("/<id:way_id>/check", methods=["GET", "POST"])
@role_required(*MANAGERS)
def check_way(way_id: int) -> str | Response:
    """Check every hand of the draft (a background job); the report in words."""
    row = draft_or_404(way_id)
    data = draft_data(row)
    form = FlaskForm()
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        start_job(lambda: house_way_jobs.start_check(data, current_user.id, runner=job_runner()))
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
    row = draft_or_404(way_id)
    data = draft_data(row)
    form = DiffForm()
    form.reference.choices = reference_choices(row)
    refs = [ref for ref, _label in form.reference.choices]
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        reference = form.reference.data
        start_job(lambda: house_way_jobs.start_diff(data, reference, current_user.id,
                                                     runner=job_runner()))
        return redirect(url_for("manager_ways.diff_way", way_id=way_id, reference=reference))
    reference = request.args.get("reference") or (refs[0] if refs else "")
    if reference not in refs:
        reference = refs[0] if refs else ""
    form.reference.data = reference
    job = job_view(jobs.latest(diff_key(data, reference))) if reference else None
    result = diff_words(job["result"], data) if job and job["status"] == "done" and \
        job["result"] else None
    return render_template("manager/ways/diff.html", way=row, form=form, job=job,
                           result=result, reference=reference,
                           reference_title=dict(form.reference.choices).get(reference, ""))


@bp.route("/<id:way_id>/edge", methods=["GET", "POST"])
@role_required(*MANAGERS)
def edge_way(way_id: int) -> str | Response:
    """The banker's edge change: a paired simulation of the same deals under the old and new way."""
    row = draft_or_404(way_id)
    data = draft_data(row)
    form = EdgeForm()
    form.profile.choices = profile_choices()
    profiles = [name for name, _label in form.profile.choices]
    references = reference_choices(row)
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
                start_job(lambda: house_way_jobs.start_simulate(
                    data, reference, reference, profile, current_user.id, runner=job_runner(),
                    hands=deals, seed=SEED))
            except ValueError as error:
                add_error(form, "deals", message_words(error))
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
    job = job_view(jobs.latest(edge_key(data, reference, profile, hands))) if reference else None
    result = edge_words(job["result"]) if job and job["status"] == "done" and job["result"] \
        else None
    return render_template("manager/ways/edge.html", way=row, form=form, job=job, result=result,
                           reference_title=dict(references).get(reference, ""),
                           profile_title=profile_name(profile), hands=hands)


@bp.route("/jobs/<id:job_id>")
@role_required(*MANAGERS)
def job_state(job_id: int) -> Response:
    """A job's progress for the progress bar (``job.js``): status, percent, message."""
    view = job_view(jobs.get(job_id))
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
        jobs.restart(job_id, current_user.id, runner=job_runner())
    except jobs.JobRefused as refused:
        flash(message_words(refused.message), "error")
    except (LookupError, ValueError) as error:
        flash(str(error), "error")
    target = request.form.get("back") or ""
    if not target.startswith("/manager/house-ways/"):
        target = url_for("manager.house_ways")
    return redirect(target)
