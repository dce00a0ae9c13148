"""Drill sessions: start one, issue its questions, grade and record answers, sum it up.

No Flask request objects here: the web layer (``trainer.web.trainee.drills``) and the
certification exams call these functions with plain ids and values.

The server owns the question and the clock. A question is dealt from a seed drawn
here and stored as an ``IssuedQuestion`` with the server time it was issued; its
answer key is never stored or sent before the answer: ``answer_question`` works it
out again from the seed and records one ``Attempt`` row, in one transaction, holding
the seed and context so the attempt replays and re-grades (``replay.py``).

Questions, answers and answer keys are the drill kind's own values from the engine
up to here; they become JSON only at the edge, through the drill (``read_question`` /
``question_json`` where a row is read or written, ``shown_json`` for the page,
``read_answer`` for what the browser sent, ``answer_json`` / ``key_json`` for the
attempt's row and the page). What these functions need to know of a question they
ask its drill (``question_at``, ``rule_of``, ``answer_key``, ``unit_length``).

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
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError

from trainer.engine.drills import DRILLS, Drill, DrillContext, Grade, get_drill
from trainer.engine.drills.explain import Text
from trainer.engine.house_way import HouseWayError
from trainer.engine.learning.dealing import dealt_for, question_for
from trainer.engine.messages import N_, Message
from trainer.extensions import commit_keeping_state, db
from trainer.models import Attempt, DrillSession, IssuedQuestion, utcnow
from trainer.models.types import parse_id
from trainer.services import house_ways
from trainer.services.certification.sealing import exam_time_over_by, without_sealed
from trainer.services.drills import store, targeting, timeouts
from trainer.services.drills.context import build, context_from_json, group_of
from trainer.services.drills.store import ExamRow, IssuedRow, SessionRow
from trainer.services.drills.views import AnswerResult, IssuedView, Summary
from trainer.services.group_settings import MAX_LENGTH, GroupSettings
from trainer.services.refusals import Conflict, NotFound, Refused
from trainer.services.timing import GRACE_MS

MODES = ("practice", "timed", "exam")
# How a session is dealt: the normal, balanced generator, the only one that counts
# toward readiness; "my mistakes"; any other focused practice (one rule's too); practice
# that adapts (issue 30, ``targeting``).
DEALT = ("balanced", "mistakes", "focused", "targeted")
# How many of a trainee's latest missed rules "my mistakes" draws from.
MISTAKE_RULES = 5
MISTAKE_LOOKBACK = 50

log = logging.getLogger(__name__)


class DrillError(Refused):
    """A request the drill service refuses; ``status`` is the HTTP code to answer with."""


class SessionNotFound(DrillError, NotFound):
    """The session or question does not exist, or belongs to someone else."""


class AlreadyAnswered(DrillError, Conflict):
    """The question already has its recorded attempt."""


class MalformedAnswer(DrillError):
    """The answer cannot be graded (400); the message says why, in the trainee's words."""


class SessionFinished(DrillError, Conflict):
    """Every question of the session has been issued and answered."""


# --- the drill's questions, for the sessions, replays and the demo class ------------------


def deal_question(kind: str, seed: int, context: DrillContext, position: int) -> Any:
    """Return the question at ``position`` of a session of ``kind`` dealt from ``seed``
    (a round's steps share the seed): the drill's own value."""
    return get_drill(kind).question_at(seed, context, position)


def grade_answer(kind: str, question: Any, answer: Any | None, context: DrillContext,
                 timed_out: bool = False) -> Grade:
    """Grade an answer as a session records it: None is no answer (graded only for the
    key), and a timed-out answer is wrong, whatever it said."""
    drill = get_drill(kind)
    grade = drill.answer_key(question, context) if answer is None \
        else drill.grade(question, answer, context)
    return grade.timed_out() if timed_out else grade


def answer_key(question: Any, context: DrillContext) -> dict[str, Any]:
    """Return the right answer's JSON to a question: its JSON as a row stores it or a page
    shows it (which names its kind), or the drill's own value; for replays, reports and tests."""
    if isinstance(question, Mapping):
        drill = get_drill(str(question.get("kind")))
        question = drill.read_question(question)
    else:
        drill = next((d for d in DRILLS.values() if d.question_type is not None
                      and isinstance(question, d.question_type)), None) or _unknown(question)
    return drill.key_json(drill.answer_key(question, context).correct_answer)


def _unknown(question: Any) -> Drill:
    raise ValueError(f"No drill kind asks {type(question).__name__} questions.")


# --- starting a session ----------------------------------------------------------------------


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


