"""Classroom mode (issue 31): the instructor's projector and drive, the trainee's class page.

The instructor (the group's supervisor, or a manager or admin for any group) starts a live
class for a group and drives it from the projector page; the group's trainees join from
their class page. Both pages poll short (``classroom.POLL_MS``) with a change token: a GET
with ``If-None-Match`` is answered 304 while nothing changed (docs/classroom.md, "Real
time"). Every change is a POST with the CSRF header; a refusal is a 4xx JSON with the
sentence in the reader's words, and changes nothing.
"""
from __future__ import annotations

from dataclasses import replace
from datetime import UTC
from typing import Any, cast

from flask import Blueprint, Flask, abort, flash, jsonify, redirect, render_template, request, url_for
from flask.blueprints import BlueprintSetupState
from flask_babel import gettext as _
from flask_login import current_user
from werkzeug.wrappers import Response

from trainer.extensions import db
from trainer.models import Group, LiveClass, Role, utcnow
from trainer.services import classroom
from trainer.services.certification.sealing import exam_in_progress
from trainer.services.classroom import ClassError, DealOrder
from trainer.web.classroom import parts
from trainer.web.classroom import poll as class_poll
from trainer.web.platform import languages, money_input
from trainer.web.platform.access import get_owned_or_404, role_required
from trainer.web.platform.csv_export import csv_response
from trainer.web.platform.filters import drill_title
from trainer.web.words.engine_words import message_words
from trainer.web.words.names import rule_name

bp = Blueprint("classroom", __name__, url_prefix="/class")


@bp.record_once
def _install_quiet_poll(state: BlueprintSetupState) -> None:
    """Answer a trainee's unchanged poll 304 before Flask (web/classroom/poll.py)."""
    class_poll.install(cast(Flask, state.app))


INSTRUCTORS = (Role.SUPERVISOR, Role.MANAGER, Role.ADMIN)
RUNS_EVERY_GROUP = (Role.MANAGER, Role.ADMIN)


def _instructs(group: Group) -> bool:
    return current_user.role in RUNS_EVERY_GROUP or group.supervisor_id == current_user.id


def get_group_or_404(group_id: int) -> Group:
    """Return a group the signed-in instructor may run a class for, or 404."""
    return get_owned_or_404(Group, group_id, _instructs)


def get_class_or_404(class_id: int) -> LiveClass:
    """Return a class the signed-in instructor may drive (its group's), or 404: one read,
    the class with its group's supervisor (the projector's poll asks it every time)."""
    row = db.session.execute(db.select(LiveClass, Group.supervisor_id)
                             .join(Group, Group.id == LiveClass.group_id)
                             .where(LiveClass.id == class_id)).first()
    if row is None or not (current_user.role in RUNS_EVERY_GROUP
                           or row.supervisor_id == current_user.id):
        abort(404)
    live: LiveClass = row[0]
    return live


def _refused(error: ClassError) -> tuple[Response, int]:
    return jsonify(error=_("Not accepted"), message=message_words(error)), error.status


def _json_body() -> dict[str, Any]:
    payload = request.get_json(silent=True)
    if not isinstance(payload, dict):
        abort(400)
    return payload


def _conditional(data_for: Any, token: str) -> Response:
    """Answer 304 when the device has ``token``, else the JSON ``data_for()`` gives, tagged."""
    fresh = request.if_none_match.contains(token)
    response = Response(status=304) if fresh else jsonify(data_for())
    # A signed-in reply is sent "no-store" (web/platform/security.py): the device keeps the token
    # itself and sends it back, so nothing is cached on the way.
    response.set_etag(token)
    return response


# --- the instructor ------------------------------------------------------------------------


@bp.route("/groups/<id:group_id>")
@role_required(*INSTRUCTORS)
def group_class(group_id: int) -> str:
    """The group's live class: start one, open the running one, the past ones' summaries."""
    group = get_group_or_404(group_id)
    past = db.session.execute(db.select(LiveClass).filter_by(group_id=group.id)
                              .order_by(LiveClass.started_at.desc()).limit(30)).scalars().all()
    return render_template("classroom/start.html", group=group, past=past,
                           running=classroom.running_class_of(group.id))


@bp.route("/groups/<id:group_id>/start", methods=["POST"])
@role_required(*INSTRUCTORS)
def start(group_id: int) -> Response:
    """Start the group's live class (or open the one running) on the projector page."""
    group = get_group_or_404(group_id)
    class_id = classroom.start_class(group.id, current_user.id)
    return redirect(url_for("classroom.projector", class_id=class_id))


