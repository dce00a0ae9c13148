"""Pai Gow Poker house-way trainer: the web app factory.

``create_app`` reads as its list of steps, each a ``configure_*`` function. Flask
is imported inside them, so ``import trainer.engine`` (and the engine commands)
load no Flask.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SECRET_KEY_FILE = "secret_key"


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the trainer web app: config, extensions, blueprints, error pages, CLI."""
    app = new_app()
    configure_config(app, test_config)
    configure_request_limits(app)  # before the blueprints (the <id:...> converter) and CSRF
    configure_extensions(app)
    configure_login(app)
    configure_blueprints(app)
    configure_errors(app)
    configure_security(app)
    configure_static_files(app)
    configure_template_filters(app)
    configure_jobs(app)
    configure_fast_paths(app)  # last: before any template is loaded, after every global
    warm_engine()
    return app


def new_app() -> Flask:
    """Create the Flask object: instance folder, and the top-level templates and static files."""
    from flask import Flask

    instance_path = os.environ.get("TRAINER_INSTANCE_PATH")
    app = Flask(
        __name__,
        instance_path=str(Path(instance_path).resolve()) if instance_path else None,
        instance_relative_config=True,
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder=str(PROJECT_ROOT / "static"),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    return app


def configure_config(app: Flask, test_config: Mapping[str, Any] | None) -> None:
    """Read defaults, then instance/config.py, then the environment, then test overrides."""
    from trainer.services.languages import LANGUAGES  # the one list of languages (issue 19)

    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///" + str(Path(app.instance_path) / "trainer.sqlite3"),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        REMEMBER_COOKIE_HTTPONLY=True,
        REMEMBER_COOKIE_SAMESITE="Lax",
        # A training-room tablet may sit on a form for hours; the token lives
        # as long as the session instead of expiring after an hour.
        WTF_CSRF_TIME_LIMIT=None,
        # A sign-in ends 12 hours after it began, or after 2 hours unused: seconds, or a
        # timedelta in config.py (docs/operations.md, "Sessions end, tokens hashed, ...").
        SESSION_LIFETIME=12 * 3600,
        SESSION_IDLE_TIMEOUT=2 * 3600,
        # The largest form or JSON body accepted (413 beyond): see docs/operations.md.
        MAX_CONTENT_LENGTH=64 * 1024,
        BABEL_DEFAULT_LOCALE="en",
        BABEL_DEFAULT_TIMEZONE="UTC",
        BABEL_TRANSLATION_DIRECTORIES=str(PROJECT_ROOT / "translations"),
        LANGUAGES=list(LANGUAGES),
        # Background jobs: queued here, run by `trainer worker` (docs/operations.md,
        # "Background jobs"; issue 25).
        JOB_RUNNER="worker",
        JOB_STALE_SECONDS=30,
        # The speed tweaks (web/platform/fast_paths.py): True, False (plain Flask, Jinja and
        # the templates) or the names of those to keep (docs/operations.md, "Speed tweaks").
        FAST_PATHS=True,
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
    import secrets  # here, not at the top: the engine commands import this package

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


def configure_request_limits(app: Flask) -> None:
    """Bound what a request may carry: ids in URLs, JSON depth and size."""
    from trainer.web.platform import limits

    limits.register(app)


# The pseudo-locale (tools/catalogues.py, docs/languages.md "Catalogues"): with the config
# PSEUDO_LOCALE set (TRAINER_PSEUDO_LOCALE=1), every page reads it, to find unmarked words.
PSEUDO_LOCALE = "en_001"


def _select_locale() -> str | None:
    """Pick the page's language: the reader's, the installation's, the browser's, English
    (``trainer/web/platform/languages.py``)."""
    from flask import current_app

    from trainer.web.platform.languages import select_locale

    if current_app.config.get("PSEUDO_LOCALE"):
        return PSEUDO_LOCALE
    return select_locale()


def configure_extensions(app: Flask) -> None:
    """Bind the extension objects to this app."""
    from trainer import models  # noqa: F401  (registers the tables on db.metadata)
    from trainer.extensions import babel, csrf, db, migrate

    db.init_app(app)
    migrate.init_app(
        app, db, directory=str(PROJECT_ROOT / "migrations"), render_as_batch=True
    )
    csrf.init_app(app)
    from trainer.web.platform.time_zones import select_zone

    # Times are stored UTC and shown in the reader's zone (trainer/web/platform/time_zones.py).
    babel.init_app(app, locale_selector=_select_locale, timezone_selector=select_zone)


def configure_login(app: Flask) -> None:
    """Set up sign-in: the login page, its message, and the server-side session loader."""
    from flask_babel import lazy_gettext as _l

    from trainer.extensions import login_manager
    from trainer.web.platform import sessions
    from trainer.web.platform.signed_in import SignedIn

    login_manager.init_app(app)
    login_manager.login_view = sessions.SIGN_IN_VIEW
    login_manager.login_message_category = "info"
    login_manager.login_message = _l("Please sign in to see this page.")

    # The session limits (a wrong value stops the start) and the answer to a request
    # that needs a sign-in (401 JSON to a script, with why an expired session ended).
    sessions.register(app)

    @login_manager.user_loader
    def load_user(session_id: str) -> SignedIn | None:
        """Return the signed-in user, or None once signed out, deactivated, signed out
        everywhere or past the session's lifetime or idle limit."""
        return sessions.load(session_id)


def configure_blueprints(app: Flask) -> None:
    """Attach the blueprints, area by area (trainer/web/<area>/; docs/architecture.md)."""
    from trainer.web import admin, auth, classroom, play, reference, supervisor
    from trainer.web.manager import pages as manager
    from trainer.web.manager import ways as manager_ways
    from trainer.web.platform import health
    from trainer.web.trainee import drills, exams, learning
    from trainer.web.trainee import home as main

    app.register_blueprint(health.bp)
    app.register_blueprint(auth.bp)
    app.register_blueprint(main.bp)
    app.register_blueprint(drills.bp)
    app.register_blueprint(supervisor.bp)
    app.register_blueprint(exams.bp)
    app.register_blueprint(admin.bp)
    app.register_blueprint(manager.bp)
    app.register_blueprint(manager_ways.bp)  # the house-way editor (issue 18)
    app.register_blueprint(reference.bp)
    app.register_blueprint(play.bp)
    app.register_blueprint(classroom.bp)  # classroom mode (issue 31)
    app.register_blueprint(learning.bp)  # practice that adapts (issue 30)


def configure_errors(app: Flask) -> None:
    """Answer errors with the app's own pages."""
    from trainer.web.platform import errors

    errors.register(app)


def configure_security(app: Flask) -> None:
    """Add the security headers and checks every response and request gets."""
    from trainer.web.platform import security

    security.register(app)


def configure_static_files(app: Flask) -> None:
    """Version the static URLs and hash and gzip every static file now, not in a request
    (the drill kinds' scripts too, kept in their web folders)."""
    from trainer.web.platform import drill_kinds, static_files

    static_files.register(app, extra=drill_kinds.scripts(app))


def configure_template_filters(app: Flask) -> None:
    """Register the app-wide template filters and globals."""
    from trainer.web.platform import filters

    filters.register(app)


def configure_jobs(app: Flask) -> None:
    """Build the background-job runner from the config (``JOB_*``) and register the kinds."""
    from trainer.services import house_way_jobs, jobs
    from trainer.web.platform import pdf_jobs

    house_way_jobs.register_kinds()
    pdf_jobs.register_kinds()
    app.extensions[jobs.EXTENSION] = jobs.Runner.from_config(app.config)


def configure_fast_paths(app: Flask) -> None:
    """Install the speed tweaks (``web/platform/fast_paths.py``) unless the config's
    ``FAST_PATHS`` is False: with it off the app runs on plain Flask, Jinja and the templates."""
    from trainer.web.platform import fast_paths

    fast_paths.install(app)


def warm_engine() -> None:
    """Load every house-way preset and its class tables now, so no trainee's first
    question pays for it (what that costs at start: docs/operations.md, "Speed tweaks
    (issue 29)", the figures moved out of the code).

    Under ``gunicorn --preload`` this runs once in the master and the workers
    share the loaded tables.
    """
    from trainer.engine.hands import warm_rank_tables
    from trainer.engine.house_way import load, preset_names
    from trainer.services import house_ways

    warm_rank_tables()
    for name in preset_names():
        # With its class tables (both wheel settings), so no request loads one.
        load(name).warm_tables()
    # Published custom versions and preset snapshots are found by the one service that
    # owns them and handed down to the engine (each kept once a process, on first use):
    # a new app may have a new database, so what an earlier app found is forgotten.
    house_ways.forget()
