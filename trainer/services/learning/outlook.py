"""The forecast for the pages: "at your pace, ready for the exam in about N sessions (M hands)".

``forecast(user_id, kind)`` returns the numbers (``engine/learning/forecast``: the method,
docs/learning.md "The forecast"), from:

- the trainee's memories of the kind under their group's rules (brought up to date);
- the group's criterion for the kind (None without one: nothing to be ready for): its
  accuracy, and whether the trainee's latest window of counted answers already meets it
  (the criterion's own figures, the answers of an exam not yet ended left out);
- their pace: the group's session length for the kind; their sessions a day, the
  practice sessions of the kind they started in the last ``PACE_DAYS`` days over those
  days (at least one a week, at most ``MOST_A_DAY``; one a day with none); their median
  answer time over their latest ``PACE_ANSWERS`` answers (the time limit with none).
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select

from trainer.engine.drills import get_drill
from trainer.engine.learning.catalogue import catalogue
from trainer.engine.learning.forecast import Forecast, Outlook, Pace
from trainer.engine.learning.forecast import forecast as worked_out
from trainer.extensions import db
from trainer.models import Attempt, DrillSession, utcnow
from trainer.services.certification.criteria import Criterion
from trainer.services.certification.sealing import sealed_session_ids
from trainer.services.drills.context import build, group_of
from trainer.services.group_settings import GroupSettings
from trainer.services.learning.memory import bring_up_to_date
from trainer.services.learning.plan import key_of
from trainer.services.learning.records import memories_of
from trainer.services.reports.aggregates import COUNTED_DEALT, TIMED_MODES
from trainer.services.reports.figures import Figures

PACE_DAYS = 14
PACE_ANSWERS = 200
MOST_A_DAY = 3.0


@dataclass(frozen=True)
class Outcome:
    """The forecast with what it was worked out from."""

    kind: str
    criterion: Criterion
    pace: Pace
    forecast: Forecast


def _criterion(settings: GroupSettings, kind: str) -> Criterion | None:
    return next((c for c in settings.certification_criteria if c.kind == kind), None)


def window_figures(user_id: int, criterion: Criterion, hidden: set[int]) -> Figures:
    """Return the trainee's figures over the criterion's window of counted answers (timed
    or exam, balanced), those of the sessions ``hidden`` (an exam not yet ended) left out."""
    query = (select(Attempt.correct, Attempt.timed_out, Attempt.elapsed_ms, Attempt.answer,
                    Attempt.correct_answer)
             .join(DrillSession, DrillSession.id == Attempt.session_id)
             .where(Attempt.user_id == user_id, Attempt.kind == criterion.kind,
                    DrillSession.mode.in_(TIMED_MODES), DrillSession.dealt == COUNTED_DEALT)
             .order_by(Attempt.answered_at.desc(), Attempt.id.desc())
             .limit(criterion.window))
    if hidden:
        query = query.where(Attempt.session_id.not_in(sorted(hidden)))
    rows = db.session.execute(query).all()
    times = [r.elapsed_ms for r in rows]
    if criterion.counts_positions:
        drill = get_drill(criterion.kind)
        parts = [p for r in rows for p in drill.part_results(r.answer, r.correct_answer,
                                                            r.timed_out)]
        parts = parts[:criterion.window]
        return Figures(len(parts), sum(parts), statistics.median(times) if times else None)
    right = sum(bool(r.correct and not r.timed_out) for r in rows)
    return Figures(len(rows), right, statistics.median(times) if times else None)


def pace(user_id: int, kind: str, settings: GroupSettings, hidden: set[int],
         now: datetime) -> Pace:
    """Return the trainee's pace in ``kind`` (module docstring)."""
    started = db.session.execute(
        select(func.count()).select_from(DrillSession).where(
            DrillSession.user_id == user_id, DrillSession.kind == kind,
            DrillSession.mode != "exam",
            DrillSession.started_at >= now - timedelta(days=PACE_DAYS))).scalar_one()
    per_day = min(MOST_A_DAY, max(1 / 7, started / PACE_DAYS)) if started else 1.0
    query = (select(Attempt.elapsed_ms).where(
        Attempt.user_id == user_id, Attempt.kind == kind, Attempt.timed_out.is_(False))
        .order_by(Attempt.answered_at.desc()).limit(PACE_ANSWERS))
    if hidden:
        query = query.where(Attempt.session_id.not_in(sorted(hidden)))
    times = db.session.execute(query).scalars().all()
    answer_s = statistics.median(times) / 1000 if times else float(settings.time_limit_s(kind))
    return Pace(session_length=settings.length(kind), sessions_per_day=per_day,
                answer_s=answer_s)


def forecast(user_id: int, kind: str, now: datetime | None = None) -> Outcome | None:
    """Return the trainee's forecast in ``kind`` (None when their group has no criterion for
    it); committed (the memories are brought up to date first)."""
    now = now or utcnow()
    settings, _group_id = group_of(user_id)
    criterion = _criterion(settings, kind)
    if criterion is None:
        return None
    context = build(settings)
    bring_up_to_date([user_id], kind)
    db.session.commit()
    hidden = sealed_session_ids(user_id)
    cat = catalogue(get_drill(kind), context)
    memories = memories_of([user_id], kind)[user_id]
    skills = []
    for i, skill in enumerate(cat.skills):
        memory = memories.get(key_of(cat, skill, context))
        skills.append(Outlook(None if memory is None else memory.card, i in cat.floor,
                              None if memory is None else memory.recent_miss))
    figures = window_figures(user_id, criterion, hidden)
    met = figures.answered >= criterion.window and criterion.passes(figures)
    trainee_pace = pace(user_id, kind, settings, hidden, now)
    return Outcome(kind, criterion, trainee_pace,
                   worked_out(skills, now, trainee_pace, criterion.min_accuracy / 100,
                              criterion.window, met))
