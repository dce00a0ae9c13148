"""What the classroom's pages are handed: the instructor's view, a trainee's, the summary.

Plain values; the web words and draws them. A trainee's view carries nothing that tells
the right answer before the reveal (no rule, no way of dealing, no seed, no key, no
grade): ``result`` is filled only once the hand is revealed.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select

from trainer.engine.drills import Grade, get_drill
from trainer.engine.drills.explain import Feedback
from trainer.engine.drills.skills import Skill
from trainer.extensions import db
from trainer.models import ClassAnswer, ClassHand, Group, LiveClass, User, utcnow
from trainer.services.classroom.answers import deliver
from trainer.services.classroom.rows import PollRow, hand_context, shown_question
from trainer.services.classroom.running import Present, roster


@dataclass(frozen=True, slots=True)
class HandView:
    """The hand on the table as a page draws it (its question without the seed); ``id`` is
    its row's (a page's drawing of it is kept by it: a hand never changes once dealt)."""

    id: int
    number: int
    kind: str
    state: str
    # None: the asking device holds the hand already (``trainee_view``'s ``held``).
    question: dict[str, Any] | None
    context: dict[str, Any]
    timer_s: int | None
    remaining_ms: int | None


def hand_view(hand: ClassHand, now: datetime) -> HandView:
    """Return what a page draws of ``hand``: no seed, no rule, no key."""
    remaining = None
    if hand.state == "open" and hand.deadline is not None:
        remaining = max(0, int((hand.deadline - now).total_seconds() * 1000))
    return HandView(hand.id, hand.number, hand.kind, hand.state, shown_question(hand), hand.context,
                    hand.timer_s, remaining)


@dataclass(frozen=True, slots=True)
class AnswerGroup:
    """One answer given, by whom, and whether it is right (known from the lock)."""

    answer: dict[str, Any]
    correct: bool | None
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Reveal:
    """A revealed hand: its key, the rule that decides it, the answers given and who gave them."""

    key: Any
    rule_id: str | None
    skill: Skill | None
    house_way: str
    groups: tuple[AnswerGroup, ...]
    unanswered: tuple[str, ...]

    @property
    def right(self) -> int:
        """Return how many answered right."""
        return sum(len(g.names) for g in self.groups if g.correct)

    @property
    def answered(self) -> int:
        """Return how many answered."""
        return sum(len(g.names) for g in self.groups)


@dataclass(frozen=True, slots=True)
class InstructorView:
    """The projector's state: the class, its hand, who is here and who answered."""

    live: LiveClass
    group_name: str
    hand: HandView | None
    # How the hand was dealt and the rule asked for (the instructor's panel only).
    dealt: str | None
    asked_rule: str | None
    present: tuple[Present, ...]
    answered: tuple[str, ...]
    reveal: Reveal | None

    @property
    def present_count(self) -> int:
        """Return how many joined trainees have a device asking."""
        return sum(p.present for p in self.present)


def instructor_view(live: LiveClass, now: datetime | None = None) -> InstructorView:
    """Return the projector's state of ``live`` now."""
    now = now or utcnow()
    group = db.session.get(Group, live.group_id)
    hand = _hand(live)
    lines = _answers(hand.id) if hand is not None else []
    answered = tuple(name for name, a, _ in lines if a is not None)
    reveal = _reveal(hand, lines) if hand is not None and hand.state == "revealed" else None
    return InstructorView(live, group.name if group is not None else "",
                          hand_view(hand, now) if hand is not None else None,
                          hand.dealt if hand is not None else None,
                          hand.asked_rule if hand is not None else None,
                          tuple(roster(live.id, now)), answered, reveal)


def _hand(live: LiveClass) -> ClassHand | None:
    if not live.current_number:
        return None
    return db.session.execute(select(ClassHand).filter_by(
        class_id=live.id, number=live.current_number)).scalar_one_or_none()


def _answers(hand_id: int) -> list[tuple[str, Any, bool | None]]:
    """Return (name, answer JSON or None, right) of each trainee the hand reached, by name."""
    rows = db.session.execute(
        select(User.name, ClassAnswer.answer, ClassAnswer.correct)
        .join(User, User.id == ClassAnswer.user_id)
        .where(ClassAnswer.hand_id == hand_id).order_by(User.name, User.id)).all()
    return [(name, answer, correct) for name, answer, correct in rows]


def rule_skill(hand: ClassHand) -> Skill | None:
    """Return the skill (rule) that decides the hand, in its kind's words: its sheet sentence."""
    if not hand.rule_id:
        return None
    rule = hand.rule_id.removesuffix(".fallback")
    skills = get_drill(hand.kind).skills_of(hand_context(hand))
    return next((s for s in skills if s.id in (hand.rule_id, rule)), None)


def _reveal(hand: ClassHand, lines: list[tuple[str, Any, bool | None]]) -> Reveal:
    """Group the answers given (the same answer together; the right one first, then the
    most given), with the names of who gave each and who gave none."""
    groups: dict[str, tuple[dict[str, Any], bool | None, list[str]]] = {}
    for name, answer, correct in lines:
        if answer is None:
            continue
        key = json.dumps(answer, sort_keys=True)
        groups.setdefault(key, (answer, correct, []))[2].append(name)
    ordered = sorted(groups.values(), key=lambda g: (not g[1], -len(g[2])))
    house_way = str(hand.context.get("house_way", "")) if isinstance(hand.context, dict) else ""
    return Reveal(hand.key, hand.rule_id, rule_skill(hand), house_way,
                  tuple(AnswerGroup(a, c, tuple(n)) for a, c, n in ordered),
                  tuple(name for name, answer, _ in lines if answer is None))


