"""House-way versions (issue 18, item 6): published versions, pins, snapshots, drafts.

A manager's custom way is published as frozen versions (``slug@n``); a group trains
on a preset or a published version; every session and exam records the rules digest
it grades by, so a group on version 1 keeps version 1 after version 2 is published
(until a supervisor switches it), a session keeps its version after the switch, and
an attempt graded under a preset re-grades exactly after the preset file changes.
Drafts never reach trainees. The check a publish needs is a job row (services/jobs/),
made here directly as a finished check would leave it.
"""
from __future__ import annotations

import copy
import dataclasses
import html
import random
import re
import secrets
from typing import Any

import pytest
from flask import Flask

from trainer.engine.cards import card_list
from trainer.engine.drills import DrillContext, get_drill, new_question
from trainer.engine.house_way import HouseWay, load
from trainer.engine.house_way.interpreter import presets as engine_presets
from trainer.extensions import db
from trainer.models import (
    Attempt,
    CertificationExam,
    DrillSession,
    Group,
    HouseWaySnapshot,
    IssuedQuestion,
    Job,
    Role,
    utcnow,
)
from trainer.services import drills as drill_service
from trainer.services import house_ways
from trainer.services.certification import exams
from trainer.services.group_settings import GroupSettings
from web.helpers import login, post_form
from web.test_request_cost import _answer, _check, _show, counted

BASE = "trump-plaza"
OTHER = "flamingo-hilton"   # version 2's rules: another sheet, so some hands set otherwise
CASINO = "Riverside Casino"


def _differing_cards() -> list[str]:
    """Seven cards the two sheets set with different fronts (the engine's presets decide)."""
    a, b = load(BASE), load(OTHER)
    rng = random.Random(18)
    for _ in range(20_000):
        seven = rng.sample(range(53), 7)
        if sorted(a.set(seven).front) != sorted(b.set(seven).front):
            return card_list(seven)
    raise AssertionError("no hand sets differently")


def _front(preset: str, cards: list[str]) -> set[str]:
    return set(card_list(load(preset).set(cards).front))


def _new_way(app: Flask, manager_id: int, slug: str = "riverside") -> int:
    with app.app_context():
        return house_ways.create_draft(slug, CASINO, base_ref=BASE, user_id=manager_id).id


def _check_job(app: Flask, way_id: int, status: str = "done", fouled: int = 0,
               undecided: int = 0) -> None:
    """Leave the check job of the draft's rules as the worker would."""
    with app.app_context():
        digest = house_ways.get_draft(way_id).draft_digest
        db.session.add(Job(kind="check", key=f"check:{digest}", params={}, status=status,
                           progress=1000 if status == "done" else 10,
                           active_key=None if status == "done" else f"check:{digest}",
                           result={"fouled_hands": fouled, "undecided_hands": undecided,
                                   "rules_digest": digest} if status == "done" else None,
                           finished_at=utcnow() if status == "done" else None))
        db.session.commit()


def _publish(app: Flask, way_id: int, manager_id: int, note: str = "") -> tuple[str, str]:
    """Check and publish the draft; return (ref, rules digest)."""
    _check_job(app, way_id)
    with app.app_context():
        version = house_ways.publish(way_id, note, manager_id)
        return version.ref, version.rules_digest


def _set_rules(app: Flask, way_id: int, preset: str, manager_id: int) -> None:
    """Give the draft another sheet's rules (the casino and title stay the way's)."""
    with app.app_context():
        record = house_ways.get_draft(way_id)
        data = copy.deepcopy(load(preset).data)
        data.update(casino=record.draft["casino"], title=record.draft["title"])
        house_ways.save_draft(way_id, data, manager_id)


def _choose(client: Any, group_id: int, ref: str) -> Any:
    return post_form(client, f"/supervisor/groups/{group_id}/edit",
                     {"name": "Day shift", "house_way": ref, "profile": "nevada"})


def _key_front(app: Flask, session_id: int, position: int, cards: list[str]) -> set[str]:
    """The house way's front for ``cards`` under the context stored with a session's question."""
    with app.app_context():
        issued = db.session.execute(db.select(IssuedQuestion).filter_by(
            session_id=session_id, position=position)).scalar_one()
        context = drill_service.context_from_json(issued.context)
        key = drill_service.answer_key({"kind": "house-way", "cards": cards}, context)
        return set(key["front"])


