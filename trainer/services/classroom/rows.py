"""What the classroom's use cases share: refusals, limits, the one poll read, contexts.

The poll read (``poll_row``) is the statement every device's short poll runs: the class,
its current hand, and the asker's presence, answer and membership, in one SELECT of
columns (no ORM objects), so a poll answered 304 costs the sign-in read and this one; it
also brings the hand's kind and the asker's answer (a reply to a device that holds the hand
already needs no other read) and a screen for a running exam (``exam_open``: only a
trainee with an exam session or claim open is checked further).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, and_, bindparam, exists, or_, select, update

from trainer.engine.drills import DRILLS, Drill, DrillContext
from trainer.engine.house_way import HouseWayError
from trainer.engine.messages import N_, Message
from trainer.engine.profiles import FoulPolicy, TableProfile
from trainer.extensions import db
from trainer.models import (
    CertificationExam,
    ClassAnswer,
    ClassHand,
    ClassPresence,
    DrillSession,
    Group,
    LiveClass,
    Membership,
)
from trainer.models.classroom import CLASS_SESSIONS
from trainer.models.exam import ExamStatus
from trainer.services import house_ways
from trainer.services.drills.context import build
from trainer.services.group_settings import GroupSettings
from trainer.services.refusals import Conflict, Forbidden, NotFound, Refused
from trainer.services.timing import GRACE_MS

# How often a device asks (docs/classroom.md, "Real time"): every change reaches the last
# of 40 devices within a second (the poll plus its trip), at about 53 requests a second.
POLL_MS = 750
# A joined trainee is present while a device of theirs asked within this long; their
# presence row is written at most this often (one UPDATE, never on every poll).
PRESENT_FOR = timedelta(seconds=30)
TOUCH_EVERY = timedelta(seconds=10)
# The instructor's token changes this often on its own, so presence follows without a change.
ROSTER_REFRESH_S = 10
# An answer reaches the server up to this late after the timer's zero and still counts.
GRACE = timedelta(milliseconds=GRACE_MS)
TIMER_MAX_S = 600
# The sessions a class's answers are recorded in (``DrillSession.dealt``): practice only.
CLASS_DEALT = CLASS_SESSIONS


class ClassError(Refused):
    """A request the classroom refuses; ``status`` is the HTTP code, the message its words."""


class ClassNotFound(ClassError, NotFound):
    """No such class, or one the asker may not see."""


class NotAdmitted(ClassError, Forbidden):
    """The asker may not take part: not the group's trainee, not joined, or in an exam."""


class ClassClosed(ClassError, Conflict):
    """The class has ended, the hand is no longer on the table, or its answers are locked."""


def class_drill(kind: object) -> Drill:
    """Return the drill a class hand of ``kind`` is dealt by: a registered kind of single
    questions (a round's steps are a session's, not one hand's); ClassError otherwise."""
    drill = DRILLS.get(kind) if isinstance(kind, str) else None
    if drill is None or drill.steps:
        raise ClassError(Message(N_("There is no drill called %(kind)s for a class."),
                                 kind=repr(kind)))
    return drill


def group_context(group: Group) -> DrillContext:
    """Return the context a class of ``group`` deals under: the one builder's, from its settings."""
    try:
        return build(GroupSettings.of(group))
    except (house_ways.WayError, HouseWayError, ValueError) as error:
        raise ClassError(str(error)) from error


def hand_context(hand: ClassHand) -> DrillContext:
    """Return the context a hand was dealt under, from its stored JSON, by the one builder:
    the house way pinned to its recorded rules, the table rules as recorded."""
    data: dict[str, Any] = hand.context if isinstance(hand.context, dict) else {}
    table = data.get("table")
    policy = data.get("foul_policy")
    try:
        return build(GroupSettings(), house_way=str(data.get("house_way")),
                     house_way_digest=data.get("house_way_digest"),
                     profile=str(data.get("profile")),
                     table=TableProfile.from_dict(table) if isinstance(table, dict) else None,
                     foul_policy=FoulPolicy(policy) if policy else None)
    except (house_ways.WayError, HouseWayError, LookupError, ValueError, TypeError) as error:
        raise ClassError(str(error)) from error


def shown_question(hand: ClassHand) -> dict[str, Any]:
    """Return a hand's question as a page draws it: its JSON without the seed (from which a
    page could deal it again and learn its key)."""
    return {k: v for k, v in hand.question.items() if k != "seed"}


def get_class(class_id: int) -> LiveClass:
    """Return the class, or ClassNotFound."""
    live = db.session.get(LiveClass, class_id)
    if live is None:
        raise ClassNotFound(Message(N_("There is no such class.")))
    return live


def running_class(class_id: int) -> LiveClass:
    """Return the class while it runs; ClassClosed once it ended."""
    live = get_class(class_id)
    if live.state != "running":
        raise ClassClosed(Message(N_("This class has ended.")))
    return live


