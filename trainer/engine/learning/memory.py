"""A skill's memory: the pinned FSRS scheduler, the rating of one answer, review and recall.

The scheduler is PyPI ``fsrs`` 6.3.2 (pinned: a new release can change its default
weights, and a stored memory must keep meaning the same) with its default parameters
and desired retention 0.9, fuzzing off so that a review replays exactly. A skill's
memory is a ``CardState``: the library's card without its id, as plain values the
services store (``as_json`` / ``from_json``, a compact JSON text whose floats are
Python's exact ``repr``, so a memory stored and read back reviews exactly as one kept
in memory; tested against an uninterrupted run of the library).

The rating of an answer (``rating``; docs/learning.md, "In the app"):

- wrong, or timed out: **Again**;
- right, but slower than the criterion time: **Hard**;
- right in under half the criterion time: **Easy**;
- right otherwise, or with no criterion time known: **Good**.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import IntEnum
from typing import Any

from fsrs import Card, Rating, Scheduler, State

DESIRED_RETENTION = 0.9
# The library's state of a card past its learning steps (its "Review" state).
REVIEW = int(State.Review)
# A skill's recent miss rate (``recent_miss``): before any answer, and the weight of each
# new answer in it (an exponentially weighted average of the latest answers' misses).
PRIOR_MISS = 1 / 3
RECENT_WEIGHT = 0.2
# The library's default parameters; no fuzz, so a review replays.
SCHEDULER = Scheduler(desired_retention=DESIRED_RETENTION, enable_fuzzing=False)


class Grade(IntEnum):
    """The four FSRS ratings, by the library's numbers."""

    AGAIN = int(Rating.Again)
    HARD = int(Rating.Hard)
    GOOD = int(Rating.Good)
    EASY = int(Rating.Easy)


def rating(correct: bool, timed_out: bool, elapsed_ms: int, criterion_ms: int | None) -> Grade:
    """Rate one graded answer: Again when wrong or timed out; Hard when right but slower than
    ``criterion_ms``; Easy when right in under half of it; Good otherwise (and when None)."""
    if timed_out or not correct:
        return Grade.AGAIN
    if criterion_ms is None or criterion_ms <= 0:
        return Grade.GOOD
    if elapsed_ms > criterion_ms:
        return Grade.HARD
    if elapsed_ms * 2 < criterion_ms:
        return Grade.EASY
    return Grade.GOOD


def recent_miss(previous: float | None, missed: bool) -> float:
    """Return a skill's recent miss rate after one more answer (``previous`` None: unseen)."""
    start = PRIOR_MISS if previous is None else previous
    return start + RECENT_WEIGHT * (float(missed) - start)


def _utc(when: datetime) -> datetime:
    """Return ``when`` in the tz the library insists on (``timezone.utc`` itself)."""
    if when.tzinfo is None or when.utcoffset() is None:
        raise ValueError("A review's time must be an aware datetime.")
    return when.astimezone(UTC)


@dataclass(frozen=True, slots=True)
class CardState:
    """One skill's FSRS memory: the library's card, without its id (it schedules nothing)."""

    state: int
    step: int | None
    stability: float | None
    difficulty: float | None
    due: datetime
    last_review: datetime | None

    def card(self) -> Card:
        """Return the library's card of this memory."""
        return Card(card_id=0, state=State(self.state), step=self.step,
                    stability=self.stability, difficulty=self.difficulty,
                    due=self.due, last_review=self.last_review)

    @classmethod
    def of(cls, card: Card) -> CardState:
        """Return the memory a library card holds."""
        return cls(int(card.state), card.step, card.stability, card.difficulty,
                   _utc(card.due), None if card.last_review is None else _utc(card.last_review))

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON form stored (floats as Python writes them: exact)."""
        return {"state": self.state, "step": self.step, "stability": self.stability,
                "difficulty": self.difficulty, "due": self.due.isoformat(),
                "last_review": None if self.last_review is None else self.last_review.isoformat()}

    def as_json(self) -> str:
        """Return the compact JSON text stored."""
        return json.dumps(self.as_dict(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_dict(cls, data: Any) -> CardState:
        """Read a stored memory; ValueError for anything that is not one."""
        if not isinstance(data, dict):
            raise ValueError("A stored memory must be a JSON object.")
        try:
            state = int(data["state"])
            State(state)
            step = data.get("step")
            stability, difficulty = data.get("stability"), data.get("difficulty")
            due = _utc(datetime.fromisoformat(str(data["due"])))
            last = data.get("last_review")
            return cls(state, None if step is None else int(step),
                       None if stability is None else float(stability),
                       None if difficulty is None else float(difficulty), due,
                       None if last is None else _utc(datetime.fromisoformat(str(last))))
        except (KeyError, TypeError) as error:
            raise ValueError(f"A stored memory is missing a field: {error}") from None

    @classmethod
    def from_json(cls, text: str) -> CardState:
        """Read the JSON text ``as_json`` wrote."""
        return cls.from_dict(json.loads(text))


def review(memory: CardState | None, grade: Grade, when: datetime) -> CardState:
    """Return the memory after one answer rated ``grade`` at ``when`` (None: never seen)."""
    when = _utc(when)
    card = memory.card() if memory is not None else Card(card_id=0, due=when)
    reviewed, _log = SCHEDULER.review_card(card, Rating(int(grade)), when)
    return CardState.of(reviewed)


def recall(memory: CardState | None, when: datetime) -> float:
    """Return FSRS's predicted probability of recall at ``when`` (0 when never seen).

    The library counts whole days since the last review, so a skill answered today
    recalls 1.0 until tomorrow whatever happened (docs/learning.md, "Calibration").
    """
    if memory is None or memory.last_review is None or memory.stability is None:
        return 0.0
    return float(SCHEDULER.get_card_retrievability(memory.card(), _utc(when)))


def stability_for(accuracy: float, days: float = 1.0) -> float:
    """Return the stability (days) at which recall ``days`` after a review is ``accuracy``.

    FSRS's forgetting curve ``R(t) = (1 + FACTOR * t / S) ** DECAY`` solved for ``S``.
    """
    if not 0 < accuracy < 1:
        raise ValueError("An accuracy to reach is between 0 and 1.")
    decay = -float(SCHEDULER.parameters[20])
    factor: float = 0.9 ** (1 / decay) - 1
    reach: float = accuracy ** (1 / decay) - 1
    return factor * days / reach
