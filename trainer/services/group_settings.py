"""A group's settings: the one owner of ``Group.settings``.

A group trains under its house way and table-rules profile (two columns) and the
settings kept as JSON in ``Group.settings``: a foul policy, each drill's session
length and time limit per question, and the certification criteria. Every reader
and writer goes through ``GroupSettings``: ``of(group)`` / ``from_dict`` to read,
``to_dict`` / ``save_to(group)`` to write.

Reading is tolerant, as stored JSON may come from any earlier version: an unknown
or out-of-range value falls back to its default (a broken criterion is skipped).
Building settings from new values is strict: ``GroupSettings(...)`` raises
ValueError with a sentence naming what is wrong.

The house way is a preset or a published version of a manager's custom way
(``services/house_ways/``: a ref such as ``riverside@2``); a draft is refused.
The profile may be a preset or a manager's custom profile (``services/profiles.py``
knows both); a group keeps a withdrawn one, but a new choice must be offered
(``check_profile_choice``).

The defaults are not written here: the house way and profile are the engine's
(``DEFAULT_HOUSE_WAY``, ``DEFAULT_PROFILE``), a drill's time limit is its class's
``default_time_limit_s``, and the criteria are ``certification.criteria``'s.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from trainer.engine.drills import get_drill
from trainer.engine.house_way import DEFAULT_HOUSE_WAY
from trainer.engine.messages import N_, Joined, Message
from trainer.engine.profiles import DEFAULT_PROFILE, FoulPolicy
from trainer.models import Group
from trainer.services import house_ways, profiles
from trainer.services.certification.criteria import Criterion, default_criteria, read_criteria

DEFAULT_LENGTH = 20
MAX_LENGTH = 200
MIN_TIME_LIMIT_S = 1
MAX_TIME_LIMIT_S = 600
# The JSON keys this module reads and writes; any other key is kept as it was.
_OWNED = frozenset({"foul_policy", "drills", "certification"})


def foul_policy(value: Any) -> FoulPolicy | None:
    """Return a known foul policy as the engine's enum, else None (the profile's own)."""
    try:
        return FoulPolicy(value) if value else None
    except ValueError:
        return None


def _whole(value: Any, low: int, high: int) -> int | None:
    """Return ``value`` if it is a whole number from ``low`` to ``high``, else None."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return None
    return value


def _drill_words(kind: str) -> Message | str:
    """Name a drill kind in a sentence by its title ("Settle the table"), a word the web
    translates (the drills page's title, the same catalogue entry); an unknown kind as typed."""
    try:
        title = get_drill(kind).title
    except ValueError:
        return repr(kind)
    return Message(title) if title else repr(kind)


@dataclass(frozen=True)
class DrillLimits:
    """One drill's session length and time limit per question; None: the default."""

    length: int | None = None
    time_limit_s: int | None = None

    def as_dict(self) -> dict[str, int]:
        """Return the JSON form: only the values that are set."""
        return {key: value for key, value in
                (("length", self.length), ("time_limit_s", self.time_limit_s)) if value}


