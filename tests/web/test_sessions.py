"""Sessions kept on the server: signing out revokes that session only; signed-in pages are
never stored by the browser; sign-ins are in the audit log."""
from __future__ import annotations

from dataclasses import replace

import pytest
from flask_login.utils import encode_cookie

from trainer.extensions import db
from trainer.models import AuditLog

from .helpers import login, post_form

SESSION_COOKIE = "session"


def _home_ok(client) -> bool:
    return client.get("/").status_code == 200


def _session_cookie(client) -> str:
    return client.get_cookie(SESSION_COOKIE).value


def test_signing_out_ends_that_session_only(app, trainee) -> None:
    desk, tablet = app.test_client(), app.test_client()
    login(desk, trainee)
    login(tablet, trainee)
    running = post_form(tablet, "/drills/house-way/start", {"mode": "timed"}).headers["Location"]
    old_cookie = _session_cookie(desk)
    post_form(desk, "/auth/logout")
    assert not _home_ok(desk)
    # The cookie from before signing out, sent again, signs nobody in.
    replayed = app.test_client()
    replayed.set_cookie(SESSION_COOKIE, old_cookie)
    assert replayed.get("/").headers["Location"].startswith("/auth/login")
    # The person's other session, and the timed session it runs, go on.
    assert _home_ok(tablet)
    assert tablet.get(running).status_code == 200


def test_a_remember_cookie_of_a_signed_out_session_signs_nobody_in(app, trainee) -> None:
    client = app.test_client()
    login(client, trainee)
    with client.session_transaction() as session:
        session_id = session["_user_id"]
    post_form(client, "/auth/logout")
    with app.test_request_context():
        remembered = encode_cookie(session_id)
    thief = app.test_client()
    thief.set_cookie("remember_token", remembered)
    assert not _home_ok(thief)


def test_sign_out_marks_the_server_session_revoked(app, trainee) -> None:
    from trainer.models import UserSession

    client = app.test_client()
    login(client, trainee)
    with app.app_context():
        [row] = db.session.execute(db.select(UserSession)).scalars().all()
        assert row.user_id == trainee.id and row.revoked_at is None
    post_form(client, "/auth/logout")
    with app.app_context():
        assert db.session.get(UserSession, row.id).revoked_at is not None


@pytest.mark.parametrize("forged", [
    "{id}.0",                                   # an id without a server session
    "{id}.0.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",  # a token never issued
    "{id}.0.{token}.extra",
    "1180591620717411303424.0.{token}",         # 2**70: no such row, and no 500
    "{id}.99999999999999999999.{token}",
    "\u0661.0.{token}",                         # an Arabic-Indic digit one
])
def test_a_session_id_without_its_server_session_signs_nobody_in(client, trainee, forged) -> None:
    login(client, trainee)
    with client.session_transaction() as session:
        token = session["_user_id"].split(".")[2]
        session["_user_id"] = forged.format(id=trainee.id, token=token)
    response = client.get("/")
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/auth/login")


def test_another_users_token_does_not_open_their_session(app, trainee, supervisor) -> None:
    mine, theirs = app.test_client(), app.test_client()
    login(mine, trainee)
    login(theirs, supervisor)
    with theirs.session_transaction() as session:
        their_token = session["_user_id"].split(".")[2]
    with mine.session_transaction() as session:
        session["_user_id"] = f"{trainee.id}.0.{their_token}"
    assert not _home_ok(mine)


def test_signed_in_pages_and_exports_are_sent_no_store(client, supervisor, group) -> None:
    login(client, supervisor)
    for path in ("/", f"/supervisor/groups/{group}/export/attempts.csv?period=all",
                 f"/supervisor/groups/{group}/export/summary.csv?period=all"):
        response = client.get(path)
        response.get_data()  # the exports stream: read them to the end
        response.close()
        assert response.status_code == 200, path
        assert response.headers["Cache-Control"] == "no-store", path
    static = client.get("/static/favicon.svg")
    static.close()
    assert static.status_code == 200
    assert "no-store" not in static.headers.get("Cache-Control", "")


def _audit(app, action: str) -> list[tuple]:
    with app.app_context():
        return [(row.actor_id, row.target_type, row.target_id, row.new)
                for row in db.session.execute(
                    db.select(AuditLog).where(AuditLog.action == action).order_by(AuditLog.id)
                ).scalars()]


def test_sign_ins_and_failed_sign_ins_are_in_the_audit_log(app, client, trainee) -> None:
    login(client, replace(trainee, password="not-the-password"))
    login(client, replace(trainee, login="nobody-here"))
    login(client, trainee)
    [(actor, kind, target, new)] = _audit(app, "sign-in")
    assert (actor, kind, target) == (trainee.id, "user", trainee.id)
    assert new["address"] == "127.0.0.1"
    [(actor, kind, target, new)] = _audit(app, "sign-in.failed")
    assert (actor, kind, target) == (None, "user", trainee.id)
    assert "not-the-password" not in str(new)
    post_form(client, "/auth/logout")
    assert [(a, t) for a, _, t, _ in _audit(app, "sign-out")] == [(trainee.id, trainee.id)]
