"""Two web servers and two job workers on one PostgreSQL database (issue 25, item 5).

Beyond one machine, shown on this one: two gunicorn masters (``-c
python:trainer.cli.gunicorn_conf --preload``) on two ports, each with an instance folder of
its own (as on two machines: its own PDF copies, the same ``SECRET_KEY``), and two
``trainer worker`` processes, all on one PostgreSQL database. Trainees are spread over
both servers (even on A, odd on B) and play timed drills as in ``bench/load_test.py``;
meanwhile a manager asks for the checks of two drafts from *both* servers, and trainees
ask for six PDF variants, each variant from both servers. Afterwards it waits for the
queue to empty and checks:

- every answer the clients saw recorded is one attempt row, none twice;
- every job ran exactly once: one row per key, claimed once (``attempts`` 1), done;
  two checks and six PDFs, no more; both workers took part;
- each PDF is stored once and both servers serve the same bytes.

    .venv/bin/python bench/two_servers.py --fresh \
        --database-url postgresql+psycopg://postgres@127.0.0.1:54329/h_jobs2
Options: --trainees 40 --seconds 60 --web-workers 2 --think 0.5 --seed 25
``--fresh`` drops and recreates the database's ``public`` schema first.
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_kit import Browser, free_port, loadavg, stop
from load_test import PASSWORD, pct, play

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv/bin"
VARIANTS = [("trump-plaza", "letter"), ("trump-plaza", "a4"), ("foxwoods", "letter"),
            ("foxwoods", "a4"), ("mgm-grand", "letter"), ("golden-nugget", "a4")]


def python(env: dict, code: str) -> str:
    out = subprocess.run([str(BIN / "python"), "-c", code], env=env, check=True,
                         capture_output=True, text=True)
    return out.stdout


def prepare(env: dict, url: str, trainees: int, fresh: bool) -> None:
    if fresh:
        python(env, f"""
import sqlalchemy as sa
engine = sa.create_engine({url!r})
with engine.begin() as conn:
    conn.execute(sa.text("DROP SCHEMA IF EXISTS public CASCADE"))
    conn.execute(sa.text("CREATE SCHEMA public"))
""")
    subprocess.run([str(BIN / "trainer"), "db", "upgrade"], env=env, check=True, capture_output=True)
    python(env, f"""
from trainer import create_app
from trainer.extensions import db
from trainer.models import Group, Membership, User
app = create_app({{"PASSWORD_HASH_METHOD": "scrypt:1024:8:1"}})
with app.app_context():
    sup = User(name="Two-server supervisor", login="two-sup", role="supervisor")
    boss = User(name="Two-server manager", login="two-boss", role="manager")
    for user in (sup, boss):
        user.set_password("{PASSWORD}")
    group = Group(name="Two-server class", supervisor=sup, settings={{}})
    db.session.add_all([sup, boss, group])
    for i in range({trainees}):
        u = User(name=f"Trainee {{i}}", login=f"load{{i}}", role="trainee")
        u.set_password("{PASSWORD}")
        u.membership = Membership(group=group)
        db.session.add(u)
    db.session.commit()
