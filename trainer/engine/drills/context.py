"""A drill's context (the rules it is generated and graded under) and a grade.

``DrillContext`` carries what grading needs, resolved: the house way itself (``way``: a
preset, a preset's earlier rule data, or a manager's published version) and the table
rules (``table``: a preset's or a custom profile's, with the group's foul policy as the
engine's ``FoulPolicy``). The engine never looks a house way up by name beyond its own
presets, and nothing installs a look-up in it: the services build the context in one
place (``services/drills/context.py``, from a group's settings, an exam's kept rules or
the JSON stored with a question) and hand it down, as custom profiles travel
(``custom``). Its stored JSON form (``as_dict``) is the one every question and attempt
row holds; text only there.

``Grade`` is what grading one answer gives.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, is_dataclass, replace
from typing import Any

from ..house_way import DEFAULT_HOUSE_WAY, HouseWay, HouseWayError, load, preset_names, rule_family
from ..profiles import DEFAULT_PROFILE, FoulPolicy, TableProfile, get_profile
from ..side_bets import SIDE_BET_RULES, verify_rules
from .codec import to_json

# The question generator new questions are drawn by; contexts stored without one are 1.
GENERATOR = 2
GENERATORS = (1, 2)


def _default_way() -> HouseWay:
    return load(DEFAULT_HOUSE_WAY)


@dataclass(frozen=True, slots=True)
class DrillContext:
    """The rules a drill is generated and graded under, resolved.

    ``way`` is the house way graded by and ``table`` the table rules (worked out once,
    from ``custom`` or the preset ``profile``, with ``foul_policy`` when it is set).
    The engine's presets are the defaults, so a test or an engine command builds a
    context of presets alone; a custom way reaches the engine only as an object.
    """

    way: HouseWay = field(default_factory=_default_way)
    profile: str = DEFAULT_PROFILE
    # The group's foul policy (None: the profile's own).
    foul_policy: FoulPolicy | None = None
    focus_rules: tuple[str, ...] = ()
    generator: int = GENERATOR
    # A custom profile's rules (issue 18), kept with the questions so a session grades
    # by the rules it started under even after a manager edits the profile; None: a preset.
    custom: TableProfile | None = None
    # The rules digest of the house way the session was started under (issue 18): ``way``
    # has these rules. None (contexts stored before digests): the way as it is now.
    house_way_digest: str | None = None
    # The side-bet rules version the session was started under (side_bets.SIDE_BET_RULES):
    # contexts stored without one are 1, when the progressive was paid "to 1".
    side_bet_rules: int = SIDE_BET_RULES
    # The table rules graded by: worked out from the fields above when the context is made.
    table: TableProfile = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.way, HouseWay):
            raise TypeError(f"A drill's context takes the house way itself, not {self.way!r}.")
        if self.foul_policy is not None and not isinstance(self.foul_policy, FoulPolicy):
            raise TypeError(f"A foul policy is a FoulPolicy, not {self.foul_policy!r}.")
        if self.house_way_digest is not None and self.house_way_digest != self.way.rules_digest:
            raise HouseWayError(f"{self.way.name}: these are not the rules the context records "
                                f"(rules {self.house_way_digest[:12]}).")
        table = self.custom if self.custom is not None else get_profile(self.profile)
        if self.foul_policy is not None and self.foul_policy != table.foul_policy:
            table = table.with_settings(foul_policy=self.foul_policy)
        object.__setattr__(self, "table", table)

    @property
    def house_way(self) -> str:
        """Return the house way's name: a preset's, or a published version's ref (``slug@n``)."""
        return self.way.name

    def with_focus(self, focus_rules: tuple[str, ...]) -> DrillContext:
        """Return this context drawing its questions from ``focus_rules``."""
        return replace(self, focus_rules=tuple(focus_rules))

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
    def from_dict(cls, data: Mapping[str, Any], way: HouseWay | None = None) -> DrillContext:
        """Rebuild a context from its stored JSON form, graded by ``way``.

        ``way`` is the house way the JSON records, resolved by the services
        (``services/drills/context.context_from_json``: a preset's earlier rules or a
        published version). Without it, the JSON must name a preset whose rules are
        still the recorded ones (HouseWayError otherwise; ValueError for a name that is
        no preset). The foul policy's text is read here, the stored form's one reader.
        """
        generator = data.get("generator", 1)
        if generator not in GENERATORS or isinstance(generator, bool):
            raise ValueError(f"There is no question generator {generator!r}.")
        table = data.get("table")
        digest = data.get("house_way_digest")
        digest = digest if isinstance(digest, str) else None
        policy = data.get("foul_policy")
        if way is None:
            way = preset_way(data.get("house_way", DEFAULT_HOUSE_WAY), digest)
        return cls(way, data.get("profile", DEFAULT_PROFILE),
                   FoulPolicy(policy) if policy else None,
                   tuple(data.get("focus_rules", ())), generator,
                   TableProfile.from_dict(table) if isinstance(table, dict) else None,
                   digest, verify_rules(data.get("side_bet_rules", 1)))


def preset_way(name: str, rules_digest: str | None = None) -> HouseWay:
    """Return the preset ``name`` when its rules are ``rules_digest`` (None: any).

    The engine's own package data only: anything else (a version, a preset's earlier
    rules) is the services' to find. ValueError for a name that is no preset,
    HouseWayError when the preset's rules have changed since.
    """
    if not isinstance(name, str) or name not in preset_names():
        raise ValueError(f"Unknown house way {name!r}: only the services resolve a house way "
                         "that is not a preset.")
    way = load(name)
    if rules_digest is not None and way.rules_digest != rules_digest:
        raise HouseWayError(f"{name}: the house way this was graded under is not the preset's "
                            f"rules now (rules {rules_digest[:12]}).")
    return way


def _wrong(part: Any) -> Any:
    """Return a grade's part marked wrong: a kind's part dataclass, or a dict."""
    if is_dataclass(part) and not isinstance(part, type):
        return replace(part, correct=False)
    return {**part, "correct": False}


@dataclass(frozen=True, slots=True)
class Grade:
    """The grade of one answer: right or wrong, the rule it tests, the right answer."""

    correct: bool
    rule_id: str
    correct_answer: Any
    # How it is worked out: a sentence (``Message``, or several as a ``Joined``) the web
    # says in the reader's language, or English text; ``as_dict`` gives the English.
    explanation: Any
    # The scored parts (a settlement's seats, a bonus's cue, hand and amount): the kind's
    # part dataclasses (frozen; ``as_dict`` writes their JSON), or dicts.
    parts: tuple[Any, ...] = field(default_factory=tuple)

    @property
    def family(self) -> str:
        """Return the rule family (the rule id's first part)."""
        return rule_family(self.rule_id)

    def timed_out(self) -> Grade:
        """Return this grade as a question left to time out records it: wrong, each part wrong."""
        return replace(self, correct=False,
                       parts=tuple(_wrong(part) for part in self.parts))

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON form shown after answering and stored with the attempt.

        ``correct_answer`` is as the grader gave it: a typed kind's key goes through its
        drill's ``key_json`` first (the services' ``grade_json``).
        """
        return {"correct": self.correct, "rule_id": self.rule_id,
                "family": self.family, "correct_answer": self.correct_answer,
                "explanation": str(self.explanation), "parts": to_json(list(self.parts))}
