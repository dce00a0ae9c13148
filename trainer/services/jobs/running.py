"""Running one job: the runner, the claim, the kind's function, the heartbeat and the result.

In a ``trainer worker`` process (``services/job_worker.py``), or inline in the calling
thread (``Runner`` in ``inline`` mode, tests). Needs no Flask app: an engine of its
own and plain sessions. The result and ``done`` (or the error and ``failed``) are
written in one transaction with what the kind added to its session, only while the
row is still this worker's.
"""
from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
from collections.abc import Mapping
from typing import Any

from sqlalchemy import create_engine, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from trainer.models import Job, utcnow
from trainer.models.job import PROGRESS_FULL

from .kinds import (
    JobCancelled,
    JobContext,
    JobFailed,
    JobFunction,
    Pace,
    Progress,
    kind_function,
    said_json,
)
from .rows import DONE, QUEUED, RUNNING, mark_failed

log = logging.getLogger("trainer.jobs")

RUNNERS = ("worker", "inline")
MAX_ATTEMPTS = 2  # a job whose worker died is claimed again once, then failed
DEFAULT_STALE_SECONDS = 30
HEARTBEAT_EVERY = 5.0  # seconds: the heartbeat is written at least this often while a job runs
EXTENSION = "trainer.jobs"  # app.extensions[EXTENSION] is the app's Runner


class Runner:
    """What ``submit`` does with a new job: ``worker`` (queue it for ``trainer worker``) or
    ``inline`` (tests: run it in the calling thread before ``submit`` returns).

    Built from the app's config by ``from_config``. A web process never runs a job in
    ``worker`` mode: the job waits in the database for a worker process
    (``services/job_worker.py``) to claim it.
    """

    def __init__(self, database_url: str, mode: str = "worker",
                 stale_seconds: int = DEFAULT_STALE_SECONDS, beat_seconds: float = 1.0) -> None:
        if mode not in RUNNERS:
            raise ValueError(f"JOB_RUNNER must be one of {', '.join(RUNNERS)}, not {mode!r}.")
        if stale_seconds < 1:
            raise ValueError("JOB_STALE_SECONDS must be at least 1.")
        self.database_url = database_url
        self.mode = mode
        self.stale_seconds = stale_seconds
        self.beat_seconds = beat_seconds

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Runner:
        """Read ``JOB_RUNNER``, ``JOB_STALE_SECONDS`` and the database URL."""
        return cls(str(config["SQLALCHEMY_DATABASE_URI"]),
                   mode=str(config.get("JOB_RUNNER", "worker")),
                   stale_seconds=int(config.get("JOB_STALE_SECONDS", DEFAULT_STALE_SECONDS)))

    def dispatch(self, job_id: int, fn: JobFunction) -> None:
        """After ``job_id`` was queued: run it now (inline), or leave it to a worker."""
        if self.mode != "inline":
            return
        engine = _new_engine(self.database_url)
        try:
            run_job(job_id, self.database_url, fn, beat_seconds=self.beat_seconds, engine=engine)
        finally:
            engine.dispose()


def _new_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        # The busy timeout: the worker and the web processes write the same file.
        return create_engine(url, connect_args={"timeout": 30})
    return create_engine(url, pool_pre_ping=True, pool_size=3)


_ENGINES: dict[str, Engine] = {}


def process_engine(url: str) -> Engine:
    """Return this process's engine for ``url`` (made once, kept for the next jobs)."""
    if url not in _ENGINES:
        _ENGINES[url] = _new_engine(url)
    return _ENGINES[url]


def _readable(error: BaseException) -> str:
    text = str(error).strip()
    return (text or type(error).__name__)[:2000]


def worker_name() -> str:
    """Name this process as a job's worker: host and process id."""
    return f"{socket.gethostname()}:{os.getpid()}"[:64]


