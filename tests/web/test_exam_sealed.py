"""Sealed means sealed: while a trainee's exam runs, nothing they can open shows its results.

The routes are walked from the app's ``url_map``, so a page added later is
checked too: every route of the blueprints that set or explain hands (the
reference pages, the player's game) must answer "not available during your
exam"; every other route must not show an exam answer's outcome, rule or right
answer. A route with an argument this file does not know fails the walk until
it is given a value here.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.drills import DrillContext, get_drill
from trainer.extensions import db
from trainer.models import Attempt, CertificationExam, DrillSession, Group, IssuedQuestion
from trainer.services import drills as drill_service
from trainer.services.certification import exams as certification
from trainer.web.platform.limits import JSON_ENDPOINTS
from web.helpers import csrf_token, login, post_form

EXAM_LENGTH = 3
# The blueprints whose every page sets or explains hands: closed during an exam.
CLOSED_BLUEPRINTS = {"reference", "play"}
# Routes the walk does not call: signing out ends the walk's own session.
NOT_CALLED = {"auth.logout", "static"}
CLOSED_TEXT = "Not available during your exam"
# How the old pages showed an answer's outcome (results list, result page).
OUTCOME = re.compile(r">\s*(Correct|Wrong|Timed out)\s*<")


@dataclass(frozen=True)
class RunningExam:
    """An exam started through the trainee's pages and part answered."""

    exam_id: int
    session_id: int
    attempt_ids: list[int]
    rule_ids: list[str]
    markers: list[str]


@pytest.fixture
def exam_group(app: Flask, group: int) -> int:
    """Give the group a short house-way exam (3 questions, a minute each)."""
    with app.app_context():
        db.session.get(Group, group).settings = {"certification": {"criteria": [
            {"kind": "house-way", "min_accuracy": 90, "window": 3, "max_median_s": None,
             "exam_length": EXAM_LENGTH, "exam_time_limit_s": 60}]}}
        db.session.commit()
    return group


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    """Make the sheet PDF fail fast (no browser) where a test opens it."""
    return {**app_config, "CHROMIUM_PATH": "/nonexistent/chromium"}


def _question(client: FlaskClient, session_id: int) -> Any:
    """Ask for the session's current question as drills.js does."""
    token = csrf_token(client, "/drills/")
    return client.post(f"/drills/sessions/{session_id}/question", json={},
                       headers={"X-CSRFToken": token, "Accept": "application/json"})


def _answer(client: FlaskClient, session_id: int, position: int, front: list[str]) -> Any:
    """Send two front cards as the answer, as drills.js does."""
    token = csrf_token(client, "/drills/")
    return client.post(f"/drills/sessions/{session_id}/answer",
                       json={"position": position, "answer": {"front": front}},
                       headers={"X-CSRFToken": token, "Accept": "application/json"})


def _front(app: Flask, session_id: int, position: int, right: bool) -> list[str]:
    """Return the two front cards that set the issued hand the house way, or a wrong two."""
    with app.app_context():
        row = db.session.execute(
            db.select(IssuedQuestion).filter_by(session_id=session_id, position=position)
        ).scalar_one()
        question, context = dict(row.question), DrillContext.from_dict(row.context)
    drill = get_drill("house-way")
    key = drill_service.answer_key(question, context)["front"]
    if right:
        return list(key)
    typed = drill.read_question(question)
    cards = typed.cards
    return next([a, b] for i, a in enumerate(cards) for b in cards[i + 1:]
                if not drill.grade(typed, drill.read_answer(typed, {"front": [a, b]}, context),
                                   context).correct)


def _markers(attempt: Attempt) -> list[str]:
    """Return strings that show this exam answer's rule or right answer wherever they appear."""
    key = attempt.correct_answer or {}
    found = [attempt.rule_id or ""]
    if key.get("explanation"):
        found += [key["explanation"], html.escape(key["explanation"])]
    return [m for m in found if m]


