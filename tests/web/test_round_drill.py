"""The round drill in the drills runner: three steps per round, one attempt per step."""
from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.cards import parse_cards
from trainer.engine.drills import DrillContext
from trainer.engine.hands import rank2
from trainer.extensions import db
from trainer.models import Attempt, Group, IssuedQuestion
from trainer.services import drills as drill_service
from web.helpers import csrf_token, login, post_form


def start(client: FlaskClient, mode: str = "timed") -> int:
    """Start a round session through the drills page's form and return its id."""
    response = post_form(client, "/drills/round/start", {"mode": mode})
    assert response.status_code == 302
    return int(response.headers["Location"].rsplit("/", 1)[1])


def post(client: FlaskClient, path: str, body: dict[str, Any]) -> Any:
    """POST JSON as drills.js does."""
    return client.post(path, json=body, headers={"X-CSRFToken": csrf_token(client, "/drills/")})


def issued(app: Flask, session_id: int, position: int) -> tuple[dict[str, Any], DrillContext]:
    """Return an issued question and its context."""
    with app.app_context():
        row = db.session.execute(
            db.select(IssuedQuestion).filter_by(session_id=session_id, position=position)
        ).scalar_one()
        return dict(row.question), DrillContext.from_dict(row.context)


def right_answer(app: Flask, session_id: int, position: int) -> dict[str, Any]:
    """Work out the right answer to one step with the engine."""
    question, context = issued(app, session_id, position)
    key = drill_service.answer_key(question, context)
    if question["step"] == "action":
        return {"seat": key["seat"]}
    if question["step"] == "banker":
        return {"front": key["front"]}
    answer = {"order": key["order"]}
    if "banker_commission_cents" in key:
        answer["banker_commission_cents"] = key["banker_commission_cents"]
    return answer


def wrong_front(cards: list[str], right: list[str]) -> list[str]:
    """Return two of the cards whose value in front differs from the house way's front."""
    target = rank2(parse_cards(right, 2))
    for i, a in enumerate(cards):
        for b in cards[i + 1:]:
            if rank2(parse_cards([a, b], 2)) != target:
                return [a, b]
    raise AssertionError("every front has the same value")


def set_length(app: Flask, group: int, length: int) -> None:
    """Set the group's number of questions for the round drill."""
    with app.app_context():
        db.session.get(Group, group).settings = {"drills": {"round": {"length": length}}}
        db.session.commit()


def test_the_round_drill_is_offered(client: FlaskClient, trainee: Any) -> None:
    login(client, trainee)
    page = client.get("/drills/").get_data(as_text=True)
    assert "Run a round" in page and 'data-start="round-timed"' in page


def test_a_round_is_three_steps_recorded_one_attempt_each(
    app: Flask, client: FlaskClient, trainee: Any, group: int,
) -> None:
    set_length(app, group, 4)           # rounded up to whole rounds: 6 steps
    login(client, trainee)
    session_id = start(client)
    steps = []
    for position in range(1, 7):
        data = post(client, f"/drills/sessions/{session_id}/question", {}).get_json()
        assert data["position"] == position and data["length"] == 6
        question, _ = issued(app, session_id, position)
        steps.append(question)
        assert f'data-step="{question["step"]}"' in data["html"]
        if question["step"] == "settle":
            assert "Your order" in data["html"]
        else:
            # The banker's house-way setting is shown only at the settle step.
            assert "banker" not in question
        answer = right_answer(app, session_id, position)
        if position == 5:
            answer = {"front": wrong_front(question["banker_cards"], answer["front"])}
        reply = post(client, f"/drills/sessions/{session_id}/answer",
                     {"position": position, "answer": answer}).get_json()
        assert reply["family"] == "round"
    assert [q["step"] for q in steps] == ["action", "banker", "settle"] * 2
    assert steps[0]["seed"] == steps[1]["seed"] == steps[2]["seed"] != steps[3]["seed"]
    assert steps[0]["piles"] == steps[2]["piles"]
    with app.app_context():
        attempts = db.session.execute(
            db.select(Attempt).filter_by(session_id=session_id).order_by(Attempt.position)
        ).scalars().all()
        assert [a.position for a in attempts] == [1, 2, 3, 4, 5, 6]
        assert all(a.rule_id.startswith("round.") for a in attempts)
        assert attempts[0].rule_id.startswith("round.action")
        assert attempts[1].rule_id.startswith("round.banker.")
        assert attempts[2].rule_id.startswith("round.settle")
        results = [a.correct for a in attempts]
        # Replaying each attempt from its seed and position gives the same grade.
        assert [drill_service.regrade(a).correct for a in attempts] == results
    assert results == [True, True, True, True, False, True]
    summary = client.get(f"/drills/sessions/{session_id}/summary").get_data(as_text=True)
    assert 'id="round-steps"' in summary and 'data-round="2"' in summary
    assert "Round time (s)" in summary


