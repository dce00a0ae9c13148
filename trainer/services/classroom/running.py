"""A live class from start to end: start it, offer it, join it, poll it, end it."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from trainer.engine.messages import N_, Message
from trainer.extensions import db
from trainer.models import ClassPresence, Group, LiveClass, Membership, Role, User, utcnow
from trainer.services.certification.sealing import exam_in_progress
from trainer.services.classroom import answers
from trainer.services.classroom.rows import (
    PRESENT_FOR,
    ROSTER_REFRESH_S,
    TOUCH_EVERY,
    ClassClosed,
    ClassNotFound,
    NotAdmitted,
    PollRow,
    bump_version,
    get_class,
    poll_row,
)

_HELD = re.compile(r"^c([0-9]{1,12})\.n([0-9]{1,9})\.")
IN_EXAM = N_("You are in a certification exam: join the class when it ends.")


def start_class(group_id: int, instructor_id: int) -> int:
    """Start a live class for the group and return its id; the group's running class if it
    has one (a group runs one class at a time)."""
    if db.session.get(Group, group_id) is None:
        raise ClassNotFound(Message(N_("There is no such group.")))
    running = running_class_of(group_id)
    if running is not None:
        return running
    live = LiveClass(group_id=group_id, instructor_id=instructor_id, state="running",
                     running_group_id=group_id, started_at=utcnow())
    db.session.add(live)
    try:
        db.session.commit()
    except IntegrityError:
        # Started at the same moment from another device: that one runs.
        db.session.rollback()
        found = running_class_of(group_id)
        if found is None:  # pragma: no cover - it ended in between
            raise
        return found
    return live.id


def running_class_of(group_id: int) -> int | None:
    """Return the id of the group's running class, or None."""
    found: int | None = db.session.execute(select(LiveClass.id).where(
        LiveClass.running_group_id == group_id)).scalar_one_or_none()
    return found


def end_class(class_id: int) -> None:
    """End the class: an open hand's answers are locked and recorded first."""
    live = get_class(class_id)
    if live.state != "running":
        return
    answers.lock(class_id)
    db.session.execute(update(LiveClass).where(LiveClass.id == class_id,
                                               LiveClass.state == "running")
                       .values(state="ended", ended_at=utcnow(), running_group_id=None))
    bump_version(class_id)
    db.session.commit()


@dataclass(frozen=True, slots=True)
class Offer:
    """A running class a trainee may join."""

    class_id: int
    group_name: str


def offer_for(user_id: int) -> Offer | None:
    """Return the running class of the trainee's group, unless they are in a running exam
    (then no class is offered: one statement, two while a class runs)."""
    row = db.session.execute(
        select(LiveClass.id, Group.name)
        .join(Group, Group.id == LiveClass.group_id)
        .join(Membership, Membership.group_id == LiveClass.group_id)
        .join(User, User.id == Membership.user_id)
        .where(Membership.user_id == user_id, User.role == Role.TRAINEE,
               LiveClass.state == "running")).first()
    if row is None or exam_in_progress(user_id):
        return None
    return Offer(row[0], row[1])


def admit(row: PollRow | None, user_id: int, *, joining: bool = False,
          check_exam: bool = True) -> PollRow:
    """Refuse a trainee who may not take part: no such class (or not their group's), not
    joined, the class ended, or a certification exam running (``check_exam``: a poll
    answered 304, which tells nothing new, skips that check's statements)."""
    if row is None or not row.member:
        raise ClassNotFound(Message(N_("There is no such class of your group.")))
    if row.state != "running":
        raise ClassClosed(Message(N_("This class has ended.")))
    if not joining and not row.joined:
        raise NotAdmitted(Message(N_("Join the class first.")))
    if check_exam and row.exam_open and exam_in_progress(user_id):
        raise NotAdmitted(Message(IN_EXAM))
    return row


def join(class_id: int, user_id: int) -> None:
    """Join a trainee to their group's running class (again: nothing changes but the time)."""
    user = db.session.get(User, user_id)
    if user is None or user.role != Role.TRAINEE or not user.active:
        raise NotAdmitted(Message(N_("Only the group's trainees join its class.")))
    row = admit(poll_row(class_id, user_id), user_id, joining=True)
    now = utcnow()
    if row.joined:
        touch(row, user_id, now, force=True)
        return
    db.session.add(ClassPresence(class_id=class_id, user_id=user_id, joined_at=now,
                                 last_seen_at=now))
    db.session.execute(update(LiveClass).where(LiveClass.id == class_id)
                       .values(roster=LiveClass.roster + 1))
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()  # joined from another device at the same moment


def poll(class_id: int, user_id: int) -> PollRow | None:
    """Read the class for a device's poll; lock the hand first when its timer ran out.

    The timer has no clock of its own on the server: the first poll after its zero (and
    the grace an answer in flight gets) locks the answers, on whichever web server.
    """
    row = poll_row(class_id, user_id)
    if row is not None and row.timer_over(utcnow()):
        answers.lock(class_id)
        row = poll_row(class_id, user_id)
    return row


def touch(row: PollRow, user_id: int, now: datetime, force: bool = False) -> None:
    """Write a joined trainee's last poll time, at most every ``TOUCH_EVERY`` (one UPDATE)."""
    if row.last_seen_at is None or (not force and row.last_seen_at > now - TOUCH_EVERY):
        return
    db.session.execute(update(ClassPresence).where(
        ClassPresence.class_id == row.class_id, ClassPresence.user_id == user_id,
        ClassPresence.last_seen_at < now).values(last_seen_at=now))
    db.session.commit()


def trainee_token(row: PollRow) -> str:
    """Return a trainee's change token: the hand on the table, the class's version, their own
    answer's changes (another device of theirs answered) and whether they joined. The hand's
    number lets the next reply leave out the hand the device already holds
    (``held_number``)."""
    return f"c{row.class_id}.n{row.number}.v{row.version}.a{row.changes or 0}.j{int(row.joined)}"


def held_number(class_id: int, tokens: Iterable[str]) -> int | None:
    """Return the number of the hand a device holds, read from the token it sent back (its
    ``If-None-Match``), or None: a token of another class, or none (a page just loaded)."""
    for token in tokens:
        found = _HELD.match(token)
        if found is not None and int(found.group(1)) == class_id:
            return int(found.group(2))
    return None


def instructor_token(row: PollRow, now: datetime) -> str:
    """Return the instructor's change token: the class's version and roster, the hand's
    answers, and a tick every ``ROSTER_REFRESH_S`` so presence follows on its own."""
    tick = int(now.timestamp()) // ROSTER_REFRESH_S
    return f"c{row.class_id}.v{row.version}.r{row.roster}.h{row.revision or 0}.t{tick}"


@dataclass(frozen=True, slots=True)
class Present:
    """A trainee who joined, and whether a device of theirs asked lately."""

    user_id: int
    name: str
    present: bool


def roster(class_id: int, now: datetime | None = None) -> list[Present]:
    """Return the class's joined trainees by name, each present or not."""
    now = now or utcnow()
    rows = db.session.execute(
        select(User.id, User.name, ClassPresence.last_seen_at)
        .join(ClassPresence, ClassPresence.user_id == User.id)
        .where(ClassPresence.class_id == class_id)
        .order_by(User.name, User.id)).all()
    return [Present(uid, name, seen >= now - PRESENT_FOR) for uid, name, seen in rows]
