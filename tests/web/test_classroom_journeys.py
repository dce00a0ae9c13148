"""Classroom mode (issue 31), the journeys: an instructor starts a class, the group's trainees
join, hands of every class kind are dealt (at random, for a rule, from the weakest rules,
typed in), answered, changed, locked, revealed, and the next is dealt; a late joiner and
a reloaded page catch up; a trainee in an exam, another group's trainee and an answer
after the lock are refused; bad input is refused in words and changes nothing."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from trainer.engine.drills import get_drill
from trainer.extensions import db
from trainer.models import (
    Attempt,
    ClassAnswer,
    ClassHand,
    ClassPresence,
    DrillSession,
    Role,
    utcnow,
)
from trainer.services.classroom import group_context
from trainer.services.drills import start_session
from web.classroom_room import Room, build_room, class_kinds, row_counts
from web.helpers import login

KINDS_NOTE = "the kinds come from the app: those whose web folder holds class.html"


@pytest.fixture
def room(app: Any, make_user: Any, make_group: Any) -> Room:
    return build_room(app, make_user, make_group)

def test_a_class_offers_the_five_kinds_of_a_hand_and_no_stepped_drill(app: Any) -> None:
    kinds = class_kinds(app)
    assert len(kinds) == 5, KINDS_NOTE
    assert all(not get_drill(k).steps for k in kinds)


def test_the_instructor_starts_a_class_and_the_groups_trainees_are_offered_it(room: Room) -> None:
    assert room.seats[0].get("/class/offer").get_json() == {"class": None}
    home = room.seats[0].get("/").get_data(as_text=True)
    assert 'id="class-offer"' in home and "class_offer.js" in home
    class_id = room.start()
    # A second start opens the same class: one running class a group.
    assert room.start() == class_id
    offer = room.seats[0].get("/class/offer").get_json()
    assert offer == {"class": {"url": "/class/", "group": "Morning class"}}
    page = room.seats[0].get("/class/").get_data(as_text=True)
    assert 'id="join-class"' in page
    assert room.join(0).status_code == 302
    page = room.seats[0].get("/class/").get_data(as_text=True)
    assert 'id="class-seat"' in page
    live = room.live().get_json()
    assert (live["joined"], live["present"]) == (1, 1)
    assert "Dealer Ada" in live["panel_html"]


@pytest.mark.parametrize("how", ["random", "rule"])
def test_every_class_kind_is_dealt_answered_locked_and_revealed(room: Room, how: str) -> None:
    room.start(joined=3)
    for kind in class_kinds(room.app):
        extra: dict[str, Any] = {}
        if how == "rule":
            with room.app.app_context():
                from trainer.models import Group
                context = group_context(db.session.get(Group, room.group_id))
                skills = [s.id for s in get_drill(kind).skills_of(context)]
            extra["rule"] = skills[len(skills) // 2]
        dealt = room.deal(kind, how, **extra)
        if how == "rule" and dealt.status_code == 400:
            # This rule cannot be dealt under the group's rules: the sentence says so.
            assert "rule" in dealt.get_json()["message"]
            continue
        assert dealt.status_code == 200, dealt.get_json()
        number = dealt.get_json()["number"]
        hand = room.hand(number)
        assert hand["kind"] == kind and hand["dealt"] == how
        if how == "rule":
            assert hand["rule_id"] == extra["rule"] == hand["asked_rule"]
        for seat in range(3):
            state = room.state(seat).get_json()
            assert state["hand"]["number"] == number and state["hand"]["kind"] == kind
            assert 'data-kind="' in state["hand"]["html"]
        assert room.answer(0, number, room.right_answer(number)).status_code == 200
        assert room.answer(1, number, room.wrong_answer(number)).status_code == 200
        live = room.live().get_json()
        assert live["answered"] == 2 and live["hand_state"] == "open"
        assert "2 of 3 answered" in live["panel_html"]
        assert room.drive("lock").get_json()["hand_state"] == "locked"
        revealed = room.drive("reveal").get_json()
        assert revealed["hand_state"] == "revealed"
        assert "1 of 2 right" in revealed["panel_html"]
        assert [room.state(s).get_json()["hand"].get("correct") for s in range(3)] == \
            [True, False, False]


def test_an_answer_changes_until_the_lock_and_the_last_one_is_recorded(room: Room) -> None:
    room.start()
    room.join(0)
    kind = class_kinds(room.app)[0]
    number = room.deal(kind).get_json()["number"]
    first = room.state(0)
    assert first.status_code == 200
    wrong, right = room.wrong_answer(number), room.right_answer(number)
    assert room.answer(0, number, wrong).get_json()["recorded"] is True
    changed = room.answer(0, number, right)
    assert changed.status_code == 200
    with room.app.app_context():
        row = db.session.execute(db.select(ClassAnswer)).scalar_one()
        assert row.changes == 2 and row.answer == right and row.attempt_id is None
        delivered = row.delivered_at
    room.drive("lock")
    refused = room.answer(0, number, wrong)
    assert refused.status_code == 409
    assert refused.get_json()["message"] == "The answers to this hand are locked."
    with room.app.app_context():
        attempt = db.session.execute(db.select(Attempt)).scalar_one()
        assert attempt.answer == right and attempt.correct
        # The answer time runs from the hand's first delivery to this trainee's device.
        assert attempt.issued_at == delivered
        assert attempt.elapsed_ms == int((attempt.answered_at - delivered).total_seconds() * 1000)
        assert attempt.session.dealt == "class" and attempt.session.mode == "practice"


def test_reveal_shows_each_answer_given_who_gave_it_and_the_rules_sentence(room: Room) -> None:
    room.start(joined=3)
    kind = class_kinds(room.app)[0]
    number = room.deal(kind).get_json()["number"]
    right, wrong = room.right_answer(number), room.wrong_answer(number)
    room.answer(0, number, right)
    room.answer(1, number, wrong)
    room.answer(2, number, wrong)
    before = room.live().get_json()
    assert "class-reveal" not in before["panel_html"]
    revealed = room.drive("reveal").get_json()
    panel = revealed["panel_html"]
    hand = room.hand(number)
    # The rule and its sentence under the hand, for the room; the answers in the panel.
    assert f'data-rule="{hand["rule_id"]}"' in revealed["hand_html"]
    assert 'class="class-sentence"' in revealed["hand_html"]
    assert "1 of 3 right" in panel
    # The wrong answer two gave is one line, with both names; the right one first.
    assert panel.index("class-group-right") < panel.index("class-group-wrong")
    assert "Dealer Ben, Dealer Cy" in panel


def test_next_deals_the_next_hand_as_the_last_was_dealt(room: Room) -> None:
    room.start()
    room.join(0)
    kind = class_kinds(room.app)[-1]
    first = room.deal(kind, timer_s=45).get_json()["number"]
    room.answer(0, first, room.right_answer(first))
    nxt = room.drive("next").get_json()
    assert nxt["number"] == first + 1 and nxt["hand_state"] == "open"
    assert room.hand(first)["state"] == "locked"  # the open hand was locked and recorded
    second = room.hand(first + 1)
    assert second["kind"] == kind and second["dealt"] == "random"
    with room.app.app_context():
        assert db.session.execute(db.select(db.func.count(Attempt.id))).scalar_one() == 1
        timer = db.session.execute(db.select(ClassHand.timer_s).filter_by(
            number=first + 1)).scalar_one()
    assert timer == 45


def test_a_late_joiner_and_a_reloaded_page_catch_up_to_the_hand_on_the_table(room: Room) -> None:
    room.start()
    room.join(0)
    kind = class_kinds(room.app)[0]
    room.deal(kind)
    number = room.deal(kind).get_json()["number"]
    seen = room.state(0)
    etag = seen.headers["ETag"]
    # Nothing changed: the device's poll is answered 304, with no body.
    again = room.state(0, etag)
    assert again.status_code == 304 and again.get_data() == b""
    # A late joiner gets the hand on the table at once, and their clock starts now.
    room.join(2)
    late = room.state(2).get_json()
    assert late["hand"]["number"] == number and late["hand"]["state"] == "open"
    # A reloaded page (no token) gets the hand and the answer it gave.
    room.answer(0, number, room.right_answer(number))
    reloaded = room.state(0).get_json()
    assert reloaded["hand"]["number"] == number and reloaded["hand"]["answered"] is True
    assert reloaded["hand"]["mine_html"]
    # A device that kept the old token learns of the lock by its next poll.
    room.drive("lock")
    after = room.state(0, etag)
    assert after.status_code == 200 and after.get_json()["hand"]["state"] == "locked"


def test_the_timer_locks_the_answers_at_zero(room: Room) -> None:
    room.start()
    room.join(0)
    room.join(1)
    number = room.deal(class_kinds(room.app)[0], timer_s=20).get_json()["number"]
    state = room.state(0).get_json()
    assert 19_000 <= state["hand"]["remaining_ms"] <= 20_000
    room.answer(0, number, room.right_answer(number))
    with room.app.app_context():
        hand = db.session.execute(db.select(ClassHand)).scalar_one()
        hand.deadline = utcnow() - timedelta(seconds=5)  # its zero and the grace have passed
        db.session.commit()
    assert room.answer(1, number, room.right_answer(number)).status_code == 409
    # The next poll, on any device, locks the answers: the one in time is recorded.
    assert room.state(1).get_json()["hand"]["state"] == "locked"
    with room.app.app_context():
        assert db.session.execute(db.select(db.func.count(Attempt.id))).scalar_one() == 1
    # The instructor stops and starts a timer on an open hand only.
    number = room.deal(class_kinds(room.app)[0]).get_json()["number"]
    started = room.drive("timer", {"seconds": 30}).get_json()
    assert 29_000 <= started["remaining_ms"] <= 30_000
    assert room.drive("timer", {"seconds": 0}).get_json()["remaining_ms"] is None
    assert room.drive("timer", {"seconds": "soon"}).status_code == 400


def test_a_trainee_in_a_running_exam_is_neither_offered_the_class_nor_admitted(
        room: Room, app: Any) -> None:
    room.start()
    trainee = room.trainees[0]
    kind = class_kinds(app)[0]
    with app.app_context():
        start_session(trainee.id, kind, "exam", length=5, time_limit_s=30)
    assert room.seats[0].get("/class/offer").get_json() == {"class": None}
    page = room.seats[0].get("/class/").get_data(as_text=True)
    assert 'id="join-class"' not in page and "certification exam" in page
    refused = room.join(0)
    assert refused.status_code == 302
    with app.app_context():
        assert db.session.execute(db.select(db.func.count()).select_from(ClassPresence)
                                  ).scalar_one() == 0
    assert room.state(0).status_code == 403
    # Once the exam is over the trainee is offered the class and joins.
    with app.app_context():
        for session in db.session.execute(db.select(DrillSession).filter_by(mode="exam")).scalars():
            session.finished_at = utcnow()
        db.session.commit()
    assert room.seats[0].get("/class/offer").get_json()["class"] is not None
    room.join(0)
    assert room.state(0).status_code == 200


def test_a_trainee_who_joined_and_then_started_an_exam_is_sent_nothing_new(room: Room) -> None:
    room.start()
    room.join(0)
    kind = class_kinds(room.app)[0]
    with room.app.app_context():
        start_session(room.trainees[0].id, kind, "exam", length=5, time_limit_s=30)
    number = room.deal(kind).get_json()["number"]
    state = room.state(0)
    assert state.status_code == 403 and "exam" in state.get_json()["message"]
    assert room.answer(0, number, room.right_answer(number)).status_code == 403


def test_another_groups_trainee_is_refused(room: Room, make_user: Any, make_group: Any,
                                           app: Any) -> None:
    room.start()
    other_sup = make_user(Role.SUPERVISOR, login="other-sup")
    other_group = make_group(other_sup.id, name="Night class")
    outsider = make_user(Role.TRAINEE, login="night-dealer", group_id=other_group)
    client = app.test_client()
    login(client, outsider)
    assert client.get("/class/offer").get_json() == {"class": None}
    room.seats.append(client)
    number = room.deal(class_kinds(app)[0]).get_json()["number"]
    before = row_counts(app)
    assert room.join(3).status_code == 302
    assert room.state(3).status_code == 404
    assert room.answer(3, number, room.right_answer(number)).status_code == 404
    assert row_counts(app) == before
    with app.app_context():
        assert db.session.execute(db.select(db.func.count()).select_from(ClassPresence)
                                  ).scalar_one() == 0
    # The other group's supervisor cannot see or drive this class; a manager can.
    other = app.test_client()
    login(other, other_sup)
    assert other.get(f"/class/{room.class_id}").status_code == 404
    assert room.drive("lock", client=other).status_code == 404
    manager = make_user(Role.MANAGER, login="floor-manager")
    boss = app.test_client()
    login(boss, manager)
    assert boss.get(f"/class/{room.class_id}").status_code == 200
    assert room.drive("lock", client=boss).status_code == 200


def test_only_the_instructor_drives_the_class(room: Room) -> None:
    room.start()
    room.join(0)
    kind = class_kinds(room.app)[0]
    before = row_counts(room.app)
    for action in ("deal", "lock", "reveal", "next", "timer"):
        assert room.drive(action, {"kind": kind}, client=room.seats[0]).status_code == 403
    assert room.seats[0].get(f"/class/{room.class_id}").status_code == 403
    assert room.seats[0].get(f"/class/{room.class_id}/summary.csv").status_code == 403
    assert row_counts(room.app) == before


def test_typed_hands_for_the_kinds_with_a_typed_form(room: Room) -> None:
    room.start()
    page = room.staff.get(f"/class/{room.class_id}").get_data(as_text=True)
    typed_kinds = [k for k in class_kinds(room.app) if f'data-for-kind="{k}" data-typed' in page]
    assert len(typed_kinds) == 2  # set the banker's hand, settle the table
    seven = {"cards:cards": "As Ad 7c 7d 2h 3s JK"}
    table = {"banker.back:cards": "Ks Kd 7c 4h 2s", "banker.front:cards": "Qh Jd",
             "positions.0.seat:int": "2", "positions.0.back:cards": "As Ad 9c 5h 3s",
             "positions.0.front:cards": "Kh Tc", "positions.0.bet_cents:money": "25",
             "positions.1.seat:int": "", "positions.1.back:cards": "",
             "positions.1.front:cards": "", "positions.1.bet_cents:money": ""}
    dealt = {}
    for kind in typed_kinds:
        fields = seven if 'name="cards:cards"' in _fieldset(page, kind) else table
        response = room.deal(kind, "typed", typed=fields)
        assert response.status_code == 200, response.get_json()
        dealt[kind] = room.hand(response.get_json()["number"])
    questions = sorted((h["question"] for h in dealt.values()), key=len)
    assert questions[0]["cards"] == ["As", "Ad", "7c", "7d", "2h", "3s", "JK"]
    assert questions[1]["positions"] == [{"seat": 2, "back": ["As", "Ad", "9c", "5h", "3s"],
                                          "front": ["Kh", "Tc"], "bet_cents": 2500}]
    assert all(h["seed"] == 0 and h["dealt"] == "typed" for h in dealt.values())


def _fieldset(page: str, kind: str) -> str:
    start = page.index(f'data-for-kind="{kind}" data-typed')
    return page[start:page.index("</fieldset>", start)]


@pytest.mark.parametrize("fields, words", [
    ({"cards:cards": "As Ad 7c"}, "A hand here has 7 cards; 3 were given."),
    ({"cards:cards": "As As 7c 7d 2h 3s JK"}, "As appears twice in the hand."),
    ({"cards:cards": "As Ad 7c 7d 2h 3s Zz"}, "Zz is not a card"),
    ({}, "Type the hand in first."),
    ({"cards;drop": "As"}, "The hand typed in cannot be read."),
])
def test_a_typed_hand_that_does_not_fit_is_refused_in_words_and_nothing_is_dealt(
        room: Room, fields: dict[str, str], words: str) -> None:
    room.start()
    page = room.staff.get(f"/class/{room.class_id}").get_data(as_text=True)
    kind = next(k for k in class_kinds(room.app) if f'data-for-kind="{k}" data-typed' in page
                and 'name="cards:cards"' in _fieldset(page, k))
    before = row_counts(room.app)
    response = room.deal(kind, "typed", typed=fields)
    assert response.status_code == 400
    assert words in response.get_json()["message"]
    assert row_counts(room.app) == before


@pytest.mark.parametrize("body, words", [
    ({"kind": "no-such-drill"}, "Choose a drill the class offers."),
    ({"how": "shuffled"}, "There is no way of dealing a hand called 'shuffled'."),
    ({"how": "rule", "rule": "no.such.rule"}, "No hand can be dealt for that rule"),
    ({"how": "rule"}, "Choose the rule the hand is dealt for."),
    ({"timer_s": 9999}, "A timer runs up to 600 seconds."),
    ({"how": "weakest"}, "The group has missed no rule of this drill"),
])
def test_a_deal_that_does_not_fit_is_refused_in_words_and_changes_nothing(
        room: Room, body: dict[str, Any], words: str) -> None:
    room.start()
    before = row_counts(room.app)
    response = room.drive("deal", {"kind": class_kinds(room.app)[0], **body})
    assert response.status_code == 400
    assert words in response.get_json()["message"]
    assert row_counts(room.app) == before


def test_the_weakest_rules_deal_the_rule_the_group_misses_most(room: Room, app: Any) -> None:
    kind = class_kinds(app)[0]
    room.start()
    with app.app_context():
        from trainer.models import Group
        context = group_context(db.session.get(Group, room.group_id))
        skills = [s.id for s in get_drill(kind).skills_of(context)]
        missed, fine = skills[1], skills[2]
        session = DrillSession(user_id=room.trainees[0].id, kind=kind, mode="practice",
                               length=4, house_way=context.house_way, profile=context.profile)
        db.session.add(session)
        now = utcnow()
        for position, (rule, correct) in enumerate(
                [(missed, False), (missed, False), (fine, True), (fine, False)], start=1):
            db.session.add(Attempt(session=session, position=position,
                                   user_id=room.trainees[0].id, kind=kind, seed=position,
                                   question={}, answer={}, correct_answer={}, correct=correct,
                                   rule_id=rule, issued_at=now, answered_at=now, elapsed_ms=1))
        db.session.commit()
    first = room.deal(kind, "weakest").get_json()["number"]
    assert room.hand(first)["rule_id"] == room.hand(first)["asked_rule"] == missed
    # "Next" goes round the weakest rules: the next one missed.
    second = room.drive("next").get_json()["number"]
    assert room.hand(second)["asked_rule"] == fine


def test_ending_the_class_records_the_open_hand_and_stops_the_offer(room: Room) -> None:
    room.start()
    room.join(0)
    number = room.deal(class_kinds(room.app)[0]).get_json()["number"]
    room.answer(0, number, room.right_answer(number))
    ended = room.staff.post(f"/class/{room.class_id}/end",
                            data={"csrf_token": room.token(room.staff)})
    assert ended.status_code == 302 and ended.headers["Location"].endswith("/summary")
    assert room.seats[0].get("/class/offer").get_json() == {"class": None}
    assert room.state(0).status_code == 409
    with room.app.app_context():
        assert db.session.execute(db.select(db.func.count(Attempt.id))).scalar_one() == 1
    # A new class can start for the group.
    assert room.start() != 0


def test_answers_racing_the_lock_are_each_recorded_once_or_refused(room: Room) -> None:
    """An answer and the lock meet on the hand's row: an answer taken (200) is in the
    recorded attempts, one refused (409) is not; none is lost, none doubled."""
    from web.helpers import run_together

    room.start(joined=3)
    kind = class_kinds(room.app)[0]
    for _ in range(3):
        number = room.deal(kind).get_json()["number"]
        answers = [room.right_answer(number) for _seat in range(3)]
        for seat in range(3):
            room.token(room.seats[seat])
        results = run_together(
            [lambda s=seat, n=number, a=answers: room.answer(s, n, a[s]).status_code
             for seat in range(3)]
            + [lambda: room.drive("lock").status_code])
        assert results[3] == 200 and set(results[:3]) <= {200, 409}, results
        hand = room.hand(number)
        with room.app.app_context():
            recorded = {a.user_id for a in db.session.execute(
                db.select(Attempt).join(ClassAnswer, ClassAnswer.attempt_id == Attempt.id)
                .where(ClassAnswer.hand_id == hand["id"])).scalars()}
        taken = {room.trainees[s].id for s in range(3) if results[s] == 200}
        assert recorded == taken