""")


def start_server(env: dict, port: int, workers: int) -> subprocess.Popen:
    process = subprocess.Popen(
        [str(BIN / "gunicorn"), "-c", "python:trainer.cli.gunicorn_conf", "--preload", "-w",
         str(workers), "-b", f"127.0.0.1:{port}", "--log-level", "warning",
         "trainer:create_app()"], env=env, cwd=ROOT)
    for _ in range(300):
        try:
            Browser(port).request("GET", "/healthz")
            return process
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the server on port {port} did not start")


def sign_in(port: int, login: str) -> Browser:
    b = Browser(port)
    status = b.sign_in(login, PASSWORD)
    assert status == 302, (login, status)
    return b


def manager_checks(ports: list[int], out: dict) -> None:
    """Copy two drafts (on server A), then press Check on each from both servers."""
    a, b = sign_in(ports[0], "two-boss"), sign_in(ports[1], "two-boss")
    ways = []
    for base, slug in (("trump-plaza", "sands-one"), ("foxwoods", "sands-two")):
        a.page(f"/manager/house-ways/copy?from={base}")
        status, headers, _ = a.post_form(f"/manager/house-ways/copy?from={base}",
                                         {"slug": slug, "casino": f"{slug} casino"})
        assert status == 302, status
        ways.append(int(headers["Location"].rstrip("/").rsplit("/", 1)[1]))
    statuses = []
    for way in ways:
        for browser in (a, b):
            browser.page(f"/manager/house-ways/{way}/check")
            status, _, _ = browser.post_form(f"/manager/house-ways/{way}/check", {})
            statuses.append(status)
    out["check_posts"] = statuses


def pdf_requests(ports: list[int], out: dict) -> None:
    """Six trainees on each server ask for the six variants (each variant from both)."""
    statuses: list[int] = []
    lock = threading.Lock()

    def ask(port: int, login: str, preset: str, paper: str) -> None:
        b = sign_in(port, login)
        status, _, _ = b.request("GET", f"/house-way/{preset}/pdf?paper={paper}")
        with lock:
            statuses.append(status)

    threads = [threading.Thread(target=ask, args=(ports[side], f"load{2 * i + side}", preset, paper))
               for i, (preset, paper) in enumerate(VARIANTS) for side in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out["pdf_statuses"] = sorted(statuses)


def client_process(ports: list[int], logins: list[tuple[int, str]], seconds: float, think: float,
                   seed: int, queue: mp.Queue) -> None:
    results: list = []
    threads = [threading.Thread(target=play, args=(ports[i % 2], login, seconds, think,
                                                   seed * 1_000_003 + i, results, 5.0 * i / 40))
               for i, login in logins]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    queue.put(results)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--fresh", action="store_true")
    parser.add_argument("--trainees", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument("--think", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--wait-jobs", type=float, default=900, help="seconds to wait for the queue")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="paigow-two-"))
    base = dict(os.environ, DATABASE_URL=args.database_url, SECRET_KEY="two-server-secret")
    envs = {name: dict(base, TRAINER_INSTANCE_PATH=str(tmp / name))
            for name in ("web-a", "web-b", "worker-1", "worker-2")}
    prepare(envs["web-a"], args.database_url, args.trainees, args.fresh)
    load_before = loadavg()
    ports = [free_port(), free_port()]
    servers = [start_server(envs["web-a"], ports[0], args.web_workers),
               start_server(envs["web-b"], ports[1], args.web_workers)]
    workers = [subprocess.Popen([str(BIN / "trainer"), "worker"], env=envs[name], cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
               for name in ("worker-1", "worker-2")]
    samples: list[float] = []
    sampling = threading.Event()

    def sample() -> None:
        while not sampling.wait(1.0):
            samples.append(loadavg()[0])

    threading.Thread(target=sample, daemon=True).start()
    side: dict = {}
    try:
        queue: mp.Queue = mp.Queue()
        logins = [(i, f"load{i}") for i in range(args.trainees)]
        procs = [mp.Process(target=client_process, args=(ports, logins[k::4], args.seconds,
                                                         args.think, args.seed, queue))
                 for k in range(4)]
        started = time.monotonic()
        for p in procs:
            p.start()
        time.sleep(8)
        extra = [threading.Thread(target=manager_checks, args=(ports, side)),
                 threading.Thread(target=pdf_requests, args=(ports, side))]
        for t in extra:
            t.start()
        results = [s for _ in procs for s in queue.get()]
        for p in procs:
            p.join()
        for t in extra:
            t.join()
        wall = time.monotonic() - started
        deadline = time.monotonic() + args.wait_jobs
        while time.monotonic() < deadline:
            left = int(python(envs["web-a"], """
from trainer import create_app
from trainer.extensions import db
from trainer.models import Job
app = create_app()
with app.app_context():
    print(db.session.execute(db.select(db.func.count(Job.id)).where(
        Job.status.in_(("queued", "running")))).scalar())
""").strip().splitlines()[-1])
            if not left:
                break
            time.sleep(5)
        jobs_wall = time.monotonic() - started
        # Each PDF from both servers: the same bytes (server B reads what a worker stored).
        same = []
        for i, (preset, paper) in enumerate(VARIANTS):
            got = []
            for k in (0, 1):
                status, _, data = sign_in(ports[k], f"load{2 * i + k}").request(
                    "GET", f"/house-way/{preset}/pdf?paper={paper}")
                got.append((status, data))
            same.append(got[0][0] == got[1][0] == 200 and got[0][1] == got[1][1]
                        and got[0][1].startswith(b"%PDF"))
    finally:
        sampling.set()
        for process in servers + workers:
            stop(process)
    report = python(envs["web-a"], """
