"""The drills' hand-built fast store: the rows a question and an answer read and write.

Showing a question and answering it are the app's hot path (issue 15: at most four SQL
statements a request, the sign-in's included, and at most 8x ``/healthz``'s server
time). So the session, its question and its exam are read in one statement of columns
into plain rows (``SessionRow``, ``IssuedRow``, ``ExamRow``), not ORM objects; the new
question and the attempt are dicts for one Core ``INSERT`` each; the clock's start and
the session's end are one Core ``UPDATE`` each; and every statement is built once a
process with bound parameters and run on the ORM session's own connection and
transaction (``execute``). A row is changed in memory only after its commit holds.

The rows hold the JSON a row stores (a question's ``question_json``, the context's
``as_dict``): the sessions read it through the drill at that edge. The stored shapes are
built here only (``issued_values``, ``attempt_values``), for the sessions, the timeout
sweeper and the demo class alike.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import and_, bindparam, select

from trainer.extensions import db
from trainer.models import Attempt, CertificationExam, DrillSession, IssuedQuestion
from trainer.services.learning import records


@dataclass(slots=True)
class SessionRow:
    """The columns of a drill session that showing and answering a question read.

    A plain row, not the ORM's ``DrillSession``: building ORM objects for the one
    read of a request cost about as much as the read (issue 15). Its two writes
    (the clock's start, the session's end) are Core UPDATEs (``set_issued_at``,
    ``set_finished_at``).
    """

    id: int
    user_id: int
    kind: str
    mode: str
    length: int
    time_limit_ms: int | None
    started_at: datetime
    finished_at: datetime | None
    # How it is dealt (``DrillSession.dealt``) and the time its answers are rated by (issue 30).
    dealt: str = "balanced"
    rating_time_ms: int | None = None


@dataclass(slots=True)
class IssuedRow:
    """The columns of an issued question (``IssuedQuestion``) as a plain row (JSON as stored)."""

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


class Loaded(NamedTuple):
    """A session with one of its questions, whether that is answered, the session's exam row,
    and (read to answer it) the trainee's memories of the kind (``learning.records``)."""

    session: SessionRow
    issued: IssuedRow | None
    answered: bool
    exam: ExamRow | None
    memories: str | None = None


SESSION_COLUMNS = ("id", "user_id", "kind", "mode", "length", "time_limit_ms", "started_at",
                   "finished_at", "dealt", "rating_time_ms")
ISSUED_COLUMNS = ("id", "session_id", "position", "seed", "question", "context", "rule_id",
                  "issued_at")
EXAM_COLUMNS = ("started_at", "length", "time_limit_ms")
# Where each part ends in a row of ``row_columns``: the session's, the question's, then the
# exam's id and columns, then (``load``) whether the question is answered and the memories.
SESSION_END = len(SESSION_COLUMNS)
ISSUED_END = SESSION_END + len(ISSUED_COLUMNS)
EXAM_END = ISSUED_END + 1 + len(EXAM_COLUMNS)


def row_columns() -> list[Any]:
    """Return the columns of a session, its question and its exam, in ``split_row`` order."""
    return [
        *(DrillSession.__table__.c[name] for name in SESSION_COLUMNS),
        *(IssuedQuestion.__table__.c[name] for name in ISSUED_COLUMNS),
        CertificationExam.__table__.c.id,
        *(CertificationExam.__table__.c[name] for name in EXAM_COLUMNS),
    ]


def split_row(row: Any) -> tuple[SessionRow, IssuedRow | None, ExamRow | None]:
    """Split a row of ``row_columns`` (then anything) into the session, question and exam."""
    session = SessionRow(*row[:SESSION_END])
    issued = IssuedRow(*row[SESSION_END:ISSUED_END]) if row[SESSION_END] is not None else None
    exam = ExamRow(*row[ISSUED_END + 1:EXAM_END]) if row[ISSUED_END] is not None else None
    return session, issued, exam


@functools.cache
def _load_statement(latest: bool) -> Any:
    """Build, once per process, the read of ``load``: a session, one question, its exam, its EXISTS.

    The session id (and the position, unless ``latest``) are bound parameters, so a
    request only executes it: building the select anew cost about as much as running it.
    It selects columns, not ORM entities (``SessionRow``, ``IssuedRow``). The read of a
    question to answer (not ``latest``) also reads the trainee's memories of the kind, as
    one text (``learning.records.aggregate_column``): the answer reviews one (issue 30).
    """
    if latest:
        on = IssuedQuestion.session_id == DrillSession.id
    else:
        on = and_(IssuedQuestion.session_id == DrillSession.id,
                  IssuedQuestion.position == bindparam("position"))
    answered = select(Attempt.id).where(
        Attempt.session_id == IssuedQuestion.session_id, Attempt.position == IssuedQuestion.position
    ).exists()
    extra = [] if latest else [records.aggregate_column()]
    query = (
        select(*row_columns(), answered, *extra)
        .select_from(DrillSession)
        .outerjoin(IssuedQuestion, on)
        .outerjoin(CertificationExam, CertificationExam.session_id == DrillSession.id)
        .where(DrillSession.id == bindparam("session_id"))
    )
    if latest:
        query = query.order_by(IssuedQuestion.position.desc()).limit(1)
    return query


