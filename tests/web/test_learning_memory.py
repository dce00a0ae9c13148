"""Memories per trainee and skill (issue 30 step 3): stored at the answer, exactly FSRS's.

The rating rules of an answer are the engine's (tests/engine/test_learning_engine.py);
here the memories a trainee's answers leave in the database are compared with an
uninterrupted run of the pinned library over the same answers, rated by the rules
written out again in ``expected_rating``.
"""
from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from fsrs import Card, Rating, Scheduler

from trainer.engine.learning.keys import SkillKey, skill_key
from trainer.extensions import db
from trainer.models import Attempt, DrillSession, SkillMemory
from trainer.services import drills as drill_service
from trainer.services import learning
from trainer.services.learning import records
from web.learning_helpers import Clock, answer_for, issued_row, play, service_clock

LIBRARY = Scheduler(enable_fuzzing=False)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return service_clock(monkeypatch)


def expected_rating(attempt: Attempt, criterion_ms: int | None) -> Rating:
    """The issue's rules: wrong or timed out Again; right slower than the criterion time
    Hard; right in under half of it Easy; right otherwise Good."""
    if not attempt.correct or attempt.timed_out:
        return Rating.Again
    if criterion_ms is None:
        return Rating.Good
    if attempt.elapsed_ms > criterion_ms:
        return Rating.Hard
    if attempt.elapsed_ms < criterion_ms / 2:
        return Rating.Easy
    return Rating.Good


def library_run(user_id: int, unkept_ms: int | None = None) -> dict[SkillKey, dict[str, Any]]:
    """Every attempt of the user, oldest first, reviewed by the library in one run
    (``unkept_ms``: the rating time of a session that kept none)."""
    cards: dict[SkillKey, Card] = {}
    rows = db.session.execute(db.select(Attempt, DrillSession).join(
        DrillSession, DrillSession.id == Attempt.session_id).where(
        Attempt.user_id == user_id).order_by(Attempt.answered_at, Attempt.id)).all()
    for attempt, session in rows:
        key = skill_key(attempt.kind, attempt.rule_id, session.house_way,
                        session.house_way_digest)
        card = cards.get(key) or Card(card_id=1, due=attempt.answered_at)
        cards[key], _ = LIBRARY.review_card(
            card, expected_rating(attempt, session.rating_time_ms if session.rating_time_ms
                                  is not None else unkept_ms), attempt.answered_at)
    return {k: {f: v for f, v in c.to_dict().items() if f != "card_id"}
            for k, c in cards.items()}


def stored(user_id: int) -> dict[SkillKey, dict[str, Any]]:
    """The memories in the database, read back as a request would."""
    db.session.expire_all()
    return {k: m.card.card().to_dict() | {"card_id": None}
            for k, m in records.memories_of([user_id])[user_id].items()}


def _without_id(cards: dict[SkillKey, dict[str, Any]]) -> dict[SkillKey, dict[str, Any]]:
    return {k: {f: v for f, v in c.items() if f != "card_id"} for k, c in cards.items()}


def test_stored_memory_after_each_answer_equals_an_uninterrupted_fsrs_run(
        app: Flask, ctx: None, clock: Clock, trainee: Any) -> None:
    """Practice and timed answers, right and wrong, fast, slow and late, over three days."""
    rng = random.Random(30)
    session_ids = []
    for day, (kind, mode) in enumerate([("house-way", "practice"), ("house-way", "timed"),
                                        ("action", "practice"), ("house-way", "practice")]):
        clock.now += timedelta(days=day and 1)
        session_id = drill_service.start_session(trainee.id, kind, mode, length=12)
        session_ids.append(session_id)
        while (view := drill_service.issue_question(trainee.id, session_id)) is not None:
            # 2 s (Easy), 6 s (Good), 9 s (Hard at 8 s) or past a timed limit (timed out).
            clock.advance(rng.choice([2, 6, 9, 9, 45]))
            right = rng.random() < 0.7
            drill_service.answer_question(trainee.id, session_id, view.position,
                                          answer_for(session_id, view.position, right, rng))
            assert _without_id(stored(trainee.id)) == library_run(trainee.id)
    attempts = db.session.execute(db.select(Attempt).filter_by(user_id=trainee.id)).scalars().all()
    ratings = {expected_rating(a, db.session.get(DrillSession, a.session_id).rating_time_ms)
               for a in attempts}
    assert ratings == {Rating.Again, Rating.Hard, Rating.Good, Rating.Easy}
    assert any(a.timed_out for a in attempts)
    # The house way's rules are scoped to the way and its rules; the action's are not.
    keys = set(stored(trainee.id))
    assert {k.of_a_way for k in keys if k.kind == "house-way"} == {True}
    assert {k.way for k in keys if k.kind == "action"} == {""}
    assert db.session.execute(db.select(db.func.sum(SkillMemory.reviews))).scalar_one() == \
        len(attempts)


