"""Issue 27, part 4: a fresh install shows a living class (``trainer seed-demo``).

The finding: a fresh ``./run.sh`` showed empty dashboards (about 400 answers were
needed before the supervisor's pages said anything) and had no admin account. The
demo is seeded once for this module (the house-way checks take a while); every
figure expected here is worked out from the stored rows or the engine, never taken
from the seeding code.
"""
from __future__ import annotations

import html
import os
import re
import statistics
from collections.abc import Iterator
from datetime import timedelta
from itertools import pairwise
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from trainer import create_app
from trainer.cli import app_cli
from trainer.engine.house_way import load
from trainer.extensions import db
from trainer.models import (
    Attempt,
    CertificationExam,
    DrillSession,
    Group,
    HouseWayVersion,
    IssuedQuestion,
    Job,
    User,
    utcnow,
)
from trainer.services.drills import regrade, replay_question
from web.helpers import login

README = Path(__file__).resolve().parents[2] / "README.md"
TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")
ADMIN_LINE = re.compile(r"^\s*admin\s+demo-admin\s+(\S+)\s*$", re.MULTILINE)
TWO_PAIR_AND_TRIPS = ("two-pair.", "trips.", "trips-two-pair.", "two-trips.")


def _empty(url: str) -> None:
    engine = sa.create_engine(url)
    try:
        existing = sa.MetaData()
        existing.reflect(engine)
        existing.drop_all(engine)
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SimpleNamespace]:
    """An app on an empty database, then ``trainer seed-demo`` once (as ./run.sh does)."""
    tmp = tmp_path_factory.mktemp("demo")
    url = TEST_DATABASE_URL or f"sqlite:///{tmp / 'demo.sqlite3'}"
    if TEST_DATABASE_URL:
        _empty(TEST_DATABASE_URL)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TRAINER_INSTANCE_PATH", str(tmp / "instance"))
        for name in ("DATABASE_URL", "SECRET_KEY"):
            patch.delenv(name, raising=False)
        app = create_app({"TESTING": True, "SECRET_KEY": "test-secret-key",
                          "SQLALCHEMY_DATABASE_URI": url,
                          "PASSWORD_HASH_METHOD": "scrypt:1024:8:1",
                          "JOB_RUNNER": "inline", "PDF_PREPARE": False})
        with app.app_context():
            db.create_all()
        first = app.test_cli_runner().invoke(app_cli(), ["seed-demo"])
        assert first.exit_code == 0, first.output
        yield SimpleNamespace(app=app, output=first.output)
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def _user(login_name: str) -> User:
    return db.session.execute(db.select(User).filter_by(login=login_name)).scalar_one()


def _signed_in(app: Flask, login_name: str, password: str) -> Any:
    client = app.test_client()
    response = login(client, SimpleNamespace(login=login_name, password=password))
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    return client


def _text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"(?s)<[^>]+>", " ", page)).split())


def _counts() -> dict[str, int]:
    return {model.__name__: db.session.execute(
        sa.select(sa.func.count()).select_from(model)).scalar_one()
        for model in (User, Group, DrillSession, IssuedQuestion, Attempt, CertificationExam,
                      Job, HouseWayVersion)}


