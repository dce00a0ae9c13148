"""Shown means counted: a clocked question left unanswered past its limit is a timed-out attempt.

Whatever the trainee does instead (asks for the next question, leaves the page,
never comes back), the question is recorded once as timed out and wrong, the next
time the session, the trainee's pages or a supervisor's pages are read, or by the
``trainer sweep-timeouts`` command. Practice questions left unanswered are only
counted beside the figures. The clock is moved by setting ``issued_at`` back.
"""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.extensions import db
from trainer.models import Attempt, CertificationExam, DrillSession, Group, IssuedQuestion
from trainer.services import drills as drill_service
from trainer.services.certification import exams as certification
from trainer.services.drills import timeouts
from trainer.services.reports import pages as dashboard
from trainer.services.reports import sql as report_queries
from web.helpers import csrf_token, login, post_form, run_together
from web.test_drills import fetch_question, issued, right_answer, send_answer, start

# --- helpers -------------------------------------------------------------------


def _overdue(app: Flask, session_id: int, position: int = 1, extra_s: float = 1.0) -> None:
    """Move a question's clock back past its session's limit plus the grace."""
    with app.app_context():
        session = db.session.get(DrillSession, session_id)
        row = db.session.execute(
            db.select(IssuedQuestion).filter_by(session_id=session_id, position=position)
        ).scalar_one()
        assert row.issued_at is not None, "the question's clock has not started"
        row.issued_at -= timedelta(
            milliseconds=session.time_limit_ms + drill_service.GRACE_MS + extra_s * 1000)
        db.session.commit()


def _attempts(app: Flask, session_id: int) -> list[dict[str, Any]]:
    with app.app_context():
        rows = db.session.execute(
            db.select(Attempt).filter_by(session_id=session_id).order_by(Attempt.position)
        ).scalars()
        return [
            {"position": a.position, "correct": a.correct, "timed_out": a.timed_out,
             "answer": a.answer, "correct_answer": a.correct_answer, "rule_id": a.rule_id,
             "issued_at": a.issued_at, "answered_at": a.answered_at, "elapsed_ms": a.elapsed_ms}
            for a in rows
        ]


def _abandon_a_timed_question(app: Flask, client: FlaskClient, kind: str = "house-way") -> int:
    """Start a timed drill, show its first question, and let its time run out unanswered."""
    session_id = start(client, kind, "timed")
    assert fetch_question(client, session_id).get_json()["position"] == 1
    _overdue(app, session_id)
    return session_id


def _assert_one_timed_out(app: Flask, session_id: int, position: int = 1) -> None:
    rows = [a for a in _attempts(app, session_id) if a["position"] == position]
    assert len(rows) == 1
    row = rows[0]
    assert row["timed_out"] is True and row["correct"] is False and row["answer"] is None
    question, context = issued(app, session_id, position)
    assert row["correct_answer"] == drill_service.answer_key(question, context)
    with app.app_context():
        session = db.session.get(DrillSession, session_id)
        expected_ms = session.time_limit_ms + drill_service.GRACE_MS
    assert row["elapsed_ms"] == expected_ms
    assert row["answered_at"] - row["issued_at"] == timedelta(milliseconds=expected_ms)


@pytest.fixture
def trainee_client(client: FlaskClient, trainee: Any) -> FlaskClient:
    login(client, trainee)
    return client


@pytest.fixture
def supervisor_client(app: Flask, supervisor: Any) -> FlaskClient:
    other = app.test_client()
    login(other, supervisor)
    return other


# --- the trainee asks for the next question ------------------------------------


def test_asking_for_the_next_question_after_the_limit_records_the_shown_one_as_timed_out(
    app: Flask, trainee_client: FlaskClient
) -> None:
    session_id = _abandon_a_timed_question(app, trainee_client)
    data = fetch_question(trainee_client, session_id).get_json()
    # Not blocked: the next question comes, on a fresh clock.
    assert data["position"] == 2 and data["remaining_ms"] > data["time_limit_ms"] - 5000
    _assert_one_timed_out(app, session_id)
    with app.app_context():
        rule = db.session.execute(
            db.select(IssuedQuestion.rule_id).filter_by(session_id=session_id, position=1)
        ).scalar_one()
    assert _attempts(app, session_id)[0]["rule_id"] == rule
    # Asking again changes nothing.
    assert fetch_question(trainee_client, session_id).get_json()["position"] == 2
    assert len(_attempts(app, session_id)) == 1


