"""A trainee device's poll (issue 31, docs/classroom.md "Real time"): a quiet poll is answered
304 before Flask in one statement, with the headers Flask's own 304 carries, and only while
the sign-in and the device's place hold exactly as Flask would check them (web/classroom/poll.py);
a device that holds the hand is not sent its drawing again."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from flask.testing import FlaskClient

from trainer.extensions import db
from trainer.models import ClassHand, ClassPresence, Membership, User, utcnow
from trainer.web.classroom.poll import POLL_PATH
from web.classroom_room import Room, build_room, class_kinds
from web.test_request_cost import counted


@pytest.fixture
def room(app: Any, make_user: Any, make_group: Any) -> Room:
    return build_room(app, make_user, make_group)


def _dealt(room: Room) -> str:
    """Start, join seat 0, deal a hand, and return seat 0's token (its ETag)."""
    room.start()
    room.join(0)
    room.deal(class_kinds(room.app)[0])
    etag: str = room.state(0).headers["ETag"]
    return etag


def _twin(room: Room, client: FlaskClient) -> FlaskClient:
    """Another browser holding a copy of ``client``'s session cookie."""
    twin = room.app.test_client()
    cookie = client.get_cookie("session")
    assert cookie is not None
    twin.set_cookie("session", cookie.value)
    return twin


def _headers(reply: Any) -> list[tuple[str, str]]:
    return sorted((k, v) for k, v in reply.headers.items() if k.lower() != "date")


def test_the_quiet_poll_path_is_the_trainees_poll_url(room: Room) -> None:
    with room.app.test_request_context():
        from flask import url_for
        assert POLL_PATH.match(url_for("classroom.state", class_id=12345))
        assert not POLL_PATH.match(url_for("classroom.live_state", class_id=12345))


def test_a_quiet_poll_costs_one_statement_with_the_headers_of_flasks_304(room: Room) -> None:
    etag = _dealt(room)
    # The first 304 is Flask's (the sign-in read and the poll's read); it shows the headers.
    with counted(room.app) as statements:
        first = room.state(0, etag)
    assert first.status_code == 304 and len(statements) == 2, statements
    with counted(room.app) as statements:
        quiet = room.state(0, etag)
    assert quiet.status_code == 304 and quiet.get_data() == b""
    assert len(statements) == 1, statements
    assert _headers(quiet) == _headers(first)
    assert quiet.headers["Cache-Control"] == "no-store"
    assert "Content-Security-Policy" in quiet.headers
    # A change is Flask's to answer, with the new state.
    room.drive("lock")
    changed = room.state(0, etag)
    assert changed.status_code == 200 and changed.get_json()["hand"]["state"] == "locked"


def test_a_signed_out_session_is_never_answered_304(room: Room) -> None:
    etag = _dealt(room)
    room.state(0, etag)
    twin = _twin(room, room.seats[0])
    assert twin.get(f"/class/{room.class_id}/state", headers={"If-None-Match": etag}
                    ).status_code == 304
    room.seats[0].post("/auth/logout", data={"csrf_token": room.token(room.seats[0])})
    stale = twin.get(f"/class/{room.class_id}/state", headers={"If-None-Match": etag},
                     environ_base={"HTTP_ACCEPT": "application/json"})
    assert stale.status_code == 401


@pytest.mark.parametrize("change, status", [
    ("deactivated", 401), ("password due", 303), ("left the group", 404),
])
def test_an_account_that_may_no_longer_poll_is_answered_by_flask(
        room: Room, change: str, status: int) -> None:
    etag = _dealt(room)
    room.state(0, etag)
    assert room.state(0, etag).status_code == 304
    with room.app.app_context():
        user = db.session.get(User, room.trainees[0].id)
        assert user is not None
        if change == "deactivated":
            user.active = False
        elif change == "password due":
            user.password_change_due = True
        else:
            db.session.execute(db.delete(Membership).where(Membership.user_id == user.id))
        db.session.commit()
    reply = room.seats[0].get(f"/class/{room.class_id}/state", headers={
        "If-None-Match": etag, "Accept": "application/json"})
    assert reply.status_code == status


def test_another_roles_cookie_is_never_answered_304(room: Room) -> None:
    etag = _dealt(room)
    room.state(0, etag)
    reply = room.staff.get(f"/class/{room.class_id}/state", headers={"If-None-Match": etag})
    assert reply.status_code == 403


def test_a_poll_with_its_presence_write_due_goes_through_flask_and_writes_it(room: Room) -> None:
    etag = _dealt(room)
    room.state(0, etag)
    old = utcnow() - timedelta(seconds=11)
    with room.app.app_context():
        db.session.execute(db.update(ClassPresence).values(last_seen_at=old))
        db.session.commit()
    with counted(room.app) as statements:
        assert room.state(0, etag).status_code == 304
    assert any(s.lstrip().upper().startswith("UPDATE") for s in statements), statements
    with room.app.app_context():
        seen = db.session.execute(db.select(ClassPresence.last_seen_at)).scalar_one()
    assert seen > old + timedelta(seconds=5)


def test_a_timer_run_out_locks_the_hand_at_the_next_poll_of_a_device_with_its_token(
        room: Room) -> None:
    etag = _dealt(room)
    room.state(0, etag)
    with room.app.app_context():
        db.session.execute(db.update(ClassHand).values(deadline=utcnow() - timedelta(seconds=5)))
        db.session.commit()
    reply = room.state(0, etag)
    assert reply.status_code == 200 and reply.get_json()["hand"]["state"] == "locked"


def test_a_device_that_holds_the_hand_is_not_sent_its_drawing_again(room: Room) -> None:
    etag = _dealt(room)
    first = room.state(0).get_json()["hand"]
    assert first["html"].startswith('<div class="q ')
    number = first["number"]
    room.answer(0, number, room.right_answer(number))
    # Its own answer changed its token: the reply says so, without the hand's drawing.
    answered = room.state(0, etag).get_json()["hand"]
    assert "html" not in answered and answered["answered"] is True
    assert answered["mine_html"]
    room.drive("lock")
    locked = room.state(0, etag).get_json()["hand"]
    assert "html" not in locked and locked["state"] == "locked"
    # A page loaded afresh (no token) gets the whole hand; so does the next hand.
    assert "html" in room.state(0).get_json()["hand"]
    room.drive("next")
    assert "html" in room.state(0, etag).get_json()["hand"]


def test_an_answer_from_an_up_to_date_device_brings_its_next_token_and_no_other(room: Room) -> None:
    etag = _dealt(room)
    number = room.state(0).get_json()["hand"]["number"]
    token = etag.strip('"')
    client = room.seats[0]

    def answer(sent: str | None) -> dict[str, Any]:
        reply = client.post(f"/class/{room.class_id}/answer",
                            json={"hand": number, "answer": room.right_answer(number),
                                  "token": sent}, headers={"X-CSRFToken": room.token(client)})
        assert reply.status_code == 200
        data: dict[str, Any] = reply.get_json()
        return data

    first = answer(token)
    assert first["token"] != token
    # Its own answer was all that changed: the next poll with the new token is quiet.
    assert room.state(0, f'"{first["token"]}"').status_code == 304
    # A token the server never sent, or one behind a change (a timer), brings none.
    assert "token" not in answer("c1.n1.v0.a0.j1")
    room.drive("timer", {"seconds": 60})
    assert "token" not in answer(first["token"])
    behind = room.state(0, f'"{first["token"]}"')
    assert behind.status_code == 200 and behind.get_json()["hand"]["remaining_ms"] > 0
