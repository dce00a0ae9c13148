"""Background jobs: long work runs off the request, its progress and result in the database.

A *job kind* is a function registered by name and lane (``register``; ``short`` for
PDFs, ``long`` for the rest); it receives a ``JobContext`` (its parameters, a database
session of its own and a ``Progress`` to report to) and returns a JSON-able result.
``house_way_jobs.py`` registers the house-way kinds (check, diff, simulate,
class_table), ``web/pdf_jobs.py`` the ``pdf`` kind.

Starting (``submit``) is exactly once per piece of work: the row's ``active_key``
is unique and holds the job's key while it is queued or running, so two managers
pressing Check at the same moment get the same job (the second insert fails on the
constraint and is answered with the first's row). A finished ``done`` job of the
same key run on the same parameters is answered as it is, never run again. A person's
jobs are limited (``JobRefused``, in words): four long jobs running or waiting, one
PDF waiting; the system's own jobs (``user_id`` None) count against no one.

The runner (``Runner``, built by the app factory from the config and kept in
``app.extensions[EXTENSION]``) is either

- ``worker`` (the default): ``submit`` only queues the row; a ``trainer worker``
  process (``services/job_worker.py``) claims it, runs ``execute`` with a heartbeat
  thread writing the progress (at most once a ``beat_seconds``) and the heartbeat (its
  lease, at least every ``HEARTBEAT_EVERY`` seconds), then writes the result and
  ``done`` (or the error and ``failed``) in one transaction, together with whatever
  the kind added to its session (the class tables of a check, a PDF);
- ``inline`` (tests): the same claim and ``execute`` in the calling thread before
  ``submit`` returns.

A running job whose heartbeat is older than ``JOB_STALE_SECONDS`` (30) lost its
worker: a worker reaps it (queued again once, then failed "the worker stopped"), and
until then ``state`` shows it failed and ``restart`` (or a new ``submit`` of its key)
marks it so, releases its key and starts it again on a new row. A worker that finds
its row taken from it discards its work and writes nothing. A queued job has no
heartbeat of its own: it is shown stopped only when it is older than the limit and no
running job anywhere heartbeats (no worker alive).
"""
from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import create_engine, delete, func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, scoped_session

from trainer.engine.messages import N_, Message
from trainer.extensions import db
from trainer.models import Job, utcnow
from trainer.models.job import PROGRESS_FULL

log = logging.getLogger("trainer.jobs")

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
ACTIVE = (QUEUED, RUNNING)
WORKER_STOPPED = "the worker stopped"
RUNNERS = ("worker", "inline")
SHORT, LONG = "short", "long"
QUEUES = (SHORT, LONG)
# Per person (issue 25): long jobs running or waiting at once, queued PDFs.
LONG_ACTIVE_PER_USER = 4  # one running and three queued
SHORT_QUEUED_PER_USER = 1
MAX_ATTEMPTS = 2  # a job whose worker died is claimed again once, then failed
DEFAULT_STALE_SECONDS = 30
HEARTBEAT_EVERY = 5.0  # seconds: the heartbeat is written at least this often while a job runs
EXTENSION = "trainer.jobs"  # app.extensions[EXTENSION] is the app's Runner
MESSAGE_LENGTH = 200
KEY_LENGTH = 400


class JobCancelled(Exception):
    """The job was taken from this worker (shown stopped, or started again elsewhere)."""


class JobFailed(Exception):
    """A job kind's refusal, in a sentence for people: stored as the job's error as it is.

    Raised with a ``Message`` (``JobFailed(Message(N_("..."), ...))``), the error column
    keeps its English and the job's ``result`` keeps the template and its values
    (``{"said": ...}``, ``said_json``), so a page says it in the reader's language.
    """


def said_json(message: Any) -> Any:
    """Return a ``Message`` as JSON (template and values; a value that is not a whole
    number or a message is kept as its English text), or None for anything else."""
    if not isinstance(message, Message):
        return None
    params = {key: said_json(value) if isinstance(value, Message)
              else value if type(value) is int else str(value)
              for key, value in message.params.items()}
    return {"template": message.template, "params": params}


