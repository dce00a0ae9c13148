"""The drill endpoints: the server owns the question, the key and the clock; one attempt per answer."""
from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.drills import DRILLS, DrillContext, get_drill, new_question
from trainer.extensions import db
from trainer.models import Attempt, DrillSession, Group, IssuedQuestion, Role
from trainer.services import drills as drill_service
from trainer.services.drills import store
from web.helpers import csrf_token, login, post_form

# Every drill kind: the engine's registry, so a kind added later is covered too.
KINDS = tuple(DRILLS)


# --- helpers -------------------------------------------------------------------


def start(client: FlaskClient, kind: str, mode: str = "timed", **form: str) -> int:
    """Start a session through the drills page's form and return its id."""
    response = post_form(client, f"/drills/{kind}/start", {"mode": mode, **form})
    assert response.status_code == 302
    return int(response.headers["Location"].rsplit("/", 1)[1])


def fetch_question(client: FlaskClient, session_id: int) -> Any:
    """Ask for the current question as drills.js does."""
    token = csrf_token(client, "/drills/")
    return client.post(f"/drills/sessions/{session_id}/question", json={}, headers={"X-CSRFToken": token})


def send_answer(client: FlaskClient, session_id: int, position: Any, answer: Any) -> Any:
    """Send one answer as drills.js does."""
    token = csrf_token(client, "/drills/")
    return client.post(
        f"/drills/sessions/{session_id}/answer",
        json={"position": position, "answer": answer},
        headers={"X-CSRFToken": token},
    )


def issued(app: Flask, session_id: int, position: int = 1) -> tuple[dict[str, Any], DrillContext]:
    """Return an issued question (with its seed) and its context, from the database."""
    with app.app_context():
        row = db.session.execute(
            db.select(IssuedQuestion).filter_by(session_id=session_id, position=position)
        ).scalar_one()
        return dict(row.question), drill_service.context_from_json(row.context)


def right_answer(app: Flask, session_id: int, position: int = 1) -> dict[str, Any]:
    """Work out the right answer to an issued question with the engine."""
    question, context = issued(app, session_id, position)
    kind = question["kind"]
    key = drill_service.answer_key(question, context)
    if kind == "house-way":
        return {"front": key["front"]}
    if kind == "action":
        return {"seat": key["seat"]}
    if kind == "settlement":
        # As the page sends it (settlement.js): an amount for a winner only.
        return {"positions": [{"outcome": p["outcome"], "paid_cents": p["paid_cents"]}
                              if p["outcome"] == "win" else {"outcome": p["outcome"]}
                              for p in key["positions"]]}
    if kind == "foul-check":
        answer: dict[str, Any] = {"fouled": key["fouled"]}
        if "reset" in key:
            answer["front"] = key["reset"]["front"]
        return answer
    if kind == "round":
        if question["step"] == "action":
            return {"seat": key["seat"]}
        if question["step"] == "banker":
            return {"front": key["front"]}
        settle = {"order": key["order"]}
        if "banker_commission_cents" in key:
            settle["banker_commission_cents"] = key["banker_commission_cents"]
        return settle
    return key


def wrong_answer(app: Flask, session_id: int, position: int = 1) -> dict[str, Any]:
    """Return a well-formed answer that is wrong."""
    question, _context = issued(app, session_id, position)
    right = right_answer(app, session_id, position)
    kind = question["kind"]
    if kind == "house-way":
        # The drill's own wrong setting of the stored question (its JSON read back typed).
        drill = get_drill(kind)
        wrong: dict[str, Any] = drill.answer_json(
            drill.wrong_answer(drill.read_question(question), _context, random.Random(session_id)))
        return wrong
    if kind == "action" or "seat" in right:
        return {"seat": right["seat"] % 7 + 1}
    if kind == "settlement":
        flipped = {"win": "lose", "push": "lose", "lose": "push"}
        return {"positions": [{"outcome": flipped[p["outcome"]]} for p in right["positions"]]}
    if kind == "foul-check":
        return {"fouled": not right["fouled"],
                **({"front": question["front"]} if not right["fouled"] else {})}
    if kind == "bonus":
        return {**right, "paid_cents": right["paid_cents"] + 100}
    if "category" in right:
        return {"category": "five_aces" if right["category"] != "five_aces" else "high_card"}
    return {"winner": "b" if right["winner"] != "b" else "a"}


