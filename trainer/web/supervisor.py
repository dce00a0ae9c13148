"""Supervisors' pages: groups and their dashboards, trainees, certification, settings, exports.

Supervisors see their own groups and the trainees now in them; admins see every
group. The figures come from ``trainer.dashboard``; this module only reads the
request, checks ownership and renders.
"""
from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required
from sqlalchemy import select
from werkzeug.wrappers import Response
from wtforms import BooleanField, DecimalField, IntegerField
from wtforms.validators import NumberRange, Optional

from trainer import audit, certification, dashboard, drill_service, stored_answers
from trainer.dashboard import Criterion, Figures, Period, Readiness
from trainer.drill_service import MAX_LENGTH, regrade
from trainer.engine.drills import DRILLS, DrillContext, get_drill, new_question
from trainer.engine.house_way import load, preset_names
from trainer.engine.profiles import get_profile, profile_names
from trainer.extensions import db
from trainer.limits import parse_id
from trainer.models import (
    Attempt,
    AuditLog,
    DrillSession,
    Group,
    Membership,
    Role,
    User,
    normalize_login,
    utcnow,
)
from trainer.web import charts
from trainer.web.change_history import history_rows
from trainer.web.csv_export import csv_response
from trainer.web.forms import GroupForm, NewTraineeForm, ResetPasswordForm
from trainer.web.main import recent_attempts, supervised_groups

bp = Blueprint("supervisor", __name__, url_prefix="/supervisor")

DRILL_ORDER = ("house-way", "settlement", "action", "hand-reading", "foul-check")
PERIOD_NAMES = {"7d": _l("Last 7 days"), "30d": _l("Last 30 days"), "all": _l("All time")}
READINESS_NAMES = {
    Readiness.CERTIFIED: _l("Ready to deal"),
    Readiness.REFRESHER: _l("Certified, needs a refresher"),
    Readiness.EXAM_SCHEDULED: _l("Exam scheduled"),
    Readiness.EXAM_DUE: _l("Ready for the exam"),
    Readiness.TRAINING: _l("In training"),
    Readiness.NO_DATA: _l("No timed practice yet"),
    Readiness.NO_CRITERIA: _l("No criteria set"),
}
MODE_NAMES = {"practice": _l("Practice"), "timed": _l("Timed"), "exam": _l("Exam")}
SORT_KEYS = ("name", "readiness", "last", "attempts", "accuracy")


@bp.before_request
@login_required
def require_supervisor() -> None:
    """Keep every page of this blueprint to supervisors and admins."""
    if current_user.role not in (Role.SUPERVISOR, Role.ADMIN):
        abort(403)


@bp.app_template_global()
def drill_title(kind: str) -> str:
    """Return a drill kind's title, or the slug of a kind no longer registered."""
    return get_drill(kind).title if kind in DRILLS else kind


@bp.app_template_global()
def chance_level(kind: str) -> float | None:
    """Return what always giving one answer scores in a drill kind (None: free-form answers)."""
    return get_drill(kind).chance_level if kind in DRILLS else None


def drill_kinds() -> list[str]:
    """Return the registered drill kinds in the order the drills page offers them."""
    return [k for k in DRILL_ORDER if k in DRILLS] + sorted(set(DRILLS) - set(DRILL_ORDER))


def house_way_choices() -> list[tuple[str, str]]:
    """Return the engine's house way presets as (name, title), the default first."""
    return [(name, f"{load(name).title} ({name})") for name in preset_names()]


def profile_choices() -> list[tuple[str, str]]:
    """Return the engine's table-rules profiles as (name, description), the default first."""
    return [(name, f"{name}: {get_profile(name).describe()}") for name in profile_names()]


def get_group_or_404(group_id: int) -> Group:
    """Return a group the signed-in user may see (their own, or any for an admin), or 404."""
    group = db.session.get(Group, group_id)
    if group is None or (current_user.role != Role.ADMIN and group.supervisor_id != current_user.id):
        abort(404)
    return group


