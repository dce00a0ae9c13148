"""Signing in and out, the check on ``next`` and changing one's own password."""
from __future__ import annotations

from dataclasses import replace

import pytest

from trainer.extensions import db
from trainer.models import User
from web.helpers import csrf_token, login, post_form


def test_login_with_the_right_password_opens_the_home_page(client, trainee) -> None:
    response = login(client, trainee)
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    assert "My recent results" in client.get("/").get_data(as_text=True)


def test_login_ignores_case_and_spaces_in_the_login(client, trainee) -> None:
    response = login(client, replace(trainee, login="  TRAINEE "))
    assert response.headers["Location"] == "/"


@pytest.mark.parametrize("login_name, password", [
    ("trainee", "wrong-password"),
    ("nobody", "correct-horse-9"),
    ("", ""),
])
def test_login_fails_with_a_wrong_login_or_password(client, trainee, login_name, password) -> None:
    response = login(client, replace(trainee, login=login_name, password=password))
    assert response.status_code == 401
    assert "Location" not in response.headers
    assert client.get("/").headers["Location"].startswith("/auth/login")


def test_unknown_login_and_wrong_password_give_the_same_message(client, trainee) -> None:
    wrong_password = login(client, replace(trainee, password="nope-nope-nope"))
    unknown_login = login(client, replace(trainee, login="ghost", password="nope-nope-nope"))
    assert "Wrong login or password." in wrong_password.get_data(as_text=True)
    assert "Wrong login or password." in unknown_login.get_data(as_text=True)


def test_a_deactivated_account_cannot_sign_in(client, make_user) -> None:
    account = make_user(active=False)
    assert login(client, account).status_code == 401


def test_deactivating_an_account_ends_its_session(app, client, trainee) -> None:
    login(client, trainee)
    with app.app_context():
        db.session.get(User, trainee.id).active = False
        db.session.commit()
    assert client.get("/").headers["Location"].startswith("/auth/login")


def test_login_follows_a_next_on_this_site(client, trainee) -> None:
    response = login(client, trainee, next_url="/results?page=2")
    assert response.headers["Location"] == "/results?page=2"


@pytest.mark.parametrize("bad_next", [
    "https://evil.example/",
    "//evil.example/",
    "/\\evil.example",
    "\\\\evil.example",
    "javascript:alert(1)",
    "http:/evil.example",
    "results",
    "/\tevil",
])
def test_login_ignores_a_next_leading_off_the_site(client, trainee, bad_next) -> None:
    response = login(client, trainee, next_url=bad_next)
    assert response.headers["Location"] == "/"


def test_logout_is_a_post(client, trainee) -> None:
    login(client, trainee)
    assert client.get("/auth/logout").status_code == 405
    response = post_form(client, "/auth/logout")
    assert response.headers["Location"] == "/auth/login"
    assert client.get("/").headers["Location"].startswith("/auth/login")


def test_signed_in_user_visiting_login_goes_home(client, trainee) -> None:
    login(client, trainee)
    assert client.get("/auth/login").headers["Location"] == "/"


def test_change_own_password(client, trainee) -> None:
    login(client, trainee)
    response = post_form(client, "/auth/password", {
        "current": trainee.password, "new": "a-new-password", "confirm": "a-new-password",
    })
    assert response.headers["Location"] == "/"
    post_form(client, "/auth/logout")
    assert login(client, trainee).status_code == 401
    renamed = replace(trainee, password="a-new-password")
    assert login(client, renamed).headers["Location"] == "/"


@pytest.mark.parametrize("current, new, confirm, message", [
    ("wrong-current", "a-new-password", "a-new-password", "not your current password"),
    ("correct-horse-9", "short", "short", "at least 10 characters"),
    ("correct-horse-9", "correct-horse-9", "correct-horse-9", "differ from the current one"),
    ("correct-horse-9", "a-new-password", "another-one", "differ"),
])
def test_change_password_refuses_bad_input(client, trainee, current, new, confirm, message) -> None:
    login(client, trainee)
    response = post_form(client, "/auth/password", {"current": current, "new": new, "confirm": confirm})
    assert response.status_code == 200
    assert message in response.get_data(as_text=True)


def test_login_page_carries_a_csrf_token(client) -> None:
    assert len(csrf_token(client)) > 20
