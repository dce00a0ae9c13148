"""The job worker (issue 25): a process of its own that claims queued jobs from the database.

``trainer worker`` runs one (``trainer/cli/worker.py``); any number run, on one machine
or several, against the one database. A web process only queues jobs
(``services/jobs/``, ``submit``); it never runs one, and no job is ever a child of a
web process.

A worker has two *lanes*, each a thread running one job at a time: ``short`` (PDFs)
and ``long`` (check, diff, simulate, class tables), so a PDF never waits behind a
ten-million-deal simulation. A lane *claims* the oldest queued job of its queue:

- on PostgreSQL with ``SELECT ... FOR UPDATE SKIP LOCKED`` (workers on any number of
  machines skip each other's rows instead of queueing on them) and then the
  conditional ``UPDATE ... WHERE status = 'queued'``; the long lane's claim also holds
  a transaction-scoped advisory lock, so "one running long job per person" holds
  across workers;
- on SQLite (one machine) the same statements: SQLite has one writer at a time, and
  the conditional update is what makes the claim exactly once.

While a job runs, its heartbeat (``heartbeat_at``) is its lease: written at least
every ``jobs.HEARTBEAT_EVERY`` seconds. A job whose lease is older than
``stale_seconds`` lost its worker (killed, its machine gone): every worker *reaps*
such rows before it claims, putting the job back in the queue once
(``jobs.MAX_ATTEMPTS``), and failing it with "the worker stopped" the next time. A
worker that finds its row taken from it discards its work (``jobs.execute``).

A worker's own children (Chromium printing a PDF) are started with
``processes.die_with_parent``: they are killed when the worker dies, however it dies.
On SIGTERM or SIGINT a worker stops claiming, gives its running jobs back to the
queue (another worker, or this one restarted, runs them from the start) and exits.

The web servers come first on a machine they share with a worker (docs/operations.md,
"The load test with jobs beside"): ``lower_priority`` gives the worker process a
lower CPU priority that reaches past its own session (on Linux with autogroups, a
process's niceness counts only inside its session's CPU group: the worker gets a
session, and so a group, of its own, at the lowest niceness), and ``CpuShare``
holds the long lane's jobs to a share of one core while the machine's CPUs are
contended (``JOB_CPU_SHARE``).
"""
from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import timedelta
from pathlib import Path

from sqlalchemy import and_, func, or_, select, text, update
from sqlalchemy.orm import Session

from trainer.models import Job, utcnow
from trainer.services import jobs
from trainer.services.jobs import LONG, QUEUED, QUEUES, RUNNING, SHORT

log = logging.getLogger("trainer.worker")

# The long lane's claims take this PostgreSQL advisory lock (transaction-scoped).
CLAIM_LOCK = 25_025
DEFAULT_POLL_SECONDS = 1.0
DEFAULT_NICE = 10
# The share of one core the long lane's job may use while the machine is busy
# (``JOB_CPU_SHARE``; 1.0: no limit). No limit by default: with ``lower_priority``
# the kernel already gives the web servers the CPU first, and a limit only made the
# jobs slower (measured, docs/operations.md); it is for machines where the kernel
# cannot be told (no autogroups nor CPU cgroups, a worker left in a terminal's session).
DEFAULT_CPU_SHARE = 1.0


# -- CPU: the web servers first --------------------------------------------------------

AUTOGROUP_ENABLED = Path("/proc/sys/kernel/sched_autogroup_enabled")
AUTOGROUP = Path("/proc/self/autogroup")
# The niceness of the worker's own CPU group: the lowest. The group is weighed against the
# web server's whole group (every web worker and thread together: 1,024) and each
# PostgreSQL backend; at nice 10 (110) a worker took three to four times the CPU it took
# as a nice-10 process inside the web server's group, at 19 (15) about the same.
GROUP_NICE = 19
CPU_PRESSURE = Path("/proc/pressure/cpu")


def _has_terminal() -> bool:
    """Tell whether this process has a controlling terminal (someone may press Ctrl-C)."""
    try:
        os.close(os.open("/dev/tty", os.O_RDONLY | os.O_NOCTTY))
    except OSError:
        return False
    return True


