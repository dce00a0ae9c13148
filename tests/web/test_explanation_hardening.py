"""A house way's explanation cannot blow up a page (issue 24, part 1).

The finding: an explanation template such as ``{front:>100000000}`` passed the editor's
check (field names only), the check and publishing; every look-up and answer on that way
then returned 100 MB. Now an explanation holds plain ``{field}`` words only, at most 300
characters and 20 of them (``engine/house_way/explanations.py``):

* refused at import (the web's file import; the command line's ``--file`` is in
  tests/engine/test_explanation_templates.py) and in the editor's rule form, with a
  sentence naming the rule and the language, and nothing stored;
* a stored one (written into a published version's or a draft's data here, past every
  check, as a version published before the rule may hold it) does not reach trainees:
  the look-up and an answer's feedback say the generated sentence of the rule's setting,
  in the reader's language, and the grade is the same; its manager sees which rule,
  which language and why on the house-way pages, cannot publish the draft as it is, and
  may put the generated sentence in its place.
"""
from __future__ import annotations

import dataclasses
import html
import io
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.orm.attributes import flag_modified

from trainer.engine.cards import card_list
from trainer.extensions import db
from trainer.models import CustomHouseWay, Group, HouseWayVersion, Role
from trainer.services import house_ways
from trainer.services.group_settings import GroupSettings
from web.helpers import csrf_token, login, post_form
from web.test_custom_way_everywhere import (
    CASINO,
    DISPUTED,
    EXPECTED,
    REF,
    SLUG,
    SPLIT_FRONT,
    custom_data,
    publish,
)
from web.test_house_way_editor import (
    BASE,
    copy_way,
    draft,
    field_errors,
    rule_form,
    text_of,
    two_pair,
)

HUGE = "{front:>100000000}"
HUGE_ES = "Doble pareja: {back:>100000000}"
# A page about one hand is a few kilobytes; the finding's was 100 MB.
SMALL = 200_000
ENGLISH = "The house way plays "
SPANISH = "El método de la casa juega "


def hostile(data: dict[str, Any]) -> dict[str, Any]:
    """Every rule's explanation and every translated one made the finding's."""
    for section in data["sections"]:
        for rule in section["rules"]:
            rule["explain"] = HUGE
            for words in (rule.get("translations") or {}).values():
                if "explain" in words:
                    words["explain"] = HUGE_ES
    return data


@pytest.fixture
def manager(make_user: Any) -> Any:
    return make_user(Role.MANAGER, login="floor-boss", name="Pat Floor")


@pytest.fixture
def boss(app: Flask, manager: Any) -> FlaskClient:
    client = app.test_client()
    login(client, manager)
    return client


# --- refused where it is written ---------------------------------------------------------------


def _file_with(explain: str, spanish: str | None = None) -> str:
    from trainer.engine.house_way import editing

    data = custom_data()
    rule = data["sections"][two_pair(data)]["rules"][0]
    rule["explain"] = explain
    if spanish is not None:
        rule.setdefault("translations", {}).setdefault("es", {})["explain"] = spanish
    return editing.to_toml(data)


def test_explanation_with_format_spec_is_refused_at_import(app: Flask, boss: FlaskClient) -> None:
    text = _file_with(HUGE)
    response = post_form(boss, f"{BASE}/import", {
        "file": (io.BytesIO(text.encode()), "acme.toml"), "slug": "acme-import"},
        content_type="multipart/form-data")
    assert response.status_code == 200
    words = text_of(response.get_data(as_text=True))
    assert "The file was not imported" in words
    assert f"Rule 3.1, explanation in English: The explanation writes {HUGE}" in words
    # Said once: the sentence names its own place.
    assert words.count("Rule 3.1") == 1
    with app.app_context():
        assert db.session.query(CustomHouseWay).count() == 0


def test_translated_explanation_with_format_spec_is_refused_at_import_naming_the_language(
        app: Flask, boss: FlaskClient) -> None:
    text = _file_with("Two pair: {low_pair} in front", spanish="{pair!r} en la mano baja")
    response = post_form(boss, f"{BASE}/import", {
        "file": (io.BytesIO(text.encode()), "acme.toml"), "slug": "acme-import"},
        content_type="multipart/form-data")
    assert response.status_code == 200
    words = text_of(response.get_data(as_text=True))
    assert "Rule 3.1, explanation in Spanish: The explanation writes {pair!r}" in words
    with app.app_context():
        assert db.session.query(CustomHouseWay).count() == 0


