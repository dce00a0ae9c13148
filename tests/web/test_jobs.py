"""Background jobs (issue 18, item 8; issue 25): started once, queued for a worker, progress and
result stored, a dead worker shown failed and restartable (trainer/services/jobs/)."""
from __future__ import annotations

import logging
import os
import time
from datetime import timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import event, select

from trainer.extensions import db
from trainer.models import InstallationSetting, Job, utcnow
from trainer.services import jobs
from trainer.services.job_worker import Worker
from trainer.services.jobs import JobContext, JobFailed, Runner
from web.helpers import run_together

# -- kinds registered by these tests only ---------------------------------------------------


def echo(ctx: JobContext) -> dict[str, Any]:
    """Report half way, wait until the heartbeat thread wrote it, and say what was seen."""
    ctx.progress(1, 2)
    ctx.progress.say("half way")
    seen = None
    for _ in range(200):  # at most 10 s; the beat writes within beat_seconds
        time.sleep(float(ctx.params.get("sleep", 0.05)))
        seen = ctx.session.execute(
            select(Job.progress, Job.message).where(Job.id == ctx.job_id)).one()
        ctx.session.rollback()  # the next read sees the latest commit
        if seen.progress == 500:
            break
    ctx.progress(2, 2)
    return {"pid": os.getpid(), "text": ctx.params.get("text"),
            "seen": [seen.progress, seen.message] if seen else None}


def slow(ctx: JobContext) -> dict[str, Any]:
    time.sleep(0.3)
    return {"slept": True}


def boom(ctx: JobContext) -> None:
    ctx.session.add(InstallationSetting(key="left-by-boom", value="x"))
    ctx.session.flush()
    raise RuntimeError("the numbers did not add up")


def refuse(ctx: JobContext) -> None:
    raise JobFailed("This house way has no sections.")


def unstorable(ctx: JobContext) -> object:
    ctx.session.add(InstallationSetting(key="left-by-unstorable", value="x"))
    return {"value": object()}


def stores(ctx: JobContext) -> dict[str, Any]:
    ctx.session.add(InstallationSetting(key="stored-with-result", value="y"))
    return {"stored": True}


def chatty(ctx: JobContext) -> dict[str, Any]:
    for i in range(300):
        ctx.progress(i, 300)
        time.sleep(0.001)
    return {"calls": 300}


def taken(ctx: JobContext) -> dict[str, Any]:
    """Mark this job stopped from outside (as a restart would), then keep reporting progress."""
    engine = sa.create_engine(ctx.params["url"])
    with engine.begin() as conn:
        conn.execute(sa.update(Job).where(Job.id == ctx.job_id).values(
            status="failed", error=jobs.WORKER_STOPPED, active_key=None))
    engine.dispose()
    if ctx.params.get("return_at_once"):
        return {"late": True}
    for i in range(400):  # the heartbeat finds the row gone; progress then raises JobCancelled
        ctx.progress(i, 400)
        time.sleep(0.025)
    return {"late": True}


TEST_KINDS = {"echo": echo, "slow": slow, "boom": boom, "refuse": refuse, "unstorable": unstorable,
              "stores": stores, "chatty": chatty, "taken": taken}


@pytest.fixture(autouse=True)
def test_kinds():
    for name, fn in TEST_KINDS.items():
        jobs.register(name, fn)
    yield
    for name in TEST_KINDS:
        jobs.unregister(name)


@pytest.fixture
def url(app) -> str:
    return str(app.config["SQLALCHEMY_DATABASE_URI"])


@pytest.fixture
def inline(url) -> Runner:
    return Runner(url, mode="inline", beat_seconds=0.05)


def _submit(app, kind: str, key: str, runner: Runner, params: dict[str, Any] | None = None,
            **kwargs: Any) -> dict[str, Any]:
    with app.app_context():
        job = jobs.submit(kind, key, params or {}, None, runner=runner, **kwargs)
        return _row(job)


def _row(job: Job) -> dict[str, Any]:
    return {c.name: getattr(job, c.name) for c in Job.__table__.columns}


def _load(app, job_id: int) -> dict[str, Any]:
    with app.app_context():
        job = db.session.get(Job, job_id)
        assert job is not None
        return _row(job)


