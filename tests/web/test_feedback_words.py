"""Feedback that names the trainee's own mistake, attempts drawn (never dumped), verdicts that
match their parts, the trainee's own progress and "drill my mistakes" for every kind (issue 16,
items 1, 3, 4 and 5)."""
from __future__ import annotations

import html as html_lib
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.drills import DRILLS, DrillContext, get_drill, new_question
from trainer.engine.house_way import load
from trainer.extensions import db
from trainer.models import Attempt, DrillSession, IssuedQuestion
from trainer.services import drills as drill_service
from web.helpers import csrf_token, login, post_form
from web.test_drills import right_answer
from web.wrong_answers import no_json_and_no_rule_id, visible, wrong_answer

KINDS = tuple(DRILLS)


# --- helpers -------------------------------------------------------------------

def start(client: FlaskClient, kind: str, mode: str = "practice", **form: str) -> int:
    response = post_form(client, f"/drills/{kind}/start", {"mode": mode, **form})
    assert response.status_code == 302
    return int(response.headers["Location"].rsplit("/", 1)[1])


def post(client: FlaskClient, path: str, body: dict[str, Any]) -> Any:
    return client.post(path, json=body, headers={"X-CSRFToken": csrf_token(client, "/drills/")})


def issued(app: Flask, session_id: int, position: int) -> tuple[dict[str, Any], DrillContext]:
    with app.app_context():
        row = db.session.execute(
            db.select(IssuedQuestion).filter_by(session_id=session_id, position=position)
        ).scalar_one()
        return dict(row.question), DrillContext.from_dict(row.context)


def answer_in_turn(app: Flask, kind: str, session_id: int, position: int,
                   right: bool) -> dict[str, Any]:
    """Return the right answer to the issued question at ``position`` (``right_answer``) or
    the kind's own wrong one (``wrong_answers.wrong_answer``)."""
    if right:
        return right_answer(app, session_id, position)
    question, context = issued(app, session_id, position)
    answer, _ = wrong_answer(kind, question, drill_service.answer_key(question, context), context)
    return answer


def answer_wrong(app: Flask, client: FlaskClient, kind: str) -> tuple[dict[str, Any], list[str], int]:
    """Start a practice session of ``kind``, answer its first question wrong; return the reply."""
    session_id = start(client, kind)
    assert post(client, f"/drills/sessions/{session_id}/question", {}).status_code == 200
    question, context = issued(app, session_id, 1)
    key = drill_service.answer_key(question, context)
    answer, expected = wrong_answer(kind, question, key, context)
    reply = post(client, f"/drills/sessions/{session_id}/answer", {"position": 1, "answer": answer})
    assert reply.status_code == 200, reply.get_json()
    return reply.get_json(), expected, session_id


def attempt_of(app: Flask, session_id: int, position: int = 1) -> Attempt:
    with app.app_context():
        attempt = db.session.execute(
            db.select(Attempt).filter_by(session_id=session_id, position=position)).scalar_one()
        db.session.expunge(attempt)
        return attempt


# --- item 1: feedback names the mistake ----------------------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_feedback_names_the_wrong_answer_and_the_right_one_in_words(
        app: Flask, client: FlaskClient, trainee: Any, kind: str) -> None:
    login(client, trainee)
    data, expected, _ = answer_wrong(app, client, kind)
    assert data["correct"] is False
    page = data["html"]
    text = visible(page)
    assert 'data-correct="no"' in page
    sentence = re.search(r'<p class="verdict-sentence">(.*?)</p>', page, re.S)
    assert sentence is not None, page
    said = html_lib.unescape(sentence.group(1))
    for words_expected in expected:
        assert words_expected in text, (words_expected, said)
    # What they said and what was right, both in words, and why (a sentence, not an id).
    feedback = data["feedback"]
    assert feedback["said"] and feedback["right"] and feedback["said"] in said
    assert feedback["right"] in said
    assert feedback["why"] and feedback["why"] in text
    no_json_and_no_rule_id(page, [data["rule_id"]])


