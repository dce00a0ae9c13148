"""Starting practice that adapts, and the practice of one rule, for the pages.

Both are drill sessions (``services/drills``), untimed practice, never in a criterion
window: ``start_targeted`` deals each question for the skill the policy picks from the
trainee's memories (``DrillSession.dealt`` ``targeted``); ``start_rule_practice`` deals
every question for one rule ("practise this rule", from the sheet, the look-up or a
feedback: ``focused``). Normal timed sessions and exams keep the unbiased generator.
"""
from __future__ import annotations

from trainer.services import drills as drill_service


def start_targeted(user_id: int, kind: str, length: int | None = None) -> int:
    """Start a targeted practice session of ``kind``; return its id (DrillError in words)."""
    return drill_service.start_session(user_id, kind, "practice", dealt="targeted",
                                       length=length)


def start_rule_practice(user_id: int, kind: str, rule_id: str, length: int | None = None) -> int:
    """Start a session of ``kind`` whose every question is dealt for ``rule_id``; return its
    id. DrillError in words when no question of the kind can be dealt for it under the
    trainee's group's rules (not one of its rules, or a rule that decides no hand)."""
    return drill_service.start_session(user_id, kind, "practice", skill=rule_id, length=length)