def _count(app, model: Any = Job, **filters: Any) -> int:
    with app.app_context():
        return int(db.session.execute(
            select(sa.func.count()).select_from(model).filter_by(**filters)).scalar_one())


def _wait_finished(app, job_id: int, seconds: float = 90) -> dict[str, Any]:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        row = _load(app, job_id)
        if row["status"] in ("done", "failed"):
            return row
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} did not finish: {row}")


# -- the app's runner ---------------------------------------------------------------------


def test_the_app_builds_its_runner_from_the_config(app):
    runner = app.extensions[jobs.EXTENSION]
    assert isinstance(runner, Runner)
    assert runner.mode == "inline"  # tests/conftest.py
    assert runner.database_url == app.config["SQLALCHEMY_DATABASE_URI"]
    default = Runner.from_config({"SQLALCHEMY_DATABASE_URI": "sqlite://"})
    assert (default.mode, default.stale_seconds) == ("worker", 30)
    set_ = Runner.from_config({"SQLALCHEMY_DATABASE_URI": "sqlite://", "JOB_RUNNER": "inline",
                               "JOB_STALE_SECONDS": "90"})
    assert (set_.mode, set_.stale_seconds) == ("inline", 90)


def test_the_app_factory_defaults_the_runner_to_queueing_for_a_worker(empty_app):
    from trainer import create_app
    assert empty_app.config["JOB_RUNNER"] == "inline"
    app = create_app({"TESTING": True, "SECRET_KEY": "x",
                      "SQLALCHEMY_DATABASE_URI": empty_app.config["SQLALCHEMY_DATABASE_URI"]})
    assert app.config["JOB_RUNNER"] == "worker"
    assert app.config["JOB_STALE_SECONDS"] == 30
    assert app.extensions[jobs.EXTENSION].mode == "worker"


@pytest.mark.parametrize("config, words", [
    ({"JOB_RUNNER": "pool"}, "JOB_RUNNER must be one of worker, inline"),
    ({"JOB_STALE_SECONDS": 0}, "JOB_STALE_SECONDS must be at least 1"),
])
def test_a_bad_job_setting_is_refused_in_words(config, words):
    with pytest.raises(ValueError, match=words):
        Runner.from_config({"SQLALCHEMY_DATABASE_URI": "sqlite://", **config})


def test_an_unknown_kind_is_refused_and_starts_nothing(app, inline):
    with app.app_context(), pytest.raises(jobs.UnknownJob, match="No job kind is called 'nope'"):
        jobs.submit("nope", "nope:1", {}, None, runner=inline)
    assert _count(app) == 0


# -- running -------------------------------------------------------------------------------


def test_a_job_runs_and_stores_its_progress_and_result(app, inline):
    row = _submit(app, "echo", "echo:1", inline, {"text": "hello"})
    assert row["status"] == "done"
    assert row["result"]["text"] == "hello"
    # The heartbeat thread wrote the progress and the message while the job ran.
    assert row["result"]["seen"] == [500, "half way"]
    assert row["progress"] == 1000
    assert row["active_key"] is None and row["key"] == "echo:1"
    assert row["started_at"] is not None and row["finished_at"] >= row["started_at"]
    assert row["worker"].endswith(f":{os.getpid()}")  # inline: this process
    with app.app_context():
        shown = jobs.state(db.session.get(Job, row["id"]))
    assert (shown.status, shown.progress, shown.stale, shown.active) == ("done", 1.0, False, False)
    assert shown.result["text"] == "hello"
    assert shown.as_dict()["status"] == "done" and "result" not in shown.as_dict()


def test_a_queued_job_waits_for_a_worker_which_runs_it(app, url):
    queued = _submit(app, "echo", "echo:worker", Runner(url, mode="worker"), {"text": "queued"})
    assert queued["status"] == "queued" and queued["worker"] is None  # submit ran nothing
    worker = Worker(url, beat_seconds=0.05)
    assert worker.run_once() == queued["id"]
    row = _load(app, queued["id"])
    assert row["status"] == "done", row["error"]
    assert row["worker"] == worker.name and row["attempts"] == 1
    assert row["result"]["seen"] == [500, "half way"]
    assert row["progress"] == 1000 and row["active_key"] is None
    assert worker.run_once() is None  # nothing left


