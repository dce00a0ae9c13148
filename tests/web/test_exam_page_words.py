"""The exam page says what it counts and each thing once (QA walk after issue 27).

Findings: a 20-question settlement exam said "100% (79 of 79 right)" without saying the 79
are positions; its "House way" row repeated the table rules of the row below it.
"""
from __future__ import annotations

import html as html_lib
import re
from typing import Any

from flask import Flask

from trainer.extensions import db
from trainer.models import CertificationExam, Group
from web.helpers import login, post_form
from web.test_drills import fetch_question, issued, right_answer, send_answer


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", page))).strip()


def _row(page: str, part: str) -> str:
    match = re.search(rf'<tr data-part="{part}">(.*?)</tr>', page, re.S)
    assert match, f"no {part} row"
    return _text(match.group(1))


def _exam(app: Flask, staff: Any, dealer: Any, trainee: Any, group: int, kind: str) -> tuple[int, str]:
    with app.app_context():
        row = db.session.get(Group, group)
        row.house_way = "trump-plaza"
        row.settings = {"certification": {"criteria": [
            {"kind": kind, "min_accuracy": 90, "window": 3, "max_median_s": None,
             "exam_length": 2, "exam_time_limit_s": 120}]}}
        db.session.commit()
    assert post_form(staff, f"/supervisor/trainees/{trainee.id}/exams", {"kind": kind}).status_code == 302
    with app.app_context():
        exam_id = db.session.execute(db.select(CertificationExam.id)).scalar_one()
    before = dealer.get(f"/exams/{exam_id}").get_data(as_text=True)
    assert post_form(dealer, f"/exams/{exam_id}/start").status_code == 302
    with app.app_context():
        session_id = db.session.get(CertificationExam, exam_id).session_id
    for position in (1, 2):
        assert fetch_question(dealer, session_id).status_code == 200
        issued(app, session_id, position)
        reply = send_answer(dealer, session_id, position, right_answer(app, session_id, position))
        assert reply.status_code == 200
    return exam_id, before


def test_a_settlement_exams_accuracy_says_it_counts_positions(
        app: Flask, supervisor: Any, trainee: Any, group: int) -> None:
    staff, dealer = app.test_client(), app.test_client()
    login(staff, supervisor)
    login(dealer, trainee)
    exam_id, _ = _exam(app, staff, dealer, trainee, group, "settlement")
    after = dealer.get(f"/exams/{exam_id}").get_data(as_text=True)
    with app.app_context():
        exam = db.session.get(CertificationExam, exam_id)
    accuracy = _row(after, "accuracy")
    # Two questions, each settling several positions: the count is of positions, and says so.
    found = re.search(r"\((\d+) of (\d+) positions right\)", accuracy)
    assert found, accuracy
    assert int(found.group(2)) > exam.length and found.group(1) == found.group(2)


def test_a_house_way_exams_accuracy_counts_questions_and_the_house_way_row_is_the_way_alone(
        app: Flask, supervisor: Any, trainee: Any, group: int) -> None:
    staff, dealer = app.test_client(), app.test_client()
    login(staff, supervisor)
    login(dealer, trainee)
    exam_id, before = _exam(app, staff, dealer, trainee, group, "house-way")
    way = re.search(r'<dd id="exam-house-way">(.*?)</dd>', before, re.S)
    rules = re.search(r'<dd id="exam-table-rules">(.*?)</dd>', before, re.S)
    assert way and rules
    assert _text(way.group(1)) == "Trump Plaza (Atlantic City)"
    assert "Nevada" not in _text(way.group(1)) and "Nevada" in _text(rules.group(1))
    after = dealer.get(f"/exams/{exam_id}").get_data(as_text=True)
    assert "(2 of 2 questions right)" in _row(after, "accuracy")
