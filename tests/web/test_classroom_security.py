"""Classroom mode's security (issue 31 part 6): before the reveal no reply to a trainee carries
the right answer or anything implying it (the trainee JSON follows the allow-list written
here), only the instructor drives, a trainee answers only for themself and never after the
lock, every POST needs its CSRF token, and bad input is refused in words, changing nothing."""
from __future__ import annotations

import json
import re
from typing import Any

import pytest

from trainer.engine.drills import get_drill
from trainer.extensions import db
from trainer.models import ClassAnswer, Group
from trainer.services.classroom import group_context
from trainer.web.words.names import rule_name
from web.classroom_room import Room, build_room, class_kinds, row_counts

# The trainee-facing schema, written here on its own (not read from the app): every key a
# reply may hold and its type; "correct" and "result_html" only once the hand is revealed.
STATE_KEYS = {"token": str, "poll_ms": int, "state": str, "hand": (dict, type(None))}
HAND_KEYS = {"number": int, "kind": str, "state": str, "remaining_ms": (int, type(None)),
             "html": str, "answered": bool, "mine_html": (str, type(None))}
# Left out when the device's token says it holds that hand (test_classroom_poll.py).
OPTIONAL_HAND_KEYS = {"html"}
REVEALED_KEYS = {"correct": bool, "result_html": str}
ACK_KEYS = {"recorded": bool, "hand": int, "mine_html": (str, type(None)), "token": str}
# Only when the device sent the token it held and it was current (test_classroom_poll.py).
OPTIONAL_ACK_KEYS = frozenset({"token"})
# Words and marks of a verdict or a key in a trainee's reply before the reveal.
TELLS = ("data-rule=", "verdict", "Right answer", "rule-name", "class-reveal", '"correct"',
         "explanation", "correct_answer", "asked_rule", '"dealt"', '"seed"')


@pytest.fixture
def room(app: Any, make_user: Any, make_group: Any) -> Room:
    return build_room(app, make_user, make_group)


def _fits(data: dict[str, Any], schema: dict[str, Any], where: str,
          optional: frozenset[str] = frozenset()) -> None:
    assert set(schema) - optional <= set(data) <= set(schema), (where, sorted(data))
    for key, kind in schema.items():
        if key not in data:
            continue
        assert isinstance(data[key], kind) and not (kind is int and isinstance(data[key], bool)), \
            (where, key, data[key])


def _check_state(data: dict[str, Any], revealed: bool) -> None:
    _fits(data, STATE_KEYS, "state")
    hand = data["hand"]
    if hand is None:
        return
    _fits(hand, {**HAND_KEYS, **(REVEALED_KEYS if revealed else {})}, "hand",
          frozenset(OPTIONAL_HAND_KEYS))
    assert hand["state"] in ("open", "locked", "revealed")
    assert (hand["state"] == "revealed") == revealed


def _secrets(room: Room, number: int) -> list[str]:
    """What would tell the right answer: the deciding rule (id and words), the seed."""
    hand = room.hand(number)
    with room.app.test_request_context():
        words = rule_name(hand["rule_id"], hand["context"].get("house_way"))
    told = [hand["rule_id"], words]
    if hand["seed"]:
        told.append(str(hand["seed"]))
    return told


def _no_tells(text: str, secrets: list[str], where: str) -> None:
    for tell in (*TELLS, *secrets):
        assert tell not in text, (where, tell)