def test_a_fresh_seed_shows_the_class_on_the_supervisors_overview_without_an_answer_by_hand(
        seeded: SimpleNamespace) -> None:
    app = seeded.app
    with app.app_context():
        group = db.session.execute(db.select(Group)).scalar_one()
        trainees = {u.id: u.name for u in db.session.execute(
            db.select(User).filter_by(role="trainee")).scalars()}
    client = _signed_in(app, "demo-supervisor", "demo-supervisor-pw")
    page = client.get(f"/supervisor/groups/{group.id}").get_data(as_text=True)
    strip = re.search(r'(?s)<section class="sv-panel summary-strip"[^>]*>(.*?)</section>', page)
    assert strip, page[:2000]
    glance = _text(strip.group(1))
    assert glance.startswith("1 of 3 trainees ready to deal"), glance
    assert "Ready to deal 1" in glance and "Exam scheduled 1" in glance, glance

    with app.app_context():
        # What the overview must say, from the rows: every house-way answer of all time.
        expected = {}
        for trainee_id in trainees:
            rows = db.session.execute(db.select(Attempt.correct).filter_by(
                user_id=trainee_id, kind="house-way")).scalars().all()
            assert rows, "no answers"
            expected[trainee_id] = (len(rows), round(100 * sum(rows) / len(rows)))

    one_drill = client.get(f"/supervisor/groups/{group.id}?period=all&drill=house-way")
    text = one_drill.get_data(as_text=True)
    for trainee_id, (answers, accuracy) in expected.items():
        row = text.split(f'<tr data-trainee="{trainee_id}">', 1)[1].split("</tr>", 1)[0]
        cells = _text(row)
        assert trainees[trainee_id] in cells
        assert re.search(rf"\b{answers}\b {accuracy}%", cells), (cells, answers, accuracy)
        assert answers >= 150, "weeks of answers, not a handful"


def test_every_seeded_attempt_regrades_to_its_stored_grade_and_replays_its_question(
        seeded: SimpleNamespace) -> None:
    with seeded.app.app_context():
        attempts = db.session.execute(db.select(Attempt)).scalars().all()
        issued = {(q.session_id, q.position): q for q in db.session.execute(
            db.select(IssuedQuestion)).scalars()}
        assert len(attempts) >= 1000
        for attempt in attempts:
            grade = regrade(attempt)
            assert grade.correct_answer == attempt.correct_answer, attempt.id
            assert grade.rule_id == attempt.rule_id, attempt.id
            assert (grade.correct and not attempt.timed_out) == attempt.correct, attempt.id
            question = issued[(attempt.session_id, attempt.position)]
            assert replay_question(attempt) == question.question, attempt.id
            assert question.seed == attempt.seed and question.issued_at == attempt.issued_at
        # Both right and wrong answers, a few timed out.
        assert {a.correct for a in attempts} == {True, False}
        assert 0 < sum(a.timed_out for a in attempts) < len(attempts) // 20


def test_the_answers_spread_over_four_weeks_in_utc_at_plausible_speeds(
        seeded: SimpleNamespace) -> None:
    with seeded.app.app_context():
        now = utcnow()
        rows = db.session.execute(db.select(
            Attempt.issued_at, Attempt.answered_at, Attempt.elapsed_ms, Attempt.timed_out,
            DrillSession.time_limit_ms, DrillSession.started_at, DrillSession.finished_at,
        ).join(DrillSession, DrillSession.id == Attempt.session_id)).all()
        assert min(r.answered_at for r in rows) > now - timedelta(days=29)
        assert max(r.answered_at for r in rows) < now
        assert max(r.answered_at for r in rows) > now - timedelta(days=7), "the default week"
        assert len({r.answered_at.date() for r in rows}) >= 15
        for r in rows:
            assert r.started_at <= r.issued_at < r.answered_at <= r.finished_at
            assert r.answered_at - r.issued_at == timedelta(milliseconds=r.elapsed_ms)
            if r.time_limit_ms is not None and not r.timed_out:
                assert r.elapsed_ms <= r.time_limit_ms
            if r.timed_out:
                assert r.elapsed_ms > r.time_limit_ms
        answered = [r.elapsed_ms for r in rows if not r.timed_out]
        assert min(answered) >= 1000 and 3000 <= statistics.median(answered) <= 20_000
        # A trainee sits one session at a time.
        sessions = db.session.execute(db.select(
            DrillSession.user_id, DrillSession.started_at, DrillSession.finished_at)
            .order_by(DrillSession.user_id, DrillSession.started_at)).all()
        for before, after in pairwise(sessions):
            if before.user_id == after.user_id:
                assert before.finished_at < after.started_at, (before, after)


