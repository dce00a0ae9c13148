"""The app's side of jobs: start one (exactly once per piece of work), read it, restart it.

``submit`` queues a job once per key (the row's unique ``active_key``), answers a live
or a finished job of the same work instead of running it again, and holds each person
to their limits (``JobRefused``, in words). ``state`` is a job as a page shows it: a
job whose worker shows no life reads failed, "the worker stopped", and ``restart`` (or
a new ``submit`` of its key) marks it so and starts it again on a new row.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError

from trainer.engine.messages import N_, Message
from trainer.extensions import db
from trainer.models import Job, utcnow
from trainer.models.job import PROGRESS_FULL

from .kinds import LONG, SHORT, JobRefused, UnknownJob, kind_function, kind_queue, said_message
from .rows import ACTIVE, DONE, FAILED, QUEUED, RUNNING, WORKER_STOPPED, mark_failed
from .running import DEFAULT_STALE_SECONDS, Runner

# Per person (issue 25): long jobs running or waiting at once, queued PDFs.
LONG_ACTIVE_PER_USER = 4  # one running and three queued
SHORT_QUEUED_PER_USER = 1
KEY_LENGTH = 400


@dataclass(frozen=True)
class JobState:
    """A job as a page shows it: a stale job reads failed, "the worker stopped"."""

    id: int
    kind: str
    status: str            # queued, running, done or failed
    progress: float        # 0..1
    message: str | None
    result: Any
    error: str | None
    stale: bool
    finished_at: datetime | None
    said: Message | None = None  # the error as a message to translate (``JobFailed``)

    @property
    def active(self) -> bool:
        """Tell whether the job is still queued or running (poll again)."""
        return self.status in ACTIVE

    def as_dict(self) -> dict[str, Any]:
        """The state for the progress bar's JSON endpoint (without the result)."""
        return {"id": self.id, "status": self.status, "progress": round(self.progress, 3),
                "message": self.message, "error": self.error, "stale": self.stale,
                "active": self.active}


def get(job_id: int) -> Job | None:
    """Return the job with this id, or None."""
    return db.session.get(Job, job_id)


def latest(key: str) -> Job | None:
    """Return the newest job of this key (any status), or None."""
    return db.session.execute(
        select(Job).where(Job.key == key).order_by(Job.id.desc()).limit(1)).scalar_one_or_none()


def _active(key: str) -> Job | None:
    return db.session.execute(select(Job).where(Job.active_key == key)).scalar_one_or_none()


def _latest_done(key: str) -> Job | None:
    return db.session.execute(
        select(Job).where(Job.key == key, Job.status == DONE)
        .order_by(Job.id.desc()).limit(1)).scalar_one_or_none()


def is_stale(job: Job, stale_seconds: int = DEFAULT_STALE_SECONDS, now: datetime | None = None) -> bool:
    """Tell whether a queued or running job's worker shows no life for ``stale_seconds``."""
    if job.status not in ACTIVE:
        return False
    cutoff = (now or utcnow()) - timedelta(seconds=stale_seconds)
    seen = job.heartbeat_at or job.started_at or job.created_at
    if seen is not None and seen >= cutoff:
        return False
    if job.status == RUNNING:
        return True
    # Queued behind another job: alive while some running job heartbeats.
    busy = db.session.execute(
        select(func.count(Job.id)).where(Job.status == RUNNING, Job.heartbeat_at >= cutoff)).scalar()
    return not busy


def state(job: Job, stale_seconds: int = DEFAULT_STALE_SECONDS) -> JobState:
    """Return the job as shown: its progress 0..1, and failed "the worker stopped" when stale."""
    stale = is_stale(job, stale_seconds)
    return JobState(
        id=job.id, kind=job.kind,
        status=FAILED if stale else job.status,
        progress=(job.progress or 0) / PROGRESS_FULL,
        message=job.message,
        result=job.result if job.status == DONE else None,
        error=WORKER_STOPPED if stale else job.error,
        stale=stale,
        finished_at=job.finished_at,
        said=said_message(job.result.get("said")) if job.status == FAILED and not stale
        and isinstance(job.result, Mapping) else None)


