"""Guessing does not pay on the site: one-answer "my mistakes" is practice only; chance is shown."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.extensions import db
from trainer.models import Attempt, DrillSession, utcnow
from trainer.services import drills as drill_service
from trainer.services.reports import pages as dashboard
from trainer.services.reports.pages import Criterion
from web.helpers import login, post_form
from web.test_drills import fetch_question, issued, right_answer, send_answer, start

FOUL_CHECK = Criterion("foul-check", 50.0, 3)


def record_misses(app: Flask, user_id: int, rules: list[str], kind: str = "foul-check") -> None:
    """Record one practice session of wrong answers on ``rules`` (the trainee's recent mistakes)."""
    now = utcnow()
    with app.app_context():
        session = DrillSession(user_id=user_id, kind=kind, mode="practice", length=len(rules),
                               house_way="trump-plaza", profile="nevada", started_at=now)
        db.session.add(session)
        for position, rule in enumerate(rules, start=1):
            answered = now - timedelta(seconds=len(rules) - position + 1)
            db.session.add(Attempt(
                session=session, position=position, user_id=user_id, kind=kind, seed=position,
                question={"back": ["Kh", "Js", "8c", "7s", "3d"], "front": ["Ac", "Ah"]},
                answer={"fouled": False}, correct_answer={"fouled": True}, correct=False,
                timed_out=False, rule_id=rule, issued_at=answered - timedelta(seconds=3),
                answered_at=answered, elapsed_ms=3000,
            ))
        db.session.commit()


def answer_right(client: FlaskClient, app: Flask, session_id: int, count: int) -> None:
    for position in range(1, count + 1):
        assert fetch_question(client, session_id).status_code == 200
        reply = send_answer(client, session_id, position, right_answer(app, session_id, position))
        assert reply.status_code == 200, reply.get_data(as_text=True)


@pytest.fixture
def signed_in(client: FlaskClient, trainee: Any) -> FlaskClient:
    login(client, trainee)
    return client


def test_my_mistakes_of_one_answer_are_practice_only_and_never_count_toward_readiness(
        app: Flask, signed_in: FlaskClient, trainee: Any) -> None:
    # Every recent miss is a fouled hand: a session on them could be passed by always saying "fouled".
    record_misses(app, trainee.id, ["foul.pair-over-no-pair", "foul.pair-over-no-pair"])
    response = post_form(signed_in, "/drills/foul-check/start",
                         {"mode": "timed", "focus": "mistakes"})
    assert response.status_code == 302
    session_id = int(response.headers["Location"].rsplit("/", 1)[1])
    page = signed_in.get(response.headers["Location"]).get_data(as_text=True)
    assert "practice only" in page
    with app.app_context():
        session = db.session.get(DrillSession, session_id)
        # Timed "my mistakes" keeps its clock but is dealt from mistakes: practice only (issue 24).
        assert (session.mode, session.dealt, session.time_limit_ms) == ("timed", "mistakes", 10_000)
    _question, context = issued(app, session_id)
    assert context.focus_rules == ("foul.pair-over-no-pair",)
    answer_right(signed_in, app, session_id, 3)
    with app.app_context():
        assert dashboard.window_figures([trainee.id], FOUL_CHECK).get(trainee.id) is None
        # Beside it, a timed session of the same drill does count.
        timed = drill_service.start_session(trainee.id, "foul-check", "timed", length=3)
    answer_right(signed_in, app, timed, 3)
    with app.app_context():
        figures = dashboard.window_figures([trainee.id], FOUL_CHECK)[trainee.id]
        assert (figures.answered, figures.right) == (3, 3)


def test_my_mistakes_of_both_answers_are_balanced_and_keep_the_mode_asked_for(
        app: Flask, signed_in: FlaskClient, trainee: Any) -> None:
    record_misses(app, trainee.id, ["foul.pair-over-no-pair", "foul.legal.no-pair"])
    session_id = start(signed_in, "foul-check", mode="timed", focus="mistakes")
    with app.app_context():
        session = db.session.get(DrillSession, session_id)
        # Balanced or not, "my mistakes" is practice only (issue 24).
        assert (session.mode, session.dealt) == ("timed", "mistakes")
    _question, context = issued(app, session_id)
    assert set(context.focus_rules) == {"foul.pair-over-no-pair", "foul.legal.no-pair"}


def test_the_service_makes_a_focus_practice_only_and_refuses_it_for_an_exam(
        app: Flask, trainee: Any) -> None:
    with app.app_context():
        fouled_only = ("foul.pair-over-no-pair",)
        session_id = drill_service.start_session(trainee.id, "foul-check", "timed",
                                                 focus_rules=fouled_only)
        session = db.session.get(DrillSession, session_id)
        assert (session.mode, session.dealt) == ("timed", "mistakes")
        with pytest.raises(drill_service.DrillError, match="exam"):
            drill_service.start_session(trainee.id, "foul-check", "exam",
                                        focus_rules=("foul.legal.no-pair",))
        # Any focus rules, even ones a drill does not steer by, make the session practice only.
        steered = drill_service.start_session(trainee.id, "action", "timed",
                                              focus_rules=("action.banker",))
        assert db.session.get(DrillSession, steered).dealt == "mistakes"
        plain = drill_service.start_session(trainee.id, "action", "timed")
        assert db.session.get(DrillSession, plain).dealt == "balanced"


def test_supervisor_pages_show_the_chance_level_beside_accuracy(
        app: Flask, client: FlaskClient, supervisor: Any, trainee: Any, group: int) -> None:
    with app.app_context():
        session_id = drill_service.start_session(trainee.id, "foul-check", "timed", length=2)
    login(client, trainee)
    answer_right(client, app, session_id, 2)
    staff = app.test_client()
    login(staff, supervisor)
    overview = staff.get(f"/supervisor/groups/{group}?period=all").get_data(as_text=True)
    assert "100%" in overview and "(chance 50%)" in overview
    page = staff.get(f"/supervisor/trainees/{trainee.id}?period=all").get_data(as_text=True)
    assert "(chance 50%)" in page
