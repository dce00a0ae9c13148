"""The admin's audit log says every setting and value in words, in the reader's language
(QA walk after issue 27).

Findings on /admin/audit: "Commission rate: 0.05", "Commission rounding: cent", "Wheel:
second_highest", "Min bet cents: 200", "Max bet cents: 10000", "Version: riverside@2",
"Copied from: trump-plaza", the actions "House way publish"/"House way create" about
"House way" with no name, a house way's short name called "Group name", "Table rules ›
Group name: nevada"; in Portuguese many labels in English.
"""
from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale, gettext

from trainer.extensions import db
from trainer.models import Role
from trainer.services import audit, house_ways
from trainer.services.certification.exams import kept_rules
from trainer.web.words import names
from web.helpers import login, post_form
from web.test_custom_way_everywhere import CASINO, custom_data, publish

RAW = ("0.05", "second_highest", "Min bet cents", "Max bet cents", "Commission rate",
       "Commission rounding:", "acme@1", "trump-plaza", "Group name", "House way publish",
       "House way create", "nevada", "Fee cents", "Card letters")


@pytest.fixture
def logged(app: Flask, make_user: Any) -> None:
    """A custom way created from Trump Plaza and published (its service logs both), and an
    exam's entry keeping the Nevada table rules, as the exam service logs it."""
    manager = make_user(Role.MANAGER, login="floor")
    data = custom_data()
    for words in data["translations"].values():
        words.pop("title", None)
    publish(app, manager.id, data)
    with app.app_context():
        house_ways.create_draft("riverside", "Riverside Casino", base_ref="trump-plaza",
                                user_id=manager.id)
        audit.record(manager.id, "exam.schedule", "exam", 1, new={
            "login": "dealer", "kind": "settlement", "house_way": "trump-plaza",
            "profile": "nevada", "table_rules": kept_rules("nevada")})
        audit.record(manager.id, "installation.settings", "installation", 0,
                     old={"language": "en", "card_letters": "international"},
                     new={"language": "pt", "card_letters": "local"})
        db.session.commit()


def _log(client: FlaskClient) -> str:
    page = client.get("/admin/audit")
    assert page.status_code == 200
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", page.get_data(as_text=True))))


def test_the_audit_log_words_every_key_and_value(client: FlaskClient, admin: Any,
                                                 logged: None) -> None:
    login(client, admin)
    log = _log(client)
    for raw in RAW:
        assert not re.search(rf"{re.escape(raw)}(?![\w])", log), raw
    for words in ("House way created", "House way version published",
                  f"House way: {CASINO} house way",
                  "Short name (in addresses): acme",
                  "Copied from: Trump Plaza (Atlantic City) house way",
                  f"Version: {CASINO} (version 1)",
                  "Table rules: Nevada (5% commission)",
                  "Table rules › Name: Nevada (5% commission)",
                  "Table rules › Commission: 5%",
                  "Table rules › Commission rounded: to the cent",
                  "Table rules › Wheel: A-2-3-4-5 is the second-highest straight",
                  "Table rules › Smallest bet: $2.00",
                  "Table rules › Largest bet: $100.00",
                  "Default language: English → Português",
                  "Letters on the cards: International"):
        assert words in log, words


def test_a_portuguese_admin_reads_the_log_in_portuguese(app: Flask, client: FlaskClient,
                                                        admin: Any, logged: None) -> None:
    login(client, admin)
    post_form(client, "/auth/account/language", {"language": "pt"})
    log = _log(client)
    for raw in RAW:
        assert not re.search(rf"{re.escape(raw)}(?![\w])", log), raw
    with app.test_request_context("/"), force_locale("pt"):
        expected = [
            gettext("A-2-3-4-5 is the second-highest straight"),
            gettext("to the cent"),
            gettext("%(casino)s house way", casino=CASINO),
            "Método da casa do Trump Plaza (Atlantic City)",  # the preset's own translation
        ]
        nevada = names.profile_name("nevada")
        english = ["Wheel", "Smallest bet", "Largest bet", "Table rules", "House way"]
        translated = {word: gettext(word) for word in english}
    for words in expected:
        assert words in log, words
    if nevada != "Nevada (5% commission)":  # the preset's title in Portuguese, every time
        assert "Nevada (5% commission)" not in log and log.count(nevada) >= 2
    for word, pt in translated.items():
        if pt != word:  # once the catalogue has it: never the English label
            assert f"{word}:" not in log and f"{word} ›" not in log, word
    assert "Método da casa do Trump Plaza" in log and "second-highest" not in log
