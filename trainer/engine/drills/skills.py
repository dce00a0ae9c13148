"""What a drill kind declares about what it teaches: its skills and its default criterion.

A *skill* is what one graded answer exercises, named by the rule id the grade carries
(``action.count``, ``settlement.copy-push``; for the house-way kind, the rule of the
group's house way that decides the hand). Each kind's home declares its skills with
the rule-book section, a name, a short name, the sentence that teaches it and the
practice hint, every text marked for translation (``N_``); the web says them in the
reader's language and never shows the id. A text is an ``N_``-marked msgid, or a
``Message`` composed of such msgids (a hand-reading rule's name, "Reading: %(hand)s"),
or words that are a house way's own data (``Translated``, its sheet's sentence).

``BOOK`` is every registered kind's declared skills by id (``base.register`` adds
them), so the shared feedback words (``explain.rule_book``, ``explain.hint``) find a
rule's section, sentence and hint without naming any kind. A kind whose skills depend
on the context (the house way's rules) is not in it.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..messages import Joined, Message, Translated

# A skill's words: a marked msgid, a sentence made of them, or a house way's own words.
Words = str | Message | Joined | Translated


@dataclass(frozen=True, slots=True)
class Skill:
    """One skill a drill kind grades: a rule, in words."""

    id: str
    # The rule book's section (docs/rules.md), e.g. "§7"; "" when the kind's own.
    section: str
    # Its name in lists and reports, and the short name on narrow tables.
    name: Words
    short: Words
    # The sentence that teaches it (feedback, the look-up) and the practice hint.
    sentence: Words
    hint: Words


@dataclass(frozen=True, slots=True)
class DefaultCriterion:
    """A kind's certification criterion before a group changes it (services/certification)."""

    min_accuracy: float
    window: int
    max_median_s: float | None
    exam_length: int
    exam_time_limit_s: int


# Every registered kind's skills by id (filled by ``base.register`` only).
BOOK: dict[str, Skill] = {}


def skill(rule_id: str) -> Skill | None:
    """Return the skill a registered kind declares under ``rule_id``, or None."""
    return BOOK.get(rule_id)
