"""Hints, feedback and the look-up teach the group's own house way (issue 27, part 1).

Finding: the house-way drill's "Why?" hint for two sets of trips said "look at the lower
set; the higher three stay in back", the opposite of every house way; the hints were
fixed sentences per hand family, so a casino's own way (built in the manager's editor
and published as a version) could be contradicted by any of them, and the round drill's
banker step used the same sentences.

Here a custom way is built as data through the editor's ``build``, differing from every
preset in the rule that decides each hand family: a straight or flush played with two
pair, no pair and one pair set without their straight or flush, two pair always together,
the lowest of three pairs in front, three aces kept together, a pair of the LOWER trips in
front, a full house kept together, the lower pair in front beside trips, quads always
together, quads with a pair or trips always split, five aces always split. It is
published and chosen for the group. For a hand of each family that the custom way decides
by that rule and that every preset sets to another value, the practice hint, the answer's
feedback (the right front and the worked-out line) and the reference look-up's
explanation all describe the custom way's setting, never the presets' one.
"""
from __future__ import annotations

import dataclasses
import functools
import html
import random
import re
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.cards import Card, card_list, parse_cards
from trainer.engine.drills import DrillContext, new_question
from trainer.engine.drills.dealing import SHAPES, deal_family, deal_shape
from trainer.engine.drills.explain import card_text
from trainer.engine.drills.kinds.round import banker_cards
from trainer.engine.hands import rank2, rank5
from trainer.engine.house_way import RULE_KINDS, HouseWay, class_build, load, preset_names
from trainer.engine.house_way.editing import build
from trainer.engine.house_way.kinds import plural, rank_char
from trainer.extensions import db
from trainer.models import Group, Job, Role, utcnow
from trainer.services import drills as drill_service
from trainer.services import house_ways
from trainer.services.group_settings import GroupSettings
from web.helpers import csrf_token, login, post_form
from web.test_drills import fetch_question, right_answer, start
from web.test_request_cost import MAX_STATEMENTS, counted

SLUG = "opposite"
CASINO = "Opposite Casino (Elko)"
TITLE = f"{CASINO} house way"
WAY_NAME = CASINO  # how the hint names the way (its title without " house way")
EXPLAIN = "{front} in front, {back} in back."


def _rule(number: str, rule_id: str, text: str, **extra: Any) -> dict[str, Any]:
    return {"number": number, "id": rule_id, "text": text, "explain": EXPLAIN, **extra}


def _section(number: str, title: str, when: dict[str, Any], *rules: dict[str, Any]
             ) -> dict[str, Any]:
    return {"number": number, "title": title, "when": when, "rules": list(rules)}


# family -> (the custom way's deciding rule, its number): each differs from the presets'.
DECIDING: dict[str, tuple[str, str]] = {
    "sf": ("sf.best-front.two-pair", "1"),
    "pai-gow": ("pai-gow.standard", "2"),
    "one-pair": ("one-pair.standard", "3"),
    "two-pair": ("two-pair.together.always", "4"),
    "three-pair": ("three-pair.low-front", "5"),
    "trips": ("trips.standard.aces-together", "6.1"),
    "two-trips": ("two-trips.low-pair-front", "7"),
    "full-house": ("full-house.together.always", "8"),
    "trips-two-pair": ("trips-two-pair.low-pair-front", "9"),
    "quads": ("quads.together.always", "10"),
    "quads-pair": ("quads-pair.split.always", "11"),
    "quads-trips": ("quads-trips.split.always", "12"),
    "five-aces": ("five-aces.split.always", "13"),
}


# Each deciding rule's sentence on the custom sheet.
SHEET: dict[str, str] = {
    "sf": "Two pair with a straight or flush: always play the straight or flush.",
    "pai-gow": "No pair: highest card in back, even with a straight or flush.",
    "one-pair": "One pair: pair in back, even with a straight or flush.",
    "two-pair": "Two pair: always together.",
    "three-pair": "Three pair: the lowest pair in front.",
    "trips": "Three aces: kept together, the two highest singletons in front.",
    "two-trips": "Two trips: a pair of the lower trips in front.",
    "full-house": "Full house: always together.",
    "trips-two-pair": "Trips and two pair: the lower pair in front.",
    "quads": "Four of a kind: always together.",
    "quads-pair": "Four of a kind and a pair: always split the four.",
    "quads-trips": "Four of a kind and trips: always split the four.",
    "five-aces": "Five aces: always split, kings or not.",
}


SPANISH_TWO_TRIPS = "Dos tríos: una pareja del trío más bajo en la mano baja."


