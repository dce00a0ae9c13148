"""Issue 24, part 7: an exam keeps the table rules it was scheduled with, not only their name.

The finding: an exam kept its profile's name but not its rules, so a manager's edit of
the custom profile's max bet after scheduling changed a running exam. The exam now
keeps the profile's data (``CertificationExam.table_rules``), as it keeps its house
way's rules digest; its session deals and grades by them, and the exam page (the
trainee's, before starting and after) and the supervisor's trainee page say them.
"""
from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.drills import DrillContext
from trainer.engine.profiles import TableProfile
from trainer.extensions import db
from trainer.models import Attempt, CertificationExam, DrillSession, Group, Role
from trainer.services import drills as drill_service
from trainer.services import profiles as profile_service
from web.helpers import login, post_form
from web.test_drills import fetch_question, issued, right_answer, send_answer

TITLE = "Riverside high limit"
NAME = "custom-riverside-high-limit"
FORM = {"title": TITLE, "wheel": "second_highest", "commission": "rate", "rate": "5",
        "rounding": "cent", "fee": "", "foul_policy": "lose", "min_bet": "50", "max_bet": "100"}
# The edits after scheduling: a low-limit table, then another max bet while the exam runs.
LOW_LIMITS = {**FORM, "min_bet": "2", "max_bet": "10"}
OTHER_MAX = {**FORM, "min_bet": "2", "max_bet": "20"}
OLD_WORDS = "5% commission on wins, rounded to the cent; bets $50.00 to $100.00"


@pytest.fixture
def manager(make_user: Any) -> Any:
    return make_user(Role.MANAGER, login="floor-boss", name="Pat Floor")


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", page)))


def _rules_on_exam_page(page: str) -> str:
    match = re.search(r'<dd id="exam-table-rules">(.*?)</dd>', page, re.S)
    assert match, "the exam page does not say its table rules"
    return _text(match.group(1)).strip()


def _rules_on_trainee_page(page: str, exam_id: int) -> str:
    match = re.search(rf'<span class="muted exam-table-rules" data-exam="{exam_id}">(.*?)</span>',
                      page, re.S)
    assert match, "the supervisor's trainee page does not say the exam's table rules"
    return _text(match.group(1)).strip()


def _edit(client: FlaskClient, form: dict[str, str]) -> None:
    response = post_form(client, f"/manager/profiles/{NAME}/edit", form)
    assert response.status_code == 302, response.get_data(as_text=True)


def test_an_exams_rules_are_unchanged_by_a_later_profile_edit(
        app: Flask, manager: Any, supervisor: Any, trainee: Any, group: int) -> None:
    boss, staff, dealer = app.test_client(), app.test_client(), app.test_client()
    login(boss, manager)
    login(staff, supervisor)
    login(dealer, trainee)
    assert post_form(boss, "/manager/profiles/new", FORM).status_code == 302
    assert post_form(boss, f"/manager/profiles/{NAME}/offer", {"offer": "1"}).status_code == 302
    with app.app_context():
        old_rules = profile_service.table_profile(NAME)
        assert (old_rules.min_bet_cents, old_rules.max_bet_cents) == (5_000, 10_000)
        row = db.session.get(Group, group)
        row.profile = NAME
        row.settings = {"certification": {"criteria": [
            {"kind": "settlement", "min_accuracy": 90, "window": 3, "max_median_s": None,
             "exam_length": 2, "exam_time_limit_s": 120}]}}
        db.session.commit()
    scheduled = post_form(staff, f"/supervisor/trainees/{trainee.id}/exams", {"kind": "settlement"})
    assert scheduled.status_code == 302
    with app.app_context():
        exam_id = db.session.execute(db.select(CertificationExam.id)).scalar_one()

    # The manager lowers the table's limits after the exam was scheduled.
    _edit(boss, LOW_LIMITS)
    with app.app_context():
        assert profile_service.table_profile(NAME).max_bet_cents == 1_000
    before = dealer.get(f"/exams/{exam_id}").get_data(as_text=True)
    assert "Start the exam" in before
    supervisor_before = staff.get(f"/supervisor/trainees/{trainee.id}").get_data(as_text=True)

    assert post_form(dealer, f"/exams/{exam_id}/start").status_code == 302
    with app.app_context():
        session_id = db.session.get(CertificationExam, exam_id).session_id
    for position in (1, 2):
        if position == 2:
            _edit(boss, OTHER_MAX)  # and again while the exam runs
        assert fetch_question(dealer, session_id).status_code == 200
        question, context = issued(app, session_id, position)
        # Dealt under the kept rules: the old limits, every bet from $50 to $100.
        assert context.table.max_bet_cents == 10_000 and context.table.min_bet_cents == 5_000
        assert all(5_000 <= seat["bet_cents"] <= 10_000 for seat in question["positions"])
        reply = send_answer(dealer, session_id, position, right_answer(app, session_id, position))
        assert reply.status_code == 200
    # The exam page before the start, and the supervisor's page, said the kept rules.
    assert _rules_on_exam_page(before) == f"{TITLE}: {OLD_WORDS}"
    assert _rules_on_trainee_page(supervisor_before, exam_id) == f"{TITLE}: {OLD_WORDS}"
    with app.app_context():
        # Graded by the kept rules: each recorded key is the old profile's.
        for attempt in db.session.execute(
                db.select(Attempt).filter_by(session_id=session_id)).scalars():
            stored = {k: v for k, v in attempt.question.items() if k != "context"}
            old = DrillContext(profile=NAME, custom=TableProfile.from_dict(old_rules.as_dict()))
            assert drill_service.answer_key(stored, old) == attempt.correct_answer
            assert attempt.correct
        exam = db.session.get(CertificationExam, exam_id)
        assert exam.table_rules["max_bet_cents"] == 10_000
        assert db.session.get(DrillSession, session_id).profile == NAME

    after = dealer.get(f"/exams/{exam_id}").get_data(as_text=True)
    assert "Passed" in after
    assert _rules_on_exam_page(after) == f"{TITLE}: {OLD_WORDS}"
    supervisor_page = staff.get(f"/supervisor/trainees/{trainee.id}").get_data(as_text=True)
    assert _rules_on_trainee_page(supervisor_page, exam_id) == f"{TITLE}: {OLD_WORDS}"
    assert "$10.00" not in _rules_on_trainee_page(supervisor_page, exam_id)


def test_a_new_exam_keeps_the_edited_rules(
        app: Flask, manager: Any, supervisor: Any, trainee: Any, group: int) -> None:
    boss, staff = app.test_client(), app.test_client()
    login(boss, manager)
    login(staff, supervisor)
    post_form(boss, "/manager/profiles/new", FORM)
    post_form(boss, f"/manager/profiles/{NAME}/offer", {"offer": "1"})
    _edit(boss, LOW_LIMITS)
    with app.app_context():
        row = db.session.get(Group, group)
        row.profile = NAME
        db.session.commit()
    post_form(staff, f"/supervisor/trainees/{trainee.id}/exams", {"kind": "house-way"})
    with app.app_context():
        exam = db.session.execute(db.select(CertificationExam)).scalar_one()
        assert exam.table_rules == profile_service.table_profile(NAME).as_dict()
        assert (exam.table_rules["min_bet_cents"], exam.table_rules["max_bet_cents"]) == (200, 1_000)
