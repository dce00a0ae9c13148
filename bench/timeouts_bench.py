"""Time ``settle_overdue`` (and the practice count) on a training floor's volume.

200 trainees in 8 groups of 25, 25,000 sessions of 20 questions over 180 days
(half timed), so 500,000 issued questions and about as many attempts; 5% of the
sessions were left part-way, most of those already settled, and a few timed ones
still hold an overdue question. Then each call the pages make is timed, several
times, after the first call has settled what was overdue (the usual case is a
query that finds nothing). Figures go in docs/operations.md.

    .venv/bin/python bench/timeouts_bench.py                  # SQLite file in /tmp
    DATABASE_URL=postgresql+psycopg://... .venv/bin/python bench/timeouts_bench.py
    .venv/bin/python bench/timeouts_bench.py --with-index     # with a trial index, to compare
"""
from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import insert, text

from trainer import create_app
from trainer.engine.drills import DrillContext, new_question
from trainer.engine.house_way import load
from trainer.extensions import db
from trainer.models import Attempt, DrillSession, Group, IssuedQuestion, Membership, Role, User
from trainer.services import drills as drill_service
from trainer.services.drills import timeouts
from trainer.services.reports import sql as report_queries

TRAINEES = 200
GROUP_SIZE = 25
SESSIONS = 25_000
LENGTH = 20
DAYS = 180
ABANDONED = 0.05
STILL_OVERDUE = 40
RUNS = 15
CONTEXT = DrillContext(load("trump-plaza"), "nevada")
QUESTION = new_question("action", 1, CONTEXT)


def seed(now: datetime, rng: random.Random) -> None:
    """Insert groups, trainees, sessions, issued questions and attempts in batches."""
    groups = []
    for g in range(TRAINEES // GROUP_SIZE):
        boss = User(name=f"Supervisor {g}", login=f"sup{g}", role=Role.SUPERVISOR, password_hash="x")
        group = Group(name=f"Shift {g}", supervisor=boss, settings={})
        db.session.add_all([boss, group])
        groups.append(group)
    db.session.flush()
    trainees = []
    for t in range(TRAINEES):
        user = User(name=f"Trainee {t:03d}", login=f"t{t:03d}", role=Role.TRAINEE, password_hash="x")
        user.membership = Membership(group=groups[t // GROUP_SIZE])
        db.session.add(user)
        trainees.append(user)
    db.session.commit()
    sessions, issued, attempts = [], [], []
    overdue_left = STILL_OVERDUE
    for s in range(1, SESSIONS + 1):
        user = trainees[s % TRAINEES]
        timed = s % 2 == 0
        limit = 10_000 if timed else None
        start = now - timedelta(days=DAYS * (1 - s / SESSIONS))
        abandoned = rng.random() < ABANDONED
        shown = rng.randint(1, LENGTH) if abandoned else LENGTH
        unanswered = abandoned and (not timed or (overdue_left > 0 and rng.random() < 0.2))
        if unanswered and timed:
            overdue_left -= 1
        sessions.append({"id": s, "user_id": user.id, "group_id": user.membership.group_id,
                         "kind": "action", "mode": "timed" if timed else "practice", "length": LENGTH,
                         "time_limit_ms": limit, "house_way": "trump-plaza", "profile": "nevada",
                         "started_at": start,
                         "finished_at": None if abandoned else start + timedelta(seconds=5 * LENGTH)})
        for p in range(1, shown + 1):
            at = start + timedelta(seconds=5 * (p - 1))
            issued.append({"session_id": s, "position": p, "seed": p, "question": QUESTION,
                           "context": CONTEXT.as_dict(), "rule_id": "action.count", "issued_at": at})
            if p == shown and unanswered:
                continue
            attempts.append({"session_id": s, "position": p, "user_id": user.id, "kind": "action",
                             "seed": p, "question": QUESTION, "answer": {"seat": 1},
                             "correct_answer": {"seat": 1}, "correct": True, "timed_out": False,
                             "rule_id": "action.count", "issued_at": at,
                             "answered_at": at + timedelta(seconds=4), "elapsed_ms": 4000})
    for table, rows in ((DrillSession, sessions), (IssuedQuestion, issued), (Attempt, attempts)):
        for i in range(0, len(rows), 20_000):
            db.session.execute(insert(table), rows[i:i + 20_000])
        db.session.commit()
    if db.engine.dialect.name == "postgresql":
        db.session.execute(text("SELECT setval('drill_sessions_id_seq', :n)"), {"n": SESSIONS})
        db.session.commit()
        with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text("VACUUM ANALYZE"))
    else:
        db.session.execute(text("ANALYZE"))
        db.session.commit()
    print(f"seeded {len(sessions)} sessions, {len(issued)} issued questions, "
          f"{len(attempts)} attempts, {STILL_OVERDUE - overdue_left} overdue")


def timed(label: str, call) -> None:
    """Print the median and best wall-clock time of ``call`` over RUNS runs."""
    times = []
    for _ in range(RUNS):
        began = time.perf_counter()
        call()
        times.append((time.perf_counter() - began) * 1000)
        db.session.rollback()
    print(f"{label:<44} {statistics.median(times):8.2f} {min(times):8.2f}")


def main() -> None:
    url = os.environ.get("DATABASE_URL")
    workdir = Path(tempfile.mkdtemp(prefix="timeouts-bench-"))
    config = {"SQLALCHEMY_DATABASE_URI": url or f"sqlite:///{workdir / 'bench.sqlite3'}",
              "SECRET_KEY": "bench"}
    os.environ["TRAINER_INSTANCE_PATH"] = str(workdir / "instance")
    app = create_app(config)
    with app.app_context():
        db.drop_all()
        db.create_all()
        now = datetime.now(UTC)
        seed(now, random.Random(13))
        if "--with-index" in sys.argv:
            # What an index on (user_id, finished_at) would save (not in the models).
            db.session.execute(text("CREATE INDEX ix_bench_open ON drill_sessions (user_id, finished_at)"))
            db.session.commit()
            print("with an index on drill_sessions (user_id, finished_at)")
        group = list(range(1 + TRAINEES // GROUP_SIZE, 1 + TRAINEES // GROUP_SIZE + GROUP_SIZE))
        began = time.perf_counter()
        settled = drill_service.settle_overdue()
        print(f"first sweep settled {settled} in {(time.perf_counter() - began) * 1000:.1f} ms")
        print(f"{db.engine.dialect.name}; {'call':<38} {'median ms':>9} {'best ms':>8}")
        timed("settle_overdue(session_id=…)  drill page", lambda: drill_service.settle_overdue(
            session_id=SESSIONS // 2))
        timed("settle_overdue(user_ids=[1 trainee])", lambda: drill_service.settle_overdue(
            user_ids=group[:1]))
        timed("settle_overdue(user_ids=[25 trainees])", lambda: drill_service.settle_overdue(
            user_ids=group))
        timed("settle_overdue()  the sweep, every session", drill_service.settle_overdue)
        timed("unanswered_practice(25 trainees, all time)", lambda: report_queries.unanswered_practice(
            group, None))
        explain = "EXPLAIN QUERY PLAN " if db.engine.dialect.name == "sqlite" else "EXPLAIN "
        for label, users in (("25 trainees", group), ("the sweep", None)):
            query = timeouts.overdue_query(users, None, now)
            compiled = query.compile(db.engine, compile_kwargs={"literal_binds": True})
            print(f"plan, {label}:")
            for row in db.session.execute(text(explain + str(compiled))):
                print("  ", row[-1])
    return None


if __name__ == "__main__":
    sys.exit(main())
