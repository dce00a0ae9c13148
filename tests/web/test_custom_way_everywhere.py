"""A published custom house way goes everywhere a preset goes (issue 18, item 7).

The custom way is Trump Plaza's sheet with one rule changed: two pair Medium +
Medium with an ace singleton is *split* (Trump Plaza keeps it together). It is
published through services/house_ways (the check a publish needs is a finished
job row, made here as the worker would leave it) and chosen for the group. Then:
the look-up sets the disputed hand the new way and the compare page shows the way
beside the presets; the sheet and its PDF name the casino and the version; the
house-way drill, the round drill, the player's game and an exam grade or set the
banker's hand by it.
"""
from __future__ import annotations

import dataclasses
import html
import json
import os
import re
import secrets
import threading
import tomllib
from importlib import resources
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.cards import card_list
from trainer.engine.drills import DrillContext, new_question
from trainer.engine.game import deal_hand
from trainer.engine.house_way import HouseWay, load, preset_names
from trainer.extensions import db
from trainer.models import (
    CertificationExam,
    CustomHouseWay,
    DrillSession,
    GameHand,
    Group,
    Job,
    Role,
    utcnow,
)
from trainer.services import drills as drill_service
from trainer.services import house_ways
from trainer.services import table as play
from trainer.services.certification import exams
from trainer.services.group_settings import GroupSettings
from trainer.web.platform import sheets
from web.helpers import csrf_token, login

BASE = "trump-plaza"
SLUG = "acme"
REF = "acme@1"
CASINO = "Acme Casino, Reno"
TITLE = f"{CASINO} house way"
# Two pair, nines and eights (Medium + Medium), with an ace singleton: Trump Plaza plays
# them together (A-5 in front); the custom way splits them (the eights in front).
DISPUTED = "9s 9d 8h 8c As 5d 3c"
TOGETHER_FRONT = {"As", "5d"}
SPLIT_FRONT = {"8h", "8c"}
SPLIT_SHORT = "Two pair, Medium + Medium or Low + High, no ace: split"


