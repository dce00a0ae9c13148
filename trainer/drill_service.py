"""Drill sessions on the server: start one, issue its questions, grade and record answers.

No Flask request objects here: the web layer (``trainer.web.drills``) and later the
certification scheduler call these functions with plain ids and values.

The server owns the question and the clock. A question is generated from a seed
drawn here and stored as an ``IssuedQuestion`` with the server time it was issued;
its answer key is never stored or sent before the answer: ``answer_question``
works it out again from the seed and records one ``Attempt`` row, in one
transaction, holding the seed and context so the attempt replays and re-grades.

Modes:

- ``practice``: no clock; a "Why?" hint names the rule family; feedback per question.
- ``timed``: the group's time limit per question; feedback per question.
- ``exam``: a sealed certification exam: timed, fixed length, no hint and no
  feedback per question (an answer returns only "recorded"); the summary at the end.
"""
from __future__ import annotations

import secrets
import statistics
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError

from trainer.engine.drills import DRILLS, DrillContext, Grade, get_drill, new_question
from trainer.engine.profiles import FoulPolicy
from trainer.extensions import db
from trainer.models import (
    DEFAULT_HOUSE_WAY,
    DEFAULT_PROFILE,
    Attempt,
    DrillSession,
    IssuedQuestion,
    User,
    utcnow,
)

MODES = ("practice", "timed", "exam")
DEFAULT_LENGTH = 20
MAX_LENGTH = 200
# Allowance for the question's trip to the browser and the answer's trip back:
# an answer is late only once the limit plus this grace has passed on the server.
GRACE_MS = 1000
# How many of a trainee's latest missed rules "my mistakes" draws from.
MISTAKE_RULES = 5
MISTAKE_LOOKBACK = 50

# A well-formed answer for each drill kind, graded only to learn the answer key
# when the trainee gave no usable answer (the clock ran out).
_PROBES: dict[str, Any] = {
    "house-way": lambda q: {"front": q["cards"][:2]},
    "settlement": lambda q: {"positions": [{"outcome": "lose"} for _ in q["positions"]]},
    "action": lambda q: {"seat": 1},
    "hand-reading": lambda q: (
        {"category": "high_card"} if q.get("mode") == "category" else {"winner": "a"}
    ),
    "foul-check": lambda q: {"fouled": False},
    "round": lambda q: get_drill("round").probe(q),
}


def _steps(kind: str) -> int:
    """Return how many questions make one unit of a drill: a round's steps, else 1."""
    return len(getattr(get_drill(kind), "steps", ())) or 1


def _step_question(kind: str, seed: int, context: DrillContext, position: int) -> dict[str, Any]:
    """Generate the question at ``position``; a multi-step drill's steps share the seed."""
    question = new_question(kind, seed, context)
    steps = _steps(kind)
    if steps > 1:
        question = get_drill(kind).at_step(question, (position - 1) % steps, context)
    return question


class DrillError(Exception):
    """A request the drill service refuses; ``status`` is the HTTP code to answer with."""

    status = 400


class SessionNotFound(DrillError):
    """The session or question does not exist, or belongs to someone else."""

    status = 404


class AlreadyAnswered(DrillError):
    """The question already has its recorded attempt."""

    status = 409


class MalformedAnswer(DrillError):
    """The answer cannot be graded; the message says why, in the trainee's words."""

    status = 400


class SessionFinished(DrillError):
    """Every question of the session has been issued and answered."""

    status = 409


@dataclass(frozen=True)
class DrillSettings:
    """The settings a user's drills run under: their group's, or the defaults."""

    house_way: str = DEFAULT_HOUSE_WAY
    profile: str = DEFAULT_PROFILE
    foul_policy: FoulPolicy | None = None
    group_id: int | None = None
    drills: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def for_user(cls, user_id: int) -> DrillSettings:
        """Read the settings of the user's group; a user with no group gets the defaults."""
        user = db.session.get(User, user_id)
        group = user.group if user is not None else None
        if group is None:
            return cls()
        settings = group.settings or {}
        return cls(
            house_way=group.house_way,
            profile=group.profile,
            foul_policy=_foul_policy(settings.get("foul_policy")),
            group_id=group.id,
            drills=dict(settings.get("drills") or {}),
        )

    def length(self, kind: str) -> int:
        """Return the number of questions in a session of ``kind``."""
        value = (self.drills.get(kind) or {}).get("length")
        return _bounded(value, 1, MAX_LENGTH, DEFAULT_LENGTH)

    def time_limit_s(self, kind: str) -> int:
        """Return the time limit per question of ``kind``, in seconds."""
        value = (self.drills.get(kind) or {}).get("time_limit_s")
        return _bounded(value, 1, 600, get_drill(kind).default_time_limit_s)


