"""A manager's house way is titled in the reader's language, and its published version's
page reads its rules as its sheet does (QA walk after issue 27).

Findings: in Portuguese the demo way's headings read "Riverside Casino (demo) house way"
(the PDF page: "O PDF de ... house way está sendo impresso"), and its version page showed
the rule texts in English while its printable sheet showed the same version in Portuguese.
A copy's title is "<casino> house way": it reads as the casino with the catalogue's words
for "house way"; its rules read in the reader's language when the way has them.
"""
from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.extensions import db
from trainer.models import CustomHouseWay, Role
from web.helpers import login, post_form
from web.test_custom_way_everywhere import CASINO, REF, TITLE, custom_data, publish

PT_TITLE = f"Método da casa {CASINO}"  # the pt catalogue's "%(casino)s house way"


@pytest.fixture
def manager(make_user: Any) -> Any:
    return make_user(Role.MANAGER, login="manager")


@pytest.fixture
def way_id(app: Flask, manager: Any) -> int:
    data = custom_data()
    for words in data["translations"].values():
        words.pop("title", None)  # as a copy for another casino (the copy drops it)
    ref, _ = publish(app, manager.id, data)
    assert ref == REF
    with app.app_context():
        return int(db.session.execute(db.select(CustomHouseWay.id)).scalar_one())


def _page(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return html.unescape(response.get_data(as_text=True))


def _reader(client: FlaskClient, user: Any, language: str) -> FlaskClient:
    login(client, user)
    post_form(client, "/auth/account/language", {"language": language})
    return client


def _first_rule() -> dict[str, Any]:
    return custom_data()["sections"][0]["rules"][0]


def test_a_portuguese_reader_sees_the_custom_ways_title_in_portuguese(
        client: FlaskClient, manager: Any, way_id: int) -> None:
    reader = _reader(client, manager, "pt")
    for url in (f"/manager/house-ways/{way_id}/versions/1", f"/house-way/{REF}",
                "/manager/house-ways"):
        text = _page(reader, url)
        assert PT_TITLE in text, url
        assert TITLE not in text, url
    # The editor's heading too (its title field keeps the words as written, to edit them).
    editor = _page(reader, f"/manager/house-ways/{way_id}")
    assert f'<h1 id="way-title">{PT_TITLE}</h1>' in editor
    version = _page(reader, f"/manager/house-ways/{way_id}/versions/1")
    assert re.search(rf"<h1>{re.escape(PT_TITLE)}</h1>", version)
    assert re.search(rf"<title>{re.escape(PT_TITLE)} ·", version)


def test_the_version_page_reads_the_rules_in_the_readers_language(
        client: FlaskClient, manager: Any, way_id: int) -> None:
    rule = _first_rule()
    pt = rule["translations"]["pt"]
    reader = _reader(client, manager, "pt")
    version = _page(reader, f"/manager/house-ways/{way_id}/versions/1")
    sheet = _page(reader, f"/house-way/{REF}")
    assert pt["text"] in version and pt["text"] in sheet
    assert f"{rule['number']} · {pt['short']}" in version
    assert rule["text"] not in version
    # The editor edits the English originals: it keeps them.
    editor = _page(reader, f"/manager/house-ways/{way_id}")
    assert rule["text"] in editor


def test_an_english_reader_sees_the_title_as_written(
        client: FlaskClient, manager: Any, way_id: int) -> None:
    reader = _reader(client, manager, "en")
    version = _page(reader, f"/manager/house-ways/{way_id}/versions/1")
    assert f"<h1>{TITLE}</h1>" in version and _first_rule()["text"] in version
