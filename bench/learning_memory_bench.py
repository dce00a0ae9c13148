"""Benchmark: a worker's resident memory after 1,000 adaptive (targeted) answers (issue 30).

Usage: .venv/bin/python bench/learning_memory_bench.py [--answers N] [--kind KIND]
       [--database URL]

One process plays the web worker: the app (``create_app``) on a throwaway SQLite file
(or ``--database``), one trainee signed in through the form, and targeted practice
sessions of 20 questions played through the drill pages' JSON requests with the
Flask test client (the same views, services and engine a gunicorn worker runs), each
answer right four times in five. The answers are worked out by the engine in the same
process, as the app does when it grades. It prints one JSON line: the resident set size
now and at its peak, before and after, the answers, the time they took and the load
average. The standing limit is 150 MB a worker (docs/learning.md, "Memory").
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import tempfile
import time
from pathlib import Path
from typing import Any


def _rss_mb() -> float:
    """The resident set size now (VmRSS), in MB."""
    for line in Path("/proc/self/status").read_text(encoding="utf-8").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _token(client: Any, path: str) -> str:
    found = re.search(r'name="csrf-token" content="([^"]+)"', client.get(path).get_data(as_text=True))
    if found is None:
        raise SystemExit(f"No CSRF token on {path}.")
    return found.group(1)


def _answer(row: Any, right: bool, rng: random.Random) -> Any:
    """A well-formed answer to an issued question, right or wrong, worked out by the engine."""
    from trainer.engine.drills import get_drill
    from trainer.services import drills as drill_service

    drill = get_drill(row.question["kind"])
    context = drill_service.context_from_json(row.context)
    question = drill.read_question(row.question)
    if not right:
        return drill.answer_json(drill.wrong_answer(question, context, rng))
    for answer in (drill.answer_choices(question, context) or {}).values():
        if drill.grade(question, answer, context).correct:
            return drill.answer_json(answer)
    key = drill.key_json(drill.answer_key(question, context).correct_answer)
    return {"front": key["front"]} if "front" in key else key


def run(answers: int, kind: str, database: str) -> dict[str, Any]:
    """Play ``answers`` targeted answers through the drill pages; return the figures."""
    from trainer import create_app
    from trainer.extensions import db
    from trainer.models import Group, IssuedQuestion, Membership, Role, User
    from trainer.services import learning

    app = create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": database,
                      "PASSWORD_HASH_METHOD": "scrypt:1024:8:1", "JOB_RUNNER": "inline",
                      "PDF_PREPARE": False})
    with app.app_context():
        db.create_all()
        boss = User(name="Boss", login="bench-boss", role=Role.SUPERVISOR)
        boss.set_password("bench-boss-password")
        db.session.add(boss)
        db.session.flush()
        group = Group(name="Bench", supervisor_id=boss.id, settings={})
        db.session.add(group)
        db.session.flush()
        trainee = User(name="Trainee", login="bench-trainee", role=Role.TRAINEE)
        trainee.set_password("bench-trainee-password")
        trainee.membership = Membership(group_id=group.id)
        db.session.add(trainee)
        db.session.commit()
        user_id = trainee.id
    client = app.test_client()
    client.post("/auth/login", data={"login": "bench-trainee",
                                     "password": "bench-trainee-password",
                                     "csrf_token": _token(client, "/auth/login")})
    token = _token(client, "/drills/")
    headers = {"X-CSRFToken": token}
    rng = random.Random(30)
    before_rss, before_peak = _rss_mb(), _peak_mb()
    began = time.perf_counter()
    done = 0
    while done < answers:
        with app.app_context():
            session_id = learning.start_targeted(user_id, kind, length=20)
        while done < answers:
            shown = client.post(f"/drills/sessions/{session_id}/question", json={},
                                headers=headers).get_json()
            if shown.get("finished"):
                break
            position = shown["position"]
            with app.app_context():
                row = db.session.execute(db.select(IssuedQuestion).filter_by(
                    session_id=session_id, position=position)).scalar_one()
                answer = _answer(row, rng.random() < 0.8, rng)
            result = client.post(f"/drills/sessions/{session_id}/answer",
                                 json={"position": position, "answer": answer},
                                 headers=headers)
            if result.status_code != 200:
                raise SystemExit(f"Answer refused: {result.get_data(as_text=True)}")
            done += 1
    seconds = time.perf_counter() - began
    return {"answers": done, "kind": kind, "seconds": round(seconds, 1),
            "ms_per_question_and_answer": round(1000 * seconds / max(done, 1), 2),
            "rss_before_mb": round(before_rss, 1), "peak_before_mb": round(before_peak, 1),
            "rss_after_mb": round(_rss_mb(), 1), "peak_after_mb": round(_peak_mb(), 1)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=1000)
    parser.add_argument("--kind", default="house-way")
    parser.add_argument("--database", default=None)
    args = parser.parse_args(argv)
    load_start = [round(x, 2) for x in os.getloadavg()]
    start_rss = _rss_mb()
    with tempfile.TemporaryDirectory() as folder:
        database = args.database or f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        figures = run(args.answers, args.kind, database)
    figures.update({"rss_at_start_mb": round(start_rss, 1), "limit_mb": 150,
                    "within_limit": figures["peak_after_mb"] < 150,
                    "load_average_start": load_start,
                    "load_average_end": [round(x, 2) for x in os.getloadavg()]})
    print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
