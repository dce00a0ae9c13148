"""Classroom mode's records (issue 31 part 4): a class's answers are attempts of sessions marked
"class", on the dashboards as class work and in the practice figures, never in a
certification window; each replays the hand as it was dealt (for a rule, typed in); the
class summary lists per hand the share right and who erred, as CSV and printable."""
from __future__ import annotations

import csv
import html
import io
from typing import Any

import pytest

from trainer.engine.drills import get_drill
from trainer.extensions import db
from trainer.models import Attempt, DrillSession, Group
from trainer.services.certification.criteria import default_criteria
from trainer.services.classroom import group_context
from trainer.services.drills import regrade, replay_question
from trainer.services.reports.readiness_sql import window_figures
from trainer.services.reports.sql import kind_figures
from trainer.web.words.names import rule_name
from web.classroom_room import Room, build_room, class_kinds


@pytest.fixture
def room(app: Any, make_user: Any, make_group: Any) -> Room:
    return build_room(app, make_user, make_group)


def _certified_kind(app: Any) -> str:
    """A class kind with a default certification criterion (its window is what is checked)."""
    kinds = [c.kind for c in default_criteria() if c.kind in class_kinds(app)]
    assert kinds
    return kinds[0]


def _play(room: Room, kind: str, hands: int, right_seat: int = 0) -> None:
    for _ in range(hands):
        number = room.deal(kind).get_json()["number"]
        for seat in range(3):
            answer = room.right_answer(number) if seat == right_seat else room.wrong_answer(number)
            assert room.answer(seat, number, answer).status_code == 200
        room.drive("lock")


def test_class_answers_count_in_practice_figures_but_never_in_a_certification_window(
        room: Room, app: Any) -> None:
    kind = _certified_kind(app)
    room.start(joined=3)
    _play(room, kind, hands=3)
    trainee = room.trainees[0].id
    criterion = next(c for c in default_criteria() if c.kind == kind)
    with app.app_context():
        sessions = db.session.execute(db.select(DrillSession).filter_by(user_id=trainee)
                                      ).scalars().all()
        assert [(s.kind, s.dealt, s.length) for s in sessions] == [(kind, "class", 3)]
        # In the practice figures: every class answer of the trainee, all right.
        figures = kind_figures([trainee], None)[trainee][kind]
        assert (figures.answered, figures.right) == (3, 3)
        # Never in a window: not even were the session timed, for it is class work.
        sessions[0].mode = "timed"
        db.session.commit()
        assert window_figures([trainee], criterion).get(trainee) in (None, type(figures)())
        # The same answers in a balanced timed session would count: the mark keeps them out.
        sessions[0].dealt = "balanced"
        db.session.commit()
        assert window_figures([trainee], criterion)[trainee].answered == 3
        sessions[0].dealt, sessions[0].mode = "class", "practice"
        db.session.commit()


def test_class_work_is_labelled_class_wherever_sessions_and_attempts_are_listed(
        room: Room, app: Any) -> None:
    kind = class_kinds(app)[0]
    room.start(joined=3)
    _play(room, kind, hands=1)
    trainee = room.trainees[0].id
    mine = room.seats[0].get("/results").get_data(as_text=True)
    assert '<span class="tag tag-mode">Class</span>' in mine
    page = room.staff.get(f"/supervisor/trainees/{trainee}").get_data(as_text=True)
    assert '<span class="tag tag-mode">Class</span>' in page or ">Class<" in page
    export = room.staff.get(f"/supervisor/groups/{room.group_id}/export/attempts.csv")
    rows = list(csv.reader(io.StringIO(export.get_data(as_text=True).lstrip("\ufeff"))))
    assert any("Class" in row for row in rows[1:])


