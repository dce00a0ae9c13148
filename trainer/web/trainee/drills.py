"""Timed drills in the browser: pick a drill, play its questions, see the summary.

The pages are plain HTML; ``static/js/drills.js`` asks for each question and sends
each answer as JSON (with the CSRF header). The session logic lives in
``trainer.services.drills``; this module only turns requests into its calls.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from trainer.models import DrillSession
from trainer.services import drills as drill_service
from trainer.services.certification import exams as certification
from trainer.services.certification import outcome as exam_outcome
from trainer.services.drills import DrillError, SessionNotFound
from trainer.web.platform import drill_kinds, languages, money_input
from trainer.web.words import engine_words, names
from trainer.web.words.engine_words import message_words

bp = Blueprint("drills", __name__, url_prefix="/drills")


def _kind_or_404(kind: str) -> str:
    if drill_kinds.get_kind(kind) is None:
        abort(404)
    return kind


def get_session_or_404(session_id: int) -> DrillSession:
    """Return one of the signed-in user's drill sessions, or 404 for anyone else's."""
    try:
        return drill_service.get_session(current_user.id, session_id)
    except SessionNotFound:
        abort(404)


def _error(error: DrillError) -> tuple[Response, int]:
    titles = {400: _("Answer not accepted"), 404: _("Not found"), 409: _("Already answered")}
    # The engine's refusal (a malformed card, an answer that does not fit) in the reader's words.
    return (jsonify(error=titles.get(error.status, _("Not accepted")), message=message_words(error)),
            error.status)


def _template_globals() -> dict[str, Any]:
    return {"category_names": names.CATEGORY_NAMES, "mode_names": names.MODE_NAMES}


@bp.route("/")
@login_required
def index() -> str:
    """List the drill kinds, each in practice, timed and my-mistakes form."""
    settings = drill_service.settings_for(current_user.id)
    drills = [
        {
            "kind": kind.slug,
            "title": kind.title,
            "blurb": kind.blurb,
            # What the session will count ("1 of 21"): a round's three steps, whole rounds.
            "length": drill_service.session_length(kind.slug, settings.length(kind.slug)),
            "time_limit_s": settings.time_limit_s(kind.slug),
        }
        for kind in drill_kinds.drill_kinds()
    ]
    return render_template("drills/index.html", drills=drills, settings=settings)


@bp.route("/<kind>/start", methods=["POST"])
@login_required
def start(kind: str) -> Response:
    """Start a practice or timed session, optionally on the trainee's recent mistakes."""
    kind = _kind_or_404(kind)
    mode = request.form.get("mode", "practice")
    if mode not in ("practice", "timed"):
        abort(400)
    focus: tuple[str, ...] = ()
    if request.form.get("focus") == "mistakes":
        focus = drill_service.missed_rules(current_user.id, kind)
        if not focus:
            flash(_("No recent mistakes in this drill: questions come from every rule."), "info")
    session_id = drill_service.start_session(current_user.id, kind, mode, focus_rules=focus)
    if focus and mode == "timed":
        # Timed "my mistakes" keeps its clock, but it is practice (docs/drills.md).
        flash(_("My mistakes is practice only: the clock runs, but the session does not "
                "count toward readiness or certification."), "info")
    return redirect(url_for("drills.play", session_id=session_id))


@bp.route("/sessions/<id:session_id>")
@login_required
def play(session_id: int) -> str | Response:
    """Show the drill page; its script fetches the questions one by one."""
    session = get_session_or_404(session_id)
    if session.finished_at is not None:
        return redirect(url_for("drills.show_summary", session_id=session.id))
    return render_template("drills/play.html", session=session, **_template_globals())


@bp.route("/sessions/<id:session_id>/question", methods=["POST"])
@login_required
def question(session_id: int) -> tuple[Response, int] | Response:
    """Hand out the session's current question, issuing the next when due."""
    try:
        view = drill_service.issue_question(current_user.id, session_id)
    except DrillError as error:
        return _error(error)
    if view is None:
        return jsonify(
            finished=True, summary_url=url_for("drills.show_summary", session_id=session_id)
        )
    # The drill's own hint: what to look at, or what the group's house way does with the
    # hand (its deciding rule in words, explain.way_hint).
    hint = engine_words.sentence_words(view.hint) if view.hint else None  # in the reader's language
    html = render_template(
        "drills/_question.html",
        kind=view.kind,
        q=view.question,
        context=view.context,
        position=view.position,
        **_template_globals(),
    )
    return jsonify(
        finished=False,
        position=view.position,
        length=view.length,
        kind=view.kind,
        mode=view.mode,
        time_limit_ms=view.time_limit_ms,
        remaining_ms=view.remaining_ms,
        hint=hint,
        html=html,
    )


@bp.route("/sessions/<id:session_id>/answer", methods=["POST"])
@login_required
def answer(session_id: int) -> tuple[Response, int] | Response:
    """Grade and record one answer; answer with the feedback (or, in an exam, "recorded")."""
    payload = request.get_json(silent=True)
    if not isinstance(payload, dict) or "answer" not in payload:
        return _error(drill_service.MalformedAnswer(_("Send the answer as JSON.")))
    try:
        # Typed amounts arrive as text in the reader's format ("47,50"): read them here,
        # so an unclear one is refused before anything is recorded (web/platform/money_input.py).
        given = money_input.read_amounts(payload["answer"], languages.language())
    except money_input.AmountError as error:
        return _error(drill_service.MalformedAnswer(str(error)))
    try:
        result = drill_service.answer_question(
            current_user.id, session_id, payload.get("position"), given
        )
    except DrillError as error:
        return _error(error)
    data = result.as_dict()
    if result.finished:
        data["summary_url"] = url_for("drills.show_summary", session_id=session_id)
    if not result.sealed:
        data["html"] = render_template(
            "drills/_feedback.html",
            result=result,
            kind=result.kind,
            q=result.question,
            grade=result.grade_json,
            **_template_globals(),
        )
    return jsonify(data)


@bp.route("/sessions/<id:session_id>/summary")
@login_required
def show_summary(session_id: int) -> str:
    """Show a session's score, accuracy, median time, mistakes and rules missed."""
    session = get_session_or_404(session_id)
    result = drill_service.summary(session.id, current_user.id)
    # An exam's score, mistakes and rules stay hidden until the exam ends.
    sealed = session.id in certification.sealed_session_ids(current_user.id)
    if sealed:
        result = dataclasses.replace(result, score=0, accuracy=None, mistakes=[], rules_missed=[])
    outcome = None
    if session.mode == "exam" and not sealed:
        # The exam's verdict, criterion, figures and next step (issue 27), judged first.
        certification.record_results([current_user.id])
        outcome = exam_outcome.session_outcome(session.id)
    return render_template(
        "drills/summary.html", session=session, summary=result, sealed=sealed,
        exam_outcome=outcome, **_template_globals()
    )
