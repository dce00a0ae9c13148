"""Replay and regrade: an attempt dealt again from its seed and graded again.

An attempt's row holds its seed and, inside its question's JSON, the context it was
graded under (``DrillContext.as_dict``), so it replays on its own: the context is read
back with its house way resolved by the name and rules digest it records
(``context.context_from_json``: a preset as it was, a superseded version), the
question is dealt again by the drill (a round's step as it was shown), and the stored
answer is read through the drill (``read_answer``) and graded. Every attempt stored
before a change replays and re-grades to its stored grade; the supervisor's replay
page and the tests compare them.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from trainer.engine.drills import DrillContext, Grade, get_drill
from trainer.engine.learning.dealing import dealt_for, question_for
from trainer.engine.messages import N_, Joined, Message
from trainer.models import Attempt
from trainer.models.classroom import CLASS_SESSIONS
from trainer.services.drills.context import context_from_json
from trainer.services.drills.store import split_attempt_question


def _stored(attempt: Attempt) -> tuple[Any, DrillContext]:
    """Deal an attempt's question again from its seed and the context stored with it.

    A live class's hand (a session dealt ``CLASS_SESSIONS``, issue 31) may have been dealt
    for a rule or typed in by the instructor, not by the kind's generator: it is the
    question as stored, read through the drill. A question dealt for a skill (practice that
    adapts, one rule's practice; issue 30) is dealt again for the skill its context names.
    """
    question, context_json = split_attempt_question(attempt.question)
    context = context_from_json(context_json)
    drill = get_drill(attempt.kind)
    if attempt.session.dealt == CLASS_SESSIONS:
        return drill.read_question(question), context
    return question_for(drill, attempt.seed, context, attempt.position,
                        dealt_for(context_json)), context


def replay_question(attempt: Attempt) -> dict[str, Any]:
    """Return an attempt's question dealt again from its seed and context, as JSON (its
    ``question_json``: what the row stores, without the context), a round's step as shown."""
    question, _context = _stored(attempt)
    return get_drill(attempt.kind).question_json(question)


def regrade(attempt: Attempt) -> Grade:
    """Replay an attempt's question from its seed and grade its stored answer again.

    The grade's ``correct_answer`` is the key's JSON, as the attempt's row stores it, so
    it compares with the row and a page draws it. A stored answer that does not fit the
    drill's answer schema (a row written before answers had one) is graded as wrong,
    with a note, instead of raising.
    """
    drill = get_drill(attempt.kind)
    question, context = _stored(attempt)
    if attempt.answer is None:
        grade = drill.answer_key(question, context)
    else:
        try:
            answer = drill.read_answer(question, attempt.answer, context)
        except ValueError:
            key = drill.answer_key(question, context)
            grade = replace(key.timed_out(), explanation=Joined([
                key.explanation,
                Message(N_("The stored answer cannot be read, so it counts as wrong."))]))
        else:
            grade = drill.grade(question, answer, context)
    return replace(grade, correct_answer=drill.key_json(grade.correct_answer))
