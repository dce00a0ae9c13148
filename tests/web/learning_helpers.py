"""Helpers of the practice-that-adapts tests (issue 30): a clock the test moves, and answers.

The drill service is called directly (as the web's views call it), in an app context, with
``sessions.utcnow`` replaced by a ``Clock``, so every answer's time is the test's.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from trainer.engine.drills import get_drill
from trainer.extensions import db
from trainer.models import IssuedQuestion
from trainer.services import drills as drill_service
from trainer.services.drills import sessions

START = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)


@dataclass
class Clock:
    """The time the drill service reads; the test moves it."""

    now: datetime = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def service_clock(monkeypatch: pytest.MonkeyPatch, start: datetime = START) -> Clock:
    """Return a ``Clock`` from ``start`` that the drill service reads (``sessions.utcnow``)."""
    found = Clock(start)
    monkeypatch.setattr(sessions, "utcnow", found)
    return found


def issued_row(session_id: int, position: int) -> IssuedQuestion:
    return db.session.execute(db.select(IssuedQuestion).filter_by(
        session_id=session_id, position=position)).scalar_one()


def answer_for(session_id: int, position: int, right: bool, rng: random.Random) -> Any:
    """Return a well-formed answer to an issued question, right or wrong (engine-made)."""
    row = issued_row(session_id, position)
    kind = row.question["kind"]
    drill = get_drill(kind)
    context = drill_service.context_from_json(row.context)
    question = drill.read_question(row.question)
    if right:
        return _right(drill, question, context)
    return drill.answer_json(drill.wrong_answer(question, context, rng))


def _right(drill: Any, question: Any, context: Any) -> Any:
    """The right answer: a fixed answer the grader marks right, else the key as an answer."""
    choices = drill.answer_choices(question, context) or {}
    for answer in choices.values():
        if drill.grade(question, answer, context).correct:
            return drill.answer_json(answer)
    key = drill.key_json(drill.answer_key(question, context).correct_answer)
    if "front" in key:
        return {"front": key["front"]}
    return key


def play(user_id: int, session_id: int, clock: Clock, right: Any, seconds: float = 5.0,
         rng: random.Random | None = None) -> list[dict[str, Any]]:
    """Answer a whole session: ``right(rule_id, position) -> bool``; each answer ``seconds``
    after its question is shown. Return what was asked: position, rule and rightness."""
    rng = rng or random.Random(1)
    asked = []
    while True:
        view = drill_service.issue_question(user_id, session_id)
        if view is None:
            return asked
        row = issued_row(session_id, view.position)
        wanted = bool(right(row.rule_id, view.position))
        clock.advance(seconds)
        result = drill_service.answer_question(user_id, session_id, view.position,
                                               answer_for(session_id, view.position, wanted, rng))
        assert result.correct is wanted, (row.rule_id, wanted)
        asked.append({"position": view.position, "rule_id": row.rule_id, "right": wanted,
                      "dealt_for": row.context.get("dealt_for")})