def attempts(app: Flask, session_id: int | None = None) -> list[Attempt]:
    """Return the recorded attempts (all, or one session's), oldest first."""
    with app.app_context():
        query = db.select(Attempt).order_by(Attempt.id)
        if session_id is not None:
            query = query.filter_by(session_id=session_id)
        rows = list(db.session.execute(query).scalars())
        db.session.expunge_all()
        return rows


def age_question(app: Flask, session_id: int, seconds: float, position: int = 1) -> None:
    """Move a question's server clock back, as if it was issued ``seconds`` ago."""
    with app.app_context():
        row = db.session.execute(
            db.select(IssuedQuestion).filter_by(session_id=session_id, position=position)
        ).scalar_one()
        row.issued_at = row.issued_at - timedelta(seconds=seconds)
        db.session.commit()


@pytest.fixture
def signed_in(client: FlaskClient, trainee: Any) -> FlaskClient:
    """Return the client signed in as the trainee."""
    login(client, trainee)
    return client


# --- pages ---------------------------------------------------------------------


def test_drills_page_offers_every_drill_in_three_ways(signed_in: FlaskClient) -> None:
    page = signed_in.get("/drills/").get_data(as_text=True)
    for kind in KINDS:
        for way in ("practice", "timed", "mistakes"):
            assert f'data-start="{kind}-{way}"' in page


def test_trainee_home_links_to_every_drill(signed_in: FlaskClient) -> None:
    page = signed_in.get("/").get_data(as_text=True)
    for kind in KINDS:
        assert f'id="start-{kind}"' in page
    assert "Drills are not available yet" not in page


def test_drills_need_a_sign_in(client: FlaskClient) -> None:
    assert client.get("/drills/").headers["Location"].startswith("/auth/login")


@pytest.mark.parametrize("role", [Role.SUPERVISOR, Role.ADMIN])
def test_supervisors_and_admins_may_play(client: FlaskClient, make_user: Any, role: str) -> None:
    login(client, make_user(role))
    session_id = start(client, "action")
    assert fetch_question(client, session_id).get_json()["position"] == 1


def test_an_unknown_drill_is_404(signed_in: FlaskClient) -> None:
    assert post_form(signed_in, "/drills/poker/start", {"mode": "timed"}).status_code == 404


