"""Answers have a schema: anything else is refused before grading and nothing is stored;
what is stored is the validated answer; every page shows any stored row without a 500.

Every test that covers "every drill kind" loops over the engine's registry.
"""
from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.drills import DRILLS, DrillContext, get_drill, new_question
from trainer.extensions import db
from trainer.models import Attempt, DrillSession, IssuedQuestion
from trainer.services import drills as drill_service
from web.helpers import csrf_token, login, post_form

# Under the request limits (a 64 KiB body, 1,000 JSON values), so the schema is what refuses.
HUGE = "A" * 50_000


def start(client: FlaskClient, kind: str, mode: str = "timed") -> int:
    """Start a session through the drills page's form and return its id."""
    response = post_form(client, f"/drills/{kind}/start", {"mode": mode})
    assert response.status_code == 302
    return int(response.headers["Location"].rsplit("/", 1)[1])


def issued(app: Flask, session_id: int, position: int = 1) -> tuple[dict[str, Any], DrillContext]:
    """Return an issued question and its context, from the database."""
    with app.app_context():
        row = db.session.execute(
            db.select(IssuedQuestion).filter_by(session_id=session_id, position=position)
        ).scalar_one()
        return dict(row.question), drill_service.context_from_json(row.context)


def attempts(app: Flask) -> list[Attempt]:
    """Return every recorded attempt, oldest first."""
    with app.app_context():
        rows = list(db.session.execute(db.select(Attempt).order_by(Attempt.id)).scalars())
        db.session.expunge_all()
        return rows


def lowered(value: Any) -> Any:
    """Write every text in an answer in lower case (card names stay readable: "as", "jk")."""
    if isinstance(value, dict):
        return {k: lowered(v) for k, v in value.items()}
    if isinstance(value, list):
        return [lowered(v) for v in value]
    return value.lower() if isinstance(value, str) else value


def bad_answers(answer: dict[str, Any]) -> dict[str, Any]:
    """Return answers a trainee's browser never sends, built from a well-formed one."""
    first = next(iter(answer))
    lists = [k for k, v in answer.items() if isinstance(v, list)]
    ints = [k for k, v in answer.items() if isinstance(v, int) and not isinstance(v, bool)]
    flags = [k for k, v in answer.items() if isinstance(v, bool)]
    swapped = {**answer, ints[0]: True} if ints else \
        {**answer, flags[0]: int(answer[flags[0]])} if flags else {**answer, first: True}
    long_list = copy.deepcopy(answer)
    if lists:
        items = long_list[lists[0]]
        long_list[lists[0]] = items + [items[-1] if items else {"seat": 2, "action": "take"}] * 100
    else:
        long_list[first] = [1] * 500
    return {
        "extra key": {**answer, "x": [1, 2, 3]},
        "wrong type": {**answer, first: {"deep": [[["x"]]]}},
        "bool for int, int for bool": swapped,
        "too-long list": long_list,
        "huge string": {**answer, first: HUGE},
        "huge key": {**answer, HUGE: 1},
        "not an object": [answer],
    }


@pytest.fixture
def signed_in(client: FlaskClient, trainee: Any) -> FlaskClient:
    """Return the client signed in as the trainee."""
    login(client, trainee)
    return client


@pytest.mark.parametrize("kind", sorted(DRILLS))
def test_an_answer_of_the_wrong_shape_is_refused_and_nothing_is_stored(
        app: Flask, signed_in: FlaskClient, kind: str) -> None:
    session_id = start(signed_in, kind)
    token = csrf_token(signed_in, "/drills/")
    signed_in.post(f"/drills/sessions/{session_id}/question", json={}, headers={"X-CSRFToken": token})
    question, _context = issued(app, session_id)
    drill = get_drill(kind)
    # The drill's own probe, as the browser sends it (its JSON).
    well_formed = drill.answer_json(drill.probe(drill.read_question(question)))
    for name, answer in bad_answers(well_formed).items():
        response = signed_in.post(f"/drills/sessions/{session_id}/answer",
                                  json={"position": 1, "answer": answer},
                                  headers={"X-CSRFToken": token})
        assert response.status_code == 400, (name, response.status_code)
        message = response.get_json()["message"]
        assert message.endswith(".") and len(message) < 300 and "A" * 100 not in message, (name, message)
        assert attempts(app) == [], name
    # The question is still open, and a well-formed answer is recorded.
    response = signed_in.post(f"/drills/sessions/{session_id}/answer",
                              json={"position": 1, "answer": well_formed},
                              headers={"X-CSRFToken": token})
    assert response.status_code == 200, response.get_json()
    [attempt] = attempts(app)
    assert attempt.answer == well_formed


