"""Issue 24, part 3: sign-in never sleeps in a worker, and a remembered device is not held
up by other devices' failures (a training room behind one address).

Each test is named after the finding it checks.
"""
from __future__ import annotations

import time
from datetime import timedelta

import pytest
from flask.testing import FlaskClient

from trainer.extensions import db
from trainer.models import LoginFailure
from trainer.services import throttle

from .helpers import csrf_token, post_form

ROOM = "10.20.0.1"  # the training room's one address (NAT)


@pytest.fixture(autouse=True)
def no_sleeping(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any sleep on the sign-in path fail the test (the code before issue 24 slept)."""
    def refuse(seconds: float) -> None:
        raise AssertionError(f"the sign-in slept {seconds} s in the worker")

    monkeypatch.setattr(time, "sleep", refuse)
    monkeypatch.setattr(throttle, "sleep", refuse, raising=False)


def _try(client: FlaskClient, login: str, password: str, address: str):
    token = csrf_token(client)
    return client.post("/auth/login", data={"csrf_token": token, "login": login,
                                             "password": password},
                       environ_base={"REMOTE_ADDR": address})


def _sign_out(client: FlaskClient) -> None:
    assert post_form(client, "/auth/logout").status_code == 302


def _age_failures(app, seconds: float) -> None:
    """Move every recorded failure ``seconds`` into the past (time passing, without waiting)."""
    with app.app_context():
        for row in db.session.execute(db.select(LoginFailure)).scalars():
            row.at = row.at - timedelta(seconds=seconds)
        db.session.commit()


def test_a_slowed_sign_in_never_sleeps_in_the_worker_and_answers_429_with_retry_after(
        app, trainee) -> None:
    for i in range(20):
        # Twenty addresses, one guess each: under every per-address limit.
        assert _try(app.test_client(), trainee.login, "wrong-password", f"10.1.0.{i}").status_code == 401
    slowed = _try(app.test_client(), trainee.login, "wrong-password", "10.1.1.1")
    assert slowed.status_code == 429
    assert slowed.headers["Retry-After"] == "1"
    assert "it may be tried again in 1 second." in slowed.get_data(as_text=True)
    with app.app_context():  # refused at once: not checked, not counted
        assert db.session.execute(db.select(db.func.count(LoginFailure.id))).scalar_one() == 20
    # Once the spacing has passed, the login may be tried again (a delay, never a lock-out).
    _age_failures(app, 1)
    assert _try(app.test_client(), trainee.login, "wrong-password", "10.1.1.2").status_code == 401
    # The next spacing doubles: 0.5 s after that failure.
    again = _try(app.test_client(), trainee.login, trainee.password, "10.9.9.9")
    assert again.status_code == 429 and again.headers["Retry-After"] == "1"
    _age_failures(app, 1)
    assert _try(app.test_client(), trainee.login, trainee.password, "10.9.9.9").status_code == 302


def test_twenty_five_wrong_guesses_from_five_addresses_do_not_slow_the_owner_on_a_remembered_device(
        app, trainee) -> None:
    owner = app.test_client()
    assert _try(owner, trainee.login, trainee.password, "10.7.0.1").status_code == 302
    _sign_out(owner)
    for address in range(5):
        for _ in range(5):
            response = _try(app.test_client(), trainee.login, "wrong-password", f"10.3.0.{address}")
            assert response.status_code in (401, 429)
    # A device the owner never signed in on is slowed, answered at once...
    stranger = _try(app.test_client(), trainee.login, trainee.password, "10.7.0.1")
    assert stranger.status_code == 429 and int(stranger.headers["Retry-After"]) >= 1
    # ...while the owner's remembered device signs in straight away.
    assert _try(owner, trainee.login, trainee.password, "10.7.0.1").status_code == 302


def test_five_wrong_guesses_from_the_room_do_not_lock_a_classmate_out_of_a_remembered_device(
        app, trainee) -> None:
    classmate = app.test_client()
    assert _try(classmate, trainee.login, trainee.password, ROOM).status_code == 302
    _sign_out(classmate)
    prankster = app.test_client()
    for _ in range(5):
        assert _try(prankster, trainee.login, "wrong-password", ROOM).status_code == 401
    sixth = _try(prankster, trainee.login, "wrong-password", ROOM)
    assert sixth.status_code == 429
    assert sixth.headers["Retry-After"].isdigit() and 840 < int(sixth.headers["Retry-After"]) <= 900
    assert "Try again in 15 minutes." in sixth.get_data(as_text=True)
    # Another unknown device in the room (the classmate on a borrowed PC) is refused too:
    # an address alone earns no exemption.
    assert _try(app.test_client(), trainee.login, trainee.password, ROOM).status_code == 429
    # The classmate's own browser signs in.
    assert _try(classmate, trainee.login, trainee.password, ROOM).status_code == 302


def test_a_remembered_devices_own_failures_still_count_against_it(app, trainee) -> None:
    device = app.test_client()
    assert _try(device, trainee.login, trainee.password, ROOM).status_code == 302
    _sign_out(device)
    for _ in range(5):
        assert _try(device, trainee.login, "wrong-password", ROOM).status_code == 401
    refused = _try(device, trainee.login, trainee.password, ROOM)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 840
    with app.app_context():
        rows = db.session.execute(db.select(LoginFailure)).scalars().all()
        assert len(rows) == 5 and all(row.device for row in rows)
    # The device's failures are its own: another device in the room is not refused for them.
    assert _try(app.test_client(), trainee.login, trainee.password, ROOM).status_code == 302


def test_the_device_cookie_is_signed_per_login_httponly_lax_and_long_lived(app, trainee, make_user) -> None:
    client = app.test_client()
    response = _try(client, trainee.login, trainee.password, ROOM)
    cookie = next(value for value in response.headers.getlist("Set-Cookie")
                  if value.startswith("trainer_device="))
    attributes = cookie.lower()
    assert "httponly" in attributes and "samesite=lax" in attributes
    assert "max-age=31536000" in attributes and "secure" not in attributes
    _sign_out(client)
    # The cookie names a device of that login only: another login from it is an unknown device.
    other = make_user(login="other-dealer")
    for _ in range(5):
        assert _try(app.test_client(), other.login, "wrong-password", ROOM).status_code == 401
    assert _try(client, other.login, other.password, ROOM).status_code == 429
    # A cookie whose signature does not match is no remembered device.
    forged = app.test_client()
    forged.set_cookie("trainer_device", cookie.split(";")[0].split("=", 1)[1][:-2] + "xx")
    for _ in range(5):
        assert _try(app.test_client(), trainee.login, "wrong-password", ROOM).status_code == 401
    assert _try(forged, trainee.login, trainee.password, ROOM).status_code == 429
    assert _try(client, trainee.login, trainee.password, ROOM).status_code == 302


def test_the_device_cookie_is_secure_on_https(app, trainee) -> None:
    client = app.test_client()
    token = csrf_token(client)
    response = client.post("/auth/login", base_url="https://localhost", data={
        "csrf_token": token, "login": trainee.login, "password": trainee.password},
        headers={"Referer": "https://localhost/auth/login"})
    assert response.status_code == 302
    cookie = next(value for value in response.headers.getlist("Set-Cookie")
                  if value.startswith("trainer_device="))
    assert "; secure" in cookie.lower()
