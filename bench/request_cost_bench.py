"""Time showing a question and answering it, one request at a time, through the test client.

A signed-in trainee plays timed house-way sessions: ``N`` question+answer pairs
in a row (a new session when one ends, not timed), after ``WARMUP`` pairs. Each
request is timed around the test client's call (the WSGI app, the database and
the template; no network), and its SQL statements are counted as
tests/web/test_request_cost.py counts them. ``/healthz`` is timed the same way
as a floor. The right answer is worked out outside the timing. Prints the
median and p95 in ms of wall time and of this thread's CPU time, around the
test client's call and around the WSGI app alone (the server time: the test
client's own work is the client's) (the app's own
work, without the fsync of the commit or PostgreSQL's server), the statements per
request and the load average.
Figures go in docs/operations.md ("Cost of a question and an answer").

    .venv/bin/python bench/request_cost_bench.py [N]              # SQLite file in /tmp
    .venv/bin/python bench/request_cost_bench.py N --language es  # a Spanish reader
    .venv/bin/python bench/request_cost_bench.py N --profile /tmp/answer.prof  # cProfile the
        # question and answer calls (one file each: question.prof, answer.prof)
    .venv/bin/python bench/request_cost_bench.py N --fast-paths off  # the speed tweaks off
        # (web/platform/fast_paths.py); or a list of those to keep: --fast-paths cards,translations
    DATABASE_URL=postgresql+psycopg://... .venv/bin/python bench/request_cost_bench.py
"""
from __future__ import annotations

import argparse
import cProfile
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import event

from trainer import create_app
from trainer.engine.drills import DrillContext
from trainer.extensions import db
from trainer.models import IssuedQuestion, Role, User
from trainer.services import drills as drill_service

WARMUP = 20
PASSWORD = "correct-horse-9"