def _start_exam(app: Flask, client: FlaskClient, supervisor: Any, group: int, trainee: Any,
                answers: tuple[bool, ...]) -> RunningExam:
    """Schedule an exam, start it as the trainee, answer ``answers`` and open the next question."""
    with app.app_context():
        exam_id = certification.schedule_exam(group, trainee.id, "house-way", supervisor.id)
    started = post_form(client, f"/exams/{exam_id}/start")
    assert started.status_code == 302
    session_id = int(started.headers["Location"].rsplit("/", 1)[1])
    for position, right in enumerate(answers, start=1):
        assert _question(client, session_id).get_json()["position"] == position
        reply = _answer(client, session_id, position, _front(app, session_id, position, right))
        assert reply.get_json()["status"] == "recorded"
    assert _question(client, session_id).get_json()["position"] == len(answers) + 1
    with app.app_context():
        rows = db.session.execute(
            db.select(Attempt).filter_by(session_id=session_id).order_by(Attempt.position)
        ).scalars().all()
        assert [a.correct for a in rows] == list(answers)
        return RunningExam(exam_id, session_id, [a.id for a in rows],
                           [a.rule_id for a in rows], [m for a in rows for m in _markers(a)])


def _route_args(exam: RunningExam, trainee: Any, group: int) -> dict[str, list[Any]]:
    """Return the values each URL argument is tried with: the exam's own records first."""
    return {
        "attempt_id": exam.attempt_ids,
        "session_id": [exam.session_id],
        "exam_id": [exam.exam_id],
        "user_id": [trainee.id],
        "group_id": [group],
        "kind": ["house-way"],
        "preset": ["trump-plaza"],
        "hand_id": [1],
        "name": ["nevada"],  # a table-rules profile (the manager's pages, issue 18)
        # The house-way editor's (issue 18): a trainee is refused before any is looked up.
        "way_id": [1], "job_id": [1], "number": [1], "rule": [1], "section": [1],
        "ref": ["trump-plaza"],
        "assignment_id": [1],  # a supervisor's assignment (issue 30): refused to a trainee
        "class_id": [1],  # a live class (issue 31): none runs, and an exam's trainee is refused
    }


def _walk(app: Flask, exam: RunningExam, trainee: Any, group: int) -> list[tuple[str, str, str]]:
    """Return (endpoint, method, url) for every route of the app a trainee could call."""
    values = _route_args(exam, trainee, group)
    calls = []
    with app.test_request_context():
        adapter = app.url_map.bind("localhost")
        for rule in app.url_map.iter_rules():
            if rule.endpoint in NOT_CALLED:
                continue
            unknown = set(rule.arguments) - set(values)
            assert not unknown, f"{rule.endpoint}: give {sorted(unknown)} a value in _route_args"
            combos: list[dict[str, Any]] = [{}]
            for name in sorted(rule.arguments):
                combos = [{**c, name: v} for c in combos for v in values[name]]
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                for args in combos:
                    calls.append((rule.endpoint, method,
                                  adapter.build(rule.endpoint, args, method=method)))
    return calls


def _call(client: FlaskClient, method: str, url: str) -> Any:
    """Call a route as the pages do: GET plainly, POST as JSON with the CSRF header to a
    script's endpoint and as a form to a form's (a body of the other kind is refused)."""
    if method == "GET":
        return client.get(url)
    token = csrf_token(client, "/auth/password")
    endpoint = client.application.url_map.bind("localhost").match(url, method=method)[0]
    if endpoint not in JSON_ENDPOINTS:
        return client.open(url, method=method, data={"csrf_token": token},
                           headers={"Accept": "application/json"})
    return client.open(url, method=method, json={},
                       headers={"X-CSRFToken": token, "Accept": "application/json"})


def _shows_results(body: str, exam: RunningExam) -> list[str]:
    """Return what of the exam's results a page shows (empty: nothing)."""
    shown = [m for m in exam.markers if m in body]
    shown += OUTCOME.findall(body)
    if re.search(r'id="score">\s*\d+ / \d+', body):
        shown.append("score")
    return shown


