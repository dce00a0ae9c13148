"""Only the role that deactivated an account, or a higher one, may reactivate it."""
from __future__ import annotations

import flask_migrate
import sqlalchemy as sa

from trainer.extensions import db
from trainer.models import User

from .helpers import login, post_form


def _active(app, user_id: int) -> bool:
    with app.app_context():
        return db.session.get(User, user_id).active


def test_a_supervisor_cannot_reactivate_an_account_an_admin_deactivated(
        app, supervisor, trainee, admin) -> None:
    boss, sup = app.test_client(), app.test_client()
    login(boss, admin)
    login(sup, supervisor)
    post_form(boss, f"/admin/users/{trainee.id}/active", {"active": "0", "confirm": "1"})
    response = post_form(sup, f"/supervisor/trainees/{trainee.id}/active", {"active": "1"},
                         follow_redirects=True)
    assert "Only an admin or a higher role can reactivate" in response.get_data(as_text=True)
    assert not _active(app, trainee.id)
    page = sup.get(f"/supervisor/trainees/{trainee.id}").get_data(as_text=True)
    assert "only an admin can reactivate it" in page and "Reactivate account" not in page
    post_form(boss, f"/admin/users/{trainee.id}/active", {"active": "1"})
    assert _active(app, trainee.id)


def test_the_deactivating_supervisor_or_an_admin_may_reactivate(
        app, supervisor, trainee, admin) -> None:
    boss, sup = app.test_client(), app.test_client()
    login(boss, admin)
    login(sup, supervisor)
    post_form(sup, f"/supervisor/trainees/{trainee.id}/active", {"active": "0"})
    with app.app_context():
        assert db.session.get(User, trainee.id).deactivated_by_role == "supervisor"
    post_form(sup, f"/supervisor/trainees/{trainee.id}/active", {"active": "1"})
    assert _active(app, trainee.id)
    post_form(sup, f"/supervisor/trainees/{trainee.id}/active", {"active": "0"})
    post_form(boss, f"/admin/users/{trainee.id}/active", {"active": "1"})
    assert _active(app, trainee.id)
    with app.app_context():
        assert db.session.get(User, trainee.id).deactivated_by_role is None


def test_an_inactive_account_with_no_recorded_role_waits_for_an_admin(
        app, client, supervisor, group, make_user) -> None:
    dormant = make_user(login="dormant", group_id=group, active=False)
    login(client, supervisor)
    post_form(client, f"/supervisor/trainees/{dormant.id}/active", {"active": "1"})
    assert not _active(app, dormant.id)


def test_the_upgrade_reads_who_deactivated_an_account_from_the_audit_log(empty_app) -> None:
    with empty_app.app_context():
        flask_migrate.upgrade(revision="0006_dashboard_indexes")
        with db.engine.begin() as connection:
            insert_user = sa.text(
                "INSERT INTO users (id, name, login, password_hash, role, active, created_at,"
                " session_version) VALUES (:id, :login, :login, 'x', :role, :active,"
                " '2026-01-01 00:00:00', 0)")
            connection.execute(insert_user, [
                {"id": 1, "login": "sup", "role": "supervisor", "active": True},
                {"id": 2, "login": "boss", "role": "admin", "active": True},
                {"id": 3, "login": "by-sup", "role": "trainee", "active": False},
                {"id": 4, "login": "by-boss", "role": "trainee", "active": False},
                {"id": 5, "login": "unknown", "role": "trainee", "active": False},
                {"id": 6, "login": "back", "role": "trainee", "active": True},
            ])
            connection.execute(sa.text(
                "INSERT INTO audit_log (actor_id, action, target_type, target_id, at) VALUES"
                " (:actor, :action, 'user', :target, :at)"), [
                {"actor": 2, "action": "account.deactivate", "target": 3, "at": "2026-01-02 00:00:00"},
                {"actor": 2, "action": "account.activate", "target": 3, "at": "2026-01-03 00:00:00"},
                {"actor": 1, "action": "account.deactivate", "target": 3, "at": "2026-01-04 00:00:00"},
                {"actor": 2, "action": "account.deactivate", "target": 4, "at": "2026-01-02 00:00:00"},
                {"actor": 1, "action": "account.deactivate", "target": 6, "at": "2026-01-02 00:00:00"},
            ])
        flask_migrate.upgrade()
        roles = dict(db.session.execute(
            sa.text("SELECT login, deactivated_by_role FROM users")).all())
    assert roles == {"sup": None, "boss": None, "by-sup": "supervisor", "by-boss": "admin",
                     "unknown": None, "back": None}
