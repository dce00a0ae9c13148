"""Issue 19, item 2: a reader sees the house way's own words in their language, with the
rule number, in the answer's feedback and on the printable sheet (web/words/way_words.py).

The expected sentences are read from the preset's data file (its Spanish beside the
English, written by hand), never worked out by the code under test.
"""
from __future__ import annotations

import html as html_lib
import tomllib
from importlib import resources
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.drills.explain import Feedback
from trainer.web.words import way_words
from web.helpers import login, post_form
from web.test_drills import fetch_question, issued, send_answer, start, wrong_answer
from web.test_reference import needs_chromium, pdf_pages


def _rules() -> dict[str, dict[str, Any]]:
    data = tomllib.loads(resources.files("trainer.engine.house_way").joinpath(
        "presets", "trump-plaza.toml").read_text(encoding="utf-8"))
    return {r["id"]: r for s in data["sections"] for r in s["rules"]}


def _page(response: Any) -> str:
    return html_lib.unescape(response.get_data(as_text=True))


def test_a_spanish_reader_sees_the_spanish_rule_with_its_number_in_the_feedback(
    app: Flask, client: FlaskClient, trainee: Any
) -> None:
    login(client, trainee)
    post_form(client, "/auth/account/language", {"language": "es"})
    session_id = start(client, "house-way", "timed")
    fetch_question(client, session_id)
    answer = wrong_answer(app, session_id)
    reply = send_answer(client, session_id, 1, answer).get_json()
    page = html_lib.unescape(reply["html"])
    rule_id = reply["feedback"]["sheet_rule"]
    rule = _rules()[rule_id]
    es = rule["translations"]["es"]
    # The sheet's sentence: the casino, the rule's number, its Spanish sentence.
    assert f"Trump Plaza (Atlantic City) {rule['number']}: {es['text']}" in page
    assert rule["text"] not in page
    # The rule's name: its Spanish short name, and its number.
    assert es["short"] in page and rule["number"] in page
    # The explanation: the Spanish template's words (before its first field), not the English.
    fixed = es["explain"].split("{")[0]
    assert f'<dd class="explanation">{fixed}' in page
    assert rule["explain"].split("{")[0] not in page
    # The link still goes to the rule's line on the sheet.
    assert f"#rule-{rule_id}" in page


def test_an_english_reader_sees_the_original(app: Flask, client: FlaskClient, trainee: Any) -> None:
    login(client, trainee)
    session_id = start(client, "house-way", "timed")
    fetch_question(client, session_id)
    reply = send_answer(client, session_id, 1, wrong_answer(app, session_id)).get_json()
    page = html_lib.unescape(reply["html"])
    rule = _rules()[reply["feedback"]["sheet_rule"]]
    assert f"Trump Plaza (Atlantic City) {rule['number']}: {rule['text']}" in page
    assert rule["translations"]["es"]["text"] not in page
    question, _ = issued(app, session_id)
    assert question["kind"] == "house-way"


def test_a_spanish_reader_sees_the_spanish_sheet_with_every_rule_number(
    client: FlaskClient, trainee: Any
) -> None:
    login(client, trainee)
    post_form(client, "/auth/account/language", {"language": "es"})
    page = _page(client.get("/house-way/trump-plaza"))
    assert "<h1>Método de la casa del Trump Plaza (Atlantic City)</h1>" in page
    assert "<h2>3. Doble pareja (también cuando la mano tiene escalera o color).</h2>" in page
    for rule_id, rule in _rules().items():
        es = rule["translations"]["es"]
        assert f'<span class="rule-number">{rule["number"]}</span>' in page
        assert f"{es['short']}:</strong> {es['text']}</p>" in page, rule_id
        assert rule["text"] not in page, rule_id


@pytest.mark.parametrize("name", ["trump-plaza", "flamingo-hilton", "mgm-grand"])
@pytest.mark.parametrize("lang", ["pt", "ru"])
def test_a_preset_sheets_source_and_resolved_lines_are_in_the_readers_language(
    client: FlaskClient, trainee: Any, name: str, lang: str
) -> None:
    # QA after issue 27: a Portuguese Trump Plaza sheet said "Fonte: ... its house way as
    # republished by the Wizard of Odds..." and "Resolvido: If no S/F leaves...".
    data = tomllib.loads(resources.files("trainer.engine.house_way").joinpath(
        "presets", f"{name}.toml").read_text(encoding="utf-8"))
    login(client, trainee)
    post_form(client, "/auth/account/language", {"language": lang})
    page = _page(client.get(f"/house-way/{name}"))
    assert data["translations"][lang]["source"] in page
    assert data["source"] not in page
    lines = [(s, s["translations"][lang]) for s in data["sections"] if s.get("resolved")] + [
        (r, r["translations"][lang]) for s in data["sections"] for r in s["rules"]
        if r.get("resolved") or r.get("decided")]
    assert lines
    for original, translated in lines:
        for field in ("resolved", "decided"):
            if original.get(field):
                assert translated[field] in page
                assert original[field] not in page