@pytest.fixture
def manager(make_user: Any) -> Any:
    return make_user(Role.MANAGER, login="manager")


@pytest.fixture
def two_versions(app: Flask, client: Any, manager: Any, supervisor: Any, group: int) -> Any:
    """Version 1 (Trump Plaza's rules) chosen for the group, then version 2 (other rules) published."""
    way_id = _new_way(app, manager.id)
    v1, d1 = _publish(app, way_id, manager.id, "First sheet")
    login(client, supervisor)
    assert _choose(client, group, v1).status_code == 302
    _set_rules(app, way_id, OTHER, manager.id)
    v2, d2 = _publish(app, way_id, manager.id, "New two-pair rule")
    assert (v1, v2) == ("riverside@1", "riverside@2") and d1 != d2
    return way_id, (v1, d1), (v2, d2)


def test_a_group_on_version_1_keeps_grading_by_it_after_version_2_is_published_until_switched(
        app: Flask, client: Any, trainee: Any, group: int, two_versions: Any) -> None:
    _, (v1, d1), (v2, d2) = two_versions
    cards = _differing_cards()
    with app.app_context():
        before = drill_service.start_session(trainee.id, "house-way", "practice")
        session = db.session.get(DrillSession, before)
        assert (session.house_way, session.house_way_digest) == (v1, d1)
    assert _key_front(app, before, 1, cards) == _front(BASE, cards) != _front(OTHER, cards)
    # The supervisor switches the group: sessions started now grade by version 2.
    assert _choose(client, group, v2).status_code == 302
    with app.app_context():
        after = drill_service.start_session(trainee.id, "house-way", "practice")
        session = db.session.get(DrillSession, after)
        assert (session.house_way, session.house_way_digest) == (v2, d2)
    assert _key_front(app, after, 1, cards) == _front(OTHER, cards)


def test_a_session_started_before_the_switch_keeps_its_version(
        app: Flask, client: Any, trainee: Any, group: int, two_versions: Any) -> None:
    _, (v1, d1), (v2, _) = two_versions
    cards = _differing_cards()
    with app.app_context():
        session_id = drill_service.start_session(trainee.id, "house-way", "practice")
    assert _choose(client, group, v2).status_code == 302
    with app.app_context():
        assert db.session.get(Group, group).house_way == v2
        view = drill_service.issue_question(trainee.id, session_id)
        answer = {"front": sorted(_front(BASE, view.question["cards"]))}
        result = drill_service.answer_question(trainee.id, session_id, 1, answer)
        assert result.correct
        nxt = drill_service.issue_question(trainee.id, session_id)
        assert nxt.position == 2
        assert (nxt.context["house_way"], nxt.context["house_way_digest"]) == (v1, d1)
    assert _key_front(app, session_id, 2, cards) == _front(BASE, cards)


def _seed_that_differs() -> int:
    """A house-way question seed whose cards the two sheets set differently."""
    context = DrillContext(load(BASE))
    for seed in range(5000):
        cards = get_drill("house-way").question_json(new_question("house-way", seed, context))["cards"]
        if _front(BASE, cards) != _front(OTHER, cards):
            return seed
    raise AssertionError("no seed found")