def _loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def _median_p95(values: list[float]) -> str:
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
    return f"median {statistics.median(values):.2f} ms, p95 {p95:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pairs", nargs="?", type=int, default=300)
    parser.add_argument("--language", default=None,
                        help="the trainee's language (en, es, pt, it, ru); default: the installation's")
    parser.add_argument("--profile", default=None,
                        help="cProfile the question and answer calls into <stem>.question.prof and "
                             "<stem>.answer.prof (timings then include the profiler's cost)")
    parser.add_argument("--fast-paths", default="on",
                        help="the speed tweaks: on (the default), off, or the names of those to keep, "
                             "comma-separated (docs/operations.md, \"Speed tweaks (issue 29)\")")
    args = parser.parse_args(sys.argv[1:])
    fast: bool | list[str] = {"on": True, "off": False}.get(
        args.fast_paths, [name for name in args.fast_paths.split(",") if name])
    pairs = args.pairs
    tmp = tempfile.mkdtemp(prefix="request-cost-")
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{tmp}/bench.sqlite3"
    os.environ["TRAINER_INSTANCE_PATH"] = tmp
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench",
                      "PASSWORD_HASH_METHOD": "scrypt:1024:8:1", "FAST_PATHS": fast})
    with app.app_context():
        db.drop_all()
        db.create_all()
        user = User(name="Bench", login="bench", role=Role.TRAINEE, language=args.language)
        user.set_password(PASSWORD)
        db.session.add(user)
        db.session.commit()
        engine = db.engine
    statements = [0]

    def count(*args: Any) -> None:
        statements[0] += 1

    event.listen(engine, "before_cursor_execute", count)
    # Server time: from the WSGI call until its response body is complete and closed,
    # measured around the app itself, so the test client's own work (building the
    # environ, the cookie jar, wrapping the response) is not counted as the server's.
    server = [0.0, 0.0]
    inner = app.wsgi_app

    profilers = {"question": cProfile.Profile(), "answer": cProfile.Profile()}
    profiling = [""]

    def server_timed(environ: Any, start_response: Any) -> list[bytes]:
        profiler = profilers.get(profiling[0]) if args.profile else None
        start, start_cpu = time.perf_counter(), time.thread_time()
        if profiler is not None:
            profiler.enable()
        body = inner(environ, start_response)
        try:
            chunks = list(body)
        finally:
            close = getattr(body, "close", None)
            if close is not None:
                close()
            if profiler is not None:
                profiler.disable()
        server[:] = [(time.perf_counter() - start) * 1000, (time.thread_time() - start_cpu) * 1000]
        return chunks

    app.wsgi_app = server_timed  # type: ignore[method-assign]
    client = app.test_client()
    page = client.get("/auth/login").get_data(as_text=True)
    token = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    client.post("/auth/login", data={"csrf_token": token, "login": "bench", "password": PASSWORD})
    token = re.search(r'name="csrf-token" content="([^"]+)"',  # type: ignore[union-attr]
                      client.get("/drills/").get_data(as_text=True)).group(1)
    headers = {"X-CSRFToken": token}

    def new_session() -> int:
        response = client.post("/drills/house-way/start", data={"csrf_token": token, "mode": "timed"})
        return int(response.headers["Location"].rsplit("/", 1)[1])

    def right(session_id: int, position: int) -> dict[str, Any]:
        with app.app_context():
            row = db.session.execute(db.select(IssuedQuestion).filter_by(
                session_id=session_id, position=position)).scalar_one()
            key = drill_service.answer_key(dict(row.question), DrillContext.from_dict(row.context))
        return {"front": key["front"]}

    cpu: dict[str, list[float]] = {"question": [], "answer": [], "healthz": []}
    served: dict[str, list[float]] = {"question": [], "answer": [], "healthz": []}
    served_cpu: dict[str, list[float]] = {"question": [], "answer": [], "healthz": []}
    last_cpu = [0.0]

    def timed(call: Any, *args: Any, **kwargs: Any) -> tuple[float, int, Any]:
        statements[0] = 0
        start, start_cpu = time.perf_counter(), time.thread_time()
        response = call(*args, **kwargs)
        last_cpu[0] = (time.thread_time() - start_cpu) * 1000
        return (time.perf_counter() - start) * 1000, statements[0], response

    times: dict[str, list[float]] = {"question": [], "answer": [], "healthz": []}
    counts: dict[str, set[int]] = {"question": set(), "answer": set()}
    session_id = new_session()
    load_before = _loadavg()
    for i in range(WARMUP + pairs):
        profiling[0] = "question" if i >= WARMUP else ""
        ms, n, response = timed(client.post, f"/drills/sessions/{session_id}/question",
                                json={}, headers=headers)
        profiling[0] = ""
        body = response.get_json()
        if body["finished"]:
            session_id = new_session()
            continue
        if i >= WARMUP:
            times["question"].append(ms)
            cpu["question"].append(last_cpu[0])
            served["question"].append(server[0])
            served_cpu["question"].append(server[1])
            counts["question"].add(n)
        answer = right(session_id, body["position"])
        profiling[0] = "answer" if i >= WARMUP else ""
        ms, n, response = timed(client.post, f"/drills/sessions/{session_id}/answer",
                                json={"position": body["position"], "answer": answer},
                                headers=headers)
        profiling[0] = ""
        assert response.status_code == 200, response.get_json()
        if i >= WARMUP:
            times["answer"].append(ms)
            cpu["answer"].append(last_cpu[0])
            served["answer"].append(server[0])
            served_cpu["answer"].append(server[1])
            counts["answer"].add(n)
        ms, n, response = timed(client.get, "/healthz")
        if i >= WARMUP:
            times["healthz"].append(ms)
            cpu["healthz"].append(last_cpu[0])
            served["healthz"].append(server[0])
            served_cpu["healthz"].append(server[1])
    print(f"database: {engine.dialect.name}; reader's language: {args.language or 'installation'}; "
          f"{pairs} question+answer pairs after {WARMUP} warm-up; "
          f"speed tweaks: {', '.join(app.extensions['fast_paths']) or 'none'}")
    for name, values in times.items():
        sql = f", SQL statements {sorted(counts[name])}" if name in counts else ""
        print(f"  {name:9s} {_median_p95(values)} over {len(values)}{sql}; "
              f"CPU of this process {_median_p95(cpu[name])} (the rest is waiting: "
              "the commit's fsync, and on PostgreSQL the server)")
        print(f"  {'':9s} server time (the WSGI app alone) {_median_p95(served[name])}; "
              f"its CPU {_median_p95(served_cpu[name])}")
    print(f"  loadavg before {load_before}, after {_loadavg()}")
    if args.profile:
        stem = args.profile.removesuffix(".prof")
        for name, profiler in profilers.items():
            profiler.dump_stats(f"{stem}.{name}.prof")
            print(f"  profile of the {name}s: {stem}.{name}.prof")
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


if __name__ == "__main__":
    main()