def get_trainee_or_404(user_id: int) -> User:
    """Return a trainee now in one of the signed-in supervisor's groups (any for an admin), or 404."""
    user = db.session.get(User, user_id)
    if user is None or user.role != Role.TRAINEE:
        abort(404)
    if current_user.role != Role.ADMIN and (
        user.group is None or user.group.supervisor_id != current_user.id
    ):
        abort(404)
    return user


def get_attempt_or_404(attempt_id: int) -> Attempt:
    """Return an attempt of a trainee the signed-in user may see, or 404."""
    attempt = db.session.get(Attempt, attempt_id)
    if attempt is None:
        abort(404)
    get_trainee_or_404(attempt.user_id)
    return attempt


def _period() -> Period:
    return Period.parse(request.args.get("period"))


def _group_form(group: Group | None = None) -> GroupForm:
    form = GroupForm(obj=group)
    form.house_way.choices = house_way_choices()
    form.profile.choices = profile_choices()
    if group is not None:
        # Keep a setting the engine no longer ships selectable, not silently changed.
        for field, value in ((form.house_way, group.house_way), (form.profile, group.profile)):
            if value not in {name for name, _label in field.choices}:
                field.choices.append((value, value))
    return form


def _login_taken(login: str) -> bool:
    return db.session.execute(
        db.select(User.id).filter_by(login=login)
    ).first() is not None


# --------------------------------------------------------------------------- formatting


def percent(value: float | None) -> str:
    """Format a share as a whole percentage, or a dash."""
    return "—" if value is None else f"{value * 100:.0f}%"


def seconds(ms: float | None) -> str:
    """Format milliseconds as seconds with one decimal, or a dash."""
    return "—" if ms is None else f"{ms / 1000:.1f}"


bp.add_app_template_filter(percent, "percent")
bp.add_app_template_filter(seconds, "seconds")


def _sparkline(points: list[dashboard.Point], buckets: dashboard.Buckets, name: str) -> Any:
    values: list[float | None] = [None] * buckets.count
    for point in points:
        index = (point.day - buckets.start(0)).days // buckets.size
        if 0 <= index < buckets.count:
            values[index] = point.figures.accuracy
    return charts.sparkline(values, _("Accuracy trend of %(name)s", name=name))


def _timeline_charts(report: dashboard.TraineeReport) -> tuple[Any, Any]:
    buckets = report.buckets
    labels = [buckets.start(i).strftime("%d %b") for i in range(buckets.count)]
    accuracy, speed = [], []
    slowest = 1000.0
    for kind, points in report.timeline.items():
        acc: list[float | None] = [None] * buckets.count
        med: list[float | None] = [None] * buckets.count
        for point in points:
            index = (point.day - buckets.start(0)).days // buckets.size
            if 0 <= index < buckets.count:
                acc[index] = point.figures.accuracy
                if point.figures.median_ms is not None:
                    med[index] = point.figures.median_ms / 1000
                    slowest = max(slowest, point.figures.median_ms)
        accuracy.append(charts.Series(drill_title(kind), acc))
        speed.append(charts.Series(drill_title(kind), med))
    top = max(5.0, float(int(slowest / 1000) + 1))
    return (
        charts.line_chart(accuracy, labels, _("Accuracy over time, per drill"), 0.0, 1.0, percent),
        charts.line_chart(speed, labels, _("Median answer time over time, per drill (s)"),
                          0.0, top, lambda v: f"{v:.0f} s"),
    )


def _accuracy_bars(kinds: dict[str, Figures]) -> Any:
    bars = [(drill_title(k), kinds[k].accuracy) for k in drill_kinds() if k in kinds]
    return charts.bar_chart(bars or [(_("No answers"), None)], _("Accuracy per drill"), percent)


# --------------------------------------------------------------------------- groups