def execute(statement: Any, params: dict[str, Any]) -> Any:
    """Run a Core statement of the hot path on the ORM session's own connection and transaction.

    ``db.session.execute`` passes a Core statement through the ORM's execution (its
    events, bind lookup, autoflush and result wrapping): about 0.05 ms a statement of
    the 0.1 it took (issue 15, sixth round). The statement, its transaction and its
    errors (``IntegrityError`` on a repeat) are the same; nothing is autoflushed, and
    the hot path leaves no ORM object pending (its rows are Core rows and dicts).
    """
    return db.session.connection().execute(statement, params)


def load(session_id: int, position: int | None = None) -> Loaded | None:
    """Read, in one statement, a session, its question at ``position`` (else its latest),
    whether that is answered, and its exam row; None when there is no such session.

    Showing and answering a question each start with this one read (issue 15: at
    most four statements a request, the sign-in's included). Whose session it is, is
    the caller's to check (``SessionRow.user_id``).
    """
    params: dict[str, int] = {"session_id": session_id}
    if position is not None:
        params["position"] = position
    row = execute(_load_statement(position is None), params).first()
    if row is None:
        return None
    session, issued, exam = split_row(row)
    return Loaded(session, issued, bool(row[EXAM_END]), exam,
                  None if position is None else row[EXAM_END + 1])


@functools.cache
def _update_statement(table: Any, column: str) -> Any:
    """Build, once per process, ``UPDATE table SET column = :value WHERE id = :row_id``."""
    return table.update().where(table.c.id == bindparam("row_id")).values(
        {column: bindparam("value")})


def set_issued_at(issued: IssuedRow, when: datetime) -> None:
    """Start a question's clock: one UPDATE (the row is set once the commit holds)."""
    execute(_update_statement(IssuedQuestion.__table__, "issued_at"),
            {"row_id": issued.id, "value": when})


def set_finished_at(session: SessionRow, when: datetime) -> None:
    """Mark a session finished: one UPDATE (the row is set once the commit holds)."""
    execute(_update_statement(DrillSession.__table__, "finished_at"),
            {"row_id": session.id, "value": when})


@functools.cache
def _insert_statement(table: Any) -> Any:
    """Build, once per process, the INSERT of a row of ``table`` (its values bound per call)."""
    return table.insert()


def insert_row(table: Any, values: dict[str, Any]) -> int:
    """INSERT one new question or attempt and return its id: one statement, as a flush.

    The ORM's flush of one new object cost about 0.3 ms of CPU (the unit of work)
    for the same single INSERT, and building the ORM object itself about 0.03 ms
    (issue 15: a question and an answer in 2 ms), so the row is a dict of its
    values. The columns not given take their defaults, as in a flush. A duplicate
    ``(session_id, position)`` raises ``IntegrityError`` here, as the flush did.
    """
    result: Any = execute(_insert_statement(table), values)
    return int(result.inserted_primary_key[0])


def issued(session_id: int, position: int) -> IssuedRow | None:
    """Return a session's question at ``position``, or None."""
    return _issued_where(IssuedQuestion.__table__.c.position == position, session_id)


def last_issued(session_id: int) -> IssuedRow | None:
    """Return a session's latest question, or None."""
    return _issued_where(None, session_id)


def _issued_where(condition: Any, session_id: int) -> IssuedRow | None:
    table = IssuedQuestion.__table__
    query = select(*(table.c[name] for name in ISSUED_COLUMNS)).where(
        table.c.session_id == session_id)
    if condition is not None:
        query = query.where(condition)
    row = db.session.execute(query.order_by(table.c.position.desc()).limit(1)).first()
    return IssuedRow(*row) if row is not None else None


def issued_values(session_id: int, position: int, seed: int, question: dict[str, Any],
                  context: dict[str, Any], rule_id: str | None,
                  issued_at: datetime | None) -> dict[str, Any]:
    """Return an issued question's row (``IssuedQuestion``): its question's and context's JSON."""
    return {"session_id": session_id, "position": position, "seed": seed, "question": question,
            "context": context, "rule_id": rule_id, "issued_at": issued_at}


def attempt_values(*, session_id: int, position: int, user_id: int, kind: str, seed: int,
                   question: dict[str, Any], context: dict[str, Any],
                   answer: dict[str, Any] | None, correct_answer: dict[str, Any] | None,
                   correct: bool, timed_out: bool, rule_id: str | None, issued_at: datetime,
                   answered_at: datetime, elapsed_ms: int) -> dict[str, Any]:
    """Return an attempt's row (``Attempt``): the question's JSON with its context inside,
    so the attempt replays on its own, the answer's and the key's JSON (None: none)."""
    return {
        "session_id": session_id, "position": position, "user_id": user_id, "kind": kind,
        "seed": seed, "question": {**question, "context": context}, "answer": answer,
        "correct_answer": correct_answer, "correct": correct, "timed_out": timed_out,
        "rule_id": rule_id, "issued_at": issued_at, "answered_at": answered_at,
        "elapsed_ms": elapsed_ms,
    }


def split_attempt_question(stored: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return an attempt's stored question as (the question's JSON, its context's JSON):
    ``attempt_values`` put the context inside; anything that is no object reads as {}."""
    data = stored if isinstance(stored, dict) else {}
    context = data.get("context")
    return ({k: v for k, v in data.items() if k != "context"},
            context if isinstance(context, dict) else {})