def _release_if_stale(job: Job, runner: Runner) -> bool:
    """Mark a stale job failed ("the worker stopped") and free its key; tell whether it was stale."""
    if not is_stale(job, runner.stale_seconds):
        return False
    cutoff = utcnow() - timedelta(seconds=runner.stale_seconds)
    job_id = job.id
    mark_failed(db.session, job_id, WORKER_STOPPED, statuses=ACTIVE, before=cutoff)
    db.session.commit()
    db.session.expire_all()
    return True


def _over_limit(queue: str, user_id: int, key: str, job_id: int | None = None) -> Message | None:
    """Say why ``user_id`` may not start another job in ``queue`` (None: they may); a
    job of the same ``key`` (the same work) does not count.

    With ``job_id`` (after the insert), only that person's jobs up to it count: of two
    submits at the same moment, the earlier keeps its place.
    """
    if queue == LONG:
        query = select(func.count(Job.id)).where(
            Job.created_by_id == user_id, Job.queue == LONG, Job.status.in_(ACTIVE))
        most = LONG_ACTIVE_PER_USER
        words = Message(N_("You already have %(most)s house-way jobs running or waiting: wait "
                           "for one to finish before starting another."), most=most)
    else:
        query = select(func.count(Job.id)).where(
            Job.created_by_id == user_id, Job.queue == SHORT, Job.status == QUEUED)
        most = SHORT_QUEUED_PER_USER
        words = Message(N_("A PDF you asked for is still being prepared: wait for it before "
                           "asking for another."))
    query = query.where(Job.key != key)
    if job_id is not None:
        query = query.where(Job.id <= job_id)
    count = db.session.execute(query).scalar() or 0
    over = count >= most
    return words if over else None


def submit(kind: str, key: str, params: Mapping[str, Any], user_id: int | None = None, *,
           runner: Runner) -> Job:
    """Start job ``kind`` on ``params`` once for ``key``; return the job that does the work.

    The queued or running job of this key is returned as it is (a stale one is
    marked stopped and a new one started); so is the newest ``done`` job of this key
    run on the same parameters: a finished job is answered, never run again, unless
    its inputs changed. Two calls at the same moment get the same job: the loser's
    insert fails on the unique ``active_key`` and it returns the winner's row.

    A job a person starts (``user_id``) counts against their limits (``JobRefused``,
    in words): at most four long jobs running or waiting, one PDF waiting. A job
    the system starts (``user_id`` None) counts against no one.
    """
    fn = kind_function(kind)
    queue = kind_queue(kind)
    if not 0 < len(key) <= KEY_LENGTH:
        raise ValueError(f"A job key is 1 to {KEY_LENGTH} characters long.")
    stored = json.loads(json.dumps(dict(params)))  # JSON-able, and a copy
    active = _active(key)
    if active is not None and not _release_if_stale(active, runner):
        return active
    done = _latest_done(key)
    if done is not None and done.params == stored:
        return done
    if user_id is not None:
        refused = _over_limit(queue, user_id, key)
        if refused is not None:
            raise JobRefused(refused)
    job = Job(kind=kind, key=key, active_key=key, params=stored, status=QUEUED, progress=0,
              queue=queue, attempts=0, created_by_id=user_id, created_at=utcnow())
    db.session.add(job)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        winner = _active(key) or latest(key)
        if winner is None:
            raise
        return winner
    job_id = job.id
    if user_id is not None:
        refused = _over_limit(queue, user_id, key, job_id)
        if refused is not None:  # another submit of this person's got in first
            db.session.execute(delete(Job).where(Job.id == job_id, Job.status == QUEUED))
            db.session.commit()
            raise JobRefused(refused)
    runner.dispatch(job_id, fn)
    db.session.commit()  # ends any read snapshot: the worker wrote the row on its own connection
    found = db.session.get(Job, job_id)
    assert found is not None
    return found


def restart(job_id: int, user_id: int | None = None, *, runner: Runner) -> Job:
    """Start a failed or stopped (stale) job again on a new row.

    A live job is returned as it is, and so is a finished one: its result is the
    answer (``submit`` runs a key again only when its parameters changed).
    """
    job = get(job_id)
    if job is None:
        raise UnknownJob("No job has that number.")
    if job.status == DONE:
        return job
    if job.status in ACTIVE and not _release_if_stale(job, runner):
        return job
    return submit(job.kind, job.key, job.params, user_id if user_id is not None else job.created_by_id,
                  runner=runner)
