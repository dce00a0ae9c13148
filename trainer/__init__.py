"""Pai Gow Poker house-way trainer: the web app factory."""
from __future__ import annotations

import os
import secrets
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, request
from sqlalchemy import event
from sqlalchemy.engine import Engine

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SECRET_KEY_FILE = "secret_key"
SUPPORTED_LOCALES = ("en",)


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the trainer web app: config, extensions, blueprints, error pages, CLI."""
    instance_path = os.environ.get("TRAINER_INSTANCE_PATH")
    app = Flask(
        __name__,
        instance_path=str(Path(instance_path).resolve()) if instance_path else None,
        instance_relative_config=True,
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder=str(PROJECT_ROOT / "static"),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)

    _load_config(app, test_config)
    from trainer.web import limits

    limits.register(app)  # before the blueprints (the <id:...> converter) and the CSRF check
    _init_extensions(app)
    _register_blueprints(app)

    from trainer.web import errors, security

    errors.register(app)
    security.register(app)

    from trainer.web import cards

    cards.register(app)

    from trainer.web import stored

    stored.register(app)

    from trainer.web import commands

    commands.register(app)
    _warm_engine()
    return app


def _warm_engine() -> None:
    """Load every house-way preset now, so no trainee's first question pays for it.

    Under ``gunicorn --preload`` this runs once in the master and the workers
    share the loaded tables.
    """
    from trainer.engine.house_way import load, preset_names

    for name in preset_names():
        load(name)


def _load_config(app: Flask, test_config: Mapping[str, Any] | None) -> None:
    """Read defaults, then instance/config.py, then the environment, then test overrides."""
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///" + str(Path(app.instance_path) / "trainer.sqlite3"),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        REMEMBER_COOKIE_HTTPONLY=True,
        REMEMBER_COOKIE_SAMESITE="Lax",
        # A training-room tablet may sit on a form for hours; the token lives
        # as long as the session instead of expiring after an hour.
        WTF_CSRF_TIME_LIMIT=None,
        # The largest form or JSON body accepted (413 beyond): see docs/operations.md.
        MAX_CONTENT_LENGTH=64 * 1024,
        BABEL_DEFAULT_LOCALE="en",
        BABEL_DEFAULT_TIMEZONE="UTC",
        BABEL_TRANSLATION_DIRECTORIES=str(PROJECT_ROOT / "translations"),
        LANGUAGES=list(SUPPORTED_LOCALES),
    )
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_prefixed_env()
    if os.environ.get("DATABASE_URL"):
        app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
    if os.environ.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ["SECRET_KEY"]
    if test_config is not None:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret_key(Path(app.instance_path))


def _instance_secret_key(instance_path: Path) -> str:
    """Return the key kept in instance/, generating it on first run."""
    key_file = instance_path / SECRET_KEY_FILE
    if not key_file.exists():
        # O_EXCL: two workers starting together must not write different keys.
        try:
            fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as handle:
                handle.write(secrets.token_hex(32))
    return key_file.read_text().strip()


@event.listens_for(Engine, "connect")
def _configure_sqlite(dbapi_connection: Any, connection_record: Any) -> None:
    """Turn on foreign keys, WAL and a busy timeout for every SQLite connection."""
    if not isinstance(dbapi_connection, sqlite3.Connection):
        return
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def _select_locale() -> str | None:
    """Pick the best supported language from the browser's preferences."""
    return request.accept_languages.best_match(SUPPORTED_LOCALES)


def _init_extensions(app: Flask) -> None:
    """Bind the extension objects to this app."""
    from trainer.extensions import babel, csrf, db, login_manager, migrate
    from trainer import models  # noqa: F401  (registers the tables on db.metadata)

    db.init_app(app)
    migrate.init_app(
        app, db, directory=str(PROJECT_ROOT / "migrations"), render_as_batch=True
    )
    csrf.init_app(app)
    babel.init_app(app, locale_selector=_select_locale)
    from flask_babel import get_locale

    app.jinja_env.globals["get_locale"] = get_locale

    login_manager.init_app(app)
    login_manager.login_view = "auth.login"
    login_manager.login_message_category = "info"

    from flask_babel import lazy_gettext as _l

    login_manager.login_message = _l("Please sign in to see this page.")

    from trainer.web import sessions

    @login_manager.user_loader
    def load_user(session_id: str) -> models.User | None:
        """Return the signed-in user, or None once signed out, deactivated or signed out everywhere."""
        return sessions.load(session_id)


def _register_blueprints(app: Flask) -> None:
    """Attach one blueprint per area."""
    from trainer.web import admin, auth, drills, exams, health, main, play, reference, supervisor

    app.register_blueprint(health.bp)
    app.register_blueprint(auth.bp)
    app.register_blueprint(main.bp)
    app.register_blueprint(drills.bp)
    app.register_blueprint(supervisor.bp)
    app.register_blueprint(exams.bp)
    app.register_blueprint(admin.bp)
    app.register_blueprint(reference.bp)
    app.register_blueprint(play.bp)
