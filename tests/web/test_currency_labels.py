"""The currency is an installation setting (issue 19, item 3): no "$" or "dollars" hard-coded.

A reader at a euro installation reading Spanish sees euros in the reader's number format on
every label, help line and accessible name that names money: the table-rules form (its
labels, its help and its rounding choices), the player's table (its rules line, its pay
chart and its keyboard help), the settlement and round drills' amount fields and the side
bets' line. An English reader at a dollar installation reads them as before where the words
did not need to change.
"""
from __future__ import annotations

import html as html_lib
import random
import re
from types import SimpleNamespace
from typing import Any

import pytest
from flask import Flask, render_template
from flask.testing import FlaskClient

from trainer.engine.drills import DrillContext
from trainer.engine.drills.base import get_drill
from trainer.extensions import db
from trainer.models import GameHand, Group, InstallationSetting, Role, User
from trainer.services.table import side_bet_row
from trainer.web.trainee import drills as drill_pages
from trainer.web.words.engine_words import message_words
from web.helpers import login
from web.test_drills import fetch_question, start

DOLLAR = re.compile(r"\$|dollar|dólar", re.I)
ARIA = re.compile(r'aria-label="([^"]*)"')


def _set_installation(app: Flask, **values: str) -> None:
    with app.app_context():
        for key, value in values.items():
            db.session.merge(InstallationSetting(key=key, value=value))
        db.session.commit()


def _speak(app: Flask, user_id: int, code: str) -> None:
    with app.app_context():
        db.session.get_one(User, user_id).language = code
        db.session.commit()


def _group_profile(app: Flask, group_id: int, profile: str) -> None:
    with app.app_context():
        db.session.get_one(Group, group_id).profile = profile
        db.session.commit()


def _text(page: str) -> str:
    """The page's words as read: tags dropped, entities and spaces as one space."""
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", page))).replace(
        "\u00a0", " ")


def _no_dollar(where: str, text: str) -> None:
    found = DOLLAR.search(text)
    assert found is None, f"{where}: {text[max(0, found.start() - 80):found.end() + 80]!r}"


def _euro_spanish(app: Flask, user_id: int) -> None:
    _set_installation(app, currency="EUR")
    _speak(app, user_id, "es")


@pytest.fixture
def manager(make_user: Any) -> Any:
    return make_user(Role.MANAGER, login="floor-boss", name="Pat Floor")


def _profile_form(client: FlaskClient) -> str:
    response = client.get("/manager/profiles/new")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def _labels(page: str) -> list[str]:
    return [_text(label) for label in re.findall(r"<label[^>]*>(.*?)</label>", page, re.S)]


def _help(page: str) -> str:
    match = re.search(r'<p class="muted">(.*?)</p>', page, re.S)
    assert match, "no help line on the form"
    return _text(match.group(1))


# --- the table-rules form --------------------------------------------------------------

def test_the_profile_forms_labels_and_help_name_the_installations_currency(
    app: Flask, client: FlaskClient, manager: Any
) -> None:
    _euro_spanish(app, manager.id)
    login(client, manager)
    page = _profile_form(client)
    labels = _labels(page)
    for label in labels:
        _no_dollar("label", label)
    # Every amount's label names the euro: the fee, both limits, each side bet's limits.
    amount_labels = [label for label in labels if "€" in label]
    assert len(amount_labels) >= 5, labels
    help_line = _help(page)
    _no_dollar("help", help_line)
    # The examples as a Spanish reader types them, and the currency in words.
    assert "2,50" in help_line and "EUR" in help_line, help_line
    # The rounding choices name no dollar either: a whole euro, as the reader writes it.
    rounding = re.search(r'<select[^>]*name="rounding"[^>]*>(.*?)</select>', page, re.S)
    assert rounding
    choices = _text(rounding.group(1))
    _no_dollar("rounding", choices)
    assert "1 €" in choices and "0,25 €" in choices, choices


def test_the_profile_form_reads_as_before_in_english_with_dollars(
    client: FlaskClient, manager: Any
) -> None:
    login(client, manager)
    page = _profile_form(client)
    labels = _labels(page)
    for expected in ("Flat fee per hand ($)", "Smallest bet ($)", "Largest bet ($)"):
        assert expected in labels, labels
    assert any(re.fullmatch(r"Smallest .+ bet \(\$\)", label) for label in labels), labels
    help_line = _help(page)
    assert "Amounts in USD (such as 25 or 2.50)." in help_line, help_line
    rounding = re.search(r'<select[^>]*name="rounding"[^>]*>(.*?)</select>', page, re.S)
    assert rounding and "$1" in _text(rounding.group(1))


# --- the player's table ----------------------------------------------------------------

def _keyboard_help(page: str) -> str:
    match = re.search(r'<details class="play-keys">(.*?)</details>', page, re.S)
    assert match, "no keyboard help"
    return _text(match.group(1))


def test_the_players_table_writes_its_rules_pay_chart_and_chips_in_euros(
    app: Flask, client: FlaskClient, trainee: Any, group: int
) -> None:
    _group_profile(app, group, "nevada-progressive")  # a fixed bet and amounts paid
    login(client, trainee)
    keys = _keyboard_help(client.get("/play/").get_data(as_text=True))
    assert "Betting: 1-4 add a $1, $5, $25 or $100 chip, Backspace takes the last one off" in keys
    _euro_spanish(app, trainee.id)
    page = client.get("/play/").get_data(as_text=True)
    words = _text(page)
    _no_dollar("the table", words)
    for label in ARIA.findall(page):
        _no_dollar("aria-label", label)
    keys = _keyboard_help(page)
    for chip in ("1 €", "5 €", "25 €", "100 €"):
        assert chip in keys, keys
    rules = re.search(r'<p class="muted play-rules">(.*?)</p>', page, re.S)
    assert rules and "1,00 €" in _text(rules.group(1)), rules and rules.group(1)
    chart = re.search(r'<section class="pay-charts".*?</section>', page, re.S)
    assert chart and "€" in _text(chart.group(0))