@bp.route("/")
def groups() -> str | Response:
    """List the groups the signed-in user may see; supervisors find them on their home page."""
    if current_user.role == Role.SUPERVISOR:
        return redirect(url_for("main.index"))
    all_groups = db.session.execute(db.select(Group).order_by(Group.name)).scalars().all()
    return render_template("supervisor/groups.html", groups=all_groups)


@bp.route("/groups/new", methods=["GET", "POST"])
def new_group() -> str | Response:
    """Create a group led by the signed-in supervisor."""
    form = _group_form()
    if form.validate_on_submit():
        group = Group(
            name=form.name.data.strip(),
            supervisor_id=current_user.id,
            house_way=form.house_way.data,
            profile=form.profile.data,
            settings={},
        )
        db.session.add(group)
        db.session.flush()
        audit.record(current_user.id, "group.create", "group", group.id,
                     new={"name": group.name, "house_way": group.house_way,
                          "profile": group.profile})
        db.session.commit()
        flash(_("Group %(name)s created.", name=group.name), "success")
        return redirect(url_for("supervisor.show_group", group_id=group.id))
    return render_template("supervisor/group_form.html", form=form, group=None)


def _sort_rows(rows: list[dashboard.TraineeRow], key: str, descending: bool) -> list[dashboard.TraineeRow]:
    """Sort the overview's rows by a column; trainees without figures go last."""
    kind = None
    if ":" in key:
        key, kind = key.split(":", 1)

    def figures(row: dashboard.TraineeRow) -> Figures:
        return row.kinds.get(kind, Figures()) if kind else row.total

    keyed: dict[str, Any] = {
        "name": lambda r: r.name.lower(),
        "readiness": lambda r: dashboard.READINESS_ORDER.index(r.verdict.status),
        "attempts": lambda r: figures(r).answered,
        "accuracy": lambda r: -1.0 if figures(r).accuracy is None else figures(r).accuracy,
        "median": lambda r: figures(r).median_ms if figures(r).median_ms is not None else float("inf"),
    }
    if key == "last":
        present = sorted((r for r in rows if r.last_activity), key=lambda r: r.last_activity,
                         reverse=descending)
        return present + [r for r in rows if not r.last_activity]
    return sorted(rows, key=keyed.get(key, keyed["name"]), reverse=descending)


@bp.route("/groups/<id:group_id>")
def show_group(group_id: int) -> str:
    """Show the group overview: each trainee's figures, trend and readiness, and weak rules."""
    group = get_group_or_404(group_id)
    period = _period()
    member_ids = [m.user_id for m in group.memberships]
    drill_service.settle_overdue(user_ids=member_ids)
    certification.record_results(member_ids)
    overview = dashboard.group_overview(group.id, period)
    sort = request.args.get("sort", "name")
    descending = request.args.get("dir") == "desc"
    rows = _sort_rows(overview.rows, sort, descending)
    sparklines = {row.id: _sparkline(row.trend, overview.buckets, row.name) for row in rows}
    kinds = [k for k in drill_kinds() if k in overview.kinds]
    return render_template(
        "supervisor/group.html", group=group, overview=overview, rows=rows, kinds=kinds,
        sparklines=sparklines, sort=sort, descending=descending, period_names=PERIOD_NAMES,
        readiness_names=READINESS_NAMES,
        unanswered=dashboard.unanswered_practice(member_ids, period.since(utcnow())),
    )