@pytest.mark.parametrize(("explain", "words"), [
    (HUGE, f"The explanation writes {HUGE}"),
    ("Two pair: {front.__class__}", "The explanation writes {front.__class__}"),
    ("Two pair: {low_pair[0]} in front", "The explanation writes {low_pair[0]}"),
    ("{low_pair} " * 21, "21 words in braces: at most 20"),
])
def test_explanation_with_format_spec_is_refused_in_the_editor(
        app: Flask, boss: FlaskClient, explain: str, words: str) -> None:
    response = copy_way(boss)
    way_id = int(response.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    before = draft(app, way_id)
    s = two_pair(before)
    path = f"{BASE}/{way_id}/sections/{s + 1}/rules/1/edit"
    form = rule_form(boss, path)
    form["explain"] = explain
    response = post_form(boss, path, form)
    assert response.status_code == 200
    errors = field_errors(response.get_data(as_text=True), "explain")
    assert errors and any(words in e and e.startswith("Rule 3.1, explanation in English: ")
                          for e in errors), errors
    assert draft(app, way_id) == before


def test_explanation_over_300_characters_is_refused_in_the_editor(
        app: Flask, boss: FlaskClient) -> None:
    response = copy_way(boss)
    way_id = int(response.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    before = draft(app, way_id)
    path = f"{BASE}/{way_id}/sections/{two_pair(before) + 1}/rules/1/edit"
    form = rule_form(boss, path)
    form["explain"] = "Two pair, split: " + "x" * 290
    errors = field_errors(post_form(boss, path, form).get_data(as_text=True), "explain")
    assert any("300 characters" in e for e in errors), errors
    assert draft(app, way_id) == before


# --- a stored one: the generated sentence for trainees, flagged for the manager ----------------


def _corrupt_version(app: Flask) -> None:
    """Write the finding's explanations into the published version's data, past every check."""
    with app.app_context():
        version = db.session.execute(
            db.select(HouseWayVersion).filter_by(ref=REF)).scalar_one()
        version.data = hostile(dict(version.data))
        flag_modified(version, "data")
        db.session.commit()


@pytest.fixture
def stored(app: Flask, manager: Any, group: int) -> str:
    """The custom way published, then its stored explanations made the finding's; the group
    on it. Returns the rules digest (unchanged: explanations are words, not rules)."""
    ref, digest = publish(app, manager.id, custom_data())
    assert ref == REF
    _corrupt_version(app)
    with app.app_context():
        record = db.session.get(Group, group)
        dataclasses.replace(GroupSettings.of(record), criteria=None, house_way=REF).save_to(record)
        db.session.commit()
        assert house_ways.get_way(REF).rules_digest == digest
    return digest


def _why(page: str) -> str:
    found = re.search(r'<p class="lookup-why">(.*?)</p>', page, re.S)
    assert found, "no explanation on the look-up"
    return html.unescape(found.group(1))


def test_stored_explanation_with_format_spec_is_replaced_by_the_generated_sentence_in_the_look_up(
        client: FlaskClient, trainee: Any, stored: str) -> None:
    login(client, trainee)
    response = client.get("/house-way/look-up", query_string={"cards": DISPUTED, "preset": REF})
    assert response.status_code == 200 and len(response.data) < SMALL
    page = response.get_data(as_text=True)
    front = re.search(r'id="lookup-front" data-cards="([^"]+)"', page)
    assert front and set(front.group(1).split()) == SPLIT_FRONT  # set as before
    why = _why(page)
    assert why.startswith(ENGLISH) and "a pair of eights in front" in why, why
    assert "{" not in why and len(why) < 200
    # In Spanish: the generated sentence in Spanish, not the stored translation.
    post_form(client, "/auth/account/language", {"language": "es"})
    response = client.get("/house-way/look-up", query_string={"cards": DISPUTED, "preset": REF})
    assert response.status_code == 200 and len(response.data) < SMALL
    why = _why(response.get_data(as_text=True))
    assert why.startswith(SPANISH) and "una pareja de ochos en la mano baja" in why, why
    # The sheet (which prints each rule's sentence, not its explanation) is unaffected.
    sheet = client.get(f"/house-way/{REF}")
    assert sheet.status_code == 200 and len(sheet.data) < 2 * SMALL


def test_stored_explanation_with_format_spec_is_replaced_by_the_generated_sentence_in_feedback(
        app: Flask, client: FlaskClient, trainee: Any, stored: str) -> None:
    from web.test_drills import start

    login(client, trainee)
    token = csrf_token(client, "/drills/")
    session_id = start(client, "house-way", "practice")
    shown = client.post(f"/drills/sessions/{session_id}/question", json={},
                        headers={"X-CSRFToken": token})
    assert shown.status_code == 200
    cards = re.findall(r'data-card="([^"]+)"', shown.get_json()["html"])[:7]
    expected = EXPECTED.set(cards)
    reply = client.post(f"/drills/sessions/{session_id}/answer",
                        json={"position": 1, "answer": {"front": card_list(expected.front)}},
                        headers={"X-CSRFToken": token})
    assert reply.status_code == 200 and len(reply.data) < SMALL
    # Grading is unaffected: the house way's front is right.
    assert reply.get_json()["correct"] is True
    feedback = html.unescape(reply.get_json()["html"])
    assert ENGLISH in feedback and "100000000" not in feedback
    # What was stored with the answer is the generated sentence too.
    with app.app_context():
        from trainer.models import Attempt

        attempt = db.session.execute(db.select(Attempt)).scalars().one()
        said = str((attempt.correct_answer or {}).get("explanation", ""))
        assert said.startswith(ENGLISH) and len(said) < 200, said


def test_stored_explanation_with_format_spec_is_flagged_for_the_manager(
        app: Flask, boss: FlaskClient, stored: str) -> None:
    with app.app_context():
        way_id = db.session.execute(
            db.select(CustomHouseWay.id).filter_by(slug=SLUG)).scalar_one()
    # The list: the way is marked.
    listing = text_of(boss.get("/manager/house-ways").get_data(as_text=True))
    assert "An explanation needs repair" in listing
    # The version's page: which rule, which language, why.
    page = boss.get(f"{BASE}/{way_id}/versions/1")
    assert page.status_code == 200 and len(page.data) < 2 * SMALL
    words = text_of(page.get_data(as_text=True))
    assert "Explanations that need repair" in words
    assert f"Rule 3.1, explanation in English: The explanation writes {HUGE}" in words
    assert "Rule 3.1, explanation in Spanish: The explanation writes {back:>100000000}" in words
    # The draft is clean: its editor page has no list.
    assert "Explanations that need repair" not in text_of(
        boss.get(f"{BASE}/{way_id}").get_data(as_text=True))


def test_a_stored_draft_with_such_an_explanation_is_flagged_refused_and_repaired(
        app: Flask, boss: FlaskClient, manager: Any) -> None:
    with app.app_context():
        way_id = house_ways.create_draft(SLUG, CASINO, data=custom_data(),
                                         user_id=manager.id).id
        row = db.session.get(CustomHouseWay, way_id)
        row.draft = hostile(dict(row.draft))
        flag_modified(row, "draft")
        db.session.commit()
        digest = row.draft_digest
        # A clean check of its rules: only the explanations stand in the way.
        from trainer.models import Job, utcnow
        db.session.add(Job(kind="check", key=f"check:{digest}", params={}, status="done",
                           progress=1000, result={"fouled_hands": 0, "undecided_hands": 0},
                           finished_at=utcnow()))
        db.session.commit()
        with pytest.raises(house_ways.PublishRefused):
            house_ways.publish(way_id, "", manager.id)
    page = boss.get(f"{BASE}/{way_id}").get_data(as_text=True)
    words = text_of(page)
    assert "Explanations that need repair" in words
    assert f"Rule 3.1, explanation in English: The explanation writes {HUGE}" in words
    assert "needs repair" in words and "publish" in words.lower()
    stamp = re.search(r'id="needs-repair".*?name="stamp" value="([^"]+)"', page, re.S)
    assert stamp
    response = post_form(boss, f"{BASE}/{way_id}/repair-explanations", {"stamp": stamp.group(1)})
    assert response.status_code == 302
    repaired = draft(app, way_id)
    rule = repaired["sections"][two_pair(repaired)]["rules"][0]
    assert rule["explain"] == "The house way plays {front} in front and {back} in back"
    assert rule["translations"]["es"]["explain"].startswith(SPANISH)
    assert "Explanations that need repair" not in text_of(
        boss.get(f"{BASE}/{way_id}").get_data(as_text=True))
    with app.app_context():
        assert house_ways.publish(way_id, "", manager.id).ref == REF


# --- property: the web's own wording of an explanation (way_words) ------------------------------

@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([HUGE, "{pair!r}", "{front.__class__}", "{back[0]}", "{low_pair:{front}}",
                        "{front}" * 30, "é" * 400, "Two pair: {low_pair} in front"]),
       st.sampled_from([HUGE_ES, "{back!a}", "{front.__init__.__globals__}", "{low_pair}" * 25,
                        "Doble pareja: {low_pair} en la mano baja"]),
       st.sampled_from(["en", "pt", "es", "it", "ru"]))
def test_the_feedbacks_explanation_in_any_language_is_bounded(english: str, spanish: str,
                                                              lang: str) -> None:
    """``way_words.explanation`` rewords a graded setting's explanation from the way's data:
    whatever its stored templates, a bounded sentence (the generated one for a bad one)."""
    from trainer.engine.house_way import HouseWay
    from trainer.engine.house_way import explanations as X
    from trainer.web.words import way_words

    data = custom_data()
    rule = data["sections"][two_pair(data)]["rules"][0]
    rule["explain"] = english
    rule.setdefault("translations", {}).setdefault("es", {})["explain"] = spanish
    way = HouseWay(data, table=False)
    setting = way.set("As Ad 4h 4c 9s 7d 2c")
    grade = {"explanation": setting.explanation + " (note)", "correct_answer": setting.as_dict()}
    original = way_words.way_of
    way_words.way_of = lambda ref: way  # type: ignore[assignment]
    try:
        said = way_words.explanation_words(grade, {"house_way": REF}, lang)
    finally:
        way_words.way_of = original  # type: ignore[assignment]
    assert len(said) <= X.MAX_OUTPUT + len(" (note)") and "100000000" not in said
    if lang == "es" and X.problem(spanish) is not None:
        assert said.startswith(SPANISH)
    if lang == "en" and X.problem(english) is not None:
        assert said.startswith(ENGLISH)
