"""Issue 19: a line made of pieces reaches a non-English reader whole, every piece translated.

Each test reads one composed line in the pseudo-locale (``en_001``, tools/catalogues.py:
every translation is the English wrapped in ⟦ ⟧ with its letters accented), made afresh
from the code, so it needs no translation yet: a word of the line that did not go through
the catalogue is plain ASCII with a letter the pseudo-locale would have accented. Where
a noun dropped into a sentence cannot agree with it in every language (Russian, Italian
and Spanish genders), the line must be one whole sentence: a single ⟦ ⟧ piece.
English readers read what they read before.
"""
from __future__ import annotations

import html
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from catalogue_tools import pseudo_config
from flask import Flask, render_template_string
from flask.testing import FlaskClient

from trainer.engine.drills.schema import Cards
from trainer.engine.house_way import editing
from trainer.engine.messages import N_, Message
from trainer.engine.profiles import SideBetOffer
from trainer.extensions import db
from trainer.models import CustomHouseWay, Role
from trainer.services import profiles as profile_service
from trainer.services.group_settings import MAX_LENGTH, DrillLimits, GroupSettings
from trainer.web.platform import sheets
from trainer.web.words import data_words, engine_words, names
from web.helpers import login, post_form

ROOT = Path(__file__).resolve().parents[2]

OPEN = "\u27e6"
# A word the pseudo-locale would have changed: three ASCII letters or more, one of them a
# letter it accents. Inside a translated piece every such letter is accented.
_WORD = re.compile(r"[A-Za-z]{3,}")
_ACCENTED = set("aceinouyAEIOUCNY")