@pytest.mark.parametrize("how", ["rule", "typed"])
def test_a_class_attempt_replays_the_hand_as_it_was_dealt(room: Room, app: Any, how: str) -> None:
    page_kinds = class_kinds(app)
    room.start()
    room.join(0)
    projector = room.staff.get(f"/class/{room.class_id}").get_data(as_text=True)
    kind = next(k for k in page_kinds if f'data-for-kind="{k}" data-typed' in projector)
    if how == "typed":
        start = projector.index(f'data-for-kind="{kind}" data-typed')
        names = projector[start:projector.index("</fieldset>", start)].split('name="')[1:]
        fields = {name.split('"')[0]: "" for name in names}
        if "cards:cards" in fields:
            fields["cards:cards"] = "Kh Kd 9s 9c 4h 3d 2c"
        else:
            fields.update({"banker.back:cards": "Ks Kd 7c 4h 2s", "banker.front:cards": "Qh Jd",
                           "positions.0.seat:int": "3", "positions.0.back:cards": "As Ad 9c 5h 3s",
                           "positions.0.front:cards": "Kh Tc", "positions.0.bet_cents:money": "10"})
        dealt = room.deal(kind, "typed", typed=fields)
    else:
        with app.app_context():
            context = group_context(db.session.get(Group, room.group_id))
            rule = get_drill(kind).skills_of(context)[-1].id
        dealt = room.deal(kind, "rule", rule=rule)
    assert dealt.status_code == 200, dealt.get_json()
    number = dealt.get_json()["number"]
    room.answer(0, number, room.wrong_answer(number))
    room.drive("lock")
    hand = room.hand(number)
    with app.app_context():
        attempt = db.session.execute(db.select(Attempt)).scalar_one()
        assert attempt.seed == hand["seed"]
        assert replay_question(attempt) == hand["question"]
        grade = regrade(attempt)
        assert grade.correct is attempt.correct is False
        assert grade.correct_answer == attempt.correct_answer == hand["key"]
        attempt_id = attempt.id
    replay = room.staff.get(f"/supervisor/attempts/{attempt_id}/replay")
    assert replay.status_code == 200
    first_card = (hand["question"].get("cards") or hand["question"]["banker"]["back"])[0]
    page = replay.get_data(as_text=True)
    assert f'data-card="{first_card}"' in page
    # The page says how the class was dealt the hand, not that it was dealt again from a seed.
    assert "dealt again from its seed" not in page and "dealt again from it" not in page
    origin = page[page.index('id="class-origin"'):page.index("</p>", page.index('id="class-origin"'))]
    assert f"Hand {number} of a live class" in origin
    if how == "typed":
        assert "typed in by the instructor" in origin
    else:
        with app.test_request_context():
            words = rule_name(rule, hand["context"].get("house_way"))
        assert "dealt for the rule" in origin and str(html.escape(words)) in origin
    assert f'href="/class/{room.class_id}/summary"' in origin


def test_the_class_summary_lists_each_hand_its_share_right_and_who_erred(
        room: Room, app: Any) -> None:
    kinds = class_kinds(app)
    room.start(joined=3)
    _play(room, kinds[0], hands=1, right_seat=1)
    number = room.deal(kinds[1]).get_json()["number"]
    room.answer(0, number, room.right_answer(number))
    room.answer(2, number, room.right_answer(number))
    room.state(1)  # the hand reached Ben, who gave no answer
    room.drive("reveal")
    reply = room.staff.get(f"/class/{room.class_id}/summary.csv")
    assert reply.status_code == 200 and reply.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(reply.get_data(as_text=True).lstrip("\ufeff"))))
    assert [(r["Hand"], r["Answers"], r["Right"], r["Right (%)"]) for r in rows] == [
        ("1", "3", "1", "33.3"), ("2", "2", "2", "100.0")]
    assert rows[0]["Who erred"] == "Dealer Ada; Dealer Cy" and rows[0]["No answer"] == ""
    assert rows[1]["Who erred"] == "" and rows[1]["No answer"] == "Dealer Ben"
    assert rows[0]["Rule id"] == room.hand(1)["rule_id"]
    page = room.staff.get(f"/class/{room.class_id}/summary").get_data(as_text=True)
    assert 'data-hand="1"' in page and 'data-hand="2"' in page
    assert "Dealer Ada, Dealer Cy" in page and "1 of 3" in page
    assert "data-print" in page and "css/print.css" in page
    # The instructor's start page links the class's summary.
    start = room.staff.get(f"/class/groups/{room.group_id}").get_data(as_text=True)
    assert f"/class/{room.class_id}/summary" in start


def test_a_lock_updates_each_answering_trainees_learning_state_once(room: Room, app: Any) -> None:
    """Practice that adapts (issue 30): the class's answers are reviewed at the lock, in its
    transaction (not at the answer: nobody saw a grade before), each trainee's skill once;
    a trainee who gave no answer has no review."""
    from trainer.engine.learning.keys import skill_id
    from trainer.models import SkillMemory
    from trainer.services import learning

    kind = class_kinds(app)[0]
    room.start(joined=3)
    number = room.deal(kind).get_json()["number"]
    room.answer(0, number, room.right_answer(number))
    room.answer(1, number, room.wrong_answer(number))
    ids = [t.id for t in room.trainees]

    def memories() -> dict[int, list[tuple[str, int, int]]]:
        with app.app_context():
            rows = db.session.execute(db.select(
                SkillMemory.user_id, SkillMemory.skill, SkillMemory.reviews, SkillMemory.lapses)
                .where(SkillMemory.kind == kind)).all()
        return {uid: sorted((s, r, la) for u, s, r, la in rows if u == uid) for uid in ids}

    assert memories() == {uid: [] for uid in ids}  # answers alone review nothing
    room.drive("lock")
    rule = room.hand(number)["rule_id"]
    with app.app_context():
        attempts = {a.user_id: a for a in db.session.execute(db.select(Attempt)).scalars()}
        skills = {uid: a.rule_id for uid, a in attempts.items()}
    assert set(attempts) == set(ids[:2]) and set(skills.values()) == {rule}
    skill = skill_id(rule)
    after = memories()
    assert after[ids[0]] == [(skill, 1, 0)]
    assert after[ids[1]] == [(skill, 1, 1)]  # a miss is a lapse
    assert after[ids[2]] == []
    with app.app_context():
        assert learning.bring_up_to_date(ids) == 0  # reviewed at the lock, not again
    # The reveal records nothing more.
    room.drive("reveal")
    assert memories() == after