def lower_priority(nice: int = DEFAULT_NICE, *, autogroups: Path = AUTOGROUP_ENABLED,
                   autogroup: Path = AUTOGROUP,
                   terminal: Callable[[], bool] = _has_terminal) -> list[str]:
    """Lower this process's CPU priority by ``nice`` (0: leave it); return what was done.

    ``os.nice`` alone is not enough on Linux with autogroups (the default of most
    distributions, and of this machine): the kernel first shares the CPUs between
    *sessions* (each a group) and applies a process's niceness only inside its
    session. A worker in the web server's session (``./run.sh``, a script) took its
    CPU from the web workers only; a worker in a session of its own (a systemd
    service) competed with the web server's whole session and each PostgreSQL
    backend (each a session of its own) as an equal, niceness or not, and a backend
    woken to answer a web worker waited for the worker's time slice (issue 25's
    load test: PostgreSQL p95 152 ms with the jobs beside). So the worker:

    - starts a session of its own (``os.setsid``) unless it leads one already or it
      has a terminal (a terminal's Ctrl-C must still reach it; it says so in the log);
    - gives its session's group the lowest niceness, ``GROUP_NICE`` (19;
      ``/proc/self/autogroup``), which weighs the whole worker against the web
      server's whole group and each database backend.
    """
    done: list[str] = []
    if nice <= 0:
        return done
    os.nice(nice)
    done.append(f"nice {nice}")
    try:
        enabled = autogroups.read_text().strip() == "1"
        # In a CPU cgroup other than the root (a container, a systemd slice) the kernel
        # uses the cgroup, not autogroups, and the group file reads empty.
        in_a_group = enabled and autogroup.read_text().startswith("/autogroup-")
    except OSError:
        enabled = in_a_group = False
    if not enabled:
        return done
    if not in_a_group:
        done.append("its CPU cgroup decides (autogroups not used there)")
        return done
    if os.getsid(0) != os.getpid():
        if terminal():
            done.append("its terminal's session shared: start it with setsid or as a "
                        "service for its CPU group to yield to the web servers")
            return done
        try:
            os.setsid()
        except OSError as exc:
            done.append(f"its session shared (setsid: {exc.strerror})")
            return done
        done.append("a session of its own")
    try:
        autogroup.write_text(str(GROUP_NICE))
    except OSError as exc:
        done.append(f"its CPU group's niceness unchanged ({exc.strerror})")
    else:
        done.append(f"its CPU group at nice {GROUP_NICE}")
    return done


class CpuPressure:
    """Tell whether the machine's CPUs are contended: some runnable thread waited for a CPU
    during at least ``share`` of the time since the last question (Linux's pressure
    stall information, ``/proc/pressure/cpu``); elsewhere, a load average of at least
    the number of CPUs."""

    def __init__(self, share: float = 0.05, *, source: Path = CPU_PRESSURE,
                 wall: Callable[[], float] = time.monotonic) -> None:
        self.share, self.source, self.wall = share, source, wall
        self._last: tuple[float, int] | None = None

    def _stalled_us(self) -> int | None:
        try:
            first = self.source.read_text().split("\n", 1)[0].split()
        except OSError:
            return None
        fields = dict(part.split("=", 1) for part in first[1:] if "=" in part)
        return int(fields["total"]) if first and first[0] == "some" and "total" in fields else None

    def __call__(self) -> bool:
        stalled = self._stalled_us()
        if stalled is None:
            return os.getloadavg()[0] >= (os.cpu_count() or 1)
        now = self.wall()
        last, self._last = self._last, (now, stalled)
        if last is None or now <= last[0]:
            return True  # no interval yet: assume the web servers need the CPU
        return (stalled - last[1]) / 1e6 >= self.share * (now - last[0])


