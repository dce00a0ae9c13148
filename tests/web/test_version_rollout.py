"""House-way versions as a manager's tool (issue 27, part 3): roll a version out to groups.

A manager puts a published version on every group on an older version of the way in one
action (a form on the version's page, a confirmation listing the groups), audited per
group; a session running at that moment finishes on the version it started with, an exam
already scheduled keeps its own, and the trainees' next sessions use the new version.
Rolling back is rolling an older version out. ``/house-way/<name>`` opens the latest
published version, with a note for a trainee whose group is on another.
"""
from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask import Flask

from trainer.extensions import db
from trainer.models import AuditLog, CertificationExam, DrillSession, Group, Role
from trainer.services import drills as drill_service
from trainer.services.certification import exams
from web.helpers import login, post_form
from web.test_house_way_versions import (
    BASE,
    OTHER,
    _differing_cards,
    _front,
    _key_front,
    _new_way,
    _publish,
    _set_rules,
)


@pytest.fixture
def manager(make_user: Any) -> Any:
    return make_user(Role.MANAGER, login="manager")


@pytest.fixture
def rooms(app: Flask, make_user: Any, make_group: Any, manager: Any) -> dict[str, Any]:
    """Version 1 on two groups of two supervisors (a trainee each), a third group on a preset,
    then version 2 (other rules) published."""
    north_sup = make_user(Role.SUPERVISOR, login="north-sup", name="Nora North")
    south_sup = make_user(Role.SUPERVISOR, login="south-sup", name="Sam South")
    way_id = _new_way(app, manager.id)
    v1, d1 = _publish(app, way_id, manager.id, "First sheet")
    north = make_group(north_sup.id, name="North pit", house_way=v1)
    south = make_group(south_sup.id, name="South pit", house_way=v1)
    preset = make_group(south_sup.id, name="Poker room", house_way=BASE)
    _set_rules(app, way_id, OTHER, manager.id)
    v2, d2 = _publish(app, way_id, manager.id, "New two-pair rule")
    assert (v1, v2) == ("riverside@1", "riverside@2") and d1 != d2
    return {"way": way_id, "v1": v1, "d1": d1, "v2": v2, "d2": d2,
            "north": north, "south": south, "preset": preset, "south_sup": south_sup,
            "north_trainee": make_user(Role.TRAINEE, login="north-t", group_id=north),
            "south_trainee": make_user(Role.TRAINEE, login="south-t", group_id=south)}


def _text(response: Any) -> str:
    assert response.status_code == 200, response.status_code
    return html.unescape(response.get_data(as_text=True))


def _house_ways(app: Flask, *group_ids: int) -> list[str]:
    with app.app_context():
        return [db.session.get(Group, g).house_way for g in group_ids]


