"""The supervisor's side of practice that adapts (issue 30 step 5; docs/learning.md, "The pages").

- The class heat map (``group_knowledge``): trainees by rule family in one drill, how well
  each family is known now, as a real table (colour and the number), printable.
- Assignments: a rule or a rule family of a drill, to one trainee or the whole group
  (``assign``; ``end_assignment``), made and ended by ``learning.assign`` / ``learning.end``,
  which check them against the group's rules and audit them. Targeted practice favours them.
- Each trainee's forecast on the trainee's page (``trainee_outlook``, for ``trainees.py``).

Who may see a group is ``get_group_or_404``'s (a supervisor their own; another group's
answers 404); a table-games manager reads the heat map and changes nothing.
"""
from __future__ import annotations

from dataclasses import dataclass

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user
from werkzeug.wrappers import Response

from trainer.engine.drills import get_drill
from trainer.engine.house_way import rule_family
from trainer.engine.learning.catalogue import catalogue
from trainer.extensions import db
from trainer.models import Group, Membership, User
from trainer.services import drills as drill_service
from trainer.services import learning
from trainer.services.group_settings import GroupSettings
from trainer.web.platform.practice import RULE_ID_MAX, RULES_ERRORS, ForecastView, learnable_kinds
from trainer.web.supervisor.base import bp, get_group_or_404
from trainer.web.words.engine_words import message_words
from trainer.web.words.names import family_name, house_way_name, rule_name

# The form's "who": the whole group, or a trainee's id.
WHOLE_GROUP = "group"
TARGET_TYPES = ("family", "rule")


@dataclass(frozen=True)
class Member:
    """A trainee of the group, as the heat map names them."""

    id: int
    name: str
    active: bool


def members(group_id: int) -> list[Member]:
    """Return the group's trainees by name."""
    rows = db.session.execute(
        db.select(User.id, User.name, User.active)
        .join(Membership, Membership.user_id == User.id)
        .where(Membership.group_id == group_id)
        .order_by(User.name, User.id)).all()
    return [Member(r.id, r.name, r.active) for r in rows]


def _kind(wanted: str | None) -> str | None:
    kinds = learnable_kinds()
    if not kinds:
        return None
    return wanted if wanted in kinds else kinds[0]


def _targets(group: Group, kind: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]], str]:
    """Return what may be assigned in ``kind`` under the group's rules: its families and its
    rules (value, words), in the policy's order (the most frequent first), and its way."""
    context = drill_service.build(GroupSettings.of(group))
    skills = catalogue(get_drill(kind), context).skills
    families: dict[str, None] = {}
    for skill in skills:
        families.setdefault(rule_family(skill), None)
    way = context.house_way
    return ([(f"family:{f}", family_name(f)) for f in families],
            [(f"rule:{s}", rule_name(s, way)) for s in skills], way)


def _heat_map(group: Group, kind: str | None, *, error: str | None = None,
              chosen: dict[str, str] | None = None, status: int = 200) -> tuple[str, int]:
    """Render the heat map page (with the assignment form's refusal, when there is one)."""
    found = None
    families: list[tuple[str, str]] = []
    rules: list[tuple[str, str]] = []
    way = group.house_way
    if kind is not None:
        try:
            found = learning.group_knowledge(group.id, kind, GroupSettings.of(group))
            families, rules, way = _targets(group, kind)
        except RULES_ERRORS:
            found = None
    people = members(group.id)
    return render_template(
        "supervisor/knowledge.html", group=group, kind=kind, kinds=learnable_kinds(),
        knowledge=found, names={m.id: m for m in people}, trainees=people,
        families=families, rules=rules, way=way, way_name=house_way_name(way),
        assignments=learning.of_group(group.id), error=error, chosen=chosen or {},
        whole_group=WHOLE_GROUP,
    ), status


@bp.route("/groups/<id:group_id>/knowledge")
def group_knowledge(group_id: int) -> tuple[str, int]:
    """Show the class heat map of one drill (``?drill=``): trainees by rule family."""
    group = get_group_or_404(group_id)
    return _heat_map(group, _kind(request.args.get("drill")))


def _who(group_id: int, value: str) -> tuple[bool, int | None]:
    """Read the form's "who": (understood, the trainee's id or None for the whole group)."""
    if value == WHOLE_GROUP:
        return True, None
    ids = {m.id for m in members(group_id)}
    trainee_id = int(value) if value.isdigit() and len(value) < 10 else None
    return trainee_id in ids, trainee_id


@bp.route("/groups/<id:group_id>/assignments", methods=["POST"])
def assign(group_id: int) -> Response | tuple[str, int]:
    """Assign a rule or a rule family of a drill to a trainee of the group or to the group."""
    group = get_group_or_404(group_id)
    form = {k: request.form.get(k, "").strip() for k in ("drill", "who", "target")}
    kind = form["drill"] if form["drill"] in learnable_kinds() else None
    if kind is None:
        return _heat_map(group, _kind(None), error=_("Choose a drill."), chosen=form, status=400)
    known_who, trainee_id = _who(group.id, form["who"])
    target_type, _sep, target = form["target"].partition(":")
    if not known_who:
        error = _("Choose a trainee of this group, or the whole group.")
    elif target_type not in TARGET_TYPES or not target or len(target) > RULE_ID_MAX:
        error = _("Choose a rule or a rule family to assign.")
    else:
        try:
            learning.assign(current_user.id, group.id, kind, target_type, target,
                            drill_service.build(GroupSettings.of(group)), trainee_id)
        except learning.AssignmentError as refused:
            error = message_words(refused)
        except RULES_ERRORS:
            error = _("This group's rules cannot be read: check the group's settings first.")
        else:
            what = family_name(target) if target_type == "family" else rule_name(target,
                                                                                 group.house_way)
            who = next((m.name for m in members(group.id) if m.id == trainee_id), None)
            flash(_("Assigned %(what)s to %(who)s: their targeted practice takes it first.",
                    what=what, who=who) if who else
                  _("Assigned %(what)s to the whole group: their targeted practice takes it "
                    "first.", what=what), "success")
            return redirect(url_for("supervisor.group_knowledge", group_id=group.id, drill=kind))
    return _heat_map(group, kind, error=error, chosen=form, status=400)


@bp.route("/groups/<id:group_id>/assignments/<id:assignment_id>/end", methods=["POST"])
def end_assignment(group_id: int, assignment_id: int) -> Response | tuple[str, int]:
    """End an assignment in force of the group."""
    group = get_group_or_404(group_id)
    try:
        learning.end(current_user.id, group.id, assignment_id)
    except learning.AssignmentError as refused:
        return _heat_map(group, _kind(request.form.get("drill")), error=message_words(refused), status=400)
    flash(_("Assignment ended."), "success")
    return redirect(url_for("supervisor.group_knowledge", group_id=group.id,
                            drill=request.form.get("drill") or None))


@dataclass(frozen=True)
class KindOutlook:
    """One drill of a trainee's page: the forecast and the weakest rules."""

    kind: str
    forecast: ForecastView
    knowledge: learning.Knowledge


def trainee_outlook(trainee_id: int) -> list[KindOutlook]:
    """Return a trainee's forecast in each drill their group has a criterion for (the
    caller has checked that the signed-in user may see the trainee)."""
    found = []
    for kind in learnable_kinds():
        try:
            outcome = learning.forecast(trainee_id, kind)
            if outcome is None:
                continue
            known = learning.knowledge(trainee_id, kind)
        except RULES_ERRORS:
            return []
        found.append(KindOutlook(kind, ForecastView.of(outcome, known), known))
    return found
