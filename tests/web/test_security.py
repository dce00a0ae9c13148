"""Locked-down sessions: throttling, cookies, ended sessions, security headers."""
import re
from pathlib import Path

import pytest

from trainer.extensions import db
from trainer.models import LoginFailure, User
from trainer.web.platform.security import CONTENT_SECURITY_POLICY

from .helpers import csrf_token, login, post_form

ROOT = Path(__file__).resolve().parents[2]


def _home_ok(client):
    return client.get("/").status_code == 200


def test_login_throttled_after_repeated_failures_for_an_account(client, trainee):
    bad = type(trainee)(trainee.id, trainee.login, "wrong-password", trainee.role)
    for _ in range(5):
        assert login(client, bad).status_code == 401
    locked = login(client, trainee)   # even the right password waits
    assert locked.status_code == 429
    assert "Try again in 15 minutes" in locked.get_data(as_text=True)
    assert not _home_ok(client)


def test_login_throttle_lifts_after_the_window(app, client, trainee):
    bad = type(trainee)(trainee.id, trainee.login, "wrong-password", trainee.role)
    for _ in range(5):
        login(client, bad)
    with app.app_context():
        for row in db.session.execute(db.select(LoginFailure)).scalars():
            row.at = row.at.replace(year=row.at.year - 1)
        db.session.commit()
    assert login(client, trainee).status_code == 302


def test_login_throttled_per_address_across_logins(client, make_user):
    account = make_user("trainee", login="victim")
    for i in range(50):
        post_form(client, "/auth/login", {"login": f"guess{i}", "password": "nope-nope"})
    response = login(client, account)
    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.get_data(as_text=True)


def test_successful_login_clears_the_account_failures(app, client, trainee):
    bad = type(trainee)(trainee.id, trainee.login, "wrong-password", trainee.role)
    for _ in range(3):
        login(client, bad)
    assert login(client, trainee).status_code == 302
    with app.app_context():
        assert db.session.execute(db.select(db.func.count(LoginFailure.id))).scalar() == 0


def test_session_cookie_is_httponly_and_lax(client, trainee):
    response = login(client, trainee)
    cookie = response.headers.get("Set-Cookie")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie


def test_session_cookie_is_secure_behind_https(app_config, empty_app, make_user):
    from trainer import create_app

    https_app = create_app({**app_config, "HTTPS": True})
    with https_app.app_context():
        db.create_all()
        user = User(name="T", login="t1", role="trainee")
        user.set_password("correct-horse-9")
        db.session.add(user)
        db.session.commit()
    client = https_app.test_client()
    token = csrf_token(client)
    response = client.post("/auth/login", data={"csrf_token": token, "login": "t1",
                                                "password": "correct-horse-9"},
                           base_url="https://localhost")
    assert "Secure" in response.headers.get("Set-Cookie")
    assert "max-age" in response.headers.get("Strict-Transport-Security")
    with https_app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_password_change_ends_the_other_sessions(app, trainee):
    desk, tablet = app.test_client(), app.test_client()
    login(desk, trainee)
    login(tablet, trainee)
    assert _home_ok(desk) and _home_ok(tablet)
    response = post_form(desk, "/auth/password", {
        "current": trainee.password, "new": "a-new-password-1", "confirm": "a-new-password-1"})
    assert response.status_code == 302
    assert _home_ok(desk)            # the session that changed it stays signed in
    assert not _home_ok(tablet)      # every other session is over
    assert tablet.get("/").headers["Location"].startswith("/auth/login")


def test_deactivation_ends_the_user_sessions(app, client, trainee):
    login(client, trainee)
    assert _home_ok(client)
    with app.app_context():
        db.session.get(User, trainee.id).deactivate()
        db.session.commit()
    assert not _home_ok(client)
    assert login(client, trainee).status_code == 401


def test_a_tampered_session_id_signs_nobody_in(client, trainee):
    login(client, trainee)
    with client.session_transaction() as session:
        session["_user_id"] = f"{trainee.id}.99"
    assert not _home_ok(client)
    with client.session_transaction() as session:
        session["_user_id"] = "not-an-id"
    assert not _home_ok(client)


def test_security_headers_on_every_response(client):
    for path in ("/auth/login", "/no-such-page"):
        headers = client.get(path).headers
        assert headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["X-Frame-Options"] == "DENY"
        assert headers["Referrer-Policy"] == "same-origin"


def test_content_security_policy_allows_no_inline_script():
    script_src = re.search(r"script-src ([^;]+)", CONTENT_SECURITY_POLICY).group(1)
    assert "'unsafe-inline'" not in script_src and "'unsafe-eval'" not in script_src
    assert "default-src 'self'" in CONTENT_SECURITY_POLICY


@pytest.mark.parametrize("template", sorted(
    str(p.relative_to(ROOT)) for p in (ROOT / "templates").rglob("*.html")))
def test_templates_have_no_inline_script(template):
    text = (ROOT / template).read_text()
    for tag in re.findall(r"<script\b[^>]*>", text, flags=re.I):
        assert "src=" in tag, f"inline <script> in {template}: {tag}"
    assert not re.search(r"\son(click|load|submit|change|input|key\w*)\s*=", text, flags=re.I), \
        f"inline event handler in {template}"


def test_nul_characters_are_refused_before_any_work(client, trainee):
    token = csrf_token(client)
    response = client.post("/auth/login", data={"csrf_token": token, "login": "a\x00b",
                                                "password": "x"})
    assert response.status_code == 400
    assert client.get("/house-way/look-up?cards=As%00Kd").status_code == 400
