"""Load test: a class of trainees playing timed drills at once, against gunicorn.

Bounded and local only: it starts the app under gunicorn on 127.0.0.1, signs in
N simulated trainees (processes x threads), has each play timed ``house-way``
sessions for a fixed number of seconds (ask a question, answer it, hit the
trivial ``/healthz`` endpoint for a baseline, think, repeat), then stops the
server and compares the answers the clients saw recorded with the attempt rows.

The settings issue 15 fixes are the defaults: gunicorn ``--preload -w 4``, a
think time drawn from an exponential distribution of mean 0.5 s, the same seed
(trainee i draws from ``Random(seed * 1_000_003 + i)``). Several class sizes run
one after another, each on a fresh database, e.g. ``--trainees 50,100,150``.
Per run it reports p50/p95/p99 of showing a question and of answering, errors,
answers recorded exactly once (checked in the database afterwards: the attempt
rows equal the answers the clients saw recorded, no (session, position) twice),
the load average (sampled each second during the run), the CPU time of the
server (gunicorn master + workers, utime + stime from /proc, before and after)
and of the load generator, and each worker's resident memory (now and peak).

    .venv/bin/python bench/load_test.py                      # SQLite in a temp dir
    .venv/bin/python bench/load_test.py --trainees 50,100,150 --seconds 60
    .venv/bin/python bench/load_test.py --database-url postgresql+psycopg://.../trainer_load_2 --fresh
Options: --trainees 50 --seconds 60 --workers 4 --think 0.5 --seed 15 --json FILE --with-jobs
``--with-jobs`` (issue 25) queues a check and a 10,000,000-deal edge simulation and starts
two ``trainer worker --lane long`` processes before the trainees start, each in a session
of its own as a service manager starts it, and reports the jobs' state at the end (they
must still be running beside the whole run), the CPU the workers used and, on
PostgreSQL, the CPU of the database backends serving the web workers and serving the job
workers (told apart by their ``application_name``). ``--job-nice`` and
``--job-cpu-share`` set the workers' ``--nice`` and ``JOB_CPU_SHARE`` (default: the
product's defaults); ``--wait-jobs SECONDS`` keeps the workers after the run until both
jobs are done and reports how long each ran (``--trainees 0 --with-jobs --wait-jobs 900``:
the jobs alone, for comparison).
``--fresh`` empties the PostgreSQL database first (drops its ``public`` schema):
only for a database whose name contains "load".
"""
from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing as mp
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_kit import Browser, children, cpu_seconds, free_port, loadavg, percentile, stop

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "load-test-pw-1"
CARD = re.compile(r'data-card="([^"]+)"')


def play(port: int, login: str, seconds: float, think: float, seed: int, out: list,
         delay: float = 0.0) -> None:
    """Sign in one trainee and play timed house-way sessions until time is up."""
    rng = random.Random(seed)
    time.sleep(delay)  # a class signs in over the first seconds, not in one instant
    b = Browser(port)
    stats = {"question": [], "first_question": [], "answer": [], "trivial": [], "errors": 0,
             "recorded": 0, "error_samples": []}
    fresh = False

    def fail(what: str) -> None:
        stats["errors"] += 1
        if len(stats["error_samples"]) < 3:
            stats["error_samples"].append(what)

    status = b.sign_in(login, PASSWORD)
    if status != 302:
        fail(f"login {status}")
        out.append(stats)
        return
    end = time.monotonic() + seconds
    session_path = None
    while time.monotonic() < end:
        if session_path is None:
            b.page("/drills/")
            status, headers, _ = b.post_form("/drills/house-way/start", {"mode": "timed"})
            location = headers.get("Location", "")
            if status != 302 or "/sessions/" not in location:
                fail(f"start {status}")
                time.sleep(1)
                continue
            session_path = location.split("://", 1)[-1]
            session_path = session_path[session_path.index("/drills/"):]
            fresh = True
        t0 = time.perf_counter()
        status, _, data = b.post_json(session_path + "/question", {})
        stats["first_question" if fresh else "question"].append(time.perf_counter() - t0)
        fresh = False
        if status != 200:
            fail(f"question {status} {data[:120]!r}")
            session_path = None
            continue
        q = json.loads(data)
        if q.get("finished"):
            session_path = None
            continue
        cards = CARD.findall(q["html"])[:7]
        time.sleep(rng.expovariate(1 / think) if think > 0 else 0)
        answer = {"position": q["position"], "answer": {"front": rng.sample(cards, 2)}}
        t0 = time.perf_counter()
        status, _, data = b.post_json(session_path + "/answer", answer)
        stats["answer"].append(time.perf_counter() - t0)
        if status != 200:
            fail(f"answer {status} {data[:120]!r}")
        else:
            stats["recorded"] += 1
        t0 = time.perf_counter()
        status, _, _ = b.request("GET", "/healthz")
        stats["trivial"].append(time.perf_counter() - t0)
        if status != 200:
            fail(f"healthz {status}")
        time.sleep(rng.expovariate(1 / think) if think > 0 else 0)
    out.append(stats)


