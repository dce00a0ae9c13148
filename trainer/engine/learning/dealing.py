"""A question dealt for one skill, replayed from its seed.

Targeted practice and "practise this rule" deal each question for a chosen skill with
the kind's own ``deal_for`` (``random.Random(seed)``), so the question replays from its
seed and the skill, which its stored context records (``DEALT_FOR``). No skill (the
unbiased generator's question), a kind of several steps (a round), or a skill the kind
deals nothing for under the context: the kind's generator, as every other session.
"""
from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any

from ..drills.base import Drill
from ..drills.context import DrillContext

# The key of a question's stored context (``DrillContext.as_dict`` plus it) naming the
# skill the question was dealt for; absent: the kind's generator dealt it.
DEALT_FOR = "dealt_for"
# The key naming the skills a supervisor assigned, kept with a targeted session's questions.
FAVOURED = "favoured"


def dealt_for(context_json: Mapping[str, Any]) -> str | None:
    """Return the skill a stored context says its question was dealt for, or None."""
    skill = context_json.get(DEALT_FOR) if isinstance(context_json, Mapping) else None
    return skill if isinstance(skill, str) and skill else None


def question_for(drill: Drill, seed: int, context: DrillContext, position: int,
                 skill: str | None) -> Any:
    """Return the question at ``position`` of a session dealt from ``seed``, for ``skill``."""
    if skill is None or drill.unit_length() > 1:
        return drill.question_at(seed, context, position)
    question = drill.deal_for(random.Random(seed), context, skill)
    if question is None:
        return drill.question_at(seed, context, position)
    if dataclasses.is_dataclass(question) and not isinstance(question, type):
        return dataclasses.replace(question, seed=seed)
    question = dict(question)
    question["kind"] = drill.slug
    question["seed"] = seed
    return question