@bp.route("/<id:class_id>")
@role_required(*INSTRUCTORS)
def projector(class_id: int) -> str | Response:
    """The projector page: the hand large, the answers arriving, and the drive."""
    live = get_class_or_404(class_id)
    if live.state != "running":
        return redirect(url_for("classroom.summary", class_id=live.id))
    group = db.session.get(Group, live.group_id)
    try:
        context = classroom.group_context(group) if group is not None else None
    except ClassError as error:  # the group's house way is no longer offered: say so
        flash(message_words(error), "error")
        context = None
    kinds = parts.class_kinds()
    rules = {k.slug: [(s.id, rule_name(s.id, context.house_way if context else None))
                      for s in classroom.class_drill(k.slug).skills_of(context)]
             for k in kinds} if context is not None else {}
    return render_template("classroom/projector.html", live=live, group=group, kinds=kinds,
                           rules=rules, timer_max=classroom.TIMER_MAX_S,
                           **parts.template_globals())


def _instructor_state(live: LiveClass) -> Response:
    now = utcnow()
    row = classroom.poll(live.id, current_user.id)
    if row is None:
        abort(404)
    token = classroom.instructor_token(row, now)

    def data() -> dict[str, Any]:
        db.session.refresh(live)  # as the poll read it: an action may have changed it
        return parts.instructor_json(classroom.instructor_view(live, now), token)

    return _conditional(data, token)


@bp.route("/<id:class_id>/live")
@role_required(*INSTRUCTORS)
def live_state(class_id: int) -> Response:
    """The projector's poll: 304 while nothing changed, else the state as JSON."""
    return _instructor_state(get_class_or_404(class_id))


def _drive(live: LiveClass, action: Any) -> tuple[Response, int] | Response:
    """Run one instructor action on ``live``; answer with the new state, or the refusal."""
    try:
        action(live)
    except ClassError as error:
        db.session.rollback()
        return _refused(error)
    response = _instructor_state(live)
    response.status_code = 200
    return response


@bp.route("/<id:class_id>/deal", methods=["POST"])
@role_required(*INSTRUCTORS)
def deal(class_id: int) -> tuple[Response, int] | Response:
    """Deal a hand: at random, for a rule, from the weakest rules, or typed in."""
    live = get_class_or_404(class_id)
    payload = _json_body()
    kind, how = payload.get("kind"), payload.get("how", "random")
    if not parts.offered(kind):
        return _refused(ClassError(_("Choose a drill the class offers.")))
    typed = None
    if how == "typed":
        try:
            typed = parts.read_typed(payload.get("typed"))
        except parts.TypedError as error:  # a card's refusal in the engine's words, said here
            return _refused(ClassError(message_words(error)))
    rule = payload.get("rule") if how in ("rule",) else None
    order = DealOrder(kind=str(kind), how=str(how), rule=rule if isinstance(rule, str) else None,
                      typed=typed, timer_s=payload.get("timer_s"))
    return _drive(live, lambda live: classroom.deal(live.id, order))


@bp.route("/<id:class_id>/next", methods=["POST"])
@role_required(*INSTRUCTORS)
def next_hand(class_id: int) -> tuple[Response, int] | Response:
    """Deal the next hand as the last was dealt."""
    return _drive(get_class_or_404(class_id), lambda live: classroom.next_hand(live.id))


@bp.route("/<id:class_id>/lock", methods=["POST"])
@role_required(*INSTRUCTORS)
def lock(class_id: int) -> tuple[Response, int] | Response:
    """Lock the answers to the hand on the table (they are recorded)."""
    return _drive(get_class_or_404(class_id), lambda live: classroom.lock(live.id))


@bp.route("/<id:class_id>/reveal", methods=["POST"])
@role_required(*INSTRUCTORS)
def reveal(class_id: int) -> tuple[Response, int] | Response:
    """Reveal the hand: the answers given, who was right, and the rule."""
    return _drive(get_class_or_404(class_id), lambda live: classroom.reveal(live.id))


@bp.route("/<id:class_id>/timer", methods=["POST"])
@role_required(*INSTRUCTORS)
def timer(class_id: int) -> tuple[Response, int] | Response:
    """Start the hand's timer (seconds) or stop it (0)."""
    live = get_class_or_404(class_id)
    seconds = _json_body().get("seconds")
    return _drive(live, lambda live: classroom.set_timer(live.id, seconds))


@bp.route("/<id:class_id>/end", methods=["POST"])
@role_required(*INSTRUCTORS)
def end(class_id: int) -> Response:
    """End the class (an open hand's answers are recorded first) and show its summary."""
    live = get_class_or_404(class_id)
    classroom.end_class(live.id)
    flash(_("The class has ended."), "success")
    return redirect(url_for("classroom.summary", class_id=live.id))


@bp.route("/<id:class_id>/summary")
@role_required(*INSTRUCTORS)
def summary(class_id: int) -> str:
    """The class summary, printable: per hand the share right and who erred."""
    live = get_class_or_404(class_id)
    group = db.session.get(Group, live.group_id)
    return render_template("classroom/summary.html", live=live, group=group,
                           hands=classroom.class_summary(live), **parts.template_globals())