def custom_data() -> dict[str, Any]:
    """The custom way as the editor stores it: one section per family."""
    rule = {family: _rule(number, rule_id, SHEET[family])
            for family, (rule_id, number) in DECIDING.items()}
    rule["sf"]["pool"] = "all"
    # The casino's own Spanish for one rule (the sheet's data, issue 19).
    rule["two-trips"]["translations"] = {"es": {"text": SPANISH_TWO_TRIPS}}
    return {
        "name": SLUG, "title": TITLE, "casino": CASINO,
        "sections": [
            _section("1", "Two pair with a straight or flush", {"shapes": ["two-pair"], "sf": True},
                     rule["sf"]),
            _section("2", "No pair, straight or flush or not", {"shapes": ["no-pair"]},
                     rule["pai-gow"]),
            _section("3", "One pair, straight or flush or not", {"shapes": ["one-pair"]},
                     rule["one-pair"]),
            _section("4", "Two pair", {"shapes": ["two-pair"]}, rule["two-pair"]),
            _section("5", "Three pair", {"shapes": ["three-pair"]}, rule["three-pair"]),
            _section("6", "Trips: three aces kept together too", {"shapes": ["trips"]},
                     {**rule["trips"], "when": {"trips": "A"}},
                     _rule("6.2", "trips.standard.other", "Any other trips: together.")),
            _section("7", "Two trips", {"shapes": ["two-trips"]}, rule["two-trips"]),
            _section("8", "Full house", {"shapes": ["full-house"]}, rule["full-house"]),
            _section("9", "Trips and two pair", {"shapes": ["trips-two-pair"]},
                     rule["trips-two-pair"]),
            _section("10", "Quads", {"shapes": ["quads"]}, rule["quads"]),
            _section("11", "Quads and a pair", {"shapes": ["quads-pair"]}, rule["quads-pair"]),
            _section("12", "Quads and trips", {"shapes": ["quads-trips"]}, rule["quads-trips"]),
            _section("13", "Five aces", {"shapes": ["five-aces"]}, rule["five-aces"]),
        ],
    }


CUSTOM: HouseWay = build(custom_data(), table=False)
PRESETS = [load(name) for name in preset_names()]


def _value(way: HouseWay, cards: tuple[Card, ...]) -> tuple[int, int]:
    setting = way.set(cards)
    return rank2(setting.front), rank5(setting.back)


@functools.cache
def hand_of(family: str) -> tuple[Card, ...]:
    """A hand the custom way decides by its rule for ``family`` and every preset sets to
    another value (the presets' deciding rules say otherwise)."""
    rng = random.Random(f"issue-27-{family}")
    rule_id = DECIDING[family][0]
    for _ in range(20_000):
        # Two pair with a straight or flush is dealt by its shape (the way's own check
        # in deal_family would find the family "sf", not "two-pair").
        cards = deal_shape(rng, SHAPES["two-pair"]) if family == "sf" \
            else deal_family(rng, family, CUSTOM)
        if CUSTOM.set(cards).rule != rule_id:
            continue
        mine = _value(CUSTOM, cards)
        if all(_value(way, cards) != mine for way in PRESETS):
            return cards
    raise AssertionError(f"no {family} hand that every preset sets otherwise")


def _kind_words(rule_id: str) -> tuple[str, str]:
    kind = RULE_KINDS[".".join(rule_id.split(".")[:2])]
    return kind.front_text, kind.back_text


def _explain_front(front: Any) -> str:
    """A front as an explanation's {front} field words it ("a pair of fours", "A-K")."""
    hi, lo = sorted((c.rank for c in parse_cards(card_list(front), 2)), reverse=True)
    ten = {"T": "10"}  # ten is written 10 in words for people
    return f"a pair of {plural(hi)}" if hi == lo else \
        f"{ten.get(rank_char(hi), rank_char(hi))}-{ten.get(rank_char(lo), rank_char(lo))}"


def test_the_custom_way_differs_from_every_preset_in_each_familys_deciding_rule() -> None:
    # The premise: for each family's hand, the deciding rule is the custom one, whose kind
    # no preset uses for that hand, and every preset's setting has another value.
    for family in DECIDING:
        cards = hand_of(family)
        setting = CUSTOM.set(cards)
        assert setting.rule == DECIDING[family][0], family
        for way in PRESETS:
            theirs = way.set(cards)
            assert _value(way, cards) != _value(CUSTOM, cards), (family, way.name)
            assert theirs.rule.split(".")[:2] != setting.rule.split(".")[:2] or \
                family in ("pai-gow", "one-pair", "sf"), (family, way.name, theirs.rule)


