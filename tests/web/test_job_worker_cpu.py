"""The web servers come first on a machine they share with a job worker (issue 25).

Two mechanisms (``services/job_worker.py``; docs/operations.md, "The load test with
jobs beside"):

- ``lower_priority``: the worker's niceness, and on Linux with autogroups a session and
  so a CPU group of its own at that niceness (a process's niceness counts only inside
  its session's group; the PostgreSQL backends are each a session of their own);
- ``CpuShare``: a long-lane job keeps to ``JOB_CPU_SHARE`` of one core while the
  machine is busy, waiting at its progress reports (``time.process_time``).

The throttle's arithmetic runs on clocks the tests move; the priority runs in child
processes (a niceness raised in this process could not be lowered again).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from trainer.extensions import db
from trainer.models import Job
from trainer.services import jobs
from trainer.services.job_worker import CpuPressure, CpuShare, Worker
from trainer.services.jobs import JobContext, Runner

ROOT = Path(__file__).resolve().parents[2]


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _throttle(share: float, busy: list[bool] | None = None, **kwargs: Any) -> tuple[CpuShare, Clock, Clock]:
    cpu, wall = Clock(), Clock()
    state = busy if busy is not None else [True]
    return CpuShare(share, busy=lambda: state[0], clock=cpu, wall=wall, **kwargs), cpu, wall


# -- the throttle's arithmetic ------------------------------------------------------------


def test_a_busy_machine_holds_a_job_to_its_cpu_share_of_one_core():
    throttle, cpu, wall = _throttle(0.25)
    cpu.now, wall.now = 1.0, 1.0  # a full core for one second: 4 s at a quarter
    assert throttle.pause() == pytest.approx(3.0)
    waited: list[float] = []
    cpu.now, wall.now = 1.5, 1.5
    throttle(waited.append)
    assert waited == [pytest.approx(1.5 / 0.25 - 1.5)]  # 6 s of wall for 1.5 s of CPU
    # A new window starts after the wait: a fifth of a core since then is within it.
    cpu.now, wall.now = 1.6, 2.0
    assert throttle.pause() == 0.0


def test_a_job_within_its_share_never_waits():
    throttle, cpu, wall = _throttle(0.5)
    waited: list[float] = []
    for step in range(1, 20):
        cpu.now, wall.now = step * 0.1, step * 0.25  # 40% of a core
        throttle(waited.append)
    assert waited == []


def test_an_idle_machine_lets_a_job_run_at_full_speed_and_builds_no_debt():
    busy = [False]
    throttle, cpu, wall = _throttle(0.25, busy)
    waited: list[float] = []
    for step in range(1, 11):
        cpu.now = wall.now = float(step)  # a full core, nobody waiting for it
        throttle(waited.append)
    assert waited == [] and throttle.paused == 0.0
    busy[0] = True  # the web servers wake: only what is used from now on counts
    cpu.now, wall.now = 10.1, 10.5
    assert throttle.pause() == 0.0
    cpu.now, wall.now = 10.5, 11.0
    assert throttle.pause() == pytest.approx(0.5 / 0.25 - 1.0)


def test_a_window_under_its_share_builds_no_credit():
    throttle, cpu, wall = _throttle(0.5, window=2.0)
    wall.now = 30.0  # half a minute waiting for the database: no CPU used
    assert throttle.pause() == 0.0  # the window (2 s) is over: a new one starts now
    cpu.now, wall.now = 1.0, 31.0  # then a full core for a second
    assert throttle.pause() == pytest.approx(1.0 / 0.5 - 1.0)


def test_a_wait_is_at_most_the_longest_then_the_window_starts_again():
    throttle, cpu, wall = _throttle(0.1, longest=10.0)
    cpu.now, wall.now = 5.0, 5.0  # 45 s owed at a tenth of a core
    waited: list[float] = []
    throttle(waited.append)
    assert waited == [10.0] and throttle.paused == 10.0
    wall.now = 15.0
    assert throttle.pause() == 0.0  # the rest is forgiven: no wait of minutes


@pytest.mark.parametrize("share", [0, -0.5, 1.5])
def test_a_cpu_share_outside_0_to_1_is_refused(share, app):
    with pytest.raises(ValueError, match="at most 1"):
        CpuShare(share)
    with pytest.raises(ValueError, match="JOB_CPU_SHARE"):
        Worker(str(app.config["SQLALCHEMY_DATABASE_URI"]), cpu_share=share)


def test_a_machine_is_busy_while_runnable_threads_wait_for_a_cpu(tmp_path):
    pressure = tmp_path / "cpu"
    wall = Clock()
    busy = CpuPressure(0.05, source=pressure, wall=wall)

    def stalled(us: int) -> None:
        pressure.write_text(f"some avg10=0.00 avg60=0.00 avg300=0.00 total={us}\n"
                            "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")

    stalled(1_000_000)
    assert busy() is True  # no interval yet: the web servers are assumed to need the CPU
    for wall.now, total, expected in ((1.0, 1_010_000, False),   # 10 ms waited in 1 s: 1%
                                      (2.0, 1_110_000, True),    # 100 ms in 1 s: 10%
                                      (4.0, 1_150_000, False)):  # 40 ms in 2 s: 2%
        stalled(total)
        assert busy() is expected, wall.now


# -- the throttle in a worker's long lane ---------------------------------------------------


CPU = Clock()


def crunching(ctx: JobContext) -> dict[str, Any]:
    """A long job: ten steps of 10 ms of (counted) CPU each, reporting after each."""
    for step in range(1, 11):
        CPU.now += 0.01
        ctx.progress(step, 10)
    return {"steps": 10}


def waits_long(ctx: JobContext) -> dict[str, Any]:
    """A long job whose first report would make it wait a minute."""
    CPU.now += 60.0
    ctx.progress(1, 2)
    return {"finished": True}


@pytest.fixture(autouse=True)
def kinds():
    jobs.register("crunching", crunching, jobs.LONG)
    jobs.register("crunching_pdf", crunching, jobs.SHORT)
    jobs.register("waits_long", waits_long, jobs.LONG)
    CPU.now = 0.0
    yield
    for kind in ("crunching", "crunching_pdf", "waits_long"):
        jobs.unregister(kind)


@pytest.fixture
def queue_only(app: Any) -> Runner:
    runner = Runner(str(app.config["SQLALCHEMY_DATABASE_URI"]), mode="worker")
    app.extensions[jobs.EXTENSION] = runner
    return runner


def test_a_long_lane_job_waits_at_its_progress_reports_to_keep_its_share(app, queue_only):
    made: list[CpuShare] = []

    def pace(share: float) -> CpuShare:
        # The wall clock stands still: every 10 ms of CPU owes 10 ms / 0.5 = 20 ms of wall.
        made.append(CpuShare(share, busy=lambda: True, clock=CPU, wall=lambda: 0.0))
        return made[-1]

    worker = Worker(str(app.config["SQLALCHEMY_DATABASE_URI"]), beat_seconds=0.05,
                    cpu_share=0.5, pace=pace, around=app.app_context)
    with app.app_context():
        long_id = jobs.submit("crunching", "crunching:1", {}, None, runner=queue_only).id
        short_id = jobs.submit("crunching_pdf", "crunching:pdf", {}, None, runner=queue_only).id
    assert worker.run_once(jobs.LONG) == long_id
    assert len(made) == 1 and made[0].paused == pytest.approx(10 * 0.02)
    assert worker.run_once(jobs.SHORT) == short_id
    assert len(made) == 1  # a PDF (someone waits for it) is never held back
    with app.app_context():
        done = db.session.execute(select(Job.status).where(Job.id.in_([long_id, short_id])))
        assert done.scalars().all() == ["done", "done"]


def test_a_worker_at_full_share_makes_no_throttle(app, queue_only):
    made: list[float] = []
    worker = Worker(str(app.config["SQLALCHEMY_DATABASE_URI"]), beat_seconds=0.05,
                    pace=lambda share: made.append(share) or CpuShare(share),
                    around=app.app_context)
    with app.app_context():
        job_id = jobs.submit("crunching", "crunching:2", {}, None, runner=queue_only).id
    assert worker.run_once(jobs.LONG) == job_id
    assert made == []


def test_a_job_taken_from_its_worker_stops_waiting_at_once_and_writes_nothing(app, queue_only):
    worker = Worker(str(app.config["SQLALCHEMY_DATABASE_URI"]), beat_seconds=0.05,
                    cpu_share=0.5, around=app.app_context,
                    pace=lambda share: CpuShare(share, busy=lambda: True, clock=CPU,
                                                wall=lambda: 0.0, longest=60.0))
    with app.app_context():
        job_id = jobs.submit("waits_long", "waits:1", {}, None, runner=queue_only).id
    assert worker.claim(jobs.LONG) == job_id
    running = threading.Thread(target=worker._run, args=(jobs.LONG, job_id), daemon=True)
    running.start()
    time.sleep(0.5)  # in its minute's wait
    assert worker.give_back() == 1  # the worker stops: the job goes back to the queue
    running.join(timeout=20)
    assert not running.is_alive()  # the wait ended with the lease, not after a minute
    with app.app_context():
        row = db.session.get(Job, job_id)
        assert (row.status, row.result, row.worker) == ("queued", None, None)


# -- the worker's CPU priority --------------------------------------------------------------


def _autogroups() -> bool:
    try:
        return (Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip() == "1"
                and Path("/proc/self/autogroup").read_text().startswith("/autogroup-"))
    except OSError:
        return False


def _in_child(code: str) -> dict[str, Any]:
    """Run ``code`` (which sets ``out``) in a child Python process; return ``out``."""
    script = ("import json, os\nfrom pathlib import Path\n"
              "from trainer.services.job_worker import lower_priority\n"
              f"{code}\nprint(json.dumps(out))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not _autogroups(), reason="Linux autogroups are off or absent here")
def test_a_worker_takes_a_session_and_cpu_group_of_its_own_at_the_lowest_niceness():
    mine = Path("/proc/self/autogroup").read_text()
    out = _in_child("""