@pytest.mark.parametrize("how", ["random", "rule"])
def test_trainee_replies_follow_the_allow_list_and_tell_nothing_before_the_reveal(
        room: Room, how: str) -> None:
    room.start()
    room.join(0)
    room.join(1)
    first = room.state(0).get_json()
    _check_state(first, revealed=False)
    assert first["hand"] is None
    for kind in class_kinds(room.app):
        extra: dict[str, Any] = {}
        if how == "rule":
            with room.app.app_context():
                context = group_context(db.session.get(Group, room.group_id))
                extra["rule"] = get_drill(kind).skills_of(context)[0].id
        dealt = room.deal(kind, how, **extra)
        assert dealt.status_code == 200, dealt.get_json()
        number = dealt.get_json()["number"]
        secrets = _secrets(room, number)
        replies = [("delivered", room.state(0))]
        ack = room.answer(0, number, room.wrong_answer(number))
        _fits(ack.get_json(), ACK_KEYS, "ack", OPTIONAL_ACK_KEYS)
        _no_tells(ack.get_data(as_text=True), secrets, "ack")
        replies.append(("answered", room.state(0)))
        replies.append(("not answered", room.state(1)))
        room.drive("lock")
        replies.append(("locked", room.state(0)))
        for where, reply in replies:
            assert reply.status_code == 200
            _check_state(reply.get_json(), revealed=False)
            _no_tells(reply.get_data(as_text=True), secrets, f"{kind} {where}")
        # The projector, which the room reads, tells nothing before the reveal either.
        live = room.live().get_json()
        _no_tells(live["hand_html"] + live["panel_html"], secrets, f"{kind} projector")
        room.drive("reveal")
        revealed = room.state(0).get_json()
        _check_state(revealed, revealed=True)
        assert revealed["hand"]["correct"] is False
        assert "verdict" in revealed["hand"]["result_html"]
        assert f'data-rule="{room.hand(number)["rule_id"]}"' in revealed["hand"]["result_html"]


def test_a_poll_is_answered_304_with_no_body_while_nothing_changed(room: Room) -> None:
    room.start()
    room.join(0)
    kind = class_kinds(room.app)[0]
    room.deal(kind)
    reply = room.state(0)
    etag = reply.headers["ETag"]
    assert etag.strip('"') == reply.get_json()["token"]
    assert reply.headers["Cache-Control"] == "no-store"  # the device keeps the token itself
    same = room.state(0, etag)
    assert same.status_code == 304 and same.get_data() == b""
    live = room.live()
    assert room.live(live.headers["ETag"]).status_code == 304
    room.answer(0, 1, room.right_answer(1))
    # Their own answer (from another device of theirs) changes their token; the
    # instructor's count changes the instructor's.
    assert room.state(0, etag).status_code == 200
    assert room.live(live.headers["ETag"]).status_code == 200


def test_a_trainee_answers_for_themself_only(room: Room) -> None:
    room.start()
    room.join(0)
    room.join(1)
    number = room.deal(class_kinds(room.app)[0]).get_json()["number"]
    client = room.seats[0]
    reply = client.post(f"/class/{room.class_id}/answer",
                        json={"hand": number, "answer": room.right_answer(number),
                              "user_id": room.trainees[1].id, "user": room.trainees[1].login},
                        headers={"X-CSRFToken": room.token(client)})
    assert reply.status_code == 200
    with room.app.app_context():
        answers = db.session.execute(db.select(ClassAnswer.user_id, ClassAnswer.answer)
                                     .where(ClassAnswer.answer.is_not(None))).all()
    assert [a.user_id for a in answers] == [room.trainees[0].id]


def test_an_answer_after_the_lock_or_to_a_hand_no_longer_on_the_table_is_refused(
        room: Room) -> None:
    room.start()
    room.join(0)
    kind = class_kinds(room.app)[0]
    first = room.deal(kind).get_json()["number"]
    second = room.deal(kind).get_json()["number"]
    old = room.answer(0, first, room.right_answer(first))
    assert old.status_code == 409
    assert old.get_json()["message"] == "That hand is no longer on the table."
    room.drive("lock")
    before = row_counts(room.app)
    late = room.answer(0, second, room.right_answer(second))
    assert late.status_code == 409 and "locked" in late.get_json()["message"]
    assert row_counts(room.app) == before


@pytest.mark.parametrize("body, status, words", [
    ({"hand": 1, "answer": {"front": ["Zz", "Yy"]}}, 400, None),
    ({"hand": 1, "answer": {}}, 400, None),
    ({"hand": 1, "answer": "left"}, 400, None),
    ({"answer": {}}, 400, "The hand number is missing."),
    ({"hand": "one", "answer": {}}, 400, "The hand number is missing."),
    ({"hand": 7, "answer": {}}, 409, "That hand is no longer on the table."),
    ({"hand": 1}, 400, "Send the answer as JSON."),
])
def test_a_bad_answer_is_refused_in_words_and_changes_nothing(
        room: Room, body: dict[str, Any], status: int, words: str | None) -> None:
    room.start()
    room.join(0)
    room.deal(class_kinds(room.app)[0])
    room.state(0)
    before = row_counts(room.app)
    client = room.seats[0]
    reply = client.post(f"/class/{room.class_id}/answer", json=body,
                        headers={"X-CSRFToken": room.token(client)})
    assert reply.status_code == status
    message = reply.get_json()["message"]
    assert message and not message.startswith("Traceback")
    if words is not None:
        assert message == words
    assert row_counts(room.app) == before