# --- the app: the way published and chosen for the group ---------------------------------

@pytest.fixture
def custom_ref(app: Flask, make_user: Any, group: int) -> Iterator[tuple[str, str]]:
    manager = make_user(Role.MANAGER, login="manager")
    with app.app_context():
        way_id = house_ways.create_draft(SLUG, CASINO, data=custom_data(), user_id=manager.id).id
        digest = house_ways.get_draft(way_id).draft_digest
        # The check a publish needs, as a job worker leaves it (tests/web/test_custom_way_everywhere.py).
        db.session.add(Job(kind="check", key=f"check:{digest}", params={}, status="done",
                           progress=1000, result={"fouled_hands": 0, "undecided_hands": 0,
                                                  "rules_digest": digest},
                           finished_at=utcnow()))
        db.session.commit()
        version = house_ways.publish(way_id, "The opposite of every preset", manager.id)
        ref, rules = version.ref, version.rules_digest
        record = db.session.get(Group, group)
        dataclasses.replace(GroupSettings.of(record), criteria=None, house_way=ref).save_to(record)
        db.session.commit()
    assert rules == CUSTOM.rules_digest
    yield ref, rules


def _custom_context(app: Flask, ref: str, rules: str) -> DrillContext:
    """The context of a session on the published version: its way resolved by the services."""
    with app.app_context():
        return DrillContext(house_ways.exact(ref, rules), house_way_digest=rules)


def _seed_for(app: Flask, kind: str, family: str, context: DrillContext) -> int:
    """A question seed of ``kind`` under ``context`` whose hand is decided by the family's rule."""
    with app.app_context():
        return _seed_in_app(kind, family, context)


def _seed_in_app(kind: str, family: str, context: DrillContext) -> int:
    rule_id = DECIDING[family][0]
    for seed in range(60_000):
        question = new_question(kind, seed, context)
        cards = question.cards if kind == "house-way" else banker_cards(question)
        setting = CUSTOM.set(parse_cards(cards, 7))
        if setting.rule == rule_id and all(_value(way, setting.front + setting.back)
                                           != _value(CUSTOM, setting.front + setting.back)
                                           for way in PRESETS):
            return seed
    raise AssertionError(f"no {kind} seed for {family}")


