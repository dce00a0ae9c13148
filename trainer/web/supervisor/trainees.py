"""Supervisors' trainee pages: a new trainee, figures and report, exams, replays, password, active."""
from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user
from werkzeug.wrappers import Response

from trainer.extensions import db
from trainer.models import Group, Role, User, utcnow
from trainer.services import accounts, classroom, progress, stored_answers
from trainer.services import groups as group_service
from trainer.services.certification import exams as certification
from trainer.services.certification import outcome as exam_outcome
from trainer.services.classroom import CLASS_DEALT
from trainer.services.drills import regrade, replay_question
from trainer.services.group_settings import GroupSettings
from trainer.services.reports import pages as reports
from trainer.services.reports import sql as report_queries
from trainer.services.reports.figures import Figures
from trainer.web.platform.accounts import account_from_form, password_reset_page
from trainer.web.platform.filters import drill_title, percent
from trainer.web.supervisor import charts
from trainer.web.supervisor.base import (
    PERIOD_NAMES,
    READINESS_NAMES,
    bp,
    drill_kinds,
    get_attempt_or_404,
    get_group_or_404,
    get_trainee_or_404,
    request_period,
)
from trainer.web.supervisor.forms import NewTraineeForm
from trainer.web.supervisor.learning import trainee_outlook
from trainer.web.words.engine_words import message_words
from trainer.web.words.names import MODE_NAMES


@bp.route("/trainees/new", methods=["GET", "POST"])
def new_trainee() -> str | Response:
    """Create a trainee in one of the signed-in supervisor's groups."""
    groups = [group for group, _count in group_service.supervised_groups(current_user.id)]
    if not groups:
        flash(_("Create a group first; every trainee belongs to one."), "info")
        return redirect(url_for("supervisor.new_group"))
    form = NewTraineeForm()
    form.group_id.choices = [(group.id, group.name) for group in groups]
    if form.validate_on_submit():
        group = get_group_or_404(form.group_id.data)
        trainee = account_from_form(form, Role.TRAINEE, group)
        if trainee is not None:
            db.session.commit()
            flash(_("Trainee %(name)s created.", name=trainee.name), "success")
            return redirect(url_for("supervisor.show_group", group_id=group.id))
    return render_template("supervisor/new_trainee.html", form=form)


def _exam_kind_choices(group: Group | None) -> list[tuple[str, str]]:
    if group is None:
        return []
    return [(c.kind, drill_title(c.kind)) for c in GroupSettings.of(group).certification_criteria]


def _timeline_charts(report: reports.TraineeReport) -> tuple[Any, Any]:
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


@bp.route("/trainees/<id:user_id>")
def show_trainee(user_id: int) -> str:
    """Show a trainee's figures over time, rules weakest first, mistakes, sessions and exams."""
    trainee = get_trainee_or_404(user_id)
    certification.bring_up_to_date([trainee.id])
    period = request_period()
    report = reports.trainee_report(trainee.id, period)
    verdict = reports.trainee_verdict(trainee.id, trainee.group)
    accuracy_chart, speed_chart = _timeline_charts(report)
    return render_template(
        "supervisor/trainee.html", trainee=trainee, report=report, verdict=verdict,
        accuracy_chart=accuracy_chart, speed_chart=speed_chart,
        bars=_accuracy_bars(report.kinds), kinds=[k for k in drill_kinds() if k in report.kinds],
        period_names=PERIOD_NAMES, readiness_names=READINESS_NAMES, mode_names=MODE_NAMES,
        exam_kinds=_exam_kind_choices(trainee.group),
        exam_outcomes=exam_outcome.outcomes(exam.id for exam in report.exams),
        recent=progress.recent_attempts(trainee.id, include_sealed=True),
        unanswered=report_queries.unanswered_practice([trainee.id], period.since(utcnow())).get(
            trainee.id, 0),
        # The forecast per drill and the weakest rules (issue 30, supervisor/learning.py).
        learning=trainee_outlook(trainee.id),
    )


@bp.route("/trainees/<id:user_id>/report")
def trainee_report(user_id: int) -> str:
    """Show a one-page printable report of a trainee: accuracy per drill, readiness, certificates."""
    trainee = get_trainee_or_404(user_id)
    certification.bring_up_to_date([trainee.id])
    period = request_period()
    report = reports.trainee_report(trainee.id, period)
    verdict = reports.trainee_verdict(trainee.id, trainee.group)
    return render_template(
        "supervisor/report.html", trainee=trainee, report=report, verdict=verdict,
        exam_outcomes=exam_outcome.outcomes(exam.id for exam in report.exams),
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
        flash(message_words(error), "error")
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
        # Dealt again from the seed: a round's step, as the trainee saw it.
        question = replay_question(attempt)
        grade = regrade(attempt)
    except stored_answers.UNREADABLE_ERRORS:
        # A question from an older engine may no longer replay: show it as stored.
        pass
    feedback = stored_answers.attempt_feedback(attempt.kind, attempt.question, attempt.answer,
                                               attempt.timed_out)
    # A live class's hand is shown as stored: the page says how the class was dealt it.
    origin = classroom.class_origin(attempt.id) if attempt.session.dealt == CLASS_DEALT else None
    return render_template("supervisor/replay.html", attempt=attempt, trainee=trainee,
                           question=question, grade=grade, shown=shown, feedback=feedback,
                           origin=origin)


@bp.route("/trainees/<id:user_id>/password", methods=["GET", "POST"])
def reset_password(user_id: int) -> str | Response:
    """Give one of the supervisor's trainees a new password."""
    trainee = get_trainee_or_404(user_id)
    return password_reset_page(trainee, url_for("supervisor.show_trainee", user_id=trainee.id))


@bp.route("/trainees/<id:user_id>/active", methods=["POST"])
def set_trainee_active(user_id: int) -> Response:
    """Deactivate one of the supervisor's trainees (ending their sessions) or reactivate."""
    trainee = get_trainee_or_404(user_id)
    wanted = request.form.get("active")
    if wanted not in ("0", "1"):
        abort(400)
    try:
        accounts.set_active(accounts.Actor.account(current_user), trainee, wanted == "1")
    except accounts.AccountError as error:
        flash(message_words(error), "error")
        return redirect(url_for("supervisor.show_trainee", user_id=trainee.id))
    db.session.commit()
    flash(_("%(name)s is now active.", name=trainee.name) if trainee.active
          else _("%(name)s is now inactive.", name=trainee.name), "success")
    return redirect(url_for("supervisor.show_trainee", user_id=trainee.id))