def test_a_question_still_within_its_limit_plus_grace_is_not_settled(
    app: Flask, trainee_client: FlaskClient, runner: Any
) -> None:
    session_id = start(trainee_client, "action", "timed")
    fetch_question(trainee_client, session_id)
    _overdue(app, session_id, extra_s=-0.5)  # half a second of grace left
    assert fetch_question(trainee_client, session_id).get_json()["position"] == 1
    assert "Recorded 0" in runner.invoke(args=["sweep-timeouts"]).output
    assert _attempts(app, session_id) == []
    # An answer now is still in time and counts.
    answer = right_answer(app, session_id)
    assert send_answer(trainee_client, session_id, 1, answer).get_json()["correct"] is True


def test_the_last_question_left_unanswered_finishes_the_session_with_it_counted(
    app: Flask, trainee_client: FlaskClient, group: int
) -> None:
    with app.app_context():
        db.session.get(Group, group).settings = {"drills": {"foul-check": {"length": 2}}}
        db.session.commit()
    session_id = start(trainee_client, "foul-check", "timed")
    fetch_question(trainee_client, session_id)
    send_answer(trainee_client, session_id, 1, right_answer(app, session_id))
    assert fetch_question(trainee_client, session_id).get_json()["position"] == 2
    _overdue(app, session_id, position=2)
    assert fetch_question(trainee_client, session_id).get_json()["finished"] is True
    _assert_one_timed_out(app, session_id, position=2)
    summary = trainee_client.get(f"/drills/sessions/{session_id}/summary")
    assert summary.status_code == 200
    with app.app_context():
        result = drill_service.summary(session_id)
        assert (result.answered, result.score, result.finished) == (2, 1, True)


def test_an_answer_sent_after_the_question_was_settled_is_refused_and_not_recorded_twice(
    app: Flask, trainee_client: FlaskClient, supervisor_client: FlaskClient, trainee: Any
) -> None:
    session_id = _abandon_a_timed_question(app, trainee_client)
    assert supervisor_client.get(f"/supervisor/trainees/{trainee.id}").status_code == 200
    late = send_answer(trainee_client, session_id, 1, right_answer(app, session_id))
    assert late.status_code == 409
    _assert_one_timed_out(app, session_id)


# --- reading any page settles --------------------------------------------------


@pytest.mark.parametrize("page", [
    "/supervisor/groups/{group}",
    "/supervisor/trainees/{trainee}",
    "/supervisor/trainees/{trainee}/report",
    "/supervisor/groups/{group}/export/summary.csv",
    "/supervisor/groups/{group}/export/attempts.csv",
])
def test_a_supervisor_page_records_an_abandoned_timed_question_as_a_wrong_answer(
    app: Flask, trainee_client: FlaskClient, supervisor_client: FlaskClient, trainee: Any,
    group: int, page: str,
) -> None:
    session_id = _abandon_a_timed_question(app, trainee_client)
    response = supervisor_client.get(page.format(group=group, trainee=trainee.id))
    assert response.status_code == 200
    _assert_one_timed_out(app, session_id)
    if page.endswith("attempts.csv"):
        assert "Timed out" in response.get_data(as_text=True)
    with app.app_context():
        figures = dashboard.trainee_report(trainee.id, dashboard.Period.parse("all")).kinds
    assert (figures["house-way"].answered, figures["house-way"].right) == (1, 0)


def test_the_supervisors_trainee_page_shows_the_skipped_question_as_timed_out(
    app: Flask, trainee_client: FlaskClient, supervisor_client: FlaskClient, trainee: Any
) -> None:
    _abandon_a_timed_question(app, trainee_client)
    page = supervisor_client.get(f"/supervisor/trainees/{trainee.id}").get_data(as_text=True)
    assert "No answer: timed out" in page


