"""Password rules wherever a password is set: not the login, not a common password;
password changes are in the audit log."""
from __future__ import annotations

import html

import pytest

from trainer.extensions import db
from trainer.models import AuditLog, User

from .helpers import login, post_form

SAME_AS_LOGIN = "may not be the same as the login"
COMMON = "list of common passwords"


def _text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def _user(app, login_name: str) -> User | None:
    with app.app_context():
        return db.session.execute(db.select(User).filter_by(login=login_name)).scalar_one_or_none()


@pytest.mark.parametrize("password, message", [
    ("ann.dealer", SAME_AS_LOGIN),
    ("ANN.DEALER", SAME_AS_LOGIN),
    ("trustno1", COMMON),
    ("Sunshine", COMMON),
    ("iloveyou1", COMMON),
])
def test_a_supervisor_cannot_give_a_new_trainee_a_refused_password(
        app, client, supervisor, group, password, message) -> None:
    login(client, supervisor)
    response = post_form(client, "/supervisor/trainees/new", {
        "name": "Ann Dealer", "login": "ann.dealer", "password": password, "group_id": group})
    assert response.status_code == 200
    assert message in _text(response)
    assert _user(app, "ann.dealer") is None


@pytest.mark.parametrize("password, message", [("pit-boss", SAME_AS_LOGIN), ("password1", COMMON)])
def test_an_admin_cannot_give_a_new_supervisor_a_refused_password(
        app, client, admin, password, message) -> None:
    login(client, admin)
    response = post_form(client, "/admin/supervisors/new", {
        "name": "Pit Boss", "login": "Pit-Boss", "password": password})
    assert response.status_code == 200
    assert message in _text(response)
    assert _user(app, "pit-boss") is None


@pytest.mark.parametrize("password, message", [("Trainee ", SAME_AS_LOGIN), ("baseball", COMMON)])
def test_a_password_reset_refuses_the_login_and_common_passwords(
        app, client, supervisor, trainee, password, message) -> None:
    login(client, supervisor)
    response = post_form(client, f"/supervisor/trainees/{trainee.id}/password",
                         {"password": password})
    assert response.status_code == 200
    assert message in _text(response)
    assert _user(app, trainee.login).check_password(trainee.password)


@pytest.mark.parametrize("password, message", [("LUCKY-DEALER", SAME_AS_LOGIN), ("qwerty123", COMMON)])
def test_changing_ones_own_password_refuses_the_login_and_common_passwords(
        app, client, make_user, password, message) -> None:
    account = make_user(login="lucky-dealer")
    login(client, account)
    response = post_form(client, "/auth/password", {
        "current": account.password, "new": password, "confirm": password})
    assert response.status_code == 200
    assert message in _text(response)
    assert _user(app, account.login).check_password(account.password)


@pytest.mark.parametrize("login_name, password, message", [
    ("croupier9", "Croupier9", SAME_AS_LOGIN),
    ("croupier9", "football", COMMON),
])
def test_create_user_refuses_the_login_and_common_passwords(
        app, runner, login_name, password, message) -> None:
    result = runner.invoke(args=["create-user", "--role", "admin", "--login", login_name,
                                 "--password", password])
    assert result.exit_code != 0 and message in result.output
    assert _user(app, login_name) is None


def test_the_model_refuses_a_password_equal_to_the_login(app) -> None:
    with app.app_context():
        user = User(name="Ann", login="ann.dealer", role="trainee")
        with pytest.raises(ValueError, match=SAME_AS_LOGIN):
            user.set_password("Ann.Dealer")
        with pytest.raises(ValueError, match=COMMON):
            user.set_password("superman")


def test_the_common_password_list_is_shipped_and_sensible() -> None:
    from trainer.models.security import common_passwords, password_problem

    words = common_passwords()
    assert len(words) > 10_000
    assert {"password", "12345678", "iloveyou", "sunshine", "trustno1"} <= words
    assert password_problem("correct-horse-9", "trainee") is None


def test_a_password_change_is_in_the_audit_log(app, client, trainee) -> None:
    login(client, trainee)
    response = post_form(client, "/auth/password", {
        "current": trainee.password, "new": "a-new-long-secret", "confirm": "a-new-long-secret"})
    assert response.status_code == 302
    with app.app_context():
        rows = db.session.execute(
            db.select(AuditLog).where(AuditLog.action == "account.password-change")
        ).scalars().all()
        assert [(r.actor_id, r.target_type, r.target_id) for r in rows] == [
            (trainee.id, "user", trainee.id)]
        assert "a-new-long-secret" not in str(rows[0].new) and rows[0].new is None