class CpuShare:
    """Hold a job to ``share`` of one core while ``busy()`` says the machine is contended.

    Called at each of the job's progress reports with a ``wait(seconds)`` (the job's
    cancellable sleep): when, since the window began, the process used more CPU
    (``clock``, ``time.process_time``) than ``share`` of the wall time (``wall``), it
    waits until the share holds again, at most ``longest`` seconds, then starts a new
    window. While the machine is not busy the job runs at full speed and builds up no
    debt; a window under its share starts again after ``window`` seconds, so a job
    that idled builds up no credit either.
    """

    def __init__(self, share: float, *, busy: Callable[[], bool] | None = None,
                 clock: Callable[[], float] = time.process_time,
                 wall: Callable[[], float] = time.monotonic,
                 window: float = 2.0, longest: float = 10.0) -> None:
        if not 0 < share <= 1:
            raise ValueError(f"A job's CPU share is more than 0 and at most 1, not {share!r}.")
        self.share, self.window, self.longest = share, window, longest
        self.busy = busy if busy is not None else CpuPressure()
        self.clock, self.wall = clock, wall
        self.paused = 0.0  # seconds waited in all
        self._mark = (clock(), wall())

    def pause(self) -> float:
        """Return how long to wait now (0: go on)."""
        cpu, now = self.clock(), self.wall()
        used, elapsed = cpu - self._mark[0], now - self._mark[1]
        if self.share >= 1 or not self.busy():
            self._mark = (cpu, now)
            return 0.0
        over = used / self.share - elapsed
        if over <= 0:
            if elapsed >= self.window:
                self._mark = (cpu, now)
            return 0.0
        return min(over, self.longest)

    def __call__(self, wait: Callable[[float], object]) -> None:
        """Wait (with ``wait``) as long as ``pause`` says, then start a new window."""
        seconds = self.pause()
        if seconds > 0:
            wait(seconds)
            self.paused += seconds
            self._mark = (self.clock(), self.wall())


