"""The app factory: configuration order, the secret key, SQLite settings, cookies."""
from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from trainer import create_app
from trainer.extensions import db


@pytest.fixture
def instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point the app at an empty instance folder and clear the environment."""
    path = tmp_path / "instance"
    monkeypatch.setenv("TRAINER_INSTANCE_PATH", str(path))
    for name in ("DATABASE_URL", "SECRET_KEY", "FLASK_SECRET_KEY"):
        monkeypatch.delenv(name, raising=False)
    return path


def test_default_database_is_a_sqlite_file_in_instance(instance: Path) -> None:
    app = create_app()
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{instance / 'trainer.sqlite3'}"


def test_missing_secret_key_is_generated_once_into_instance(instance: Path) -> None:
    first = create_app().config["SECRET_KEY"]
    second = create_app().config["SECRET_KEY"]
    key_file = instance / "secret_key"
    assert first == second == key_file.read_text().strip()
    assert len(first) == 64
    assert key_file.stat().st_mode & 0o077 == 0


def test_instance_config_then_environment_then_test_config(
    instance: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    instance.mkdir()
    (instance / "config.py").write_text(
        "SECRET_KEY = 'from-instance'\nSQLALCHEMY_DATABASE_URI = 'sqlite:///instance.db'\n"
        "SEEN_IN_INSTANCE = True\n"
    )
    assert create_app().config["SECRET_KEY"] == "from-instance"

    monkeypatch.setenv("SECRET_KEY", "from-env")
    monkeypatch.setenv("DATABASE_URL", "sqlite:///env.db")
    monkeypatch.setenv("FLASK_MAX_CONTENT_LENGTH", "1000")
    app = create_app()
    assert app.config["SECRET_KEY"] == "from-env"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite:///env.db"
    assert app.config["MAX_CONTENT_LENGTH"] == 1000
    assert app.config["SEEN_IN_INSTANCE"] is True

    assert create_app({"SECRET_KEY": "from-test"}).config["SECRET_KEY"] == "from-test"


def test_session_cookie_is_http_only_and_same_site_lax(app) -> None:
    assert app.config["SESSION_COOKIE_HTTPONLY"] is True
    assert app.config["SESSION_COOKIE_SAMESITE"] == "Lax"


def test_sqlite_connections_have_foreign_keys_wal_and_busy_timeout(app) -> None:
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("SQLite settings")
        with db.engine.connect() as connection:
            pragma = lambda name: connection.execute(sa.text(f"PRAGMA {name}")).scalar()  # noqa: E731
            assert pragma("foreign_keys") == 1
            assert pragma("journal_mode") == "wal"
            assert pragma("busy_timeout") == 5000


def test_static_and_templates_come_from_the_top_level_folders(client) -> None:
    for path in ("/static/css/app.css", "/static/js/app.js", "/static/favicon.svg"):
        with client.get(path) as response:
            assert response.status_code == 200
    page = client.get("/auth/login").get_data(as_text=True)
    assert "http://" not in page and "https://" not in page


def test_pages_are_served_in_english_through_babel(client) -> None:
    response = client.get("/auth/login", headers={"Accept-Language": "fr-FR,en;q=0.5"})
    page = response.get_data(as_text=True)
    assert '<html lang="en">' in page
    assert "Sign in" in page


def test_english_catalog_ships_with_the_app() -> None:
    root = Path(__file__).resolve().parents[2]
    assert (root / "babel.cfg").is_file()
    assert (root / "translations" / "en" / "LC_MESSAGES" / "messages.po").is_file()


def test_the_app_makes_the_rank_tables_at_start_so_no_request_builds_them(
        instance: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from trainer.engine import hands

    monkeypatch.setattr(hands, "_TABLES", {})
    create_app()
    assert sorted(hands._TABLES) == sorted(w.value for w in hands.Wheel)
