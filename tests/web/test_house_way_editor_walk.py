"""The product owner's walk through the house-way editor (issue 18): what it turned up.

Each test is one thing a manager, supervisor or trainee met on the way: a job's stage
said as a bare name ("checking"), a version published twice over or from a page of an
older draft, a condition read as "when The higher pair", an edge "from no change to no
change", an empty file read as a way without a title, a share of 6 hands shown as 0.000%,
example hands drawn full size, "House way" beside "House ways" in a manager's menu, the
sheet's picker naming presets by file name, and, for a trainee in an exam, the look-up,
sheet and PDF of the group's custom way staying closed.
"""
from __future__ import annotations

import dataclasses
import io
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.extensions import db
from trainer.models import Group, Job, Role
from trainer.services import house_way_jobs
from trainer.services.certification import exams
from trainer.services.group_settings import GroupSettings
from trainer.web.words.house_way_words import edge_words
from web import test_house_way_editor as editor_tests
from web.helpers import login, post_form
from web.test_custom_way_everywhere import DISPUTED, REF, custom_data
from web.test_custom_way_everywhere import publish as publish_custom
from web.test_house_way_editor import (
    BASE,
    TOTAL,
    clean_report,
    draft,
    field_errors,
    page_stamp,
    publish,
    running_check,
    text_of,
    versions,
)

# The editor tests' fixtures: a manager signed in (boss) with a copy of Trump Plaza
# (way_id), jobs inline, the check's kind answering the report a test gives.
app_config = editor_tests.app_config
manager = editor_tests.manager
boss = editor_tests.boss
way_id = editor_tests.way_id
fake_checks = editor_tests.fake_checks

CASINO = "Golden Sands, Reno"


def check_clean(client: FlaskClient, way_id: int, reports: dict[str, Any], **report: Any) -> None:
    reports[CASINO] = clean_report(**report)
    assert post_form(client, f"{BASE}/{way_id}/check").status_code == 302


# --- a job's progress in words ----------------------------------------------------------------


def test_a_running_jobs_stage_is_said_in_words_not_by_its_name(app, boss, way_id):
    job_id = running_check(app, way_id, heartbeat_seconds_ago=1)
    with app.app_context():
        db.session.get(Job, job_id).message = house_way_jobs.STAGE_CHECKING  # as the worker says it
        db.session.commit()
    page = boss.get(f"{BASE}/{way_id}/check").get_data(as_text=True)
    shown = re.search(r'<span class="job-message">([^<]*)</span>', page)
    assert shown and shown.group(1) == "Setting every hand by the draft"
    assert boss.get(f"{BASE}/jobs/{job_id}").get_json()["message"] == \
        "Setting every hand by the draft"


# --- publishing -------------------------------------------------------------------------------


def test_a_draft_unchanged_since_its_last_version_is_not_published_again(app, boss, way_id,
                                                                         fake_checks):
    check_clean(boss, way_id, fake_checks)
    assert publish(boss, way_id).status_code == 302
    assert versions(app, way_id) == [1]
    editor = boss.get(f"{BASE}/{way_id}").get_data(as_text=True)
    assert re.search(r"<button[^>]*disabled[^>]*>Publish", editor)
    assert "This draft is version 1 as published" in text_of(editor)
    again = publish(boss, way_id, "Pressed twice")  # a double click, a reload, a second manager
    assert again.status_code == 200
    assert any("version 1 as published" in e for e in field_errors(again.get_data(as_text=True),
                                                                      "note"))
    assert versions(app, way_id) == [1]
    # A change (its words only) is worth a version: same rules, so the same check serves.
    page = boss.get(f"{BASE}/{way_id}").get_data(as_text=True)
    data = draft(app, way_id)
    saved = post_form(boss, f"{BASE}/{way_id}/details", {
        "stamp": page_stamp(page), "title": "Golden Sands house way", "casino": CASINO,
        "thresholds": data.get("thresholds", ""), **data["rank_groups"]})
    assert saved.status_code == 302
    assert publish(boss, way_id, "New title").status_code == 302
    assert sorted(versions(app, way_id)) == [1, 2]


