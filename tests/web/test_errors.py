"""Error pages a person can read."""
from __future__ import annotations

import pytest
from flask import abort

from trainer import create_app
from trainer.extensions import db
from web.helpers import login


def test_404_page(client) -> None:
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert "Page not found" in response.get_data(as_text=True)


def test_403_page(client, trainee) -> None:
    login(client, trainee)
    response = client.get("/admin/users")
    assert "Not allowed" in response.get_data(as_text=True)


@pytest.fixture
def failing_app(app_config, tmp_path, monkeypatch):
    """Return an app with routes that fail, reporting errors as a deployed app does."""
    monkeypatch.setenv("TRAINER_INSTANCE_PATH", str(tmp_path / "instance"))
    app = create_app({**app_config, "TESTING": False})

    @app.route("/boom")
    def boom() -> str:
        raise RuntimeError("boom")

    @app.route("/bad")
    def bad() -> str:
        abort(400)

    yield app
    with app.app_context():  # close its pooled connections (PostgreSQL: no open one is left to GC)
        db.engine.dispose()


def test_500_page(failing_app) -> None:
    response = failing_app.test_client().get("/boom")
    assert response.status_code == 500
    assert "Something went wrong" in response.get_data(as_text=True)


def test_400_page(failing_app) -> None:
    response = failing_app.test_client().get("/bad")
    assert response.status_code == 400
    assert "Bad request" in response.get_data(as_text=True)