def test_a_browser_asking_for_spanish_gets_the_spanish_sheet(client: FlaskClient, trainee: Any) -> None:
    login(client, trainee)
    page = _page(client.get("/house-way/trump-plaza", headers={"Accept-Language": "es-MX,es"}))
    assert "Alta + Alta, o Media + Alta: separar." in page
    english = _page(client.get("/house-way/trump-plaza", headers={"Accept-Language": "en"}))
    assert "High + High, or Medium + High: split." in english
    assert "Alta + Alta" not in english


def test_a_stored_feedback_dict_is_worded_too(app: Flask) -> None:
    """The result page and the replay draw stored feedback (a dict) through the same words."""
    rule = _rules()["two-pair.split.always"]
    why = f"Trump Plaza (Atlantic City) 3.2: {rule['text']}"
    stored = {"why": why, "sheet_rule": "two-pair.split.always", "house_way": "trump-plaza"}
    fb = Feedback(False, "x", "y", why, "two-pair.split.always", house_way="trump-plaza",
                  sheet_rule="two-pair.split.always")
    with app.test_request_context():
        for lang, text in (("es", "Alta + Alta, o Media + Alta: separar."),
                           ("ru", "Высокая + Высокая или Средняя + Высокая: разделить."),
                           ("en", rule["text"])):
            assert way_words.sheet_sentence_words(stored, lang) == f"Trump Plaza (Atlantic City) 3.2: {text}"
            assert way_words.sheet_sentence_words(fb, lang) == f"Trump Plaza (Atlantic City) 3.2: {text}"


def test_a_copy_for_another_casino_drops_the_copied_translated_title(
    app: Flask, make_user: Any
) -> None:
    """The copied sheet's Spanish title names Trump Plaza; the copy is Riverside's way, so
    a Spanish reader sees its new (English) title until someone translates it. The rules'
    translations, which still say what the copied rules say, are kept."""
    from trainer.models import Role
    from trainer.services import house_ways

    manager = make_user(Role.MANAGER, login="manager")
    with app.app_context():
        row = house_ways.create_draft("riverside", "Riverside Casino", base_ref="trump-plaza",
                                      user_id=manager.id)
        draft = house_ways.get_draft(row.id).draft
    assert draft["title"] == "Riverside Casino house way"
    assert all("title" not in words for words in draft["translations"].values())
    assert draft["translations"]["es"]["thresholds"].startswith("Grupos de valores")
    rule = draft["sections"][2]["rules"][1]
    assert rule["translations"]["es"]["text"] == "Alta + Alta, o Media + Alta: separar."


def test_the_look_up_speaks_the_readers_language(client: FlaskClient, trainee: Any) -> None:
    login(client, trainee)
    post_form(client, "/auth/account/language", {"language": "es"})
    query = "cards=Jh+Js+6c+6d+9h+4c+2s&preset=trump-plaza"
    page = _page(client.get(f"/house-way/look-up?{query}"))
    rule = _rules()["two-pair.split.no-ace"]
    assert rule["number"] == "3.4"
    assert rule["translations"]["es"]["text"] in page and rule["text"] not in page
    # The explanation, written out by hand from the glossary's words.
    assert "Doble pareja, jotas y seises, sin as: separar, seises en la mano baja." in page
    compared = _page(client.get(f"/house-way/look-up?{query}&compare=1"))
    assert "Doble pareja, jotas y seises" in compared
    assert "Two pair, jacks and sixes" not in compared


@needs_chromium
@pytest.mark.parametrize("lang", ["es", "ru"])
def test_the_translated_sheet_prints_on_two_pages_at_most(
    client: FlaskClient, trainee: Any, lang: str
) -> None:
    """The longest sheet (Flamingo Hilton) in the longer languages still fits its paper."""
    login(client, trainee)
    post_form(client, "/auth/account/language", {"language": lang})
    response = client.get("/house-way/flamingo-hilton/pdf?paper=a4")
    assert response.status_code == 200 and response.data.startswith(b"%PDF")
    assert 1 <= pdf_pages(response.data) <= 2