def test_a_house_way_mistake_quotes_its_sheet_rule_and_links_to_its_line(
        app: Flask, client: FlaskClient, trainee: Any) -> None:
    login(client, trainee)
    data, _, session_id = answer_wrong(app, client, "house-way")
    _question, context = issued(app, session_id, 1)

    rule = load(context.house_way).rule(data["correct_answer"]["rule"])
    assert f"{rule.number}: {rule.text}" in visible(data["html"])
    link = f'/house-way/{context.house_way}#rule-{rule.id}'
    assert link in data["html"], re.findall(r'href="[^"]*"', data["html"])
    # The sheet has that anchor.
    sheet = client.get(f"/house-way/{context.house_way}").get_data(as_text=True)
    assert f'id="rule-{rule.id}"' in sheet


def test_a_settlement_amount_mistake_says_what_was_paid_and_why(
        app: Flask, client: FlaskClient, trainee: Any) -> None:
    """Paid $50.00 on a $50 bet: even money less 5% commission is $47.50."""
    login(client, trainee)
    for _ in range(30):
        session_id = start(client, "settlement")
        post(client, f"/drills/sessions/{session_id}/question", {})
        question, context = issued(app, session_id, 1)
        key = drill_service.answer_key(question, context)
        wins = [i for i, p in enumerate(key["positions"]) if p["outcome"] == "win"]
        if wins:
            break
    else:
        pytest.fail("no table with a winner")
    i = wins[0]
    bet = question["positions"][i]["bet_cents"]
    positions = [{"outcome": p["outcome"], "paid_cents": p["paid_cents"]} for p in key["positions"]]
    positions[i]["paid_cents"] = bet
    data = post(client, f"/drills/sessions/{session_id}/answer",
                {"position": 1, "answer": {"positions": positions}}).get_json()
    text = visible(data["html"])
    right = bet - (bet * 5 + 50) // 100
    seat = key["positions"][i]["seat"]
    assert f"You paid seat {seat} ${bet // 100}.{bet % 100:02d}" in text
    assert f"even money less 5% commission is ${right // 100}.{right % 100:02d}" in text
    assert f"Wrong: seat {seat}" in text


def test_the_practice_hint_names_the_family_in_words_and_what_to_look_at(
        app: Flask, client: FlaskClient, trainee: Any) -> None:
    login(client, trainee)
    session_id = start(client, "house-way")
    hint = post(client, f"/drills/sessions/{session_id}/question", {}).get_json()["hint"]
    question, context = issued(app, session_id, 1)
    rule = drill_service.answer_key(question, context)["rule"]
    family = rule.split(".")[0]
    # What the way's deciding rule does with the hand (issue 27), in words, never the ids.
    assert hint and f"(rule {context.way.rule(rule).number}: " in hint
    assert f"the {family} rules" not in hint and rule not in hint
    assert "-" not in family or family not in hint


# --- item 4: a verdict that matches its parts ------------------------------------

def steered_round(app: Flask, client: FlaskClient, make_attempt: Any, trainee: Any, rule: str) -> int:
    make_attempt(trainee.id, correct=False, rule_id=rule, kind="round")
    return start(client, "round", focus="mistakes")


def test_drill_my_mistakes_steers_a_round(
        app: Flask, client: FlaskClient, make_attempt: Any, trainee: Any) -> None:
    login(client, trainee)
    make_attempt(trainee.id, correct=False, rule_id="round.settle.banker-commission", kind="round")
    home = client.get("/").get_data(as_text=True)
    assert 'data-drill-mistakes="round"' in home
    for _ in range(5):
        session_id = start(client, "round", focus="mistakes")
        post(client, f"/drills/sessions/{session_id}/question", {})
        question, context = issued(app, session_id, 1)
        assert "round.settle.banker-commission" in context.focus_rules
        assert question["banker_seat"] != 1, "a player-banker round was asked for"