def test_a_memory_rebuilt_from_the_answers_on_record_is_the_one_kept_at_each_answer(
        app: Flask, ctx: None, clock: Clock, trainee: Any) -> None:
    """Deleting every memory and reading them again rebuilds the very same ones."""
    session_id = drill_service.start_session(trainee.id, "house-way", "practice", length=25)
    play(trainee.id, session_id, clock, lambda rule, position: position % 3 != 0)
    kept = stored(trainee.id)
    db.session.execute(SkillMemory.__table__.delete())
    db.session.commit()
    assert stored(trainee.id) == {}
    assert learning.bring_up_to_date([trainee.id]) == len(kept)
    db.session.commit()
    assert stored(trainee.id) == kept
    assert learning.bring_up_to_date([trainee.id]) == 0  # nothing left to do


def test_a_question_the_server_records_as_timed_out_is_reviewed_before_memories_are_read(
        app: Flask, ctx: None, clock: Clock, trainee: Any) -> None:
    session_id = drill_service.start_session(trainee.id, "house-way", "timed", length=3)
    view = drill_service.issue_question(trainee.id, session_id)
    assert view is not None
    rule = issued_row(session_id, 1).rule_id
    clock.advance(3600)   # the trainee left; the next question's request records it
    drill_service.issue_question(trainee.id, session_id)
    [attempt] = db.session.execute(db.select(Attempt).filter_by(session_id=session_id)).scalars()
    assert attempt.timed_out and attempt.rule_id == rule
    assert stored(trainee.id) == {}          # no answer request: not reviewed yet
    knowledge = learning.knowledge(trainee.id, "house-way", now=clock.now)
    assert _without_id(stored(trainee.id)) == library_run(trainee.id)
    [seen] = [s for s in knowledge.skills if s.seen]
    assert seen.skill == rule and seen.lapses == 1


def test_two_requests_reviewing_one_skill_at_once_lose_no_review(
        app: Flask, ctx: None, trainee: Any) -> None:
    """The second write finds the row changed since it read it: it reads and reviews again."""
    from trainer.engine.learning.memory import Grade
    key = SkillKey("action", "action.count")
    when = clock_start = Clock().now
    first = records.review_one(trainee.id, None, key, Grade.GOOD, when)
    stale = first                                   # what both requests read
    records.review_one(trainee.id, stale, key, Grade.AGAIN, when + timedelta(minutes=1))
    late = records.review_one(trainee.id, stale, key, Grade.GOOD, when + timedelta(minutes=2))
    db.session.commit()
    kept = records.memory_of(trainee.id, key)
    assert kept == late and kept.reviews == 3 and kept.lapses == 1
    assert records.review_one(trainee.id, None, key, Grade.EASY, clock_start).reviews == 4


def test_the_rating_time_is_the_criterion_time_else_the_groups_median(
        app: Flask, ctx: None, clock: Clock, trainee: Any, make_user: Any, group: int) -> None:
    from trainer.services.learning import rating
    rating.forget()
    house = drill_service.start_session(trainee.id, "house-way", "practice")
    assert db.session.get(DrillSession, house).rating_time_ms == 8000   # its criterion's 8 s
    # The action drill has no criterion (nor a time); no answers in the group yet: none (Good).
    first = drill_service.start_session(trainee.id, "action", "practice")
    assert db.session.get(DrillSession, first).rating_time_ms is None
    other = make_user(group_id=group)
    rng = random.Random(2)
    for user_id, seconds in ((trainee.id, 11), (other.id, 21)):
        session_id = drill_service.start_session(user_id, "action", "practice", length=11)
        play(user_id, session_id, clock, lambda rule, p: True, seconds=seconds, rng=rng)
    assert db.session.get(DrillSession, first).rating_time_ms is None   # kept from its start
    rating.forget()
    later = drill_service.start_session(trainee.id, "action", "practice")
    assert db.session.get(DrillSession, later).rating_time_ms == 16_000  # the median of 22


def test_an_answer_reads_its_own_skills_record_out_of_the_aggregate_as_splitting_it_would() -> None:
    """``record_in`` finds one skill's record in the answer statement's aggregate text
    without splitting the others; it must agree with ``split_aggregate`` on every key,
    including a skill whose id is the tail of another's, and on keys that are absent."""
    rng = random.Random(7)
    sep, field = records.RECORD_SEPARATOR, records.FIELD_SEPARATOR
    for _ in range(300):
        keys = {SkillKey("house-way", rng.choice(["9.4", "19.4", "9", "a9.4", "pair"]),
                         rng.choice(["", "classic", "sic"]), rng.choice(["", "d1", "1"]))
                for _ in range(rng.randrange(0, 6))}
        text = sep.join(field.join((k.skill, k.way, k.digest, f'{{"n":{i}}}'))
                        for i, k in enumerate(sorted(keys, key=str)))
        split = records.split_aggregate("house-way", text or None)
        for probe in keys | {SkillKey("house-way", "9.4", "classic", "d1"),
                             SkillKey("house-way", "4", "", "")}:
            assert records.record_in(text or None, probe) == split.get(probe)
