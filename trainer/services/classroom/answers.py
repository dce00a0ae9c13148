"""A hand's answers: delivered, given and changed, locked, recorded as class attempts, revealed.

The hand's row is where answers and the lock meet: an answer is written only by a
transaction whose ``UPDATE class_hands ... WHERE state = 'open'`` changed the row, and
the lock is that row's change to ``locked``. On PostgreSQL the two wait for each other
on the row, so the lock's grading reads every answer committed before it and no answer
is written after it; on SQLite the database's one writer does the same.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from trainer.engine.drills import get_drill
from trainer.engine.messages import N_, Message
from trainer.extensions import commit_keeping_state, db
from trainer.models import Attempt, ClassAnswer, ClassHand, DrillSession, LiveClass, utcnow
from trainer.models.types import bounded_int
from trainer.services import learning
from trainer.services.classroom.rows import (
    CLASS_DEALT,
    GRACE,
    TIMER_MAX_S,
    ClassClosed,
    ClassError,
    PollRow,
    bump_version,
    changed,
    current_hand,
    hand_context,
    running_class,
    shown_question,
)

LOCKED = N_("The answers to this hand are locked.")


def _ms(start: datetime, end: datetime) -> int:
    return max(0, int((end - start).total_seconds() * 1000))


def deliver(hand_id: int, user_id: int, now: datetime) -> None:
    """Record the hand's first delivery to a device of the trainee's (its answer time's
    start); a later delivery (another device, a reload) changes nothing."""
    table: Any = ClassAnswer.__table__
    values = {"hand_id": hand_id, "user_id": user_id, "delivered_at": now, "changes": 0}
    statement: Any = (postgresql.insert(table) if db.session.get_bind().dialect.name == "postgresql"
                      else sqlite.insert(table))
    db.session.execute(statement.values(values).on_conflict_do_nothing(
        index_elements=["hand_id", "user_id"]))


@dataclass(frozen=True, slots=True)
class Ack:
    """An answer taken: its hand (number, kind, row id and question as a page draws it),
    the answer as stored, how often it was changed."""

    number: int
    kind: str
    answer: dict[str, Any]
    changes: int
    hand_id: int
    question: dict[str, Any]


def answer(row: PollRow, user_id: int, number: object, given: Any) -> Ack:
    """Take a trainee's answer to the hand on the table (``row``: their admitted poll row),
    or their changed answer; refuse another hand's, a locked hand's, or one that does not fit.

    Nothing is written unless the whole answer fits the drill's schema.
    """
    wanted = bounded_int(number, 1, 10**6)
    if wanted is None:
        raise ClassError(Message(N_("The hand number is missing.")))
    if row.hand_id is None or wanted != row.number:
        raise ClassClosed(Message(N_("That hand is no longer on the table.")))
    if row.hand_state != "open":
        raise ClassClosed(Message(LOCKED))
    hand = db.session.get(ClassHand, row.hand_id)
    assert hand is not None
    drill = get_drill(hand.kind)
    context = hand_context(hand)
    question = drill.read_question(hand.question)
    try:
        stored = drill.answer_json(drill.read_answer(question, given, context))
    except ValueError as error:
        raise ClassError(str(error)) from error
    now = utcnow()
    if changed(
            update(ClassHand).where(ClassHand.id == hand.id, ClassHand.state == "open",
                                    or_(ClassHand.deadline.is_(None),
                                        ClassHand.deadline >= now - GRACE))
            .values(revision=ClassHand.revision + 1)) != 1:
        db.session.rollback()
        raise ClassClosed(Message(LOCKED))
    if row.changes is None:  # answered before any poll brought the hand: delivered now
        deliver(hand.id, user_id, now)
    changes: int = db.session.execute(
        update(ClassAnswer).where(ClassAnswer.hand_id == hand.id, ClassAnswer.user_id == user_id)
        .values(answer=stored, answered_at=now, changes=ClassAnswer.changes + 1)
        .returning(ClassAnswer.changes)
        .execution_options(synchronize_session=False)).scalar_one()
    kind, hand_id, shown = hand.kind, hand.id, shown_question(hand)
    commit_keeping_state()
    return Ack(wanted, kind, stored, changes, hand_id, shown)


# --- driving the hand ------------------------------------------------------------------------


def lock(class_id: int) -> bool:
    """Lock the answers to the hand on the table and record them; False when none was open.

    Each answer is graded and recorded as an attempt of the trainee's class session of
    that drill (``DrillSession.dealt`` "class": on the dashboards and in the practice
    figures as class work, never in a certification window). A trainee who gave no answer
    has no attempt: the class is the instructor's pace, not theirs.
    """
    live = db.session.get(LiveClass, class_id)
    hand = current_hand(live) if live is not None else None
    if hand is None or hand.state != "open":
        return False
    now = utcnow()
    if changed(update(ClassHand).where(ClassHand.id == hand.id, ClassHand.state == "open")
               .values(state="locked", locked_at=now)) != 1:
        db.session.rollback()  # another request locked it first
        return False
    db.session.refresh(hand)
    assert live is not None
    _record(live, hand, now)
    bump_version(class_id)
    db.session.commit()
    return True


def _record(live: LiveClass, hand: ClassHand, now: datetime) -> None:
    """Grade the hand's answers, keep its key, and record each answer as a class attempt."""
    drill = get_drill(hand.kind)
    context = hand_context(hand)
    question = drill.read_question(hand.question)
    hand.key = drill.key_json(drill.answer_key(question, context).correct_answer)
    given = db.session.execute(select(ClassAnswer).where(
        ClassAnswer.hand_id == hand.id, ClassAnswer.answer.is_not(None))
        .order_by(ClassAnswer.id)).scalars().all()
    sessions = _class_sessions(live, hand, context, [a.user_id for a in given])
    recorded: list[Attempt] = []
    for row in given:
        grade = drill.grade(question, drill.read_answer(question, row.answer, context), context)
        session = sessions[row.user_id]
        session.length += 1
        session.finished_at = now
        answered = row.answered_at or now
        attempt = Attempt(
            session=session, position=session.length, user_id=row.user_id, kind=hand.kind,
            seed=hand.seed, question={**hand.question, "context": hand.context},
            answer=row.answer, correct_answer=drill.key_json(grade.correct_answer),
            correct=grade.correct, timed_out=False, rule_id=grade.rule_id,
            issued_at=row.delivered_at, answered_at=answered,
            elapsed_ms=_ms(row.delivered_at, answered))
        db.session.add(attempt)
        row.correct = grade.correct
        recorded.append(attempt)
    db.session.flush()  # one flush gives every attempt its id
    for row, attempt in zip(given, recorded, strict=True):
        row.attempt_id = attempt.id
    # Practice that adapts (issue 30): the class's answers update each trainee's learning
    # state here, at the lock, in its transaction (before it, nobody saw a grade).
    learning.record_class_attempts(recorded)