def session_length(kind: str, length: int) -> int:
    """Return the questions a session of ``length`` asks: whole rounds of a stepped kind
    (rounded up, down at the maximum), so the drills page says what the session counts."""
    steps = get_drill(kind).unit_length()
    if steps > 1 and length % steps:
        length += steps - length % steps
        if length > MAX_LENGTH:
            length -= steps
    return length


def start_session(
    user_id: int,
    kind: str,
    mode: str = "practice",
    settings: GroupSettings | None = None,
    *,
    focus_rules: tuple[str, ...] = (),
    length: int | None = None,
    time_limit_s: int | None = None,
    dealt: str | None = None,
    context: DrillContext | None = None,
    group_id: int | None = None,
    skill: str | None = None,
) -> int:
    """Start a drill session for a user and return its id.

    ``settings`` default to the user's group's (``context.group_of``, with the group's
    id); the session runs under the context the one builder makes of them
    (``context.build``), or under ``context`` when given (an exam: the rules kept at
    scheduling, with the exam's ``group_id``). ``length`` and ``time_limit_s`` override
    the group's for this session (a certification exam fixes both). ``focus_rules`` are
    rule ids to draw questions from. ``dealt`` records how the session is dealt
    (``DEALT``): by default ``mistakes`` with focus rules (the web's "my mistakes" is
    their only source), else ``balanced``; ``focused`` names any other targeted
    practice. A session not dealt ``balanced`` is practice only, whatever the mode:
    timed, it keeps its clock, but no readiness or certification window counts it
    (``reports.sql.COUNTED_DEALT``); an exam is always ``balanced``. Practice has no
    clock; timed and exam do. ``targeted`` (practice that adapts) and ``skill`` (every
    question dealt for that rule: "practise this rule", ``focused``) are untimed practice
    (``targeting``).
    """
    dealt = _dealing(kind, mode, dealt, focus_rules, skill)
    if settings is None:
        settings, own_group = group_of(user_id)
        group_id = own_group if group_id is None else group_id
    length = session_length(kind, length if length is not None else settings.length(kind))
    if not 1 <= length <= MAX_LENGTH:
        raise DrillError(Message(N_("A session has 1 to %(most)s questions."), most=MAX_LENGTH))
    limit_s = time_limit_s if time_limit_s is not None else settings.time_limit_s(kind)
    # The house way is pinned to its rules digest, recorded with the session and its
    # questions: they grade by these rules even after a preset file changes or a version
    # is superseded. A custom profile's rules (an exam's: those kept at scheduling) ride
    # in the context (services/profiles.py): the session grades by the rules it started
    # under, even after a manager edits the profile.
    try:
        if context is None:
            context = build(settings, focus_rules=focus_rules)
        elif focus_rules:
            context = context.with_focus(focus_rules)
        targeting.check(kind, mode, dealt, skill, context)
    except targeting.TargetingError as error:
        raise DrillError(error.message) from None
    except (house_ways.WayError, HouseWayError, ValueError) as error:
        # A way that is not offered, rules not stored, an unknown profile: said as they are.
        raise DrillError(str(error)) from None
    session = DrillSession(
        user_id=user_id,
        group_id=group_id,
        kind=kind,
        mode=mode,
        dealt=dealt,
        length=length,
        time_limit_ms=None if mode == "practice" else limit_s * 1000,
        house_way=context.house_way,
        house_way_digest=context.house_way_digest,
        profile=context.profile,
        started_at=utcnow(),
        rating_time_ms=targeting.rating_ms(settings, group_id, kind),
    )
    db.session.add(session)
    db.session.flush()
    # The first question carries the session's context and every later one copies
    # it; its clock starts only when the drill page first asks for it.
    _issue(session, 1, targeting.first_context(session, context, skill), context,
           start_clock=False)
    db.session.commit()
    return session.id


def _dealing(kind: str, mode: str, dealt: str | None, focus_rules: tuple[str, ...],
             skill: str | None) -> str:
    """Return how a new session is dealt (``start_session``); DrillError for what cannot be."""
    if kind not in DRILLS:
        raise DrillError(Message(N_("There is no drill called %(kind)s."), kind=repr(kind)))
    if mode not in MODES:
        raise DrillError(Message(N_("There is no drill mode called %(mode)s."), mode=repr(mode)))
    if dealt is None:
        dealt = "focused" if skill is not None else "mistakes" if focus_rules else "balanced"
    if dealt not in DEALT or (dealt == "balanced" and (focus_rules or skill is not None)):
        raise DrillError(Message(N_("There is no way of dealing a session called %(dealt)s."),
                                 dealt=repr(dealt)))
    if mode == "exam" and dealt != "balanced":
        # An exam deals from the normal generator only: chosen rules could be guessed.
        raise DrillError(Message(N_("An exam cannot draw from one trainee's mistakes.")))
    return dealt