@dataclass(frozen=True)
class GroupSettings:
    """The settings a group's drills, exams and table run under."""

    house_way: str = DEFAULT_HOUSE_WAY
    profile: str = DEFAULT_PROFILE
    foul_policy: FoulPolicy | None = None
    drills: Mapping[str, DrillLimits] = field(default_factory=dict)
    # None: the group has not set its own criteria and is judged by the defaults.
    criteria: tuple[Criterion, ...] | None = None
    # Keys of the stored JSON this class does not own (``demo``), kept as they were.
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Each problem a sentence marked for the catalogues (the web says them, in the
        # reader's language: web/engine_words.message_words); str() of the error is the English.
        errors: list[Any] = []
        try:
            # A preset or a published version (services/house_ways/); never a draft.
            house_ways.check_choice(self.house_way)
        except house_ways.WayError as error:
            errors.append(error.args[0] if len(error.args) == 1 else str(error))
        if not profiles.known(self.profile):
            errors.append(Message(N_("There is no table-rules profile called %(name)s."),
                                  name=repr(self.profile)))
        if self.foul_policy is not None and not isinstance(self.foul_policy, FoulPolicy):
            errors.append(Message(N_("There is no foul policy called %(name)s."),
                                  name=repr(self.foul_policy)))
        for kind, limits in self.drills.items():
            if limits.length is not None and _whole(limits.length, 1, MAX_LENGTH) is None:
                errors.append(Message(N_("%(drill)s: a session has from 1 to %(most)s "
                                         "questions."), drill=_drill_words(kind), most=MAX_LENGTH))
            if limits.time_limit_s is not None and _whole(
                    limits.time_limit_s, MIN_TIME_LIMIT_S, MAX_TIME_LIMIT_S) is None:
                errors.append(Message(N_("%(drill)s: a question's time limit is from "
                                         "%(least)s to %(most)s seconds."),
                                      drill=_drill_words(kind), least=MIN_TIME_LIMIT_S,
                                      most=MAX_TIME_LIMIT_S))
        for criterion in self.criteria or ():
            if not 0 <= criterion.min_accuracy <= 100:
                errors.append(Message(N_("%(drill)s: the criterion's accuracy is a "
                                         "percentage."), drill=_drill_words(criterion.kind)))
            if criterion.window < 1:
                errors.append(Message(N_("%(drill)s: the criterion counts at least one "
                                         "answer."), drill=_drill_words(criterion.kind)))
            if criterion.exam_length < 1:
                errors.append(Message(N_("%(drill)s: the exam asks at least one question."),
                                      drill=_drill_words(criterion.kind)))
        if errors:
            raise ValueError(errors[0] if len(errors) == 1 else Joined(errors))

    @classmethod
    def from_dict(cls, data: Any, house_way: str = DEFAULT_HOUSE_WAY,
                  profile: str = DEFAULT_PROFILE) -> GroupSettings:
        """Read stored settings JSON; unknown or bad values fall back to their defaults."""
        data = data if isinstance(data, Mapping) else {}
        drills: dict[str, DrillLimits] = {}
        stored_drills = data.get("drills")
        for kind, entry in (stored_drills.items() if isinstance(stored_drills, Mapping) else ()):
            entry = entry if isinstance(entry, Mapping) else {}
            drills[str(kind)] = DrillLimits(
                _whole(entry.get("length"), 1, MAX_LENGTH),
                _whole(entry.get("time_limit_s"), MIN_TIME_LIMIT_S, MAX_TIME_LIMIT_S),
            )
        certification = data.get("certification")
        criteria = None
        if isinstance(certification, Mapping) and "criteria" in certification:
            stored = certification["criteria"]
            criteria = tuple(read_criteria(stored if isinstance(stored, list) else ()))
        if not profiles.known(profile):
            profile = DEFAULT_PROFILE
        return cls(house_way, profile, foul_policy(data.get("foul_policy")), drills, criteria,
                   {key: value for key, value in data.items() if key not in _OWNED})

    @classmethod
    def of(cls, group: Group | None) -> GroupSettings:
        """Return a group's settings; without a group, the defaults."""
        if group is None:
            return cls()
        return cls.from_dict(group.settings, group.house_way, group.profile)

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON kept in ``Group.settings`` (the house way and profile are columns)."""
        data = dict(self.extra)
        if self.foul_policy is not None:
            data["foul_policy"] = self.foul_policy.value
        drills = {kind: limits.as_dict() for kind, limits in self.drills.items()
                  if limits.as_dict()}
        if drills:
            data["drills"] = drills
        if self.criteria is not None:
            data["certification"] = {"criteria": [c.as_dict() for c in self.criteria]}
        return data

    def check_profile_choice(self, current: str | None = None) -> None:
        """Refuse (ValueError in words) a profile not offered now, unless it is ``current``.

        A group keeps a profile that was withdrawn after it chose it (``current``); a
        new choice must be one on offer (``services/profiles.py``).
        """
        if self.profile != current:
            profiles.check_choice(self.profile)

    def save_to(self, group: Group) -> None:
        """Write these settings onto ``group`` (the caller commits)."""
        group.house_way, group.profile = self.house_way, self.profile
        group.settings = self.to_dict()

    def limits(self, kind: str) -> DrillLimits:
        """Return the length and time limit set for drill ``kind`` (None: the default)."""
        return self.drills.get(kind) or DrillLimits()

    def length(self, kind: str) -> int:
        """Return the number of questions in a session of ``kind``."""
        return self.limits(kind).length or DEFAULT_LENGTH

    def time_limit_s(self, kind: str) -> int:
        """Return the time limit per question of ``kind``, in seconds."""
        return self.limits(kind).time_limit_s or get_drill(kind).default_time_limit_s

    @property
    def certification_criteria(self) -> list[Criterion]:
        """Return the criteria the group's trainees are certified by (its own, or the defaults)."""
        return default_criteria() if self.criteria is None else list(self.criteria)


def group_criteria(settings: Any) -> list[Criterion]:
    """Return the certification criteria in a group's stored settings JSON, or the defaults."""
    return GroupSettings.from_dict(settings).certification_criteria
