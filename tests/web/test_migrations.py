"""Beyond test_commands's autogenerate check: CHECK constraints, names and the 0002 downgrade."""
from __future__ import annotations

import configparser
import re
from datetime import datetime
from itertools import pairwise
from pathlib import Path
from typing import Any

import flask_migrate
import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from flask import Flask

from trainer.extensions import db

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
# The first migration predates the numbered names: its file is 0001_..., its
# revision id stays the generated hash that existing databases are stamped with.
FIRST_REVISION = "2599e80be60e"


def _schema(engine: sa.Engine) -> dict[str, Any]:
    """Describe every table: columns, keys, unique and check constraints, indexes."""
    inspector = sa.inspect(engine)
    schema: dict[str, Any] = {}
    for table in inspector.get_table_names():
        if table == "alembic_version":
            continue
        schema[table] = {
            "columns": {
                column["name"]: (type(column["type"]).__name__, column["nullable"])
                for column in inspector.get_columns(table)
            },
            "primary_key": inspector.get_pk_constraint(table)["constrained_columns"],
            "foreign_keys": sorted(
                (tuple(fk["constrained_columns"]), fk["referred_table"],
                 fk.get("options", {}).get("ondelete"))
                for fk in inspector.get_foreign_keys(table)
            ),
            "unique": sorted(
                (u["name"], tuple(u["column_names"])) for u in inspector.get_unique_constraints(table)
            ),
            "checks": sorted(
                (c["name"], " ".join(c["sqltext"].split())) for c in inspector.get_check_constraints(table)
            ),
            "indexes": sorted(
                (i["name"], tuple(i["column_names"]), bool(i["unique"]))
                for i in inspector.get_indexes(table)
            ),
        }
    return schema


@pytest.fixture
def models_schema(empty_app: Flask) -> dict[str, Any]:
    """Return the schema ``db.create_all`` builds from the models, on the test's own
    kind of database (SQLite or PostgreSQL report constraints differently)."""
    with empty_app.app_context():
        db.create_all()
        schema = _schema(db.engine)
        db.drop_all()
    return schema


def test_upgrade_on_an_empty_database_matches_the_models(empty_app: Flask,
                                                         models_schema: dict[str, Any]) -> None:
    with empty_app.app_context():
        flask_migrate.upgrade()
        migrated = _schema(db.engine)
        version = db.session.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one()
        script = ScriptDirectory.from_config(empty_app.extensions["migrate"].migrate.get_config())
    assert version == script.get_current_head()
    assert "0002_drills" in {rev.revision for rev in script.walk_revisions()}
    assert set(migrated) == set(models_schema)
    for table in models_schema:
        assert migrated[table] == models_schema[table], table


def test_exam_mode_is_allowed_after_the_drills_migration(empty_app: Flask) -> None:
    with empty_app.app_context():
        flask_migrate.upgrade()
        checks = sa.inspect(db.engine).get_check_constraints("drill_sessions")
    assert any("'exam'" in check["sqltext"] for check in checks)


def test_downgrade_to_the_first_migration_and_back(empty_app: Flask) -> None:
    with empty_app.app_context():
        flask_migrate.upgrade()
        flask_migrate.downgrade(revision="2599e80be60e")
        inspector = sa.inspect(db.engine)
        assert "issued_questions" not in inspector.get_table_names()
        assert not any("'exam'" in c["sqltext"] for c in inspector.get_check_constraints("drill_sessions"))
        flask_migrate.upgrade()
        assert "issued_questions" in sa.inspect(db.engine).get_table_names()


def _chain() -> list[Any]:
    """Return the migrations from the first to the head, failing unless they form one line."""
    script = ScriptDirectory(str(MIGRATIONS))
    heads = script.get_heads()
    assert len(heads) == 1, (
        f"the migrations have {len(heads)} heads ({', '.join(heads)}): merge them into one line")
    bases = script.get_bases()
    assert bases == [FIRST_REVISION], (
        f"the first migration should be {FIRST_REVISION}, not {bases}")
    chain = list(reversed(list(script.walk_revisions())))
    for revision in chain:
        assert not revision.is_merge_point and not revision.is_branch_point, (
            f"{Path(revision.path).name} is a merge or a branch point: the chain must be linear")
    return chain


