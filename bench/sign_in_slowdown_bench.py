"""Bench: eight parallel sign-ins of a slowed login against gunicorn, and /healthz meanwhile.

Issue 24's finding: the slowdown of a much-guessed login slept inside the request, so
8 parallel sign-ins of a slowed login held all 4 gunicorn workers and ``/healthz``
took 19.7 s. Since issue 24 a slowed try is answered at once (429, ``Retry-After``).

Bounded and local only: it starts ``gunicorn --preload -w 4`` on 127.0.0.1 with a
fresh database in a temporary instance folder (SQLite, or ``--database-url`` whose
name contains "bench" or "signin", emptied first), creates the login with
``trainer create-user``, puts it into the slowdown by writing 30 failures from 5
addresses in the last minute straight into ``login_failures`` (as 30 wrong guesses
would), then, ``--rounds`` times, writes one more failure (the attacker's latest
guess: the login is slowed 10 s from now) and fires 8 sign-ins with the right password from
unknown devices at once, while a thread asks ``/healthz`` every 50 ms. It prints
each round's statuses and times, /healthz's p50/p95/max during the rounds, and the
load average (``/proc/loadavg``, sampled every second).

    .venv/bin/python bench/sign_in_slowdown_bench.py                  # this checkout
    .venv/bin/python bench/sign_in_slowdown_bench.py --root /work/base  # the code before
Options: --parallel 8 --rounds 5 --workers 4 --database-url URL
Not a test: run by hand, figures in docs/operations.md ("Sign-in never sleeps").
"""
from __future__ import annotations

import argparse
import http.client
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlencode

import sqlalchemy as sa

HERE = Path(__file__).resolve().parent.parent
LOGIN = "slowed-dealer"
PASSWORD = "harbour-lights-at-dawn-7"
CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')


