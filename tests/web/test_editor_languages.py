"""The house-way editor's problems in the manager's language (issue 19, item 1).

The editor's validation (``engine/house_way/editing/``) and the custom ways' service
(``services/house_ways/``) word their problems as the engine's ``Message``s; the editor
(``web/manager/ways/``) says them. A fake catalogue marks every template ``ES[...]`` for a
Spanish reader (``test_feedback_languages.py``); an English reader reads the English as before.
"""
from __future__ import annotations

import io
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.models import Role
from web.helpers import login, post_form
from web.test_feedback_languages import fake_spanish  # noqa: F401  (the fixture)
from web.test_house_way_editor import BASE, copy_way, field_errors

BROKEN = 'name = "x-way"\ncasino = "X"\ntitle = "broken\n'


@pytest.fixture
def manager(make_user: Any) -> Any:
    return make_user(Role.MANAGER, login="floor-boss", name="Pat Floor")


def manager_in(client: FlaskClient, manager: Any, language: str) -> FlaskClient:
    login(client, manager)
    post_form(client, "/auth/account/language", {"language": language})
    return client


@pytest.mark.usefixtures("fake_spanish")
def test_a_spanish_manager_reads_the_editors_problems_in_spanish(
        app: Flask, client: FlaskClient, manager: Any) -> None:
    manager_in(client, manager, "es")
    page = post_form(client, f"{BASE}/import", {"file": (io.BytesIO(BROKEN.encode()), "x.toml")},
                     content_type="multipart/form-data").get_data(as_text=True)
    errors = field_errors(page, "file")
    assert errors and all(e.startswith("ES[The file cannot be read at line 3") for e in errors), \
        errors
    page = copy_way(client, slug="trump-plaza").get_data(as_text=True)
    assert field_errors(page, "slug") == [
        "ES['trump-plaza' is the name of a preset house way; choose another.]"]


@pytest.mark.usefixtures("fake_spanish")
def test_an_english_manager_reads_the_editors_problems_as_before(
        app: Flask, client: FlaskClient, manager: Any) -> None:
    manager_in(client, manager, "en")
    page = post_form(client, f"{BASE}/import", {"file": (io.BytesIO(BROKEN.encode()), "x.toml")},
                     content_type="multipart/form-data").get_data(as_text=True)
    errors = field_errors(page, "file")
    assert errors and all(e.startswith("The file cannot be read at line 3, column") for e in errors)
    page = copy_way(client, slug="trump-plaza").get_data(as_text=True)
    assert field_errors(page, "slug") == [
        "'trump-plaza' is the name of a preset house way; choose another."]
