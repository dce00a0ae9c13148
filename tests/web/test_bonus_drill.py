"""The bonus drill on the site: right, wrong and timed out, per part, under each side-bet profile."""
from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape

from trainer.engine.cards import parse_cards
from trainer.engine.side_bets import bonus_category, load_table
from trainer.models import Role
from trainer.services import drills as drill_service
from web.helpers import login
from web.test_drills import age_question, attempts, fetch_question, issued, send_answer, start

# Each profile that offers a bonus bet, and the table its bonus drill pays by.
OFFERED = {"nevada-fortune": "fortune-standard", "nevada-emperors": "emperors-treasure",
           "nevada-progressive": "progressive"}


def signed_in_with(app: Flask, client: FlaskClient, make_user: Any, make_group: Any,
                   supervisor: Any, profile: str) -> FlaskClient:
    group_id = make_group(supervisor.id, name=f"Group {profile}", profile=profile)
    login(client, make_user(Role.TRAINEE, group_id=group_id))
    return client


def key_of(app: Flask, session_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return the issued question and the answer worked out here, from the table's data."""
    question, _context = issued(app, session_id)
    table = load_table(question["table"])
    cards = question.get("cards") or question["back"] + question["front"]
    category = bonus_category(parse_cards(cards, 7), table.match)
    line = table.line_for(category)
    envy = load_table("envy").line_for(category)
    paid = line.win_cents(question["bet_cents"], question.get("meter_cents")) if line else 0
    return question, {"qualifies": envy is not None, "category": category.slug, "paid_cents": paid}


def visible_text(html: str) -> str:
    """Return what a page shows: the text, without tags or attribute values."""
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.parametrize("profile", sorted(OFFERED))
def test_a_right_answer_is_right_in_every_part_under_each_bonus_profile(
        app: Flask, client: FlaskClient, make_user: Any, make_group: Any, supervisor: Any,
        profile: str) -> None:
    signed_in_with(app, client, make_user, make_group, supervisor, profile)
    session_id = start(client, "bonus")
    shown = fetch_question(client, session_id).get_json()
    question, answer = key_of(app, session_id)
    assert question["table"] == OFFERED[profile] and question["offered"] is True
    assert str(escape(load_table(OFFERED[profile]).title)) in shown["html"]
    if profile == "nevada-progressive":
        assert question["bet_cents"] == 100 and question["meter_cents"] > 0
    data = send_answer(client, session_id, 1, answer).get_json()
    assert data["correct"] is True, data
    assert [p["correct"] for p in data["parts"]] == [True, True, True]
    assert all(p["rule_id"].startswith("bonus.") for p in data["parts"])
    assert data["rule_id"].startswith(f"bonus.{OFFERED[profile]}.")
    [attempt] = attempts(app, session_id)
    assert attempt.correct and attempt.rule_id == data["rule_id"]


def test_a_wrong_amount_is_wrong_in_that_part_only_and_said_in_words(
        app: Flask, client: FlaskClient, make_user: Any, make_group: Any, supervisor: Any) -> None:
    signed_in_with(app, client, make_user, make_group, supervisor, "nevada-fortune")
    session_id = start(client, "bonus")
    fetch_question(client, session_id)
    _question, answer = key_of(app, session_id)
    wrong = {**answer, "paid_cents": answer["paid_cents"] + 500}
    data = send_answer(client, session_id, 1, wrong).get_json()
    assert data["correct"] is False
    assert [p["correct"] for p in data["parts"]] == [True, True, False]
    shown = visible_text(data["html"])
    assert "Wrong" in shown and "You answered" in shown
    right = f"${answer['paid_cents'] // 100:,}.{answer['paid_cents'] % 100:02d}"
    assert right in shown
    # Rule ids only in tooltips, never as text on the page.
    assert "bonus.fortune-standard" not in shown
    [attempt] = attempts(app, session_id)
    assert not attempt.correct and attempt.answer == wrong


def test_a_wrong_cue_names_the_envy_line_and_the_pay_sentence_gives_odds_and_amount(
        app: Flask, client: FlaskClient, make_user: Any, make_group: Any, supervisor: Any) -> None:
    signed_in_with(app, client, make_user, make_group, supervisor, "nevada-fortune")
    session_id = start(client, "bonus")
    fetch_question(client, session_id)
    question, answer = key_of(app, session_id)
    data = send_answer(client, session_id, 1, {**answer, "qualifies": not answer["qualifies"]}).get_json()
    assert [p["correct"] for p in data["parts"]] == [False, True, True]
    assert data["parts"][0]["rule_id"].startswith("bonus.envy.")
    line = load_table("fortune-standard").line_for(
        bonus_category(parse_cards(question.get("cards") or question["back"] + question["front"], 7)))
    if line is not None:
        assert f"pays {line.odds:,} to 1" in data["explanation"]
    else:
        assert "pays nothing" in data["explanation"]


def test_an_answer_after_the_limit_is_timed_out_and_wrong(
        app: Flask, client: FlaskClient, make_user: Any, make_group: Any, supervisor: Any) -> None:
    signed_in_with(app, client, make_user, make_group, supervisor, "nevada-fortune")
    session_id = start(client, "bonus", "timed")
    fetch_question(client, session_id)
    _question, answer = key_of(app, session_id)
    age_question(app, session_id, 20 + drill_service.GRACE_MS / 1000 + 1)
    data = send_answer(client, session_id, 1, answer).get_json()
    assert data["timed_out"] is True and data["correct"] is False
    assert "Time is up" in data["html"]
    [attempt] = attempts(app, session_id)
    assert attempt.timed_out and not attempt.correct


def test_the_clock_running_out_records_every_part_wrong(
        app: Flask, client: FlaskClient, make_user: Any, make_group: Any, supervisor: Any) -> None:
    signed_in_with(app, client, make_user, make_group, supervisor, "nevada-fortune")
    session_id = start(client, "bonus", "timed")
    fetch_question(client, session_id)
    data = send_answer(client, session_id, 1, None).get_json()
    assert data["timed_out"] is True and data["correct"] is False
    [attempt] = attempts(app, session_id)
    assert attempt.timed_out and attempt.answer is None


@pytest.mark.parametrize("profile", ["nevada", "ez"])
def test_a_profile_without_a_bonus_bet_drills_the_standard_table_and_says_so(
        app: Flask, client: FlaskClient, make_user: Any, make_group: Any, supervisor: Any,
        profile: str) -> None:
    signed_in_with(app, client, make_user, make_group, supervisor, profile)
    session_id = start(client, "bonus")
    shown = fetch_question(client, session_id).get_json()
    question, answer = key_of(app, session_id)
    assert question["table"] == "fortune-standard" and question["offered"] is False
    assert "offers no bonus bet" in shown["html"]
    data = send_answer(client, session_id, 1, answer).get_json()
    assert data["correct"] is True
    assert "offers no bonus bet" in data["explanation"]


@pytest.mark.parametrize("answer,message", [
    ({"qualifies": True, "category": "flush"}, "amount paid"),
    ({"qualifies": None, "category": "flush", "paid_cents": 0}, "does this qualify"),
    ({"qualifies": True, "category": "two-pair", "paid_cents": 0}, "Name the bonus hand"),
    ({"qualifies": True, "category": "flush", "paid_cents": 12.5}, "0 when the bonus bet loses"),
    ({"qualifies": True, "category": "flush", "paid_cents": -1}, "0 when the bonus bet loses"),
])
def test_a_malformed_answer_gets_a_clear_message_and_records_nothing(
        app: Flask, client: FlaskClient, make_user: Any, make_group: Any, supervisor: Any,
        answer: dict[str, Any], message: str) -> None:
    signed_in_with(app, client, make_user, make_group, supervisor, "nevada-fortune")
    session_id = start(client, "bonus", "practice")
    fetch_question(client, session_id)
    response = send_answer(client, session_id, 1, answer)
    assert response.status_code == 400
    assert message in response.get_json()["message"]
    assert attempts(app, session_id) == []
