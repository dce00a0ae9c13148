"""Practice that adapts on the trainee's pages (issue 30 step 5; docs/learning.md, "The pages").

What a trainee sees and starts; the numbers are ``trainer.services.learning``'s:

- the home's panel (``home_panel``): for one drill kind at a time, each rule family's
  standing now (words, a bar and the number), what today's targeted practice will cover,
  the forecast and how it is worked out, and "Practise what I need";
- "Practise this rule" (``practise_rule``), from the house-way sheet, the look-up and a
  practice answer's feedback: a practice session whose every question is dealt for that
  rule (``learning.start_rule_practice``), under the trainee's group's rules;
- "Practise what I need" (``start_targeted``): a targeted practice session.

Both starts are closed to a trainee whose certification exam is running (423, as the
reference pages are): a session of one rule, explained after each answer, is a crib.
What the supervisor's and the reference pages show of it too (the kinds practice targets,
the forecast's view, the rules a user may practise) is ``platform/practice.py``.
"""
from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, redirect, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from trainer.engine.learning.keys import skill_id
from trainer.services import drills as drill_service
from trainer.services import learning
from trainer.services.certification import exams as certification
from trainer.web.platform.errors import render_error
from trainer.web.platform.exam_lock import refuse_during_exam
from trainer.web.platform.practice import (
    RULE_ID_MAX,
    RULES_ERRORS,
    ForecastView,
    learnable_kinds,
    practisable,
)
from trainer.web.words.engine_words import message_words

bp = Blueprint("learning", __name__, url_prefix="/learning")
bp.before_request(refuse_during_exam)


@dataclass(frozen=True)
class HomePanel:
    """The home's panel: one kind's standing, the kinds to switch to, and the forecast."""

    kind: str
    kinds: tuple[str, ...]
    knowledge: learning.Knowledge
    forecast: ForecastView | None
    exam_running: bool


def home_panel(user_id: int, wanted: str | None) -> HomePanel | None:
    """Return the home's panel for ``wanted`` (a learnable kind; else the first), or None
    when the trainee's group's rules cannot be read."""
    kinds = learnable_kinds()
    if not kinds:
        return None
    kind = wanted if wanted in kinds else kinds[0]
    try:
        known = learning.knowledge(user_id, kind)
        outcome = learning.forecast(user_id, kind)
    except RULES_ERRORS:
        return None
    return HomePanel(kind=kind, kinds=tuple(kinds), knowledge=known,
                     forecast=None if outcome is None else ForecastView.of(outcome, known),
                     exam_running=certification.exam_in_progress(user_id))


def _started(session_id: int) -> Response:
    return redirect(url_for("drills.play", session_id=session_id))


def _refused(message: str) -> tuple[str | Response, int]:
    return render_error(400, _("Practice not started"), message)


@bp.route("/<kind>/targeted", methods=["POST"])
@login_required
def start_targeted(kind: str) -> Response | tuple[str | Response, int]:
    """Start targeted practice of ``kind``: the rules the trainee needs, chosen as they go."""
    if kind not in learnable_kinds():
        abort(404)
    try:
        session_id = learning.start_targeted(current_user.id, kind)
    except drill_service.DrillError as error:
        return _refused(message_words(error))
    return _started(session_id)


@bp.route("/practise", methods=["POST"])
@login_required
def practise_rule() -> Response | tuple[str | Response, int]:
    """Start a practice session whose every question is dealt for one rule (the form's
    ``rule``; ``kind``, when it deals that rule, else the first kind that does)."""
    rule_id = skill_id(request.form.get("rule", "").strip())
    if not rule_id or len(rule_id) > RULE_ID_MAX:
        return _refused(_("Choose a rule to practise."))
    rules = practisable(current_user.id)
    if rules is None:
        return _refused(_("Your group's rules cannot be read: ask your supervisor to check "
                          "the group's settings."))
    kind = rules.kind_of(rule_id, wanted=request.form.get("kind"))
    if kind is None:
        return _refused(_("That rule is not one your group's drills deal: practise it under "
                          "your group's house way."))
    try:
        session_id = learning.start_rule_practice(current_user.id, kind, rule_id)
    except drill_service.DrillError as error:
        return _refused(message_words(error))
    return _started(session_id)