@pytest.mark.parametrize("page", ["/", "/results", "summary"])
def test_the_trainees_own_pages_record_an_abandoned_timed_question(
    app: Flask, trainee_client: FlaskClient, page: str
) -> None:
    session_id = _abandon_a_timed_question(app, trainee_client)
    path = f"/drills/sessions/{session_id}/summary" if page == "summary" else page
    assert trainee_client.get(path).status_code == 200
    _assert_one_timed_out(app, session_id)


def test_the_sweep_command_records_a_question_the_trainee_never_came_back_to(
    app: Flask, trainee_client: FlaskClient, runner: Any
) -> None:
    session_id = _abandon_a_timed_question(app, trainee_client, "settlement")
    result = runner.invoke(args=["sweep-timeouts"])
    assert result.exit_code == 0 and "Recorded 1 " in result.output
    _assert_one_timed_out(app, session_id)
    again = runner.invoke(args=["sweep-timeouts"])
    assert "Recorded 0 " in again.output
    assert len(_attempts(app, session_id)) == 1


def test_settling_for_other_trainees_leaves_this_ones_question_alone(
    app: Flask, trainee_client: FlaskClient, trainee: Any, make_user: Any
) -> None:
    other = make_user(login="someone-else")
    session_id = _abandon_a_timed_question(app, trainee_client)
    with app.app_context():
        assert drill_service.settle_overdue(user_ids=[]) == 0
        assert drill_service.settle_overdue(user_ids=[other.id]) == 0
        assert drill_service.settle_overdue(session_id=session_id + 1) == 0
    assert _attempts(app, session_id) == []
    with app.app_context():
        assert drill_service.settle_overdue(user_ids=[trainee.id]) == 1


# --- exactly once --------------------------------------------------------------


def test_settling_from_many_connections_at_once_records_each_question_once(
    app: Flask, make_user: Any, group: int
) -> None:
    sessions = []
    for i in range(4):
        account = make_user(login=f"racer{i}", group_id=group)
        client = app.test_client()
        login(client, account)
        sessions.append(_abandon_a_timed_question(app, client, "action"))

    def settle() -> int:
        with app.app_context():  # its own database session and connection
            return drill_service.settle_overdue()

    counts = run_together([settle for _ in range(4)])
    assert sum(counts) == len(sessions)
    for session_id in sessions:
        _assert_one_timed_out(app, session_id)


def test_the_trainees_next_and_supervisors_pages_racing_record_the_question_once(
    app: Flask, trainee: Any, supervisor: Any, group: int
) -> None:
    tabs = [app.test_client() for _ in range(2)]
    for tab in tabs:
        login(tab, trainee)
    bosses = [app.test_client() for _ in range(2)]
    for boss in bosses:
        login(boss, supervisor)
    session_id = _abandon_a_timed_question(app, tabs[0])
    tokens = [csrf_token(tab, "/drills/") for tab in tabs]

    def next_question(tab: FlaskClient, token: str) -> Any:
        return lambda: tab.post(f"/drills/sessions/{session_id}/question", json={},
                                headers={"X-CSRFToken": token}).get_json()["position"]

    statuses = run_together([
        *(next_question(tab, token) for tab, token in zip(tabs, tokens, strict=True)),
        lambda: bosses[0].get(f"/supervisor/trainees/{trainee.id}").status_code,
        lambda: bosses[1].get(f"/supervisor/groups/{group}").status_code,
    ])
    assert statuses == [2, 2, 200, 200]
    _assert_one_timed_out(app, session_id)
    assert len(_attempts(app, session_id)) == 1


def test_a_settle_that_loses_the_race_records_nothing(
    app: Flask, trainee_client: FlaskClient
) -> None:
    session_id = _abandon_a_timed_question(app, trainee_client)
    with app.app_context():
        issued_id = db.session.execute(
            db.select(IssuedQuestion.id).filter_by(session_id=session_id, position=1)
        ).scalar_one()
        assert drill_service.settle_overdue(session_id=session_id) == 1
        # Found before the winner committed, inserted after: the unique key refuses it.
        assert timeouts.settle_one(issued_id) is False
    assert len(_attempts(app, session_id)) == 1