def test_an_attempt_graded_under_a_preset_regrades_exactly_after_the_preset_changes(
        app: Flask, trainee: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    seed = _seed_that_differs()
    monkeypatch.setattr(secrets, "randbits", lambda bits: seed)
    with app.app_context():
        session_id = drill_service.start_session(trainee.id, "house-way", "practice")
        digest = db.session.get(DrillSession, session_id).house_way_digest
        assert digest == load(BASE).rules_digest
        # The preset's rule data, stored the first time it graded (once).
        snapshots = db.session.execute(db.select(HouseWaySnapshot)).scalars().all()
        assert [(s.ref, s.rules_digest) for s in snapshots] == [(BASE, digest)]
        view = drill_service.issue_question(trainee.id, session_id)
        cards = view.question["cards"]
        graded_front = _front(BASE, cards)
        result = drill_service.answer_question(
            trainee.id, session_id, 1, {"front": sorted(graded_front)})
        assert result.correct
        attempt = db.session.get(Attempt, result.attempt_id)

    # The preset file changes: Trump Plaza now reads another sheet's rules.
    changed = HouseWay({**copy.deepcopy(load(OTHER).data), "name": BASE})
    real = engine_presets._load
    monkeypatch.setattr(engine_presets, "_load",
                        lambda name, table: changed if name == BASE else real(name, table))
    assert load(BASE).rules_digest != digest

    with app.app_context():
        attempt = db.session.get(Attempt, result.attempt_id)
        assert drill_service.replay_question(attempt)["cards"] == cards
        grade = drill_service.regrade(attempt)
        assert grade.correct
        assert set(grade.correct_answer["front"]) == graded_front
        # What the changed preset says now (a context stored without a digest): otherwise.
        now = drill_service.answer_key({"kind": "house-way", "cards": cards},
                                       DrillContext(load(BASE)))
        assert set(now["front"]) == set(card_list(changed.set(cards).front)) != graded_front
        # New sessions grade by the preset as it is now, pinned to its new digest.
        later = drill_service.start_session(trainee.id, "house-way", "practice")
        assert db.session.get(DrillSession, later).house_way_digest == changed.rules_digest


def test_a_draft_never_reaches_trainees(app: Flask, client: Any, manager: Any, supervisor: Any,
                                        group: int, trainee: Any) -> None:
    way_id = _new_way(app, manager.id)
    _check_job(app, way_id)  # checked, but not published
    with app.app_context():
        assert not any(c.ref.startswith("riverside") for c in house_ways.choices())
        assert not house_ways.is_offered("riverside@1")
        assert not house_ways.is_offered("riverside")
        with pytest.raises(house_ways.WayError):
            house_ways.get_way("riverside@1")
        with pytest.raises(ValueError, match="not published"):
            GroupSettings(house_way="riverside@1")
    login(client, supervisor)
    page = client.get(f"/supervisor/groups/{group}/edit").get_data(as_text=True)
    assert "riverside" not in page and CASINO not in page
    for ref in ("riverside@1", "riverside", "nowhere@1"):
        response = _choose(client, group, ref)
        assert response.status_code == 200
        text = html.unescape(response.get_data(as_text=True))
        assert ("is not published in that version" in text
                or "There is no published house way called" in text), ref
    with app.app_context():
        assert db.session.get(Group, group).house_way == BASE
        session_id = drill_service.start_session(trainee.id, "house-way", "practice")
        assert db.session.get(DrillSession, session_id).house_way == BASE


def test_superseded_versions_stay_readable_and_are_offered_in_words(
        app: Flask, client: Any, group: int, two_versions: Any) -> None:
    _, (v1, d1), (v2, d2) = two_versions
    with app.app_context():
        assert house_ways.get_way(v1).rules_digest == d1
        assert house_ways.get_way(v2).rules_digest == d2
        assert house_ways.get_way(v1).title == f"{CASINO} house way"
        listed = {c.ref: c for c in house_ways.choices()}
        assert listed[v1].superseded and not listed[v2].superseded
        assert (listed[v1].version, listed[v2].version) == (1, 2)
        assert listed[v2].note == "New two-pair rule"
        refs = [c.ref for c in house_ways.choices()]
        assert refs.index(v2) < refs.index(v1)
        published = listed[v2].published_at
    page = html.unescape(client.get(f"/supervisor/groups/{group}/edit").get_data(as_text=True))
    date = f"{published.day} {published:%b %Y}"
    assert f"{CASINO} house way, version 2 (published {date})" in page
    assert f"{CASINO} house way, version 1 (published {date}; superseded)" in page
    assert re.search(r'<option[^>]*value="riverside@1"[^>]*selected|<option selected value="riverside@1"',
                     page)


def test_publish_is_refused_until_a_clean_check_of_this_exact_draft_finished(
        app: Flask, manager: Any) -> None:
    way_id = _new_way(app, manager.id)
    with app.app_context(), pytest.raises(house_ways.PublishRefused, match="not been checked"):
        house_ways.publish(way_id, "", manager.id)
    _check_job(app, way_id, status="running")
    with app.app_context():
        with pytest.raises(house_ways.PublishRefused, match="not finished"):
            house_ways.publish(way_id, "", manager.id)
        db.session.execute(db.delete(Job))
        db.session.commit()
    _check_job(app, way_id, fouled=3, undecided=1)
    with app.app_context():
        with pytest.raises(house_ways.PublishRefused) as refused:
            house_ways.publish(way_id, "", manager.id)
        reason = str(refused.value.reason)  # a Message: its English sentence
        assert "3 hands foul" in reason
        assert "no rule decides 1 hand" in reason
        assert house_ways.versions(way_id) == []
        db.session.execute(db.delete(Job))
        db.session.commit()
    # A clean check of other rules does not count for this draft.
    _set_rules(app, way_id, OTHER, manager.id)
    with app.app_context():
        other_digest = house_ways.get_draft(way_id).draft_digest
    _set_rules(app, way_id, BASE, manager.id)
    with app.app_context():
        db.session.add(Job(kind="check", key=f"check:{other_digest}", params={}, status="done",
                           result={"fouled_hands": 0, "undecided_hands": 0}))
        db.session.commit()
        with pytest.raises(house_ways.PublishRefused, match="not been checked"):
            house_ways.publish(way_id, "", manager.id)
    ref, digest = _publish(app, way_id, manager.id, "Checked")
    with app.app_context():
        [version] = house_ways.versions(way_id)
        assert (version.ref, version.number, version.note) == (ref, 1, "Checked")
        assert version.check is not None and version.check["fouled_hands"] == 0
        assert version.published_by_id == manager.id
        assert digest == load(BASE).rules_digest


def test_exams_record_the_rules_they_were_scheduled_under(
        app: Flask, supervisor: Any, trainee: Any, group: int, two_versions: Any) -> None:
    _, (v1, d1), _ = two_versions
    with app.app_context():
        # The settings form saved no criteria: back to the defaults (an exam in house-way).
        record = db.session.get(Group, group)
        dataclasses.replace(GroupSettings.of(record), criteria=None).save_to(record)
        db.session.commit()
        exam_id = exams.schedule_exam(group, trainee.id, "house-way", supervisor.id)
        exam = db.session.get(CertificationExam, exam_id)
        assert (exam.house_way, exam.house_way_digest) == (v1, d1)
        session_id = exams.start_exam(exam_id, trainee.id)
        session = db.session.get(DrillSession, session_id)
        assert (session.house_way, session.house_way_digest) == (v1, d1)


def test_pin_asks_the_database_once_a_process(app: Flask, trainee: Any) -> None:
    with app.app_context():
        first = house_ways.pin(BASE)
        db.session.commit()
    with counted(app) as statements, app.app_context():
        assert house_ways.pin(BASE) == first
    assert statements == []


def test_a_question_and_an_answer_on_a_published_version_stay_within_the_request_cost(
        app: Flask, client: Any, trainee: Any, group: int, two_versions: Any) -> None:
    from web.helpers import csrf_token
    from web.test_drills import right_answer, start

    login(client, trainee)
    warm = start(client, "house-way")
    token = csrf_token(client, "/drills/")
    _show(client, warm, token)
    session_id = start(client, "house-way")
    with counted(app) as shown:
        assert _show(client, session_id, token).status_code == 200
    _check(shown, "Showing a question on riverside@1")
    answer = right_answer(app, session_id)
    with counted(app) as answered:
        response = _answer(client, session_id, 1, answer, token)
    assert response.status_code == 200 and response.get_json()["correct"]
    _check(answered, "Answering a question on riverside@1")


def test_versions_are_offered_and_printed_in_the_readers_time_zone(
        app: Flask, client: Any, group: int, two_versions: Any) -> None:
    """A reader with a time zone (every browser sends one) gets the settings page and the
    version's sheet, not a 500: a published date is written in the reader's zone."""
    _, (_v1, _d1), (v2, _d2) = two_versions
    client.set_cookie("tz", "Pacific/Kiritimati")  # UTC+14: the date can move a day on
    page = client.get(f"/supervisor/groups/{group}/edit")
    assert page.status_code == 200
    text = html.unescape(page.get_data(as_text=True))
    assert f"{CASINO} house way, version 2 (published " in text
    sheet = client.get(f"/house-way/{v2}")
    assert sheet.status_code == 200
    assert "Version 2, published " in html.unescape(sheet.get_data(as_text=True))