def client_process(port: int, logins: list[tuple[int, str]], seconds: float, think: float,
                   ramp: float, total: int, seed: int, queue: mp.Queue) -> None:
    """Run one thread per trainee in this process and send back their figures."""
    results: list = []
    threads = [threading.Thread(target=play, args=(port, login, seconds, think,
                                                   seed * 1_000_003 + i, results,
                                                   ramp * i / max(total, 1)))
               for i, login in logins]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    queue.put(results)


def prepare(env: dict, trainees: int) -> None:
    """Create the schema, a supervisor, a group and the trainees."""
    subprocess.run([str(ROOT / ".venv/bin/trainer"), "db", "upgrade"], env=env, check=True,
                   capture_output=True)
    code = f"""
from trainer import create_app
from trainer.extensions import db
from trainer.models import Group, Membership, User
app = create_app({{"PASSWORD_HASH_METHOD": "scrypt:1024:8:1"}})
with app.app_context():
    sup = User(name="Load supervisor", login="load-sup", role="supervisor")
    sup.set_password("{PASSWORD}")
    group = Group(name="Load class", supervisor=sup, settings={{}})
    db.session.add_all([sup, group])
    for i in range({trainees}):
        u = User(name=f"Load trainee {{i}}", login=f"load{{i}}", role="trainee")
        u.set_password("{PASSWORD}")
        u.membership = Membership(group=group)
        db.session.add(u)
    db.session.commit()
"""
    subprocess.run([str(ROOT / ".venv/bin/python"), "-c", code], env=env, check=True)


def queue_jobs(env: dict) -> None:
    """Queue a check and a 10,000,000-deal edge simulation (issue 25's "jobs beside"): a
    draft of Trump Plaza's rules under another name, so no shipped table helps."""
    code = """
from trainer import create_app
from trainer.engine.house_way import load
from trainer.services import house_way_jobs, jobs
app = create_app()
runner = app.extensions[jobs.EXTENSION]
with app.app_context():
    data = dict(load("trump-plaza").data)
    data["name"] = "load-test-draft"
    house_way_jobs.start_check(data, None, runner=runner)
    house_way_jobs.start_simulate(data, "trump-plaza", "trump-plaza", "nevada", None,
                                  runner=runner, hands=10_000_000)
"""
    subprocess.run([str(ROOT / ".venv/bin/python"), "-c", code], env=env, check=True)


