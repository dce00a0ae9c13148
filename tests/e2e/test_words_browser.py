"""Issue 16 item 2 in a browser: the settings history, the audit log, the exam results and
the printable report show words: no JSON and no raw rule id in the visible text."""
from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask

from e2e.conftest import shot, sign_in
from trainer.cli.accounts import DEMO_SUPERVISOR, DEMO_TRAINEE_PASSWORD, DEMO_TRAINEES
from trainer.extensions import db
from trainer.models import (
    Attempt,
    AuditLog,
    CertificationExam,
    DrillSession,
    Group,
    Role,
    User,
    utcnow,
)
from trainer.services.certification import exams as certification
from trainer.services.group_settings import GroupSettings

pytestmark = pytest.mark.e2e

JSON = re.compile(r'\{\s*"|"[A-Za-z_][\w-]*"\s*:')
RULE_ID = re.compile(r"\b[a-z]+(?:\.[a-z0-9-]+)+\b")
RULE = "two-pair.split.aces"


def _seed(app: Flask, admin_id: int) -> dict[str, int]:
    """Give the demo trainee wrong answers, a finished exam, and the log some entries."""
    with app.app_context():
        trainee = db.session.execute(
            db.select(User).filter_by(login=DEMO_TRAINEES[0][0])).scalar_one()
        supervisor = db.session.execute(
            db.select(User).filter_by(login=DEMO_SUPERVISOR[0])).scalar_one()
        group = db.session.execute(db.select(Group)).scalars().first()
        session = DrillSession(user_id=trainee.id, group_id=group.id, kind="house-way",
                               mode="timed", length=2, time_limit_ms=10_000,
                               house_way="trump-plaza", profile="nevada")
        db.session.add(session)
        for position in (1, 2):
            db.session.add(Attempt(
                session=session, position=position, user_id=trainee.id, kind="house-way",
                seed=position, question={"cards": ["As", "Ad", "7c", "7d", "2h", "3s", "JK"]},
                answer={"front": ["2h", "3s"]},
                correct_answer={"back": ["As", "Ad", "2h", "3s", "JK"], "front": ["7c", "7d"]},
                correct=False, timed_out=False, rule_id=RULE, elapsed_ms=3000,
                issued_at=utcnow() - timedelta(seconds=3), answered_at=utcnow()))
        group.settings = {"certification": {"criteria": [
            {"kind": "house-way", "min_accuracy": 90, "window": 3, "max_median_s": None,
             "exam_length": 2, "exam_time_limit_s": 30}]}}
        db.session.commit()
        exam_id = certification.schedule_exam(group.id, trainee.id, "house-way", supervisor.id)
        certification.start_exam(exam_id, trainee.id)
        exam = db.session.get(CertificationExam, exam_id)
        exam.started_at = exam.started_at - timedelta(days=1)
        db.session.commit()
        certification.record_results([trainee.id])
        # A settings change through the service, and entries of other shapes in the log.
        old = GroupSettings.of(group)
        group.house_way = "foxwoods"
        db.session.add(AuditLog(actor_id=supervisor.id, action="group.settings",
                                target_type="group", target_id=group.id,
                                old={"house_way": "trump-plaza", "settings": old.to_dict()},
                                new={"house_way": "foxwoods", "settings": {
                                    "drills": {"house-way": {"length": 7}}}}))
        db.session.add(AuditLog(actor_id=admin_id, action="installation.settings",
                                target_type="installation", target_id=0,
                                old={"time_zone": None}, new={"time_zone": "Asia/Macau"}))
        db.session.add(AuditLog(actor_id=admin_id, action="future.thing", target_type="x",
                                target_id=1, old=None, new={"deep": {"a": [1, {"b": None}]}}))
        db.session.commit()
        return {"group": group.id, "trainee": trainee.id, "exam": exam_id}


def _check_words(page: Any, name: str) -> str:
    text = page.inner_text("body")
    shot(page, f"words-{name}")
    assert not JSON.search(text), f"{name}: JSON in the page: {JSON.search(text)}"
    ids = RULE_ID.findall(text)
    assert not ids, f"{name}: raw ids in the visible text: {ids}"
    return text


@pytest.fixture
def context_options() -> dict[str, Any]:
    """A desktop window."""
    return {"viewport": {"width": 1366, "height": 768}}


def test_history_audit_exam_results_and_report_are_words(
        app: Flask, live_server: str, page: Any, make_user: Any) -> None:
    admin = make_user(Role.ADMIN, login="root")
    ids = _seed(app, admin.id)

    sign_in(page, live_server, DEMO_SUPERVISOR[0], DEMO_SUPERVISOR[2], home="h1")
    page.goto(f"{live_server}/supervisor/groups/{ids['group']}/edit")
    text = _check_words(page, "settings-history")
    assert "Foxwoods (Connecticut)" in text
    page.goto(f"{live_server}/supervisor/trainees/{ids['trainee']}?period=all")
    text = _check_words(page, "trainee-exam-results")
    assert page.locator(f"[data-rule='{RULE}']").count() > 0, "the rule id is kept for scripts"
    assert page.locator(f"[title='{RULE}']").count() == 0, "no rule id as a tooltip (issue 26)"
    page.goto(f"{live_server}/supervisor/trainees/{ids['trainee']}/report?period=all")
    text = _check_words(page, "printable-report")
    assert page.locator("#print-report").is_visible(), "the Print button shows with scripts on"
    page.click("form.logout button") if page.locator("form.logout button").count() else None

    context = page.context
    context.clear_cookies()
    sign_in(page, live_server, admin.login, admin.password, home="h1")
    page.goto(f"{live_server}/admin/audit")
    text = _check_words(page, "audit-log")
    assert "Installation settings changed" in text and "Time zone: Asia/Macau" in text

    context.clear_cookies()
    sign_in(page, live_server, DEMO_TRAINEES[0][0], DEMO_TRAINEE_PASSWORD)
    page.goto(f"{live_server}/exams/{ids['exam']}")
    text = _check_words(page, "exam-result")
    assert "Trump Plaza (Atlantic City)" in text