@bp.route("/<id:class_id>/summary.csv")
@role_required(*INSTRUCTORS)
def summary_csv(class_id: int) -> Response:
    """The class summary as CSV: one row per hand."""
    live = get_class_or_404(class_id)
    hands = classroom.class_summary(live)
    ways = {"random": _("At random"), "rule": _("For a rule"),
            "weakest": _("The group's weakest rules"), "typed": _("Typed in")}

    def rows() -> Any:
        yield [_("Hand"), _("Dealt at (UTC)"), _("Drill"), _("Dealt"), _("Rule id"), _("Rule"),
               _("Answers"), _("Right"), _("Right (%)"), _("Who erred"), _("No answer")]
        for h in hands:
            share = round(100 * h.share_right, 1) if h.share_right is not None else ""
            yield [h.number, h.dealt_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S"),
                   drill_title(h.kind), str(ways.get(h.dealt, h.dealt)), h.rule_id or "",
                   rule_name(h.rule_id, h.house_way) if h.rule_id else "", h.answered,
                   h.right, share, "; ".join(h.erred), "; ".join(h.unanswered)]

    return csv_response(rows(), f"class-{live.id}-summary.csv")


# --- the trainee ---------------------------------------------------------------------------


@bp.route("/offer")
@role_required(Role.TRAINEE)
def offer() -> Response:
    """The "join the class" offer the trainee's home and drills pages ask for now and then."""
    found = classroom.offer_for(current_user.id)
    data = {"class": None if found is None else {
        "url": url_for("classroom.trainee_page"), "group": found.group_name}}
    return _conditional(lambda: data, f"offer-{found.class_id if found else 0}")


@bp.route("/")
@role_required(Role.TRAINEE)
def trainee_page() -> str:
    """The trainee's class page: join the group's running class, then its live hand."""
    found = classroom.offer_for(current_user.id)
    in_exam = found is None and exam_in_progress(current_user.id)
    joined = False
    if found is not None:
        row = classroom.poll(found.class_id, current_user.id)
        joined = row is not None and row.joined
    return render_template("classroom/trainee.html", found=found, joined=joined, in_exam=in_exam,
                           kinds=parts.class_kinds(), **parts.template_globals())


@bp.route("/<id:class_id>/join", methods=["POST"])
@role_required(Role.TRAINEE)
def join(class_id: int) -> Response:
    """Join the group's running class."""
    try:
        classroom.join(class_id, current_user.id)
    except ClassError as error:
        db.session.rollback()
        flash(message_words(error), "error")
    return redirect(url_for("classroom.trainee_page"))


@bp.route("/<id:class_id>/state")
@role_required(Role.TRAINEE)
def state(class_id: int) -> tuple[Response, int] | Response:
    """A trainee device's poll: 304 while nothing changed, else its state (allow-listed)."""
    try:
        row = classroom.admit(classroom.poll(class_id, current_user.id), current_user.id,
                              check_exam=False)
    except ClassError as error:
        return _refused(error)
    now = utcnow()
    classroom.touch(row, current_user.id, now)
    token = classroom.trainee_token(row)
    if request.if_none_match.contains(token):
        return _conditional(dict, token)
    try:
        # A full reply only to a trainee not in an exam: a 304 tells nothing new.
        classroom.admit(row, current_user.id)
    except ClassError as error:
        return _refused(error)
    held = classroom.held_number(row.class_id, request.if_none_match.as_set())
    view = classroom.trainee_view(row, current_user.id, now, held)
    return _conditional(lambda: parts.trainee_json(view, token, held), token)


@bp.route("/<id:class_id>/answer", methods=["POST"])
@role_required(Role.TRAINEE)
def answer(class_id: int) -> tuple[Response, int] | Response:
    """Take the trainee's answer (or their changed answer) to the hand on the table."""
    payload = _json_body()
    if "answer" not in payload:
        return _refused(ClassError(_("Send the answer as JSON.")))
    try:
        given = money_input.read_amounts(payload["answer"], languages.language())
    except money_input.AmountError as error:
        return _refused(ClassError(str(error)))
    try:
        row = classroom.admit(classroom.poll(class_id, current_user.id), current_user.id)
        ack = classroom.answer(row, current_user.id, payload.get("hand"), given)
    except ClassError as error:
        db.session.rollback()
        return _refused(error)
    reply = {"recorded": True, "hand": ack.number,
             "mine_html": parts.mine_html(ack.kind, ack.answer, ack.hand_id, ack.question)}
    sent = payload.get("token")
    if isinstance(sent, str) and sent == classroom.trainee_token(row):
        # The device was up to date when it answered: its own answer is all that changed,
        # so it gets its next token here instead of asking for the state again.
        reply["token"] = classroom.trainee_token(replace(row, changes=ack.changes))
    return jsonify(parts.allowed(reply, ack=True))
