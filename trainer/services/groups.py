"""Groups: the one place a group is created or its name and settings are changed.

``group_settings.GroupSettings`` reads and validates a group's settings (building one
from new values refuses a bad one); this module makes the change and writes its
audit entry in the same transaction (the caller commits), with the action names the
audit page and the group's history know: ``group.create``, ``group.settings`` (the
values that changed, old and new) and ``house_way.roll_out`` (a manager's version put
on the group, ``services/way_rollouts.py``). The supervisor's pages, the manager's
roll-out and ``trainer seed-demo`` all call it. A refusal is a ``GroupError`` (an
``EngineError`` with an ``N_``-marked sentence); nothing is changed then.
``supervised_groups`` lists a supervisor's groups (or all) with their sizes, for the
home page and the new-trainee form.
"""
from __future__ import annotations

from typing import Any

from sqlalchemy import func

from trainer.engine.messages import N_, EngineError
from trainer.extensions import db
from trainer.models import AuditLog, Group, Membership, User
from trainer.services.accounts import Actor, checked_text, record
from trainer.services.group_settings import GroupSettings

MAX_NAME_LENGTH = 120
ROLL_OUT = "house_way.roll_out"


class GroupError(EngineError):
    """A group change refused, in words; nothing was changed."""


def checked_name(name: str) -> str:
    """Return a group's name as stored (trimmed); GroupError when empty or too long."""
    return checked_text(name, missing=N_("Give the group a name."), what=N_("Group name"),
                        most=MAX_NAME_LENGTH, error=GroupError)


def snapshot(group: Group) -> dict[str, Any]:
    """A group's name and settings as the log keeps them."""
    return {"name": group.name, "house_way": group.house_way, "profile": group.profile,
            "settings": GroupSettings.of(group).to_dict()}


def create(actor: Actor, *, name: str, supervisor: User, settings: GroupSettings) -> Group:
    """Create a group led by ``supervisor`` with ``settings``, and log it; the caller commits.

    The settings were built (and so checked) by ``GroupSettings``; a new group's table
    rules must be on offer, which the caller checks with ``check_profile_choice``.
    """
    group = Group(name=checked_name(name), supervisor=supervisor)
    settings.save_to(group)
    db.session.add(group)
    db.session.flush()
    record(actor, "group.create", "group", group.id,
           new={"name": group.name, "house_way": group.house_way, "profile": group.profile})
    return group


def change(actor: Actor, group: Group, *, name: str, settings: GroupSettings) -> bool:
    """Rename a group and give it new settings; log the values that changed.

    Returns whether anything changed (nothing changed: nothing written, no entry).
    GroupError for a bad name. The caller commits.
    """
    name = checked_name(name)
    old = snapshot(group)
    new: dict[str, Any] = {"name": name, "house_way": settings.house_way,
                           "profile": settings.profile, "settings": settings.to_dict()}
    changed = [key for key in new if old.get(key) != new.get(key)]
    if not changed:
        return False
    record(actor, "group.settings", "group", group.id,
           old={key: old.get(key) for key in changed}, new={key: new[key] for key in changed})
    group.name = name
    settings.save_to(group)
    return True


def put_house_way(actor: Actor, group: Group, ref: str) -> bool:
    """Put the published house-way version ``ref`` on a group (a manager's roll-out), logged.

    Returns whether the group changed (False when it is on ``ref`` already). The ref is
    the caller's, checked as published (``services/way_rollouts.py``). The caller commits.
    """
    if group.house_way == ref:
        return False
    record(actor, ROLL_OUT, "group", group.id,
           old={"house_way": group.house_way}, new={"house_way": ref})
    group.house_way = ref
    return True


def history(group: Group, limit: int = 50) -> list[AuditLog]:
    """Return a group's audit entries (creation, settings, roll-outs), newest first."""
    return list(db.session.execute(
        db.select(AuditLog).where(AuditLog.target_type == "group", AuditLog.target_id == group.id)
        .order_by(AuditLog.at.desc(), AuditLog.id.desc()).limit(limit)
    ).scalars())


def supervised_groups(supervisor_id: int | None) -> list[tuple[Group, int]]:
    """Return a supervisor's groups (every group for None) with the number of trainees in each."""
    query = (db.select(Group, func.count(Membership.user_id))
             .outerjoin(Membership, Membership.group_id == Group.id))
    if supervisor_id is not None:
        query = query.filter(Group.supervisor_id == supervisor_id)
    rows = db.session.execute(query.group_by(Group.id).order_by(Group.name, Group.id)).all()
    return [(group, count) for group, count in rows]