def get_session(user_id: int, session_id: int) -> DrillSession:
    """Return the user's session, or raise SessionNotFound for anyone else's."""
    session = db.session.get(DrillSession, session_id)
    if session is None or session.user_id != user_id:
        raise SessionNotFound(Message(N_("There is no such drill session of yours.")))
    return session


# --- issuing and answering -------------------------------------------------------------------


def _load(user_id: int, session_id: int, position: int | None = None) -> store.Loaded:
    """Read the user's session with its question (``store.load``); SessionNotFound for anyone else's."""
    loaded = store.load(session_id, position)
    if loaded is None or loaded.session.user_id != user_id:
        raise SessionNotFound(Message(N_("There is no such drill session of yours.")))
    return loaded


def _issue(
    session: DrillSession | SessionRow,
    position: int,
    context_json: dict[str, Any],
    context: DrillContext,
    start_clock: bool = True,
    previous: IssuedRow | None = None,
) -> tuple[IssuedRow, Any]:
    """Deal and store the question at ``position``; return its row and the question itself."""
    drill = get_drill(session.kind)
    step = (position - 1) % drill.unit_length()
    first: IssuedRow | None = None
    if step:
        # The question before a round's later step is in the same round, so has its seed.
        first = previous if previous is not None and previous.position == position - 1 \
            else store.issued(session.id, position - step)
    # A round's later steps replay the round dealt for its first step.
    seed = first.seed if first is not None else secrets.randbits(63)
    # A question dealt for a skill (practice that adapts, one rule's practice) replays
    # from its seed and the skill its context names.
    question = question_for(drill, seed, context, position, dealt_for(context_json))
    issued = IssuedRow(
        id=0,
        session_id=session.id,
        position=position,
        seed=seed,
        question=drill.question_json(question),
        context=context_json,
        rule_id=drill.rule_of(question, context),
        issued_at=utcnow() if start_clock else None,
    )
    issued.id = store.insert_row(IssuedQuestion.__table__, store.issued_values(
        issued.session_id, issued.position, issued.seed, issued.question, issued.context,
        issued.rule_id, issued.issued_at))
    return issued, question


def _stored_context(issued: IssuedRow) -> DrillContext:
    """Return the context stored with an issued question; DrillError when its house way's
    recorded rules are no longer stored (the question cannot be graded)."""
    try:
        return context_from_json(issued.context)
    except (HouseWayError, LookupError, ValueError, TypeError) as error:
        raise DrillError(str(error)) from None


def _exam_time_over(session: SessionRow, exam: ExamRow | None) -> bool:
    """Tell whether an exam's time is over: its results are open, so it takes no more answers."""
    if session.mode != "exam" or session.finished_at is not None:
        return False
    return exam_time_over_by(session, exam)


def issue_question(user_id: int, session_id: int) -> IssuedView | None:
    """Return the session's current question, issuing the next one when due; None when done.

    A question already issued and not yet answered is returned again with its
    original clock, so reloading the page neither skips a question nor resets the time;
    once its time is over it is recorded as timed out (``timeouts``) and the next one
    is issued.
    """
    loaded = _load(user_id, session_id)
    if timeouts.overdue(loaded, utcnow()):
        # What settle_overdue(session_id=...) finds, found by the read above instead
        # of a query of its own; when another request settled it first, read again.
        assert loaded.issued is not None
        if timeouts.settle(loaded.session, loaded.issued, keep_state=True):
            log.info("Recorded 1 unanswered question(s) as timed out.")
            loaded = loaded._replace(answered=True)
        else:
            loaded = _load(user_id, session_id)
    session, last = loaded.session, loaded.issued
    if _exam_time_over(session, loaded.exam):
        return None
    if last is None:
        raise SessionNotFound(Message(N_("This drill session has no questions.")))
    question: Any = None
    context: DrillContext | None = None
    if last.issued_at is None:
        now = utcnow()
        store.set_issued_at(last, now)
        commit_keeping_state()
        last.issued_at = now
    elif loaded.answered:
        if last.position >= session.length:
            return None
        context = _stored_context(last)
        try:
            last, question = _issue(session, last.position + 1, last.context, context,
                                    previous=last)
            commit_keeping_state()
        except IntegrityError:
            # Another tab issued this position first: show that one.
            db.session.rollback()
            question = None
            last = store.last_issued(session.id)
            if last is None:
                raise SessionNotFound(Message(N_("This drill session has no questions."))) from None
    return _view(session, last, question, context)


