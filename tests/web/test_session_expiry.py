"""Server-side sessions end by time and keep no usable token (issue 24, part 4).

A sign-in lasts at most ``SESSION_LIFETIME`` (12 hours by default) and ends after
``SESSION_IDLE_TIMEOUT`` unused (2 hours by default), checked on the server at
every request; the database keeps only the SHA-256 of each session's token.
Times are moved by setting the row's timestamps or by moving the clock the
session code reads (``trainer.web.platform.sessions.utcnow``).
"""
from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

import flask_migrate
import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from trainer import create_app
from trainer.extensions import db
from trainer.models import User, UserSession, utcnow
from trainer.web.platform import sessions
from web.helpers import csrf_token, login
from web.test_drills import start
from web.test_request_cost import counted

LIFETIME_SENTENCE = "You were signed out: a sign-in lasts at most 12 hours. Please sign in again."
IDLE_SENTENCE = "You were signed out after 2 hours without activity. Please sign in again."


def _set_row(app: Flask, **times: Any) -> None:
    """Set columns of every session row (each test signs one person in once)."""
    with app.app_context():
        for row in db.session.execute(db.select(UserSession)).scalars():
            for name, value in times.items():
                setattr(row, name, value)
        db.session.commit()


def _row(app: Flask) -> dict[str, Any]:
    with app.app_context():
        [row] = db.session.execute(db.select(UserSession)).scalars().all()
        return {column.name: getattr(row, column.key) for column in UserSession.__table__.columns}


def _move_clock(monkeypatch: pytest.MonkeyPatch, by: timedelta) -> None:
    """Make the session code read a clock ``by`` ahead of the real one."""
    monkeypatch.setattr(sessions, "utcnow", lambda: utcnow() + by)


def _sent_to_sign_in(client: FlaskClient, path: str = "/") -> str:
    """Ask for ``path``; assert the answer sends to the sign-in page; return that page's text."""
    response = client.get(path)
    assert response.status_code == 302, response.status_code
    assert response.headers["Location"].startswith("/auth/login?next=")
    return client.get(response.headers["Location"]).get_data(as_text=True)


def _token_of(client: FlaskClient) -> str:
    with client.session_transaction() as cookie_session:
        return str(cookie_session["_user_id"]).split(".")[2]


def test_a_session_past_its_lifetime_is_refused_with_the_reason(app, client, trainee) -> None:
    login(client, trainee)
    assert client.get("/").status_code == 200
    # Used a moment ago, but opened 12 hours and a second ago.
    _set_row(app, created_at=utcnow() - timedelta(hours=12, seconds=1))
    page = _sent_to_sign_in(client)
    assert LIFETIME_SENTENCE in page
    assert page.count(LIFETIME_SENTENCE) == 1
    assert "Please sign in to see this page." not in page
    # Signed out for good: the next request is a plain anonymous one.
    assert LIFETIME_SENTENCE not in _sent_to_sign_in(client)


def test_a_session_within_its_lifetime_goes_on(app, client, trainee) -> None:
    login(client, trainee)
    _set_row(app, created_at=utcnow() - timedelta(hours=11, minutes=59))
    assert client.get("/").status_code == 200


def test_a_session_past_its_idle_limit_is_refused_with_the_reason(app, client, trainee,
                                                                monkeypatch) -> None:
    login(client, trainee)
    assert client.get("/").status_code == 200
    _move_clock(monkeypatch, timedelta(hours=2, seconds=1))
    assert IDLE_SENTENCE in _sent_to_sign_in(client)


def test_a_session_row_last_seen_past_the_idle_limit_is_refused(app, client, trainee) -> None:
    login(client, trainee)
    cookie = client.get_cookie("session").value
    _set_row(app, last_seen_at=utcnow() - timedelta(hours=2, seconds=1))
    assert IDLE_SENTENCE in _sent_to_sign_in(client)
    # The same cookie sent again (a copy kept elsewhere) is still refused.
    again = app.test_client()
    again.set_cookie("session", cookie)
    assert again.get("/").status_code == 302


