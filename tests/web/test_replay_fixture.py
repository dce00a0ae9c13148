"""Every attempt stored before issue 28 replays and re-grades to its stored grade.

``tests/fixtures/replay_before_issue28.sqlite`` was written by the code of the commit
before issue 28 (dcd43b1), through that commit's own app, migrations and services
(``tests/fixtures/make_replay_fixture.py`` says how and what it holds): attempts of every
drill kind of that commit, in practice, timed (answers on time, late, none, and left to
the sweeper), "my mistakes" and exams, under the six preset house ways and a published
custom version, plain, side-bet and custom table rules, both foul policies, and
questions of generator 1 (contexts stored without "generator").

The test opens a copy as an upgrade would (today's app, the project's migrations run
forward), deals each attempt's question again from its stored seed and context, grades
its stored answer again through today's services (``trainer.services.drills``'
``replay_question`` and ``regrade``, the supervisors' replay page's own calls), and
compares with what was stored: the question, right or wrong, the rule and the answer key.
The counts of attempts (per kind and per case) are checked too, so the test cannot pass
on an empty or a different file.
"""
from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import flask_migrate
import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from flask import Flask

from trainer.engine.drills import DRILLS
from trainer.extensions import db
from trainer.models import Attempt, DrillSession
from trainer.services.drills import regrade, replay_question

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "replay_before_issue28.sqlite"
# The last migration of the commit that wrote the fixture.
WRITTEN_AT_REVISION = "0018_job_workers"

# What make_replay_fixture.py recorded: 7 kinds, 81 attempts each.
KINDS_WRITTEN = 7
PER_KIND = 81
# The cases, counted from the stored rows (``_case_counts``).
CASES = {
    "attempts": 567,
    "correct": 301,
    "wrong": 266,
    "mode practice": 294,
    "mode timed": 231,
    "mode exam": 42,
    "dealt mistakes": 84,
    "timed out": 91,
    "timed out, no answer": 77,
    "timed out, answer late": 14,
    "generator 1": 63,
    "side-bet rules 1": 63,
    "no rules digest": 42,
    "custom house way": 126,
    "custom table rules": 63,
    "foul policy house_way": 210,
    "house ways": 7,
    "table rules": 8,
}


def _json(value: Any) -> Any:
    """A value as its stored JSON reads back (tuples as lists, keys as strings)."""
    return json.loads(json.dumps(value))


def _question_json(kind: str, question: Any) -> dict[str, Any]:
    """A replayed question as JSON: typed questions through the kind's own JSON edge."""
    if isinstance(question, dict):
        return _json(question)
    return _json(DRILLS[kind].question_json(question))


def _key_json(kind: str, key: Any) -> dict[str, Any]:
    """A grade's answer key as JSON: a typed key through the kind's own JSON edge."""
    if isinstance(key, dict):
        return _json(key)
    return _json(DRILLS[kind].key_json(key))


def _case_counts(rows: list[tuple[Attempt, DrillSession]]) -> Counter[str]:
    counts: Counter[str] = Counter()
    ways, profiles = set(), set()
    for attempt, session in rows:
        context = attempt.question["context"]
        counts["attempts"] += 1
        counts["correct" if attempt.correct else "wrong"] += 1
        counts[f"mode {session.mode}"] += 1
        counts[f"dealt {session.dealt}"] += session.dealt != "balanced"
        if attempt.timed_out:
            counts["timed out"] += 1
            counts["timed out, no answer" if attempt.answer is None else "timed out, answer late"] += 1
        counts["generator 1"] += "generator" not in context
        counts["side-bet rules 1"] += "side_bet_rules" not in context
        counts["no rules digest"] += "house_way_digest" not in context
        counts["custom house way"] += "@" in context["house_way"]
        counts["custom table rules"] += session.profile.startswith("custom-")
        counts["foul policy house_way"] += context.get("foul_policy") == "house_way"
        ways.add(context["house_way"])
        profiles.add(context["profile"])
    counts["house ways"], counts["table rules"] = len(ways), len(profiles)
    return +counts


@pytest.fixture
def before(app_config: dict[str, Any], tmp_path: Path) -> Path:
    """A copy of the fixture, which the app below opens (never the file in the repository)."""
    copy = tmp_path / "before-issue28.sqlite"
    shutil.copyfile(FIXTURE, copy)
    app_config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{copy}"
    return copy


@pytest.fixture
def upgraded(before: Path, empty_app: Flask) -> Flask:
    """Today's app on the copy, migrated forward from the revision the fixture was written at."""
    with empty_app.app_context():
        assert db.session.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one() \
            == WRITTEN_AT_REVISION
        flask_migrate.upgrade()
        head = ScriptDirectory(empty_app.extensions["migrate"].directory).get_current_head()
        assert db.session.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one() == head
    return empty_app


def _rows() -> list[tuple[Attempt, DrillSession]]:
    return [(attempt, session) for attempt, session in db.session.execute(
        sa.select(Attempt, DrillSession).join(DrillSession, Attempt.session_id == DrillSession.id)
        .order_by(Attempt.id)).all()]


def test_the_fixture_holds_every_case_it_was_written_for(upgraded: Flask) -> None:
    with upgraded.app_context():
        rows = _rows()
        per_kind = Counter(attempt.kind for attempt, _ in rows)
        # Every kind the fixture holds is still registered, each with all its attempts.
        assert set(per_kind) <= set(DRILLS), set(per_kind) - set(DRILLS)
        assert len(per_kind) == KINDS_WRITTEN and set(per_kind.values()) == {PER_KIND}, per_kind
        assert _case_counts(rows) == Counter(CASES)


def test_every_attempt_stored_before_replays_and_regrades_to_its_stored_grade(upgraded: Flask) -> None:
    differences: list[str] = []
    regraded: Counter[str] = Counter()
    with upgraded.app_context():
        for attempt, _session in _rows():
            where = f"attempt {attempt.id} ({attempt.kind}, position {attempt.position})"
            stored_question = {k: v for k, v in attempt.question.items() if k != "context"}
            question = _question_json(attempt.kind, replay_question(attempt))
            if question != stored_question:
                differences.append(f"{where}: replayed {question}, stored {stored_question}")
                continue
            grade = regrade(attempt)
            # A timed-out answer counts as wrong, whatever it said (answer_question's rule).
            again = (grade.correct and not attempt.timed_out, grade.rule_id,
                     _key_json(attempt.kind, grade.correct_answer))
            stored = (attempt.correct, attempt.rule_id, _json(attempt.correct_answer))
            if again != stored:
                differences.append(f"{where}: re-graded {again}, stored {stored}")
                continue
            regraded[attempt.kind] += 1
    assert not differences, f"{len(differences)} stored attempts no longer replay or re-grade " \
        "as stored:\n" + "\n".join(differences[:40])
    assert sum(regraded.values()) == CASES["attempts"] and set(regraded.values()) == {PER_KIND}
