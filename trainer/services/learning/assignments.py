"""A supervisor's assignments: a rule or a rule family to practise, for a trainee or a group.

Targeted practice favours the skills of the assignments in force for the trainee (their
own and their group's): the policy asks an assigned skill first when it is due, brings an
unseen one in first, and practises it ahead of schedule before any other
(``engine/learning/policy``). An assignment names a rule id (a skill of the drill kind)
or a rule family (every skill whose id starts with it: ``two-pair``), for one drill kind;
it is in force until a supervisor ends it. Making and ending one is audited.

Who may assign to whom is the web's to check (the supervisor of the group); the service
checks that the trainee is in the group and that the rule or family is one of the kind's
under the group's rules, and refuses otherwise with an ``AssignmentError`` in words.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import or_, select

from trainer.engine.drills import DRILLS, DrillContext, get_drill
from trainer.engine.house_way import rule_family
from trainer.engine.learning.catalogue import catalogue
from trainer.engine.messages import N_, Message
from trainer.extensions import db
from trainer.models import LearningAssignment, Membership, utcnow
from trainer.models.learning import ASSIGNMENT_TARGETS
from trainer.services import audit


class AssignmentError(ValueError):
    """An assignment refused; ``message`` says why, for the web to word."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


@dataclass(frozen=True)
class Assignment:
    """An assignment in force, as pages show it."""

    id: int
    group_id: int
    trainee_id: int | None
    kind: str
    target_type: str
    target: str
    assigned_by_id: int | None
    assigned_at: datetime


def _view(row: LearningAssignment) -> Assignment:
    return Assignment(row.id, row.group_id, row.trainee_id, row.kind, row.target_type, row.target,
                      row.assigned_by_id, row.assigned_at)


def _audited(row: LearningAssignment) -> dict[str, object]:
    """Return an assignment as its audit entry keeps it: the drill, the trainee (None: the
    group) and the rule or the family."""
    return {"kind": row.kind, "trainee_id": row.trainee_id, row.target_type: row.target}


def skills_of(target_type: str, target: str, skills: tuple[str, ...]) -> list[str]:
    """Return the skills of ``skills`` an assignment names (a rule, or a family's rules)."""
    if target_type == "rule":
        return [s for s in skills if s == target]
    return [s for s in skills if rule_family(s) == target]


def in_force(user_id: int, group_id: int | None, kind: str | None = None) -> list[Assignment]:
    """Return the assignments in force for a trainee (their own and their group's)."""
    if group_id is None:
        return []
    query = select(LearningAssignment).where(
        LearningAssignment.group_id == group_id, LearningAssignment.ended_at.is_(None),
        or_(LearningAssignment.trainee_id.is_(None), LearningAssignment.trainee_id == user_id))
    if kind is not None:
        query = query.where(LearningAssignment.kind == kind)
    return [_view(row) for row in
            db.session.execute(query.order_by(LearningAssignment.id)).scalars()]


def favoured(user_id: int, group_id: int | None, kind: str, context: DrillContext) -> list[str]:
    """Return the skills of ``kind`` the assignments in force for a trainee name."""
    found = in_force(user_id, group_id, kind)
    if not found:
        return []
    skills = catalogue(get_drill(kind), context).skills
    return sorted({s for a in found for s in skills_of(a.target_type, a.target, skills)})


def of_group(group_id: int) -> list[Assignment]:
    """Return every assignment in force in a group (its trainees' and the group's own)."""
    rows = db.session.execute(select(LearningAssignment).where(
        LearningAssignment.group_id == group_id, LearningAssignment.ended_at.is_(None))
        .order_by(LearningAssignment.id)).scalars()
    return [_view(row) for row in rows]


def assign(actor_id: int, group_id: int, kind: str, target_type: str, target: str,
           context: DrillContext, trainee_id: int | None = None) -> int:
    """Assign a rule or family of ``kind`` to a trainee of the group (None: the whole group);
    return its id, committed. ``context``: the group's drill context (its rules)."""
    if kind not in DRILLS:
        raise AssignmentError(Message(N_("There is no drill called %(kind)s."), kind=repr(kind)))
    if target_type not in ASSIGNMENT_TARGETS:
        raise AssignmentError(Message(N_("Assign a rule or a rule family.")))
    skills = catalogue(get_drill(kind), context).skills
    if not skills_of(target_type, target, skills):
        raise AssignmentError(Message(N_("That is not a rule of this drill under the group's "
                                         "rules.")))
    if trainee_id is not None and db.session.execute(select(Membership.user_id).where(
            Membership.user_id == trainee_id, Membership.group_id == group_id)).first() is None:
        raise AssignmentError(Message(N_("That trainee is not in this group.")))
    row = LearningAssignment(group_id=group_id, trainee_id=trainee_id, kind=kind,
                             target_type=target_type, target=target, assigned_by_id=actor_id,
                             assigned_at=utcnow())
    db.session.add(row)
    db.session.flush()
    audit.record(actor_id, "learning.assign", "group", group_id, None, _audited(row))
    db.session.commit()
    return row.id


def end(actor_id: int, group_id: int, assignment_id: int) -> None:
    """End an assignment in force of the group, committed; AssignmentError when there is none."""
    row = db.session.get(LearningAssignment, assignment_id)
    if row is None or row.group_id != group_id or row.ended_at is not None:
        raise AssignmentError(Message(N_("There is no such assignment in force in this group.")))
    row.ended_at = utcnow()
    row.ended_by_id = actor_id
    audit.record(actor_id, "learning.unassign", "group", group_id, _audited(row), None)
    db.session.commit()