def _foul_policy(value: Any) -> FoulPolicy | None:
    """Return a known foul policy as the engine's enum, else None (the profile's own)."""
    try:
        return FoulPolicy(value) if value else None
    except ValueError:
        return None


def _context(data: dict[str, Any]) -> DrillContext:
    """Rebuild a stored DrillContext.

    The engine's ``DrillContext.table`` needs the foul policy as a ``FoulPolicy``
    member (a plain string breaks ``as_dict``), so it is converted here.
    """
    context = DrillContext.from_dict(data)
    return DrillContext(context.house_way, context.profile,
                        _foul_policy(context.foul_policy), context.focus_rules)


def _bounded(value: Any, low: int, high: int, default: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return default
    return value


@dataclass(frozen=True)
class IssuedView:
    """What the browser may see of an issued question, and the clock's state."""

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
    hint: str | None


def missed_rules(user_id: int, kind: str, limit: int = MISTAKE_RULES) -> tuple[str, ...]:
    """Return the rule ids this user missed most recently in drills of ``kind``."""
    rows = db.session.execute(
        db.select(Attempt.rule_id)
        .filter_by(user_id=user_id, kind=kind, correct=False)
        .filter(Attempt.rule_id.is_not(None))
        .order_by(Attempt.answered_at.desc(), Attempt.id.desc())
        .limit(MISTAKE_LOOKBACK)
    ).scalars()
    rules: list[str] = []
    for rule in rows:
        if rule not in rules:
            rules.append(rule)
        if len(rules) == limit:
            break
    return tuple(rules)


def start_session(
    user_id: int,
    kind: str,
    mode: str = "practice",
    settings: DrillSettings | None = None,
    *,
    focus_rules: tuple[str, ...] = (),
    length: int | None = None,
    time_limit_s: int | None = None,
) -> int:
    """Start a drill session for a user and return its id.

    ``settings`` default to the user's group's (``DrillSettings.for_user``);
    ``length`` and ``time_limit_s`` override the group's for this session (a
    certification exam fixes both). ``focus_rules`` are rule ids to draw
    questions from ("my mistakes"). Practice has no clock; timed and exam do.
    """
    if kind not in DRILLS:
        raise DrillError(f"There is no drill called {kind!r}.")
    if mode not in MODES:
        raise DrillError(f"There is no drill mode called {mode!r}.")
    settings = settings or DrillSettings.for_user(user_id)
    length = length if length is not None else settings.length(kind)
    steps = _steps(kind)
    if steps > 1 and length % steps:
        # Whole rounds only: round the number of questions up (down at the maximum).
        length += steps - length % steps
        if length > MAX_LENGTH:
            length -= steps
    if not 1 <= length <= MAX_LENGTH:
        raise DrillError(f"A session has 1 to {MAX_LENGTH} questions.")
    limit_s = time_limit_s if time_limit_s is not None else settings.time_limit_s(kind)
    session = DrillSession(
        user_id=user_id,
        group_id=settings.group_id,
        kind=kind,
        mode=mode,
        length=length,
        time_limit_ms=None if mode == "practice" else limit_s * 1000,
        house_way=settings.house_way,
        profile=settings.profile,
        started_at=utcnow(),
    )
    db.session.add(session)
    db.session.flush()
    context = DrillContext(
        settings.house_way, settings.profile, _foul_policy(settings.foul_policy),
        tuple(focus_rules),
    )
    # The first question carries the session's context and every later one copies
    # it; its clock starts only when the drill page first asks for it.
    _issue(session, 1, context.as_dict(), start_clock=False)
    db.session.commit()
    return session.id


def get_session(user_id: int, session_id: int) -> DrillSession:
    """Return the user's session, or raise SessionNotFound for anyone else's."""
    session = db.session.get(DrillSession, session_id)
    if session is None or session.user_id != user_id:
        raise SessionNotFound("There is no such drill session of yours.")
    return session


def _issued(session_id: int, position: int) -> IssuedQuestion | None:
    return db.session.execute(
        db.select(IssuedQuestion).filter_by(session_id=session_id, position=position)
    ).scalar_one_or_none()


def _last_issued(session_id: int) -> IssuedQuestion | None:
    return db.session.execute(
        db.select(IssuedQuestion)
        .filter_by(session_id=session_id)
        .order_by(IssuedQuestion.position.desc())
        .limit(1)
    ).scalar_one_or_none()


def _answered(session_id: int, position: int) -> bool:
    return db.session.execute(
        db.select(Attempt.id).filter_by(session_id=session_id, position=position)
    ).first() is not None


def _issue(
    session: DrillSession, position: int, context: dict[str, Any], start_clock: bool = True
) -> IssuedQuestion:
    step = (position - 1) % _steps(session.kind)
    first = _issued(session.id, position - step) if step else None
    # A round's later steps replay the round dealt for its first step.
    seed = first.seed if first is not None else secrets.randbits(63)
    drill_context = _context(context)
    question = _step_question(session.kind, seed, drill_context, position)
    issued = IssuedQuestion(
        session_id=session.id,
        position=position,
        seed=seed,
        question=question,
        context=context,
        rule_id=get_drill(session.kind).rule_of(question, drill_context),
        issued_at=utcnow() if start_clock else None,
    )
    db.session.add(issued)
    db.session.flush()
    return issued


def issue_question(user_id: int, session_id: int) -> IssuedView | None:
    """Return the session's current question, issuing the next one when due; None when done.

    A question already issued and not yet answered is returned again with its
    original clock, so reloading the page neither skips a question nor resets the time.
    """
    session = get_session(user_id, session_id)
    last = _last_issued(session.id)
    if last is None:
        raise SessionNotFound("This drill session has no questions.")
    if last.issued_at is None:
        last.issued_at = utcnow()
        db.session.commit()
    elif _answered(session.id, last.position):
        if last.position >= session.length:
            return None
        try:
            last = _issue(session, last.position + 1, last.context)
            db.session.commit()
        except IntegrityError:
            # Another tab issued this position first: show that one.
            db.session.rollback()
            last = _last_issued(session.id)
    return _view(session, last)


def _view(session: DrillSession, issued: IssuedQuestion) -> IssuedView:
    remaining = None
    if session.time_limit_ms is not None:
        remaining = max(0, session.time_limit_ms - _elapsed_ms(issued.issued_at, utcnow()))
    shown = {k: v for k, v in issued.question.items() if k != "seed"}
    hint = None
    if session.mode == "practice" and issued.rule_id:
        hint = issued.rule_id.split(".", 1)[0]
    return IssuedView(
        session_id=session.id,
        position=issued.position,
        length=session.length,
        kind=session.kind,
        mode=session.mode,
        question=shown,
        context=issued.context,
        issued_at=issued.issued_at,
        time_limit_ms=session.time_limit_ms,
        remaining_ms=remaining,
        hint=hint,
    )


def _elapsed_ms(start: datetime, end: datetime) -> int:
    return max(0, int((end - start).total_seconds() * 1000))


@dataclass(frozen=True)
class AnswerResult:
    """The outcome of one recorded answer; exams show only that it was recorded."""

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
    answer: Any
    question: dict[str, Any]
    grade: Grade

    @property
    def sealed(self) -> bool:
        """Tell whether the result must stay hidden until the end (an exam)."""
        return self.mode == "exam"

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
        grade = self.grade.as_dict()
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
        return data


def answer_question(user_id: int, session_id: int, position: int, answer: Any) -> AnswerResult:
    """Grade and record one answer, once; refuse another's, a repeat or a malformed one.

    ``answer`` None means the browser's clock ran out with no answer: in a timed
    session or exam it is recorded as timed out. An answer that reaches the server
    after the time limit plus ``GRACE_MS`` is recorded as timed out and incorrect.
    """
    now = utcnow()
    session = get_session(user_id, session_id)
    if isinstance(position, bool) or not isinstance(position, int):
        raise MalformedAnswer("The question number is missing.")
    issued = _issued(session.id, position)
    if issued is None or issued.issued_at is None:
        raise SessionNotFound("There is no such question in this session.")
    if _answered(session.id, position):
        raise AlreadyAnswered("This question is already answered.")
    elapsed = _elapsed_ms(issued.issued_at, now)
    limit = session.time_limit_ms
    late = limit is not None and elapsed > limit + GRACE_MS
    if answer is None and limit is None:
        raise MalformedAnswer("Choose an answer first.")
    drill = get_drill(session.kind)
    context = _context(issued.context)
    timed_out = late or answer is None
    grade = None
    if answer is not None:
        try:
            grade = drill.grade(issued.question, answer, context)
        except ValueError as error:
            if not timed_out:
                raise MalformedAnswer(str(error)) from error
        except (KeyError, TypeError, AttributeError) as error:
            if not timed_out:
                raise MalformedAnswer("The answer has the wrong form.") from error
    if grade is None:
        grade = drill.grade(issued.question, _PROBES[session.kind](issued.question), context)
    if timed_out:
        grade = Grade(False, grade.rule_id, grade.correct_answer, grade.explanation,
                      tuple({**part, "correct": False} for part in grade.parts))
    attempt = Attempt(
        session_id=session.id,
        position=position,
        user_id=user_id,
        kind=session.kind,
        seed=issued.seed,
        # The context rides with the question, so the attempt replays on its own.
        question={**issued.question, "context": issued.context},
        answer=answer,
        correct_answer=grade.correct_answer,
        correct=grade.correct,
        timed_out=timed_out,
        rule_id=grade.rule_id,
        issued_at=issued.issued_at,
        answered_at=now,
        elapsed_ms=elapsed,
    )
    finished = position >= session.length
    try:
        db.session.add(attempt)
        if finished:
            session.finished_at = now
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise AlreadyAnswered("This question is already answered.") from None
    return AnswerResult(
        attempt_id=attempt.id,
        session_id=session.id,
        position=position,
        length=session.length,
        kind=session.kind,
        mode=session.mode,
        finished=finished,
        correct=grade.correct,
        timed_out=timed_out,
        elapsed_ms=elapsed,
        answer=answer,
        question=issued.question,
        grade=grade,
    )


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


def summary(session_id: int, user_id: int | None = None) -> Summary:
    """Sum up a session; with ``user_id``, only that user's own session."""
    session = (get_session(user_id, session_id) if user_id is not None
               else db.session.get(DrillSession, session_id))
    if session is None:
        raise SessionNotFound("There is no such drill session.")
    attempts = list(session.attempts)
    score = sum(a.correct for a in attempts)
    mistakes = [a for a in attempts if not a.correct]
    rules = Counter(a.rule_id for a in mistakes if a.rule_id)
    return Summary(
        session_id=session.id,
        kind=session.kind,
        mode=session.mode,
        length=session.length,
        answered=len(attempts),
        score=score,
        accuracy=score / len(attempts) if attempts else None,
        median_ms=int(statistics.median(a.elapsed_ms for a in attempts)) if attempts else None,
        finished=session.finished_at is not None,
        mistakes=mistakes,
        rules_missed=sorted(rules.items(), key=lambda item: (-item[1], item[0])),
    )


def answer_key(question: dict[str, Any], context: DrillContext) -> dict[str, Any]:
    """Return the right answer to a question (for replays, reports and tests)."""
    kind = question["kind"]
    return get_drill(kind).grade(question, _PROBES[kind](question), context).correct_answer


def regrade(attempt: Attempt) -> Grade:
    """Replay an attempt's question from its seed and grade its answer again."""
    context = _context(attempt.question.get("context", {}))
    question = _step_question(attempt.kind, attempt.seed, context, attempt.position)
    answer = attempt.answer if attempt.answer is not None else _PROBES[attempt.kind](question)
    return get_drill(attempt.kind).grade(question, answer, context)