def test_a_timed_out_settle_step_is_recorded_with_its_answer_key(
    app: Flask, client: FlaskClient, trainee: Any, group: int,
) -> None:
    set_length(app, group, 3)
    login(client, trainee)
    session_id = start(client)
    for position in (1, 2):
        post(client, f"/drills/sessions/{session_id}/question", {})
        post(client, f"/drills/sessions/{session_id}/answer",
             {"position": position, "answer": right_answer(app, session_id, position)})
    post(client, f"/drills/sessions/{session_id}/question", {})
    reply = post(client, f"/drills/sessions/{session_id}/answer", {"position": 3, "answer": None})
    data = reply.get_json()
    assert data["timed_out"] and not data["correct"] and data["finished"]
    assert "order" in data["correct_answer"]


def test_a_malformed_settle_answer_is_refused_in_words(
    app: Flask, client: FlaskClient, trainee: Any, group: int,
) -> None:
    set_length(app, group, 3)
    login(client, trainee)
    session_id = start(client, "practice")
    for position in (1, 2):
        post(client, f"/drills/sessions/{session_id}/question", {})
        post(client, f"/drills/sessions/{session_id}/answer",
             {"position": position, "answer": right_answer(app, session_id, position)})
    post(client, f"/drills/sessions/{session_id}/question", {})
    reply = post(client, f"/drills/sessions/{session_id}/answer",
                 {"position": 3, "answer": {"order": [{"seat": 9, "action": "take"}]}})
    assert reply.status_code == 400
    assert reply.get_json()["message"] == "Settle only the seats that have a hand."


def test_the_supervisor_reads_round_attempts_per_step(
    app: Flask, client: FlaskClient, trainee: Any, supervisor: Any, group: int,
) -> None:
    set_length(app, group, 3)
    login(client, trainee)
    session_id = start(client)
    for position in (1, 2, 3):
        post(client, f"/drills/sessions/{session_id}/question", {})
        post(client, f"/drills/sessions/{session_id}/answer",
             {"position": position, "answer": right_answer(app, session_id, position)})
    with app.app_context():
        ids = db.session.execute(
            db.select(Attempt.id).filter_by(session_id=session_id).order_by(Attempt.position)
        ).scalars().all()
    staff = app.test_client()
    login(staff, supervisor)
    for path in (f"/supervisor/groups/{group}", f"/supervisor/trainees/{trainee.id}",
                 f"/supervisor/trainees/{trainee.id}/report",
                 f"/supervisor/groups/{group}/export/attempts.csv",
                 *[f"/supervisor/attempts/{i}/replay" for i in ids]):
        response = staff.get(path)
        assert response.status_code == 200, path
    csv = staff.get(f"/supervisor/groups/{group}/export/attempts.csv").get_data(as_text=True)
    assert "round.action" in csv and "round.banker." in csv and "round.settle" in csv