def _settings_form(group: Group) -> Any:
    """Build the group settings form: casino settings, drill lengths and time limits, criteria."""

    class GroupSettingsForm(GroupForm):
        pass

    for kind in drill_kinds():
        setattr(GroupSettingsForm, f"length-{kind}", IntegerField(
            _l("Questions per session"), validators=[Optional(), NumberRange(1, MAX_LENGTH)]))
        setattr(GroupSettingsForm, f"time-{kind}", IntegerField(
            _l("Seconds per question (timed)"), validators=[Optional(), NumberRange(1, 600)]))
        setattr(GroupSettingsForm, f"certify-{kind}", BooleanField(_l("Required for certification")))
        setattr(GroupSettingsForm, f"accuracy-{kind}", DecimalField(
            _l("Minimum accuracy (%)"), places=1, validators=[Optional(), NumberRange(0, 100)]))
        setattr(GroupSettingsForm, f"window-{kind}", IntegerField(
            _l("Over the last N timed questions (settlement: positions)"),
            validators=[Optional(), NumberRange(1, 5000)]))
        setattr(GroupSettingsForm, f"median-{kind}", DecimalField(
            _l("Median time at most (s)"), places=1, validators=[Optional(), NumberRange(0.5, 600)]))
        setattr(GroupSettingsForm, f"examlength-{kind}", IntegerField(
            _l("Exam questions"), validators=[Optional(), NumberRange(1, MAX_LENGTH)]))
        setattr(GroupSettingsForm, f"examtime-{kind}", IntegerField(
            _l("Exam seconds per question"), validators=[Optional(), NumberRange(1, 600)]))

    form = GroupSettingsForm(obj=group)
    form.house_way.choices = _group_form(group).house_way.choices
    form.profile.choices = _group_form(group).profile.choices
    if request.method == "GET":
        drills = (group.settings or {}).get("drills") or {}
        criteria = {c.kind: c for c in dashboard.group_criteria(group.settings)}
        for kind in drill_kinds():
            form[f"length-{kind}"].data = (drills.get(kind) or {}).get("length")
            form[f"time-{kind}"].data = (drills.get(kind) or {}).get("time_limit_s")
            criterion = criteria.get(kind)
            form[f"certify-{kind}"].data = criterion is not None
            if criterion is not None:
                form[f"accuracy-{kind}"].data = criterion.min_accuracy
                form[f"window-{kind}"].data = criterion.window
                form[f"median-{kind}"].data = criterion.max_median_s
                form[f"examlength-{kind}"].data = criterion.exam_length
                form[f"examtime-{kind}"].data = criterion.exam_time_limit_s
    return form


def _settings_from(form: Any, group: Group) -> dict[str, Any] | None:
    """Return the settings the form describes, or None after marking the fields in error."""
    settings = dict(group.settings or {})
    drills: dict[str, Any] = {}
    criteria: list[dict[str, Any]] = []
    ok = True
    for kind in drill_kinds():
        entry = {key: form[f"{name}-{kind}"].data for key, name in
                 (("length", "length"), ("time_limit_s", "time")) if form[f"{name}-{kind}"].data}
        if entry:
            drills[kind] = entry
        if form[f"certify-{kind}"].data:
            accuracy, window = form[f"accuracy-{kind}"].data, form[f"window-{kind}"].data
            for field, value in ((form[f"accuracy-{kind}"], accuracy), (form[f"window-{kind}"], window)):
                if value is None:
                    field.errors = [*field.errors, _("Needed when the drill is required for certification.")]
                    ok = False
            if accuracy is None or window is None:
                continue
            median = form[f"median-{kind}"].data
            criteria.append(Criterion(
                kind, float(accuracy), int(window), None if median is None else float(median),
                form[f"examlength-{kind}"].data or 50,
                form[f"examtime-{kind}"].data or get_drill(kind).default_time_limit_s,
            ).as_dict())
    if not ok:
        return None
    settings["drills"] = drills
    settings["certification"] = {**(settings.get("certification") or {}), "criteria": criteria}
    return settings


def _snapshot(group: Group) -> dict[str, Any]:
    return {"name": group.name, "house_way": group.house_way, "profile": group.profile,
            "settings": group.settings or {}}