# --- questions -----------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_question_never_carries_the_answer_key(app: Flask, signed_in: FlaskClient, kind: str) -> None:
    session_id = start(signed_in, kind)
    data = fetch_question(signed_in, session_id).get_json()
    question, _context = issued(app, session_id)
    steps = len(getattr(get_drill(kind), "steps", ())) or 1  # a round's steps come whole
    assert data["position"] == 1 and data["length"] == -(-20 // steps) * steps
    assert data["kind"] == kind
    assert data["time_limit_ms"] == get_drill(kind).default_time_limit_s * 1000
    assert data["hint"] is None
    body = str(data)
    assert "correct" not in body and "explanation" not in body and str(question["seed"]) not in body
    assert attempts(app) == []


def test_the_question_replays_from_its_seed(app: Flask, signed_in: FlaskClient) -> None:
    session_id = start(signed_in, "house-way")
    fetch_question(signed_in, session_id)
    question, context = issued(app, session_id)
    drill = get_drill("house-way")
    assert drill.question_json(new_question("house-way", question["seed"], context)) == question
    assert new_question("house-way", question["seed"], context) == drill.read_question(question)


def test_reloading_shows_the_same_question_on_the_same_clock(app: Flask, signed_in: FlaskClient) -> None:
    session_id = start(signed_in, "house-way")
    first = fetch_question(signed_in, session_id).get_json()
    age_question(app, session_id, 12)
    again = fetch_question(signed_in, session_id).get_json()
    assert again["html"] == first["html"]
    assert again["position"] == 1
    assert again["remaining_ms"] <= 18_000


def test_group_settings_set_length_and_time_limit(app: Flask, client: FlaskClient, make_user: Any,
                                                  supervisor: Any) -> None:
    with app.app_context():
        group = Group(
            name="Swing", supervisor_id=supervisor.id, house_way="trump-plaza", profile="nevada",
            settings={"drills": {"action": {"length": 3, "time_limit_s": 7}}},
        )
        db.session.add(group)
        db.session.commit()
        group_id = group.id
    login(client, make_user(Role.TRAINEE, group_id=group_id))
    session_id = start(client, "action")
    data = fetch_question(client, session_id).get_json()
    assert (data["length"], data["time_limit_ms"]) == (3, 7000)
    with app.app_context():
        assert db.session.get(DrillSession, session_id).group_id == group_id


def test_practice_has_no_clock_and_hints_at_the_rule_family_in_words(
        app: Flask, signed_in: FlaskClient) -> None:
    session_id = start(signed_in, "house-way", mode="practice")
    data = fetch_question(signed_in, session_id).get_json()
    assert data["time_limit_ms"] is None and data["remaining_ms"] is None
    stored, context = issued(app, session_id)
    question = get_drill("house-way").read_question(stored)
    rule = get_drill("house-way").rule_of(question, context)
    # The family in words and what the group's way does with the hand (issues 16, 27),
    # made from its deciding rule; never the rule's id.
    assert data["hint"] == str(get_drill("house-way").hint(rule, question, context))
    assert " in front" in data["hint"] or "straight or flush" in data["hint"]
    assert f"(rule {context.way.rule(rule).number}: " in data["hint"]
    assert rule not in data["hint"]


# --- answers -------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_a_right_answer_is_recorded_as_correct(app: Flask, signed_in: FlaskClient, trainee: Any,
                                               kind: str) -> None:
    session_id = start(signed_in, kind)
    fetch_question(signed_in, session_id)
    answer = right_answer(app, session_id)
    response = send_answer(signed_in, session_id, 1, answer)
    data = response.get_json()
    assert response.status_code == 200, data
    assert data["status"] == "recorded" and data["correct"] is True and data["timed_out"] is False
    assert data["rule_id"] and data["explanation"] and "Right" in data["html"]
    [attempt] = attempts(app, session_id)
    question, _context = issued(app, session_id)
    assert attempt.correct and not attempt.timed_out
    assert (attempt.user_id, attempt.position, attempt.kind) == (trainee.id, 1, kind)
    assert attempt.seed == question["seed"]
    assert attempt.answer == answer
    assert attempt.rule_id == data["rule_id"]
    assert attempt.correct_answer == data["correct_answer"]
    assert 0 <= attempt.elapsed_ms < 5000


@pytest.mark.parametrize("kind", KINDS)
def test_a_wrong_answer_is_recorded_with_the_right_one(app: Flask, signed_in: FlaskClient, kind: str) -> None:
    session_id = start(signed_in, kind)
    fetch_question(signed_in, session_id)
    answer = wrong_answer(app, session_id)
    data = send_answer(signed_in, session_id, 1, answer).get_json()
    assert data["correct"] is False and data["timed_out"] is False
    assert "Wrong" in data["html"]
    [attempt] = attempts(app, session_id)
    assert not attempt.correct and attempt.answer == answer
    assert attempt.correct_answer == data["correct_answer"]


def test_house_way_feedback_shows_setting_rule_and_sheet_sentence(app: Flask, signed_in: FlaskClient) -> None:
    session_id = start(signed_in, "house-way")
    fetch_question(signed_in, session_id)
    stored, context = issued(app, session_id)
    key = get_drill("house-way").key(get_drill("house-way").read_question(stored), context)
    data = send_answer(signed_in, session_id, 1, wrong_answer(app, session_id)).get_json()
    assert data["correct_answer"]["front"] == [str(c) for c in key.front]
    assert data["rule_id"] == key.rule
    assert key.explanation in data["html"] and key.rule in data["html"]
    assert f'data-card="{key.front[0]}"' in data["html"]