def test_only_the_player_bankers_commission_wrong_is_named_in_the_headline(
        app: Flask, client: FlaskClient, make_attempt: Any, trainee: Any) -> None:
    login(client, trainee)
    session_id = steered_round(app, client, make_attempt, trainee, "round.settle.banker-commission")
    for position in (1, 2, 3):
        post(client, f"/drills/sessions/{session_id}/question", {})
        question, context = issued(app, session_id, position)
        key = drill_service.answer_key(question, context)
        if position == 1:
            answer: dict[str, Any] = {"seat": key["seat"]}
        elif position == 2:
            answer = {"front": key["front"]}
        else:
            assert "banker_commission_cents" in key
            answer = {"order": key["order"],
                      "banker_commission_cents": key["banker_commission_cents"] + 100}
        data = post(client, f"/drills/sessions/{session_id}/answer",
                    {"position": position, "answer": answer}).get_json()
    assert data["correct"] is False
    page = data["html"]
    headline = visible(re.search(r'<strong class="verdict-word">(.*?)</strong>', page, re.S).group(1))
    assert headline.strip() == "Wrong: the player-banker's commission"
    parts = [(html_lib.unescape(name), ok)
             for name, ok in re.findall(r'data-part="([^"]+)" data-correct="(yes|no)"', page)]
    seats = [p for p in parts if p[0].startswith("seat ")]
    assert seats and all(ok == "yes" for _, ok in seats)
    assert ("the player-banker's commission", "no") in parts
    paid = key["banker_commission_cents"] + 100
    assert f"You charged the player-banker ${paid // 100}.{paid % 100:02d}" in visible(page)


# --- item 3: every stored attempt is drawn, never dumped --------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_result_trainee_page_and_replay_draw_every_kind_without_json_or_rule_ids(
        app: Flask, client: FlaskClient, trainee: Any, supervisor: Any, kind: str) -> None:
    login(client, trainee)
    positions = len(get_drill(kind).steps) or 1
    session_id = start(client, kind)
    attempts = []
    for position in range(1, positions + 1):
        post(client, f"/drills/sessions/{session_id}/question", {})
        question, context = issued(app, session_id, position)
        key = drill_service.answer_key(question, context)
        answer, _ = wrong_answer(kind, question, key, context)
        assert post(client, f"/drills/sessions/{session_id}/answer",
                    {"position": position, "answer": answer}).status_code == 200
        attempts.append(attempt_of(app, session_id, position))
    rule_ids = [a.rule_id for a in attempts if a.rule_id]
    for attempt in attempts:
        page = client.get(f"/results/{attempt.id}").get_data(as_text=True)
        assert 'class="attempt-view"' in page and 'class="verdict-sentence"' in page
        assert "Your answer" in page and "Right answer" in page
        no_json_and_no_rule_id(page, rule_ids)
    summary = client.get(f"/drills/sessions/{session_id}/summary").get_data(as_text=True)
    no_json_and_no_rule_id(summary, rule_ids)
    client.post("/auth/logout", headers={"X-CSRFToken": csrf_token(client, "/")})
    login(client, supervisor)
    page = client.get(f"/supervisor/trainees/{trainee.id}").get_data(as_text=True)
    mistakes = re.search(r'id="mistakes".*?</table>', page, re.S)
    assert mistakes is not None
    no_json_and_no_rule_id(mistakes.group(0), rule_ids)
    for attempt in attempts:
        replay = client.get(f"/supervisor/attempts/{attempt.id}/replay").get_data(as_text=True)
        assert 'class="answers-side"' in replay and 'class="verdict-sentence"' in replay
        no_json_and_no_rule_id(replay, rule_ids)