# --- exams ---------------------------------------------------------------------


def _exam(app: Flask, group: int, trainee: Any, supervisor: Any, length: int = 2) -> int:
    with app.app_context():
        db.session.get(Group, group).settings = {"certification": {"criteria": [
            {"kind": "house-way", "min_accuracy": 60, "window": 3, "max_median_s": None,
             "exam_length": length, "exam_time_limit_s": 20}]}}
        db.session.commit()
        return certification.schedule_exam(group, trainee.id, "house-way", supervisor.id)


def test_an_exam_question_left_unanswered_is_recorded_as_timed_out_when_the_next_is_asked(
    app: Flask, trainee_client: FlaskClient, trainee: Any, supervisor: Any, group: int
) -> None:
    exam_id = _exam(app, group, trainee, supervisor)
    post_form(trainee_client, f"/exams/{exam_id}/start")
    with app.app_context():
        session_id = db.session.get(CertificationExam, exam_id).session_id
    assert fetch_question(trainee_client, session_id).get_json()["position"] == 1
    _overdue(app, session_id)
    assert fetch_question(trainee_client, session_id).get_json()["position"] == 2
    _assert_one_timed_out(app, session_id)


def test_an_exam_abandoned_on_its_last_question_is_judged_with_it_counted_wrong(
    app: Flask, trainee_client: FlaskClient, runner: Any, trainee: Any, supervisor: Any, group: int
) -> None:
    exam_id = _exam(app, group, trainee, supervisor)
    post_form(trainee_client, f"/exams/{exam_id}/start")
    with app.app_context():
        session_id = db.session.get(CertificationExam, exam_id).session_id
    fetch_question(trainee_client, session_id)
    send_answer(trainee_client, session_id, 1, right_answer(app, session_id))
    assert fetch_question(trainee_client, session_id).get_json()["position"] == 2
    _overdue(app, session_id, position=2)
    assert "Recorded 1 " in runner.invoke(args=["sweep-timeouts"]).output
    _assert_one_timed_out(app, session_id, position=2)
    with app.app_context():
        assert db.session.get(DrillSession, session_id).finished_at is not None
        certification.record_results([trainee.id])
        exam = db.session.get(CertificationExam, exam_id)
        # The timed-out question counts: 1 right of 2 is under the 60% asked for.
        assert (exam.status, exam.counted, exam.right, exam.passed) == ("finished", 2, 1, False)


# --- practice ------------------------------------------------------------------


def test_practice_questions_left_unanswered_are_counted_apart_and_never_in_accuracy(
    app: Flask, trainee_client: FlaskClient, supervisor_client: FlaskClient, trainee: Any,
    group: int, runner: Any,
) -> None:
    session_id = start(trainee_client, "house-way", "practice")
    fetch_question(trainee_client, session_id)
    send_answer(trainee_client, session_id, 1, right_answer(app, session_id))
    fetch_question(trainee_client, session_id)
    with app.app_context():
        row = db.session.execute(
            db.select(IssuedQuestion).filter_by(session_id=session_id, position=2)
        ).scalar_one()
        row.issued_at -= timedelta(hours=2)
        db.session.commit()
    # A session started and never opened has shown nothing.
    start(trainee_client, "action", "practice")
    assert "Recorded 0 " in runner.invoke(args=["sweep-timeouts"]).output

    page = supervisor_client.get(f"/supervisor/trainees/{trainee.id}?period=all")
    text = page.get_data(as_text=True)
    assert 'id="unanswered-practice" data-count="1"' in text
    overview = supervisor_client.get(f"/supervisor/groups/{group}?period=all").get_data(as_text=True)
    assert 'data-unanswered-practice="1"' in overview
    assert len(_attempts(app, session_id)) == 1
    with app.app_context():
        figures = dashboard.trainee_report(trainee.id, dashboard.Period.parse("all")).kinds
        assert (figures["house-way"].answered, figures["house-way"].accuracy) == (1, 1.0)
        assert report_queries.unanswered_practice([trainee.id], None) == {trainee.id: 1}