def test_a_session_used_within_its_idle_limit_goes_on_and_is_seen_again(app, client,
                                                                       trainee) -> None:
    login(client, trainee)
    long_ago = utcnow() - timedelta(hours=1, minutes=59)
    _set_row(app, last_seen_at=long_ago)
    assert client.get("/").status_code == 200
    assert _row(app)["last_seen_at"] > utcnow() - timedelta(minutes=1)
    # Its idle time starts again from that request.
    assert client.get("/drills/").status_code == 200


def test_last_seen_is_written_at_most_once_a_minute(app, client, trainee) -> None:
    login(client, trainee)
    assert client.get("/").status_code == 200
    recent = utcnow() - timedelta(seconds=30)
    _set_row(app, last_seen_at=recent)
    with counted(app) as statements:
        assert client.get("/").status_code == 200
    assert not [s for s in statements if s.lstrip().upper().startswith("UPDATE")]
    assert _row(app)["last_seen_at"] == recent
    stale = utcnow() - timedelta(seconds=90)
    _set_row(app, last_seen_at=stale)
    with counted(app) as statements:
        assert client.get("/").status_code == 200
    assert len([s for s in statements if "UPDATE user_sessions" in s]) == 1
    assert _row(app)["last_seen_at"] > stale


def test_signing_in_again_over_an_expired_session_says_nothing_of_the_old_one(app, client,
                                                                             trainee) -> None:
    login(client, trainee)
    token = csrf_token(client, "/")  # an old sign-in form, kept open in another tab
    _set_row(app, last_seen_at=utcnow() - timedelta(hours=3))
    form = {"login": trainee.login, "password": trainee.password, "csrf_token": token}
    assert client.post("/auth/login", data=form).status_code == 302
    page = client.get("/")
    assert page.status_code == 200
    assert IDLE_SENTENCE not in page.get_data(as_text=True)


def test_an_expired_session_gets_a_401_json_error_from_a_script(app, client, trainee,
                                                                monkeypatch) -> None:
    login(client, trainee)
    session_id = start(client, "house-way", "timed")
    token = csrf_token(client, "/drills/")
    _move_clock(monkeypatch, timedelta(hours=2, minutes=1))
    response = client.post(f"/drills/sessions/{session_id}/question", json={},
                           headers={"X-CSRFToken": token, "Accept": "application/json"})
    assert response.status_code == 401
    body = response.get_json()
    assert body["message"] == IDLE_SENTENCE
    assert body["error"] == "Signed out"
    assert body["login_url"].startswith("/auth/login?next=")
    # The page the trainee opens next (the sign-in page) says why too.
    assert IDLE_SENTENCE in _sent_to_sign_in(client)


def test_a_script_never_signed_in_gets_a_401_json_error(client) -> None:
    token = csrf_token(client)
    response = client.post("/drills/sessions/1/question", json={},
                           headers={"X-CSRFToken": token, "Accept": "application/json"})
    assert response.status_code == 401
    assert response.get_json()["message"] == "Please sign in to see this page."


