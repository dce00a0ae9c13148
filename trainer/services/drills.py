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

How a session is dealt (``DrillSession.dealt``, ``DEALT``) is apart from its mode:
``balanced`` sessions draw from the normal generator; ``mistakes`` ("my mistakes")
and ``focused`` sessions draw from chosen rules and are practice only, whatever the
mode: a timed one keeps its clock, but no criterion window counts it (issue 24).
"""
from __future__ import annotations

import functools
import logging
import secrets
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from sqlalchemy import and_, bindparam, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased

from trainer.engine.drills import DRILLS, DrillContext, Grade, get_drill, new_question
from trainer.engine.drills.explain import Feedback, Text
from trainer.engine.house_way import HouseWayError
from trainer.engine.messages import N_, Joined, Message
from trainer.engine.profiles import FoulPolicy, TableProfile
from trainer.extensions import commit_keeping_state, db
from trainer.models import (
    DEFAULT_HOUSE_WAY,
    DEFAULT_PROFILE,
    Attempt,
    CertificationExam,
    DrillSession,
    IssuedQuestion,
    User,
    utcnow,
)
from trainer.models.types import parse_id
from trainer.services import house_ways, profiles
from trainer.services.certification.sealing import exam_time_over_by, without_sealed
from trainer.services.group_settings import MAX_LENGTH, GroupSettings
from trainer.services.group_settings import foul_policy as _foul_policy
from trainer.services.timing import GRACE_MS

MODES = ("practice", "timed", "exam")
# How a session is dealt: the normal, balanced generator, the only one that counts
# toward readiness; "my mistakes"; any other focused practice.
DEALT = ("balanced", "mistakes", "focused")
# How many of a trainee's latest missed rules "my mistakes" draws from.
MISTAKE_RULES = 5
MISTAKE_LOOKBACK = 50

# A well-formed answer for each drill kind (the drill's own ``probe``), graded only
# to learn the answer key when the trainee gave no usable answer (the clock ran out).
_PROBES: dict[str, Any] = {slug: drill.probe for slug, drill in DRILLS.items()}


def _steps(kind: str) -> int:
    """Return how many questions make one unit of a drill: a round's steps, else 1."""
    return len(get_drill(kind).steps) or 1


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
    """The settings a user's drills run under: their group's, or the defaults.

    ``group`` holds the lengths and time limits (``trainer.services.group_settings``
    owns them); an exam replaces the house way, profile and group with its own.
    """

    house_way: str = DEFAULT_HOUSE_WAY
    profile: str = DEFAULT_PROFILE
    foul_policy: FoulPolicy | None = None
    group_id: int | None = None
    group: GroupSettings = field(default_factory=GroupSettings)
    # The rules digest to grade by (an exam's, kept at scheduling); None: ``pin`` it now.
    house_way_digest: str | None = None
    # The table rules themselves (an exam's, kept at scheduling); None: the profile's now.
    table: TableProfile | None = None

    @classmethod
    def for_user(cls, user_id: int) -> DrillSettings:
        """Read the settings of the user's group; a user with no group gets the defaults."""
        user = db.session.get(User, user_id)
        group = user.group if user is not None else None
        if group is None:
            return cls()
        settings = GroupSettings.of(group)
        return cls(house_way=settings.house_way, profile=settings.profile,
                   foul_policy=settings.foul_policy, group_id=group.id, group=settings)

    def length(self, kind: str) -> int:
        """Return the number of questions in a session of ``kind``."""
        return self.group.length(kind)

    def time_limit_s(self, kind: str) -> int:
        """Return the time limit per question of ``kind``, in seconds."""
        return self.group.time_limit_s(kind)


def _context(data: dict[str, Any]) -> DrillContext:
    """Rebuild a stored DrillContext.

    The engine's ``DrillContext.table`` needs the foul policy as a ``FoulPolicy``
    member (a plain string breaks ``as_dict``), so it is converted here.
    """
    context = DrillContext.from_dict(data)
    return DrillContext(context.house_way, context.profile,
                        _foul_policy(context.foul_policy), context.focus_rules,
                        context.generator, context.custom, context.house_way_digest,
                        context.side_bet_rules)


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
    # A sentence of the engine's (``explain.hint``), said in the reader's language by the web.
    hint: Text | None


