"""The SQL cost of the two requests a trainee waits on: showing a question and answering it.

Each is held to at most ``MAX_STATEMENTS`` statements (issue 15), counted with
SQLAlchemy's ``before_cursor_execute`` on the app's engine, so every statement
the request sends through the ORM or Core is counted: loading the signed-in
user and their server session, settling an overdue question, the session and
question reads, the inserts and updates. Nothing is left out, but two kinds of
traffic never reach that event: BEGIN and COMMIT (the driver's own calls, not
cursor executes) and the SQLite PRAGMAs run once per new connection (on the
pool's ``connect``; the pool reuses the connection from one request to the
next, and the count starts after a warm-up request). The CSRF token is fetched
before counting starts (a real browser has it from the drill page).

Both paths of showing a question are counted: the first (starting the clock of
a question issued with the session) and the next (issuing a new one after an
answer), for every drill kind, a round's later steps included.

An answer in a practice or timed session also reviews the trainee's memory of its skill
(issue 30): one more write, so such an answer is held to ``MAX_ANSWER_STATEMENTS`` (its
memories are read in the statement that reads its question). An exam's answer writes no
memory (it is reviewed at the exam's end) and stays at ``MAX_STATEMENTS``; so does every
question, a targeted session's included (its question is dealt by the answer before).
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from trainer.engine.drills import DRILLS
from trainer.extensions import db
from trainer.models import Attempt, DrillSession, Group
from trainer.services.certification import exams as certification
from web.helpers import csrf_token, login, post_form
from web.test_drills import right_answer, start
from web.test_timeouts import _overdue

MAX_STATEMENTS = 4
MAX_ANSWER_STATEMENTS = 5


@contextmanager
def counted(app: Flask) -> Iterator[list[str]]:
    """Collect the SQL statements the app's engine sends while the block runs."""
    statements: list[str] = []

    def record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        statements.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", record)


def _show(client: FlaskClient, session_id: int, token: str) -> Any:
    return client.post(f"/drills/sessions/{session_id}/question", json={},
                       headers={"X-CSRFToken": token})


def _answer(client: FlaskClient, session_id: int, position: int, answer: Any, token: str) -> Any:
    return client.post(f"/drills/sessions/{session_id}/answer",
                       json={"position": position, "answer": answer},
                       headers={"X-CSRFToken": token})


def _check(statements: list[str], what: str, most: int = MAX_STATEMENTS) -> None:
    assert len(statements) <= most, (
        f"{what} sent {len(statements)} SQL statements (at most {most}):\n"
        + "\n---\n".join(statements))


@pytest.fixture
def signed_in(client: FlaskClient, trainee: Any) -> FlaskClient:
    login(client, trainee)
    return client


@pytest.mark.parametrize("kind", list(DRILLS))
def test_showing_a_question_costs_at_most_four_statements_and_answering_it_five(
    app: Flask, signed_in: FlaskClient, kind: str
) -> None:
    session_id = start(signed_in, kind, "timed")
    token = csrf_token(signed_in, "/drills/")
    # Positions 1 (the clock starts), 2 and, for a round, its later steps (issued anew).
    for position in range(1, max(len(DRILLS[kind].steps), 2) + 1):
        with counted(app) as statements:
            response = _show(signed_in, session_id, token)
        assert response.status_code == 200 and response.get_json()["position"] == position
        _check(statements, f"showing question {position} of a timed {kind} drill")
        answer = right_answer(app, session_id, position)
        with counted(app) as statements:
            response = _answer(signed_in, session_id, position, answer, token)
        assert response.status_code == 200, response.get_json()
        assert response.get_json()["correct"] is True
        _check(statements, f"answering question {position} of a timed {kind} drill",
               MAX_ANSWER_STATEMENTS)


def test_a_repeated_answer_still_costs_at_most_five_statements(app: Flask, signed_in: FlaskClient) -> None:
    session_id = start(signed_in, "house-way", "timed")
    token = csrf_token(signed_in, "/drills/")
    _show(signed_in, session_id, token)
    answer = right_answer(app, session_id)
    assert _answer(signed_in, session_id, 1, answer, token).status_code == 200
    with counted(app) as statements:
        assert _answer(signed_in, session_id, 1, answer, token).status_code == 409
    _check(statements, "a repeated answer", MAX_ANSWER_STATEMENTS)


def test_every_question_of_a_whole_session_costs_at_most_four_statements_and_answer_five(
    app: Flask, signed_in: FlaskClient
) -> None:
    """The last answer also finishes the session; the request after it says "finished"."""
    session_id = start(signed_in, "house-way", "timed")
    token = csrf_token(signed_in, "/drills/")
    with app.app_context():
        length = db.session.get(DrillSession, session_id).length
    for position in range(1, length + 1):
        with counted(app) as statements:
            assert _show(signed_in, session_id, token).get_json()["position"] == position
        _check(statements, f"showing question {position}")
        answer = right_answer(app, session_id, position)
        with counted(app) as statements:
            body = _answer(signed_in, session_id, position, answer, token).get_json()
        assert body["finished"] is (position == length)
        _check(statements, f"answering question {position}", MAX_ANSWER_STATEMENTS)
    with counted(app) as statements:
        assert _show(signed_in, session_id, token).get_json()["finished"] is True
    _check(statements, "asking for a question after the last")
    with app.app_context():
        assert db.session.get(DrillSession, session_id).finished_at is not None


def test_settling_an_overdue_question_on_the_way_costs_at_most_four_statements(
    app: Flask, signed_in: FlaskClient
) -> None:
    """Asking for the next question past the clock records the timed-out one, in the same budget."""
    session_id = start(signed_in, "house-way", "timed")
    token = csrf_token(signed_in, "/drills/")
    _show(signed_in, session_id, token)
    _overdue(app, session_id)
    with counted(app) as statements:
        assert _show(signed_in, session_id, token).get_json()["position"] == 2
    _check(statements, "showing a question after settling the one before")
    with app.app_context():
        [attempt] = db.session.execute(db.select(Attempt).filter_by(session_id=session_id)).scalars()
        assert attempt.position == 1 and attempt.timed_out and not attempt.correct


def test_an_exam_question_and_answer_cost_at_most_four_statements(
    app: Flask, signed_in: FlaskClient, group: int, supervisor: Any, trainee: Any
) -> None:
    """A sealed exam also reads its exam row (when its time is over), in the same statement."""
    with app.app_context():
        db.session.get(Group, group).settings = {"certification": {"criteria": [
            {"kind": "house-way", "min_accuracy": 90, "window": 3, "max_median_s": None,
             "exam_length": 2, "exam_time_limit_s": 60}]}}
        db.session.commit()
        exam_id = certification.schedule_exam(group, trainee.id, "house-way", supervisor.id)
    started = post_form(signed_in, f"/exams/{exam_id}/start")
    session_id = int(started.headers["Location"].rsplit("/", 1)[1])
    token = csrf_token(signed_in, "/drills/")
    for position in (1, 2):
        with counted(app) as statements:
            assert _show(signed_in, session_id, token).get_json()["position"] == position
        _check(statements, f"showing exam question {position}")
        answer = right_answer(app, session_id, position)
        with counted(app) as statements:
            body = _answer(signed_in, session_id, position, answer, token).get_json()
        assert body["status"] == "recorded" and "correct" not in body
        assert body["finished"] is (position == 2)
        _check(statements, f"answering exam question {position}")