@pytest.mark.parametrize(("config", "moved", "sentence"), [
    ({"SESSION_IDLE_TIMEOUT": 600}, {"last_seen_at": timedelta(minutes=10, seconds=1)},
     "You were signed out after 10 minutes without activity. Please sign in again."),
    ({"SESSION_LIFETIME": timedelta(minutes=90)}, {"created_at": timedelta(minutes=91)},
     "You were signed out: a sign-in lasts at most 90 minutes. Please sign in again."),
    ({"SESSION_LIFETIME": 3600, "SESSION_IDLE_TIMEOUT": 3600}, {"created_at": timedelta(hours=1)},
     "You were signed out: a sign-in lasts at most 1 hour. Please sign in again."),
])
def test_the_session_limits_come_from_the_app_config(app_config, config, moved, sentence,
                                                     monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("TRAINER_INSTANCE_PATH", str(tmp_path / "instance"))
    app = create_app({**app_config, **config})
    with app.app_context():
        db.create_all()
        user = User(name="Limits", login="limits", role="trainee")
        user.set_password("correct-horse-9")
        db.session.add(user)
        db.session.commit()
    client = app.test_client()
    client.post("/auth/login", data={"login": "limits", "password": "correct-horse-9",
                                     "csrf_token": csrf_token(client)})
    assert client.get("/").status_code == 200
    _set_row(app, **{name: utcnow() - ago for name, ago in moved.items()})
    assert sentence in _sent_to_sign_in(client)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.mark.parametrize("config", [
    {"SESSION_IDLE_TIMEOUT": 0},
    {"SESSION_LIFETIME": -5},
    {"SESSION_LIFETIME": "12 hours"},
    {"SESSION_IDLE_TIMEOUT": True},
])
def test_a_wrong_session_limit_stops_the_app_starting(app_config, config, monkeypatch,
                                                      tmp_path) -> None:
    monkeypatch.setenv("TRAINER_INSTANCE_PATH", str(tmp_path / "instance"))
    with pytest.raises(ValueError, match="SESSION_"):
        create_app({**app_config, **config})


def test_the_database_keeps_only_a_hash_of_the_session_token(app, client, trainee) -> None:
    login(client, trainee)
    token = _token_of(client)
    row = _row(app)
    assert row["token_hash"] == hashlib.sha256(token.encode()).hexdigest()
    assert token not in {str(value) for value in row.values()}


def test_a_cookie_forged_from_the_session_rows_and_the_secret_key_signs_nobody_in(
        app, client, trainee, supervisor) -> None:
    """What a database read gives (every column of every session row, and the
    users' session versions) with the secret key makes no cookie that signs in."""
    login(client, trainee)
    login(app.test_client(), supervisor)
    assert client.get("/").status_code == 200
    with app.app_context():
        rows = db.session.execute(
            db.select(UserSession, User.session_version).join(User, User.id == UserSession.user_id)
        ).all()
        values = [(row.user_id, version or 0, str(getattr(row, column.key)))
                  for row, version in rows for column in UserSession.__table__.columns]
    assert len(rows) == 2
    serializer = app.session_interface.get_signing_serializer(app)
    for user_id, version, value in values:
        forged = app.test_client()
        forged.set_cookie("session", serializer.dumps(
            {"_user_id": f"{user_id}.{version}.{value}", "_fresh": True}))
        response = forged.get("/")
        assert response.status_code == 302, value
        assert response.headers["Location"].startswith("/auth/login")


def test_long_expired_sessions_are_dropped_at_the_next_sign_in(app, trainee) -> None:
    first = app.test_client()
    login(first, trainee)
    _set_row(app, created_at=utcnow() - sessions.DEFAULT_LIFETIME - sessions.KEEP_REVOKED
             - timedelta(minutes=1))
    login(app.test_client(), trainee)
    with app.app_context():
        assert db.session.execute(db.select(db.func.count(UserSession.id))).scalar() == 1


def test_the_session_hashes_upgrade_signs_everyone_out(empty_app) -> None:
    """Migration 0016 deletes the rows holding plain tokens (everyone signs in again)."""
    with empty_app.app_context():
        flask_migrate.upgrade(revision="0015_sign_in_devices_passwords")
        now = utcnow().replace(tzinfo=None)
        db.session.execute(sa.text(
            "INSERT INTO users (name, login, password_hash, role, active, created_at) "
            "VALUES ('t', 't', 'x', 'trainee', :on, :at)"), {"on": True, "at": now})
        db.session.execute(sa.text(
            "INSERT INTO user_sessions (user_id, token, created_at) "
            "SELECT id, 'a-plain-token-kept-before-the-upgrade', :at FROM users"), {"at": now})
        db.session.commit()
        db.session.remove()
        flask_migrate.upgrade(revision="0016_session_hashes")
        columns = {column["name"] for column in sa.inspect(db.engine).get_columns("user_sessions")}
        assert {"token_hash", "last_seen_at"} <= columns and "token" not in columns
        assert db.session.execute(sa.text("SELECT COUNT(*) FROM user_sessions")).scalar_one() == 0
        assert db.session.execute(sa.text("SELECT COUNT(*) FROM users")).scalar_one() == 1
        db.session.remove()
        flask_migrate.downgrade(revision="0015_sign_in_devices_passwords")
        columns = {column["name"] for column in sa.inspect(db.engine).get_columns("user_sessions")}
        assert "token" in columns and "token_hash" not in columns
        db.session.remove()
        flask_migrate.upgrade()
