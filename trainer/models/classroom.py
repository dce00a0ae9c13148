"""A live class (issue 31): an instructor deals one hand to every trainee of a group at once.

``services/classroom.py`` runs it; these are the rows only. Everything a device needs
lives here, so any web server (several, on one PostgreSQL database) answers any device:

- ``LiveClass``: one class of one group, ``running`` then ``ended``. ``version`` counts the
  changes every device sees (a deal, a lock, a reveal, the timer, the end) and ``roster``
  the joins; with the current hand's ``revision`` (its answers) they make the change
  tokens a poll is answered 304 by. ``running_group_id`` is the group's id while it runs
  and NULL after: unique, so a group runs one class at a time.
- ``ClassHand``: one hand dealt to the class (its kind, seed, question and context JSON as
  a drill stores them, how it was dealt, the deciding rule, the optional timer), ``open``
  for answers, then ``locked``, then ``revealed``. Its answer key is worked out at the lock.
- ``ClassPresence``: a trainee who joined, and when a device of theirs last asked.
- ``ClassAnswer``: one row per trainee and hand, made when the hand first reaches a device
  of theirs (the answer time runs from there), holding the answer, changeable until the
  lock; at the lock it is graded and recorded as an ``Attempt`` of a class session.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from trainer.extensions import Model
from trainer.models.types import UTCDateTime, utcnow

CLASS_STATES = ("running", "ended")
HAND_STATES = ("open", "locked", "revealed")
# How a hand was dealt: the kind's generator, a rule asked for, the group's weakest
# rules, or typed in by the instructor.
DEALT_HOW = ("random", "rule", "weakest", "typed")
# ``DrillSession.dealt`` of the sessions a class's answers are recorded in: practice only
# (never in a certification window), and their questions are read as stored, not dealt
# again from the seed (a hand for a rule or typed in is not the generator's).
CLASS_SESSIONS = "class"


class LiveClass(Model):
    """One live class of a group, driven by one instructor."""

    __tablename__ = "live_classes"
    __table_args__ = (
        CheckConstraint("state IN ('running', 'ended')", name="state"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    instructor_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="RESTRICT"))
    state: Mapped[str] = mapped_column(String(16), default="running")
    # The group's id while the class runs, NULL once it ended: one running class a group.
    running_group_id: Mapped[int | None] = mapped_column(Integer, unique=True)
    # Changes every device sees, and joins (the instructor's roster): the change tokens.
    version: Mapped[int] = mapped_column(default=0, server_default="0")
    roster: Mapped[int] = mapped_column(default=0, server_default="0")
    # The number of the hand on the table (ClassHand.number); 0 before the first deal.
    current_number: Mapped[int] = mapped_column(default=0, server_default="0")
    started_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class ClassHand(Model):
    """One hand dealt to a live class, and what became of it."""

    __tablename__ = "class_hands"
    __table_args__ = (
        UniqueConstraint("class_id", "number"),
        CheckConstraint("state IN ('open', 'locked', 'revealed')", name="state"),
        CheckConstraint("dealt IN ('random', 'rule', 'weakest', 'typed')", name="dealt"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    class_id: Mapped[int] = mapped_column(ForeignKey("live_classes.id", ondelete="CASCADE"))
    number: Mapped[int]
    kind: Mapped[str] = mapped_column(String(32))
    dealt: Mapped[str] = mapped_column(String(16))
    # The rule asked for (by rule, the weakest rules); None at random or typed in.
    asked_rule: Mapped[str | None] = mapped_column(String(64))
    # The seed it was dealt from (0: typed in); its question's JSON (``question_json``, the
    # seed inside) and its context's (``DrillContext.as_dict``), as a drill stores them.
    seed: Mapped[int] = mapped_column(BigInteger)
    question: Mapped[dict[str, Any]] = mapped_column(JSON)
    context: Mapped[dict[str, Any]] = mapped_column(JSON)
    # The rule that decides it (``rule_of``): never sent to a trainee before the reveal.
    rule_id: Mapped[str | None] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(16), default="open")
    # Bumped by each answer: the instructor's live count changes with it.
    revision: Mapped[int] = mapped_column(default=0, server_default="0")
    timer_s: Mapped[int | None]
    # When the timer locks the answers (None: no timer running).
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # The answer key's JSON (``key_json``), worked out at the lock.
    key: Mapped[Any | None] = mapped_column(JSON)
    dealt_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    locked_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    revealed_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class ClassPresence(Model):
    """A trainee who joined a live class; ``last_seen_at``: a device of theirs last asked."""

    __tablename__ = "class_presence"

    class_id: Mapped[int] = mapped_column(
        ForeignKey("live_classes.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True)
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class ClassAnswer(Model):
    """One trainee's answer to one hand: made at the hand's first delivery, changeable until
    the lock, graded and recorded as an attempt at the lock."""

    __tablename__ = "class_answers"
    __table_args__ = (
        UniqueConstraint("hand_id", "user_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("class_hands.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="RESTRICT"), index=True)
    # When a device of theirs first received the hand (server clock): the answer time's start.
    delivered_at: Mapped[datetime] = mapped_column(UTCDateTime())
    # The answer's JSON (``answer_json``), None until one is given; the last one counts.
    answer: Mapped[Any | None] = mapped_column(JSON)
    answered_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    changes: Mapped[int] = mapped_column(default=0, server_default="0")
    # Set at the lock: right or wrong, and the attempt recorded for it.
    correct: Mapped[bool | None]
    attempt_id: Mapped[int | None] = mapped_column(
        ForeignKey("attempts.id", ondelete="RESTRICT"), unique=True)