class Worker:
    """One job worker: claims, runs and reaps jobs of ``lanes`` on ``database_url``.

    ``around`` is entered around every job (the CLI passes the Flask app's context, so
    a kind that renders a page has one); ``run_once`` runs one job in the calling
    thread (tests), ``serve`` runs every lane until ``stop`` is set. ``cpu_share``
    (``JOB_CPU_SHARE``) holds each long-lane job to that share of one core while the
    machine is busy (``CpuShare``; 1.0: no limit); ``pace`` makes the throttle of a
    job (tests give one with their own clocks).
    """

    def __init__(self, database_url: str, *, lanes: tuple[str, ...] = QUEUES,
                 stale_seconds: int = jobs.DEFAULT_STALE_SECONDS, beat_seconds: float = 1.0,
                 poll_seconds: float = DEFAULT_POLL_SECONDS,
                 around: Callable[[], AbstractContextManager[object]] | None = None,
                 cpu_share: float = 1.0,
                 pace: Callable[[float], jobs.Pace] | None = None) -> None:
        unknown = [lane for lane in lanes if lane not in QUEUES]
        if unknown or not lanes:
            raise ValueError(f"A worker's lanes are some of {', '.join(QUEUES)}, not {lanes!r}.")
        if not 0 < cpu_share <= 1:
            raise ValueError(f"JOB_CPU_SHARE is more than 0 and at most 1, not {cpu_share!r}.")
        self.cpu_share = cpu_share
        self.pace = pace or CpuShare
        self.database_url = database_url
        self.lanes = tuple(dict.fromkeys(lanes))
        self.stale_seconds = stale_seconds
        self.beat_seconds = beat_seconds
        self.poll_seconds = poll_seconds
        self.around = around or contextlib.nullcontext
        self.engine = jobs.process_engine(database_url)
        self.name = jobs.worker_name()
        self.postgres = self.engine.dialect.name == "postgresql"
        self._running: dict[str, int] = {}  # lane -> the job it runs
        self._lock = threading.Lock()

    # -- claiming and reaping ---------------------------------------------------------

    def claim(self, lane: str) -> int | None:
        """Claim the oldest queued job of ``lane`` for this worker; return its id (None: none)."""
        with Session(self.engine) as session:
            if self.postgres and lane == LONG:
                session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": CLAIM_LOCK})
            query = select(Job.id).where(Job.status == QUEUED, Job.queue == lane)
            if lane == LONG:
                # At most one running long job per person: skip the queued jobs of anyone
                # who has one running (the system's own jobs, no one's, always go).
                busy = select(Job.created_by_id).where(
                    Job.status == RUNNING, Job.queue == LONG, Job.created_by_id.is_not(None))
                query = query.where(or_(Job.created_by_id.is_(None), Job.created_by_id.not_in(busy)))
            job_id = session.execute(
                query.order_by(Job.id).limit(1).with_for_update(skip_locked=True)).scalar()
            if job_id is None:
                session.rollback()
                return None
            now = utcnow()
            claimed = session.execute(
                update(Job).where(Job.id == job_id, Job.status == QUEUED).values(
                    status=RUNNING, started_at=now, heartbeat_at=now, worker=self.name,
                    progress=0, message=None, attempts=Job.attempts + 1),
                execution_options={"synchronize_session": False})
            session.commit()
            return job_id if getattr(claimed, "rowcount", 0) else None

    def reap(self) -> tuple[int, int]:
        """Put back in the queue (or fail, after ``MAX_ATTEMPTS``) every running job whose
        lease expired; return how many were queued again and how many failed."""
        cutoff = utcnow() - timedelta(seconds=self.stale_seconds)
        seen = func.coalesce(Job.heartbeat_at, Job.started_at, Job.created_at)
        expired = and_(Job.status == RUNNING, seen < cutoff)
        with Session(self.engine) as session:
            again = session.execute(
                update(Job).where(expired, Job.attempts < jobs.MAX_ATTEMPTS).values(
                    status=QUEUED, worker=None, started_at=None, heartbeat_at=None, progress=0,
                    message=None),
                execution_options={"synchronize_session": False})
            rows = session.execute(select(Job.id).where(expired)).scalars().all()
            failed = sum(jobs.mark_failed(session, job_id, jobs.WORKER_STOPPED, statuses=(RUNNING,),
                                          before=cutoff) for job_id in rows)
            session.commit()
        requeued = int(getattr(again, "rowcount", 0) or 0)
        if requeued or failed:
            log.warning("reaped jobs whose worker stopped: %s queued again, %s failed",
                        requeued, failed)
        return requeued, failed

    # -- running -------------------------------------------------------------------

    def run_once(self, lane: str | None = None) -> int | None:
        """Reap, claim one job (of ``lane``, or of each lane in turn, short first) and run it
        here; return its id, or None when nothing was queued."""
        self.reap()
        for each in (lane,) if lane is not None else self.lanes:
            job_id = self.claim(each)
            if job_id is not None:
                self._run(each, job_id)
                return job_id
        return None

    def run_all(self, limit: int = 1000) -> list[int]:
        """Run queued jobs until none is left (tests: a deterministic drain); return their ids."""
        done: list[int] = []
        while len(done) < limit:
            job_id = self.run_once()
            if job_id is None:
                break
            done.append(job_id)
        return done

    def _run(self, lane: str, job_id: int) -> None:
        with self._lock:
            self._running[lane] = job_id
        # The long lane's job keeps to its CPU share while the machine is busy; a PDF
        # (short lane: someone waits for it) never waits.
        pace = self.pace(self.cpu_share) if lane == LONG and self.cpu_share < 1 else None
        try:
            with self.around():
                jobs.execute(job_id, self.name, self.engine, beat_seconds=self.beat_seconds,
                             pace=pace)
        except Exception:  # a worker outlives any one job's failure (execute records it)
            log.exception("job %s: the worker could not finish it", job_id)
        finally:
            with self._lock:
                self._running.pop(lane, None)

    def serve(self, stop: threading.Event) -> None:
        """Run every lane in a thread of its own until ``stop`` is set; then give back the
        jobs still running and return."""
        threads = [threading.Thread(target=self._lane, args=(lane, stop), name=f"lane-{lane}",
                                    daemon=True) for lane in self.lanes]
        for thread in threads:
            thread.start()
        log.info("worker %s: lanes %s", self.name, ", ".join(self.lanes))
        stop.wait()
        given = self.give_back()
        for thread in threads:
            thread.join(timeout=10)
        log.info("worker %s stopped (%s job(s) given back to the queue)", self.name, given)

    def _lane(self, lane: str, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                job_id = self.run_once(lane)
            except Exception:  # the database away for a moment: try again after a pause
                log.exception("worker %s, lane %s: could not claim a job", self.name, lane)
                job_id = None
            if job_id is None:
                stop.wait(self.poll_seconds)

    def give_back(self) -> int:
        """Put this worker's running jobs back in the queue (not counting it as an attempt);
        their runs here stop at their next progress report and write nothing."""
        with self._lock:
            running = list(self._running.values())
        if not running:
            return 0
        with Session(self.engine) as session:
            given = session.execute(
                update(Job).where(Job.id.in_(running), Job.status == RUNNING,
                                  Job.worker == self.name).values(
                    status=QUEUED, worker=None, started_at=None, heartbeat_at=None, progress=0,
                    message=None, attempts=func.max(Job.attempts - 1, 0) if not self.postgres
                    else func.greatest(Job.attempts - 1, 0)),
                execution_options={"synchronize_session": False})
            session.commit()
        return int(getattr(given, "rowcount", 0) or 0)


__all__ = ["LONG", "SHORT", "CpuPressure", "CpuShare", "Worker", "lower_priority"]