def test_progress_is_written_at_most_once_a_beat_not_on_every_call(app, url):
    runner = Runner(url, mode="inline", beat_seconds=5.0)
    updates: list[str] = []

    def count(conn, cursor, statement, parameters, context, executemany):
        if statement.lstrip().upper().startswith("UPDATE JOBS"):
            updates.append(statement)

    event.listen(sa.engine.Engine, "before_cursor_execute", count)
    try:
        row = _submit(app, "chatty", "chatty:1", runner)
    finally:
        event.remove(sa.engine.Engine, "before_cursor_execute", count)
    assert row["status"] == "done" and row["result"] == {"calls": 300}
    # The claim and the result: the 300 progress calls wrote nothing within one beat.
    assert len(updates) == 2


def test_a_job_that_raises_fails_with_its_words_and_keeps_nothing_it_added(app, inline, caplog):
    with caplog.at_level(logging.ERROR, logger="trainer.jobs"):
        row = _submit(app, "boom", "boom:1", inline)
    assert row["status"] == "failed"
    assert row["error"] == "the numbers did not add up"
    assert row["result"] is None and row["active_key"] is None and row["finished_at"] is not None
    assert "Traceback" in caplog.text and "RuntimeError" in caplog.text
    assert _count(app, InstallationSetting, key="left-by-boom") == 0


def test_a_kind_refusing_in_words_fails_with_that_sentence(app, inline):
    row = _submit(app, "refuse", "refuse:1", inline)
    assert (row["status"], row["error"]) == ("failed", "This house way has no sections.")


def test_a_result_that_cannot_be_stored_fails_the_job_and_keeps_nothing(app, inline):
    row = _submit(app, "unstorable", "unstorable:1", inline)
    assert row["status"] == "failed" and "not JSON serializable" in row["error"]
    assert _count(app, InstallationSetting, key="left-by-unstorable") == 0


def test_what_a_kind_stores_commits_with_its_result(app, inline):
    row = _submit(app, "stores", "stores:1", inline)
    assert row["status"] == "done" and row["result"] == {"stored": True}
    assert _count(app, InstallationSetting, key="stored-with-result") == 1


@pytest.mark.parametrize("return_at_once", [False, True])
def test_a_worker_whose_job_was_taken_from_it_writes_nothing(app, inline, url, return_at_once):
    row = _submit(app, "taken", "taken:1", inline, {"url": url, "return_at_once": return_at_once})
    assert (row["status"], row["error"]) == ("failed", jobs.WORKER_STOPPED)
    assert row["result"] is None


# -- exactly once ---------------------------------------------------------------------------


def test_two_managers_pressing_check_at_once_get_the_same_job(app, inline):
    def press():
        with app.app_context():
            return jobs.submit("slow", "slow:same", {}, None, runner=inline).id

    ids = run_together([press, press, press, press])
    assert len(set(ids)) == 1
    assert _count(app) == 1
    assert _load(app, ids[0])["status"] == "done"


def test_an_insert_losing_the_race_answers_the_winners_job(app, inline, monkeypatch):
    with app.app_context():
        winner = Job(kind="slow", key="slow:race", active_key="slow:race", params={},
                     status="running", progress=0, created_at=utcnow(), heartbeat_at=utcnow())
        db.session.add(winner)
        db.session.commit()
        winner_id = winner.id
        # As if the other manager's row was inserted just after this one looked.
        looks: list[str] = []
        real = jobs.starting._active

        def first_look_misses(key: str) -> Job | None:
            looks.append(key)
            return None if len(looks) == 1 else real(key)

        monkeypatch.setattr(jobs.starting, "_active", first_look_misses)
        got = jobs.submit("slow", "slow:race", {}, None, runner=inline)
        assert got.id == winner_id
        assert len(looks) == 2  # the insert failed on active_key; the winner was looked up
    assert _count(app) == 1


def test_a_running_job_is_answered_instead_of_a_second_one(app, inline):
    with app.app_context():
        running = Job(kind="slow", key="slow:busy", active_key="slow:busy", params={},
                      status="running", progress=250, created_at=utcnow(), heartbeat_at=utcnow())
        db.session.add(running)
        db.session.commit()
        assert jobs.submit("slow", "slow:busy", {}, None, runner=inline).id == running.id
        assert jobs.restart(running.id, runner=inline).id == running.id
        assert jobs.state(running).progress == 0.25
    assert _count(app) == 1


