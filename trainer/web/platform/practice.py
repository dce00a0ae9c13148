"""Practice that adapts, as the pages of three areas show it (issue 30; docs/learning.md,
"The pages"): the kinds practice can target, a forecast with its "how it is worked out",
and the rules a user may practise one by one ("Practise this rule" on the trainee's home,
the house-way sheet and the look-up). The numbers are ``trainer.services.learning``'s.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from trainer.engine.drills import get_drill
from trainer.engine.house_way import HouseWayError
from trainer.engine.learning.catalogue import catalogue
from trainer.engine.learning.forecast import MAX_REVIEWS
from trainer.engine.learning.keys import skill_id
from trainer.engine.learning.policy import UNBIASED_SHARE
from trainer.services import drills as drill_service
from trainer.services import house_ways, learning
from trainer.web.platform import drill_kinds

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
