"""Stored attempts made safe to show, whatever a row holds.

Every page that shows a recorded question or answer (the supervisor's trainee
page and replays, the trainee's results and summaries) reads it through
``shown_attempt``: a question is shown when its drill can still grade it, an
answer when it fits the drill's answer schema (``Drill.validate_answer``),
normalized. Anything else, such as rows written before answers had a schema, is
marked unreadable and shown only as a short JSON excerpt, never interpreted.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from trainer.engine.drills import DRILLS, Drill, DrillContext
from trainer.engine.drills.explain import Feedback
from trainer.engine.house_way import HouseWayError
from trainer.services.drills.context import context_from_json
from trainer.services.drills.store import split_attempt_question

# How much of an unreadable question or answer is shown.
EXCERPT = 160
# What reading a malformed row may raise, from the schema, the engine or plain junk.
UNREADABLE_ERRORS = (ValueError, LookupError, TypeError, AttributeError, ArithmeticError)


def excerpt(value: Any) -> str:
    """Return a short JSON text of any stored value."""
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= EXCERPT else text[:EXCERPT] + "…"


def stored_context(question: Any) -> DrillContext:
    """Return the drill context stored with an attempt's question (its house way resolved:
    ``drills.context_from_json``), or the defaults when it cannot be read."""
    data = question.get("context") if isinstance(question, dict) else None
    if not isinstance(data, dict):
        return DrillContext()
    try:
        return context_from_json(data)
    except (*UNREADABLE_ERRORS, HouseWayError):
        return DrillContext()


def _read(kind: str, question: Any) -> tuple[Drill, Any, DrillContext] | None:
    """Read a stored attempt's question through its drill (``read_question``) with the
    context stored inside it; None when its drill can no longer grade it."""
    drill = DRILLS.get(kind) if isinstance(kind, str) else None
    if drill is None or not isinstance(question, dict):
        return None
    try:
        value = drill.read_question(split_attempt_question(question)[0])
        context = stored_context(question)
        drill.answer_key(value, context)
    except UNREADABLE_ERRORS:
        return None
    return drill, value, context


@dataclass(frozen=True)
class ShownAnswer:
    """A stored answer as a page may show it: none, readable (normalized) or unreadable."""

    answer: dict[str, Any] | None
    unreadable: bool = False
    raw: str = ""


@dataclass(frozen=True)
class ShownAttempt:
    """A stored question and answer as a page may show them."""

    question: dict[str, Any] | None
    question_raw: str
    given: ShownAnswer


def _shown_answer(read: tuple[Drill, Any, DrillContext] | None, answer: Any
                  ) -> tuple[ShownAnswer, Any]:
    """Return the answer as a page shows it (its JSON, normalized) and as its drill reads it.

    The group's foul policy is not applied: an answer well-formed under any policy is shown.
    """
    if answer is None:
        return ShownAnswer(None), None
    if read is not None:
        drill, question, _context = read
        try:
            value = drill.read_answer(question, answer, None)
            return ShownAnswer(drill.answer_json(value)), value
        except UNREADABLE_ERRORS:
            pass
    return ShownAnswer(None, unreadable=True, raw=excerpt(answer)), None


def _with_seats(question: dict[str, Any], answer: Any) -> Any:
    """Name each settled position of an answer by its seat, as the question does ("Seat 2",
    never "Position 1" beside it; issue 26): answers are stored in the question's order."""
    seats = question.get("positions")
    given = answer.get("positions") if isinstance(answer, dict) else None
    if not isinstance(seats, list) or not isinstance(given, list) or len(seats) != len(given):
        return answer
    return {**answer, "positions": [
        {**p, "seat": s["seat"]} if isinstance(p, dict) and isinstance(s, dict) and "seat" in s else p
        for p, s in zip(given, seats, strict=True)]}


def shown_attempt(kind: str, question: Any, answer: Any) -> ShownAttempt:
    """Return what a page may show of an attempt's question and answer."""
    read = _read(kind, question)
    readable = question if read is not None else None
    given = _shown_answer(read, answer)[0]
    if readable is not None and given.answer is not None:
        given = replace(given, answer=_with_seats(readable, given.answer))
    return ShownAttempt(readable, excerpt(question), given)


def attempt_feedback(kind: str, question: Any, answer: Any, timed_out: bool = False
                     ) -> Feedback | None:
    """Return a stored attempt's feedback in words, as the trainee got it; None if unreadable.

    The question is graded again under the context stored with it (old rows of
    generator 1 included); an answer that does not fit the drill counts as none.
    """
    read = _read(kind, question)
    if read is None:
        return None
    drill, value, context = read
    given = _shown_answer(read, answer)[1]
    try:
        return drill.feedback(value, given, context, timed_out=timed_out)
    except UNREADABLE_ERRORS:
        return None
