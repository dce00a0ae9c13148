"""The queries readiness is judged from: each trainee's window of recent counted answers
(the criteria's, questions or settled positions), a session's figures, and exam records.

A window is the last ``window`` answers of a drill in timed sessions or exams dealt by
the balanced generator (``aggregates.TIMED_MODES``, ``COUNTED_DEALT``), found from each
trainee's cutoff without ranking their whole history (``_recent_timed``).
"""
from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import aliased

from trainer.engine.drills import get_drill
from trainer.extensions import db
from trainer.models import (
    Attempt,
    CertificationExam,
    DrillSession,
    User,
)
from trainer.services.certification.criteria import Criterion, ExamRecord
from trainer.services.reports.aggregates import (
    COUNTED_DEALT,
    TIMED_MODES,
    as_float,
    median_rows,
    right_answer,
)
from trainer.services.reports.figures import (
    Figures,
    median,
)

# Before every answer: a cutoff that keeps them all.
EARLIEST = datetime(1, 1, 1, tzinfo=UTC)


def _recent_timed(user_ids: Sequence[int], kind: str, window: int, columns: Sequence[Any]) -> Any:
    """The last ``window`` counted attempts of ``kind`` of each user, ranked newest first.

    Counted: of a timed session or exam dealt by the balanced generator (``TIMED_MODES``,
    ``COUNTED_DEALT``), never of "my mistakes" or other focused practice.

    First each user's cutoff, the time of their window-th latest timed answer (one
    short walk down the (user_id, kind, answered_at) index per user), then only
    the answers from the cutoff on: the query never ranks a trainee's whole history.
    """
    older, older_session = aliased(Attempt), aliased(DrillSession)
    cutoff = (
        select(older.answered_at)
        .join(older_session, older_session.id == older.session_id)
        .where(older.user_id == User.id, older.kind == kind,
               older_session.mode.in_(TIMED_MODES), older_session.dealt == COUNTED_DEALT)
        .order_by(older.answered_at.desc())
        .limit(1)
        .offset(window - 1)
        .correlate(User)
        .scalar_subquery()
    )
    # MATERIALIZED (SQLite 3.35+, PostgreSQL 12+): work each cutoff out once, not per row.
    # Fewer than ``window`` timed answers: no cutoff, every answer counts. The
    # earliest time stands in for it rather than NULL, so the join below stays a
    # plain range on the index (with "cutoff IS NULL OR ..." SQLite walked every
    # answer of the drill, each with its session, and filtered afterwards).
    cutoffs = select(
        User.id.label("user_id"),
        func.coalesce(cutoff, bindparam("earliest", EARLIEST, type_=Attempt.answered_at.type))
        .label("cutoff"),
    ).where(User.id.in_(user_ids)).cte("cutoffs").prefix_with("MATERIALIZED")
    query = (
        select(
            Attempt.user_id, *columns,
            func.row_number().over(
                partition_by=Attempt.user_id,
                order_by=(Attempt.answered_at.desc(), Attempt.id.desc()),
            ).label("recent"),
        )
        .join(DrillSession, DrillSession.id == Attempt.session_id)
        .join(cutoffs, cutoffs.c.user_id == Attempt.user_id)
        .where(
            Attempt.kind == kind, DrillSession.mode.in_(TIMED_MODES),
            DrillSession.dealt == COUNTED_DEALT,
            Attempt.answered_at >= cutoffs.c.cutoff,
        )
    )
    if db.session.get_bind().dialect.name == "postgresql":
        # The user ids again, beside the join: PostgreSQL's planner then walks the
        # (user_id, kind, answered_at) index instead of scanning every attempt.
        query = query.where(Attempt.user_id.in_(user_ids))
    latest = query.subquery()
    # Answers sharing the cutoff's instant could overshoot the window: rank and trim.
    return select(latest).where(latest.c.recent <= window).subquery()