def english_words(text: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """Return the words of ``text`` that never went through the catalogue (``allowed``: data)."""
    return [w for w in _WORD.findall(html.unescape(text))
            if set(w) & _ACCENTED and w not in allowed]


@pytest.fixture
def app_config(app_config: dict[str, Any], pseudo_translations: Path) -> dict[str, Any]:
    return pseudo_config(app_config, pseudo_translations)


@pytest.fixture
def english(app: Flask) -> Flask:
    """The same app, read in English (no pseudo-locale)."""
    app.config["PSEUDO_LOCALE"] = False
    return app


def _said(app: Flask, obj: Any) -> str:
    with app.test_request_context():
        return engine_words.message_words(obj)


# --- 1. titles of presets and side bets inside lines ---------------------------------------

def test_the_group_overview_subtitle_is_made_of_translated_pieces(
        app: Flask, client: FlaskClient, supervisor: Any, make_group: Any) -> None:
    group_id = make_group(supervisor.id, name="Day shift", profile="nevada-fortune")
    login(client, supervisor)
    page = client.get(f"/supervisor/groups/{group_id}").get_data(as_text=True)
    match = re.search(r'<p class="muted">(.*?)</p>', page, re.S)
    assert match, "no subtitle"
    line = match.group(1)
    assert line.startswith(OPEN) and line.count(OPEN) == 2, line  # the line, the profile's title
    # The house way's own title is the preset's data (its sheet's words), allowed as a name.
    assert english_words(line, allowed=("Trump", "Plaza", "Atlantic", "City")) == [], line


def test_a_bonus_parts_rule_name_is_translated_piece_by_piece(app: Flask) -> None:
    with app.test_request_context():
        said = names.rule_name("bonus.fortune-standard.five-aces")
        tag = str(names.rule_tag("bonus.fortune-standard.five-aces"))
    assert said.count(OPEN) == 3, said  # "%(table)s: %(line)s", the table, the line
    assert english_words(said) == [], said
    assert english_words(re.sub(r"<[^>]*>", "", tag)) == [], tag
    app.config["PSEUDO_LOCALE"] = False  # English reads as before
    with app.test_request_context():
        assert names.rule_name("bonus.fortune-standard.five-aces") == (
            "Fortune bonus (standard table): five aces")


def test_a_side_bet_with_envy_is_titled_in_words(app: Flask) -> None:
    """The engine's English title; a page words the offer itself (data_words.describe_side_bet)."""
    offer = SideBetOffer("fortune-standard", envy="envy")
    assert offer.title == "Fortune bonus (standard table) with Envy"  # the engine's English
    with app.test_request_context():
        said = data_words.describe_side_bet(offer)
    assert said.count(OPEN) == 3 and english_words(said) == [], said
    plain = SideBetOffer("fortune-standard")
    assert plain.title == "Fortune bonus (standard table)"
    with app.test_request_context():
        assert english_words(data_words.describe_side_bet(plain)) == []


def test_a_withdrawn_preset_profile_is_refused_with_its_title_in_words(
        app: Flask, make_user: Any) -> None:
    manager = make_user(Role.MANAGER, login="floor")
    with app.test_request_context():
        profile_service.set_offered(manager.id, "nevada-emperors", False)
        with pytest.raises(profile_service.ProfileError) as refused:
            profile_service.check_choice("nevada-emperors")
        said = engine_words.message_words(refused.value)
        with pytest.raises(profile_service.ProfileError) as default:
            profile_service.set_offered(manager.id, "nevada", False)
        said_default = engine_words.message_words(default.value)
    assert "Nevada with Emperor's Treasure" in str(refused.value)  # English as it was
    assert english_words(said) == [] and english_words(said_default) == [], (said, said_default)


# --- 2. a copied draft's title ------------------------------------------------------------

def test_a_copied_drafts_title_is_written_in_the_managers_language(
        app: Flask, client: FlaskClient, make_user: Any) -> None:
    manager = make_user(Role.MANAGER, login="floor")
    login(client, manager)
    done = post_form(client, "/manager/house-ways/copy?from=trump-plaza",
                     {"slug": "riverside", "casino": "Riverside"})
    assert done.status_code == 302, done.get_data(as_text=True)[:2000]
    with app.app_context():
        record = db.session.query(CustomHouseWay).filter_by(slug="riverside").one()
        title, draft_title = record.title, record.draft["title"]
    assert title == draft_title and title.startswith(OPEN) and "Riverside" in title, title
    assert english_words(title, allowed=("Riverside",)) == [], title
    app.config["PSEUDO_LOCALE"] = False  # an English manager's copy reads as before
    post_form(client, "/manager/house-ways/copy?from=trump-plaza",
              {"slug": "golden-sands", "casino": "Golden Sands"})
    with app.app_context():
        record = db.session.query(CustomHouseWay).filter_by(slug="golden-sands").one()
        assert record.title == "Golden Sands house way"


@pytest.mark.parametrize(("title", "casino", "name"), [
    ("Riverside house way", "Riverside", "Riverside"),                 # English, as before
    ("Riverside Downtown house way", "Riverside", "Riverside Downtown"),  # reworded, English
    ("Método de la casa de Riverside", "Riverside", "Riverside"),      # Spanish
    ("Метод казино Riverside", "Riverside", "Riverside"),              # Russian
    ("Our own rules", "Riverside", "Our own rules"),                   # names no casino
])
def test_a_custom_way_is_named_by_its_casino_whatever_its_titles_language(
        english: Flask, monkeypatch: pytest.MonkeyPatch, title: str, casino: str,
        name: str) -> None:
    monkeypatch.setattr(names, "_custom_way",
                        lambda ref: SimpleNamespace(title=title, casino=casino))
    with english.test_request_context():
        assert names.house_way_name("riverside@2") == f"{name} (version 2)"


# --- 3. group settings name a drill by its title --------------------------------------------

def test_a_group_settings_refusal_names_the_drill_in_words(app: Flask) -> None:
    with app.test_request_context(), pytest.raises(ValueError) as refused:
        GroupSettings(drills={"settlement": DrillLimits(length=0)})
    assert str(refused.value) == (
        f"Settle the table: a session has from 1 to {MAX_LENGTH} questions.")
    said = _said(app, refused.value)
    assert said.count(OPEN) == 2 and english_words(said) == [], said
    assert "settlement" not in said


# --- 4. whole sentences where a noun would not agree ------------------------------------------

@pytest.mark.parametrize("role", ["admin", "supervisor"])
def test_the_activation_flash_is_one_whole_sentence(
        app: Flask, client: FlaskClient, admin: Any, supervisor: Any, trainee: Any,
        role: str) -> None:
    login(client, admin if role == "admin" else supervisor)
    path = (f"/admin/users/{trainee.id}/active" if role == "admin"
            else f"/supervisor/trainees/{trainee.id}/active")
    for active in ("0", "1"):
        page = post_form(client, path, {"active": active, "confirm": "1"}, follow_redirects=True)
        flashes = re.findall(r'<li class="flash flash-success">(.*?)</li>',
                             page.get_data(as_text=True), re.S)
        assert len(flashes) == 1, flashes
        line = flashes[0]
        assert line.count(OPEN) == 1, line  # "active"/"inactive" is no piece of its own
        assert english_words(line, allowed=("Trainee",)) == [], line


def test_a_schema_refusal_is_one_whole_sentence(app: Flask) -> None:
    cards = ["As", "Ks", "Qs", "Js", "Ts", "9s", "8s"]
    front = Cards(2, cards, Message(N_("front")))
    for answer, english in (
            (["As", "Ks", "Qs"], "The front takes 2 cards; 3 were given."),
            ("As Ks", "The front has the wrong form: it must be a list of 2 cards."),
            ([1, 2], "The front must be a list of card names such as As or 10h.")):
        with pytest.raises(ValueError) as refused:
            front.check(answer)
        assert str(refused.value) == english
        said = _said(app, refused.value)
        assert said.count(OPEN) == 1, said  # "front" is no piece of its own
        assert english_words(said, allowed=("10h",)) == [], said


def test_an_editor_problem_is_one_whole_sentence(app: Flask) -> None:
    data = editing.preset_data("trump-plaza")
    two_pair = 2  # section 3
    rules = len(data["sections"][two_pair]["rules"])
    sections = len(data["sections"])
    refusals = [
        (lambda: editing.move_rule(data, two_pair, 0, -1), "Rule 1 of section 3 is already first."),
        (lambda: editing.move_rule(data, two_pair, rules - 1, 1),
         f"Rule {rules} of section 3 is already last."),
        (lambda: editing.delete_rule(data, two_pair, rules),
         f"There is no rule {rules + 1}: section 3 has {rules} rules."),
        (lambda: editing.insert_rule(data, two_pair, rules + 5, {}),
         f"A rule cannot go at place {rules + 6}: section 3 has {rules} rules, so the places "
         f"are 1 to {rules + 1}."),
        (lambda: editing.move_section(data, 0, -1), "Section 1 of this house way is already first."),
        (lambda: editing.delete_section(data, sections),
         f"There is no section {sections + 1}: this house way has {sections} sections."),
        (lambda: editing.move_section(data, 0, 0),
         "Say how far to move the section: up (-1) or down (+1)."),
    ]
    for operation, english in refusals:
        with pytest.raises(ValueError) as refused:
            operation()
        assert str(refused.value) == english
        said = _said(app, refused.value)
        assert said.count(OPEN) == 1 and english_words(said) == [], said
    # A rule's explanation naming cards its hands do not have (editing/validation.py, checks).
    rule = dict(data["sections"][0]["rules"][0], explain="No pair: {pair} in back")
    problems = editing.validate(editing.replace_rule(data, 0, 0, rule))
    assert [p.message for p in problems] == [
        "The explanation uses {pair}, but no-pair hands can reach this rule, and they have "
        "no such cards to name."]
    said = _said(app, problems[0].sentence)
    assert said.count(OPEN) == 2, said  # the sentence and the shape's label
    assert english_words(said, allowed=("pair",)) == [], said  # {pair}: the field as typed


@pytest.mark.parametrize("status", ["running", "queued", "failed"])
def test_a_jobs_state_is_one_whole_sentence(app: Flask, status: str) -> None:
    job = SimpleNamespace(id=1, done=status == "failed", status=status, percent=5, message="",
                          error="")
    with app.test_request_context():
        for kind in ("check", "simulation", "comparison"):
            drawn = render_template_string(
                '{% from "manager/ways/_job.html" import job_state %}'
                '{{ job_state(job, "/back", kind) }}', job=job, kind=kind)
            line = re.search(r"<strong>(.*?)</strong>", drawn, re.S)
            assert line, drawn
            assert line.group(1).count(OPEN) == 1, line.group(1)
            assert english_words(line.group(1)) == [], line.group(1)


# --- 5. a sentence's full stop ------------------------------------------------------------------

def test_the_pdf_refusal_ends_its_sentence(english: Flask, client: FlaskClient, trainee: Any,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(html: str) -> bytes:
        raise sheets.PdfUnavailable("Chromium crashed.")

    monkeypatch.setattr(sheets, "print_to_pdf", broken)
    login(client, trainee)
    page = client.get("/house-way/trump-plaza/pdf")
    assert page.status_code == 503
    assert ("The PDF cannot be made on this server right now (Chromium crashed). Print the "
            "sheet from your browser instead.") in html.unescape(page.get_data(as_text=True))