def job_rows(env: dict) -> list[tuple[str, str, int, float]]:
    """Return (kind, status, progress per mille, seconds run so far or in all) of every job."""
    code = """
from trainer import create_app
from trainer.extensions import db
from trainer.models import Job, utcnow
app = create_app()
with app.app_context():
    for job in db.session.execute(db.select(Job).order_by(Job.id)).scalars():
        ran = ((job.finished_at or utcnow()) - job.started_at).total_seconds() if job.started_at else 0
        print(job.kind, job.status, job.progress, ran)
"""
    out = subprocess.run([str(ROOT / ".venv/bin/python"), "-c", code], env=env, check=True,
                         capture_output=True, text=True)
    return [(k, st, int(pr), float(ran)) for k, st, pr, ran in
            (line.split() for line in out.stdout.splitlines() if line.count(" ") == 3)]


def job_states(env: dict) -> list[tuple[str, str, int]]:
    """Return (kind, status, progress per mille) of every job."""
    return [(kind, status, progress) for kind, status, progress, _ in job_rows(env)]


def with_application_name(url: str, name: str) -> str:
    """Return the PostgreSQL URL with ``application_name`` set (its backends tell by it)."""
    return f"{url}{'&' if '?' in url else '?'}application_name={name}"


def pg_backends(url: str) -> dict[int, str]:
    """Return {backend pid: application_name} of this bench's PostgreSQL connections."""
    import psycopg  # the PostgreSQL driver the app uses; only needed with --database-url

    conninfo = "postgresql://" + url.split("://", 1)[1].split("?", 1)[0]
    with psycopg.connect(conninfo) as conn:
        rows = conn.execute("SELECT pid, application_name FROM pg_stat_activity "
                            "WHERE application_name LIKE 'load-%'").fetchall()
    return {int(pid): str(name) for pid, name in rows}


def cpu_pressure_us() -> int | None:
    """Return the machine's CPU pressure stall total (µs some task waited; None: no PSI)."""
    try:
        first = Path("/proc/pressure/cpu").read_text().splitlines()[0].split()
    except (OSError, IndexError):
        return None
    return int(dict(f.split("=", 1) for f in first[1:])["total"])


def check_attempts(env: dict) -> tuple[int, int]:
    """Return (attempt rows, (session, position) pairs recorded more than once)."""
    code = """
from trainer import create_app
from trainer.extensions import db
from trainer.models import Attempt
app = create_app()
with app.app_context():
    rows = db.session.execute(db.select(db.func.count(Attempt.id))).scalar()
    twice = db.session.execute(db.select(db.func.count()).select_from(
        db.select(Attempt.session_id, Attempt.position).group_by(Attempt.session_id, Attempt.position)
        .having(db.func.count() > 1).subquery())).scalar()
    print(rows, twice)
"""
    out = subprocess.run([str(ROOT / ".venv/bin/python"), "-c", code], env=env, check=True,
                         capture_output=True, text=True)
    rows, twice = out.stdout.strip().splitlines()[-1].split()
    return int(rows), int(twice)


def fresh_postgres(url: str) -> None:
    """Empty a PostgreSQL database for a run: drop and recreate its public schema."""
    name = url.rsplit("/", 1)[-1].split("?", 1)[0]
    if "load" not in name:
        raise SystemExit(f"--fresh empties the database; refused for {name!r} "
                         "(its name must contain 'load')")
    code = f"""
import sqlalchemy as sa
engine = sa.create_engine({url!r})
with engine.begin() as conn:
    conn.execute(sa.text("DROP SCHEMA IF EXISTS public CASCADE"))
    conn.execute(sa.text("CREATE SCHEMA public"))
"""
    subprocess.run([str(ROOT / ".venv/bin/python"), "-c", code], check=True)