from collections import Counter
from trainer import create_app
from trainer.extensions import db
from trainer.models import Attempt, Job
from trainer.models.job import PdfFile
app = create_app()
with app.app_context():
    rows = db.session.execute(db.select(db.func.count(Attempt.id))).scalar()
    twice = db.session.execute(db.select(db.func.count()).select_from(
        db.select(Attempt.session_id, Attempt.position).group_by(Attempt.session_id, Attempt.position)
        .having(db.func.count() > 1).subquery())).scalar()
    jobs = db.session.execute(db.select(Job)).scalars().all()
    keys = Counter(job.key for job in jobs)
    print("attempts", rows, twice)
    print("jobs", len(jobs), sum(1 for j in jobs if j.status == "done"),
          max(keys.values(), default=0), max((j.attempts for j in jobs), default=0),
          len({j.worker.rsplit(":", 1)[1] for j in jobs if j.worker}))
    print("kinds", " ".join(f"{k}={v}" for k, v in sorted(Counter(j.kind for j in jobs).items())))
    print("pdfs", db.session.execute(db.select(db.func.count(PdfFile.id))).scalar(),
          db.session.execute(db.select(db.func.count(db.func.distinct(PdfFile.digest)))).scalar())
    for j in jobs:
        took = (j.finished_at - j.started_at).total_seconds() if j.finished_at and j.started_at else -1
        print("job", j.id, j.kind, j.status, j.attempts, j.worker, f"{took:.1f}")
""")
    lines = {line.split()[0]: line.split()[1:] for line in report.splitlines()
             if line and line.split()[0] in ("attempts", "jobs", "kinds", "pdfs")}
    question = [v for s in results for v in s["question"] + s["first_question"]]
    answer = [v for s in results for v in s["answer"]]
    recorded = sum(s["recorded"] for s in results)
    errors = sum(s["errors"] for s in results)
    rows, twice = map(int, lines["attempts"])
    n_jobs, n_done, most_per_key, most_attempts, n_workers = map(int, lines["jobs"])
    n_pdfs, n_digests = map(int, lines["pdfs"])
    print(f"two gunicorn masters (-w {args.web_workers} each, ports {ports}), two job workers, "
          f"one PostgreSQL database; {args.trainees} trainees over both, {args.seconds:.0f} s")
    print(f"question p50/p95/p99 {pct(question, 50):.1f} / {pct(question, 95):.1f} / "
          f"{pct(question, 99):.1f} ms (n={len(question)}); answer {pct(answer, 50):.1f} / "
          f"{pct(answer, 95):.1f} / {pct(answer, 99):.1f} ms (n={len(answer)}); errors {errors}")
    print(f"answers recorded per clients {recorded}, attempt rows {rows}, recorded twice {twice}: "
          f"{'exactly once' if rows == recorded and not twice else 'MISMATCH'}")
    print(f"check POSTs {side.get('check_posts')}; PDF first answers {side.get('pdf_statuses')}")
    print(f"jobs: {n_jobs} rows ({' '.join(lines['kinds'])}), {n_done} done, most rows per key "
          f"{most_per_key}, most claims per job {most_attempts}, workers that ran jobs {n_workers}")
    print(f"PDFs stored {n_pdfs} ({n_digests} distinct); each served the same by both servers: "
          f"{all(same)}")
    print(f"drills {wall:.0f} s; queue empty after {jobs_wall:.0f} s; loadavg before "
          f"{load_before[0]:.2f}, during mean {statistics.mean(samples or [0]):.2f} max "
          f"{max(samples or [0]):.2f}")
    for line in report.splitlines():
        if line.startswith("job "):
            print("  " + line)
    ok = (errors == 0 and rows == recorded and not twice and n_jobs == n_done == 2 + len(VARIANTS)
          and most_per_key == 1 and most_attempts == 1 and n_pdfs == n_digests == len(VARIANTS)
          and all(same))
    print("every answer and every job exactly once:", "yes" if ok else "NO")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