@pytest.mark.parametrize("kind", sorted(DRILLS))
def test_what_is_stored_is_the_validated_answer_not_the_raw_body(
        app: Flask, signed_in: FlaskClient, kind: str) -> None:
    session_id = start(signed_in, kind)
    token = csrf_token(signed_in, "/drills/")
    signed_in.post(f"/drills/sessions/{session_id}/question", json={}, headers={"X-CSRFToken": token})
    stored, context = issued(app, session_id)
    drill = get_drill(kind)
    question = drill.read_question(stored)
    sent = lowered(drill.answer_json(drill.probe(question)))
    response = signed_in.post(f"/drills/sessions/{session_id}/answer",
                              json={"position": 1, "answer": sent}, headers={"X-CSRFToken": token})
    assert response.status_code == 200, response.get_json()
    [attempt] = attempts(app)
    assert attempt.answer == drill.validate_answer(question, sent, context)
    assert attempt.answer == drill.answer_json(drill.probe(question))


def test_a_house_way_front_is_stored_in_canonical_card_names(app: Flask, signed_in: FlaskClient) -> None:
    session_id = start(signed_in, "house-way")
    token = csrf_token(signed_in, "/drills/")
    signed_in.post(f"/drills/sessions/{session_id}/question", json={}, headers={"X-CSRFToken": token})
    question, _context = issued(app, session_id)
    front = question["cards"][:2]
    sent = ["joker" if c == "JK" else ("10" if c[0] == "T" else c[0]) + c[1].upper() for c in front]
    assert sent != front
    response = signed_in.post(f"/drills/sessions/{session_id}/answer",
                              json={"position": 1, "answer": {"front": sent}},
                              headers={"X-CSRFToken": token})
    assert response.status_code == 200
    assert attempts(app)[0].answer == {"front": front}


def test_a_late_answer_of_the_wrong_shape_keeps_none_of_it(app: Flask, signed_in: FlaskClient) -> None:
    session_id = start(signed_in, "action")
    token = csrf_token(signed_in, "/drills/")
    signed_in.post(f"/drills/sessions/{session_id}/question", json={}, headers={"X-CSRFToken": token})
    with app.app_context():
        row = db.session.execute(db.select(IssuedQuestion).filter_by(session_id=session_id)).scalar_one()
        row.issued_at -= timedelta(seconds=60)
        db.session.commit()
    response = signed_in.post(f"/drills/sessions/{session_id}/answer",
                              json={"position": 1, "answer": {"seat": 1, "x": HUGE}},
                              headers={"X-CSRFToken": token})
    assert response.status_code < 500
    for attempt in attempts(app):
        assert attempt.timed_out and attempt.answer is None


# --- rows written before answers had a schema ------------------------------------

JUNK_ANSWERS: list[Any] = [
    {"front": 5, "x": [1, 2]},
    "sideways",
    [1, 2, 3],
    None,
    7,
    {"front": ["Zz", 5]},
    {"front": ["As", "Kd"], "back": ["xx", 7, None]},
    {"positions": 5},
    {"positions": [5, {"outcome": ["win"], "paid_cents": "lots"}, None]},
    {"order": [{"seat": "x", "paid_cents": {}}, 3], "banker_commission_cents": {"a": 1}},
    {"seat": {"deep": [[[[1]]]]}},
    {"fouled": "yes", "front": "As Kd"},
    {"category": ["x"], "winner": {"a": 1}},
    {"x": {"y": {"z": [HUGE]}}},
]
JUNK_QUESTIONS: list[Any] = [
    {},
    {"cards": 5, "hand": "x", "back": 7, "front": None, "positions": 3, "dice": "x",
     "banker": 1, "step": ["x"], "mode": 4, "a": 1, "b": 2, "banker_seat": "one"},
    {"cards": ["Zz", 5], "context": "junk"},
    {"context": {"profile": ["x"], "house_way": 5, "focus_rules": 7}},
    "just text",
    [1, 2],
]


