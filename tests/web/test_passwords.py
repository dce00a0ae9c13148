"""Password rules wherever a password is set (one rule, trainer/models/passwords.py): at
least 10 characters once normalised, not the login, not the current password, not a demo
password, not a common password or a decorated one; an account whose password breaks the
rule changes it at its next sign-in; password changes are in the audit log."""
from __future__ import annotations

import html
from dataclasses import replace
from types import SimpleNamespace

import pytest

from trainer.extensions import db
from trainer.models import AuditLog, User

from .helpers import csrf_token, login, post_form

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
    ("trustno1!!", COMMON),
    ("Sunshine2026", COMMON),
    ("iloveyou123", COMMON),
])
def test_a_supervisor_cannot_give_a_new_trainee_a_refused_password(
        app, client, supervisor, group, password, message) -> None:
    login(client, supervisor)
    response = post_form(client, "/supervisor/trainees/new", {
        "name": "Ann Dealer", "login": "ann.dealer", "password": password, "group_id": group})
    assert response.status_code == 200
    assert message in _text(response)
    assert _user(app, "ann.dealer") is None


@pytest.mark.parametrize("password, message", [("pit-boss2026!", SAME_AS_LOGIN), ("password1234", COMMON)])
def test_an_admin_cannot_give_a_new_supervisor_a_refused_password(
        app, client, admin, password, message) -> None:
    login(client, admin)
    response = post_form(client, "/admin/supervisors/new", {
        "name": "Pit Boss", "login": "Pit-Boss", "password": password})
    assert response.status_code == 200
    assert message in _text(response)
    assert _user(app, "pit-boss") is None


@pytest.mark.parametrize("password, message", [("Trainee2026 ", SAME_AS_LOGIN), ("baseball99", COMMON)])
def test_a_password_reset_refuses_the_login_and_common_passwords(
        app, client, supervisor, trainee, password, message) -> None:
    login(client, supervisor)
    response = post_form(client, f"/supervisor/trainees/{trainee.id}/password",
                         {"password": password})
    assert response.status_code == 200
    assert message in _text(response)
    assert _user(app, trainee.login).check_password(trainee.password)


@pytest.mark.parametrize("password, message", [("LUCKY-DEALER", SAME_AS_LOGIN), ("qwerty12345", COMMON)])
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
    ("croupier9", "Croupier9!!!", SAME_AS_LOGIN),
    ("ann.dealer", "football1234", COMMON),
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
            user.set_password("superman2026")


def test_the_common_password_list_is_shipped_and_sensible() -> None:
    from trainer.models.passwords import common_passwords, password_problem

    words = common_passwords()
    assert len(words) > 29_000
    assert {"password", "12345678", "iloveyou", "sunshine", "trustno1"} <= words
    assert {"dealer", "croupier", "casino", "paigow", "blackjack", "baccarat", "pitboss"} <= words
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


# Issue 24, part 6: the passwords the finding saw accepted.
ZERO_WIDTH_SPACES = "\u200b" * 8
WEAK_PASSWORDS = ["aaaaaaaa", ZERO_WIDTH_SPACES, "dealer123", "Dealer2026!", "paigow1",
                  "casino2026!", "blackjack!", "croupier...", "Croupier-2026",
                  "demo-manager-pw", "demo-supervisor-pw", "demo-trainee-pw"]
REFUSALS = ("at least 10 characters", "different characters", SAME_AS_LOGIN, COMMON,
            "published demo password", "differ from the current one")


@pytest.mark.parametrize("password", [*WEAK_PASSWORDS, "the current password", "the login"])
def test_the_weak_passwords_of_the_finding_are_refused_for_ones_own_change(
        app, client, make_user, password) -> None:
    account = make_user(login="table-seven-dealer", password="river-stone-lantern-4")
    new = {"the current password": account.password, "the login": "Table-Seven-Dealer"}.get(
        password, password)
    login(client, account)
    response = post_form(client, "/auth/password", {
        "current": account.password, "new": new, "confirm": new})
    assert response.status_code == 200
    text = _text(response)
    assert any(refusal in text for refusal in REFUSALS), text
    assert _user(app, account.login).check_password(account.password)


@pytest.mark.parametrize("password", ["Dealer2026!", ZERO_WIDTH_SPACES, "demo-trainee-pw", "paigow-2026"])
def test_every_place_that_sets_a_password_uses_the_one_rule(
        app, client, runner, admin, supervisor, group, trainee, password) -> None:
    login(client, admin)
    created = post_form(client, "/admin/supervisors/new", {
        "name": "Pit Boss", "login": "pit-boss", "password": password})
    assert created.status_code == 200 and any(r in _text(created) for r in REFUSALS)
    assert _user(app, "pit-boss") is None
    post_form(client, "/auth/logout")
    login(client, supervisor)
    trainee_page = post_form(client, "/supervisor/trainees/new", {
        "name": "Ann Dealer", "login": "ann.dealer", "password": password, "group_id": group})
    assert trainee_page.status_code == 200 and _user(app, "ann.dealer") is None
    reset = post_form(client, f"/supervisor/trainees/{trainee.id}/password", {"password": password})
    assert reset.status_code == 200 and any(r in _text(reset) for r in REFUSALS)
    assert _user(app, trainee.login).check_password(trainee.password)
    result = runner.invoke(args=["create-user", "--role", "admin", "--login", "new-admin",
                                 "--password", password])
    assert result.exit_code != 0 and _user(app, "new-admin") is None


