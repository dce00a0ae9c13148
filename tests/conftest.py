"""Fixtures shared by the web and browser tests: the app, clients, accounts and records.

Every test gets a fresh database: a temporary SQLite file (a copy of one made with the
tables), or, when TEST_DATABASE_URL is set, that database (one per xdist process) emptied
of its rows, or dropped and rebuilt after a test that changed its schema. CSRF protection
stays on; tests fetch a token the way a browser does (``web.helpers``).
"""
from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from trainer import create_app
from trainer.cli import app_cli
from trainer.extensions import db
from trainer.models import Attempt, DrillSession, Group, Membership, Role, User


def _own_database(url: str | None) -> str | None:
    """Under pytest-xdist each test process takes a database of its own beside the one
    named (``trainer_test_gw0``, made when missing): the tests empty it as they go."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker:
        return url
    named = sa.engine.make_url(url)
    own = named.set(database=f"{named.database}_{worker}")
    engine = sa.create_engine(named, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            if conn.execute(sa.text("SELECT 1 FROM pg_database WHERE datname = :name"),
                            {"name": own.database}).first() is None:
                conn.execute(sa.text(f'CREATE DATABASE "{own.database}"'))
    finally:
        engine.dispose()
    return own.render_as_string(hide_password=False)


TEST_DATABASE_URL = _own_database(os.environ.get("TEST_DATABASE_URL"))
if TEST_DATABASE_URL:  # the process's own, for the modules and servers that read it too
    os.environ["TEST_DATABASE_URL"] = TEST_DATABASE_URL
PASSWORD = "correct-horse-9"


@dataclass(frozen=True)
class Account:
    """What a test needs to act as a user: id and credentials, no ORM object."""

    id: int
    login: str
    password: str
    role: str


def _empty_database(url: str) -> None:
    """Drop every table, including alembic_version, from a shared test database."""
    engine = sa.create_engine(url)
    try:
        existing = sa.MetaData()
        existing.reflect(engine)
        existing.drop_all(engine)
    finally:
        engine.dispose()


# The shape of the PostgreSQL test database's schema, one digest: every column (type, null,
# default), constraint, index, trigger, function and type of the public schema. A test may
# change the schema (a migration, a dropped column); then the digest differs.
_SCHEMA_DIGEST = sa.text("""
SELECT md5(coalesce(string_agg(d, '|' ORDER BY d), '')) FROM (
  SELECT c.relname || '.' || a.attname || ':' || c.relkind::text || ':'
         || format_type(a.atttypid, a.atttypmod) || ':' || a.attnotnull::text || ':'
         || coalesce(pg_get_expr(ad.adbin, ad.adrelid), '') AS d
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    LEFT JOIN pg_attrdef ad ON ad.adrelid = c.oid AND ad.adnum = a.attnum
   WHERE n.nspname = 'public'
  UNION ALL SELECT 'con:' || conrelid::regclass || ':' || conname || ':' || pg_get_constraintdef(oid)
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace
  UNION ALL SELECT 'idx:' || indexdef FROM pg_indexes WHERE schemaname = 'public'
  UNION ALL SELECT 'trg:' || tgname FROM pg_trigger WHERE NOT tgisinternal
  UNION ALL SELECT 'fn:' || proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace
  UNION ALL SELECT 'type:' || typname FROM pg_type WHERE typnamespace = 'public'::regnamespace
) s""")
# The digest of the schema ``db.create_all`` made, once per test run.
_created: dict[str, str] = {}


def _emptied_tables(url: str) -> None:
    """Leave the shared PostgreSQL database with every table ``db.create_all`` makes and no
    rows, as a fresh one: its rows deleted and its sequences restarted when its schema is
    still the one ``create_all`` made, else dropped and made again (a hundred times
    dearer: a drop and a create of every table per test was most of the PostgreSQL run)."""
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            if _created.get(url) == conn.execute(_SCHEMA_DIGEST).scalar_one():
                # DELETE, children first, and every sequence back to 1: a few ms on a
                # test's few rows, where TRUNCATE (new files for every table) took 50.
                table = conn.dialect.identifier_preparer.format_table
                conn.execute(sa.text("; ".join(
                    [f"DELETE FROM {table(t)}" for t in reversed(db.metadata.sorted_tables)]
                    + ["SELECT setval(c.oid::regclass, 1, false) FROM pg_class c"
                       " WHERE c.relkind = 'S' AND c.relnamespace = 'public'::regnamespace"])))
                return
        _created.pop(url, None)
        _empty_database(url)
        db.metadata.create_all(engine)
        with engine.connect() as conn:
            _created[url] = conn.execute(_SCHEMA_DIGEST).scalar_one()
    finally:
        engine.dispose()


@pytest.fixture(scope="session")
def sqlite_with_tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file with every table ``db.create_all`` makes and no rows, made once: each
    test of the ``app`` fixture starts from a copy (a copy is a millisecond, the tables
    made again about 35)."""
    path = tmp_path_factory.mktemp("sqlite") / "tables.sqlite3"
    engine = sa.create_engine(f"sqlite:///{path}")
    try:
        db.metadata.create_all(engine)
    finally:
        engine.dispose()
    return path