def free_port() -> int:
    """Return a free TCP port on 127.0.0.1."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def loadavg() -> tuple[float, float, float]:
    """Return the 1, 5 and 15 minute load averages."""
    one, five, fifteen = Path("/proc/loadavg").read_text().split()[:3]
    return float(one), float(five), float(fifteen)


def sign_in(port: int) -> tuple[int, float, str]:
    """GET the form, then time the POST of the right password; return (status, seconds, Retry-After)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    conn.request("GET", "/auth/login")
    response = conn.getresponse()
    page = response.read().decode()
    cookie = "; ".join(value.split(";")[0] for key, value in response.getheaders()
                       if key.lower() == "set-cookie")
    match = CSRF_META.search(page)
    assert match, "no CSRF token"
    body = urlencode({"csrf_token": match.group(1), "login": LOGIN, "password": PASSWORD})
    started = time.perf_counter()
    conn.request("POST", "/auth/login", body=body, headers={
        "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
    answer = conn.getresponse()
    answer.read()
    elapsed = time.perf_counter() - started
    conn.close()
    return answer.status, elapsed, answer.getheader("Retry-After") or "-"


def slow_down(database_url: str, count: int) -> None:
    """Write ``count`` failures of the login from 5 addresses, the last one now (an attacker guessing)."""
    engine = sa.create_engine(database_url)
    now = datetime.now(UTC).replace(tzinfo=None)
    rows = [{"login": LOGIN, "address": f"10.66.0.{i % 5}", "at": now - timedelta(seconds=count - 1 - i)}
            for i in range(count)]
    try:
        with engine.begin() as connection:
            connection.execute(sa.text(
                "INSERT INTO login_failures (login, address, at) VALUES (:login, :address, :at)"), rows)
    finally:
        engine.dispose()


def fresh_postgres(url: str) -> None:
    """Empty a PostgreSQL database meant for this bench (its name says so)."""
    name = url.rsplit("/", 1)[-1]
    if "bench" not in name and "signin" not in name:
        raise SystemExit("--database-url: only a database named for a bench ('bench' or 'signin')")
    engine = sa.create_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(sa.text("DROP SCHEMA public CASCADE"))
            connection.execute(sa.text("CREATE SCHEMA public"))
    finally:
        engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=str(HERE), help="the checkout to run (default: this one)")
    parser.add_argument("--parallel", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    root = Path(args.root).resolve()
    venv = Path(sys.executable).parent
    tmp = Path(tempfile.mkdtemp(prefix="paigow-signin-"))
    database_url = args.database_url or f"sqlite:///{tmp / 'bench.sqlite3'}"
    if args.database_url:
        fresh_postgres(database_url)
    env = dict(os.environ, TRAINER_INSTANCE_PATH=str(tmp / "instance"), SECRET_KEY="bench-secret",
               DATABASE_URL=database_url, PYTHONPATH=str(root))
    for command in (["db", "upgrade"],
                    ["create-user", "--role", "trainee", "--login", LOGIN, "--password", PASSWORD]):
        subprocess.run([str(venv / "trainer"), *command], env=env, cwd=root, check=True,
                       capture_output=True)
    slow_down(database_url, 30)
    port = free_port()
    server = subprocess.Popen(
        [str(venv / "gunicorn"), "--preload", "-w", str(args.workers), "-b", f"127.0.0.1:{port}",
         "--log-level", "warning", "--timeout", "120", "trainer:create_app()"],
        env=env, cwd=root)
    health: list[float] = []
    loads: list[float] = []
    stop = threading.Event()
    try:
        for _ in range(300):
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
                conn.request("GET", "/healthz")
                conn.getresponse().read()
                break
            except OSError:
                time.sleep(0.1)

        for _ in range(4 * args.workers):  # warm every worker (first page renders) before measuring
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            conn.request("GET", "/auth/login")
            conn.getresponse().read()
            conn.close()

        def poll_health() -> None:
            while not stop.is_set():
                started = time.perf_counter()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                conn.request("GET", "/healthz")
                conn.getresponse().read()
                conn.close()
                health.append(time.perf_counter() - started)
                stop.wait(0.05)

        def sample_load() -> None:
            while not stop.wait(1.0):
                loads.append(loadavg()[0])

        load_before = loadavg()
        threads = [threading.Thread(target=poll_health), threading.Thread(target=sample_load)]
        for thread in threads:
            thread.start()
        print(f"root: {root}; gunicorn --preload -w {args.workers}; "
              f"{'PostgreSQL' if args.database_url else 'SQLite'}; "
              f"{args.parallel} parallel sign-ins of a login with 30+ failures in the last minute")
        all_times: list[float] = []
        for round_no in range(1, args.rounds + 1):
            slow_down(database_url, 1)  # the attacker's latest guess: the login is slowed 10 s
            results: list[tuple[int, float, str]] = []
            barrier = threading.Barrier(args.parallel)

            def one(barrier: threading.Barrier, results: list[tuple[int, float, str]]) -> None:
                barrier.wait()
                results.append(sign_in(port))

            workers = [threading.Thread(target=one, args=(barrier, results))
                       for _ in range(args.parallel)]
            for worker in workers:
                worker.start()
            for worker in workers:
                worker.join()
            times = sorted(seconds for _status, seconds, _retry in results)
            all_times += times
            statuses = sorted({status for status, _s, _r in results})
            retry = sorted({retry for _st, _s, retry in results})
            print(f"round {round_no}: statuses {statuses}, Retry-After {retry}, "
                  f"sign-in median {statistics.median(times) * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms")
            time.sleep(0.5)
        stop.set()
        for thread in threads:
            thread.join()
        health.sort()
        p95 = health[min(len(health) - 1, round(0.95 * (len(health) - 1)))]
        print(f"sign-ins: {len(all_times)}, median {statistics.median(all_times) * 1000:.1f} ms, "
              f"max {max(all_times) * 1000:.1f} ms")
        print(f"/healthz meanwhile: {len(health)} requests, p50 {statistics.median(health) * 1000:.1f} ms, "
              f"p95 {p95 * 1000:.1f} ms, max {health[-1] * 1000:.1f} ms")
        print(f"load average before {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}; "
              f"during (1-min, sampled each second) max {max(loads, default=load_before[0]):.2f}; "
              f"after {' '.join(f'{value:.2f}' for value in loadavg())}")
    finally:
        stop.set()
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    main()
