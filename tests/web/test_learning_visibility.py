"""Memories change exactly when a grade becomes visible (issue 30 step 3).

An exam's answers are reviewed at the exam's end, never during it: while the exam runs,
nothing the trainee sees (their home, their results, their standing and forecast)
changes with their exam answers. A live class's answers are reviewed at the lock
(``learning.record_class_attempts``, which the classroom service calls then).
"""
from __future__ import annotations

import random
import re
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.drills import get_drill
from trainer.extensions import db
from trainer.models import Attempt, DrillSession, utcnow
from trainer.services import drills as drill_service
from trainer.services import learning
from trainer.services.certification import exams
from trainer.services.learning import records
from web.helpers import login
from web.learning_helpers import Clock, answer_for, play, service_clock
from web.test_learning_memory import library_run

HOUSE_WAY = "house-way"
# A class session keeps no rating time: the group's criterion's, the house way's 8 s.
HOUSE_WAY_CRITERION_MS = 8000


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return service_clock(monkeypatch, utcnow().replace(microsecond=0))  # the exam's deadlines: real time


def _seen(client: FlaskClient) -> dict[str, str]:
    """What the trainee's pages show, without the per-request CSRF tokens."""
    tokens = r'(name="csrf[-_]token"[^>]*?(?:value|content)=)"[^"]*"'
    return {path: re.sub(tokens, r"\1", client.get(path).get_data(as_text=True))
            for path in ("/", "/results")}


def _standing(user_id: int, now: Any) -> tuple[Any, Any]:
    return learning.knowledge(user_id, HOUSE_WAY, now=now), learning.forecast(user_id, HOUSE_WAY,
                                                                               now=now)


def test_nothing_a_trainee_sees_during_an_exam_changes_with_their_exam_answers(
        app: Flask, client: FlaskClient, clock: Clock, trainee: Any, supervisor: Any,
        group: int) -> None:
    login(client, trainee)
    with app.app_context():
        practice = drill_service.start_session(trainee.id, HOUSE_WAY, "practice", length=10)
        play(trainee.id, practice, clock, lambda rule, p: p % 2 == 0)
        exam_id = exams.schedule_exam(group, trainee.id, HOUSE_WAY, supervisor.id)
        session_id = exams.start_exam(exam_id, trainee.id)
        moment = clock.now                      # both read as of one moment
        before = _standing(trainee.id, moment)
        memories = records.memories_of([trainee.id])[trainee.id]
    pages = _seen(client)
    with app.app_context():
        rng = random.Random(5)
        for position in range(1, 11):          # ten exam answers, all wrong
            view = drill_service.issue_question(trainee.id, session_id)
            assert view is not None and view.position == position
            clock.advance(4)
            drill_service.answer_question(trainee.id, session_id, position,
                                          answer_for(session_id, position, False, rng))
        assert records.memories_of([trainee.id])[trainee.id] == memories
        assert _standing(trainee.id, moment) == before
    assert _seen(client) == pages
    with app.app_context():
        length = db.session.get(DrillSession, session_id).length
        for position in range(11, length + 1):   # the rest, and the exam ends
            drill_service.issue_question(trainee.id, session_id)
            clock.advance(4)
            drill_service.answer_question(trainee.id, session_id, position,
                                          answer_for(session_id, position, True, rng))
        assert exams.record_results([trainee.id]) == 1
        # Judged: every exam answer is now in the memories, as one run of FSRS gives them.
        after = records.memories_of([trainee.id])[trainee.id]
        assert after != memories
        assert {k: {f: v for f, v in m.card.card().to_dict().items() if f != "card_id"}
                for k, m in after.items()} == library_run(trainee.id)
        assert sum(m.reviews for m in after.values()) == db.session.execute(
            db.select(db.func.count()).select_from(Attempt)).scalar_one()


def test_a_class_answer_is_reviewed_at_the_lock_with_its_answer_time(
        app: Flask, ctx: None, trainee: Any, group: int) -> None:
    """The attempts a lock records (as ``services/classroom`` does), then reviewed."""
    drill = get_drill(HOUSE_WAY)
    context = drill_service.build(drill_service.settings_for(trainee.id))
    session = DrillSession(user_id=trainee.id, group_id=group, kind=HOUSE_WAY, mode="practice",
                           dealt="class", length=0, time_limit_ms=None,
                           house_way=context.house_way, house_way_digest=context.house_way_digest,
                           profile=context.profile, started_at=utcnow())
    db.session.add(session)
    rng = random.Random(7)
    recorded = []
    dealt = utcnow() - timedelta(minutes=5)
    for number in range(4):
        question = drill.question_at(rng.randrange(1 << 40), context, 1)
        right = number % 2 == 0
        answer = (drill.answer_key(question, context).correct_answer if right
                  else drill.wrong_answer(question, context, rng))
        answer_json = {"front": list(answer.front)}
        grade = drill.grade(question, drill.read_answer(question, answer_json, context), context)
        session.length += 1
        attempt = Attempt(session=session, position=session.length, user_id=trainee.id,
                          kind=HOUSE_WAY, seed=question.seed,
                          question={**drill.question_json(question), "context": context.as_dict()},
                          answer=answer_json, correct_answer=drill.key_json(grade.correct_answer),
                          correct=grade.correct, timed_out=False, rule_id=grade.rule_id,
                          issued_at=dealt + timedelta(minutes=number),
                          answered_at=dealt + timedelta(minutes=number, seconds=3 + 5 * number),
                          elapsed_ms=(3 + 5 * number) * 1000)
        db.session.add(attempt)
        db.session.flush()
        recorded.append(attempt)
    assert records.memories_of([trainee.id])[trainee.id] == {}
    learning.record_class_attempts(recorded)      # what the lock calls, in its transaction
    db.session.commit()
    stored = records.memories_of([trainee.id])[trainee.id]
    assert {k: {f: v for f, v in m.card.card().to_dict().items() if f != "card_id"}
            for k, m in stored.items()} == library_run(trainee.id, HOUSE_WAY_CRITERION_MS)
    assert sum(m.reviews for m in stored.values()) == 4
    assert learning.bring_up_to_date([trainee.id]) == 0    # reviewed once, not again