@pytest.fixture
def database_url(tmp_path: Any, request: pytest.FixtureRequest) -> str:
    """Return the URL of this test's own database: empty, or, for a test of the ``app``
    fixture, with every table and no rows."""
    tables = "app" in request.fixturenames
    if TEST_DATABASE_URL:
        if tables:
            _emptied_tables(TEST_DATABASE_URL)
        else:
            _empty_database(TEST_DATABASE_URL)
        return TEST_DATABASE_URL
    path = tmp_path / "test.sqlite3"
    if tables:
        shutil.copyfile(request.getfixturevalue("sqlite_with_tables"), path)
    return f"sqlite:///{path}"


@pytest.fixture
def app_config(database_url: str) -> dict[str, Any]:
    """Return the test overrides passed to ``create_app``; tests may change them first."""
    return {
        "TESTING": True,
        "SECRET_KEY": "test-secret-key",
        "SQLALCHEMY_DATABASE_URI": database_url,
        # Still scrypt, at a cost that keeps the suite fast.
        "PASSWORD_HASH_METHOD": "scrypt:1024:8:1",
        # Background jobs run in the calling thread before submit returns (services/jobs/).
        "JOB_RUNNER": "inline",
        # No PDFs printed after every group-settings save or publish (web/platform/pdf_jobs.py):
        # inline, each would start Chromium; tests/web/test_job_workers.py turns it on.
        "PDF_PREPARE": False,
    }


class TrainerCliRunner(FlaskCliRunner):
    """Invoke the whole ``trainer`` group (the app's commands live in ``trainer.cli``) on this app."""

    def invoke(self, cli: Any = None, args: Any = None, **kwargs: Any) -> Any:
        """Run ``args`` through the ``trainer`` group unless another group is given."""
        return super().invoke(cli or app_cli(), args, **kwargs)


@pytest.fixture
def empty_app(app_config: dict[str, Any], tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    """Yield an app whose database has no tables yet."""
    # Keep a developer's instance/config.py and database out of the tests.
    monkeypatch.setenv("TRAINER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    app = create_app(app_config)
    app.test_cli_runner_class = TrainerCliRunner
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def app(empty_app: Flask) -> Flask:
    """Return an app whose database has every table and no rows."""
    return empty_app  # ``database_url`` made the tables


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """Return a test client with its own cookie jar."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """Return a runner for the app's CLI commands."""
    return app.test_cli_runner()


@pytest.fixture
def make_user(app: Flask) -> Any:
    """Return a builder that creates a user and hands back an ``Account``."""
    counter = iter(range(1, 10_000))

    def build(
        role: str = Role.TRAINEE,
        login: str | None = None,
        password: str = PASSWORD,
        name: str | None = None,
        group_id: int | None = None,
        active: bool = True,
    ) -> Account:
        login = login or f"{role}{next(counter)}"
        with app.app_context():
            user = User(name=name or login.title(), login=login, role=role, active=active)
            user.set_password(password)
            if group_id is not None:
                user.membership = Membership(group_id=group_id)
            db.session.add(user)
            db.session.commit()
            return Account(user.id, login, password, role)

    return build


@pytest.fixture
def make_group(app: Flask) -> Any:
    """Return a builder that creates a group and hands back its id."""

    def build(supervisor_id: int, name: str = "Day shift", **fields: Any) -> int:
        with app.app_context():
            group = Group(name=name, supervisor_id=supervisor_id, settings={}, **fields)
            db.session.add(group)
            db.session.commit()
            return group.id

    return build


@pytest.fixture
def make_attempt(app: Flask) -> Any:
    """Return a builder that records one answered question and hands back its id."""

    def build(user_id: int, correct: bool = True, rule_id: str = "hw.pair.split", **fields: Any) -> int:
        issued = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
        with app.app_context():
            session = DrillSession(
                user_id=user_id, kind="set-hand", mode="practice", length=10,
                house_way="trump-plaza", profile="nevada",
            )
            values: dict[str, Any] = {
                "position": 0, "kind": "set-hand", "seed": 42,
                "question": {"hand": ["As", "Ad", "7c", "7d", "2h", "3s", "Jk"]},
                "answer": {"front": ["7c", "7d"]}, "correct_answer": {"front": ["7c", "7d"]},
                "issued_at": issued, "answered_at": issued + timedelta(seconds=4),
                "elapsed_ms": 4000,
            }
            attempt = Attempt(
                session=session, user_id=user_id, correct=correct, rule_id=rule_id,
                **{**values, **fields},
            )
            db.session.add_all([session, attempt])
            db.session.commit()
            return attempt.id

    return build


@pytest.fixture
def supervisor(make_user: Any) -> Account:
    """Return a supervisor account."""
    return make_user(Role.SUPERVISOR, login="sup")


@pytest.fixture
def group(make_group: Any, supervisor: Account) -> int:
    """Return the id of the supervisor's group."""
    return make_group(supervisor.id, name="Day shift")


@pytest.fixture
def trainee(make_user: Any, group: int) -> Account:
    """Return a trainee in the supervisor's group."""
    return make_user(Role.TRAINEE, login="trainee", group_id=group)


@pytest.fixture
def admin(make_user: Any) -> Account:
    """Return an admin account."""
    return make_user(Role.ADMIN, login="boss")


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    """Hold the app's context for the whole test (services called directly, as a view calls them)."""
    with app.app_context():
        yield


@pytest.fixture(scope="session")
def pseudo_translations(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pseudo-locale's catalogue (every message accented), for the tests of unmarked
    text: an app reads it with ``catalogue_tools.pseudo_config``."""
    from catalogue_tools import pseudo_folder

    return pseudo_folder(tmp_path_factory)