before = Path('/proc/self/autogroup').read_text().split()[0]
said = lower_priority(10, terminal=lambda: False)
out = {'said': said, 'leads': os.getsid(0) == os.getpid(), 'nice': os.nice(0),
       'before': before, 'group': Path('/proc/self/autogroup').read_text().split()}
""")
    assert out["leads"] and out["nice"] == _niced(10)
    assert out["group"][0] != out["before"]  # a group of its own, not its parent's
    assert out["group"][1:] == ["nice", "19"]  # the lowest: weighed against the web's whole group
    assert "a session of its own" in out["said"]
    assert Path("/proc/self/autogroup").read_text() == mine  # the parent's group untouched


@pytest.mark.skipif(not _autogroups(), reason="Linux autogroups are off or absent here")
def test_a_worker_with_a_terminal_leaves_the_terminal_sessions_cpu_group_alone():
    out = _in_child("""
before = Path('/proc/self/autogroup').read_text()
sid = os.getsid(0)
said = lower_priority(10, terminal=lambda: True)
out = {'said': said, 'same_session': os.getsid(0) == sid, 'nice': os.nice(0),
       'same_group': Path('/proc/self/autogroup').read_text() == before}
""")
    assert out["same_session"] and out["same_group"] and out["nice"] == _niced(10)
    assert any("setsid" in said for said in out["said"])  # the log says how to do better


def _niced(by: int) -> int:
    return min(19, os.nice(0) + by)  # os.nice(0) reads this process's niceness


def _lowered_beside_files(tmp_path: Path, nice: int, autogroups: bool,
                          group: str | None = None) -> dict[str, Any]:
    """Lower a child's priority by ``nice`` against stand-in autogroup files (on or off, and
    the group file: absent, or reading ``group``); return what it said, kept and became."""
    (tmp_path / "enabled").write_text("1\n" if autogroups else "0\n")
    if group is not None:
        (tmp_path / "group").write_text(group)
    return _in_child(f"""