def test_migration_files_are_numbered_in_the_order_of_the_chain() -> None:
    chain = _chain()
    files = sorted(path.name for path in (MIGRATIONS / "versions").glob("*.py"))
    assert [Path(revision.path).name for revision in chain] == files, (
        "the file names, sorted, must follow the chain of down_revisions")
    for number, revision in enumerate(chain, start=1):
        name = Path(revision.path).name
        prefix = f"{number:04d}_"
        assert re.fullmatch(r"\d{4}_[a-z0-9_]+\.py", name), (
            f"{name}: expected <4-digit number>_<slug>.py")
        assert name.startswith(prefix), (
            f"{name}: migration number {number} in the chain should be named {prefix}...")
        if revision.revision != FIRST_REVISION:
            assert revision.revision.startswith(f"{number:04d}"), (
                f"{name}: its revision id {revision.revision!r} should start with {number:04d} "
                f"(trainer db revision --rev-id {number:04d} -m ...)")


def test_migration_create_dates_follow_the_chain() -> None:
    dates = []
    for revision in _chain():
        text = Path(revision.path).read_text(encoding="utf-8")
        match = re.search(r"^Create Date: (\S+ \S+)$", text, re.MULTILINE)
        assert match, f"{Path(revision.path).name} has no 'Create Date:' line"
        dates.append((datetime.fromisoformat(match.group(1)), Path(revision.path).name))
    for (earlier, earlier_name), (later, later_name) in pairwise(dates):
        assert earlier <= later, f"{later_name} ({later}) is dated before {earlier_name} ({earlier})"


def test_new_migrations_get_numbered_file_names() -> None:
    config = configparser.ConfigParser(interpolation=None)
    config.read(MIGRATIONS / "alembic.ini")
    assert config.get("alembic", "file_template", fallback=None) == "%%(rev)s_%%(slug)s"


def _roles_and_counts() -> tuple[dict[str, tuple[str, bool, str | None]], dict[str, int]]:
    rows = db.session.execute(sa.text(
        "SELECT login, role, active, deactivated_by_role FROM users")).all()
    counts = {table: db.session.execute(sa.text(f"SELECT COUNT(*) FROM {table}")).scalar_one()
              for table in ("users", "groups", "memberships")}
    return {login: (role, bool(active), by) for login, role, active, by in rows}, counts


def test_manager_role_migration_keeps_every_row_and_its_downgrade_deactivates_managers(
        empty_app: Flask) -> None:
    # 0009 rebuilds the users table on SQLite (a CHECK constraint cannot be altered):
    # the groups and memberships that refer to it must survive, both ways.
    with empty_app.app_context():
        flask_migrate.upgrade(revision="0008_time_zones_exam_foul_policy")
        now = datetime(2026, 12, 3, 12, 0)
        for login, role in (("sup", "supervisor"), ("tra", "trainee")):
            db.session.execute(sa.text(
                "INSERT INTO users (name, login, password_hash, role, active, created_at) "
                "VALUES (:n, :n, 'x', :r, :on, :at)"), {"n": login, "r": role, "on": True, "at": now})
        sup, tra = (db.session.execute(sa.text("SELECT id FROM users WHERE login = :l"),
                                       {"l": login}).scalar_one() for login in ("sup", "tra"))
        db.session.execute(sa.text(
            "INSERT INTO groups (name, supervisor_id, house_way, profile, settings, created_at) "
            "VALUES ('Day', :s, 'trump-plaza', 'nevada', '{}', :at)"), {"s": sup, "at": now})
        group = db.session.execute(sa.text("SELECT id FROM groups")).scalar_one()
        db.session.execute(sa.text("INSERT INTO memberships (user_id, group_id, joined_at) "
                                   "VALUES (:u, :g, :at)"), {"u": tra, "g": group, "at": now})
        db.session.commit()
        with pytest.raises(sa.exc.IntegrityError):   # before 0009 there is no manager
            db.session.execute(sa.text("UPDATE users SET role = 'manager' WHERE login = 'sup'"))
        db.session.rollback()
        db.session.remove()

        flask_migrate.upgrade()
        roles, counts = _roles_and_counts()
        assert counts == {"users": 2, "groups": 1, "memberships": 1}
        db.session.execute(sa.text(
            "INSERT INTO users (name, login, password_hash, role, active, created_at) "
            "VALUES ('boss', 'boss', 'x', 'manager', :on, :at)"), {"on": True, "at": now})
        db.session.commit()
        db.session.remove()

        flask_migrate.downgrade(revision="0008_time_zones_exam_foul_policy")
        roles, counts = _roles_and_counts()
        assert counts == {"users": 3, "groups": 1, "memberships": 1}
        # The manager is kept, but as an inactive supervisor only an admin may reactivate.
        assert roles["boss"] == ("supervisor", False, "admin")
        assert roles["sup"] == ("supervisor", True, None)
        db.session.remove()
        flask_migrate.upgrade()
        checks = sa.inspect(db.engine).get_check_constraints("users")
    assert any("'manager'" in check["sqltext"] for check in checks)