def test_the_players_rules_line_describes_a_flat_fee_in_the_readers_money(
    app: Flask, client: FlaskClient, trainee: Any, group: int
) -> None:
    _group_profile(app, group, "california")
    login(client, trainee)
    english = client.get("/play/").get_data(as_text=True)
    rules = re.search(r'<p class="muted play-rules">(.*?)</p>', english, re.S)
    assert rules and "Flat fee of $1.00 per hand" in _text(rules.group(1))
    _euro_spanish(app, trainee.id)
    spanish = client.get("/play/").get_data(as_text=True)
    rules = re.search(r'<p class="muted play-rules">(.*?)</p>', spanish, re.S)
    assert rules
    _no_dollar("rules", _text(rules.group(1)))
    assert "1,00 €" in _text(rules.group(1))


# --- the drills' amount fields ---------------------------------------------------------

def _question_html(client: FlaskClient) -> str:
    """The settlement drill's first question as drills.js puts it on the page."""
    session_id = start(client, "settlement", mode="practice")
    response = fetch_question(client, session_id)
    assert response.status_code == 200
    return str(response.get_json()["html"])


def _settle_step_html(app: Flask, profile: str, language: str) -> str:
    """The round drill's settle step as the page draws it, for a reader of ``language``."""
    drill = get_drill("round")
    context = DrillContext(profile=profile)
    question = drill.at_step(drill.generate(random.Random(7), context), 2, context)
    with app.test_request_context("/", headers={"Accept-Language": language}):
        return render_template("drills/_question.html", kind="round", q=question,
                               context=context, position=1, **drill_pages._template_globals())


def _amount_labels(page: str) -> tuple[list[str], list[str]]:
    """Every amount field's accessible name, and those of the seats' amounts paid."""
    inputs = re.findall(r'<input[^>]*class="amount"[^>]*>', page)
    assert inputs, "no amount field"
    labels = [html_lib.unescape(re.findall(r'aria-label="([^"]*)"', field)[0]) for field in inputs]
    paid = [label for field, label in zip(inputs, labels, strict=True)
            if "data-paid" in field or "data-pay-amount" in field]
    return labels, paid


def test_the_settlement_amount_fields_are_named_without_dollars_and_one_per_seat(
    app: Flask, client: FlaskClient, trainee: Any, group: int
) -> None:
    _group_profile(app, group, "nevada-fortune")  # the side bets' fields and Envy's line too
    _euro_spanish(app, trainee.id)
    login(client, trainee)
    page = _question_html(client)
    labels, paid = _amount_labels(page)
    for label in labels:
        _no_dollar("aria-label", label)
    assert len(paid) > 1 and len(set(paid)) == len(paid), paid  # one name per seat
    assert len(set(labels)) == len(labels), labels
    words = _text(page)
    _no_dollar("the question", words)
    assert "5 €" in words  # Envy's smallest bonus bet, in euros


def test_the_settlement_fields_name_each_seats_amount_paid_in_english(
    client: FlaskClient, trainee: Any
) -> None:
    login(client, trainee)
    _, paid = _amount_labels(_question_html(client))
    assert paid and all(re.fullmatch(r"Seat \d+: amount paid", label) for label in paid), paid


def test_the_rounds_settle_step_names_its_amount_fields_without_dollars(app: Flask) -> None:
    _set_installation(app, currency="EUR")
    for language in ("es", "en"):
        page = _settle_step_html(app, "nevada-fortune", language)
        labels, paid = _amount_labels(page)
        for label in labels:
            _no_dollar(f"aria-label ({language})", label)
        assert len(paid) > 1 and len(set(paid)) == len(paid), paid
        assert len(set(labels)) == len(labels), labels
        _no_dollar(f"the settle step ({language})", _text(page))


def test_a_side_bets_fixed_payout_in_the_players_result_is_the_readers_money(app: Flask) -> None:
    """A progressive table's royal flush pays a fixed amount: "$325" in English, euros in Spanish."""
    hand = GameHand(bonus_table="progressive", bonus_bet_cents=100,
                    bonus_rule="bonus.progressive.royal-flush", bonus_win_cents=32_500,
                    bonus_net_cents=32_500,
                    player_cards=["As", "Ks", "Qs", "Js", "Ts", "2d", "3c"])
    row = side_bet_row(hand)
    assert row is not None
    assert str(row["pays"]) == "$325"  # the engine's English, as the commands write it
    _set_installation(app, currency="EUR")
    with app.test_request_context("/", headers={"Accept-Language": "es"}):
        said = message_words(row["pays"]).replace("\u00a0", " ")
        page = render_template("play/_result.html", row={
            "hand": SimpleNamespace(outcome="win", net_cents=100, commission_cents=5,
                                    used_house_way=False),
            "bonus": row, "banker": None, "player": None, "followed": True})
    assert said == "325 €"
    _no_dollar("the result", _text(page))