def _class_sessions(live: LiveClass, hand: ClassHand, context: Any,
                    user_ids: Sequence[int]) -> dict[int, DrillSession]:
    """Return each trainee's class session of the hand's drill in this class, made when new."""
    found: dict[int, DrillSession] = {}
    if user_ids:
        ids = db.session.execute(
            select(Attempt.user_id, Attempt.session_id).distinct()
            .join(ClassAnswer, ClassAnswer.attempt_id == Attempt.id)
            .join(ClassHand, ClassHand.id == ClassAnswer.hand_id)
            .where(ClassHand.class_id == live.id, ClassHand.kind == hand.kind,
                   Attempt.user_id.in_(list(user_ids)))).all()
        sessions = {s.id: s for s in db.session.execute(select(DrillSession).where(
            DrillSession.id.in_([sid for _, sid in ids]))).scalars()} if ids else {}
        found = {uid: sessions[sid] for uid, sid in ids}
    for user_id in user_ids:
        if user_id not in found:
            found[user_id] = DrillSession(
                user_id=user_id, group_id=live.group_id, kind=hand.kind, mode="practice",
                dealt=CLASS_DEALT, length=0, time_limit_ms=None, house_way=context.house_way,
                house_way_digest=context.house_way_digest, profile=context.profile,
                started_at=hand.dealt_at)
            db.session.add(found[user_id])
    return found


def reveal(class_id: int) -> None:
    """Reveal the hand on the table: its answers locked (and recorded) first when open."""
    live = running_class(class_id)
    hand = current_hand(live)
    if hand is None:
        raise ClassClosed(Message(N_("No hand is on the table.")))
    lock(class_id)
    if changed(update(ClassHand).where(ClassHand.id == hand.id, ClassHand.state == "locked")
               .values(state="revealed", revealed_at=utcnow())) == 1:
        bump_version(class_id)
    db.session.commit()


def set_timer(class_id: int, seconds: object) -> None:
    """Start the hand's timer from now (``seconds``, 1 to ``TIMER_MAX_S``), or stop it (0)."""
    wanted = bounded_int(seconds, 0, TIMER_MAX_S)
    if wanted is None:
        raise ClassError(Message(N_("A timer runs up to %(most)s seconds."), most=TIMER_MAX_S))
    live = running_class(class_id)
    hand = current_hand(live)
    if hand is None or hand.state != "open":
        raise ClassClosed(Message(N_("No hand is open for answers.")))
    now = utcnow()
    if changed(update(ClassHand).where(ClassHand.id == hand.id, ClassHand.state == "open")
               .values(timer_s=wanted or hand.timer_s,
                       deadline=now + timedelta(seconds=wanted) if wanted else None)) != 1:
        db.session.rollback()
        raise ClassClosed(Message(LOCKED))
    bump_version(class_id)
    db.session.commit()