sid = os.getsid(0)
said = lower_priority({nice}, autogroups=Path({str(tmp_path / 'enabled')!r}),
                      autogroup=Path({str(tmp_path / 'group')!r}), terminal=lambda: False)
out = {{'said': said, 'same_session': os.getsid(0) == sid, 'nice': os.nice(0)}}
""")


def test_a_worker_without_autogroups_is_only_niced(tmp_path):
    out = _lowered_beside_files(tmp_path, 7, autogroups=False)
    assert out == {"said": ["nice 7"], "same_session": True, "nice": _niced(7)}
    assert not (tmp_path / "group").exists()


def test_a_worker_at_nice_0_changes_nothing(tmp_path):
    out = _lowered_beside_files(tmp_path, 0, autogroups=True)
    assert out == {"said": [], "same_session": True, "nice": _niced(0)}
    assert not (tmp_path / "group").exists()


def test_a_worker_in_a_cpu_cgroup_without_an_autogroup_keeps_its_session_and_is_only_niced(
        tmp_path):
    # In a container or a systemd slice the group file reads empty: the cgroup decides.
    out = _lowered_beside_files(tmp_path, 5, autogroups=True, group="")
    assert out == {"said": ["nice 5", "its CPU cgroup decides (autogroups not used there)"],
                   "same_session": True, "nice": _niced(5)}
    assert (tmp_path / "group").read_text() == ""  # not written
