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
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from flask import Blueprint, abort, redirect, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from trainer.engine.drills import get_drill
from trainer.engine.house_way import HouseWayError
from trainer.engine.learning.catalogue import catalogue
from trainer.engine.learning.forecast import MAX_REVIEWS
from trainer.engine.learning.keys import skill_id
from trainer.engine.learning.policy import UNBIASED_SHARE
from trainer.services import drills as drill_service
from trainer.services import house_ways, learning
from trainer.services.certification import exams as certification
from trainer.web import drill_kinds
from trainer.web.engine_words import message_words
from trainer.web.errors import render_error
from trainer.web.exam_lock import refuse_during_exam

bp = Blueprint("learning", __name__, url_prefix="/learning")
bp.before_request(refuse_during_exam)

# What a group's rules may fail to resolve with (a way no longer offered, a lost profile).
RULES_ERRORS = (house_ways.WayError, HouseWayError, ValueError)
# The longest rule id a form may name (the skills' column holds 64 characters).
RULE_ID_MAX = 64


def learnable_kinds() -> list[str]:
    """Return the drill kinds practice can target, in the drills page's order: those of
    single questions (a round is practised through the kinds of its steps)."""
    return [slug for slug in drill_kinds.slugs() if get_drill(slug).unit_length() == 1]


@dataclass(frozen=True)
class ForecastView:
    """A forecast with what its "how it is worked out" says beside the service's numbers."""

    outcome: learning.Outcome
    floor_total: int            # the rules the criterion asks for (the forecast's floor)
    rarer: int                  # the kind's other rules, taught but not waited for
    window_met: bool            # the latest timed answers already meet the criterion
    most_answers: int = MAX_REVIEWS

    @classmethod
    def of(cls, outcome: learning.Outcome, known: learning.Knowledge) -> ForecastView:
        """Return the view of ``outcome``, a forecast of the kind ``known`` stands in."""
        floor = sum(s.floor for s in known.skills)
        f = outcome.forecast
        # The forecast's hands are its targeted answers over four fifths, plus one window
        # of timed hands unless the trainee's latest window meets the criterion already
        # (engine/learning/forecast.py, step 3).
        targeted = math.ceil(f.reviews / (1 - UNBIASED_SHARE))
        return cls(outcome, floor, len(known.skills) - floor, f.ready or f.hands == targeted)


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


@dataclass(frozen=True)
class Practisable:
    """The rules a user may practise one by one: their drills' house way and, per rule id,
    the drill kind that deals it (the first in the drills page's order)."""

    house_way: str
    kinds: dict[str, str]
    skills: dict[str, frozenset[str]]

    def kind_of(self, rule_id: object, house_way: object = None, wanted: object = None
                ) -> str | None:
        """Return the kind that deals ``rule_id``: ``wanted`` when it does, else the first
        that does; None for a rule of another house way than ``house_way`` (when given: a
        rule of another casino's way is not the rule the trainee's sessions deal)."""
        if house_way is not None and house_way != self.house_way:
            return None
        rule = skill_id(str(rule_id))
        if isinstance(wanted, str) and rule in self.skills.get(wanted, frozenset()):
            return wanted
        return self.kinds.get(rule)


def practisable(user_id: int) -> Practisable | None:
    """Return what the user may practise rule by rule under their group's rules (None when
    the rules cannot be read)."""
    try:
        context = drill_service.build(drill_service.settings_for(user_id))
    except RULES_ERRORS:
        return None
    found: dict[str, str] = {}
    skills: dict[str, frozenset[str]] = {}
    for kind in learnable_kinds():
        dealt = catalogue(get_drill(kind), context).skills
        skills[kind] = frozenset(dealt)
        for skill in dealt:
            found.setdefault(skill, kind)
    return Practisable(context.house_way, found, skills)


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