def test_a_publish_form_from_an_older_draft_is_refused(app, boss, way_id, fake_checks):
    opened = boss.get(f"{BASE}/{way_id}").get_data(as_text=True)
    stamp = page_stamp(opened)
    assert f'name="stamp" value="{stamp}"' in opened.split('class="publish-form"', 1)[1]
    # Meanwhile (another manager, another tab) a rule moves and the new draft is checked.
    moved = post_form(boss, f"{BASE}/{way_id}/sections/3/rules/1/move",
                      {"stamp": stamp, "delta": "1"})
    assert moved.status_code == 302
    check_clean(boss, way_id, fake_checks)
    response = post_form(boss, f"{BASE}/{way_id}/publish", {"stamp": stamp, "note": "Seen?"})
    assert response.status_code == 200
    assert any("changed since this page was opened" in e
               for e in field_errors(response.get_data(as_text=True), "note"))
    assert versions(app, way_id) == []
    fresh = page_stamp(boss.get(f"{BASE}/{way_id}").get_data(as_text=True))
    assert post_form(boss, f"{BASE}/{way_id}/publish",
                     {"stamp": fresh, "note": "Seen"}).status_code == 302
    assert versions(app, way_id) == [1]


# --- words on the pages -------------------------------------------------------------------------


def test_a_rules_condition_reads_applies_when(boss, way_id):
    words = text_of(boss.get(f"{BASE}/{way_id}").get_data(as_text=True))
    assert "Split: lower pair in front · Applies when: The higher pair: A" in words
    assert " when The " not in words
    delete = text_of(boss.get(f"{BASE}/{way_id}/sections/3/rules/1/delete").get_data(as_text=True))
    assert "Applies when: The higher pair: A" in delete


def test_an_edge_with_no_deal_changed_is_said_plainly(app):
    with app.test_request_context():
        words = edge_words({"hands": 10_000, "edge": {
            "hands": 10_000, "old_edge_points": 3.39, "new_edge_points": 3.39,
            "change_points": 0.0, "change_ci95_points": [0.0, 0.0], "changed_deals": 0}})
    assert words["sentence"] == ("the house keeps exactly the same share of every bet: "
                                 "no deal ended differently")


def test_a_tiny_share_of_hands_is_not_shown_as_zero(app, boss, way_id, fake_checks):
    rules = [r["id"] for s in draft(app, way_id)["sections"] for r in s["rules"]]
    check_clean(boss, way_id, fake_checks, per_rule={rules[0]: TOTAL - 6, rules[-1]: 6})
    page = boss.get(f"{BASE}/{way_id}/check").get_data(as_text=True)
    table = text_of(page.split('class="table rule-hands"', 1)[1].split("</table>", 1)[0])
    assert " 6 under 0.001% " in table and " 6 0.000% " not in table


def test_the_example_hands_are_drawn_small(boss, way_id):
    """The examples use the mini cards, whose size lives in reference.css."""
    for path in (f"{BASE}/{way_id}/check", f"{BASE}/{way_id}/changes"):
        page = boss.get(path).get_data(as_text=True)
        head = page.split("</head>", 1)[0]
        assert "/static/css/reference.css" in head, path


# --- an empty file ----------------------------------------------------------------------


def _import(client: FlaskClient, body: bytes) -> str:
    response = post_form(client, f"{BASE}/import",
                         {"file": (io.BytesIO(body), "way.toml"), "slug": "imported-way"},
                         content_type="multipart/form-data")
    assert response.status_code == 200
    return text_of(response.get_data(as_text=True))


def test_an_empty_file_is_called_empty(boss):
    words = _import(boss, b"  \n")
    assert "This file is empty: choose a house-way file." in words
    assert "The title is empty" not in words