def test_one_trainee_is_ready_one_struggles_with_two_pair_and_trips_and_exams_are_kept(
        seeded: SimpleNamespace) -> None:
    with seeded.app.app_context():
        ready, struggling, steady = (_user(f"demo-trainee{i}") for i in (1, 2, 3))
        exams = db.session.execute(db.select(CertificationExam)).scalars().all()
        finished = {(e.trainee_id, e.kind): e.passed for e in exams if e.status == "finished"}
        assert finished == {(ready.id, "house-way"): True, (ready.id, "settlement"): True,
                            (struggling.id, "house-way"): False}
        assert [(e.trainee_id, e.kind) for e in exams if e.status == "scheduled"] == [
            (steady.id, "house-way")]
        # The struggling trainee misses the two-pair and trips rules far more than the rest.
        rows = db.session.execute(db.select(Attempt.rule_id, Attempt.correct).filter_by(
            user_id=struggling.id, kind="house-way", timed_out=False)).all()
        weak = [r.correct for r in rows if r.rule_id.startswith(TWO_PAIR_AND_TRIPS)]
        rest = [r.correct for r in rows if not r.rule_id.startswith(TWO_PAIR_AND_TRIPS)]
        assert len(weak) >= 30
        assert 1 - sum(weak) / len(weak) > 3 * (1 - sum(rest) / len(rest))


def test_the_demo_way_is_a_changed_copy_with_two_versions_each_checked_by_a_job(
        seeded: SimpleNamespace) -> None:
    with seeded.app.app_context():
        versions = db.session.execute(db.select(HouseWayVersion).order_by(
            HouseWayVersion.number)).scalars().all()
        assert [v.ref for v in versions] == ["riverside@1", "riverside@2"]
        manager = _user("demo-manager")
        assert {v.published_by_id for v in versions} == {manager.id}
        base = load("trump-plaza")
        digests = [v.rules_digest for v in versions]
        assert len({base.rules_digest, *digests}) == 3, "each version changes the rules"
        for version in versions:
            job = db.session.execute(db.select(Job).filter_by(
                kind="check", key=f"check:{version.rules_digest}")).scalar_one()
            assert job.status == "done" and job.result["complete"] is True
            assert job.result["fouled_hands"] == 0 and job.result["undecided_hands"] == 0
            assert version.check is not None and version.check["rules_digest"] == version.rules_digest
        # Version 1 sets a Medium + Medium two pair with an ace apart, as Trump Plaza does not.
        hand = ["9h", "9d", "8c", "8s", "Ah", "4c", "2d"]
        from trainer.services import house_ways

        assert sorted(base.set(hand).front) != sorted(house_ways.get_way("riverside@1").set(hand).front)


def test_the_admin_password_is_generated_printed_and_never_published(
        seeded: SimpleNamespace) -> None:
    from trainer.models.passwords import DEMO_PASSWORDS

    match = ADMIN_LINE.search(seeded.output)
    assert match, seeded.output
    password = match.group(1)
    assert password not in DEMO_PASSWORDS and password not in README.read_text(encoding="utf-8")
    assert len(password) >= 16
    with seeded.app.app_context():
        admin = _user("demo-admin")
        assert admin.role == "admin" and password not in admin.password_hash
    client = _signed_in(seeded.app, "demo-admin", password)
    assert client.get("/admin/audit").status_code == 200


def test_a_second_seed_demo_adds_nothing(seeded: SimpleNamespace) -> None:
    with seeded.app.app_context():
        before = _counts()
    again = seeded.app.test_cli_runner().invoke(app_cli(), ["seed-demo"])
    assert again.exit_code == 0 and "already present" in again.output
    assert not ADMIN_LINE.search(again.output), "the admin's password is printed only once"
    with seeded.app.app_context():
        assert _counts() == before


def test_seed_demo_into_a_database_with_other_data_adds_no_class(app: Flask, runner: Any,
                                                                 make_user: Any) -> None:
    # Last in this module: with TEST_DATABASE_URL, the ``app`` fixture empties the database.
    make_user("supervisor", login="floor.boss")
    result = runner.invoke(args=["seed-demo"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        counts = _counts()
    assert counts["Attempt"] == counts["DrillSession"] == counts["CertificationExam"] == 0
    assert counts["Job"] == counts["HouseWayVersion"] == 0
    assert counts["User"] == 7  # the floor boss, the five demo accounts and the admin