def missed_rules(user_id: int, kind: str, limit: int = MISTAKE_RULES) -> tuple[str, ...]:
    """Return the rule ids this user missed most recently in drills of ``kind``.

    Misses in an exam that has not ended are left out: they would tell which were wrong.
    """
    rows = db.session.execute(
        without_sealed(db.select(Attempt.rule_id), user_id)
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


def _table_rules(settings: DrillSettings) -> TableProfile | None:
    """Return the rules a session's context carries: an exam's kept ones, else a custom
    profile's as they are now (None: a preset, which the engine owns)."""
    return settings.table if settings.table is not None else profiles.custom_rules(settings.profile)


def session_length(kind: str, length: int) -> int:
    """Return the questions a session of ``length`` asks: whole rounds of a stepped kind
    (rounded up, down at the maximum), so the drills page says what the session counts."""
    steps = _steps(kind)
    if steps > 1 and length % steps:
        length += steps - length % steps
        if length > MAX_LENGTH:
            length -= steps
    return length


def start_session(
    user_id: int,
    kind: str,
    mode: str = "practice",
    settings: DrillSettings | None = None,
    *,
    focus_rules: tuple[str, ...] = (),
    length: int | None = None,
    time_limit_s: int | None = None,
    dealt: str | None = None,
) -> int:
    """Start a drill session for a user and return its id.

    ``settings`` default to the user's group's (``DrillSettings.for_user``);
    ``length`` and ``time_limit_s`` override the group's for this session (a
    certification exam fixes both). ``focus_rules`` are rule ids to draw
    questions from. ``dealt`` records how the session is dealt (``DEALT``):
    by default ``mistakes`` with focus rules (the web's "my mistakes" is their
    only source), else ``balanced``; ``focused`` names any other targeted
    practice. A session not dealt ``balanced`` is practice only, whatever the
    mode: timed, it keeps its clock, but no readiness or certification window
    counts it (``reports.sql.COUNTED_DEALT``); an exam is always ``balanced``.
    Practice has no clock; timed and exam do.
    """
    if kind not in DRILLS:
        raise DrillError(Message(N_("There is no drill called %(kind)s."), kind=repr(kind)))
    if mode not in MODES:
        raise DrillError(Message(N_("There is no drill mode called %(mode)s."), mode=repr(mode)))
    if dealt is None:
        dealt = "mistakes" if focus_rules else "balanced"
    if dealt not in DEALT or (dealt == "balanced" and focus_rules):
        raise DrillError(Message(N_("There is no way of dealing a session called %(dealt)s."),
                                 dealt=repr(dealt)))
    if mode == "exam" and dealt != "balanced":
        # An exam deals from the normal generator only: chosen rules could be guessed.
        raise DrillError(Message(N_("An exam cannot draw from one trainee's mistakes.")))
    settings = settings or DrillSettings.for_user(user_id)
    length = session_length(kind, length if length is not None else settings.length(kind))
    if not 1 <= length <= MAX_LENGTH:
        raise DrillError(Message(N_("A session has 1 to %(most)s questions."), most=MAX_LENGTH))
    limit_s = time_limit_s if time_limit_s is not None else settings.time_limit_s(kind)
    # The house way's rules digest, recorded with the session and its questions: they
    # grade by these rules even after a preset file changes or a version is superseded.
    try:
        digest = settings.house_way_digest or house_ways.pin(settings.house_way)
    except house_ways.WayError as error:
        raise DrillError(str(error)) from None
    session = DrillSession(
        user_id=user_id,
        group_id=settings.group_id,
        kind=kind,
        mode=mode,
        dealt=dealt,
        length=length,
        time_limit_ms=None if mode == "practice" else limit_s * 1000,
        house_way=settings.house_way,
        house_way_digest=digest,
        profile=settings.profile,
        started_at=utcnow(),
    )
    db.session.add(session)
    db.session.flush()
    # A custom profile's rules (an exam's: those kept at scheduling) ride in the context
    # (services/profiles.py): the session grades by the rules it started under, even
    # after a manager edits the profile.
    context = DrillContext(
        settings.house_way, settings.profile, _foul_policy(settings.foul_policy),
        tuple(focus_rules), custom=_table_rules(settings),
        house_way_digest=digest,
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
        raise SessionNotFound(Message(N_("There is no such drill session of yours.")))
    return session


def _issued(session_id: int, position: int) -> IssuedQuestion | None:
    return db.session.execute(
        db.select(IssuedQuestion).filter_by(session_id=session_id, position=position)
    ).scalar_one_or_none()


@dataclass(slots=True)
class SessionRow:
    """The columns of a drill session that showing and answering a question read.

    A plain row, not the ORM's ``DrillSession``: building ORM objects for the one
    read of a request cost about as much as the read (issue 15). Its two writes
    (the clock's start, the session's end) are Core UPDATEs (``_set_issued_at``,
    ``_set_finished_at``).
    """

    id: int
    user_id: int
    kind: str
    mode: str
    length: int
    time_limit_ms: int | None
    started_at: datetime
    finished_at: datetime | None


@dataclass(slots=True)
class IssuedRow:
    """The columns of an issued question (``IssuedQuestion``) as a plain row."""

    id: int
    session_id: int
    position: int
    seed: int
    question: dict[str, Any]
    context: dict[str, Any]
    rule_id: str | None
    issued_at: datetime | None


@dataclass(frozen=True, slots=True)
class ExamRow:
    """What the exam-time-over rule reads of a session's certification exam."""

    started_at: datetime | None
    length: int
    time_limit_ms: int


class _Loaded(NamedTuple):
    """A session with one of its questions, whether that is answered, and the session's exam row."""

    session: SessionRow
    issued: IssuedRow | None
    answered: bool
    exam: ExamRow | None


_SESSION_COLUMNS = ("id", "user_id", "kind", "mode", "length", "time_limit_ms", "started_at",
                    "finished_at")
_ISSUED_COLUMNS = ("id", "session_id", "position", "seed", "question", "context", "rule_id",
                   "issued_at")
_EXAM_COLUMNS = ("started_at", "length", "time_limit_ms")


def _row_columns() -> list[Any]:
    """Return the columns of a session, its question and its exam, in ``_rows`` order."""
    return [
        *(DrillSession.__table__.c[name] for name in _SESSION_COLUMNS),
        *(IssuedQuestion.__table__.c[name] for name in _ISSUED_COLUMNS),
        CertificationExam.__table__.c.id,
        *(CertificationExam.__table__.c[name] for name in _EXAM_COLUMNS),
    ]


def _rows(row: Any) -> tuple[SessionRow, IssuedRow | None, ExamRow | None]:
    """Split a row of ``_row_columns`` (then anything) into the session, question and exam."""
    session = SessionRow(*row[:8])
    issued = IssuedRow(*row[8:16]) if row[8] is not None else None
    exam = ExamRow(*row[17:20]) if row[16] is not None else None
    return session, issued, exam


@functools.cache
def _load_statement(latest: bool) -> Any:
    """Build, once per process, the read of ``_load``: a session, one question, its exam, its EXISTS.

    The session id (and the position, unless ``latest``) are bound parameters, so a
    request only executes it: building the select anew cost about as much as running it.
    It selects columns, not ORM entities (``SessionRow``, ``IssuedRow``).
    """
    if latest:
        on = IssuedQuestion.session_id == DrillSession.id
    else:
        on = and_(IssuedQuestion.session_id == DrillSession.id,
                  IssuedQuestion.position == bindparam("position"))
    answered = select(Attempt.id).where(
        Attempt.session_id == IssuedQuestion.session_id, Attempt.position == IssuedQuestion.position
    ).exists()
    query = (
        select(*_row_columns(), answered)
        .select_from(DrillSession)
        .outerjoin(IssuedQuestion, on)
        .outerjoin(CertificationExam, CertificationExam.session_id == DrillSession.id)
        .where(DrillSession.id == bindparam("session_id"))
    )
    if latest:
        query = query.order_by(IssuedQuestion.position.desc()).limit(1)
    return query


def _execute(statement: Any, params: dict[str, Any]) -> Any:
    """Run a Core statement of the hot path on the ORM session's own connection and transaction.

    ``db.session.execute`` passes a Core statement through the ORM's execution (its
    events, bind lookup, autoflush and result wrapping): about 0.05 ms a statement of
    the 0.1 it took (issue 15, sixth round). The statement, its transaction and its
    errors (``IntegrityError`` on a repeat) are the same; nothing is autoflushed, and
    the hot path leaves no ORM object pending (its rows are Core rows and dicts).
    """
    return db.session.connection().execute(statement, params)


def _load(user_id: int, session_id: int, position: int | None = None) -> _Loaded:
    """Read, in one statement, the user's session, its question at ``position`` (else its
    latest), whether that is answered, and its exam row; SessionNotFound for anyone else's.

    Showing and answering a question each start with this one read (issue 15: at
    most four statements a request, the sign-in's included).
    """
    params: dict[str, int] = {"session_id": session_id}
    if position is not None:
        params["position"] = position
    row = _execute(_load_statement(position is None), params).first()
    if row is None or row[1] != user_id:
        raise SessionNotFound(Message(N_("There is no such drill session of yours.")))
    session, issued, exam = _rows(row)
    return _Loaded(session, issued, bool(row[20]), exam)


@functools.cache
def _update_statement(table: Any, column: str) -> Any:
    """Build, once per process, ``UPDATE table SET column = :value WHERE id = :row_id``."""
    return table.update().where(table.c.id == bindparam("row_id")).values(
        {column: bindparam("value")})


def _set_issued_at(issued: IssuedRow, when: datetime) -> None:
    """Start a question's clock: one UPDATE (the row is set once the commit holds)."""
    _execute(_update_statement(IssuedQuestion.__table__, "issued_at"),
             {"row_id": issued.id, "value": when})


def _set_finished_at(session: SessionRow, when: datetime) -> None:
    """Mark a session finished: one UPDATE (the row is set once the commit holds)."""
    _execute(_update_statement(DrillSession.__table__, "finished_at"),
             {"row_id": session.id, "value": when})


@functools.cache
def _insert_statement(table: Any) -> Any:
    """Build, once per process, the INSERT of a row of ``table`` (its values bound per call)."""
    return table.insert()


def _insert_row(table: Any, values: dict[str, Any]) -> int:
    """INSERT one new question or attempt and return its id: one statement, as a flush.

    The ORM's flush of one new object cost about 0.3 ms of CPU (the unit of work)
    for the same single INSERT, and building the ORM object itself about 0.03 ms
    (issue 15: a question and an answer in 2 ms), so the row is a dict of its
    values. The columns not given take their defaults, as in a flush. A duplicate
    ``(session_id, position)`` raises ``IntegrityError`` here, as the flush did.
    """
    result: Any = _execute(_insert_statement(table), values)
    return int(result.inserted_primary_key[0])


def _last_issued(session_id: int) -> IssuedRow | None:
    table = IssuedQuestion.__table__
    row = db.session.execute(
        select(*(table.c[name] for name in _ISSUED_COLUMNS))
        .where(table.c.session_id == session_id)
        .order_by(table.c.position.desc())
        .limit(1)
    ).first()
    return IssuedRow(*row) if row is not None else None


def _issue(
    session: DrillSession | SessionRow,
    position: int,
    context: dict[str, Any],
    start_clock: bool = True,
    previous: IssuedRow | None = None,
) -> IssuedRow:
    step = (position - 1) % _steps(session.kind)
    first: IssuedRow | IssuedQuestion | None = None
    if step:
        # The question before a round's later step is in the same round, so has its seed.
        first = previous if previous is not None and previous.position == position - 1 \
            else _issued(session.id, position - step)
    # A round's later steps replay the round dealt for its first step.
    seed = first.seed if first is not None else secrets.randbits(63)
    drill_context = _context(context)
    question = _step_question(session.kind, seed, drill_context, position)
    issued = IssuedRow(
        id=0,
        session_id=session.id,
        position=position,
        seed=seed,
        question=question,
        context=context,
        rule_id=get_drill(session.kind).rule_of(question, drill_context),
        issued_at=utcnow() if start_clock else None,
    )
    values = {name: getattr(issued, name) for name in _ISSUED_COLUMNS[1:]}
    issued.id = _insert_row(IssuedQuestion.__table__, values)
    return issued


def _exam_time_over(session: SessionRow, exam: ExamRow | None) -> bool:
    """Tell whether an exam's time is over: its results are open, so it takes no more answers."""
    if session.mode != "exam" or session.finished_at is not None:
        return False
    return exam_time_over_by(session, exam)


def _overdue(loaded: _Loaded, now: datetime) -> bool:
    """Tell whether the loaded (latest) question is what ``settle_overdue`` would settle.

    The same test as ``_overdue_query`` for one session: unfinished and timed,
    its latest question's clock started, unanswered and past its limit plus the grace.
    """
    session, issued = loaded.session, loaded.issued
    return (
        session.finished_at is None
        and session.time_limit_ms is not None
        and issued is not None
        and issued.issued_at is not None
        and not loaded.answered
        and timeout_deadline(issued.issued_at, session.time_limit_ms) < now
    )


def issue_question(user_id: int, session_id: int) -> IssuedView | None:
    """Return the session's current question, issuing the next one when due; None when done.

    A question already issued and not yet answered is returned again with its
    original clock, so reloading the page neither skips a question nor resets the time;
    once its time is over it is recorded as timed out (``settle_overdue``) and the
    next one is issued.
    """
    loaded = _load(user_id, session_id)
    if _overdue(loaded, utcnow()):
        # What settle_overdue(session_id=...) finds, found by the read above instead
        # of a query of its own; when another request settled it first, read again.
        assert loaded.issued is not None
        if _settle(loaded.session, loaded.issued, keep_state=True):
            log.info("Recorded 1 unanswered question(s) as timed out.")
            loaded = loaded._replace(answered=True)
        else:
            loaded = _load(user_id, session_id)
    session, last = loaded.session, loaded.issued
    if _exam_time_over(session, loaded.exam):
        return None
    if last is None:
        raise SessionNotFound(Message(N_("This drill session has no questions.")))
    if last.issued_at is None:
        now = utcnow()
        _set_issued_at(last, now)
        commit_keeping_state()
        last.issued_at = now
    elif loaded.answered:
        if last.position >= session.length:
            return None
        try:
            last = _issue(session, last.position + 1, last.context, previous=last)
            commit_keeping_state()
        except IntegrityError:
            # Another tab issued this position first: show that one.
            db.session.rollback()
            last = _last_issued(session.id)
            if last is None:
                raise SessionNotFound(Message(N_("This drill session has no questions."))) from None
    return _view(session, last)


def _view(session: SessionRow, issued: IssuedRow) -> IssuedView:
    issued_at = issued.issued_at
    if issued_at is None:
        # issue_question starts a question's clock before it is shown.
        raise RuntimeError(f"Question {issued.id} is shown before its clock started.")
    remaining = None
    if session.time_limit_ms is not None:
        remaining = max(0, session.time_limit_ms - _elapsed_ms(issued_at, utcnow()))
    shown = {k: v for k, v in issued.question.items() if k != "seed"}
    hint: Text | None = None
    if session.mode == "practice" and issued.rule_id:
        # The drill's own hint: what to look at, or what the group's house way does with
        # this hand (its deciding rule in words, from the way already loaded: no query).
        drill = get_drill(session.kind)
        try:
            hint = drill.hint(issued.rule_id, issued.question, _context(issued.context))
        except (HouseWayError, LookupError, ValueError):  # the way is not stored: no way's words
            hint = drill.hint(issued.rule_id)
    return IssuedView(
        session_id=session.id,
        position=issued.position,
        length=session.length,
        kind=session.kind,
        mode=session.mode,
        question=shown,
        context=issued.context,
        issued_at=issued_at,
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
    # The answer in words (what was said, what was right, why); None in an exam.
    feedback: Feedback | None = None

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
        if self.feedback is not None:
            data["feedback"] = self.feedback.as_dict()
        return data


def answer_question(user_id: int, session_id: int, position: object, answer: Any) -> AnswerResult:
    """Grade and record one answer, once; refuse another's, a repeat or a malformed one.

    ``position`` is checked here (a whole number of a question issued in the session),
    so the web layer passes on whatever the browser sent.

    ``answer`` None means the browser's clock ran out with no answer: in a timed
    session or exam it is recorded as timed out. An answer that reaches the server
    after the time limit plus ``GRACE_MS`` is recorded as timed out and incorrect.
    """
    now = utcnow()
    if isinstance(position, bool) or not isinstance(position, int) or parse_id(position) is None:
        get_session(user_id, session_id)  # someone else's session is not found, whatever was sent
        if isinstance(position, bool) or not isinstance(position, int):
            raise MalformedAnswer(Message(N_("The question number is missing.")))
        # Out of the column's range: no such question, and no query that overflows.
        raise SessionNotFound(Message(N_("There is no such question in this session.")))
    loaded = _load(user_id, session_id, position)
    session, issued = loaded.session, loaded.issued
    if issued is None or issued.issued_at is None:
        raise SessionNotFound(Message(N_("There is no such question in this session.")))
    if loaded.answered:
        # A fast refusal; the unique (session_id, position) of attempts is what keeps it to one.
        raise AlreadyAnswered(Message(N_("This question is already answered.")))
    elapsed = _elapsed_ms(issued.issued_at, now)
    limit = session.time_limit_ms
    late = (limit is not None and elapsed > limit + GRACE_MS) or _exam_time_over(session, loaded.exam)
    if answer is None and limit is None:
        raise MalformedAnswer(Message(N_("Choose an answer first.")))
    drill = get_drill(session.kind)
    context = _context(issued.context)
    timed_out = late or answer is None
    if answer is not None:
        try:
            # The drill's answer schema first: only what fits it is graded and stored.
            answer = drill.validate_answer(issued.question, answer, context)
        except ValueError as error:
            if not timed_out:
                raise MalformedAnswer(str(error)) from error
            # Too late anyway: recorded as timed out, without the answer that does not fit.
            answer = None
    grade = drill.grade(issued.question,
                        _PROBES[session.kind](issued.question) if answer is None else answer,
                        context)
    if timed_out:
        grade = Grade(False, grade.rule_id, grade.correct_answer, grade.explanation,
                      tuple({**part, "correct": False} for part in grade.parts))
    attempt = {
        "session_id": session.id,
        "position": position,
        "user_id": user_id,
        "kind": session.kind,
        "seed": issued.seed,
        # The context rides with the question, so the attempt replays on its own.
        "question": {**issued.question, "context": issued.context},
        "answer": answer,
        "correct_answer": grade.correct_answer,
        "correct": grade.correct,
        "timed_out": timed_out,
        "rule_id": grade.rule_id,
        "issued_at": issued.issued_at,
        "answered_at": now,
        "elapsed_ms": elapsed,
    }
    finished = position >= session.length
    try:
        attempt_id = _insert_row(Attempt.__table__, attempt)
        if finished:
            _set_finished_at(session, now)
        commit_keeping_state()
    except IntegrityError:
        db.session.rollback()
        raise AlreadyAnswered(Message(N_("This question is already answered."))) from None
    if finished:
        session.finished_at = now
    return AnswerResult(
        attempt_id=attempt_id,
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
        feedback=None if session.mode == "exam" else drill.feedback(
            issued.question, answer, context, grade, timed_out),
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
        raise SessionNotFound(Message(N_("There is no such drill session.")))
    settle_overdue(session_id=session.id)
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


def replay_question(attempt: Attempt) -> dict[str, Any]:
    """Deal an attempt's question again from its seed and context: a round's step as it was shown."""
    stored = attempt.question if isinstance(attempt.question, dict) else {}
    context = _context(stored.get("context") or {})
    return _step_question(attempt.kind, attempt.seed, context, attempt.position)


def regrade(attempt: Attempt) -> Grade:
    """Replay an attempt's question from its seed and grade its answer again.

    A stored answer that does not fit the drill's answer schema (a row written
    before answers had one) is graded as wrong, with a note, instead of raising.
    """
    stored = attempt.question if isinstance(attempt.question, dict) else {}
    context = _context(stored.get("context") or {})
    question = _step_question(attempt.kind, attempt.seed, context, attempt.position)
    drill = get_drill(attempt.kind)
    if attempt.answer is None:
        return drill.grade(question, _PROBES[attempt.kind](question), context)
    try:
        answer = drill.validate_answer(question, attempt.answer, context)
    except ValueError:
        key = drill.grade(question, _PROBES[attempt.kind](question), context)
        return Grade(False, key.rule_id, key.correct_answer,
                     Joined([key.explanation,
                             Message(N_("The stored answer cannot be read, so it counts as "
                                        "wrong."))]),
                     tuple({**part, "correct": False} for part in key.parts))
    return drill.grade(question, answer, context)


# --------------------------------------------------------------------------- shown means counted
#
# A question whose clock started in a timed session or exam and that got no answer
# within its limit plus GRACE_MS becomes a timed-out attempt (wrong, no answer),
# whatever the trainee did instead: asked for the next question, left the page or
# never came back. ``settle_overdue`` records these; the session's own calls, the
# trainee's pages, the supervisors' pages and the ``trainer sweep-timeouts`` command
# run it. The unique (session_id, position) of attempts keeps it to one row.

log = logging.getLogger(__name__)


def _clock_ms() -> Any:
    """Return an SQL expression for an issued question's clock start, in ms since 1970."""
    if db.session.get_bind().dialect.name == "postgresql":
        return func.extract("epoch", IssuedQuestion.issued_at) * 1000
    # SQLite keeps naive UTC text, which julianday() reads; 2440587.5 is 1970-01-01.
    return (func.julianday(IssuedQuestion.issued_at) - 2440587.5) * 86_400_000.0


def _overdue_query(user_ids: Sequence[int] | None, session_id: int | None, now: datetime) -> Any:
    """Select (id, issued_at, time_limit_ms) of the clocked questions past their limit, unanswered.

    Only an unfinished timed session's latest question can be waiting for an
    answer (the next one is issued once it is answered), so the query walks the
    open sessions of the users asked about, one index probe for their latest
    question and one for its attempt. The deadline test in SQL is a filter; the
    caller checks it again exactly.
    """
    later = aliased(IssuedQuestion)
    has_later = select(later.id).where(
        later.session_id == IssuedQuestion.session_id, later.position > IssuedQuestion.position
    ).exists()
    answered = select(Attempt.id).where(
        Attempt.session_id == IssuedQuestion.session_id, Attempt.position == IssuedQuestion.position
    ).exists()
    query = (
        select(IssuedQuestion.id, IssuedQuestion.issued_at, DrillSession.time_limit_ms)
        .join(DrillSession, DrillSession.id == IssuedQuestion.session_id)
        .where(
            DrillSession.finished_at.is_(None),
            DrillSession.time_limit_ms.is_not(None),
            IssuedQuestion.issued_at.is_not(None),
            _clock_ms() + DrillSession.time_limit_ms + GRACE_MS < now.timestamp() * 1000,
            ~has_later,
            ~answered,
        )
    )
    if session_id is not None:
        query = query.where(DrillSession.id == session_id)
    if user_ids is not None:
        query = query.where(DrillSession.user_id.in_(list(user_ids)))
    return query


def timeout_deadline(issued_at: datetime, time_limit_ms: int) -> datetime:
    """Return the moment an unanswered question counts as timed out: its limit plus the grace."""
    return issued_at + timedelta(milliseconds=time_limit_ms + GRACE_MS)


def _timed_out_attempt(session: SessionRow, issued: IssuedRow) -> dict[str, Any]:
    """Build the timed-out attempt of an unanswered question, as the clock running out records it.

    It is stamped at the question's deadline (``timeout_deadline``), with the
    limit plus the grace as its time, however late it is settled, so a sweep a
    day later neither moves the trainee's activity nor their median time.
    """
    assert session.time_limit_ms is not None and issued.issued_at is not None
    rule_id, correct_answer = issued.rule_id, None
    try:
        grade = get_drill(session.kind).grade(
            issued.question, _PROBES[session.kind](issued.question), _context(issued.context)
        )
        rule_id, correct_answer = grade.rule_id, grade.correct_answer
    except (LookupError, ValueError, TypeError, AttributeError):
        # A drill or question the engine no longer grades: still counted, with its rule.
        log.warning("Could not work out the answer key of session %s question %s",
                    session.id, issued.position, exc_info=True)
    deadline = timeout_deadline(issued.issued_at, session.time_limit_ms)
    return {
        "session_id": session.id,
        "position": issued.position,
        "user_id": session.user_id,
        "kind": session.kind,
        "seed": issued.seed,
        "question": {**issued.question, "context": issued.context},
        "answer": None,
        "correct_answer": correct_answer,
        "correct": False,
        "timed_out": True,
        "rule_id": rule_id,
        "issued_at": issued.issued_at,
        "answered_at": deadline,
        "elapsed_ms": session.time_limit_ms + GRACE_MS,
    }


def _settle(session: SessionRow, issued: IssuedRow, keep_state: bool = False) -> bool:
    """Record one overdue question's timed-out attempt; False when another request did first.

    One INSERT (and an UPDATE when it was the session's last question), committed.
    ``keep_state`` commits without expiring what the ORM session holds
    (``extensions.commit_keeping_state``), for a request that goes on after it.
    """
    attempt = _timed_out_attempt(session, issued)
    finish = issued.position >= session.length and session.finished_at is None
    try:
        _insert_row(Attempt.__table__, attempt)
        if finish:
            _set_finished_at(session, attempt["answered_at"])
        if keep_state:
            commit_keeping_state()
        else:
            db.session.commit()
    except IntegrityError:
        # The answer, or another settle, got there first: one attempt per question.
        db.session.rollback()
        return False
    if finish:
        session.finished_at = attempt["answered_at"]
    return True


@functools.cache
def _settle_statement() -> Any:
    """Build, once per process, the read of an issued question and its session by the question's id."""
    return (
        select(*_row_columns()[:16])
        .select_from(IssuedQuestion)
        .join(DrillSession, DrillSession.id == IssuedQuestion.session_id)
        .where(IssuedQuestion.id == bindparam("issued_id"))
    )


def _settle_one(issued_id: int) -> bool:
    """Record one overdue question's timed-out attempt by its id; False when another request did first.

    A plain commit: it expires what the ORM session holds, so a caller that read
    the session as an ORM object (``summary``) reads it again, finished or not.
    """
    row = db.session.execute(_settle_statement(), {"issued_id": issued_id}).first()
    if row is None:
        return False
    return _settle(SessionRow(*row[:8]), IssuedRow(*row[8:16]))


def settle_overdue(
    user_ids: Sequence[int] | None = None,
    session_id: int | None = None,
    now: datetime | None = None,
) -> int:
    """Record a timed-out attempt for each clocked question left unanswered past its limit.

    ``user_ids`` limits it to those users' sessions (an empty list settles
    nothing), ``session_id`` to one session; with neither it sweeps every
    session. Returns how many attempts this call recorded. Usually one query
    that finds nothing; each question found is committed on its own, and a
    question answered or settled meanwhile by another request is skipped.
    """
    if user_ids is not None and not user_ids:
        return 0
    now = now or utcnow()
    rows = db.session.execute(_overdue_query(user_ids, session_id, now)).all()
    settled = 0
    for row in rows:
        if timeout_deadline(row.issued_at, row.time_limit_ms) < now and _settle_one(row.id):
            settled += 1
    if settled:
        log.info("Recorded %d unanswered question(s) as timed out.", settled)
    return settled