def worker_memory_mb(master: int) -> list[tuple[float, float]]:
    """Return (resident now, peak resident) of each gunicorn worker, in MB."""
    found = []
    for pid in children(master):
        try:
            status = dict(line.split(":", 1) for line in
                          Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
        except OSError:
            continue
        found.append((int(status["VmRSS"].split()[0]) / 1024, int(status["VmHWM"].split()[0]) / 1024))
    return found


class LoadSampler(threading.Thread):
    """Sample the 1-minute load average once a second while a run lasts."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.samples: list[float] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(1.0):
            self.samples.append(loadavg()[0])


def pct(values: list[float], p: float) -> float:
    """Return the p-th percentile of ``values`` (seconds) in milliseconds; NaN when none."""
    return percentile(values, p, float("nan")) * 1000


def run_once(args: argparse.Namespace, trainees: int) -> dict:
    """Run the load test for one class size on a fresh database; return its figures."""
    tmp = Path(tempfile.mkdtemp(prefix="paigow-load-"))
    env = dict(os.environ, TRAINER_INSTANCE_PATH=str(tmp / "instance"),
               SECRET_KEY="load-test-secret")
    env.pop("DATABASE_URL", None)
    if args.database_url:
        env["DATABASE_URL"] = with_application_name(args.database_url, "load-web")
        if args.fresh:
            fresh_postgres(args.database_url)
    prepare(env, trainees)
    job_workers: list[subprocess.Popen] = []
    if args.with_jobs:
        queue_jobs(env)
        # Two job workers, so the check and the edge run at once; each in a session of its
        # own, as a service manager (systemd) starts a service.
        worker_env = dict(env)
        if args.database_url:
            worker_env["DATABASE_URL"] = with_application_name(args.database_url, "load-jobs")
        if args.job_cpu_share is not None:
            worker_env["FLASK_JOB_CPU_SHARE"] = str(args.job_cpu_share)
        nice = [] if args.job_nice is None else ["--nice", str(args.job_nice)]
        job_workers = [subprocess.Popen([str(ROOT / ".venv/bin/trainer"), "worker", "--lane",
                                         "long", *nice], env=worker_env, cwd=ROOT,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True) for _ in range(2)]
        try:
            for _ in range(600):
                if [st for _, st, _ in job_states(env)] == ["running", "running"]:
                    break
                time.sleep(0.5)
        except BaseException:  # interrupted before the run: no worker left behind
            for worker in job_workers:
                stop(worker)
            raise
    port = free_port()
    server = subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), "-c", "python:trainer.cli.gunicorn_conf",
         "-w", str(args.workers), "--threads",
         str(args.threads), "--preload", "-b", f"127.0.0.1:{port}", "--log-level", "warning",
         "trainer:create_app()"], env=env, cwd=ROOT)
    try:
        for _ in range(100):
            try:
                http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/healthz")
                break
            except OSError:
                time.sleep(0.1)
        for _ in range(100):  # every worker forked, so each one's CPU time is counted
            if len(children(server.pid)) >= args.workers:
                break
            time.sleep(0.1)
        server_pids = [server.pid, *children(server.pid)]
        server_before = cpu_seconds(server_pids)
        jobs_before = cpu_seconds([w.pid for w in job_workers])
        backends_before = pg_backends(args.database_url) if args.database_url else {}
        backends_cpu_before = cpu_seconds(list(backends_before))
        pressure_before = cpu_pressure_us()
        mine_before = os.times()
        load_before = loadavg()
        sampler = LoadSampler()
        sampler.start()
        logins = [(i, f"load{i}") for i in range(trainees)]
        queue: mp.Queue = mp.Queue()
        chunks = [logins[i::args.processes] for i in range(args.processes)]
        started = time.monotonic()
        procs = [mp.Process(target=client_process,
                            args=(port, chunk, args.seconds, args.think, args.ramp,
                                  trainees, args.seed, queue))
                 for chunk in chunks if chunk]
        for p in procs:
            p.start()
        if not procs:  # --trainees 0: the jobs beside an idle server, for the run's seconds
            time.sleep(args.seconds)
        results = [s for _ in procs for s in queue.get()]
        for p in procs:
            p.join()
        wall = time.monotonic() - started
        sampler.stop.set()
        server_after = cpu_seconds(server_pids)
        jobs_after_cpu = cpu_seconds([w.pid for w in job_workers])
        pressure_after = cpu_pressure_us()
        backends_after = pg_backends(args.database_url) if args.database_url else {}
        backends_cpu_after = cpu_seconds(list(backends_after))
        mine_after = os.times()  # the joined client processes count as children
        memory = worker_memory_mb(server.pid)
        workers_now = children(server.pid)
        jobs_after = job_states(env) if args.with_jobs else []
        stop(server)
        jobs_ran: list[tuple[str, str, int, float]] = []
        if args.with_jobs and args.wait_jobs:  # the jobs to their end, the trainees gone
            deadline = time.monotonic() + args.wait_jobs
            while time.monotonic() < deadline:
                jobs_ran = job_rows(env)
                if all(status in ("done", "failed") for _, status, _, _ in jobs_ran):
                    break
                time.sleep(2)
    finally:
        for process in (server, *job_workers):
            stop(process)

    question = [v for s in results for v in s["question"]]
    first = [v for s in results for v in s["first_question"]]
    answer = [v for s in results for v in s["answer"]]
    trivial = [v for s in results for v in s["trivial"]]
    rows, twice = check_attempts(env)
    recorded = sum(s["recorded"] for s in results)
    server_cpu = sum(server_after.get(pid, 0) - server_before.get(pid, 0) for pid in server_before)
    backends_cpu: dict[str, float] = {}
    for pid, name in backends_after.items():
        used = backends_cpu_after.get(pid, 0) - backends_cpu_before.get(pid, 0)
        backends_cpu[name] = backends_cpu.get(name, 0.0) + used
    generator_cpu = (mine_after.user + mine_after.system + mine_after.children_user
                     + mine_after.children_system) - (mine_before.user + mine_before.system
                                                      + mine_before.children_user
                                                      + mine_before.children_system)
    return {
        "backend": "PostgreSQL" if args.database_url else "SQLite",
        "trainees": trainees, "seconds": args.seconds, "workers": args.workers,
        "threads": args.threads, "think": args.think, "seed": args.seed, "wall": wall,
        "requests": len(question) + len(first) + len(answer) + len(trivial),
        "question_ms": [pct(question + first, p) for p in (50, 95, 99)],
        "first_ms": [pct(first, p) for p in (50, 95, 99)],
        "later_ms": [pct(question, p) for p in (50, 95, 99)],
        "answer_ms": [pct(answer, p) for p in (50, 95, 99)],
        "trivial_ms": [pct(trivial, p) for p in (50, 95, 99)],
        "n": {"question": len(question) + len(first), "first": len(first), "later": len(question),
              "answer": len(answer), "trivial": len(trivial)},
        "errors": sum(s["errors"] for s in results),
        "error_samples": [e for s in results for e in s["error_samples"]][:3],
        "recorded": recorded, "attempt_rows": rows, "recorded_twice": twice,
        "exactly_once": rows == recorded and twice == 0,
        "loadavg_before": load_before, "loadavg_after": loadavg(),
        "loadavg_during_mean": (statistics.mean(sampler.samples) if sampler.samples
                                else load_before[0]),
        "loadavg_during_max": max(sampler.samples, default=load_before[0]),
        "server_cpu_s": server_cpu, "generator_cpu_s": generator_cpu,
        "server_cpu_share": server_cpu / wall / (os.cpu_count() or 1),
        "generator_cpu_share": generator_cpu / wall / (os.cpu_count() or 1),
        "worker_pids_unchanged": sorted(workers_now) == sorted(server_pids[1:]),
        "worker_rss_mb": [round(now, 1) for now, _ in memory],
        "worker_peak_rss_mb": [round(peak, 1) for _, peak in memory],
        "jobs_at_end": jobs_after,
        "job_workers_cpu_s": sum(jobs_after_cpu.get(pid, 0) - jobs_before.get(pid, 0)
                                 for pid in jobs_before),
        "jobs_ran": jobs_ran,
        "job_nice": args.job_nice, "job_cpu_share": args.job_cpu_share,
        "pg_backends_cpu_s": backends_cpu,
        "cpu_pressure_share": ((pressure_after - pressure_before) / 1e6 / wall
                               if pressure_before is not None and pressure_after is not None
                               else None),
    }


def report(r: dict) -> bool:
    """Print one run's figures; return whether its targets are met."""
    print(f"backend: {r['backend']}; gunicorn --preload -w {r['workers']} --threads "
          f"{r['threads']}; {r['trainees']} trainees, {r['seconds']:.0f} s each, think "
          f"{r['think']} s mean (exponential), seed {r['seed']}")
    print(f"requests: {r['requests']} in {r['wall']:.1f} s = {r['requests'] / r['wall']:.1f} req/s "
          f"(measured requests only; plus log-ins and session starts)")
    for name, key in (("show question", "question_ms"), ("  first of session", "first_ms"),
                      ("  later", "later_ms"), ("answer", "answer_ms"),
                      ("trivial /healthz", "trivial_ms")):
        p50, p95, p99 = r[key]
        n = r["n"].get(key.split("_")[0], "")
        print(f"{name:>17}: n={n!s:>6}  p50 {p50:6.1f} ms  p95 {p95:6.1f} ms  p99 {p99:6.1f} ms")
    print("loadavg: before {:.2f} {:.2f} {:.2f}; during (1-min, sampled each second) mean "
          "{:.2f}, max {:.2f}; after {:.2f} {:.2f} {:.2f}".format(
              *r["loadavg_before"], r["loadavg_during_mean"], r["loadavg_during_max"],
              *r["loadavg_after"]))
    print(f"CPU: server (gunicorn master + workers) {r['server_cpu_s']:.1f} s = "
          f"{100 * r['server_cpu_share']:.0f}% of the machine's {os.cpu_count()} CPUs; "
          f"load generator {r['generator_cpu_s']:.1f} s = {100 * r['generator_cpu_share']:.0f}%")
    print("gunicorn workers' resident memory now / peak: " + ", ".join(
        f"{now:.0f}/{peak:.0f} MB" for now, peak in zip(r["worker_rss_mb"], r["worker_peak_rss_mb"],
                                                          strict=True))
          + ("" if r["worker_pids_unchanged"] else " (a worker was restarted during the run)"))
    if r.get("jobs_at_end"):
        print("jobs beside (kind status progress at the end): " + "; ".join(
            f"{kind} {status} {progress / 10:.1f}%" for kind, status, progress in r["jobs_at_end"]))
        print(f"job workers' CPU during the run: {r['job_workers_cpu_s']:.1f} s = "
              f"{100 * r['job_workers_cpu_s'] / r['wall'] / (os.cpu_count() or 1):.0f}% "
              f"of the machine (--nice {r['job_nice'] if r['job_nice'] is not None else 'default'}, "
              f"JOB_CPU_SHARE {r['job_cpu_share'] if r['job_cpu_share'] is not None else 'default'})")
    if r.get("jobs_ran"):
        print("jobs to their end (kind status, seconds run): " + "; ".join(
            f"{kind} {status} {ran:.0f} s" for kind, status, _, ran in r["jobs_ran"]))
    if r.get("pg_backends_cpu_s"):
        print("PostgreSQL backends' CPU during the run: " + ", ".join(
            f"{name.removeprefix('load-')} {cpu:.1f} s" for name, cpu in
            sorted(r["pg_backends_cpu_s"].items())))
    if r.get("cpu_pressure_share") is not None:
        print(f"CPU pressure (share of the run some runnable thread waited for a CPU): "
              f"{100 * r['cpu_pressure_share']:.0f}%")
    print(f"errors: {r['errors']}" + (f" e.g. {r['error_samples']}" if r["errors"] else ""))
    print(f"answers recorded per clients: {r['recorded']}; attempt rows: {r['attempt_rows']}; "
          f"recorded twice: {r['recorded_twice']}; "
          f"{'exactly once' if r['exactly_once'] else 'MISMATCH'}")
    ok = (r["errors"] == 0 and r["exactly_once"] and r["question_ms"][1] < 50
          and r["answer_ms"][1] < 50 and all(mb < 150 for mb in r["worker_peak_rss_mb"]))
    print("targets (no errors, p95 < 50 ms, exactly once, workers < 150 MB):",
          "met" if ok else "NOT met")
    return ok


def table(runs: list[dict]) -> str:
    """Return the runs as one markdown table."""
    lines = ["| backend | trainees | question p50/p95/p99 ms | answer p50/p95/p99 ms | req/s "
             "| errors | exactly once | server CPU | generator CPU | worker RSS MB (peak) "
             "| loadavg during (mean/max) |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in runs:
        q, a = r["question_ms"], r["answer_ms"]
        lines.append(
            f"| {r['backend']} | {r['trainees']} | {q[0]:.1f} / {q[1]:.1f} / {q[2]:.1f} "
            f"| {a[0]:.1f} / {a[1]:.1f} / {a[2]:.1f} | {r['requests'] / r['wall']:.0f} "
            f"| {r['errors']} | {'yes' if r['exactly_once'] else 'NO'} "
            f"| {r['server_cpu_s']:.0f} s ({100 * r['server_cpu_share']:.0f}%) "
            f"| {r['generator_cpu_s']:.0f} s ({100 * r['generator_cpu_share']:.0f}%) "
            f"| {max(r['worker_peak_rss_mb'], default=float('nan')):.0f} "
            f"| {r['loadavg_during_mean']:.2f} / {r['loadavg_during_max']:.2f} |")
    return "\n".join(lines)


def main() -> int:
    """Run the load test for each class size and print its report."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trainees", default="50",
                        help="class sizes, comma-separated, run one after another (50,100,150)")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=1, help="gunicorn threads per worker")
    parser.add_argument("--think", type=float, default=0.5,
                        help="mean think time in seconds between actions (exponential)")
    parser.add_argument("--seed", type=int, default=15, help="the trainees' random seed")
    parser.add_argument("--processes", type=int, default=5, help="client processes")
    parser.add_argument("--ramp", type=float, default=5.0,
                        help="seconds over which the trainees sign in")
    parser.add_argument("--database-url", default=None,
                        help="PostgreSQL URL (an empty database); default: SQLite in a temp dir")
    parser.add_argument("--fresh", action="store_true",
                        help="empty the PostgreSQL database before each run (name must contain 'load')")
    parser.add_argument("--json", default=None, help="also write the runs' figures to this file")
    parser.add_argument("--with-jobs", action="store_true",
                        help="run a check and a 10,000,000-deal edge job in two `trainer worker` "
                             "processes beside the trainees (issue 25)")
    parser.add_argument("--job-nice", type=int, default=None,
                        help="the job workers' --nice (default: trainer worker's default)")
    parser.add_argument("--job-cpu-share", type=float, default=None,
                        help="the job workers' JOB_CPU_SHARE (default: the product's default)")
    parser.add_argument("--wait-jobs", type=float, default=0,
                        help="after the run, wait up to this many seconds for the jobs to end "
                             "and report how long each ran")
    args = parser.parse_args()
    sizes = [int(n) for n in str(args.trainees).split(",") if n.strip()]
    if args.database_url and len(sizes) > 1 and not args.fresh:
        parser.error("several class sizes on PostgreSQL need --fresh (each run starts empty)")
    runs, ok = [], True
    for size in sizes:
        run = run_once(args, size)
        ok = report(run) and ok
        runs.append(run)
        print()
    print(table(runs))
    if args.json:
        Path(args.json).write_text(json.dumps(runs, indent=1))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