def custom_data() -> dict[str, Any]:
    """Trump Plaza's data from its TOML file, with the Medium + Medium + ace rule changed."""
    text = resources.files("trainer.engine.house_way").joinpath(
        "presets", f"{BASE}.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    data.update(name=SLUG, casino=CASINO, title=TITLE)
    rules = {r["id"]: r for s in data["sections"] for r in s["rules"]}
    together, split = rules["two-pair.together.ace"], rules["two-pair.split.no-ace"]
    together["when"]["pair_groups"] = ["low+high"]
    together["text"] = "Low + High with an ace singleton: together."
    together["short"] = "Two pair, Low + High, ace: together"
    # Medium + Medium is split, ace or not.
    split["when"] = {"pair_groups": ["low+high", "medium+medium"]}
    split["text"] = "Medium + Medium (ace or not), or Low + High without an ace: split."
    split["short"] = SPLIT_SHORT
    return data


def front_of(way: HouseWay, cards: Any) -> set[str]:
    return set(card_list(way.set(cards).front))


# The same rule data as a plain engine object, to say how the custom way sets a hand
# without asking the app (what the pages must agree with).
EXPECTED = HouseWay(custom_data())


def publish(app: Flask, manager_id: int, data: dict[str, Any], slug: str = SLUG) -> tuple[str, str]:
    """Create, check (a finished job row) and publish a custom way; return (ref, digest)."""
    with app.app_context():
        way_id = house_ways.create_draft(slug, CASINO, data=data, user_id=manager_id).id
        digest = house_ways.get_draft(way_id).draft_digest
        db.session.add(Job(kind="check", key=f"check:{digest}", params={}, status="done",
                           progress=1000, result={"fouled_hands": 0, "undecided_hands": 0,
                                                  "rules_digest": digest},
                           finished_at=utcnow()))
        db.session.commit()
        version = house_ways.publish(way_id, "Medium + Medium with an ace: split", manager_id)
        return version.ref, version.rules_digest


@pytest.fixture
def manager(make_user: Any) -> Any:
    return make_user(Role.MANAGER, login="manager")


@pytest.fixture
def custom(app: Flask, manager: Any, group: int) -> str:
    """Publish the custom way and put the group on it; return its rules digest."""
    ref, digest = publish(app, manager.id, custom_data())
    assert ref == REF and digest == EXPECTED.rules_digest != load(BASE).rules_digest
    with app.app_context():
        record = db.session.get(Group, group)
        # The default criteria (an exam in the house-way drill), the custom way.
        dataclasses.replace(GroupSettings.of(record), criteria=None, house_way=REF).save_to(record)
        db.session.commit()
    return digest


@pytest.fixture
def signed_in(client: FlaskClient, trainee: Any, custom: str) -> FlaskClient:
    login(client, trainee)
    return client


def page(response: Any) -> str:
    assert response.status_code == 200, response.status_code
    return html.unescape(response.get_data(as_text=True))


def test_the_disputed_hand_sets_differently() -> None:
    # The premise of every test below, from the two rule data alone.
    assert front_of(load(BASE), DISPUTED) == TOGETHER_FRONT
    assert front_of(EXPECTED, DISPUTED) == SPLIT_FRONT


# --- the look-up and compare page --------------------------------------------------------

def test_the_look_up_sets_the_hand_by_the_custom_way(signed_in: FlaskClient) -> None:
    text = page(signed_in.get("/house-way/look-up", query_string={"cards": DISPUTED, "preset": REF}))
    front = re.search(r'id="lookup-front" data-cards="([^"]+)"', text)
    assert front and set(front.group(1).split()) == SPLIT_FRONT
    assert f"Set by {TITLE}" in text
    assert 'data-rule="two-pair.split.no-ace"' in text and SPLIT_SHORT in text
    # The custom way is offered in the list, in words with its version.
    assert re.search(rf'<option value="{REF}"\s*selected>{re.escape(TITLE)}, version 1</option>', text)
    # The sheet link opens the custom way's sheet at the rule.
    assert f'href="/house-way/{REF}#rule-two-pair.split.no-ace"' in text


def test_the_look_up_defaults_to_the_groups_custom_way(signed_in: FlaskClient) -> None:
    text = page(signed_in.get("/house-way/look-up", query_string={"cards": DISPUTED}))
    front = re.search(r'id="lookup-front" data-cards="([^"]+)"', text)
    assert front and set(front.group(1).split()) == SPLIT_FRONT
    assert signed_in.get("/house-way").headers["Location"] == f"/house-way/{REF}"


def test_compare_shows_the_custom_way_beside_the_presets(signed_in: FlaskClient) -> None:
    text = page(signed_in.get("/house-way/look-up",
                              query_string={"cards": DISPUTED, "preset": REF, "compare": "1"}))
    rows = dict(re.findall(r'<tr class="[^"]*" data-preset="([^"]+)" data-differs="(yes|no)"', text))
    assert set(rows) == {REF, *preset_names()}
    assert rows[REF] == "no"
    # Trump Plaza keeps the pairs together: it differs from the chosen custom way.
    assert rows[BASE] == "yes"
    for name in preset_names():
        assert rows[name] == ("no" if front_of(load(name), DISPUTED) == SPLIT_FRONT else "yes")
    row = text.split(f'data-preset="{REF}"', 1)[1].split("</tr>", 1)[0]
    assert f"{TITLE}, version 1" in row and SPLIT_SHORT in row


def test_a_draft_or_unknown_ref_is_not_looked_up(signed_in: FlaskClient, app: Flask,
                                                 manager: Any) -> None:
    with app.app_context():
        house_ways.create_draft("drafty", CASINO, data=custom_data(), user_id=manager.id)
    for ref in ("drafty@1", "nowhere@1"):
        text = page(signed_in.get("/house-way/look-up", query_string={"cards": DISPUTED, "preset": ref}))
        # The group's way instead: the request's choice is not offered.
        assert f"Set by {TITLE}" in text
        assert signed_in.get(f"/house-way/{ref}").status_code == 404


# --- the sheet and its PDF ---------------------------------------------------------------

def test_the_sheet_names_the_casino_and_the_version(signed_in: FlaskClient, app: Flask) -> None:
    text = page(signed_in.get(f"/house-way/{REF}"))
    with app.app_context():
        published = house_ways.choices()[-1].published_at
    assert f"<h1>{TITLE}</h1>" in text
    assert f'<p class="sheet-casino">{CASINO}</p>' in text
    version = re.search(r'id="sheet-version">([^<]+)<', text)
    date = f"{published:%B} {published.day}, {published.year}"
    assert version and version.group(1) == f"Version 1, published {date}"
    # The changed rule, with an example hand the custom way sets under it.
    block = text.split('id="rule-two-pair.split.no-ace"', 1)[1].split("</li>", 1)[0]
    assert "Medium + Medium (ace or not)" in block
    shown = re.search(r'data-cards="([^"]+)" data-front="([^"]+)"', block)
    assert shown and EXPECTED.set(shown.group(1)).rule == "two-pair.split.no-ace"
    assert set(shown.group(2).split()) == front_of(EXPECTED, shown.group(1))
    assert f'href="/house-way/{REF}/pdf?paper=letter"' in text
    # Switching sheets: the custom way in words beside the presets' names.
    assert f'<a href="/house-way/{REF}" aria-current="page">{TITLE}, version 1</a>' in text


@pytest.fixture
def printed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Replace Chromium with a fake printer; return the pages it was asked to print."""
    pages: list[str] = []
    lock = threading.Lock()

    def fake_print(html_text: str) -> bytes:
        with lock:
            pages.append(html_text)
            return b"%PDF-1.4 fake " + str(len(pages)).encode()

    monkeypatch.setattr(sheets, "print_to_pdf", fake_print)
    return pages


def test_the_pdf_prints_the_casino_and_the_version_and_is_cached_by_the_ways_digest(
        signed_in: FlaskClient, app: Flask, manager: Any, printed: list[str]) -> None:
    response = signed_in.get(f"/house-way/{REF}/pdf")
    assert response.status_code == 200 and response.data.startswith(b"%PDF")
    assert 'filename="acme-v1-house-way-letter.pdf"' in response.headers["Content-Disposition"]
    [sheet] = printed
    sheet = html.unescape(sheet)
    assert f"<h1>{TITLE}</h1>" in sheet and CASINO in sheet
    assert re.search(r'id="sheet-version">Version 1, published ', sheet)
    assert "Medium + Medium (ace or not)" in sheet
    # Again: from the cache.
    assert signed_in.get(f"/house-way/{REF}/pdf").data == response.data and len(printed) == 1
    # Version 2 (other rule data, the same casino and title) is printed apart.
    data = custom_data()
    data["sections"][2]["rules"][1]["text"] = "High + High, or Medium + High: always split."
    rules = {r["id"]: r for s in data["sections"] for r in s["rules"]}
    rules["two-pair.split.always"]["when"]["pair_groups"] = ["high+high"]
    rules["two-pair.split.no-ace"]["when"]["pair_groups"] = ["low+high", "medium+medium",
                                                           "medium+high"]
    with app.app_context():
        way_id = db.session.execute(db.select(CustomHouseWay.id).filter_by(slug=SLUG)).scalar_one()
        house_ways.save_draft(way_id, data, manager.id)
        digest = house_ways.get_draft(way_id).draft_digest
        db.session.add(Job(kind="check", key=f"check:{digest}", params={}, status="done",
                           progress=1000, result={"fouled_hands": 0, "undecided_hands": 0},
                           finished_at=utcnow()))
        db.session.commit()
        assert house_ways.publish(way_id, "", manager.id).ref == "acme@2"
        assert house_ways.get_way(REF).digest != house_ways.get_way("acme@2").digest
    second = signed_in.get("/house-way/acme@2/pdf")
    assert second.status_code == 200 and len(printed) == 2
    assert re.search(r'id="sheet-version">Version 2, published ', html.unescape(printed[1]))
    # Version 1's sheet now says it is superseded: its key changed, so it prints anew.
    signed_in.get(f"/house-way/{REF}/pdf")
    assert len(printed) == 3 and "superseded by a later version" in html.unescape(printed[2])


@pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="no Chromium here")
def test_the_custom_sheet_prints_on_at_most_two_pages(signed_in: FlaskClient) -> None:
    response = signed_in.get(f"/house-way/{REF}/pdf?paper=a4")
    assert response.status_code == 200 and response.data.startswith(b"%PDF")
    pages = len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", response.data))
    assert 1 <= pages <= 2


# --- the drills, the round drill, the player's game, an exam -----------------------------

def differing_seed(kind: str, cards_of: Any, digest: str, app: Flask) -> int:
    """A question seed (under the custom way's context) whose banker's hand the two ways set apart."""
    base = load(BASE)
    with app.app_context():
        context = DrillContext(house_ways.exact(REF, digest), house_way_digest=digest)
        for seed in range(20_000):
            cards = cards_of(new_question(kind, seed, context))
            if front_of(EXPECTED, cards) != front_of(base, cards):
                return seed
    raise AssertionError("no seed found")


def test_the_house_way_drill_grades_by_the_custom_way(
        app: Flask, client: FlaskClient, trainee: Any, custom: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from web.test_drills import start

    seed = differing_seed("house-way", lambda q: q.cards, custom, app)
    monkeypatch.setattr(secrets, "randbits", lambda bits: seed)
    login(client, trainee)
    token = csrf_token(client, "/drills/")
    results = []
    for way in (EXPECTED, load(BASE)):
        session_id = start(client, "house-way", "practice")
        with app.app_context():
            session = db.session.get(DrillSession, session_id)
            assert (session.house_way, session.house_way_digest) == (REF, custom)
        shown = client.post(f"/drills/sessions/{session_id}/question", json={},
                            headers={"X-CSRFToken": token})
        assert shown.status_code == 200
        cards = re.findall(r'data-card="([^"]+)"', shown.get_json()["html"])[:7]
        answer = {"front": sorted(front_of(way, cards))}
        reply = client.post(f"/drills/sessions/{session_id}/answer",
                            json={"position": 1, "answer": answer}, headers={"X-CSRFToken": token})
        assert reply.status_code == 200
        results.append(reply.get_json()["correct"])
        # The feedback names the custom way's rule in its own words.
        feedback = html.unescape(reply.get_json()["html"])
        assert f'data-rule="two-pair.split.no-ace">{SPLIT_SHORT} (rule 3.4)<' in feedback
    assert results == [True, False], "the custom way's front is right, Trump Plaza's wrong"


def test_the_round_drill_sets_the_bankers_hand_by_the_custom_way(
        app: Flask, trainee: Any, custom: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from trainer.engine.drills.kinds.round import banker_cards

    seed = differing_seed("round", banker_cards, custom, app)
    monkeypatch.setattr(secrets, "randbits", lambda bits: seed)
    results = []
    with app.app_context():
        for way in (EXPECTED, load(BASE)):
            session_id = drill_service.start_session(trainee.id, "round", "practice")
            action = drill_service.issue_question(trainee.id, session_id)
            key = drill_service.answer_key(action.question,
                                             drill_service.context_from_json(action.context))
            assert drill_service.answer_question(trainee.id, session_id, 1,
                                                 {"seat": key["seat"]}).correct
            banker = drill_service.issue_question(trainee.id, session_id)
            assert banker.question["step"] == "banker"
            front = front_of(way, banker.question["banker_cards"])
            results.append(drill_service.answer_question(
                trainee.id, session_id, 2, {"front": sorted(front)}).correct)
            if way is EXPECTED:
                # The settle step shows the banker's hand as the custom way sets it.
                settle = drill_service.issue_question(trainee.id, session_id)
                assert set(settle.question["banker"]["front"]) == front
    assert results == [True, False]


def test_the_players_game_sets_the_bankers_hand_by_the_custom_way(
        app: Flask, signed_in: FlaskClient, custom: str, monkeypatch: pytest.MonkeyPatch) -> None:
    base = load(BASE)
    seed = next(s for s in range(20_000)
                if front_of(EXPECTED, deal_hand(s).banker) != front_of(base, deal_hand(s).banker))
    monkeypatch.setattr(play, "new_seed", lambda: seed)
    table = page(signed_in.get("/play/"))
    assert "House way Acme Casino, Reno (version 1)" in table
    token = csrf_token(signed_in, "/play/")
    dealt = signed_in.post("/play/deal", json={"bet_cents": 2500}, headers={"X-CSRFToken": token})
    assert dealt.status_code == 200, dealt.get_data(as_text=True)
    hand_id = dealt.get_json()["hand"]["id"]
    settled = signed_in.post(f"/play/hands/{hand_id}/house-way", json={},
                             headers={"X-CSRFToken": token})
    assert settled.status_code == 200, settled.get_data(as_text=True)
    with app.app_context():
        hand = db.session.get(GameHand, hand_id)
        assert (hand.house_way, hand.house_way_digest) == (REF, custom)
        banker = EXPECTED.set(hand.banker_cards)
        player = EXPECTED.set(hand.player_cards)
        assert set(hand.banker_front) == set(card_list(banker.front)) != front_of(base, hand.banker_cards)
        assert hand.banker_rule == banker.rule
        assert set(hand.player_front) == set(card_list(player.front))
        assert hand.house_rule == player.rule


def test_an_exam_under_the_custom_way_grades_by_it(
        app: Flask, client: FlaskClient, supervisor: Any, trainee: Any, group: int, custom: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    seed = differing_seed("house-way", lambda q: q.cards, custom, app)
    monkeypatch.setattr(secrets, "randbits", lambda bits: seed)
    with app.app_context():
        exam_id = exams.schedule_exam(group, trainee.id, "house-way", supervisor.id)
        exam = db.session.get(CertificationExam, exam_id)
        assert (exam.house_way, exam.house_way_digest) == (REF, custom)
    # The group moves back to Trump Plaza: the exam keeps the custom way it was scheduled under.
    with app.app_context():
        record = db.session.get(Group, group)
        dataclasses.replace(GroupSettings.of(record), house_way=BASE).save_to(record)
        db.session.commit()
        session_id = exams.start_exam(exam_id, trainee.id)
        session = db.session.get(DrillSession, session_id)
        assert (session.house_way, session.house_way_digest) == (REF, custom)
        # Every question draws the same seed: the first answered the custom way's, the
        # second Trump Plaza's way.
        results = []
        for position, way in ((1, EXPECTED), (2, load(BASE))):
            view = drill_service.issue_question(trainee.id, session_id)
            assert view.position == position
            answer = {"front": sorted(front_of(way, view.question["cards"]))}
            results.append(drill_service.answer_question(
                trainee.id, session_id, position, answer).correct)
    assert results == [True, False]
    # The trainee's home page names the exam's house way in words, with its version.
    login(client, trainee)
    assert "house way Acme Casino, Reno (version 1)" in page(client.get("/"))


def test_names_word_the_custom_way_and_its_rules(app: Flask, custom: str) -> None:
    from trainer.web.words import names

    with app.test_request_context():
        assert names.house_way_name(REF) == "Acme Casino, Reno (version 1)"
        assert names.rule_short("two-pair.split.no-ace", REF) == SPLIT_SHORT
        assert names.rule_short("two-pair.split.no-ace", BASE) != SPLIT_SHORT
        assert names.house_way_name("nowhere@1") == "Nowhere@1"



# --- the command line: a stored version ---------------------------------------------------

def test_the_cli_verifies_and_simulates_a_stored_version(app: Flask, custom: str) -> None:
    from trainer.engine.house_way.simulate import simulate
    from trainer.engine.house_way.verify import verify

    runner = app.test_cli_runner()
    result = runner.invoke(args=["house-way", "verify", REF, "--sample", "3000", "--workers", "1"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["house_way"] == REF and summary["failed_hands"] == 0
    # The stored version's rules, hand for hand: the same counts as the rule data itself.
    assert summary["per_rule"] == verify(EXPECTED, 3000, 0, workers=1)["per_rule"]
    assert summary["per_rule"] != verify(BASE, 3000, 0, workers=1)["per_rule"]

    args = ["--hands", "16384", "--seed", "3", "--workers", "1"]
    result = runner.invoke(args=["house-way", "simulate", BASE, "--against", REF, *args])
    assert result.exit_code == 0, result.output
    played = json.loads(result.stdout)
    assert (played["player"], played["banker"]) == (BASE, REF)
    counts = simulate(BASE, EXPECTED, 16384, 3, workers=1)
    assert round(counts["lose"] / 16384, 6) == played["banker_win"]
    assert played["banker_win"] != json.loads(runner.invoke(
        args=["house-way", "simulate", BASE, *args]).stdout)["banker_win"]


def test_the_cli_refuses_an_unknown_or_unpublished_version(app: Flask, manager: Any,
                                                           custom: str) -> None:
    with app.app_context():
        house_ways.create_draft("drafty", CASINO, data=custom_data(), user_id=manager.id)
    runner = app.test_cli_runner()
    for ref in ("nowhere@1", "drafty@1", "acme@2"):
        result = runner.invoke(args=["house-way", "verify", ref, "--sample", "10"])
        assert result.exit_code == 2, ref
        assert "There is no house way called" in result.stderr
