"""Jobs in worker processes of their own (issue 25): owners and limits, no reruns, two lanes,
PDFs never printed in a request, leases that expire, and no orphan after ``kill -9``.

Most tests run the worker in this process (``Worker.run_once``: deterministic); the
``kill -9`` tests start a real ``trainer worker`` and a real gunicorn and look at the
process tree before and after.
"""
from __future__ import annotations

import html
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select, update

from trainer.extensions import db
from trainer.models import Job, Role, utcnow
from trainer.models.job import PdfFile
from trainer.services import jobs
from trainer.services.job_worker import Worker
from trainer.services.jobs import JobContext, Runner
from trainer.web.platform import sheets
from web.helpers import csrf_token, login, post_form

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
BASE = "/manager/house-ways"
RELEASE = threading.Event()


def long_wait(ctx: JobContext) -> dict[str, Any]:
    """A long job that runs until the test releases it, reporting progress meanwhile."""
    for i in range(600):
        if RELEASE.is_set():
            break
        ctx.progress(i, 600)
        time.sleep(0.05)
    return {"released": RELEASE.is_set()}


def quick(ctx: JobContext) -> dict[str, Any]:
    return {"n": ctx.params.get("n")}


@pytest.fixture(autouse=True)
def test_kinds():
    jobs.register("long_wait", long_wait, jobs.LONG)
    jobs.register("quick", quick, jobs.LONG)
    RELEASE.clear()
    yield
    RELEASE.set()
    jobs.unregister("long_wait")
    jobs.unregister("quick")


@pytest.fixture
def queue_only(app: Any) -> Runner:
    """The production runner: ``submit`` queues, a worker runs."""
    runner = Runner(str(app.config["SQLALCHEMY_DATABASE_URI"]), mode="worker")
    app.extensions[jobs.EXTENSION] = runner
    return runner


@pytest.fixture
def worker(app: Any) -> Worker:
    """A worker in this process, with the app's context around each job (as ``trainer worker``)."""
    return Worker(str(app.config["SQLALCHEMY_DATABASE_URI"]), beat_seconds=0.05,
                  poll_seconds=0.05, around=app.app_context)