def test_every_post_needs_its_csrf_token(room: Room) -> None:
    room.start()
    room.join(0)
    kind = class_kinds(room.app)[0]
    room.deal(kind)
    before = row_counts(room.app)
    base = f"/class/{room.class_id}"
    for path in ("deal", "next", "lock", "reveal", "timer"):
        reply = room.staff.post(f"{base}/{path}", json={"kind": kind, "seconds": 10})
        assert reply.status_code == 400, path
    assert room.staff.post(f"{base}/end", data={}).status_code == 400
    assert room.staff.post(f"/class/groups/{room.group_id}/start", data={}).status_code == 400
    assert room.seats[1].post(f"{base}/join", data={}).status_code == 400
    reply = room.seats[0].post(f"{base}/answer", json={"hand": 1, "answer": {}})
    assert reply.status_code == 400
    assert row_counts(room.app) == before


def test_the_trainee_page_scripts_hold_no_words_and_load_each_class_kinds_script(
        room: Room) -> None:
    room.start()
    room.join(0)
    page = room.seats[0].get("/class/").get_data(as_text=True)
    scripts = re.findall(r'<script src="/static/([^"?]+)', page)
    assert [f"kinds/{k}.js" for k in class_kinds(room.app)] == \
        [s for s in scripts if s.startswith("kinds/")]
    assert scripts[-1] == "js/classroom.js"
    # The words the script shows are the page's (data-text-*), in the reader's language.
    assert 'data-text-locked="The answers are locked. Wait for the reveal."' in page
    # The page itself carries no hand: the script asks for it (the state is JSON).
    assert json.dumps({"kind": class_kinds(room.app)[0]})[1:-1] not in page


def test_a_poll_answered_304_costs_one_statement(room: Room) -> None:
    """The short poll's common case (docs/classroom.md, "Real time"): through Flask the
    sign-in read and the class's one read (the first of a process, web/classroom/poll.py),
    then one statement for both, before Flask; the presence write comes at most every ten
    seconds."""
    from web.test_request_cost import counted

    room.start()
    room.join(0)
    room.deal(class_kinds(room.app)[0])
    etag = room.state(0).headers["ETag"]
    with counted(room.app) as statements:
        assert room.state(0, etag).status_code == 304
    assert len(statements) == 2, statements
    with counted(room.app) as statements:
        assert room.state(0, etag).status_code == 304
    assert len(statements) == 1, statements
    # The projector's: the sign-in read, its class with the group's supervisor, the poll
    # (tried twice: its token also ticks every ten seconds, for presence).
    for _ in range(2):
        etag = room.live().headers["ETag"]
        with counted(room.app) as statements:
            status = room.live(etag).status_code
        if status == 304:
            break
    assert status == 304 and len(statements) == 3, statements


class Marked:
    """Translations that wrap every message, to see which words went through the catalogue."""

    def ugettext(self, text: str) -> str:
        return f"[{text}]"

    def ungettext(self, singular: str, plural: str, n: int) -> str:
        return f"[{singular if n == 1 else plural}]"


def test_the_classrooms_refusals_are_said_through_the_catalogue(
        room: Room, monkeypatch: pytest.MonkeyPatch) -> None:
    from trainer.web.words import engine_words

    room.start()
    room.join(0)
    page = room.staff.get(f"/class/{room.class_id}").get_data(as_text=True)
    typed_kind = next(k for k in class_kinds(room.app)
                      if f'data-for-kind="{k}" data-typed' in page)
    number = room.deal(class_kinds(room.app)[0]).get_json()["number"]
    room.drive("lock")
    monkeypatch.setattr(engine_words, "translations", lambda: Marked())
    late = room.answer(0, number, {})
    assert late.get_json()["message"] == "[The answers to this hand are locked.]"
    short = room.deal(typed_kind, "typed", typed={"cards:cards": "As Ad",
                                                  "banker.back:cards": "As Ad"})
    assert short.status_code == 400 and short.get_json()["message"].startswith("[")
    assert room.drive("timer", {"seconds": 5}).get_json()["message"] == \
        "[No hand is open for answers.]"
