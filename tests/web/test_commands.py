"""The app's commands: create-user, seed-demo and the migrations behind db upgrade."""
from __future__ import annotations

from types import SimpleNamespace

import flask_migrate
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from trainer.cli.accounts import DEMO_MANAGER, DEMO_TRAINEE_PASSWORD
from trainer.extensions import db
from trainer.models import Group, Role, User
from web.helpers import login


def test_create_user_prompts_for_the_password(app, runner) -> None:
    result = runner.invoke(args=["create-user", "--role", "supervisor", "--login", "Pit.Boss"],
                           input="long-enough-1\nlong-enough-1\n")
    assert result.exit_code == 0, result.output
    with app.app_context():
        user = db.session.execute(db.select(User).filter_by(login="pit.boss")).scalar_one()
        assert user.role == Role.SUPERVISOR and user.check_password("long-enough-1")


def test_create_user_makes_a_table_games_manager(app, runner) -> None:
    result = runner.invoke(args=["create-user", "--role", "manager", "--login", "Floor",
                                 "--name", "Pat Floor", "--password", "long-enough-1"])
    assert result.exit_code == 0 and "Created manager 'floor'" in result.output
    with app.app_context():
        user = db.session.execute(db.select(User).filter_by(login="floor")).scalar_one()
        assert user.role == Role.MANAGER and user.name == "Pat Floor"


def test_seed_demo_adds_a_manager_who_signs_in_to_the_manager_home(app, runner, client) -> None:
    result = runner.invoke(args=["seed-demo", "--accounts-only"])
    login_name, _name, password = DEMO_MANAGER
    assert result.exit_code == 0 and login_name in result.output and password in result.output
    with app.app_context():
        manager = db.session.execute(db.select(User).filter_by(login=login_name)).scalar_one()
        assert manager.role == Role.MANAGER and "(demo)" in manager.name

    demo = SimpleNamespace(login=login_name, password=password)
    assert login(client, demo).headers["Location"] == "/"
    home = client.get("/").get_data(as_text=True)
    assert 'id="manager-home"' in home and "Demo group (demo)" in home


def test_seed_demo_adds_the_manager_to_a_demo_seeded_before_managers(app, runner) -> None:
    assert runner.invoke(args=["seed-demo", "--accounts-only"]).exit_code == 0
    with app.app_context():
        db.session.execute(db.delete(User).where(User.login == DEMO_MANAGER[0]))
        db.session.commit()
    again = runner.invoke(args=["seed-demo", "--accounts-only"])
    assert again.exit_code == 0 and "Demo manager added" in again.output
    with app.app_context():
        assert db.session.execute(db.select(db.func.count()).select_from(User).where(
            User.role == Role.MANAGER)).scalar_one() == 1
        assert db.session.execute(db.select(db.func.count()).select_from(User)).scalar_one() == 6


def test_create_user_refuses_a_taken_login_and_a_short_password(runner, trainee) -> None:
    taken = runner.invoke(args=["create-user", "--role", "admin", "--login", "trainee",
                                "--password", "long-enough-1"])
    assert taken.exit_code != 0 and "taken" in taken.output
    short = runner.invoke(args=["create-user", "--role", "admin", "--login", "x", "--password", "short"])
    assert short.exit_code != 0 and "at least 10" in short.output


def test_seed_demo_creates_marked_demo_accounts_once(app, runner, client) -> None:
    first = runner.invoke(args=["seed-demo", "--accounts-only"])
    assert first.exit_code == 0 and "demo-trainee1" in first.output
    second = runner.invoke(args=["seed-demo", "--accounts-only"])
    assert second.exit_code == 0 and "already present" in second.output
    with app.app_context():
        users = db.session.execute(db.select(User)).scalars().all()
        assert sorted(user.role for user in users) == [
            "admin", "manager", "supervisor", "trainee", "trainee", "trainee"]
        assert all("(demo)" in user.name for user in users)
        group = db.session.execute(db.select(Group)).scalar_one()
        assert len(group.memberships) == 3

    class Demo:
        login = "demo-trainee1"
        password = DEMO_TRAINEE_PASSWORD

    assert login(client, Demo).headers["Location"] == "/"


def test_migrations_build_the_schema_the_models_describe(empty_app) -> None:
    with empty_app.app_context():
        flask_migrate.upgrade()
        with db.engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            assert compare_metadata(context, db.metadata) == []
            tables = set(sa.inspect(connection).get_table_names())
        assert {"users", "groups", "memberships", "drill_sessions", "attempts"} <= tables
        flask_migrate.downgrade(revision="base")