def test_a_done_job_is_answered_and_run_again_only_on_other_inputs(app, inline):
    first = _submit(app, "echo", "echo:again", inline, {"text": "one"})
    same = _submit(app, "echo", "echo:again", inline, {"text": "one"})
    assert same["id"] == first["id"] and same["result"]["text"] == "one"
    with app.app_context():  # a restart of a finished job answers it too (issue 25)
        assert jobs.restart(first["id"], runner=inline).id == first["id"]
    changed = _submit(app, "echo", "echo:again", inline, {"text": "two"})
    assert changed["id"] != first["id"] and changed["result"]["text"] == "two"
    with app.app_context():
        assert jobs.latest("echo:again").id == changed["id"]
        assert jobs.latest("echo:none") is None


def test_a_failed_job_is_not_answered_a_new_submit_runs_it(app, inline):
    failed = _submit(app, "boom", "boom:again", inline)
    second = _submit(app, "boom", "boom:again", inline)
    assert second["id"] != failed["id"]


# -- a worker that died ----------------------------------------------------------------------


def _dead(app, key: str, status: str = "running", seconds_ago: int = 60) -> int:
    with app.app_context():
        old = utcnow() - timedelta(seconds=seconds_ago)
        job = Job(kind="echo", key=key, active_key=key, params={"text": "again"}, status=status,
                  progress=400, created_at=old, started_at=old if status == "running" else None,
                  heartbeat_at=old if status == "running" else None, worker="gone:1")
        db.session.add(job)
        db.session.commit()
        return job.id


def test_a_job_whose_worker_stopped_is_shown_failed(app):
    job_id = _dead(app, "echo:dead")
    with app.app_context():
        job = db.session.get(Job, job_id)
        shown = jobs.state(job)
        assert (shown.status, shown.error, shown.stale, shown.active) == (
            "failed", jobs.WORKER_STOPPED, True, False)
        assert jobs.state(job, stale_seconds=120).status == "running"  # within a longer limit
        assert job.status == "running"  # showing it writes nothing


def test_a_job_whose_worker_stopped_can_be_restarted(app, inline):
    job_id = _dead(app, "echo:restart")
    with app.app_context():
        new = jobs.restart(job_id, runner=inline)
        new_id, new_status = new.id, new.status
        assert new.result["text"] == "again"
    assert new_id != job_id and new_status == "done"
    old = _load(app, job_id)
    assert (old["status"], old["error"], old["active_key"]) == ("failed", jobs.WORKER_STOPPED, None)


def test_pressing_check_again_on_a_stopped_job_starts_a_new_one(app, inline):
    job_id = _dead(app, "echo:press")
    row = _submit(app, "echo", "echo:press", inline, {"text": "fresh"})
    assert row["id"] != job_id and row["status"] == "done"
    assert _load(app, job_id)["status"] == "failed"


def test_a_queued_job_waits_while_a_worker_is_busy_and_is_stale_when_none_is(app):
    queued_id = _dead(app, "echo:queued", status="queued")
    with app.app_context():
        assert jobs.state(db.session.get(Job, queued_id)).stale
        busy = Job(kind="slow", key="slow:busy2", active_key="slow:busy2", params={},
                   status="running", progress=0, created_at=utcnow(), heartbeat_at=utcnow())
        db.session.add(busy)
        db.session.commit()
        assert not jobs.state(db.session.get(Job, queued_id)).stale


def test_a_stopped_job_that_wakes_up_does_not_run(app, inline):
    # Marked stopped while queued: a worker reaching it later leaves it alone.
    job_id = _dead(app, "echo:late", status="queued")
    with app.app_context():
        jobs.restart(job_id, runner=inline)
    jobs.run_job(job_id, app.config["SQLALCHEMY_DATABASE_URI"], echo)
    row = _load(app, job_id)
    assert (row["status"], row["result"]) == ("failed", None)


def test_restarting_an_unknown_job_is_refused(app, inline):
    with app.app_context(), pytest.raises(jobs.UnknownJob):
        jobs.restart(12345, runner=inline)
