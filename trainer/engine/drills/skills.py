"""What a drill kind declares about what it teaches: its skills and its default criterion.

A *skill* is what one graded answer exercises, named by the rule id the grade carries
(``action.count``, ``settlement.copy-push``; for the house-way kind, the rule of the
group's house way that decides the hand). Each kind's home declares its skills with
the rule-book section, a name, a short name, the sentence that teaches it and the
practice hint, every text marked for translation (``N_``); the web says them in the
reader's language and never shows the id.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Skill:
    """One skill a drill kind grades: a rule, in words."""

    id: str
    # The rule book's section (docs/rules.md), e.g. "§7"; "" when the kind's own.
    section: str
    # Its name in lists and reports, and the short name on narrow tables.
    name: str
    short: str
    # The sentence that teaches it (feedback, the look-up) and the practice hint.
    sentence: str
    hint: str


@dataclass(frozen=True, slots=True)
class DefaultCriterion:
    """A kind's certification criterion before a group changes it (services/certification)."""

    min_accuracy: float
    window: int
    max_median_s: float | None
    exam_length: int
    exam_time_limit_s: int