def current_hand(live: LiveClass) -> ClassHand | None:
    """Return the hand on the class's table, or None before the first deal."""
    if not live.current_number:
        return None
    return db.session.execute(select(ClassHand).filter_by(
        class_id=live.id, number=live.current_number)).scalar_one_or_none()


def changed(statement: Any) -> int:
    """Run an UPDATE (conditional: the guard of a state change) and return the rows it changed."""
    result = cast("CursorResult[Any]", db.session.execute(
        statement.execution_options(synchronize_session=False)))
    return result.rowcount


def bump_version(class_id: int) -> None:
    """Count one change every device sees (a deal, a lock, a reveal, the timer, the end)."""
    db.session.execute(update(LiveClass).where(LiveClass.id == class_id)
                       .values(version=LiveClass.version + 1))


# --- the poll's one read -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PollRow:
    """A class, its current hand and the asker's place in it, as the poll reads them."""

    class_id: int
    group_id: int
    state: str
    version: int
    roster: int
    number: int
    hand_id: int | None
    hand_state: str | None
    revision: int | None
    deadline: datetime | None
    # The asker's presence (None: not joined), answer changes (None: not delivered yet),
    # and whether they are a member of the class's group now.
    last_seen_at: datetime | None
    changes: int | None
    member: bool
    # The hand's kind and the asker's answer to it (None: none yet); whether the asker has
    # an exam session or claim open (only then is ``exam_in_progress`` asked).
    kind: str | None = None
    answer: dict[str, Any] | None = None
    exam_open: bool = True

    def remaining_ms(self, now: datetime) -> int | None:
        """Return the open hand's time left, or None without a timer (or once locked)."""
        if self.hand_state != "open" or self.deadline is None:
            return None
        return max(0, int((self.deadline - now).total_seconds() * 1000))

    @property
    def joined(self) -> bool:
        """Tell whether the asker joined the class."""
        return self.last_seen_at is not None

    def timer_over(self, now: datetime) -> bool:
        """Tell whether the open hand's timer ran out (its grace included): it locks."""
        return (self.hand_state == "open" and self.deadline is not None
                and now > self.deadline + GRACE)


@functools.cache
def poll_statement() -> Any:
    """Build, once a process, the poll's SELECT (the class and user ids bound per call; its
    first ``POLL_COLUMNS`` columns make a ``PollRow``, ``poll_row_of``)."""
    c, h = LiveClass.__table__, ClassHand.__table__
    p, a, m = ClassPresence.__table__, ClassAnswer.__table__, Membership.__table__
    s, e = DrillSession.__table__, CertificationExam.__table__
    user: Any = bindparam("user_id")
    # A screen for ``exam_in_progress`` (which reads the exams' times): an exam session not
    # finished, or an exam claimed before its session is made. Without either, no exam runs.
    exam_open = or_(
        exists().where(s.c.user_id == user, s.c.mode == "exam", s.c.finished_at.is_(None)),
        exists().where(e.c.trainee_id == user, e.c.status == ExamStatus.STARTED.value,
                       e.c.session_id.is_(None)))
    joined = (
        c.outerjoin(h, and_(h.c.class_id == c.c.id, h.c.number == c.c.current_number))
        .outerjoin(p, and_(p.c.class_id == c.c.id, p.c.user_id == user))
        .outerjoin(a, and_(a.c.hand_id == h.c.id, a.c.user_id == user))
        .outerjoin(m, and_(m.c.user_id == user, m.c.group_id == c.c.group_id))
    )
    return (select(c.c.id, c.c.group_id, c.c.state, c.c.version, c.c.roster, c.c.current_number,
                   h.c.id, h.c.state, h.c.revision, h.c.deadline, p.c.last_seen_at,
                   a.c.changes, m.c.user_id, h.c.kind, a.c.answer, exam_open.label("exam_open"))
            .select_from(joined).where(c.c.id == bindparam("class_id")))


POLL_COLUMNS = 16


def poll_row(class_id: int, user_id: int) -> PollRow | None:
    """Read the class, its current hand and ``user_id``'s place in it: one statement."""
    row = db.session.connection().execute(
        poll_statement(), {"class_id": class_id, "user_id": user_id}).first()
    return None if row is None else poll_row_of(row)


def poll_row_of(row: Any) -> PollRow:
    """Return the ``PollRow`` of a row of ``poll_statement`` (its first columns)."""
    return PollRow(class_id=row[0], group_id=row[1], state=row[2], version=row[3],
                   roster=row[4], number=row[5], hand_id=row[6], hand_state=row[7],
                   revision=row[8], deadline=row[9], last_seen_at=row[10], changes=row[11],
                   member=row[12] is not None, kind=row[13], answer=row[14],
                   exam_open=bool(row[15]))