def _view(session: SessionRow, issued: IssuedRow, question: Any,
          context: DrillContext | None) -> IssuedView:
    """Return what the page is sent of ``issued`` (``question`` and ``context``: the values
    just dealt, None to read them from the row)."""
    issued_at = issued.issued_at
    if issued_at is None:
        # issue_question starts a question's clock before it is shown.
        raise RuntimeError(f"Question {issued.id} is shown before its clock started.")
    remaining = None
    if session.time_limit_ms is not None:
        remaining = max(0, session.time_limit_ms - _elapsed_ms(issued_at, utcnow()))
    drill = get_drill(session.kind)
    if question is None:
        question = drill.read_question(issued.question)
    hint: Text | None = None
    if session.mode == "practice" and issued.rule_id:
        hint = _hint(drill, issued, question, context)
    return IssuedView(
        session_id=session.id,
        position=issued.position,
        length=session.length,
        kind=session.kind,
        mode=session.mode,
        question=drill.shown_json(question),
        context=issued.context,
        issued_at=issued_at,
        time_limit_ms=session.time_limit_ms,
        remaining_ms=remaining,
        hint=hint,
    )


def _hint(drill: Drill, issued: IssuedRow, question: Any, context: DrillContext | None) -> Text:
    """Return the drill's own hint: what to look at, or what the group's house way does with
    this hand (its deciding rule in words, from the way already resolved: no query)."""
    assert issued.rule_id
    try:
        if context is None:
            context = context_from_json(issued.context)
        return drill.hint(issued.rule_id, question, context)
    except (HouseWayError, LookupError, ValueError):  # the way is not stored: no way's words
        return drill.hint(issued.rule_id)


def _elapsed_ms(start: datetime, end: datetime) -> int:
    return max(0, int((end - start).total_seconds() * 1000))


def answer_question(user_id: int, session_id: int, position: object, answer: Any) -> AnswerResult:
    """Grade and record one answer, once; refuse another's, a repeat or a malformed one.

    ``position`` is checked here (a whole number of a question issued in the session),
    so the web layer passes on whatever the browser sent; ``answer`` is the browser's
    JSON, read by the drill (``read_answer``).

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
    context = _stored_context(issued)
    question = drill.read_question(issued.question)
    timed_out = late or answer is None
    given: Any = None
    if answer is not None:
        try:
            # The drill's answer schema first: only what fits it is graded and stored.
            given = drill.read_answer(question, answer, context)
        except ValueError as error:
            if not timed_out:
                raise MalformedAnswer(str(error)) from error
            # Too late anyway: recorded as timed out, without the answer that does not fit.
            given = None
    grade = grade_answer(session.kind, question, given, context, timed_out)
    answer_json = None if given is None else drill.answer_json(given)
    key_json = drill.key_json(grade.correct_answer)
    attempt = store.attempt_values(
        session_id=session.id, position=position, user_id=user_id, kind=session.kind,
        seed=issued.seed, question=issued.question, context=issued.context,
        answer=answer_json, correct_answer=key_json, correct=grade.correct,
        timed_out=timed_out, rule_id=grade.rule_id, issued_at=issued.issued_at,
        answered_at=now, elapsed_ms=elapsed)
    finished = position >= session.length
    # The trainee's memory of the answer's skill, in the same transaction (issue 30).
    learn = functools.partial(targeting.after_answer, loaded, context, grade, timed_out=timed_out,
                              elapsed_ms=elapsed, now=now, finished=finished, issue=_issue)
    attempt_id = _record(session, attempt, finished, now, learn)
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
        answer=answer_json,
        question=issued.question,
        grade=grade,
        correct_answer=key_json,
        feedback=None if session.mode == "exam" else drill.feedback(
            question, given, context, grade, timed_out),
    )


def _record(session: SessionRow, attempt: dict[str, Any], finished: bool, now: datetime,
            then: Callable[[], None] | None = None) -> int:
    """Insert the attempt (then what ``then`` writes, and finish the session with its last
    question), committed; its id.

    AlreadyAnswered when another request recorded this question first.
    """
    try:
        attempt_id = store.insert_row(Attempt.__table__, attempt)
        if then is not None:
            then()
        if finished:
            store.set_finished_at(session, now)
        commit_keeping_state()
    except IntegrityError:
        db.session.rollback()
        raise AlreadyAnswered(Message(N_("This question is already answered."))) from None
    if finished:
        session.finished_at = now
    return attempt_id


def summary(session_id: int, user_id: int | None = None) -> Summary:
    """Sum up a session; with ``user_id``, only that user's own session."""
    session = (get_session(user_id, session_id) if user_id is not None
               else db.session.get(DrillSession, session_id))
    if session is None:
        raise SessionNotFound(Message(N_("There is no such drill session.")))
    timeouts.settle_overdue(session_id=session.id)
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