def test_a_running_exam_shows_no_result_rule_or_right_answer_on_any_route(
        app: Flask, client: FlaskClient, supervisor: Any, exam_group: int, trainee: Any,
) -> None:
    login(client, trainee)
    exam = _start_exam(app, client, supervisor, exam_group, trainee, answers=(True, False))
    walked = _walk(app, exam, trainee, exam_group)
    endpoints = {endpoint for endpoint, _method, _url in walked}
    assert {"main.index", "main.my_results", "main.show_attempt", "drills.show_summary",
            "reference.look_up", "reference.sheet_pdf", "play.house_way"} <= endpoints
    for endpoint, method, url in walked:
        response = _call(client, method, url)
        body = response.get_data(as_text=True)
        where = f"{method} {url} ({endpoint})"
        assert response.status_code != 500, where
        assert not _shows_results(body, exam), f"{where} shows {_shows_results(body, exam)}"
        if endpoint.split(".")[0] in CLOSED_BLUEPRINTS:
            assert response.status_code == 423, where
            if method == "GET":
                assert CLOSED_TEXT in body and "<html" in body, where
            else:
                assert response.get_json()["error"] == CLOSED_TEXT, where
    # The exam's own answers: the result page is closed, the lists leave them out.
    for attempt_id in exam.attempt_ids:
        closed = client.get(f"/results/{attempt_id}")
        assert closed.status_code == 423 and CLOSED_TEXT in closed.get_data(as_text=True)
    assert 'id="exam-sealed-note"' in client.get("/results").get_data(as_text=True)
    # The supervisor still sees everything: the missed rule on the trainee's page.
    staff = app.test_client()
    login(staff, supervisor)
    page = staff.get(f"/supervisor/trainees/{trainee.id}").get_data(as_text=True)
    assert exam.rule_ids[1] in page
    assert staff.get(f"/supervisor/attempts/{exam.attempt_ids[1]}/replay").status_code == 200
    assert staff.get("/house-way/look-up?cards=As+Ad+7c+7d+2h+3s+JK").status_code == 200


def test_results_and_reference_open_when_the_exam_is_finished(
        app: Flask, client: FlaskClient, supervisor: Any, exam_group: int, trainee: Any,
) -> None:
    login(client, trainee)
    exam = _start_exam(app, client, supervisor, exam_group, trainee, answers=(True, False))
    assert client.get("/house-way/look-up").status_code == 423
    front = _front(app, exam.session_id, EXAM_LENGTH, True)
    last = _answer(client, exam.session_id, EXAM_LENGTH, front)
    assert last.get_json()["finished"] is True
    wrong_rule = exam.rule_ids[1]
    assert wrong_rule in client.get("/").get_data(as_text=True)
    assert wrong_rule in client.get("/results").get_data(as_text=True)
    detail = client.get(f"/results/{exam.attempt_ids[1]}")
    assert detail.status_code == 200 and ">Wrong<" in detail.get_data(as_text=True)
    summary = client.get(f"/drills/sessions/{exam.session_id}/summary").get_data(as_text=True)
    assert 'id="score">2 / 3<' in summary and wrong_rule in summary
    for url in ("/house-way/look-up?cards=As+Ad+7c+7d+2h+3s+JK&compare=1", "/house-way/trump-plaza",
                "/commission-chart", "/play/", "/play/state"):
        assert client.get(url).status_code == 200, url
    assert client.get("/house-way/trump-plaza/pdf").status_code != 423


def _age_exam(app: Flask, exam_id: int, hours: float) -> None:
    """Move the exam's start back, as if it had been started ``hours`` ago."""
    with app.app_context():
        row = db.session.get(CertificationExam, exam_id)
        row.started_at = row.started_at - timedelta(hours=hours)
        db.session.commit()


