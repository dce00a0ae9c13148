"""What the drill sessions hand to the web: a question to show, an answer's result, a summary.

JSON where the page draws it (a question's ``shown_json``, an answer's and a key's JSON),
the engine's own values where the web words them (``Grade``, ``Feedback``, a hint).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from trainer.engine.drills import Grade
from trainer.engine.drills.explain import Feedback, Text
from trainer.models import Attempt


@dataclass(frozen=True)
class IssuedView:
    """What the browser may see of an issued question, and the clock's state (JSON at the edge)."""

    session_id: int
    position: int
    length: int
    kind: str
    mode: str
    question: dict[str, Any]
    context: dict[str, Any]
    issued_at: datetime
    time_limit_ms: int | None
    remaining_ms: int | None
    # A sentence of the engine's (``explain.hint``), said in the reader's language by the web.
    hint: Text | None


@dataclass(frozen=True)
class AnswerResult:
    """The outcome of one recorded answer; exams show only that it was recorded.

    ``question``, ``answer`` and ``correct_answer`` are JSON (the page draws them);
    ``grade`` and ``feedback`` are the engine's.
    """

    attempt_id: int
    session_id: int
    position: int
    length: int
    kind: str
    mode: str
    finished: bool
    correct: bool
    timed_out: bool
    elapsed_ms: int
    answer: dict[str, Any] | None
    question: dict[str, Any]
    grade: Grade
    correct_answer: dict[str, Any]
    # The answer in words (what was said, what was right, why); None in an exam.
    feedback: Feedback | None = None

    @property
    def sealed(self) -> bool:
        """Tell whether the result must stay hidden until the end (an exam)."""
        return self.mode == "exam"

    @property
    def grade_json(self) -> dict[str, Any]:
        """Return the grade's JSON (``Grade.as_dict`` with the key in JSON), for the page."""
        return {**self.grade.as_dict(), "correct_answer": self.correct_answer}

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON the browser gets: everything, or for an exam only "recorded"."""
        data: dict[str, Any] = {
            "status": "recorded",
            "position": self.position,
            "length": self.length,
            "finished": self.finished,
        }
        if self.sealed:
            return data
        grade = self.grade_json
        data.update(
            correct=self.correct,
            timed_out=self.timed_out,
            elapsed_ms=self.elapsed_ms,
            rule_id=grade["rule_id"],
            family=grade["family"],
            correct_answer=grade["correct_answer"],
            explanation=grade["explanation"],
            parts=grade["parts"],
        )
        if self.feedback is not None:
            data["feedback"] = self.feedback.as_dict()
        return data


@dataclass(frozen=True)
class Summary:
    """A session's score, accuracy, median time, mistakes and rules missed."""

    session_id: int
    kind: str
    mode: str
    length: int
    answered: int
    score: int
    accuracy: float | None
    median_ms: int | None
    finished: bool
    mistakes: list[Attempt]
    rules_missed: list[tuple[str, int]]
