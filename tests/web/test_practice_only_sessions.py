"""Issue 24, part 2: "my mistakes" and other focused sessions are practice only.

The finding: miss one pai-gow hand on purpose, then a timed "my mistakes" session
deals only pai-gow hands; one constant answer (the second and third highest cards in
front) scores every question, and the trainee and the supervisor read "ready for the
exam". Only sessions dealt by the normal, balanced generator may count toward
readiness and certification: a timed "my mistakes" session keeps its clock, is
recorded as dealt from mistakes, counts in no criterion window, and is labelled
"My mistakes" (never plain "Practice" or "Timed") wherever sessions are listed.
"""
from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.cards import JOKER, parse_cards
from trainer.engine.drills import DRILLS
from trainer.engine.house_way import rule_family
from trainer.extensions import db
from trainer.models import DrillSession, Group, IssuedQuestion
from trainer.services import drills as drill_service
from trainer.services.certification.criteria import Criterion, Readiness
from trainer.services.reports import pages as reports
from web.helpers import login, post_form
from web.test_drills import fetch_question, issued, right_answer, send_answer, start, wrong_answer

WINDOW = 8
HOUSE_WAY = Criterion("house-way", 90.0, WINDOW, None, 5, 30)


def _criteria(app: Flask, group_id: int, *criteria: Criterion) -> None:
    """Give the group certification criteria and sessions of ``WINDOW`` questions."""
    with app.app_context():
        group = db.session.get(Group, group_id)
        group.settings = {
            "drills": {kind: {"length": WINDOW} for kind in DRILLS},
            "certification": {"criteria": [c.as_dict() for c in criteria]},
        }
        db.session.commit()


def _verdict(app: Flask, user_id: int, group_id: int) -> Any:
    with app.app_context():
        return reports.trainee_verdict(user_id, db.session.get(Group, group_id))


def _rule(app: Flask, session_id: int, position: int) -> str:
    with app.app_context():
        return str(db.session.execute(
            db.select(IssuedQuestion.rule_id).filter_by(session_id=session_id, position=position)
        ).scalar_one())


def _miss_one_pai_gow_hand(app: Flask, client: FlaskClient) -> str:
    """Play practice house-way sessions, answering right, until a pai-gow hand comes: miss it."""
    for _session in range(25):
        session_id = start(client, "house-way", mode="practice")
        for position in range(1, WINDOW + 1):
            assert fetch_question(client, session_id).status_code == 200
            rule = _rule(app, session_id, position)
            if rule_family(rule) == "pai-gow":
                reply = send_answer(client, session_id, position,
                                    wrong_answer(app, session_id, position))
                assert reply.get_json()["correct"] is False
                return rule
            reply = send_answer(client, session_id, position,
                                right_answer(app, session_id, position))
            assert reply.get_json()["correct"] is True
    pytest.fail("no pai-gow hand was dealt in 200 house-way questions")


def _second_and_third_highest(cards: list[str]) -> dict[str, list[str]]:
    """The one constant answer to every pai-gow hand: the 2nd and 3rd highest cards in front.

    The joker stands for an ace in a hand with no pair, straight or flush.
    """
    order = sorted(cards, key=lambda c: 14 if parse_cards([c], 1)[0] == JOKER
                   else parse_cards([c], 1)[0].rank, reverse=True)
    return {"front": order[1:3]}