def window_figures(user_ids: Sequence[int], criterion: Criterion) -> dict[int, Figures]:
    """Return each user's figures over the criterion's window of recent timed answers."""
    if criterion.counts_positions:
        return _position_window(user_ids, criterion)
    ranked = _recent_timed(
        user_ids, criterion.kind, criterion.window,
        [Attempt.elapsed_ms, right_answer().label("right")],
    )
    rows = db.session.execute(median_rows(ranked, ["user_id"])).all()
    return {
        row.user_id: Figures(row.answered, int(row.right or 0), as_float(row.median_ms))
        for row in rows
    }


def _position_window(user_ids: Sequence[int], criterion: Criterion) -> dict[int, Figures]:
    # Each settlement question has at least one position, so the last ``window``
    # questions always hold the last ``window`` positions. The ranking reads only
    # the covering index; the JSON is read for the chosen rows alone. The window
    # counts exactly ``window`` positions: of the oldest question that straddles
    # its edge only the positions still needed count, in seat order (a table's
    # positions are settled at one instant), so "Counted" never exceeds the window.
    drill = get_drill(criterion.kind)
    ranked = _recent_timed(user_ids, criterion.kind, criterion.window, [Attempt.id.label("attempt_id")])
    chosen = select(ranked.c.attempt_id, ranked.c.recent).subquery()
    rows = db.session.execute(
        select(Attempt.user_id, Attempt.elapsed_ms, Attempt.timed_out, Attempt.answer,
               Attempt.correct_answer)
        .join(chosen, chosen.c.attempt_id == Attempt.id)
        .order_by(Attempt.user_id, chosen.c.recent)
    ).all()
    counted: dict[int, list[bool]] = {}
    times: dict[int, list[int]] = {}
    for row in rows:
        positions = counted.setdefault(row.user_id, [])
        if len(positions) >= criterion.window:
            continue
        needed = criterion.window - len(positions)
        positions.extend(drill.part_results(row.answer, row.correct_answer, row.timed_out)[:needed])
        times.setdefault(row.user_id, []).append(row.elapsed_ms)
    return {
        user_id: Figures(len(results), sum(results), median(times[user_id]))
        for user_id, results in counted.items()
    }


def exam_records(user_ids: Any) -> dict[int, list[ExamRecord]]:
    """Return each user's certification exams, newest first."""
    exams = db.session.execute(
        select(CertificationExam)
        .where(CertificationExam.trainee_id.in_(user_ids))
        .order_by(CertificationExam.scheduled_at.desc(), CertificationExam.id.desc())
    ).scalars()
    result: dict[int, list[ExamRecord]] = {}
    for exam in exams:
        result.setdefault(exam.trainee_id, []).append(as_record(exam))
    return result


def as_record(exam: CertificationExam) -> ExamRecord:
    """Return the plain record of an exam row."""
    return ExamRecord(
        id=exam.id, trainee_id=exam.trainee_id, kind=exam.kind, status=exam.status,
        scheduled_at=exam.scheduled_at, finished_at=exam.finished_at, passed=exam.passed,
        house_way=exam.house_way, profile=exam.profile, table_rules=exam.table_rules,
        criterion=Criterion.from_dict(exam.criteria),
        figures=Figures(exam.counted or 0, exam.right or 0,
                        None if exam.median_ms is None else float(exam.median_ms)),
    )


def session_figures(session_id: int, criterion: Criterion) -> Figures:
    """Return a session's figures as the criterion counts them (questions or positions)."""
    if criterion.counts_positions:
        rows = db.session.execute(
            select(Attempt.elapsed_ms, Attempt.timed_out, Attempt.answer, Attempt.correct_answer)
            .where(Attempt.session_id == session_id)
        ).all()
        drill = get_drill(criterion.kind)
        results = [ok for row in rows
                   for ok in drill.part_results(row.answer, row.correct_answer, row.timed_out)]
        return Figures(len(results), sum(results), median([row.elapsed_ms for row in rows]))
    source = select(
        Attempt.session_id, Attempt.elapsed_ms, right_answer().label("right")
    ).where(Attempt.session_id == session_id)
    row = db.session.execute(median_rows(source.subquery(), ["session_id"])).first()
    if row is None:
        return Figures()
    return Figures(row.answered, int(row.right or 0), as_float(row.median_ms))
