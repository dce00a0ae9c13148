"""Load test: a class of trainees playing timed drills at once, against gunicorn.

Bounded and local only: it starts the app under gunicorn on 127.0.0.1, signs in
N simulated trainees (processes x threads), has each play timed ``house-way``
sessions for a fixed number of seconds (ask a question, answer it, hit the
trivial ``/healthz`` endpoint for a baseline, think, repeat), then stops the
server and compares the answers the clients saw recorded with the attempt rows.

    .venv/bin/python bench/load_test.py                      # SQLite in a temp dir
    .venv/bin/python bench/load_test.py --database-url postgresql+psycopg://...
Options: --trainees 50 --seconds 60 --workers 4 --think 0.5
"""
from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing as mp
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "load-test-pw-1"
CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')
CARD = re.compile(r'data-card="([^"]+)"')


def free_port() -> int:
    """Return a free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Browser:
    """A minimal cookie-keeping HTTP client on one keep-alive connection."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies: dict[str, str] = {}
        self.csrf = ""

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict | None = None) -> tuple[int, dict, bytes]:
        """Send one request and return (status, headers, body)."""
        h = dict(headers or {})
        if self.cookies:
            h["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=body, headers=h)
                resp = self.conn.getresponse()
                data = resp.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt:
                    raise
        for key, value in resp.getheaders():
            if key.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        return resp.status, dict(resp.getheaders()), data

    def get_token(self, path: str) -> None:
        """GET a page and keep its CSRF token."""
        _, _, data = self.request("GET", path)
        match = CSRF_META.search(data.decode())
        if match:
            self.csrf = match.group(1)

    def post_form(self, path: str, form: dict) -> tuple[int, dict, bytes]:
        """POST a form with the CSRF token."""
        body = urlencode({"csrf_token": self.csrf, **form}).encode()
        return self.request("POST", path, body,
                            {"Content-Type": "application/x-www-form-urlencoded"})

    def post_json(self, path: str, payload: dict) -> tuple[int, dict, bytes]:
        """POST JSON the way drills.js does, CSRF token in the header."""
        return self.request("POST", path, json.dumps(payload).encode(),
                            {"Content-Type": "application/json", "X-CSRFToken": self.csrf})


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

    b.get_token("/auth/login")
    status, _, _ = b.post_form("/auth/login", {"login": login, "password": PASSWORD})
    if status != 302:
        fail(f"login {status}")
        out.append(stats)
        return
    end = time.monotonic() + seconds
    session_path = None
    while time.monotonic() < end:
        if session_path is None:
            b.get_token("/drills/")
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
        time.sleep(rng.uniform(0, 2 * think))
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
        time.sleep(rng.uniform(0, 2 * think))
    out.append(stats)


def client_process(port: int, logins: list[tuple[int, str]], seconds: float, think: float,
                   ramp: float, total: int, queue: mp.Queue) -> None:
    """Run one thread per trainee in this process and send back their figures."""
    results: list = []
    threads = [threading.Thread(target=play, args=(port, login, seconds, think, i, results,
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


def count_attempts(env: dict) -> int:
    """Count the attempt rows written."""
    code = """
from trainer import create_app
from trainer.extensions import db
from trainer.models import Attempt
app = create_app()
with app.app_context():
    print(db.session.execute(db.select(db.func.count(Attempt.id))).scalar())
"""
    out = subprocess.run([str(ROOT / ".venv/bin/python"), "-c", code], env=env, check=True,
                         capture_output=True, text=True)
    return int(out.stdout.strip().splitlines()[-1])


def worker_peak_rss_mb(master: int) -> list[float]:
    """Return the peak resident size (VmHWM) of each gunicorn worker, in MB."""
    peaks = []
    try:
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    except OSError:
        return peaks
    for pid in children:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peaks.append(int(line.split()[1]) / 1024)
        except OSError:
            continue
    return peaks


def pct(values: list[float], p: float) -> float:
    """Return the p-th percentile of ``values`` in milliseconds."""
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k] * 1000


def main() -> int:
    """Run the load test and print its report."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trainees", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=1, help="gunicorn threads per worker")
    parser.add_argument("--think", type=float, default=0.5,
                        help="mean think time in seconds between actions")
    parser.add_argument("--processes", type=int, default=5, help="client processes")
    parser.add_argument("--ramp", type=float, default=5.0,
                        help="seconds over which the trainees sign in")
    parser.add_argument("--database-url", default=None,
                        help="PostgreSQL URL (an empty database); default: SQLite in a temp dir")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="paigow-load-"))
    env = dict(os.environ, TRAINER_INSTANCE_PATH=str(tmp / "instance"),
               SECRET_KEY="load-test-secret")
    env.pop("DATABASE_URL", None)
    if args.database_url:
        env["DATABASE_URL"] = args.database_url
    prepare(env, args.trainees)
    port = free_port()
    server = subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), "-w", str(args.workers), "--threads",
         str(args.threads), "--preload", "-b", f"127.0.0.1:{port}", "--log-level", "warning",
         "trainer:create_app()"], env=env, cwd=ROOT)
    try:
        for _ in range(100):
            try:
                http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/healthz")
                break
            except OSError:
                time.sleep(0.1)
        logins = [(i, f"load{i}") for i in range(args.trainees)]
        queue: mp.Queue = mp.Queue()
        chunks = [logins[i::args.processes] for i in range(args.processes)]
        started = time.monotonic()
        procs = [mp.Process(target=client_process,
                            args=(port, chunk, args.seconds, args.think, args.ramp,
                                  args.trainees, queue))
                 for chunk in chunks if chunk]
        for p in procs:
            p.start()
        results = [s for _ in procs for s in queue.get()]
        for p in procs:
            p.join()
        wall = time.monotonic() - started
        worker_peaks = worker_peak_rss_mb(server.pid)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)

    question = [v for s in results for v in s["question"]]
    first = [v for s in results for v in s["first_question"]]
    answer = [v for s in results for v in s["answer"]]
    trivial = [v for s in results for v in s["trivial"]]
    errors = sum(s["errors"] for s in results)
    recorded = sum(s["recorded"] for s in results)
    rows = count_attempts(env)
    requests = len(question) + len(first) + len(answer) + len(trivial)
    backend = "PostgreSQL" if args.database_url else "SQLite"
    print(f"backend: {backend}; gunicorn -w {args.workers} --threads {args.threads}; "
          f"{args.trainees} trainees signing in over {args.ramp:.0f} s, {args.seconds:.0f} s "
          f"each, think {args.think} s mean between actions")
    print(f"requests: {requests} in {wall:.1f} s = {requests / wall:.1f} req/s "
          f"(measured requests only; plus log-ins and session starts)")
    for name, values in (("show question", question + first),
                         ("  first of session", first), ("  later", question),
                         ("answer", answer),
                         ("trivial /healthz", trivial)):
        print(f"{name:>17}: n={len(values):6d}  p50 {pct(values, 50):6.1f} ms  "
              f"p95 {pct(values, 95):6.1f} ms  p99 {pct(values, 99):6.1f} ms")
    base = statistics.median(trivial) if trivial else float("nan")
    print(f"ratio of medians to trivial: question {statistics.median(question + first) / base:.1f}x, "
          f"answer {statistics.median(answer) / base:.1f}x")
    if worker_peaks:
        print("gunicorn workers' peak RSS: "
              + ", ".join(f"{mb:.0f} MB" for mb in worker_peaks))
    print(f"errors: {errors}" + (f" e.g. {results and [e for s in results for e in s['error_samples']][:3]}"
                                 if errors else ""))
    print(f"answers recorded per clients: {recorded}; attempt rows: {rows}; "
          f"{'exactly once' if rows == recorded else 'MISMATCH'}")
    ok = errors == 0 and rows == recorded and pct(question + first, 95) < 50 and pct(answer, 95) < 50
    print("targets (no errors, p95 < 50 ms, exactly once):", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