def test_settlement_is_graded_per_position_with_amounts(app: Flask, signed_in: FlaskClient) -> None:
    session_id = start(signed_in, "settlement")
    fetch_question(signed_in, session_id)
    answer = right_answer(app, session_id)
    winners = [p for p in answer["positions"] if p["outcome"] == "win"]
    if winners:
        winners[0]["paid_cents"] += 25
    data = send_answer(signed_in, session_id, 1, answer).get_json()
    assert data["correct"] is (not winners)
    assert len(data["parts"]) == len(answer["positions"])
    assert sum(not p["correct"] for p in data["parts"]) == (1 if winners else 0)


def test_an_answer_after_the_limit_is_recorded_as_timed_out(app: Flask, signed_in: FlaskClient) -> None:
    session_id = start(signed_in, "action")
    fetch_question(signed_in, session_id)
    age_question(app, session_id, 10 + drill_service.GRACE_MS / 1000 + 1)
    answer = right_answer(app, session_id)
    data = send_answer(signed_in, session_id, 1, answer).get_json()
    assert data["timed_out"] is True and data["correct"] is False
    assert "Time is up" in data["html"]
    [attempt] = attempts(app, session_id)
    assert attempt.timed_out and not attempt.correct and attempt.answer == answer
    assert attempt.elapsed_ms > 11_000


def test_an_answer_within_the_grace_still_counts(app: Flask, signed_in: FlaskClient) -> None:
    session_id = start(signed_in, "action")
    fetch_question(signed_in, session_id)
    age_question(app, session_id, 10.2)
    data = send_answer(signed_in, session_id, 1, right_answer(app, session_id)).get_json()
    assert data["timed_out"] is False and data["correct"] is True


def test_the_clock_running_out_records_a_timed_out_attempt(app: Flask, signed_in: FlaskClient) -> None:
    session_id = start(signed_in, "settlement")
    fetch_question(signed_in, session_id)
    data = send_answer(signed_in, session_id, 1, None).get_json()
    assert data["timed_out"] is True and data["correct"] is False
    assert not any(part["correct"] for part in data["parts"])
    [attempt] = attempts(app, session_id)
    assert attempt.timed_out and attempt.answer is None and attempt.correct_answer == data["correct_answer"]


def test_practice_refuses_an_empty_answer(app: Flask, signed_in: FlaskClient) -> None:
    session_id = start(signed_in, "action", mode="practice")
    fetch_question(signed_in, session_id)
    response = send_answer(signed_in, session_id, 1, None)
    assert response.status_code == 400
    assert response.get_json()["message"] == "Choose an answer first."
    assert attempts(app) == []


def test_submitting_twice_records_once(app: Flask, signed_in: FlaskClient) -> None:
    session_id = start(signed_in, "action")
    fetch_question(signed_in, session_id)
    answer = right_answer(app, session_id)
    assert send_answer(signed_in, session_id, 1, answer).status_code == 200
    again = send_answer(signed_in, session_id, 1, wrong_answer(app, session_id))
    assert again.status_code == 409
    assert again.get_json()["message"] == "This question is already answered."
    [attempt] = attempts(app, session_id)
    assert attempt.answer == answer and attempt.correct