# --- menus and pickers in words -----------------------------------------------------------------


@pytest.mark.parametrize("role", [Role.MANAGER, Role.ADMIN])
def test_a_managers_menu_has_house_ways_and_no_second_house_way_item(app, make_user, role):
    client = app.test_client()
    login(client, make_user(role, login=f"menu-{role}"))
    menu = client.get("/").get_data(as_text=True).split('<nav class="nav"', 1)[1].split("</nav>")[0]
    assert 'href="/manager/house-ways"' in menu
    assert 'href="/house-way"' not in menu


def test_a_trainees_menu_keeps_the_house_way_sheet(client, trainee):
    login(client, trainee)
    menu = client.get("/").get_data(as_text=True).split('<nav class="nav"', 1)[1].split("</nav>")[0]
    assert 'href="/house-way"' in menu


def test_the_sheets_picker_names_presets_by_their_casino(client, trainee):
    login(client, trainee)
    page = client.get("/house-way/trump-plaza").get_data(as_text=True)
    picker = page.split('class="ref-presets', 1)[1].split("</ul>", 1)[0]
    names = re.findall(r"<a [^>]*>([^<]*)</a>", picker)
    assert "Trump Plaza (Atlantic City)" in names and "MGM Grand (Las Vegas)" in names
    assert not [name for name in names if re.fullmatch(r"[a-z-]+", name)], names


# --- a trainee in an exam never sees the custom way's answers -----------------------------------


def test_the_custom_ways_look_up_sheet_and_pdf_stay_closed_during_an_exam(
        app: Flask, client: FlaskClient, manager: Any, supervisor: Any, group: int,
        trainee: Any) -> None:
    ref, _digest = publish_custom(app, manager.id, custom_data())
    assert ref == REF
    with app.app_context():
        record = db.session.get(Group, group)
        dataclasses.replace(GroupSettings.of(record), criteria=None, house_way=REF).save_to(record)
        db.session.commit()
        exam_id = exams.schedule_exam(group, trainee.id, "house-way", supervisor.id)
    login(client, trainee)
    paths = [f"/house-way/look-up?preset={REF}&cards={DISPUTED}",
             f"/house-way/look-up?preset={REF}&cards={DISPUTED}&compare=1",
             f"/house-way/{REF}", f"/house-way/{REF}/pdf", "/house-way"]
    assert client.get(paths[0]).status_code == 200  # open before the exam
    assert post_form(client, f"/exams/{exam_id}/start").status_code == 302
    for path in paths:
        response = client.get(path)
        assert response.status_code == 423, (path, response.status_code)
        assert "Not available during your exam" in text_of(response.get_data(as_text=True))


# --- every editor address refuses trainees and supervisors ------------------------------------


@pytest.mark.parametrize("role", [Role.TRAINEE, Role.SUPERVISOR])
def test_every_editor_address_refuses_trainees_and_supervisors(app, make_user, way_id, role):
    """Each route of the blueprint, present and future, by GET and POST: 403, nothing changed."""
    before = draft(app, way_id)
    client = app.test_client()
    login(client, make_user(role, login=f"walker-{role}"))
    token = re.search(r'name="csrf-token" content="([^"]+)"',
                      client.get("/").get_data(as_text=True)).group(1)
    values = {"way_id": way_id, "section": 3, "rule": 1, "number": 1, "job_id": 1}
    routes = [r for r in app.url_map.iter_rules() if r.endpoint.startswith("manager_ways.")]
    assert len(routes) >= 15
    for rule in routes:
        path = rule.build(values)[1]
        for method in sorted(rule.methods & {"GET", "POST"}):
            response = client.open(path, method=method, data={
                "csrf_token": token, "note": "x", "slug": "other-way", "casino": "Zed",
                "delta": "1", "title": "Taken", "reference": "trump-plaza"})
            assert response.status_code == 403, (method, path, response.status_code)
    assert draft(app, way_id) == before
