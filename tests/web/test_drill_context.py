"""A drill's context is made in one place and carries its house way (issue 28, items 3 and 4).

``services/drills/context.py`` builds the engine's ``DrillContext`` from a group's
settings (``build``) with the foul policy as the engine's ``FoulPolicy`` all the way
(text only in the stored JSON), and reads a stored context back with its house way
resolved by name and rules digest (``context_from_json``). The engine never calls up
for a house way: a published custom version reaches grading inside the context, and an
attempt stored under a version that was superseded since re-grades by that version.
"""
from __future__ import annotations

import copy
import dataclasses
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event

import trainer.engine.house_way as house_way_package
from trainer.engine.cards import card_list
from trainer.engine.drills import DrillContext
from trainer.engine.house_way import interpreter, load
from trainer.engine.profiles import FoulPolicy
from trainer.extensions import db
from trainer.models import (
    Attempt,
    CustomHouseWay,
    DrillSession,
    Group,
    IssuedQuestion,
    Job,
    Role,
    utcnow,
)
from trainer.services import drills as drill_service
from trainer.services import house_ways
from trainer.services.group_settings import GroupSettings
from web.test_custom_way_everywhere import (
    BASE,
    EXPECTED,
    REF,
    custom_data,
    differing_seed,
    front_of,
    publish,
)


def _put_group_on(app: Flask, group: int, **changes: Any) -> None:
    with app.app_context():
        record = db.session.get(Group, group)
        dataclasses.replace(GroupSettings.of(record), criteria=None, **changes).save_to(record)
        db.session.commit()


def _first_context(app: Flask, session_id: int) -> dict[str, Any]:
    with app.app_context():
        row = db.session.execute(db.select(IssuedQuestion).filter_by(
            session_id=session_id, position=1)).scalar_one()
        return dict(row.context)


@contextmanager
def _statements() -> Iterator[list[str]]:
    """Record the SQL statements run inside the block (the app context's engine)."""
    seen: list[str] = []

    def count(*args: Any) -> None:
        seen.append(str(args[2]))

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(db.engine, "before_cursor_execute", count)


@pytest.fixture
def manager(make_user: Any) -> Any:
    return make_user(Role.MANAGER, login="manager")


# --- the one builder: enums all the way ------------------------------------------------------


def test_a_groups_foul_policy_reaches_the_context_as_the_enum(
        app: Flask, trainee: Any, group: int) -> None:
    with app.app_context():
        record = db.session.get(Group, group)
        # Stored as text in the group's JSON: read once, there, into the engine's enum.
        record.settings = {**(record.settings or {}), "foul_policy": "house_way"}
        db.session.commit()
        settings = drill_service.settings_for(trainee.id)
        assert settings.foul_policy is FoulPolicy.HOUSE_WAY
        context = drill_service.build(settings)
        assert context.foul_policy is settings.foul_policy is FoulPolicy.HOUSE_WAY
        assert context.table.foul_policy is FoulPolicy.HOUSE_WAY
        assert context.way is load(settings.house_way)
        # A session started now runs under exactly what the builder makes.
        session_id = drill_service.start_session(trainee.id, "foul-check", "practice")
    stored = _first_context(app, session_id)
    assert stored["foul_policy"] == "house_way"  # text in the stored form only
    with app.app_context():
        assert stored == drill_service.build(drill_service.settings_for(trainee.id)).as_dict()
        again = drill_service.context_from_json(stored)
        assert again.foul_policy is FoulPolicy.HOUSE_WAY
        assert again.table.foul_policy is FoulPolicy.HOUSE_WAY


def test_a_groups_own_foul_policy_left_unset_is_the_profiles(
        app: Flask, trainee: Any) -> None:
    with app.app_context():
        context = drill_service.build(drill_service.settings_for(trainee.id))
        assert context.foul_policy is None
        assert isinstance(context.table.foul_policy, FoulPolicy)
        assert context.table is context.table  # worked out once, a field


def test_the_engines_context_refuses_the_foul_policy_as_text(app: Flask) -> None:
    with pytest.raises(TypeError):
        DrillContext(foul_policy="house_way")  # type: ignore[arg-type]
    with app.app_context(), pytest.raises(ValueError):
        GroupSettings(foul_policy="house_way")  # type: ignore[arg-type]


# --- the engine never calls up: the context carries the way --------------------------------


