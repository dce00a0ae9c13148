"""Sign-in throttling counted in the database: per (login, address), per address, and the
slowdown of a much-guessed login that never locks its owner out; nothing sleeps in the
worker, a refused try is answered at once with ``Retry-After`` (issue 24)."""
from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from flask.testing import FlaskClient

from trainer.extensions import db
from trainer.models import LoginFailure, User
from trainer.services import throttle

from .helpers import csrf_token


def _try(client: FlaskClient, login: str, password: str, address: str = "127.0.0.1") -> int:
    """Post the sign-in form from ``address`` and return the status code."""
    environ = {"REMOTE_ADDR": address}
    token = csrf_token(client)
    response = client.post("/auth/login", data={"csrf_token": token, "login": login,
                                                "password": password}, environ_base=environ)
    return response.status_code


def _failures(app, login: str | None = None) -> int:
    with app.app_context():
        query = db.select(db.func.count(LoginFailure.id))
        if login is not None:
            query = query.where(LoginFailure.login == login)
        return db.session.execute(query).scalar_one()


def test_five_failed_checks_lock_only_that_login_and_address_pair(app, trainee, monkeypatch) -> None:
    checks: list[str] = []
    original = User.check_password

    def counting(user: User, password: str) -> bool:
        checks.append(password)
        return original(user, password)

    monkeypatch.setattr(User, "check_password", counting)
    attacker, owner = app.test_client(), app.test_client()
    for _ in range(5):
        assert _try(attacker, trainee.login, "wrong-password", "10.0.0.66") == 401
    token = csrf_token(attacker)
    refused = attacker.post("/auth/login", data={"csrf_token": token, "login": trainee.login,
                                                 "password": trainee.password},
                            environ_base={"REMOTE_ADDR": "10.0.0.66"})
    assert refused.status_code == 429
    assert "Try again in 15 minutes" in refused.get_data(as_text=True)
    assert 840 < int(refused.headers["Retry-After"]) <= 900
    # The refused try checked no password and is not counted.
    assert len(checks) == 5 and _failures(app, trainee.login) == 5
    # The owner, at another address, is not locked out by the guesses.
    assert _try(owner, trainee.login, trainee.password, "10.0.0.7") == 302


def test_an_address_is_locked_after_fifty_failures_not_twenty(app, make_user) -> None:
    client = app.test_client()
    account = make_user(login="victim")
    for i in range(50):
        # Ten logins, five guesses each: no pair reaches its own limit.
        assert _try(client, f"guess{i % 10}", "nope-nope-nope") == 401, i
    assert _try(client, account.login, account.password) == 429
    assert _try(app.test_client(), account.login, account.password, "10.0.0.8") == 302


def test_each_check_is_recorded_before_the_password_is_checked(app, trainee, monkeypatch) -> None:
    seen: list[int] = []
    original = User.check_password

    def spy(user: User, password: str) -> bool:
        # Another connection must already see the reservation when the password is read.
        seen.append(_failures(app, user.login))
        return original(user, password)

    monkeypatch.setattr(User, "check_password", spy)
    client = app.test_client()
    _try(client, trainee.login, "wrong-password")
    _try(client, trainee.login, "wrong-password")
    assert seen == [1, 2]
    assert _try(client, trainee.login, trainee.password) == 302
    assert _failures(app, trainee.login) == 0  # the right password releases the pair


def test_parallel_wrong_guesses_check_at_most_five_passwords(app, trainee, monkeypatch) -> None:
    checks: list[str] = []
    original = User.check_password

    def counting(user: User, password: str) -> bool:
        checks.append(password)
        return original(user, password)

    monkeypatch.setattr(User, "check_password", counting)
    statuses: list[int] = []
    start = threading.Barrier(12)

    def guess(n: int) -> None:
        client = app.test_client()
        token = csrf_token(client)
        start.wait()
        response = client.post("/auth/login", data={
            "csrf_token": token, "login": trainee.login, "password": f"wrong-{n}"})
        statuses.append(response.status_code)

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(set(statuses)) == [401, 429]
    assert len(checks) == statuses.count(401) == 5
    assert _failures(app, trainee.login) == 5


@pytest.mark.parametrize("failures, seconds", [
    (0, 0.0), (19, 0.0), (20, 0.25), (21, 0.5), (24, 4.0), (25, 8.0), (26, 10.0), (500, 10.0),
])
def test_the_slowdown_doubles_beyond_twenty_failures_up_to_ten_seconds(app, failures, seconds) -> None:
    with app.test_request_context():
        assert throttle.slowdown(failures) == seconds


def test_a_much_guessed_login_is_slowed_never_locked(app, trainee) -> None:
    for i in range(20):
        # Twenty addresses, one guess each: under every per-address limit.
        assert _try(app.test_client(), trainee.login, "wrong-password", f"10.1.0.{i}") == 401
    # The 21st check must come 0.25 s after the 20th: a try before that is answered at once.
    assert _try(app.test_client(), trainee.login, "wrong-password", "10.1.1.1") == 429
    assert _failures(app, trainee.login) == 20  # refused, so neither checked nor counted
    _age_failures(app, 0.25)
    assert _try(app.test_client(), trainee.login, "wrong-password", "10.1.1.1") == 401
    # The owner, from yet another address, waits the next spacing (0.5 s) and signs in.
    assert _try(app.test_client(), trainee.login, trainee.password, "10.9.9.9") == 429
    _age_failures(app, 0.5)
    assert _try(app.test_client(), trainee.login, trainee.password, "10.9.9.9") == 302


def _age_failures(app, seconds: float) -> None:
    """Move the recorded failures ``seconds`` into the past: time passing, without waiting."""
    with app.app_context():
        for row in db.session.execute(db.select(LoginFailure)).scalars():
            row.at = row.at - timedelta(seconds=seconds)
        db.session.commit()
