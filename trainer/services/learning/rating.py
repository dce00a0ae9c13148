"""The answer time a session's right answers are rated against (``DrillSession.rating_time_ms``).

A right answer slower than it is rated Hard, one in under half of it Easy
(``engine/learning/memory.rating``). It is fixed when the session starts, so the
answer needs no look-up (issue 30: at most five statements an answer), and is:

1. the time of the group's criterion for the drill kind (its median answer time, e.g.
   8 s for the house way), when the group's criterion for the kind has one;
2. when the group has no criterion for the kind, the time of the kind's own default
   criterion (``Drill.criterion``), when it has one;
3. else the group's median answer time in the kind: the median of the elapsed times of
   the group's latest ``MEDIAN_ANSWERS`` answers in it that did not time out (one query,
   kept ``MEDIAN_SECONDS`` per process and group: a session start in a busy room reads it
   once every few minutes), when there are at least ``MEDIAN_MIN`` of them;
4. else None: right answers are rated Good.
"""
from __future__ import annotations

import statistics
import threading
import time

from sqlalchemy import select

from trainer.engine.drills import DRILLS
from trainer.extensions import db
from trainer.models import Attempt, Membership
from trainer.services.group_settings import GroupSettings

MEDIAN_ANSWERS = 1000
MEDIAN_MIN = 20
MEDIAN_SECONDS = 600.0

_MEDIANS: dict[tuple[int, str], tuple[float, int | None]] = {}
_LOCK = threading.Lock()


def criterion_ms(settings: GroupSettings, kind: str) -> tuple[bool, int | None]:
    """Return whether a criterion covers ``kind`` (the group's, else the kind's default) and
    its answer time in ms (None when that criterion sets none)."""
    for criterion in settings.certification_criteria:
        if criterion.kind == kind:
            seconds = criterion.max_median_s
            return True, None if seconds is None else round(seconds * 1000)
    drill = DRILLS.get(kind)
    if drill is not None and drill.criterion is not None:
        seconds = drill.criterion.max_median_s
        return True, None if seconds is None else round(seconds * 1000)
    return False, None


def group_median_ms(group_id: int | None, kind: str) -> int | None:
    """Return the group's median answer time in ``kind`` (module docstring, step 3), or None."""
    if group_id is None:
        return None
    now = time.monotonic()
    with _LOCK:
        kept = _MEDIANS.get((group_id, kind))
    if kept is not None and kept[0] > now:
        return kept[1]
    elapsed = db.session.execute(
        select(Attempt.elapsed_ms)
        .join(Membership, Membership.user_id == Attempt.user_id)
        .where(Membership.group_id == group_id, Attempt.kind == kind,
               Attempt.timed_out.is_(False))
        .order_by(Attempt.answered_at.desc())
        .limit(MEDIAN_ANSWERS)).scalars().all()
    median = round(statistics.median(elapsed)) if len(elapsed) >= MEDIAN_MIN else None
    with _LOCK:
        _MEDIANS[(group_id, kind)] = (now + MEDIAN_SECONDS, median)
    return median


def rating_time_ms(settings: GroupSettings, group_id: int | None, kind: str) -> int | None:
    """Return the answer time a new session of ``kind`` in the group rates right answers by."""
    covered, ms = criterion_ms(settings, kind)
    if covered and ms is not None:
        return ms
    return group_median_ms(group_id, kind)


def forget() -> None:
    """Drop the medians kept (tests; a process never needs to)."""
    with _LOCK:
        _MEDIANS.clear()