def run_job(job_id: int, database_url: str, fn: JobFunction | None = None, *,
            beat_seconds: float = 1.0, engine: Engine | None = None) -> None:
    """Claim the queued job ``job_id`` and run it to its end (the inline runner).

    Needs no Flask app: its own engine (``database_url``) and a plain ``Session``.
    ``fn`` is the kind's function (looked up by the row's kind when None).
    """
    engine = engine or process_engine(database_url)
    worker = worker_name()
    with Session(engine) as session:
        now = utcnow()
        claimed = session.execute(
            update(Job).where(Job.id == job_id, Job.status == QUEUED).values(
                status=RUNNING, started_at=now, heartbeat_at=now, worker=worker, progress=0,
                attempts=Job.attempts + 1),
            execution_options={"synchronize_session": False})
        session.commit()
        if not getattr(claimed, "rowcount", 0):
            return  # taken by another worker, or marked stopped before it started
    execute(job_id, worker, engine, fn, beat_seconds=beat_seconds)


def execute(job_id: int, worker: str, engine: Engine, fn: JobFunction | None = None, *,
            beat_seconds: float = 1.0, pace: Pace | None = None) -> None:
    """Run the job ``job_id`` that ``worker`` claimed, writing its progress, result or error.

    A heartbeat thread keeps the claim alive (``heartbeat_at``); the result and ``done``
    (or the error and ``failed``) are written in one transaction together with what the
    kind added to its session, only while the row is still this worker's. ``pace``
    (the long lane's ``CpuShare``) is called at each progress report.
    """
    with Session(engine) as session:
        row = session.get(Job, job_id)
        if row is None or row.status != RUNNING or row.worker != worker:
            return
        kind, params = row.kind, dict(row.params or {})
    progress = Progress(pace)
    beat = _Heartbeat(engine, job_id, worker, progress, beat_seconds)
    beat.start()
    error: str | None = None
    said: Any = None
    with Session(engine) as session:
        try:
            function = fn or kind_function(kind)
            result = function(JobContext(job_id, params, session, progress))
            json.dumps(result)  # a result that cannot be stored is the job's error, not a lost row
        except JobCancelled:
            beat.stop()
            session.rollback()
            return
        except JobFailed as refused:
            error = _readable(refused)
            said = said_json(refused.args[0]) if len(refused.args) == 1 else None
        except Exception as exc:  # any failure of the kind: its words stored, the traceback logged
            log.exception("job %s (%s) failed", job_id, kind)
            error = _readable(exc)
        beat.stop()
        if error is not None:
            session.rollback()  # nothing the kind added is kept
            mark_failed(session, job_id, error, statuses=(RUNNING,), worker=worker, said=said)
            session.commit()
            return
        finished = session.execute(
            update(Job).where(Job.id == job_id, Job.status == RUNNING, Job.worker == worker).values(
                status=DONE, result=result, progress=PROGRESS_FULL, message=progress.text,
                heartbeat_at=utcnow(), finished_at=utcnow(), active_key=None),
            execution_options={"synchronize_session": False})
        if getattr(finished, "rowcount", 0):
            session.commit()  # the result, the status and what the kind stored: one transaction
        else:
            session.rollback()  # the row was taken from this worker: its work is not kept


class _Heartbeat:
    """The worker's thread writing the progress (on change, at most once a ``beat_seconds``)
    and the heartbeat (at least every ``HEARTBEAT_EVERY`` s), on its own connection."""

    def __init__(self, engine: Engine, job_id: int, worker: str, progress: Progress,
                 beat_seconds: float) -> None:
        self.engine, self.job_id, self.worker = engine, job_id, worker
        self.progress, self.beat_seconds = progress, beat_seconds
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"job-{job_id}-heartbeat", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        written: tuple[int, str | None] = (0, None)
        last = time.monotonic()
        with Session(self.engine) as session:
            while not self._stop.wait(self.beat_seconds):
                now = (self.progress.value, self.progress.text)
                if now == written and time.monotonic() - last < HEARTBEAT_EVERY:
                    continue
                try:
                    beat = session.execute(
                        update(Job).where(Job.id == self.job_id, Job.status == RUNNING,
                                          Job.worker == self.worker)
                        .values(heartbeat_at=utcnow(), progress=now[0], message=now[1]),
                        execution_options={"synchronize_session": False})
                    session.commit()
                except SQLAlchemyError:  # a busy database: try again at the next beat
                    session.rollback()
                    log.warning("job %s: heartbeat not written", self.job_id, exc_info=True)
                    continue
                written, last = now, time.monotonic()
                if not getattr(beat, "rowcount", 0):
                    self.progress.lost.set()
                    return