def _insert_rows(app: Flask, user_id: int, kind: str) -> tuple[int, list[int]]:
    """Write malformed attempts straight into the database, as an old version could have."""
    context = DrillContext()
    if kind in DRILLS:
        drill = get_drill(kind)
        question = new_question(kind, 7, context)
        if drill.steps:
            question = drill.at_step(question, 0, context)
        good = {**drill.question_json(question), "context": context.as_dict()}
    else:  # a drill kind an older version had
        good = {"hand": ["As", "Ad", "7c", "7d", "2h", "3s", "JK"], "context": context.as_dict()}
    rows = [(good, answer) for answer in JUNK_ANSWERS]
    rows += [(question, {"seat": 1, "front": ["As", "Kd"]}) for question in JUNK_QUESTIONS]
    issued_at = datetime.now(UTC) - timedelta(hours=1)
    with app.app_context():
        session = DrillSession(user_id=user_id, kind=kind, mode="timed", length=len(rows),
                               time_limit_ms=10_000, house_way="trump-plaza", profile="nevada",
                               started_at=issued_at, finished_at=issued_at + timedelta(minutes=5))
        db.session.add(session)
        db.session.flush()
        ids = []
        for position, (question, answer) in enumerate(rows, start=1):
            attempt = Attempt(
                session_id=session.id, position=position, user_id=user_id, kind=kind, seed=7,
                question=question, answer=answer,
                correct_answer={"front": ["Zz"], "positions": 5} if position % 5 == 0
                else {"seat": 3},
                correct=False, timed_out=position % 3 == 0, rule_id=f"{kind}.junk",
                issued_at=issued_at, answered_at=issued_at + timedelta(seconds=position),
                elapsed_ms=4000,
            )
            db.session.add(attempt)
            db.session.flush()
            ids.append(attempt.id)
        db.session.commit()
        return session.id, ids


@pytest.mark.parametrize("kind", [*sorted(DRILLS), "set-hand"])
def test_every_page_shows_any_stored_attempt_row(
        app: Flask, make_user: Any, supervisor: Any, group: int, trainee: Any, kind: str) -> None:
    session_id, ids = _insert_rows(app, trainee.id, kind)
    boss = app.test_client()
    login(boss, supervisor)
    pages = [f"/supervisor/trainees/{trainee.id}", f"/supervisor/trainees/{trainee.id}/report",
             f"/supervisor/groups/{group}", f"/supervisor/groups/{group}/export/attempts.csv",
             f"/supervisor/groups/{group}/export/summary.csv"]
    pages += [f"/supervisor/attempts/{attempt_id}/replay" for attempt_id in ids]
    for page in pages:
        response = boss.get(page)
        response.get_data()  # a streamed export is read to its end
        response.close()
        assert response.status_code == 200, (page, response.status_code)
    assert "Unreadable answer" in boss.get(f"/supervisor/trainees/{trainee.id}").get_data(as_text=True)
    own = app.test_client()
    login(own, trainee)
    pages = ["/", "/results", f"/drills/sessions/{session_id}/summary"]
    pages += [f"/results/{attempt_id}" for attempt_id in ids]
    for page in pages:
        response = own.get(page)
        assert response.status_code == 200, (page, response.status_code)


def test_a_replay_grades_an_unreadable_answer_as_wrong(app: Flask, trainee: Any) -> None:
    _session_id, ids = _insert_rows(app, trainee.id, "action")
    with app.app_context():
        attempt = db.session.get(Attempt, ids[0])
        grade = drill_service.regrade(attempt)
        assert not grade.correct and "cannot be read" in str(grade.explanation)
        assert grade.correct_answer["seat"] in range(1, 8)


def test_the_trainee_page_marks_an_unreadable_answer_and_shows_a_readable_one(
        app: Flask, supervisor: Any, group: int, trainee: Any) -> None:
    context = DrillContext()
    question = {**get_drill("house-way").question_json(new_question("house-way", 3, context)),
                "context": context.as_dict()}
    issued_at = datetime.now(UTC) - timedelta(hours=1)
    with app.app_context():
        session = DrillSession(user_id=trainee.id, kind="house-way", mode="practice", length=2,
                               house_way="trump-plaza", profile="nevada", started_at=issued_at)
        db.session.add(session)
        db.session.flush()
        for position, answer in enumerate(
                [{"front": question["cards"][:2], "back": ["xx"]}, {"front": question["cards"][2:4]}], 1):
            db.session.add(Attempt(
                session_id=session.id, position=position, user_id=trainee.id, kind="house-way",
                seed=3, question=question, answer=answer, correct_answer={"front": []},
                correct=False, rule_id="pair.junk", issued_at=issued_at,
                answered_at=issued_at + timedelta(seconds=position), elapsed_ms=3000))
        db.session.commit()
    boss = app.test_client()
    login(boss, supervisor)
    page = boss.get(f"/supervisor/trainees/{trainee.id}").get_data(as_text=True)
    assert page.count('data-unreadable="answer"') == 1
    assert f'data-card="{question["cards"][2]}"' in page