def test_a_racing_double_submit_is_caught_by_the_unique_constraint(app: Flask, signed_in: FlaskClient,
                                                                   trainee: Any,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    session_id = start(signed_in, "action")
    fetch_question(signed_in, session_id)
    answer = right_answer(app, session_id)
    with app.app_context():
        drill_service.answer_question(trainee.id, session_id, 1, answer)
        # The second request passed the "already answered?" check before the first committed.
        load = store.load
        monkeypatch.setattr(store, "load", lambda *args: load(*args)._replace(answered=False))
        with pytest.raises(drill_service.AlreadyAnswered):
            drill_service.answer_question(trainee.id, session_id, 1, answer)
    assert len(attempts(app, session_id)) == 1


def test_someone_elses_question_is_not_found(app: Flask, client: FlaskClient, trainee: Any, make_user: Any,
                                             group: int) -> None:
    login(client, trainee)
    session_id = start(client, "action")
    fetch_question(client, session_id)
    answer = right_answer(app, session_id)
    other = app.test_client()
    login(other, make_user(Role.TRAINEE, group_id=group))
    response = send_answer(other, session_id, 1, answer)
    assert response.status_code == 404
    assert fetch_question(other, session_id).status_code == 404
    assert other.get(f"/drills/sessions/{session_id}").status_code == 404
    assert other.get(f"/drills/sessions/{session_id}/summary").status_code == 404
    assert attempts(app) == []


@pytest.mark.parametrize("payload_answer, position, message", [
    ({"front": ["Zz", "Kd"]}, 1, "Zz is not a card"),
    ({}, 1, "missing 'front'"),
    ("sideways", 1, "must be a JSON object"),
    ({"front": ["As", "Ks", "Qs"]}, 1, "2 cards"),
    ({"front": ["As", "Ks"]}, "1", "question number"),
])
def test_a_malformed_answer_gets_a_clear_error_and_records_nothing(
    app: Flask, signed_in: FlaskClient, payload_answer: Any, position: Any, message: str
) -> None:
    session_id = start(signed_in, "house-way")
    fetch_question(signed_in, session_id)
    response = send_answer(signed_in, session_id, position, payload_answer)
    assert response.status_code == 400
    assert message in response.get_json()["message"]
    assert attempts(app) == []
    # The question stays open for a proper answer.
    assert send_answer(signed_in, session_id, 1, right_answer(app, session_id)).status_code == 200


def test_a_body_that_is_not_json_records_nothing(app: Flask, signed_in: FlaskClient) -> None:
    session_id = start(signed_in, "action")
    fetch_question(signed_in, session_id)
    token = csrf_token(signed_in, "/drills/")
    response = signed_in.post(
        f"/drills/sessions/{session_id}/answer", data="seat=3", headers={"X-CSRFToken": token}
    )
    # A form body at a JSON endpoint is the wrong kind of body (issue 24): 415, in words.
    assert response.status_code == 415
    assert "application/json" in response.get_json()["message"]
    assert attempts(app) == []


def test_a_question_not_yet_issued_cannot_be_answered(app: Flask, signed_in: FlaskClient) -> None:
    session_id = start(signed_in, "action")
    # Prepared but never shown: its clock has not started.
    assert send_answer(signed_in, session_id, 1, {"seat": 1}).status_code == 404
    fetch_question(signed_in, session_id)
    assert send_answer(signed_in, session_id, 2, {"seat": 1}).status_code == 404
    assert attempts(app) == []


def test_an_answer_without_the_csrf_header_is_refused(app: Flask, signed_in: FlaskClient) -> None:
    session_id = start(signed_in, "action")
    fetch_question(signed_in, session_id)
    response = signed_in.post(
        f"/drills/sessions/{session_id}/answer", json={"position": 1, "answer": {"seat": 1}}
    )
    assert response.status_code == 400
    assert attempts(app) == []


# --- sessions, summary, mistakes, exam -----------------------------------------


def play_through(app: Flask, client: FlaskClient, session_id: int, length: int, wrong_at: set[int]) -> None:
    """Answer every question of a session, wrongly at the given positions."""
    for position in range(1, length + 1):
        data = fetch_question(client, session_id).get_json()
        assert data["position"] == position
        answer = (wrong_answer if position in wrong_at else right_answer)(app, session_id, position)
        assert send_answer(client, session_id, position, answer).status_code == 200


def test_a_whole_session_ends_in_a_summary(app: Flask, client: FlaskClient, make_user: Any, supervisor: Any,
                                           make_group: Any) -> None:
    group_id = make_group(supervisor.id, name="Short")
    with app.app_context():
        db.session.get(Group, group_id).settings = {"drills": {"action": {"length": 4}}}
        db.session.commit()
    login(client, make_user(Role.TRAINEE, group_id=group_id))
    session_id = start(client, "action")
    play_through(app, client, session_id, 4, wrong_at={2})
    assert fetch_question(client, session_id).get_json() == {
        "finished": True, "summary_url": f"/drills/sessions/{session_id}/summary"
    }
    summary = f"/drills/sessions/{session_id}/summary"
    assert client.get(f"/drills/sessions/{session_id}").headers["Location"] == summary
    page = client.get(f"/drills/sessions/{session_id}/summary").get_data(as_text=True)
    assert 'id="score">3 / 4<' in page and 'id="accuracy">75%<' in page
    wrong = attempts(app, session_id)[1]
    assert wrong.rule_id in page
    with app.app_context():
        result = drill_service.summary(session_id)
        assert (result.score, result.answered, result.finished) == (3, 4, True)
        assert [a.position for a in result.mistakes] == [2]
        assert result.rules_missed == [(wrong.rule_id, 1)]
        assert result.median_ms is not None


def test_every_attempt_replays_and_regrades(app: Flask, signed_in: FlaskClient) -> None:
    for kind in KINDS:
        session_id = start(signed_in, kind)
        fetch_question(signed_in, session_id)
        send_answer(signed_in, session_id, 1, wrong_answer(app, session_id))
    with app.app_context():
        for attempt in db.session.execute(db.select(Attempt)).scalars():
            grade = drill_service.regrade(attempt)
            assert (grade.correct, grade.rule_id, grade.correct_answer) == (
                attempt.correct, attempt.rule_id, attempt.correct_answer
            )


def test_my_mistakes_draws_from_the_rules_missed(app: Flask, signed_in: FlaskClient, trainee: Any) -> None:
    first = start(signed_in, "house-way")
    fetch_question(signed_in, first)
    send_answer(signed_in, first, 1, wrong_answer(app, first))
    missed = attempts(app, first)[0].rule_id
    focused = start(signed_in, "house-way", mode="practice", focus="mistakes")
    _question, context = issued(app, focused)
    assert context.focus_rules == (missed,)
    with app.app_context():
        assert drill_service.missed_rules(trainee.id, "house-way") == (missed,)


def test_my_mistakes_with_none_says_so(app: Flask, signed_in: FlaskClient) -> None:
    response = post_form(signed_in, "/drills/action/start", {"mode": "practice", "focus": "mistakes"},
                         follow_redirects=True)
    assert "No recent mistakes" in response.get_data(as_text=True)


def test_an_exam_records_without_feedback_until_the_end(app: Flask, signed_in: FlaskClient,
                                                        trainee: Any) -> None:
    with app.app_context():
        session_id = drill_service.start_session(trainee.id, "action", "exam", length=2, time_limit_s=15)
    data = fetch_question(signed_in, session_id).get_json()
    assert data["mode"] == "exam" and data["time_limit_ms"] == 15_000 and data["hint"] is None
    reply = send_answer(signed_in, session_id, 1, wrong_answer(app, session_id)).get_json()
    assert reply == {"status": "recorded", "position": 1, "length": 2, "finished": False}
    sealed = signed_in.get(f"/drills/sessions/{session_id}/summary").get_data(as_text=True)
    assert 'id="score">—<' in sealed and "Mistakes" not in sealed
    fetch_question(signed_in, session_id)
    reply = send_answer(signed_in, session_id, 2, right_answer(app, session_id, 2)).get_json()
    assert reply["finished"] is True and "correct" not in reply
    page = signed_in.get(f"/drills/sessions/{session_id}/summary").get_data(as_text=True)
    assert 'id="score">1 / 2<' in page and "Mistakes" in page
    assert len(attempts(app, session_id)) == 2


def test_start_session_refuses_an_unknown_mode(app: Flask, trainee: Any) -> None:
    with app.app_context(), pytest.raises(drill_service.DrillError, match="no drill mode"):
        drill_service.start_session(trainee.id, "action", "tournament")


def test_foul_check_under_the_house_way_policy_grades_the_reset(app: Flask, client: FlaskClient,
                                                                make_user: Any, supervisor: Any,
                                                                make_group: Any) -> None:
    group_id = make_group(supervisor.id, name="Resetters")
    with app.app_context():
        db.session.get(Group, group_id).settings = {
            "foul_policy": "house_way", "drills": {"foul-check": {"length": 12}},
        }
        db.session.commit()
    login(client, make_user(Role.TRAINEE, group_id=group_id))
    session_id = start(client, "foul-check")
    play_through(app, client, session_id, 12, wrong_at=set())
    rows = attempts(app, session_id)
    assert all(a.correct for a in rows)
    assert any("reset" in a.correct_answer for a in rows)
    assert all(a.question["context"]["foul_policy"] == "house_way" for a in rows)