# --- a trainee's view -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TraineeResult:
    """A trainee's own result, once the hand is revealed."""

    correct: bool
    answered: bool
    grade: Grade
    key: dict[str, Any]
    feedback: Feedback
    elapsed_ms: int | None


@dataclass(frozen=True, slots=True)
class TraineeView:
    """What a trainee's device is sent: the class's state, the hand, their own answer, and
    their result only after the reveal."""

    state: str
    hand: HandView | None
    mine: dict[str, Any] | None
    result: TraineeResult | None = field(default=None)


def trainee_view(row: PollRow, user_id: int, now: datetime | None = None,
                 held: int | None = None) -> TraineeView:
    """Return a joined trainee's view (``row``: their admitted poll row), recording the
    hand's first delivery to them (their answer time starts there).

    ``held``: the number of the hand the asking device holds already. Until the reveal,
    its view is then read from the poll row alone (the hand's state and the asker's
    answer), with no question (``HandView.question`` None): nothing else can have changed.
    """
    now = now or utcnow()
    if (row.hand_id is not None and held == row.number and row.changes is not None
            and row.kind is not None and row.hand_state not in (None, "revealed")):
        return TraineeView(row.state, HandView(row.hand_id, row.number, row.kind,
                                               row.hand_state, None, {}, None,
                                               row.remaining_ms(now)), row.answer)
    hand = db.session.get(ClassHand, row.hand_id) if row.hand_id is not None else None
    if hand is None:
        return TraineeView(row.state, None, None)
    if row.changes is None:
        deliver(hand.id, user_id, now)
        db.session.commit()
    mine = db.session.execute(select(ClassAnswer).filter_by(
        hand_id=hand.id, user_id=user_id)).scalar_one_or_none()
    given = mine.answer if mine is not None else None
    result = _result(hand, mine) if hand.state == "revealed" else None
    return TraineeView(row.state, hand_view(hand, now), given, result)


def _result(hand: ClassHand, mine: ClassAnswer | None) -> TraineeResult:
    drill = get_drill(hand.kind)
    context = hand_context(hand)
    question = drill.read_question(hand.question)
    given = drill.read_answer(question, mine.answer, context) \
        if mine is not None and mine.answer is not None else None
    grade = drill.grade(question, given, context) if given is not None \
        else drill.answer_key(question, context)
    elapsed = None
    if mine is not None and mine.answered_at is not None:
        elapsed = max(0, int((mine.answered_at - mine.delivered_at).total_seconds() * 1000))
    return TraineeResult(given is not None and grade.correct, given is not None, grade,
                         drill.key_json(grade.correct_answer),
                         drill.feedback(question, given, context, grade), elapsed)


# --- the class summary ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandSummary:
    """One hand of a class: what it was, how many answered and were right, who erred."""

    number: int
    kind: str
    dealt: str
    asked_rule: str | None
    rule_id: str | None
    house_way: str
    dealt_at: datetime
    answered: int
    right: int
    erred: tuple[str, ...]
    unanswered: tuple[str, ...]

    @property
    def share_right(self) -> float | None:
        """Return the share of answers that were right, or None with no answer."""
        return self.right / self.answered if self.answered else None


def class_summary(live: LiveClass) -> list[HandSummary]:
    """Return each locked hand of the class in order, with its answers counted."""
    hands = db.session.execute(select(ClassHand).where(
        ClassHand.class_id == live.id, ClassHand.state != "open")
        .order_by(ClassHand.number)).scalars().all()
    rows = db.session.execute(
        select(ClassAnswer.hand_id, User.name, ClassAnswer.answer, ClassAnswer.correct)
        .join(User, User.id == ClassAnswer.user_id)
        .join(ClassHand, ClassHand.id == ClassAnswer.hand_id)
        .where(ClassHand.class_id == live.id).order_by(User.name, User.id)).all()
    summaries = []
    for hand in hands:
        mine = [(name, answer, correct) for hid, name, answer, correct in rows if hid == hand.id]
        given = [(name, correct) for name, answer, correct in mine if answer is not None]
        house_way = str(hand.context.get("house_way", "")) if isinstance(hand.context, dict) else ""
        summaries.append(HandSummary(
            hand.number, hand.kind, hand.dealt, hand.asked_rule, hand.rule_id, house_way,
            hand.dealt_at, len(given), sum(1 for _, c in given if c),
            tuple(name for name, c in given if not c),
            tuple(name for name, answer, _ in mine if answer is None)))
    return summaries


# --- a class attempt's hand ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClassOrigin:
    """How a class attempt's hand was dealt: its class, its number, the way it was dealt
    (``ClassHand.dealt``) and the rule asked for (a hand for a rule or a weakest rule)."""

    class_id: int
    number: int
    dealt: str
    asked_rule: str | None
    house_way: str


def class_origin(attempt_id: int) -> ClassOrigin | None:
    """Return how the class hand an attempt answered was dealt, or None (not a class attempt)."""
    row = db.session.execute(
        select(ClassHand.class_id, ClassHand.number, ClassHand.dealt, ClassHand.asked_rule,
               ClassHand.context)
        .join(ClassAnswer, ClassAnswer.hand_id == ClassHand.id)
        .where(ClassAnswer.attempt_id == attempt_id)).first()
    if row is None:
        return None
    context = row[4] if isinstance(row[4], dict) else {}
    return ClassOrigin(row[0], row[1], row[2], row[3], str(context.get("house_way", "")))


def shown_question_of(hand_id: int) -> dict[str, Any] | None:
    """Return a hand's question as a page draws it (no seed), or None: one statement."""
    question = db.session.execute(select(ClassHand.question).where(
        ClassHand.id == hand_id)).scalar_one_or_none()
    return {k: v for k, v in question.items() if k != "seed"} if isinstance(question, dict) else None
