"""A drill's context (the group's settings it is generated and graded under) and a grade.

``DrillContext`` is built by the services from the group's settings and stored with
each question (``as_dict``); ``Grade`` is what grading one answer gives.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..house_way import DEFAULT_HOUSE_WAY, HouseWay, load_exact, rule_family
from ..profiles import DEFAULT_PROFILE, FoulPolicy, TableProfile, get_profile
from ..side_bets import SIDE_BET_RULES, verify_rules
from .codec import to_json

# The question generator new questions are drawn by; contexts stored without one are 1.
GENERATOR = 2
GENERATORS = (1, 2)

@dataclass(frozen=True, slots=True)
class DrillContext:
    """The group's settings a drill is generated and graded under."""

    house_way: str = DEFAULT_HOUSE_WAY
    profile: str = DEFAULT_PROFILE
    foul_policy: str | None = None
    focus_rules: tuple[str, ...] = ()
    generator: int = GENERATOR
    # A custom profile's rules (issue 18), kept with the questions so a session grades
    # by the rules it started under even after a manager edits the profile; None: a preset.
    custom: TableProfile | None = None
    # The rules digest of the house way the session was started under (issue 18), so its
    # questions grade by those rules even after a preset file changes or a version is
    # superseded; None (contexts stored before): the house way as it is now.
    house_way_digest: str | None = None
    # The side-bet rules version the session was started under (side_bets.SIDE_BET_RULES):
    # contexts stored without one are 1, when the progressive was paid "to 1".
    side_bet_rules: int = SIDE_BET_RULES

    @property
    def way(self) -> HouseWay:
        """Return the house way this context grades by (``load_exact``)."""
        return load_exact(self.house_way, self.house_way_digest)

    @property
    def table(self) -> TableProfile:
        """Return the table-rules profile, with the group's foul policy if set."""
        profile = self.custom if self.custom is not None else get_profile(self.profile)
        if self.foul_policy and self.foul_policy != profile.foul_policy:
            profile = profile.with_settings(foul_policy=FoulPolicy(self.foul_policy))
        return profile

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON form stored with each question."""
        data: dict[str, Any] = {"house_way": self.house_way, "profile": self.profile,
                                "foul_policy": self.table.foul_policy.value,
                                "focus_rules": list(self.focus_rules),
                                "generator": self.generator}
        if self.custom is not None:
            data["table"] = self.custom.as_dict()
        if self.house_way_digest is not None:
            data["house_way_digest"] = self.house_way_digest
        data["side_bet_rules"] = self.side_bet_rules
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DrillContext:
        """Rebuild a context from its stored JSON form."""
        generator = data.get("generator", 1)
        if generator not in GENERATORS or isinstance(generator, bool):
            raise ValueError(f"There is no question generator {generator!r}.")
        table = data.get("table")
        digest = data.get("house_way_digest")
        return cls(data.get("house_way", DEFAULT_HOUSE_WAY),
                   data.get("profile", DEFAULT_PROFILE), data.get("foul_policy"),
                   tuple(data.get("focus_rules", ())), generator,
                   TableProfile.from_dict(table) if isinstance(table, dict) else None,
                   digest if isinstance(digest, str) else None,
                   verify_rules(data.get("side_bet_rules", 1)))


@dataclass(frozen=True, slots=True)
class Grade:
    """The grade of one answer: right or wrong, the rule it tests, the right answer."""

    correct: bool
    rule_id: str
    # The kind's answer key (its ``key_type`` dataclass; a dict while a kind is untyped).
    correct_answer: Any
    # How it is worked out: a sentence (``Message``, or several as a ``Joined``) the web
    # says in the reader's language, or English text; ``as_dict`` gives the English.
    explanation: Any
    # The scored parts (a settlement's seats, a bonus's bets), the kind's part dataclasses.
    parts: tuple[Any, ...] = field(default_factory=tuple)

    @property
    def family(self) -> str:
        """Return the rule family (the rule id's first part)."""
        return rule_family(self.rule_id)

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON form shown after answering and stored with the attempt."""
        return {"correct": self.correct, "rule_id": self.rule_id,
                "family": self.family, "correct_answer": to_json(self.correct_answer),
                "explanation": str(self.explanation), "parts": to_json(list(self.parts))}
