"""Targeted practice (issue 30 step 4): each question dealt for the skill the policy picks.

The policy itself is the engine's (tests/engine/test_learning_engine.py) and the
benchmark's (tests/engine/test_learning_sim.py); here it runs in the app: sessions,
memories, the weakest list, "practise this rule", assignments, and the statements.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.drills import get_drill
from trainer.engine.learning.catalogue import catalogue
from trainer.extensions import db
from trainer.models import Attempt, DrillSession, Group, IssuedQuestion
from trainer.services import drills as drill_service
from trainer.services import learning
from trainer.services.drills import DrillError, targeting
from trainer.services.group_settings import GroupSettings
from trainer.services.reports.aggregates import COUNTED_DEALT
from web.helpers import csrf_token, login
from web.learning_helpers import Clock, answer_for, play, service_clock
from web.test_request_cost import MAX_ANSWER_STATEMENTS, MAX_STATEMENTS, counted

HOUSE_WAY = "house-way"
# trump-plaza's two-pair.split.aces decides 4.93% of all hands (its class table).
WEAK = "two-pair.split.aces"


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return service_clock(monkeypatch)


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The policy's draws from a fixed seed, so a run replays."""
    rng = random.Random(30)
    monkeypatch.setattr(targeting, "policy_rng", lambda: random.Random(rng.random()))


def test_the_weak_rule_is_dealt_at_least_5_times_in_60_questions_and_heads_the_weakest(
        app: Flask, ctx: None, clock: Clock, trainee: Any, seeded: None) -> None:
    """A clock advancing 5 s an answer; one rule of 1-5% of hands always wrong, every other
    rule right; three targeted sessions of 20 (the policy brings in 3 new rules a session)."""
    share = dict(zip(*(lambda c: (c.skills, c.shares))(
        catalogue(get_drill(HOUSE_WAY), drill_service.build(GroupSettings()))), strict=True))
    assert 0.01 <= share[WEAK] <= 0.05
    asked: list[dict[str, Any]] = []
    for _ in range(3):
        session_id = learning.start_targeted(trainee.id, HOUSE_WAY, length=20)
        asked += play(trainee.id, session_id, clock, lambda rule, _p: rule != WEAK)
    assert len(asked) == 60
    dealt = Counter(a["rule_id"] for a in asked)
    assert dealt[WEAK] >= 5, dealt
    knowledge = learning.knowledge(trainee.id, HOUSE_WAY, now=clock.now)
    assert knowledge.weakest[0].skill == WEAK
    assert knowledge.weakest[0].lapses == dealt[WEAK]
    # The uniform generator would deal it about 3 times in 60 (4.9%); most questions were
    # dealt for a chosen rule, about one in five by the generator.
    by_generator = sum(a["dealt_for"] is None for a in asked)
    assert 3 <= by_generator <= 24


def test_targeted_questions_are_dealt_for_their_rule_and_replay_from_the_seed(
        app: Flask, ctx: None, clock: Clock, trainee: Any, seeded: None) -> None:
    session_id = learning.start_targeted(trainee.id, HOUSE_WAY, length=15)
    asked = play(trainee.id, session_id, clock, lambda rule, p: p % 4 != 0)
    chosen = [a for a in asked if a["dealt_for"]]
    assert chosen and all(a["rule_id"].removesuffix(".fallback") == a["dealt_for"]
                          for a in chosen)
    for attempt in db.session.execute(db.select(Attempt).filter_by(
            session_id=session_id)).scalars():
        assert drill_service.replay_question(attempt) == {
            k: v for k, v in attempt.question.items() if k != "context"}
        assert drill_service.regrade(attempt).correct is attempt.correct