def test_a_timed_my_mistakes_session_answered_with_one_constant_answer_does_not_move_readiness(
        app: Flask, client: FlaskClient, supervisor: Any, trainee: Any, group: int) -> None:
    _criteria(app, group, HOUSE_WAY)
    login(client, trainee)
    missed = _miss_one_pai_gow_hand(app, client)
    before = _verdict(app, trainee.id, group)
    assert before.status == Readiness.NO_DATA  # practice only so far

    # The attack: a timed "my mistakes" session, every answer the same rule of thumb.
    response = post_form(client, "/drills/house-way/start", {"mode": "timed", "focus": "mistakes"})
    assert response.status_code == 302
    session_id = int(response.headers["Location"].rsplit("/", 1)[1])
    play = client.get(response.headers["Location"]).get_data(as_text=True)
    for position in range(1, WINDOW + 1):
        assert fetch_question(client, session_id).status_code == 200
        question, context = issued(app, session_id, position)
        assert context.focus_rules == (missed,)
        assert rule_family(_rule(app, session_id, position)) == "pai-gow"
        reply = send_answer(client, session_id, position,
                            _second_and_third_highest(question["cards"])).get_json()
        assert reply["correct"] is True  # one constant answer scores every question
    assert reply["finished"] is True

    # In no criterion window: readiness is where it was.
    after = _verdict(app, trainee.id, group)
    assert after.status == before.status == Readiness.NO_DATA
    assert [check.figures.answered for check in after.checks] == [0]
    with app.app_context():
        assert reports.window_figures([trainee.id], HOUSE_WAY) == {}
        session = db.session.get(DrillSession, session_id)
        # Recorded as what it is: timed, with its clock, but dealt from mistakes.
        assert (session.mode, session.dealt) == ("timed", "mistakes")
        assert session.time_limit_ms is not None
    # The drill page said so when it started, and names the session so.
    assert "My mistakes is practice only" in play
    assert "My mistakes, timed (practice only)" in play

    # The trainee reads no "criteria met: ready for the exam" (the forecast of practice that
    # adapts may say when they will be), and the session as mistakes practice.
    home = client.get("/").get_data(as_text=True)
    assert "Criteria met: ready for the exam" not in home
    assert "My mistakes, timed (practice only)" in home
    results = client.get("/results").get_data(as_text=True)
    assert "My mistakes, timed (practice only)" in results
    summary = client.get(f"/drills/sessions/{session_id}/summary").get_data(as_text=True)
    assert "My mistakes, timed (practice only)" in summary

    # The supervisor likewise: not ready, the session named as mistakes practice.
    staff = app.test_client()
    login(staff, supervisor)
    overview = staff.get(f"/supervisor/groups/{group}?period=all").get_data(as_text=True)
    assert "Ready for the exam" not in overview
    page = staff.get(f"/supervisor/trainees/{trainee.id}?period=all").get_data(as_text=True)
    assert "Ready for the exam" not in page
    sessions = page[page.index('id="sessions"'):]
    row = sessions[:sessions.index("</tr>", sessions.index("<tbody>"))]
    assert "My mistakes, timed (practice only)" in row
    export = staff.get(f"/supervisor/groups/{group}/export/attempts.csv?period=all")
    assert "My mistakes, timed (practice only)" in export.get_data(as_text=True)

    # A balanced timed session beside it does count, with the same answers right.
    timed = start(client, "house-way", mode="timed")
    for position in range(1, WINDOW + 1):
        assert fetch_question(client, timed).status_code == 200
        send_answer(client, timed, position, right_answer(app, timed, position))
    with app.app_context():
        assert db.session.get(DrillSession, timed).dealt == "balanced"
        figures = reports.window_figures([trainee.id], HOUSE_WAY)[trainee.id]
        assert (figures.answered, figures.right) == (WINDOW, WINDOW)
    assert _verdict(app, trainee.id, group).status == Readiness.EXAM_DUE


@pytest.mark.parametrize("kind", sorted(DRILLS))
def test_a_focused_timed_session_counts_in_no_window_on_every_drill_kind(
        app: Flask, client: FlaskClient, trainee: Any, group: int, kind: str) -> None:
    criterion = Criterion(kind, 0.0, 1)
    _criteria(app, group, criterion)
    login(client, trainee)
    with app.app_context():
        length = len(get_steps(kind))
        mistakes = drill_service.start_session(trainee.id, kind, "timed", length=length,
                                               focus_rules=("any.rule",))
        focused = drill_service.start_session(trainee.id, kind, "timed", length=length,
                                              dealt="focused")
        dealt = {row.id: row.dealt for row in db.session.execute(
            db.select(DrillSession)).scalars()}
    assert (dealt[mistakes], dealt[focused]) == ("mistakes", "focused")
    for session_id in (mistakes, focused):
        for position in range(1, length + 1):
            assert fetch_question(client, session_id).status_code == 200
            reply = send_answer(client, session_id, position,
                                right_answer(app, session_id, position))
            assert reply.status_code == 200, reply.get_data(as_text=True)
    with app.app_context():
        assert reports.window_figures([trainee.id], criterion) == {}
    page = client.get("/results").get_data(as_text=True)
    assert "My mistakes, timed (practice only)" in page
    assert "Focused, timed (practice only)" in page


def get_steps(kind: str) -> tuple[str, ...]:
    """One unit of a drill: a round's steps, else one question."""
    return DRILLS[kind].steps or ("question",)


def test_an_exam_deals_only_from_the_balanced_generator(app: Flask, trainee: Any) -> None:
    with app.app_context():
        for focus, dealt in (((), "mistakes"), ((), "focused"), (("pai-gow.standard",), None)):
            with pytest.raises(drill_service.DrillError, match="exam"):
                drill_service.start_session(trainee.id, "house-way", "exam",
                                            focus_rules=focus, dealt=dealt)
        with pytest.raises(drill_service.DrillError, match="way of dealing"):
            drill_service.start_session(trainee.id, "house-way", "timed", dealt="constant")
        assert db.session.execute(db.select(DrillSession)).first() is None