def test_results_open_when_the_exam_time_is_over_and_it_takes_no_more_answers(
        app: Flask, client: FlaskClient, supervisor: Any, exam_group: int, trainee: Any,
) -> None:
    login(client, trainee)
    exam = _start_exam(app, client, supervisor, exam_group, trainee, answers=(False,))
    assert exam.rule_ids[0] not in client.get("/").get_data(as_text=True)
    assert client.get("/house-way/look-up").status_code == 423
    # Just inside the time (every question's limit, the grace, the slack): still sealed.
    inside = (EXAM_LENGTH * (60 + drill_service.GRACE_MS / 1000)
              + certification.ABANDON_SLACK.total_seconds() - 30)
    _age_exam(app, exam.exam_id, inside / 3600)
    assert client.get("/house-way/look-up").status_code == 423
    _age_exam(app, exam.exam_id, 60 / 3600)
    assert exam.rule_ids[0] in client.get("/").get_data(as_text=True)
    assert client.get(f"/results/{exam.attempt_ids[0]}").status_code == 200
    summary = client.get(f"/drills/sessions/{exam.session_id}/summary").get_data(as_text=True)
    assert 'id="score">0 / 1<' in summary and exam.rule_ids[0] in summary
    assert client.get("/house-way/look-up?cards=As+Ad+7c+7d+2h+3s+JK").status_code == 200
    # The look-up is open now, so the exam takes no more: a late answer is timed out,
    # and no next question is issued.
    _answer(client, exam.session_id, 2, _front(app, exam.session_id, 2, True))
    with app.app_context():
        late = db.session.execute(
            db.select(Attempt).filter_by(session_id=exam.session_id, position=2)
        ).scalar_one()
        assert (late.timed_out, late.correct) == (True, False)
    assert _question(client, exam.session_id).get_json()["finished"] is True
    with app.app_context():
        assert db.session.execute(
            db.select(db.func.count()).select_from(IssuedQuestion)
            .filter_by(session_id=exam.session_id)
        ).scalar() == 2


def test_a_scheduled_exam_restricts_nothing_until_it_is_started(
        app: Flask, client: FlaskClient, supervisor: Any, exam_group: int, trainee: Any,
        make_attempt: Any,
) -> None:
    make_attempt(trainee.id, rule_id="two-pair.split.aces", correct=False)
    with app.app_context():
        exam_id = certification.schedule_exam(exam_group, trainee.id, "house-way", supervisor.id)
    login(client, trainee)
    open_urls = ("/house-way/look-up?cards=As+Ad+7c+7d+2h+3s+JK", "/house-way/trump-plaza",
                 "/commission-chart", "/play/", "/play/state")
    for url in open_urls:
        assert client.get(url).status_code == 200, url
    assert "two-pair.split.aces" in client.get("/").get_data(as_text=True)
    post_form(client, f"/exams/{exam_id}/start")
    for url in open_urls:
        assert client.get(url).status_code == 423, url
    # A practice answer is not part of the exam: it stays on the trainee's pages.
    assert "two-pair.split.aces" in client.get("/").get_data(as_text=True)


def test_my_mistakes_leaves_out_the_misses_of_a_running_exam(
        app: Flask, client: FlaskClient, supervisor: Any, exam_group: int, trainee: Any,
) -> None:
    login(client, trainee)
    exam = _start_exam(app, client, supervisor, exam_group, trainee, answers=(False,))
    with app.app_context():
        assert drill_service.missed_rules(trainee.id, "house-way") == ()
    started = post_form(client, "/drills/house-way/start",
                        {"mode": "practice", "focus": "mistakes"}, follow_redirects=True)
    assert "No recent mistakes" in started.get_data(as_text=True)
    _age_exam(app, exam.exam_id, 1)
    with app.app_context():
        assert drill_service.missed_rules(trainee.id, "house-way") == (exam.rule_ids[0],)
        assert not certification.exam_in_progress(trainee.id)


def test_an_exam_session_without_its_exam_row_stays_sealed_until_its_time_is_over(
        app: Flask, client: FlaskClient, trainee: Any,
) -> None:
    with app.app_context():
        session_id = drill_service.start_session(trainee.id, "house-way", "exam", length=2,
                                                 time_limit_s=30)
    login(client, trainee)
    _question(client, session_id)
    _answer(client, session_id, 1, _front(app, session_id, 1, False))
    summary_url = f"/drills/sessions/{session_id}/summary"
    assert 'id="score">—<' in client.get(summary_url).get_data(as_text=True)
    assert client.get("/house-way/look-up").status_code == 423
    with app.app_context():
        session = db.session.get(DrillSession, session_id)
        session.started_at = session.started_at - timedelta(hours=1)
        db.session.commit()
    assert 'id="score">0 / 1<' in client.get(summary_url).get_data(as_text=True)
    assert client.get("/house-way/look-up").status_code == 200
