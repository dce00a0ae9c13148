"""Group settings: the page and its history work for every group; every engine profile is a choice."""
from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest

from trainer.engine.drills import DrillContext, get_drill
from trainer.engine.house_way import DEFAULT_HOUSE_WAY, preset_names
from trainer.engine.profiles import DEFAULT_PROFILE, get_profile, profile_names
from trainer.extensions import db
from trainer.models import AuditLog, DrillSession, Group, Role
from trainer.services import drills as drill_service
from trainer.web.words.names import profile_name
from web.helpers import login, post_form

_ROW = re.compile(r"<tr>(.*?)</tr>", re.S)
_CELL = re.compile(r"<t[dh][^>]*>(.*?)</t[dh]>", re.S)
_TAG = re.compile(r"<[^>]+>")


def _history(page: str) -> list[list[str]]:
    """Return the change history table's body rows as lists of cell texts."""
    match = re.search(r'<table class="table" id="history">(.*?)</table>', page, re.S)
    assert match, "no change history table"
    body = match.group(1).split("<tbody>", 1)[1]
    return [[html_lib.unescape(_TAG.sub("", cell)).strip() for cell in _CELL.findall(row)]
            for row in _ROW.findall(body)]


def _options(page: str, field: str) -> list[str]:
    """Return the option values of a select field, in order."""
    match = re.search(rf'<select[^>]*name="{field}"[^>]*>(.*?)</select>', page, re.S)
    assert match, f"no select {field}"
    return re.findall(r'<option[^>]*value="([^"]*)"', match.group(1))


def _create_group(client: Any, name: str = "Night shift", **fields: str) -> int:
    """Create a group through the supervisor's form, as a person would, and return its id."""
    response = post_form(client, "/supervisor/groups/new", {
        "name": name, "house_way": DEFAULT_HOUSE_WAY, "profile": DEFAULT_PROFILE, **fields})
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def test_settings_page_of_a_group_created_in_the_app_shows_its_history_in_words(
        app, client, supervisor) -> None:
    login(client, supervisor)
    group_id = _create_group(client, house_way="foxwoods")
    page = client.get(f"/supervisor/groups/{group_id}/edit")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    rows = {row[3]: row for row in _history(text)}
    assert rows["Group name"][2:] == ["Group created", "Group name", "—", "Night shift"]
    # Values in words: the casino's name and the profile's title, never their ids.
    assert rows["House way"][4:] == ["—", "Foxwoods (Connecticut)"]
    assert rows["Table rules"][4:] == ["—", profile_name(DEFAULT_PROFILE)]
    assert all(row[1] == "Sup" for row in rows.values())
    history = text.split('id="history"', 1)[1]
    for raw in ("null", "{", "Undefined", "house_way"):
        assert raw not in history.split("</table>", 1)[0]


