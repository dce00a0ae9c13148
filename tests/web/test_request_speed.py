"""``/healthz`` (the request-cost bench's baseline) sends no SQL even for a signed-in
browser: the ``no-store`` header is decided from the cookies when no view loaded the user.
(The speed tweaks' tests, cards and translations among them, are tests/web/test_fast_paths.py.)
"""
from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from web.helpers import login
from web.test_request_cost import counted


def test_healthz_sends_no_sql_for_a_signed_in_browser(
    app: Flask, client: FlaskClient, trainee: Any
) -> None:
    login(client, trainee)
    client.get("/healthz")
    with counted(app) as statements:
        response = client.get("/healthz")
    assert response.status_code == 200
    assert statements == []
    assert response.headers["Cache-Control"] == "no-store"  # signed in, by the cookie


def test_healthz_without_a_sign_in_is_not_marked_no_store(client: FlaskClient) -> None:
    assert "no-store" not in client.get("/healthz").headers.get("Cache-Control", "")


