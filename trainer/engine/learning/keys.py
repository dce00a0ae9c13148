"""The skill a graded answer exercised: ``SkillKey``.

One graded answer exercises one skill: **the rule its attempt records** (``Grade.rule_id``,
the ``rule_id`` of every attempt row), named as follows (docs/learning.md, "In the app"):

- a rule a drill kind's home declares (``drills.skills.BOOK``: ``action.count``,
  ``settlement.copy-push``, a bonus table's line, ...) is that id, the same under every
  house way: ``SkillKey(kind, skill)``;
- any other rule id is a rule of the house way the answer was graded by (a house-way
  hand's deciding rule): it is scoped to that way **and its rules version**, the way's
  ref (a preset's name or a published version's ``slug@n``) and its rules digest, both
  recorded in every question's context: ``SkillKey(kind, skill, way, digest)``. A hand
  whose rule would foul is graded ``<rule>.fallback``; that is its rule's skill.

So the key is worked out from what an attempt row already holds (its kind, its
``rule_id`` and the context in its question), with no look-up.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..drills.skills import skill as declared_skill

FALLBACK = ".fallback"


@dataclass(frozen=True, slots=True, order=True)
class SkillKey:
    """A skill as a memory is stored under: the drill kind, the rule id and, for a house
    way's rule, the way's ref and rules digest ("" for a rule a kind declares)."""

    kind: str
    skill: str
    way: str = ""
    digest: str = ""

    @property
    def of_a_way(self) -> bool:
        """Tell whether this is a house way's rule (scoped to the way and its rules)."""
        return bool(self.way)


def skill_id(rule_id: str) -> str:
    """Return the skill a graded rule id names: the rule itself (a fallback's is its rule)."""
    return rule_id.removesuffix(FALLBACK)


def skill_key(kind: str, rule_id: str, house_way: str, rules_digest: str | None) -> SkillKey:
    """Return the skill an answer of ``kind`` graded ``rule_id`` under the house way
    ``house_way`` (its rules ``rules_digest``; None on contexts stored before digests) exercised."""
    skill = skill_id(rule_id)
    if declared_skill(skill) is not None:
        return SkillKey(kind, skill)
    return SkillKey(kind, skill, house_way, rules_digest or "")
