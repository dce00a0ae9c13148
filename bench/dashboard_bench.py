"""Seed a training floor's volume and time the supervisor dashboards.

200 trainees in 8 groups of 25, 500,000 attempts over 180 days (sessions of 20
questions, half timed), then the group overview and a trainee page are rendered
through the app (sign-in, view, template, charts) several times each; the median
is reported against the 300 ms budget. Figures go in docs/dashboards.md.

    .venv/bin/python bench/dashboard_bench.py                 # SQLite file in /tmp
    .venv/bin/python bench/dashboard_bench.py --reuse         # keep the seeded file
    DATABASE_URL=postgresql+psycopg://... .venv/bin/python bench/dashboard_bench.py
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from trainer import create_app
from trainer.extensions import db
from trainer.models import Attempt, DrillSession, Group, Membership, Role, User

TRAINEES = 200
GROUP_SIZE = 25
ATTEMPTS = 500_000
SESSION_LENGTH = 20
DAYS = 180
BUDGET_MS = 300
PASSWORD = "bench-password-1"
KINDS = {"house-way": 5, "settlement": 2, "action": 1, "hand-reading": 1, "foul-check": 1}
RULES = {
    # Rules of the groups' way (Trump Plaza, the default), so the class-by-rule page counts them.
    "house-way": ["two-pair.split.aces", "two-pair.together.ace", "one-pair.standard",
                  "sf.best-front.no-pair", "trips.standard", "full-house.split", "pai-gow.standard"],
    "settlement": ["settlement.win", "settlement.push", "settlement.lose", "settlement.copy-push",
                   "settlement.foul"],
    "action": ["action.banker", "action.count", "action.player-banker"],
    "hand-reading": ["reading.flush.joker", "reading.straight", "reading.compare.2"],
    "foul-check": ["foul.higher-pair-in-front", "foul.legal"],
}


def seed(now: datetime, rng: random.Random) -> None:
    """Insert the supervisors, groups, trainees, sessions and attempts in batches."""
    password_hash = User(name="x", login="x")
    password_hash.set_password(PASSWORD)
    hashed = password_hash.password_hash
    groups = []
    for g in range(TRAINEES // GROUP_SIZE):
        boss = User(name=f"Supervisor {g}", login=f"sup{g}", role=Role.SUPERVISOR, password_hash=hashed)
        group = Group(name=f"Shift {g}", supervisor=boss, settings={})
        db.session.add_all([boss, group])
        groups.append(group)
    db.session.flush()
    trainees = []
    for t in range(TRAINEES):
        user = User(name=f"Trainee {t:03d}", login=f"t{t:03d}", role=Role.TRAINEE, password_hash=hashed)
        user.membership = Membership(group=groups[t // GROUP_SIZE])
        db.session.add(user)
        trainees.append(user)
    db.session.commit()

    kinds, weights = list(KINDS), list(KINDS.values())
    per_trainee = ATTEMPTS // TRAINEES
    session_rows, attempt_rows = [], []
    session_id = attempt_id = 0
    question = {"cards": ["As", "Ad", "7c", "7d", "2h", "3s", "JK"], "context": {"house_way": "trump-plaza"}}
    for user in trainees:
        skill = rng.uniform(0.85, 0.995)
        speed = rng.uniform(2500, 9000)
        for s in range(per_trainee // SESSION_LENGTH):
            session_id += 1
            kind = rng.choices(kinds, weights)[0]
            mode = "timed" if rng.random() < 0.5 else "practice"
            start = now - timedelta(days=DAYS * (1 - s / (per_trainee / SESSION_LENGTH)),
                                    minutes=rng.randrange(600))
            session_rows.append({
                "id": session_id, "user_id": user.id, "group_id": user.membership.group_id,
                "kind": kind, "mode": mode, "length": SESSION_LENGTH,
                "time_limit_ms": None if mode == "practice" else 10_000, "house_way": "trump-plaza",
                "profile": "nevada", "started_at": start,
                "finished_at": start + timedelta(minutes=5),
            })
            for position in range(1, SESSION_LENGTH + 1):
                attempt_id += 1
                elapsed = int(rng.lognormvariate(0, 0.4) * speed)
                timed_out = mode == "timed" and elapsed > 10_000
                correct = not timed_out and rng.random() < skill
                answered = start + timedelta(seconds=position * 12)
                if kind == "settlement":
                    positions = [{"seat": i + 2, "outcome": "win", "paid_cents": 950} for i in range(3)]
                    answer = {"positions": positions if correct else [*positions[:2], {"outcome": "lose"}]}
                    key = {"positions": positions}
                else:
                    answer = {"front": ["7c", "7d"]}
                    key = {"front": ["7c", "7d"] if correct else ["As", "Ad"]}
                attempt_rows.append({
                    "id": attempt_id, "session_id": session_id, "position": position, "user_id": user.id,
                    "kind": kind, "seed": rng.getrandbits(62), "question": question, "answer": answer,
                    "correct_answer": key, "correct": correct, "timed_out": timed_out,
                    "rule_id": rng.choice(RULES[kind]),
                    "issued_at": answered - timedelta(milliseconds=elapsed),
                    "answered_at": answered, "elapsed_ms": elapsed,
                })
        if len(attempt_rows) >= 50_000:
            _flush(session_rows, attempt_rows)
    _flush(session_rows, attempt_rows)


def _flush(session_rows: list[dict], attempt_rows: list[dict]) -> None:
    if session_rows:
        db.session.execute(DrillSession.__table__.insert(), session_rows)
    if attempt_rows:
        db.session.execute(Attempt.__table__.insert(), attempt_rows)
    db.session.commit()
    session_rows.clear()
    attempt_rows.clear()


def timed_get(client, url: str, runs: int) -> tuple[float, float, float, int]:
    """GET ``url`` ``runs`` times after one warm-up.

    Return the median and best wall-clock ms, the median CPU ms of this process
    (SQLite runs in-process, so it counts; other processes on a busy machine do
    not) and the page size.
    """
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    response.get_data()
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        body = response.get_data()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return statistics.median(wall), min(wall), statistics.median(cpu), len(body)


def _peak_rss_mib() -> float:
    """Return this process's peak resident memory so far, in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    """Seed (unless reused), then time the pages and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reuse", action="store_true", help="keep and reuse the seeded SQLite file")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL")
    path = Path(tempfile.gettempdir()) / "paigow-dashboard-bench.sqlite3"
    if not url and path.exists() and not args.reuse:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    instance = tempfile.mkdtemp(prefix="paigow-bench-")
    os.environ["TRAINER_INSTANCE_PATH"] = instance
    app = create_app({
        "TESTING": True, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
        "SQLALCHEMY_DATABASE_URI": url or f"sqlite:///{path}",
        "PASSWORD_HASH_METHOD": "scrypt:1024:8:1",
    })
    now = datetime.now(UTC)
    with app.app_context():
        if url:
            db.drop_all()
        db.create_all()
        seeded = db.session.execute(db.select(db.func.count()).select_from(Attempt)).scalar()
        if not seeded:
            start = time.perf_counter()
            seed(now, random.Random(6))
            if db.engine.dialect.name == "postgresql":
                # VACUUM too: right after a bulk load the visibility map is empty and
                # PostgreSQL reads the table rather than its covering indexes, until
                # autovacuum comes round (timings then change between runs).
                autocommit = db.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
                with autocommit as connection:
                    connection.exec_driver_sql("VACUUM ANALYZE")
            else:
                db.session.execute(db.text("ANALYZE"))
                db.session.commit()
            print(f"seeded in {time.perf_counter() - start:.0f} s")
        counts = {
            "trainees": db.session.execute(
                db.select(db.func.count()).select_from(User).filter_by(role="trainee")).scalar(),
            "attempts": db.session.execute(db.select(db.func.count()).select_from(Attempt)).scalar(),
        }
        group_id = db.session.execute(db.select(Group.id).order_by(Group.id)).scalars().first()
        trainee_id = db.session.execute(
            db.select(Membership.user_id).filter_by(group_id=group_id).order_by(Membership.user_id)
        ).scalars().first()
    print(f"{app.config['SQLALCHEMY_DATABASE_URI'].split(':')[0]}: "
          f"{counts['trainees']} trainees, {counts['attempts']} attempts, groups of {GROUP_SIZE}")

    client = app.test_client()
    client.post("/auth/login", data={"login": "sup0", "password": PASSWORD})
    pages = []
    for period in ("7d", "30d", "all"):
        pages.append((f"group overview, {period}", f"/supervisor/groups/{group_id}?period={period}"))
    for period in ("7d", "30d", "all"):
        pages.append((f"trainee page, {period}", f"/supervisor/trainees/{trainee_id}?period={period}"))
    pages.append(("printable report, all", f"/supervisor/trainees/{trainee_id}/report?period=all"))
    for period in ("30d", "all"):
        pages.append((f"class by rule, {period}", f"/supervisor/groups/{group_id}/rules?period={period}"))
    pages.append(("summary CSV, 30d", f"/supervisor/groups/{group_id}/export/summary.csv?period=30d"))
    worst = 0.0
    before_pages = _peak_rss_mib()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'page':<28}{'median ms':>10}{'best ms':>9}{'CPU ms':>8}{'KiB':>6}")
    for name, page_url in pages:
        ms, best, cpu, size = timed_get(client, page_url, args.runs)
        worst = max(worst, ms) if "CSV" not in name else worst
        print(f"{name:<28}{ms:>10.0f}{best:>9.0f}{cpu:>8.0f}{size / 1024:>6.0f}")
    print(f"peak RSS of this process: {_peak_rss_mib():.0f} MiB "
          f"({before_pages:.0f} MiB before the pages were timed)")
    print(f"slowest page (median): {worst:.0f} ms (budget {BUDGET_MS} ms): "
          f"{'OK' if worst < BUDGET_MS else 'OVER'}")
    return 0 if worst < BUDGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