@pytest.mark.parametrize("kind", KINDS)
def test_old_attempts_of_generator_1_are_drawn_too(
        app: Flask, client: FlaskClient, trainee: Any, kind: str) -> None:
    drill = get_drill(kind)
    context = DrillContext(generator=1)
    question = new_question(kind, 7, context)
    if drill.steps:
        question = drill.at_step(question, len(drill.steps) - 1, context)
    grade = drill.grade(question, drill.probe(question), context)
    issued_at = datetime(2025, 1, 2, 9, 0, tzinfo=UTC)
    with app.app_context():
        session = DrillSession(user_id=trainee.id, kind=kind, mode="practice", length=1,
                               house_way=context.house_way, profile=context.profile)
        context_dict = context.as_dict()
        del context_dict["generator"]  # stored before generators were numbered
        attempt = Attempt(session=session, user_id=trainee.id, kind=kind, seed=7,
                          position=len(drill.steps) or 1,
                          # The row as the services store it: each value's JSON.
                          question={**drill.question_json(question), "context": context_dict},
                          answer=drill.answer_json(drill.probe(question)),
                          correct_answer=drill.key_json(grade.correct_answer),
                          correct=grade.correct, timed_out=False, rule_id=grade.rule_id,
                          issued_at=issued_at, answered_at=issued_at + timedelta(seconds=3),
                          elapsed_ms=3000)
        db.session.add_all([session, attempt])
        db.session.commit()
        attempt_id = attempt.id
    login(client, trainee)
    page = client.get(f"/results/{attempt_id}").get_data(as_text=True)
    assert "can no longer be drawn" not in page and "Unreadable" not in page
    assert 'class="verdict-sentence"' in page
    no_json_and_no_rule_id(page, [grade.rule_id])


# --- item 5: the trainee's own progress -----------------------------------------

def test_the_trainee_home_shows_progress_against_the_criteria_and_the_rules_missed(
        app: Flask, client: FlaskClient, trainee: Any) -> None:
    start_at = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
    with app.app_context():
        session = DrillSession(user_id=trainee.id, kind="house-way", mode="timed", length=10,
                               house_way="trump-plaza", profile="nevada")
        db.session.add(session)
        for i in range(10):
            wrong = i < 2
            db.session.add(Attempt(
                session=session, user_id=trainee.id, kind="house-way", seed=i, position=i + 1,
                question={"cards": ["As"], "context": {"house_way": "trump-plaza"}},
                answer=None, correct_answer={}, correct=not wrong, timed_out=False,
                rule_id="two-pair.split.always" if wrong else "one-pair.standard",
                issued_at=start_at + timedelta(minutes=i),
                answered_at=start_at + timedelta(minutes=i, seconds=4), elapsed_ms=4000))
        db.session.commit()
    login(client, trainee)
    page = client.get("/").get_data(as_text=True)
    progress = re.search(r'id="my-progress".*?</section>', page, re.S).group(0)
    row = re.search(r'<tr data-kind="house-way">.*?</tr>', progress, re.S).group(0)
    text = " ".join(visible(row).split())
    # 8 of 10 right against 98%; 4.0 s against 8 s; 90 more answers fill the window of 100.
    assert "80%" in text and "/ 98%" in text
    assert "4.0 s" in text and "/ 8 s" in text
    assert "90 more timed answers" in text and "accuracy of 98%" in text
    assert 'data-drill-mistakes="house-way"' in row
    missed = re.search(r'id="missed-rules".*?</ol>', progress, re.S).group(0)
    assert "× 2" in visible(missed)
    assert 'data-rule="two-pair.split.always"' in missed
    no_json_and_no_rule_id(progress, ["two-pair.split.always", "one-pair.standard"])
    assert "left to certify" in visible(progress)


def test_the_printable_report_draws_the_latest_mistakes_in_words(
        app: Flask, client: FlaskClient, trainee: Any, supervisor: Any) -> None:
    login(client, trainee)
    data, _, session_id = answer_wrong(app, client, "settlement")
    attempt = attempt_of(app, session_id)
    client.post("/auth/logout", headers={"X-CSRFToken": csrf_token(client, "/")})
    login(client, supervisor)
    page = client.get(f"/supervisor/trainees/{trainee.id}/report?period=all").get_data(as_text=True)
    section = re.search(r'id="report-mistakes".*?</section>', page, re.S)
    assert section is not None
    assert data["feedback"]["sentence"] in html_lib.unescape(section.group(0))
    assert 'class="card' in section.group(0)
    no_json_and_no_rule_id(section.group(0), [attempt.rule_id])