def test_a_targeted_session_is_untimed_practice_never_counted_and_labelled_in_words(
        app: Flask, ctx: None, trainee: Any) -> None:
    session_id = learning.start_targeted(trainee.id, HOUSE_WAY)
    session = db.session.get(DrillSession, session_id)
    assert (session.mode, session.dealt, session.time_limit_ms) == ("practice", "targeted", None)
    assert session.dealt != COUNTED_DEALT
    for mode in ("timed", "exam"):
        with pytest.raises(DrillError):
            drill_service.start_session(trainee.id, HOUSE_WAY, mode, dealt="targeted")
    with pytest.raises(DrillError):      # a round is practised by its single-question kinds
        learning.start_targeted(trainee.id, "round")
    from trainer.web.words.names import session_mode_name
    with app.test_request_context():
        assert session_mode_name("practice", "targeted") == "Targeted practice"


def test_practise_this_rule_deals_only_that_rules_hands(
        app: Flask, ctx: None, clock: Clock, trainee: Any) -> None:
    rare = "quads.split.aces"          # 0.046% of hands: met once in 2,000 by chance
    session_id = learning.start_rule_practice(trainee.id, HOUSE_WAY, rare, length=8)
    asked = play(trainee.id, session_id, clock, lambda rule, p: True)
    assert [a["rule_id"] for a in asked] == [rare] * 8
    assert db.session.get(DrillSession, session_id).dealt == "focused"
    for refused in ("no-such.rule", "action.count"):  # no rule at all; another drill's
        with pytest.raises(DrillError):
            learning.start_rule_practice(trainee.id, HOUSE_WAY, refused)


def test_a_rule_assigned_by_the_supervisor_is_favoured(
        app: Flask, ctx: None, clock: Clock, trainee: Any, supervisor: Any, group: int,
        monkeypatch: pytest.MonkeyPatch, seeded: None) -> None:
    monkeypatch.setattr("trainer.engine.learning.policy.UNBIASED_SHARE", 0.0)
    context = drill_service.build(GroupSettings.of(db.session.get(Group, group)))
    assignment = learning.assign(supervisor.id, group, HOUSE_WAY, "family", "quads", context,
                                 trainee_id=trainee.id)
    session_id = learning.start_targeted(trainee.id, HOUSE_WAY, length=10)
    first = db.session.execute(db.select(IssuedQuestion).filter_by(
        session_id=session_id, position=1)).scalar_one()
    assert first.context["dealt_for"].startswith("quads.")
    assert first.context["favoured"] == sorted(
        s for s in catalogue(get_drill(HOUSE_WAY), context).skills if s.startswith("quads."))
    learning.end(supervisor.id, group, assignment)
    assert learning.in_force(trainee.id, group) == []
    with pytest.raises(learning.AssignmentError):
        learning.assign(supervisor.id, group, HOUSE_WAY, "rule", "no-such.rule", context)


def test_every_question_of_a_targeted_session_costs_four_statements_and_an_answer_five(
        app: Flask, client: FlaskClient, trainee: Any) -> None:
    login(client, trainee)
    with app.app_context():
        session_id = learning.start_targeted(trainee.id, HOUSE_WAY, length=6)
    token = csrf_token(client, "/drills/")
    rng = random.Random(3)
    for position in range(1, 7):
        with counted(app) as statements:
            body = client.post(f"/drills/sessions/{session_id}/question", json={},
                               headers={"X-CSRFToken": token}).get_json()
        assert body["position"] == position
        assert len(statements) <= MAX_STATEMENTS, statements
        with app.app_context():
            answer = answer_for(session_id, position, position % 2 == 0, rng)
        with counted(app) as statements:
            body = client.post(f"/drills/sessions/{session_id}/answer",
                               json={"position": position, "answer": answer},
                               headers={"X-CSRFToken": token}).get_json()
        assert body["correct"] is (position % 2 == 0)
        assert len(statements) <= MAX_ANSWER_STATEMENTS, statements
        # The next question is dealt in the answer's transaction, ready for the page.
        with app.app_context():
            ready = db.session.execute(db.select(IssuedQuestion).filter_by(
                session_id=session_id, position=position + 1)).scalar_one_or_none()
            assert (ready is None) is (position == 6)
            assert ready is None or ready.issued_at is None
