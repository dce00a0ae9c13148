"""A job's row as the runner and the app both write it: its statuses, and marking it failed."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, update
from sqlalchemy.orm import Session, scoped_session

from trainer.models import Job, utcnow

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
ACTIVE = (QUEUED, RUNNING)
WORKER_STOPPED = "the worker stopped"


def mark_failed(session: Session | scoped_session[Any], job_id: int, message: str, *,
                statuses: tuple[str, ...], worker: str | None = None,
                before: datetime | None = None, said: Any = None) -> bool:
    """Mark a job failed with ``message`` and release its key, if it is still as expected
    (``said``: the message as ``said_json`` wrote it, kept as the result)."""
    now = utcnow()
    query = update(Job).where(Job.id == job_id, Job.status.in_(statuses))
    if worker is not None:
        query = query.where(Job.worker == worker)
    if before is not None:
        query = query.where(func.coalesce(Job.heartbeat_at, Job.created_at) < before)
    done = session.execute(query.values(
        status=FAILED, error=message, active_key=None, finished_at=now,
        result={"said": said} if said is not None else None),
        execution_options={"synchronize_session": False})
    return bool(getattr(done, "rowcount", 0))