def said_message(data: Any) -> Message | None:
    """Return the ``Message`` ``said_json`` wrote (None for anything else)."""
    if not isinstance(data, Mapping) or not isinstance(data.get("template"), str):
        return None
    params = data.get("params")
    values = {str(key): said_message(value) if isinstance(value, Mapping) else value
              for key, value in (params.items() if isinstance(params, Mapping) else ())}
    return Message(data["template"], **values)


class JobRefused(Exception):
    """A job not started because of a limit: ``message`` (a ``Message``) says why in words."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


class UnknownJob(LookupError):
    """No job has that id, or no kind has that name."""


# A job's pace (``job_worker.CpuShare``): called at each progress report with a
# ``wait(seconds)``, it waits when the job used more than its share of the CPU.
Pace = Callable[[Callable[[float], object]], None]


class Progress:
    """What a running job reports: the engine's ``progress(done, total)`` and a message.

    Calling it only records the figure (cheap, so the engine may call it often); the
    worker's heartbeat thread writes it to the row. Once the row was taken from this
    worker, the next call raises ``JobCancelled`` so the work stops. With a ``pace``,
    each report is also where the job waits to keep to its CPU share (the wait ends
    at once when the row is taken from this worker).
    """

    def __init__(self, pace: Pace | None = None) -> None:
        self.value = 0  # thousandths
        self.text: str | None = None
        self.lost = threading.Event()
        self.pace = pace

    def _step(self) -> None:
        if self.pace is not None and not self.lost.is_set():
            self.pace(self.lost.wait)
        if self.lost.is_set():
            raise JobCancelled

    def __call__(self, done: int, total: int) -> None:
        """Record ``done`` of ``total`` (the engine's progress callback)."""
        self._step()
        if total > 0:
            self.value = max(0, min(PROGRESS_FULL, done * PROGRESS_FULL // total))

    def say(self, message: str) -> None:
        """Record a short message shown beside the progress bar."""
        self._step()
        self.text = message[:MESSAGE_LENGTH]

    def span(self, start: float, end: float) -> Callable[[int, int], None]:
        """Return a callback mapping one step's ``(done, total)`` onto ``start..end`` (0..1) of the job."""
        def report(done: int, total: int) -> None:
            share = done / total if total > 0 else 0.0
            self(round((start + (end - start) * share) * PROGRESS_FULL), PROGRESS_FULL)
        return report


@dataclass(frozen=True)
class JobContext:
    """What a job kind's function receives."""

    job_id: int
    params: dict[str, Any]
    session: Session  # the worker's own session: what the kind adds commits with the result
    progress: Progress


JobFunction = Callable[[JobContext], Any]

_KINDS: dict[str, JobFunction] = {}
_QUEUES: dict[str, str] = {}


def register(kind: str, fn: JobFunction, queue: str = LONG) -> None:
    """Register ``fn`` as job ``kind``, run in the ``queue`` lane (``short`` or ``long``)."""
    if queue not in QUEUES:
        raise ValueError(f"A job queue is one of {', '.join(QUEUES)}, not {queue!r}.")
    _KINDS[kind] = fn
    _QUEUES[kind] = queue


def kind_queue(kind: str) -> str:
    """Return the lane a registered kind runs in."""
    return _QUEUES.get(kind, LONG)


def unregister(kind: str) -> None:
    """Forget a kind (tests register kinds of their own)."""
    _KINDS.pop(kind, None)
    _QUEUES.pop(kind, None)


def kind_function(kind: str) -> JobFunction:
    """Return the function of a registered kind (``UnknownJob`` when none)."""
    try:
        return _KINDS[kind]
    except KeyError:
        raise UnknownJob(f"No job kind is called {kind!r}.") from None


# -- the runner ---------------------------------------------------------------------


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


def _fail(session: Session | scoped_session[Any], job_id: int, message: str, *, statuses: tuple[str, ...],
          worker: str | None = None, before: datetime | None = None, said: Any = None) -> bool:
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


# -- running one job (in a worker process, or inline) ---------------------------------


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
            _fail(session, job_id, error, statuses=(RUNNING,), worker=worker, said=said)
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


# -- the app's side: start, read, restart ---------------------------------------------


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
    _fail(db.session, job_id, WORKER_STOPPED, statuses=ACTIVE, before=cutoff)
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