def test_history_renders_any_audit_entry_whatever_its_shape(app, client, supervisor, group) -> None:
    shapes = [
        ("group.create", None, {"name": "Day shift", "house_way": "mgm-grand", "profile": "nevada"}),
        ("group.settings", {"profile": "nevada"}, {"profile": "california"}),
        ("group.settings", {"settings": {}}, {"settings": {
            "drills": {"house-way": {"length": 7}},
            "certification": {"criteria": [{"kind": "house-way", "min_accuracy": 97.5, "window": 60}]},
        }}),
        ("group.archive", {"name": "Day shift"}, None),
        ("group.import", None, None),
        ("group.note", ["a", 1, None], "plain text"),
        ("group.future", {"colour_scheme": {"deep": {"er": [1, {"x": True}]}}}, {"weird-key": 3.0}),
    ]
    with app.app_context():
        for action, old, new in shapes:
            db.session.add(AuditLog(actor_id=supervisor.id, action=action, target_type="group",
                                    target_id=group, old=old, new=new))
        db.session.add(AuditLog(actor_id=None, action="group.settings", target_type="group",
                                target_id=group, old={"name": "A"}, new={"name": "B"}))
        db.session.commit()
    login(client, supervisor)
    page = client.get(f"/supervisor/groups/{group}/edit")
    assert page.status_code == 200
    rows = _history(page.get_data(as_text=True))
    cells = [row[2:] for row in rows]
    assert ["Settings changed", "Table rules", profile_name("nevada"),
            profile_name("california")] in cells
    title = get_drill("house-way").title
    assert ["Settings changed", f"Drills › {title} › Questions per session", "—", "7"] in cells
    assert ["Settings changed", f"Certification › {title} › Minimum accuracy (%)", "—", "97.5"] in cells
    # Actions without words of their own are their names in words, never the raw key.
    assert ["Group archive", "Group name", "Day shift", "—"] in cells
    assert ["Group import", "—", "—", "—"] in cells
    assert ["Group note", "—", "a, 1, —", "plain text"] in cells
    assert ["Group future", "Weird key", "—", "3"] in cells
    assert ["Group future", "Colour scheme › Deep › Er", "1, X: yes", "—"] in cells
    assert ["Settings changed", "Group name", "A", "B"] in cells
    assert [row[1] for row in rows if row[4:] == ["A", "B"]] == ["—"]  # the actor's account is gone


def test_forms_offer_exactly_the_engines_house_ways_and_profiles_default_first(
        app, client, supervisor, group) -> None:
    login(client, supervisor)
    for url in ("/supervisor/groups/new", f"/supervisor/groups/{group}/edit"):
        page = client.get(url).get_data(as_text=True)
        assert _options(page, "house_way") == preset_names()
        assert _options(page, "profile") == profile_names()
        assert _options(page, "profile")[0] == DEFAULT_PROFILE
    response = post_form(client, f"/supervisor/groups/{group}/edit", {
        "name": "Day shift", "house_way": DEFAULT_HOUSE_WAY, "profile": "atlantic-ocean"})
    # Refused in words by GroupSettings (services/profiles.py knows every profile, issue 18).
    assert response.status_code == 200 and (
        "There is no table-rules profile called" in response.get_data(as_text=True))
    with app.app_context():
        assert db.session.get(Group, group).profile == DEFAULT_PROFILE
        assert db.session.execute(db.select(db.func.count()).select_from(AuditLog)
                                  .where(AuditLog.target_type == "group")).scalar() == 0


@pytest.mark.parametrize("profile", profile_names())
def test_every_engine_profile_is_selectable_saved_and_drives_the_groups_drills(
        app, client, supervisor, make_user, profile) -> None:
    login(client, supervisor)
    group_id = _create_group(client, profile=profile)
    trainee = make_user(Role.TRAINEE, login="dealer", group_id=group_id)
    other = next(name for name in profile_names() if name != profile)
    # Away from it and back again through the settings form, each change in the history.
    for choice in (other, profile):
        response = post_form(client, f"/supervisor/groups/{group_id}/edit", {
            "name": "Night shift", "house_way": DEFAULT_HOUSE_WAY, "profile": choice})
        assert response.status_code == 302, response.get_data(as_text=True)
    page = client.get(f"/supervisor/groups/{group_id}/edit").get_data(as_text=True)
    assert re.search(rf'<option selected value="{profile}">|<option value="{profile}" selected', page)
    cells = [row[2:] for row in _history(page)]
    assert cells[0] == ["Settings changed", "Table rules", profile_name(other),
                        profile_name(profile)]
    assert cells[1] == ["Settings changed", "Table rules", profile_name(profile),
                        profile_name(other)]
    with app.app_context():
        assert db.session.get(Group, group_id).profile == profile
        assert drill_service.settings_for(trainee.id).profile == profile
        session_id = drill_service.start_session(trainee.id, "settlement", "timed")
        assert db.session.get(DrillSession, session_id).profile == profile
        view = drill_service.issue_question(trainee.id, session_id)
        assert DrillContext.from_dict(view.context).table == get_profile(profile)
