"""Rolling a published house-way version out to groups: the manager's tool (issue 27).

A group trains on one house way, a preset or a published version ``<slug>@<n>``
(``services/house_ways/``). A manager puts a published version of a custom way on
chosen groups, or on every group on an older version of that way, in one action;
rolling back is rolling out an older version. Each group changed is one audit entry
("house_way.roll_out", the group's old and new house way, written by
``services/groups.py``) in the same transaction as the change: all the groups change,
or none.

What does not move (docs/house-ways.md, "Rolling a version out"): a session records
its house way and rules digest when it starts, so a running session finishes on the
version it started with; an exam keeps the house way copied when it was scheduled.
Sessions and exams started after the roll-out use the new version.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import select

from trainer.engine.messages import N_, Message
from trainer.extensions import db
from trainer.models import CustomHouseWay, Group, HouseWayVersion, Role, User
from trainer.services import groups as groups_service
from trainer.services.accounts import Actor
from trainer.services.house_ways import WayError, parse_ref


@dataclass(frozen=True, slots=True)
class GroupWay:
    """A group as a roll-out lists it: its name, supervisor and the house way it is on."""

    id: int
    name: str
    supervisor: str
    house_way: str
    # The version number when the group is on a version of this way; None otherwise.
    version: int | None

    def older_than(self, number: int) -> bool:
        """Tell whether the group is on an earlier version of this way than ``number``."""
        return self.version is not None and self.version < number


def get_version(way_id: int, number: int) -> HouseWayVersion:
    """Return a published version of a custom way; WayError when there is none."""
    version = db.session.execute(select(HouseWayVersion).where(
        HouseWayVersion.way_id == way_id, HouseWayVersion.number == number)
    ).scalar_one_or_none() if isinstance(way_id, int) and isinstance(number, int) else None
    if version is None:
        raise WayError(Message(N_("There is no such published version of this house way.")))
    return version


def groups(way_id: int) -> list[GroupWay]:
    """Return every group, by name, with the house way it is on (its version of this way)."""
    record = db.session.get(CustomHouseWay, way_id)
    slug = record.slug if record is not None else None
    rows = db.session.execute(
        select(Group.id, Group.name, Group.house_way, User.name)
        .join(User, User.id == Group.supervisor_id)
        .order_by(Group.name, Group.id)
    ).all()
    result = []
    for group_id, name, house_way, supervisor in rows:
        parsed = parse_ref(house_way)
        version = parsed[1] if parsed is not None and parsed[0] == slug else None
        result.append(GroupWay(int(group_id), str(name), str(supervisor), str(house_way), version))
    return result


def older_groups(way_id: int, number: int) -> list[GroupWay]:
    """Return the groups on an earlier version of this way than ``number``."""
    return [g for g in groups(way_id) if g.older_than(number)]


def chosen_groups(way_id: int, group_ids: Iterable[int]) -> list[GroupWay]:
    """Return the groups with these ids (by name); WayError naming none if one is unknown."""
    wanted = set(group_ids)
    found = [g for g in groups(way_id) if g.id in wanted]
    if len(found) != len(wanted):
        raise WayError(Message(N_("One of the groups chosen no longer exists: choose again.")))
    return found


def roll_out(way_id: int, number: int, group_ids: Sequence[int], user_id: int | None) -> list[int]:
    """Put version ``number`` of a custom way on the groups ``group_ids``; return those changed.

    A group already on that version is left as it is. WayError (nothing changed) for an
    unknown version, no group, or a group that does not exist. One audit entry a group
    changed, committed with the change.
    """
    version = get_version(way_id, number)
    if not group_ids:
        raise WayError(Message(N_("Choose at least one group to put this version on.")))
    rows = db.session.execute(select(Group).where(Group.id.in_(set(group_ids)))).scalars().all()
    if len(rows) != len(set(group_ids)):
        raise WayError(Message(N_("One of the groups chosen no longer exists: choose again.")))
    actor = Actor(user_id, Role.MANAGER.value)  # a manager's tool
    changed = [group.id for group in sorted(rows, key=lambda g: g.id)
               if groups_service.put_house_way(actor, group, version.ref)]
    db.session.commit()
    return changed