@pytest.fixture
def printed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count Chromium starts (``print_to_pdf``), noting the thread each ran in."""
    calls: list[int] = []

    def fake_print(html: str) -> bytes:
        calls.append(threading.get_ident())
        return b"%PDF-1.4 fake " + str(len(calls)).encode()

    monkeypatch.setattr(sheets, "print_to_pdf", fake_print)
    return calls


def _count(app: Any, **filters: Any) -> int:
    with app.app_context():
        return int(db.session.execute(
            select(func.count()).select_from(Job).filter_by(**filters)).scalar_one())


# -- limits, owners and no reruns ------------------------------------------------------------


def test_the_fifth_long_job_of_a_manager_is_refused_in_words(app, make_user, queue_only):
    boss = make_user(Role.MANAGER, login="floor-boss")
    client = app.test_client()
    login(client, boss)
    response = post_form(client, f"{BASE}/copy?from=trump-plaza",
                         {"slug": "golden-sands", "casino": "Golden Sands, Reno"})
    way_id = int(response.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    # Five edge simulations, each a new key (another deal count): as the attacker did.
    pages = [client.post(f"{BASE}/{way_id}/edge", data={
        "profile": "nevada", "deals": f"{n * 10_000:,}",
        "csrf_token": csrf_token(client, f"{BASE}/{way_id}/edge")}, follow_redirects=True)
        for n in range(1, 6)]
    assert [p.status_code for p in pages] == [200] * 5
    assert _count(app, queue="long", status="queued") == 4
    words = pages[-1].get_data(as_text=True)
    assert "You already have 4 house-way jobs running or waiting" in words
    assert "You already have" not in pages[3].get_data(as_text=True)
    with app.app_context():  # the system's own jobs count against no one
        system = jobs.submit("quick", "quick:system", {"n": 1}, None, runner=queue_only)
        assert system.status == "queued"


def test_the_per_person_limit_counts_only_that_persons_jobs(app, make_user, queue_only):
    one, two = make_user(Role.MANAGER).id, make_user(Role.MANAGER).id
    with app.app_context():
        for n in range(4):
            jobs.submit("quick", f"quick:{n}", {"n": n}, one, runner=queue_only)
        with pytest.raises(jobs.JobRefused) as refused:
            jobs.submit("quick", "quick:4", {"n": 4}, one, runner=queue_only)
        assert refused.value.message.params == {"most": 4}
        # The same work again is answered with its job, not refused.
        assert jobs.submit("quick", "quick:0", {"n": 0}, one, runner=queue_only).key == "quick:0"
        assert jobs.submit("quick", "quick:other", {"n": 9}, two, runner=queue_only)
    assert _count(app) == 5


def test_one_long_job_runs_per_manager_the_others_wait_and_the_systems_go(app, make_user,
                                                                         queue_only, worker):
    boss = make_user(Role.MANAGER).id
    with app.app_context():
        first = jobs.submit("quick", "quick:a", {"n": 1}, boss, runner=queue_only).id
        second = jobs.submit("quick", "quick:b", {"n": 2}, boss, runner=queue_only).id
        system = jobs.submit("quick", "quick:s", {"n": 3}, None, runner=queue_only).id
    assert worker.claim(jobs.LONG) == first
    assert worker.claim(jobs.LONG) == system  # the boss's second waits for the first
    assert worker.claim(jobs.LONG) is None
    with app.app_context():
        db.session.execute(update(Job).where(Job.id == first).values(status="done", active_key=None))
        db.session.commit()
    assert worker.claim(jobs.LONG) == second


def test_a_rerun_of_a_finished_job_is_answered_from_its_result(app, make_user):
    """``/jobs/<id>/restart`` on a finished job answers it: no new row, no work (issue 25)."""
    boss = make_user(Role.MANAGER)
    client = app.test_client()
    login(client, boss)
    with app.app_context():  # inline (tests/conftest.py): done before submit returns
        done = jobs.submit("quick", "quick:done", {"n": 7}, boss.id,
                           runner=app.extensions[jobs.EXTENSION])
        done_id, finished = done.id, done.finished_at
    for _ in range(3):
        response = post_form(client, f"/manager/house-ways/jobs/{done_id}/restart",
                             {"back": "/manager/house-ways/"})
        assert response.status_code == 302
    assert _count(app) == 1
    with app.app_context():
        row = db.session.get(Job, done_id)
        assert (row.status, row.result, row.finished_at, row.attempts) == (
            "done", {"n": 7}, finished, 1)


# -- two lanes --------------------------------------------------------------------------------


def test_a_pdf_queued_behind_a_long_job_is_made_first(app, make_user, queue_only, worker, printed):
    boss, trainee = make_user(Role.MANAGER), make_user(Role.TRAINEE)
    with app.app_context():
        long_id = jobs.submit("long_wait", "long_wait:1", {}, boss.id, runner=queue_only).id
    client = app.test_client()
    login(client, trainee)
    assert client.get("/house-way/foxwoods/pdf").status_code == 202  # queued after the long job
    stop = threading.Event()
    serving = threading.Thread(target=worker.serve, args=(stop,), daemon=True)
    serving.start()
    try:
        deadline = time.monotonic() + 30
        while client.get("/house-way/foxwoods/pdf").status_code != 200:
            assert time.monotonic() < deadline, "the PDF waited"
            time.sleep(0.05)
        with app.app_context():
            long_job = db.session.get(Job, long_id)
            assert long_job.status == "running"  # still running: the PDF did not wait for it
            pdf_job = db.session.execute(select(Job).where(Job.kind == "pdf")).scalar_one()
            assert pdf_job.id > long_id and pdf_job.finished_at is not None
    finally:
        RELEASE.set()
        stop.set()
        serving.join(timeout=20)
    assert not serving.is_alive()
    assert len(printed) == 1


# -- PDFs ---------------------------------------------------------------------------------------


def test_a_pdf_request_never_starts_a_browser_inside_a_request(app, make_user, queue_only,
                                                             worker, printed, monkeypatch):
    started: list[Any] = []
    real_run = subprocess.run
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: started.append(a) or real_run(*a, **k))
    trainee = make_user(Role.TRAINEE)
    client = app.test_client()
    login(client, trainee)
    first = client.get("/house-way/golden-nugget/pdf?paper=a4")
    assert first.status_code == 202
    page = first.get_data(as_text=True)
    assert "Your PDF is being prepared" in page
    assert first.headers["Retry-After"] == "3" and "js/pdf_wait.js" in page
    assert printed == [] and started == []
    # Twelve variants at once: one PDF per person waits, the others are refused in words.
    other = client.get("/house-way/foxwoods/pdf?paper=letter")
    assert other.status_code == 429
    assert "A PDF you asked for is still being prepared" in other.get_data(as_text=True)
    assert printed == [] and started == []
    request_thread = threading.get_ident()
    assert worker.run_once() is not None
    assert len(printed) == 1
    done = client.get("/house-way/golden-nugget/pdf?paper=a4")
    assert done.status_code == 200 and done.data.startswith(b"%PDF")
    assert len(printed) == 1
    assert printed[0] == request_thread  # run_once ran here, in the test: not in a request
    with app.app_context():
        assert db.session.execute(select(func.count()).select_from(PdfFile)).scalar() == 1


def test_the_pdf_waiting_page_has_no_timed_refresh_and_says_when_the_pdf_is_ready(
        app, make_user, queue_only, worker, printed):
    # QA (axe "meta-refresh", critical): no timed refresh in the page or its headers; the
    # page's static script asks again (JSON), and the page says "ready" with a link.
    trainee = make_user(Role.TRAINEE)
    client = app.test_client()
    login(client, trainee)
    first = client.get("/house-way/golden-nugget/pdf?paper=a4")
    page = first.get_data(as_text=True)
    assert first.status_code == 202 and first.headers["Retry-After"] == "3"
    assert "Refresh" not in first.headers and 'http-equiv="refresh"' not in page.lower()
    assert '<script src="/static/js/pdf_wait.js' in page and "<script>" not in page
    again = re.search(r'data-pdf-wait="([^"]+)"', page)
    assert again is not None and "job=" in again.group(1)
    asked = client.get(html.unescape(again.group(1)), headers={"Accept": "application/json"})
    assert asked.status_code == 202 and asked.headers["Retry-After"] == "3"
    assert asked.get_json()["ready"] is False
    assert worker.run_once() is not None
    ready = client.get(html.unescape(again.group(1)), headers={"Accept": "application/json"})
    assert ready.status_code == 200 and ready.get_json() == {
        "ready": True, "download": "/house-way/golden-nugget/pdf?paper=a4"}
    # Without script, "Ask again now" gets a page saying it is ready, with the download link.
    told = client.get(html.unescape(again.group(1)))
    words = told.get_data(as_text=True)
    assert told.status_code == 200 and told.mimetype == "text/html"
    assert "Your PDF is ready" in words and 'href="/house-way/golden-nugget/pdf?paper=a4"' in words
    assert 'class="pdf-waiting" hidden' in words
    # A plain request (the link, or a non-browser client) gets the PDF itself.
    assert client.get("/house-way/golden-nugget/pdf?paper=a4").data.startswith(b"%PDF")
    assert len(printed) == 1


def test_a_failed_pdf_job_is_said_once_then_asked_for_again(app, make_user, queue_only, worker,
                                                         monkeypatch):
    def broken(html: str) -> bytes:
        raise sheets.PdfUnavailable("Chromium crashed.")

    monkeypatch.setattr(sheets, "print_to_pdf", broken)
    trainee = make_user(Role.TRAINEE)
    client = app.test_client()
    login(client, trainee)
    waiting = client.get("/house-way/foxwoods/pdf")
    assert waiting.status_code == 202
    worker.run_once()
    with app.app_context():
        job = db.session.execute(select(Job).where(Job.kind == "pdf")).scalar_one()
        assert (job.status, job.error) == ("failed", "Chromium crashed.")
    refreshed = client.get(f"/house-way/foxwoods/pdf?job={job.id}")
    assert refreshed.status_code == 503 and "Chromium crashed" in refreshed.get_data(as_text=True)
    assert client.get("/house-way/foxwoods/pdf").status_code == 202  # a new click: a new job
    assert _count(app, kind="pdf") == 2


def test_a_group_settings_change_queues_its_pdfs_as_the_systems_jobs(app, make_user, make_group,
                                                                    queue_only, worker, printed):
    app.config["PDF_PREPARE"] = True  # as deployed (tests/conftest.py turns it off)
    boss = make_user(Role.SUPERVISOR)
    group_id = make_group(boss.id)
    make_user(Role.TRAINEE, group_id=group_id)
    reader = make_user(Role.TRAINEE, group_id=group_id)
    with app.app_context():
        from trainer.models import User
        db.session.get(User, reader.id).language = "es"  # the group reads English and Spanish
        db.session.commit()
    client = app.test_client()
    login(client, boss)
    response = post_form(client, f"/supervisor/groups/{group_id}/edit", {
        "name": "Night shift", "house_way": "foxwoods", "profile": "nevada"})
    assert response.status_code == 302
    with app.app_context():
        queued = db.session.execute(select(Job).where(Job.kind == "pdf")).scalars().all()
        assert {(j.params["ref"], j.params["language"], j.params["paper"]) for j in queued} == {
            ("foxwoods", language, paper) for language in ("en", "es") for paper in ("letter", "a4")}
        assert {j.created_by_id for j in queued} == {None}  # the system's: no one's limit
        from trainer.models import Group
        from trainer.web.platform import pdf_jobs
        again = pdf_jobs.prepare_group(db.session.get(Group, group_id))
        assert sorted(j.id for j in again) == sorted(j.id for j in queued)  # deduplicated
    assert len(worker.run_all()) == 4 and len(printed) == 4
    trainee_client = app.test_client()
    login(trainee_client, reader)
    got = trainee_client.get("/house-way/foxwoods/pdf")  # printed already: no wait
    assert got.status_code == 200 and got.data.startswith(b"%PDF") and len(printed) == 4


# -- leases --------------------------------------------------------------------------------------


def test_a_job_whose_worker_died_is_retried_once_then_failed_with_a_reason(app, queue_only, worker):
    with app.app_context():
        job_id = jobs.submit("quick", "quick:lease", {"n": 5}, None, runner=queue_only).id
    assert worker.claim(jobs.LONG) == job_id
    old = utcnow() - timedelta(seconds=120)
    with app.app_context():  # its worker died: no heartbeat since
        db.session.execute(update(Job).where(Job.id == job_id).values(heartbeat_at=old))
        db.session.commit()
    assert worker.reap() == (1, 0)
    assert _count(app, id=job_id, status="queued") == 1
    assert worker.claim(jobs.LONG) == job_id
    with app.app_context():
        db.session.execute(update(Job).where(Job.id == job_id).values(heartbeat_at=old))
        db.session.commit()
    assert worker.reap() == (0, 1)
    with app.app_context():
        row = db.session.get(Job, job_id)
        assert (row.status, row.error, row.attempts, row.active_key) == (
            "failed", jobs.WORKER_STOPPED, 2, None)


def test_a_worker_told_to_stop_gives_its_running_job_back_to_the_queue(app, queue_only, worker):
    with app.app_context():
        job_id = jobs.submit("quick", "quick:stop", {"n": 1}, None, runner=queue_only).id
    assert worker.claim(jobs.LONG) == job_id
    worker._running[jobs.LONG] = job_id  # as while its lane runs it
    assert worker.give_back() == 1
    with app.app_context():
        row = db.session.get(Job, job_id)
        assert (row.status, row.worker, row.attempts, row.active_key) == (
            "queued", None, 0, "quick:stop")  # not counted as an attempt
    assert worker.run_once() == job_id
    assert _count(app, id=job_id, status="done") == 1


# -- real processes: kill -9 ------------------------------------------------------------------


def _children(pid: int) -> set[int]:
    """Return every live descendant of ``pid`` (zombies are dead)."""
    found: set[int] = set()
    pending = [pid]
    while pending:
        parent = pending.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                kids = (task / "children").read_text().split()
            except OSError:
                continue
            for kid in map(int, kids):
                if kid not in found and _alive(kid):
                    found.add(kid)
                    pending.append(kid)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait(predicate: Any, seconds: float = 30, step: float = 0.1) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(step)


@pytest.fixture
def worker_env(app: Any, tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "TRAINER_INSTANCE_PATH": str(tmp_path / "instance"),
            "DATABASE_URL": str(app.config["SQLALCHEMY_DATABASE_URI"]),
            "SECRET_KEY": "worker-test-key", "FLASK_JOB_STALE_SECONDS": "2",
            "FLASK_JOB_POLL_SECONDS": "0.2", "PYTHONPATH": str(ROOT)}


def _fake_chromium(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return str(path)


def test_kill_9_of_a_job_worker_leaves_no_orphan_and_its_job_is_retried(app, queue_only,
                                                                     worker_env, tmp_path):
    hangs = _fake_chromium(tmp_path, "hangs", f"echo $$ > {tmp_path}/chromium.pid\nexec sleep 120\n")
    prints = _fake_chromium(tmp_path, "prints", 'for a in "$@"; do case "$a" in '
                            '--print-to-pdf=*) printf "%%PDF-1.4 fake" > "${a#--print-to-pdf=}";; '
                            'esac; done\n')
    with app.app_context(), app.test_request_context():
        from trainer.web.platform import pdf_jobs
        [job, *_] = pdf_jobs._queue_system("mgm-grand", "nevada", ["en"])
        job_id = job.id
    process = subprocess.Popen([str(BIN / "trainer"), "worker", "--lane", "short"],
                               env={**worker_env, "FLASK_CHROMIUM_PATH": hangs}, cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait(lambda: (tmp_path / "chromium.pid").exists() and
              (tmp_path / "chromium.pid").read_text().strip())
        chromium = int((tmp_path / "chromium.pid").read_text())
        before = _children(process.pid)
        assert chromium in before  # the worker -> Chromium, printing
        assert _count(app, id=job_id, status="running") == 1
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
        _wait(lambda: not _alive(chromium), seconds=10)
        assert not any(_alive(pid) for pid in before)  # after: nothing left of it
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    time.sleep(2.5)  # the lease (FLASK_JOB_STALE_SECONDS=2) expires
    again = subprocess.run([str(BIN / "trainer"), "worker", "--once", "--lane", "short"],
                           env={**worker_env, "FLASK_CHROMIUM_PATH": prints}, cwd=ROOT,
                           capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr[-2000:]
    with app.app_context():
        row = db.session.get(Job, job_id)
        assert (row.status, row.attempts) == ("done", 2), row.error
        assert db.session.execute(select(PdfFile.data)).scalars().all()[0] == b"%PDF-1.4 fake"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_kill_9_of_a_web_worker_or_the_master_leaves_no_orphan_and_the_port_binds(
        app, queue_only, worker_env, tmp_path):
    with app.app_context():
        job_id = jobs.submit("class_table", "class_table:none",
                             {"rules_digest": "x", "data": {}}, None, runner=queue_only).id
    port = _free_port()
    master = subprocess.Popen(
        [str(BIN / "gunicorn"), "-c", "python:trainer.cli.gunicorn_conf", "--preload", "-w", "2",
         "-b", f"127.0.0.1:{port}", "trainer:create_app()"],
        env=worker_env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def serving() -> bool:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).close()
            except OSError:
                return False
            return len(_children(master.pid)) == 2
        _wait(serving, seconds=60, step=0.2)
        before = _children(master.pid)
        victim = min(before)
        os.kill(victim, signal.SIGKILL)
        _wait(lambda: not _alive(victim) and len(_children(master.pid)) == 2 and serving())
        after = _children(master.pid)
        assert victim not in after and len(after) == 2  # replaced, nothing left over
        os.kill(master.pid, signal.SIGKILL)
        master.wait(timeout=10)
        _wait(lambda: not any(_alive(pid) for pid in after), seconds=5, step=0.05)
        with socket.socket() as again:  # a restart right away binds the port (as gunicorn
            again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # does: no REUSEPORT)
            again.bind(("127.0.0.1", port))
            again.listen()
    finally:
        for pid in _children(master.pid) if master.poll() is None else ():
            os.kill(pid, signal.SIGKILL)
        if master.poll() is None:
            master.kill()
            master.wait()
    # The web processes never ran the job: it waits in the queue, and a worker ends it.
    assert _count(app, id=job_id, status="queued") == 1
    done = subprocess.run([str(BIN / "trainer"), "worker", "--once"], env=worker_env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    with app.app_context():
        row = db.session.get(Job, job_id)
        assert row.status == "failed" and row.error.startswith("This house way cannot be read")