def test_a_reset_to_the_accounts_current_password_is_refused(app, client, supervisor, trainee) -> None:
    login(client, supervisor)
    response = post_form(client, f"/supervisor/trainees/{trainee.id}/password",
                         {"password": trainee.password})
    assert response.status_code == 200
    assert "differ from the current one" in _text(response)


def test_the_rule_normalises_nfkc_and_removes_invisible_characters() -> None:
    from trainer.models.passwords import PasswordProblem, normalize_password, password_problem

    assert normalize_password("ｄｅａｌｅｒ\u200b２０２６\ufe0f！") == "dealer2026!"
    assert password_problem("ｄｅａｌｅｒ２０２６！", "ann") is PasswordProblem.COMMON
    assert password_problem("de\u200ballergy\u2060" + "\u200d" * 9, "ann") is PasswordProblem.TOO_SHORT
    assert password_problem("d3al3r-2026!", "ann") is PasswordProblem.COMMON
    assert password_problem("Pai-Gow-Poker-7", "ann") is PasswordProblem.COMMON
    assert password_problem("ann.dealer2026!", "ann.dealer") is PasswordProblem.SAME_AS_LOGIN
    assert password_problem("aaaaabbbbb", "ann") is PasswordProblem.TOO_FEW_DIFFERENT
    # A long phrase made of ordinary words is fine.
    assert password_problem("dealer moves the dragon hand", "ann") is None


def test_a_password_is_hashed_normalised_and_an_older_raw_hash_still_signs_in(app, client, make_user) -> None:
    from werkzeug.security import generate_password_hash

    account = make_user(login="wide-dealer", password="ｒｉｖｅｒ-ｓｔｏｎｅ-４")
    assert login(client, replace(account, password="river-stone-4")).status_code == 302
    post_form(client, "/auth/logout")
    typed = "river\u200b-stone-lantern-9"
    with app.app_context():  # an account whose hash was made before normalisation (issue 24)
        user = db.session.get_one(User, account.id)
        user.password_hash = generate_password_hash(typed, method="scrypt:1024:8:1")
        db.session.commit()
    assert login(client, replace(account, password=typed)).status_code == 302


@pytest.mark.parametrize("weak", ["dealer123", "Dealer2026!", "trustno1"])
def test_an_account_with_a_weak_password_is_sent_to_change_it_at_its_next_sign_in(
        app, client, trainee, weak) -> None:
    from werkzeug.security import generate_password_hash

    with app.app_context():  # a password set before the rule (issue 24)
        user = db.session.get_one(User, trainee.id)
        user.password_hash = generate_password_hash(weak, method="scrypt:1024:8:1")
        db.session.commit()
    signed_in = login(client, replace(trainee, password=weak))
    assert signed_in.status_code == 302 and signed_in.headers["Location"] == "/auth/password"
    assert _user(app, trainee.login).password_change_due
    # No other page until it is changed: pages and posts alike lead to the password page.
    for path in ("/", "/drills/", "/auth/account"):
        response = client.get(path)
        assert response.status_code == 303 and response.headers["Location"] == "/auth/password", path
    posted = client.post("/auth/account", data={"csrf_token": csrf_token(client, "/auth/password"),
                                                "time_zone": "Europe/London"})
    assert posted.status_code == 303 and posted.headers["Location"] == "/auth/password"
    assert _user(app, trainee.login).time_zone is None
    page = client.get("/auth/password")
    assert page.status_code == 200
    assert "does not meet the password rules any more" in _text(page)
    changed = post_form(client, "/auth/password", {
        "current": weak, "new": "harbour-lights-at-dawn", "confirm": "harbour-lights-at-dawn"})
    assert changed.status_code == 302
    assert not _user(app, trainee.login).password_change_due
    assert client.get("/").status_code == 200


def test_a_good_password_is_not_sent_to_change(app, client, trainee) -> None:
    assert login(client, trainee).headers["Location"] == "/"
    assert not _user(app, trainee.login).password_change_due


def test_the_demo_accounts_keep_their_published_passwords_without_a_forced_change(
        app, client, runner) -> None:
    from trainer.cli.accounts import demo_logins

    assert runner.invoke(args=["seed-demo", "--accounts-only"]).exit_code == 0
    for _role, demo_login, demo_password in demo_logins():
        fresh = app.test_client()
        response = login(fresh, SimpleNamespace(login=demo_login, password=demo_password))
        assert response.status_code == 302 and response.headers["Location"] == "/", demo_login
        assert not _user(app, demo_login).password_change_due