def _visible(html_text: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", html_text)).split())


def _says_the_custom_setting(text: str, family: str, where: str) -> None:
    """The hint's words: the custom rule's kind (front and back) and the rule's sheet line."""
    rule_id, number = DECIDING[family]
    front, back = _kind_words(rule_id)
    if front.startswith("best S/F"):
        assert "the straight or flush in back" in text, (where, text)
    else:
        assert f"{front} in front, {back} in back" in text, (where, text)
    assert f"(rule {number}: {SHEET[family].rstrip('.')})" in text, (where, text)
    assert WAY_NAME in text, (where, text)
    # Never the presets' way with this hand (their deciding kinds' words).
    for way in PRESETS:
        theirs = way.set(hand_of(family)).rule
        their_front, their_back = _kind_words(theirs)
        if (their_front, their_back) != (front, back) and their_front:
            assert f"{their_front} in front, {their_back} in back" not in text, (where, theirs)


def test_hints_feedback_and_look_up_follow_a_custom_way_in_every_family(
        app: Flask, client: FlaskClient, trainee: Any, custom_ref: tuple[str, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    ref, rules = custom_ref
    context = _custom_context(app, ref, rules)
    login(client, trainee)
    token = csrf_token(client, "/drills/")
    headers = {"X-CSRFToken": token}
    for family in DECIDING:
        seed = _seed_for(app, "house-way", family, context)
        monkeypatch.setattr(secrets, "randbits", lambda bits, seed=seed: seed)
        session_id = start(client, "house-way", "practice")
        shown = client.post(f"/drills/sessions/{session_id}/question", json={}, headers=headers)
        assert shown.status_code == 200
        data = shown.get_json()
        cards = re.findall(r'data-card="([^"]+)"', data["html"])[:7]
        setting = CUSTOM.set(parse_cards(cards, 7))
        assert setting.rule == DECIDING[family][0]
        # 1. The "Why?" hint: what THIS way does with THIS kind of hand.
        _says_the_custom_setting(data["hint"], family, "hint")
        # 2. The feedback on the presets' setting (wrong here): the custom way's front.
        preset_front = card_list(load("trump-plaza").set(parse_cards(cards, 7)).front)
        reply = client.post(f"/drills/sessions/{session_id}/answer",
                            json={"position": 1, "answer": {"front": preset_front}},
                            headers=headers)
        assert reply.status_code == 200
        assert reply.get_json()["correct"] is False, family
        feedback = _visible(reply.get_json()["html"])
        right_front = " ".join(card_text(c) for c in setting.front)
        assert f"the house way puts {right_front} in front" in feedback, (family, feedback)
        # The worked-out line: the custom rule's explanation of its own setting.
        worked = setting.explanation
        assert worked.startswith(f"{_explain_front(setting.front)} in front"), worked
        assert worked in feedback, (family, feedback)
        assert f"{CASINO} {DECIDING[family][1]}: {SHEET[family]}" in feedback, feedback
        # 3. The reference look-up's explanation, under the group's way (its default).
        page = client.get("/house-way/look-up", query_string={"cards": " ".join(cards)})
        assert page.status_code == 200
        looked = _visible(page.get_data(as_text=True))
        assert worked in looked, (family, looked[:2000])
        for way in PRESETS:
            theirs = way.set(parse_cards(cards, 7))
            wrong = f"{_explain_front(theirs.front)} in front,"
            assert wrong not in looked and wrong not in feedback and \
                wrong not in data["hint"], (family, way.name)


def test_the_round_drills_banker_hint_follows_the_custom_way(
        app: Flask, trainee: Any, custom_ref: tuple[str, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    ref, rules = custom_ref
    context = _custom_context(app, ref, rules)
    for family in ("two-trips", "trips", "two-pair"):
        seed = _seed_for(app, "round", family, context)
        monkeypatch.setattr(secrets, "randbits", lambda bits, seed=seed: seed)
        with app.app_context():
            session_id = drill_service.start_session(trainee.id, "round", "practice")
            action = drill_service.issue_question(trainee.id, session_id)
            key = drill_service.answer_key(action.question,
                                             drill_service.context_from_json(action.context))
            drill_service.answer_question(trainee.id, session_id, 1, {"seat": key["seat"]})
            banker = drill_service.issue_question(trainee.id, session_id)
            assert banker.question["step"] == "banker"
            _says_the_custom_setting(str(banker.hint), family, "round hint")


def test_the_hint_quotes_the_ways_own_translation_of_its_rule(
        app: Flask, client: FlaskClient, trainee: Any, custom_ref: tuple[str, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    ref, rules = custom_ref
    seed = _seed_for(app, "house-way", "two-trips", _custom_context(app, ref, rules))
    monkeypatch.setattr(secrets, "randbits", lambda bits: seed)
    login(client, trainee)
    post_form(client, "/auth/account/language", {"language": "es"})
    session_id = start(client, "house-way", "practice")
    hint = fetch_question(client, session_id).get_json()["hint"]
    # The rule's sentence is the casino's Spanish; the placing is the rule kind's.
    assert f"(rule 7: {SPANISH_TWO_TRIPS.rstrip('.')})" in hint or \
        f": {SPANISH_TWO_TRIPS.rstrip('.')})" in hint, hint
    assert SHEET["two-trips"].rstrip(".") not in hint


@pytest.mark.parametrize("kind", ["house-way", "round"])
def test_a_practice_question_with_its_hint_costs_no_more_statements(
        app: Flask, client: FlaskClient, trainee: Any, custom_ref: tuple[str, str],
        monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    """The hint is worded from the way already loaded: no query, no class table built
    (the round's second step is the banker's, hinted from the way's deciding rule)."""
    def no_build(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a class table was built in a request")

    monkeypatch.setattr(class_build, "build_class_table", no_build)
    login(client, trainee)
    token = csrf_token(client, "/drills/")
    costs, hints = {}, {}
    for mode in ("timed", "practice"):
        session_id = start(client, kind, mode)
        client.post(f"/drills/sessions/{session_id}/question", json={},
                    headers={"X-CSRFToken": token})
        answered = client.post(f"/drills/sessions/{session_id}/answer",
                               json={"position": 1, "answer": right_answer(app, session_id, 1)},
                               headers={"X-CSRFToken": token})
        assert answered.status_code == 200
        with counted(app) as statements:
            shown = client.post(f"/drills/sessions/{session_id}/question", json={},
                                headers={"X-CSRFToken": token})
        assert shown.status_code == 200 and shown.get_json()["position"] == 2
        costs[mode], hints[mode] = len(statements), shown.get_json()["hint"]
    assert hints["timed"] is None and f"{CASINO}: " in hints["practice"], hints
    assert costs["practice"] <= costs["timed"] <= MAX_STATEMENTS, costs