def _record_change(group: Group, old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Write an audit entry with the values that changed; return whether any did."""
    changed = [key for key in new if old.get(key) != new.get(key)]
    if not changed:
        return False
    db.session.add(AuditLog(
        actor_id=current_user.id, action="group.settings", target_type="group",
        target_id=group.id, old={k: old.get(k) for k in changed}, new={k: new[k] for k in changed},
    ))
    return True


@bp.route("/groups/<id:group_id>/edit", methods=["GET", "POST"])
def edit_group(group_id: int) -> str | Response:
    """Change a group's name, casino settings, drill lengths, time limits and criteria."""
    group = get_group_or_404(group_id)
    form = _settings_form(group)
    if form.validate_on_submit():
        settings = _settings_from(form, group)
        if settings is not None:
            old = _snapshot(group)
            new = {"name": form.name.data.strip(), "house_way": form.house_way.data,
                   "profile": form.profile.data, "settings": settings}
            if _record_change(group, old, new):
                group.name, group.house_way, group.profile = new["name"], new["house_way"], new["profile"]
                group.settings = settings
                db.session.commit()
                flash(_("Group %(name)s saved. New sessions use these settings.", name=group.name),
                      "success")
            else:
                flash(_("Nothing changed."), "info")
            return redirect(url_for("supervisor.show_group", group_id=group.id))
    entries = db.session.execute(
        select(AuditLog).where(AuditLog.target_type == "group", AuditLog.target_id == group.id)
        .order_by(AuditLog.at.desc(), AuditLog.id.desc()).limit(50)
    ).scalars().all()
    history = history_rows(entries)
    return render_template("supervisor/group_settings.html", form=form, group=group,
                           kinds=drill_kinds(), history=history)


# --------------------------------------------------------------------------- trainees


@bp.route("/trainees/new", methods=["GET", "POST"])
def new_trainee() -> str | Response:
    """Create a trainee in one of the signed-in supervisor's groups."""
    groups = [group for group, _count in supervised_groups(current_user.id)]
    if not groups:
        flash(_("Create a group first; every trainee belongs to one."), "info")
        return redirect(url_for("supervisor.new_group"))
    form = NewTraineeForm()
    form.group_id.choices = [(group.id, group.name) for group in groups]
    if form.validate_on_submit():
        login = normalize_login(form.login.data)
        if _login_taken(login):
            form.login.errors.append(_("That login is taken."))
        else:
            group = get_group_or_404(form.group_id.data)
            trainee = User(name=form.name.data.strip(), login=login, role=Role.TRAINEE)
            trainee.set_password(form.password.data)
            trainee.membership = Membership(group_id=group.id)
            db.session.add(trainee)
            db.session.flush()
            audit.record(current_user.id, "account.create", "user", trainee.id,
                         new={**audit.account_fields(trainee), "group_id": group.id})
            db.session.commit()
            flash(_("Trainee %(name)s created.", name=trainee.name), "success")
            return redirect(url_for("supervisor.show_group", group_id=group.id))
    return render_template("supervisor/new_trainee.html", form=form)


def _exam_kind_choices(group: Group | None) -> list[tuple[str, str]]:
    if group is None:
        return []
    return [(c.kind, drill_title(c.kind)) for c in dashboard.group_criteria(group.settings)]


@bp.route("/trainees/<id:user_id>")
def show_trainee(user_id: int) -> str:
    """Show a trainee's figures over time, rules weakest first, mistakes, sessions and exams."""
    trainee = get_trainee_or_404(user_id)
    drill_service.settle_overdue(user_ids=[trainee.id])
    certification.record_results([trainee.id])
    period = _period()
    report = dashboard.trainee_report(trainee.id, period)
    verdict = dashboard.trainee_verdict(trainee.id, trainee.group)
    accuracy_chart, speed_chart = _timeline_charts(report)
    return render_template(
        "supervisor/trainee.html", trainee=trainee, report=report, verdict=verdict,
        accuracy_chart=accuracy_chart, speed_chart=speed_chart,
        bars=_accuracy_bars(report.kinds), kinds=[k for k in drill_kinds() if k in report.kinds],
        period_names=PERIOD_NAMES, readiness_names=READINESS_NAMES, mode_names=MODE_NAMES,
        exam_kinds=_exam_kind_choices(trainee.group),
        recent=recent_attempts(trainee.id, include_sealed=True),
        unanswered=dashboard.unanswered_practice([trainee.id], period.since(utcnow())).get(
            trainee.id, 0),
    )


@bp.route("/trainees/<id:user_id>/report")
def trainee_report(user_id: int) -> str:
    """Show a one-page printable report of a trainee: accuracy per drill, readiness, certificates."""
    trainee = get_trainee_or_404(user_id)
    drill_service.settle_overdue(user_ids=[trainee.id])
    certification.record_results([trainee.id])
    period = _period()
    report = dashboard.trainee_report(trainee.id, period)
    verdict = dashboard.trainee_verdict(trainee.id, trainee.group)
    return render_template(
        "supervisor/report.html", trainee=trainee, report=report, verdict=verdict,
        bars=_accuracy_bars(report.kinds), kinds=[k for k in drill_kinds() if k in report.kinds],
        period_names=PERIOD_NAMES, readiness_names=READINESS_NAMES, now=utcnow(),
    )


@bp.route("/trainees/<id:user_id>/exams", methods=["POST"])
def schedule_exam(user_id: int) -> Response:
    """Schedule a sealed certification exam for a trainee."""
    trainee = get_trainee_or_404(user_id)
    if trainee.group is None:
        abort(404)
    try:
        certification.schedule_exam(
            trainee.group.id, trainee.id, request.form.get("kind", ""), current_user.id
        )
    except certification.ExamError as error:
        flash(str(error), "error")
    else:
        flash(_("Exam scheduled for %(name)s; it shows on their home page.", name=trainee.name),
              "success")
    return redirect(url_for("supervisor.show_trainee", user_id=trainee.id))


@bp.route("/attempts/<id:attempt_id>/replay")
def replay_attempt(attempt_id: int) -> str:
    """Replay one answered question from its seed, with the answer given and the right one."""
    attempt = get_attempt_or_404(attempt_id)
    trainee = db.session.get(User, attempt.user_id)
    shown = stored_answers.shown_attempt(attempt.kind, attempt.question, attempt.answer)
    question, grade = shown.question, None
    try:
        context = DrillContext.from_dict(attempt.question.get("context", {}))
        question = new_question(attempt.kind, attempt.seed, context)
        grade = regrade(attempt)
    except stored_answers.UNREADABLE_ERRORS:
        # A question from an older engine may no longer replay: show it as stored.
        pass
    return render_template("supervisor/replay.html", attempt=attempt, trainee=trainee,
                           question=question, grade=grade, shown=shown)


@bp.route("/trainees/<id:user_id>/password", methods=["GET", "POST"])
def reset_password(user_id: int) -> str | Response:
    """Give one of the supervisor's trainees a new password."""
    trainee = get_trainee_or_404(user_id)
    form = ResetPasswordForm()
    form.account_login = trainee.login
    if form.validate_on_submit():
        trainee.set_password(form.password.data)
        audit.record(current_user.id, "account.password-reset", "user", trainee.id)
        db.session.commit()
        flash(_("New password set for %(name)s.", name=trainee.name), "success")
        return redirect(url_for("supervisor.show_trainee", user_id=trainee.id))
    return render_template("supervisor/reset_password.html", form=form, trainee=trainee)


@bp.route("/trainees/<id:user_id>/active", methods=["POST"])
def set_trainee_active(user_id: int) -> Response:
    """Deactivate one of the supervisor's trainees (ending their sessions) or reactivate."""
    trainee = get_trainee_or_404(user_id)
    wanted = request.form.get("active")
    if wanted not in ("0", "1"):
        abort(400)
    try:
        audit.change_active(current_user.id, current_user.role, trainee, wanted == "1")
    except audit.ReactivationRefused as error:
        flash(str(error), "error")
        return redirect(url_for("supervisor.show_trainee", user_id=trainee.id))
    db.session.commit()
    flash(_("%(name)s is now %(state)s.", name=trainee.name,
            state=_("active") if trainee.active else _("inactive")), "success")
    return redirect(url_for("supervisor.show_trainee", user_id=trainee.id))


# --------------------------------------------------------------------------- exports


def _result(correct: bool, timed_out: bool) -> str:
    if timed_out:
        return _("Timed out")
    return _("Right") if correct else _("Wrong")


def _utc(moment: datetime | None) -> str:
    return "" if moment is None else moment.strftime("%Y-%m-%d %H:%M:%S")


@bp.route("/groups/<id:group_id>/export/attempts.csv")
def export_attempts(group_id: int) -> Response:
    """Download the attempts of the group's trainees as CSV, filtered by trainee, drill and period."""
    group = get_group_or_404(group_id)
    period = _period()
    drill_service.settle_overdue(user_ids=[m.user_id for m in group.memberships])
    members = select(Membership.user_id).where(Membership.group_id == group.id)
    query = (
        select(User.name, User.login, Attempt.kind, DrillSession.mode, DrillSession.house_way,
               Attempt.session_id, Attempt.position, Attempt.answered_at, Attempt.correct,
               Attempt.timed_out, Attempt.rule_id, Attempt.elapsed_ms, Attempt.seed)
        .join(User, User.id == Attempt.user_id)
        .join(DrillSession, DrillSession.id == Attempt.session_id)
        .where(Attempt.user_id.in_(members))
        .order_by(User.name, Attempt.answered_at, Attempt.id)
    )
    if request.args.get("trainee"):
        trainee_id = parse_id(request.args["trainee"])
        if trainee_id is None:
            abort(404)
        query = query.where(Attempt.user_id == trainee_id)
    kind = request.args.get("kind")
    if kind:
        query = query.where(Attempt.kind == kind)
    since = period.since(utcnow())
    if since is not None:
        query = query.where(Attempt.answered_at >= since)

    def rows() -> Iterator[list[Any]]:
        yield [_("Trainee"), _("Login"), _("Drill"), _("Mode"), _("House way"), _("Session"),
               _("Question no."), _("Answered (UTC)"), _("Result"), _("Rule"), _("Rule family"),
               _("Time (s)"), _("Seed")]
        for r in db.session.execute(query.execution_options(yield_per=1000)):
            yield [r.name, r.login, drill_title(r.kind), str(MODE_NAMES.get(r.mode, r.mode)),
                   r.house_way, r.session_id, r.position, _utc(r.answered_at),
                   _result(r.correct, r.timed_out), r.rule_id or "",
                   (r.rule_id or "").split(".", 1)[0], f"{r.elapsed_ms / 1000:.1f}", r.seed]

    return csv_response(rows(), f"attempts-group-{group.id}-{period.key}.csv")


@bp.route("/groups/<id:group_id>/export/summary.csv")
def export_summary(group_id: int) -> Response:
    """Download the group overview as CSV: one row per trainee and drill."""
    group = get_group_or_404(group_id)
    period = _period()
    member_ids = [m.user_id for m in group.memberships]
    drill_service.settle_overdue(user_ids=member_ids)
    certification.record_results(member_ids)
    overview = dashboard.group_overview(group.id, period)

    def rows() -> Iterator[list[Any]]:
        yield [_("Trainee"), _("Login"), _("Period"), _("Drill"), _("Questions answered"),
               _("Right"), _("Accuracy (%)"), _("Median time (s)"), _("Last activity (UTC)"),
               _("Readiness")]
        for row in sorted(overview.rows, key=lambda r: r.name.lower()):
            kinds = [k for k in drill_kinds() if k in row.kinds] or [None]
            for kind in kinds:
                f = row.kinds.get(kind, Figures()) if kind else Figures()
                yield [row.name, row.login, str(PERIOD_NAMES[period.key]),
                       drill_title(kind) if kind else "", f.answered, f.right,
                       "" if f.accuracy is None else f"{f.accuracy * 100:.1f}",
                       "" if f.median_ms is None else f"{f.median_ms / 1000:.1f}",
                       _utc(row.last_activity), str(READINESS_NAMES[row.verdict.status])]

    return csv_response(rows(), f"summary-group-{group.id}-{period.key}.csv")