def test_grading_a_published_custom_way_needs_no_resolver(
        app: Flask, trainee: Any, group: int, manager: Any) -> None:
    for module in (interpreter, house_way_package):
        assert not hasattr(module, "set_resolver") and not hasattr(module, "_RESOLVER")
    ref, digest = publish(app, manager.id, custom_data())
    assert (ref, digest) == (REF, EXPECTED.rules_digest)
    _put_group_on(app, group, house_way=REF)
    with app.app_context():
        session_id = drill_service.start_session(trainee.id, "house-way", "practice")
        view = drill_service.issue_question(trainee.id, session_id)
        assert view is not None
        context = drill_service.context_from_json(view.context)
        # The resolved version itself rides in the context; the engine looks nothing up.
        assert context.way is house_ways.exact(REF, digest)
        assert (context.house_way, context.way.rules_digest) == (REF, digest)
        answer = {"front": sorted(front_of(EXPECTED, view.question["cards"]))}
        assert drill_service.answer_question(trainee.id, session_id, 1, answer).correct


def test_a_resolved_custom_way_is_kept_per_name_and_digest(
        app: Flask, manager: Any) -> None:
    ref, digest = publish(app, manager.id, custom_data())
    # What a question row holds for a session on the version (the ref, its digest).
    stored = {**DrillContext(EXPECTED, house_way_digest=digest).as_dict(), "house_way": ref}
    with app.app_context():
        house_ways.forget()  # a new process: nothing found yet
        with _statements() as first:
            way = drill_service.context_from_json(stored).way
        assert first, "the first read finds the version in the database"
        with _statements() as later:
            for _ in range(3):
                assert drill_service.context_from_json(stored).way is way
        assert later == []
        with pytest.raises(RuntimeError, match="not stored"):  # HouseWayError
            drill_service.context_from_json({**stored, "house_way_digest": "0" * 64})


def test_a_stored_context_of_a_superseded_version_still_grades_by_that_versions_rules(
        app: Flask, trainee: Any, group: int, manager: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    ref1, d1 = publish(app, manager.id, custom_data())
    _put_group_on(app, group, house_way=ref1)
    seed = differing_seed("house-way", lambda q: q.cards, d1, app)
    monkeypatch.setattr(secrets, "randbits", lambda bits: seed)
    with app.app_context():
        session_id = drill_service.start_session(trainee.id, "house-way", "practice")
        view = drill_service.issue_question(trainee.id, session_id)
        assert view is not None
        cards = view.question["cards"]
        v1_front = front_of(EXPECTED, cards)
        result = drill_service.answer_question(trainee.id, session_id, 1,
                                               {"front": sorted(v1_front)})
        assert result.correct
        # Version 2: Trump Plaza's own rules, which set this hand otherwise.
        way_id = db.session.execute(db.select(CustomHouseWay.id)).scalar_one()
        data = copy.deepcopy(load(BASE).data)
        record = house_ways.get_draft(way_id)
        data.update(casino=record.draft["casino"], title=record.draft["title"])
        house_ways.save_draft(way_id, data, manager.id)
        d2 = house_ways.get_draft(way_id).draft_digest
        db.session.add(Job(kind="check", key=f"check:{d2}", params={}, status="done",
                           progress=1000, result={"fouled_hands": 0, "undecided_hands": 0,
                                                  "rules_digest": d2}, finished_at=utcnow()))
        db.session.commit()
        ref2 = house_ways.publish(way_id, "Trump Plaza's two pair", manager.id).ref
        assert ref2 == f"{ref1.split('@')[0]}@2" and d2 != d1
    _put_group_on(app, group, house_way=ref2)
    with app.app_context():
        house_ways.forget()  # as a new process would: the versions are read again
        attempt = db.session.get(Attempt, result.attempt_id)
        context = drill_service.context_from_json(attempt.question["context"])
        assert (context.house_way, context.way.rules_digest) == (ref1, d1)
        grade = drill_service.regrade(attempt)
        assert grade.correct and grade.correct_answer == attempt.correct_answer
        assert set(grade.correct_answer["front"]) == v1_front
        assert v1_front != set(card_list(load(BASE).set(cards).front))
        # A session started now grades by version 2.
        later = drill_service.start_session(trainee.id, "house-way", "practice")
        assert db.session.get(DrillSession, later).house_way == ref2
