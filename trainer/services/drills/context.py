"""A drill's context, made in one place: from a group's settings, or from the JSON stored with it.

The group's settings (``GroupSettings``: house way, profile, foul policy as the engine's
``FoulPolicy``) become the engine's ``DrillContext`` here, with no shape between and no
text: ``build`` resolves the house way (``house_ways.exact``, pinned to its rules digest
by ``house_ways.pin``) and a custom profile's rules (``profiles.custom_rules``) and hands
the engine the objects. An exam runs under the rules it kept at scheduling: the same
``build``, given them. The foul policy is text only in the stored JSON forms (the
group's settings, the context's ``as_dict``), read once where it is read.

A stored context (each question and attempt row holds ``DrillContext.as_dict()``) is
read back by ``context_from_json``: its house way is resolved by the name and rules
digest it records, so an attempt graded under a preset's earlier rules or a superseded
version re-grades by those rules.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from trainer.engine.drills import DrillContext
from trainer.engine.house_way import DEFAULT_HOUSE_WAY
from trainer.engine.profiles import FoulPolicy, TableProfile
from trainer.extensions import db
from trainer.models import User
from trainer.services import house_ways, profiles
from trainer.services.group_settings import GroupSettings


def group_of(user_id: int) -> tuple[GroupSettings, int | None]:
    """Return the settings of the user's group and the group's id; no group: the defaults, None."""
    user = db.session.get(User, user_id)
    group = user.group if user is not None else None
    if group is None:
        return GroupSettings(), None
    return GroupSettings.of(group), group.id


def settings_for(user_id: int) -> GroupSettings:
    """Return the settings the user's drills run under: their group's, or the defaults."""
    return group_of(user_id)[0]


def build(settings: GroupSettings, *, focus_rules: Iterable[str] = (),
          house_way: str | None = None, house_way_digest: str | None = None,
          profile: str | None = None, table: TableProfile | None = None,
          foul_policy: FoulPolicy | None = None) -> DrillContext:
    """Return the context a new session of a group runs under: the one builder.

    The group's house way (pinned now to its rules digest, so its questions grade by
    these rules after a preset file changes or a version is superseded), its profile
    (a custom profile's rules as they are now ride in the context) and its foul policy.
    An exam passes what it kept at scheduling instead (``house_way`` with its
    ``house_way_digest``, ``profile`` with its ``table`` rules, ``foul_policy``).

    Raises ``house_ways.WayError`` for a house way that is not offered, HouseWayError
    when its recorded rules are not stored, ValueError for an unknown profile.
    """
    ref = house_way if house_way is not None else settings.house_way
    name = profile if profile is not None else settings.profile
    digest = house_way_digest or house_ways.pin(ref)
    return DrillContext(
        house_ways.exact(ref, digest), name,
        foul_policy if foul_policy is not None else settings.foul_policy,
        tuple(focus_rules),
        custom=table if table is not None else profiles.custom_rules(name),
        house_way_digest=digest,
    )


def context_from_json(data: Mapping[str, Any]) -> DrillContext:
    """Read a context stored with a question (``DrillContext.as_dict``), its house way resolved.

    The way is the preset, the preset's snapshot or the published version its name and
    rules digest record (``house_ways.exact``, each found once a process). Raises
    HouseWayError when those rules are not stored, ValueError (or TypeError) for JSON
    that is no context.
    """
    if not isinstance(data, Mapping):
        raise ValueError("A stored drill context must be a JSON object.")
    ref = data.get("house_way", DEFAULT_HOUSE_WAY)
    digest = data.get("house_way_digest")
    if not isinstance(ref, str):
        raise ValueError(f"There is no house way called {ref!r}.")
    way = house_ways.exact(ref, digest if isinstance(digest, str) else None)
    return DrillContext.from_dict(data, way)
