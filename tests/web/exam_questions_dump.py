"""Print, as JSON, the questions certification exams deal for seeds 1..200, every drill kind.

Run by ``test_exam_questions_unchanged.py`` twice: on this tree, and on the commit
before practice that adapts (issue 30) with ``PYTHONPATH`` pointing at its checkout,
so each run imports its own ``trainer``. Only what both have is used: the exam service
schedules and starts each exam (``schedule_exam``, ``start_exam``), the drill service
issues its questions (``issue_question``) and records each as timed out (an answer of
None), and ``secrets.randbits`` is made to hand out the seeds 1, 2, 3, ... in turn.

Usage: python exam_questions_dump.py OUT.json
"""
from __future__ import annotations

import json
import secrets
import sys
import tempfile
from itertools import count
from pathlib import Path
from typing import Any

LENGTH = 200


def dump() -> list[dict[str, Any]]:
    from trainer import create_app
    from trainer.engine.drills import DRILLS
    from trainer.extensions import db
    from trainer.models import Group, IssuedQuestion, Membership, Role, User
    from trainer.services import drills as drill_service
    from trainer.services.certification import exams

    folder = Path(tempfile.mkdtemp())
    app = create_app({"TESTING": True, "SECRET_KEY": "dump",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'dump.sqlite3'}",
                      "PASSWORD_HASH_METHOD": "scrypt:1024:8:1", "JOB_RUNNER": "inline",
                      "PDF_PREPARE": False})
    found: list[dict[str, Any]] = []
    with app.app_context():
        db.create_all()
        boss = User(name="Boss", login="boss", role=Role.SUPERVISOR)
        boss.set_password("correct-horse-9")
        db.session.add(boss)
        db.session.flush()
        criteria = [{"kind": kind, "min_accuracy": 90, "window": 10, "max_median_s": None,
                     "exam_length": LENGTH, "exam_time_limit_s": 60} for kind in sorted(DRILLS)]
        group = Group(name="Dump", supervisor_id=boss.id,
                      settings={"certification": {"criteria": criteria}})
        db.session.add(group)
        db.session.flush()
        for kind in sorted(DRILLS):
            trainee = User(name=f"T {kind}", login=f"t-{kind}", role=Role.TRAINEE)
            trainee.set_password("correct-horse-9")
            trainee.membership = Membership(group_id=group.id)
            db.session.add(trainee)
            db.session.commit()
            exam_id = exams.schedule_exam(group.id, trainee.id, kind, boss.id)
            seeds = count(1)
            real = secrets.randbits
            secrets.randbits = lambda bits, seeds=seeds: next(seeds)  # type: ignore[assignment]
            try:
                session_id = exams.start_exam(exam_id, trainee.id)
                for _ in range(LENGTH):
                    view = drill_service.issue_question(trainee.id, session_id)
                    if view is None:
                        break
                    drill_service.answer_question(trainee.id, session_id, view.position, None)
            finally:
                secrets.randbits = real  # type: ignore[assignment]
            rows = db.session.execute(db.select(IssuedQuestion).filter_by(
                session_id=session_id).order_by(IssuedQuestion.position)).scalars()
            found.extend({"kind": kind, "position": r.position, "seed": r.seed,
                          "question": r.question, "rule_id": r.rule_id} for r in rows)
    return found


if __name__ == "__main__":
    Path(sys.argv[1]).write_text(json.dumps(dump(), sort_keys=True), encoding="utf-8")