def test_a_manager_rolls_a_new_version_out_to_two_groups_in_one_action(
        app: Flask, client: Any, manager: Any, admin: Any, rooms: dict[str, Any]) -> None:
    r = rooms
    north_trainee, south_trainee = r["north_trainee"], r["south_trainee"]
    cards = _differing_cards()
    with app.app_context():
        # A session under way on version 1, and an exam scheduled under version 1.
        running = drill_service.start_session(north_trainee.id, "house-way", "practice")
        view = drill_service.issue_question(north_trainee.id, running)
        assert drill_service.answer_question(
            north_trainee.id, running, 1, {"front": sorted(_front(BASE, view.question["cards"]))}
        ).correct
        exam_id = exams.schedule_exam(r["south"], south_trainee.id, "house-way",
                                      r["south_sup"].id)

    login(client, manager)
    page = _text(client.get(f"/manager/house-ways/{r['way']}/versions/2"))
    assert 'id="roll-out"' in page and "2 groups are on an older version" in page

    # One action: every group on an older version. First the confirmation, listing them.
    confirm = _text(post_form(client, f"/manager/house-ways/{r['way']}/versions/2/roll-out",
                              {"target": "older"}))
    listed = re.search(r'<table class="table" id="roll-out-groups">.*?</table>', confirm, re.S)[0]
    assert "North pit" in listed and "South pit" in listed and "Poker room" not in listed
    assert "Nora North" in listed and "Sam South" in listed
    assert _house_ways(app, r["north"], r["south"]) == [r["v1"], r["v1"]]   # nothing yet
    done = post_form(client, f"/manager/house-ways/{r['way']}/versions/2/roll-out",
                     {"target": "chosen", "confirm": "yes", "group": [r["north"], r["south"]]})
    assert done.status_code == 302
    assert _house_ways(app, r["north"], r["south"], r["preset"]) == [r["v2"], r["v2"], BASE]

    # Audited: one entry a group, the old and the new house way.
    with app.app_context():
        entries = db.session.execute(db.select(AuditLog).where(
            AuditLog.action == "house_way.roll_out").order_by(AuditLog.target_id)).scalars().all()
        assert [(e.actor_id, e.target_type, e.target_id, e.old, e.new) for e in entries] == [
            (manager.id, "group", g, {"house_way": r["v1"]}, {"house_way": r["v2"]})
            for g in sorted([r["north"], r["south"]])]
    admin_client = app.test_client()
    login(admin_client, admin)
    audit_page = _text(admin_client.get("/admin/audit"))
    assert audit_page.count("House way version put on the group") == 2
    assert "Riverside" in audit_page and "(version 2)" in audit_page

    with app.app_context():
        # The running session finishes on version 1.
        nxt = drill_service.issue_question(north_trainee.id, running)
        assert (nxt.context["house_way"], nxt.context["house_way_digest"]) == (r["v1"], r["d1"])
        session = db.session.get(DrillSession, running)
        assert (session.house_way, session.house_way_digest) == (r["v1"], r["d1"])
    assert _key_front(app, running, 2, cards) == _front(BASE, cards)
    with app.app_context():
        # The exam scheduled before keeps version 1, and runs on it.
        assert db.session.get(CertificationExam, exam_id).house_way == r["v1"]
        exam_session = exams.start_exam(exam_id, south_trainee.id)
        assert db.session.get(DrillSession, exam_session).house_way == r["v1"]
        # The trainees' next sessions use version 2.
        for trainee in (north_trainee, south_trainee):
            later = drill_service.start_session(trainee.id, "house-way", "practice")
            session = db.session.get(DrillSession, later)
            assert (session.house_way, session.house_way_digest) == (r["v2"], r["d2"])
    assert _key_front(app, later, 1, cards) == _front(OTHER, cards)

    # Rolling back is rolling version 1 out again (here to one group, chosen).
    post_form(client, f"/manager/house-ways/{r['way']}/versions/1/roll-out",
              {"target": "chosen", "confirm": "yes", "group": [r["north"]]})
    assert _house_ways(app, r["north"], r["south"]) == [r["v1"], r["v2"]]


def test_a_roll_out_changes_nothing_without_groups_or_for_someone_not_a_manager(
        app: Flask, client: Any, manager: Any, rooms: dict[str, Any]) -> None:
    r = rooms
    url = f"/manager/house-ways/{r['way']}/versions/2/roll-out"
    login(client, r["south_sup"])
    assert post_form(client, url, {"target": "older"}).status_code == 403
    manager_client = app.test_client()
    login(manager_client, manager)
    # No group chosen, an unknown group, an unknown version: refused, nothing changed.
    empty = post_form(manager_client, url, {"target": "chosen", "confirm": "yes"},
                      follow_redirects=True)
    assert "No group to change" in _text(empty)
    unknown = post_form(manager_client, url, {"target": "chosen", "confirm": "yes",
                                              "group": [r["north"], 999_999]},
                        follow_redirects=True)
    assert "no longer exists" in _text(unknown)
    assert post_form(manager_client, url, {"target": "chosen", "confirm": "yes",
                                           "group": ["2" * 40]}).status_code == 400
    assert post_form(manager_client, f"/manager/house-ways/{r['way']}/versions/9/roll-out",
                     {"target": "older"}).status_code == 404
    assert _house_ways(app, r["north"], r["south"]) == [r["v1"], r["v1"]]
    with app.app_context():
        assert not db.session.execute(db.select(AuditLog).where(
            AuditLog.action == "house_way.roll_out")).first()


def test_the_sheet_by_name_opens_the_latest_version_with_a_note_for_a_group_on_another(
        app: Flask, client: Any, rooms: dict[str, Any]) -> None:
    login(client, rooms["north_trainee"])
    sheet = _text(client.get("/house-way/riverside"))
    assert 'data-preset="riverside@2"' in sheet and "Version 2, published" in sheet
    note = re.search(r'<p [^>]*id="group-version-note">.*?</p>', sheet, re.S)[0]
    assert "version 1" in note and 'href="/house-way/riverside@1"' in note
    # On their own version, no note; an unknown name is still a 404.
    assert 'id="group-version-note"' not in _text(client.get("/house-way/riverside@1"))
    assert client.get("/house-way/nowhere").status_code == 404
