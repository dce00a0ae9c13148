"""Showing and answering a question insert their row with one Core INSERT, not the ORM's flush.

Issue 15 (a question and an answer in 2 ms): the ORM's unit of work cost about
0.3 ms of CPU for the one new question or attempt of these requests, so
``services/drills/store.insert_row`` sends the same INSERT directly. These tests hold
that (no new object reaches a flush) and that the rows stored are whole: every
column as the request decided, the defaults where nothing was set, and the
unique ``(session_id, position)`` still refusing a second attempt.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event
from sqlalchemy.orm import Session

from trainer.extensions import db
from trainer.models import Attempt, IssuedQuestion
from trainer.services.drills import store
from web.helpers import csrf_token, login
from web.test_drills import right_answer, start
from web.test_request_cost import _answer, _show


@pytest.fixture
def signed_in(client: FlaskClient, trainee: Any) -> FlaskClient:
    login(client, trainee)
    return client


@contextmanager
def flushed_new_objects() -> Iterator[list[str]]:
    """Collect the class names of new objects any ORM flush inserts while the block runs."""
    names: list[str] = []

    def record(session: Session, flush_context: Any, instances: Any) -> None:
        names.extend(type(obj).__name__ for obj in session.new)

    event.listen(Session, "before_flush", record)
    try:
        yield names
    finally:
        event.remove(Session, "before_flush", record)


def test_a_question_and_an_answer_insert_without_the_orm_flush(
    app: Flask, signed_in: FlaskClient
) -> None:
    session_id = start(signed_in, "house-way", "timed")
    token = csrf_token(signed_in, "/drills/")
    assert _show(signed_in, session_id, token).status_code == 200
    answer = right_answer(app, session_id, 1)
    with flushed_new_objects() as names:
        assert _answer(signed_in, session_id, 1, answer, token).status_code == 200
        assert _show(signed_in, session_id, token).get_json()["position"] == 2
    assert names == []


def test_the_inserted_question_and_attempt_are_whole(
    app: Flask, signed_in: FlaskClient, trainee: Any
) -> None:
    trainee_id = trainee.id
    session_id = start(signed_in, "house-way", "timed")
    token = csrf_token(signed_in, "/drills/")
    _show(signed_in, session_id, token)
    answer = right_answer(app, session_id, 1)
    body = _answer(signed_in, session_id, 1, answer, token).get_json()
    assert body["correct"] is True
    second = _show(signed_in, session_id, token).get_json()
    with app.app_context():
        attempt = db.session.execute(db.select(Attempt).filter_by(
            session_id=session_id, position=1)).scalar_one()
        first = db.session.execute(db.select(IssuedQuestion).filter_by(
            session_id=session_id, position=1)).scalar_one()
        issued = db.session.execute(db.select(IssuedQuestion).filter_by(
            session_id=session_id, position=2)).scalar_one()
        assert attempt.id is not None and attempt.user_id == trainee_id
        assert (attempt.kind, attempt.seed, attempt.correct, attempt.timed_out) == (
            "house-way", first.seed, True, False)
        assert attempt.question == {**first.question, "context": first.context}
        assert attempt.answer == answer and attempt.correct_answer is not None
        assert attempt.rule_id == first.rule_id and attempt.rule_id
        assert attempt.issued_at == first.issued_at
        assert attempt.answered_at is not None and attempt.answered_at >= first.issued_at
        assert attempt.elapsed_ms == body["elapsed_ms"]
        # The next question: its own seed and deal, the session's context, its clock started.
        assert issued.position == second["position"] == 2
        assert issued.context == first.context and issued.issued_at is not None
        assert issued.question and issued.rule_id
    # The question a session starts with waits, its clock unset (NULL, not a default).
    other = start(signed_in, "house-way", "timed")
    with app.app_context():
        waiting = db.session.execute(db.select(IssuedQuestion).filter_by(
            session_id=other, position=1)).scalar_one()
        assert waiting.issued_at is None and waiting.id is not None


def test_a_second_attempt_is_still_refused_by_the_unique_constraint(
    app: Flask, signed_in: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    session_id = start(signed_in, "house-way", "timed")
    token = csrf_token(signed_in, "/drills/")
    _show(signed_in, session_id, token)
    answer = right_answer(app, session_id, 1)
    assert _answer(signed_in, session_id, 1, answer, token).status_code == 200
    # Without the fast EXISTS, the INSERT itself must refuse the repeat.
    real_load = store.load

    def load_unanswered(*args: Any, **kwargs: Any) -> Any:
        return real_load(*args, **kwargs)._replace(answered=False)

    monkeypatch.setattr(store, "load", load_unanswered)
    assert _answer(signed_in, session_id, 1, answer, token).status_code == 409
    with app.app_context():
        count = db.session.execute(db.select(db.func.count()).select_from(Attempt).filter_by(
            session_id=session_id, position=1)).scalar_one()
    assert count == 1
