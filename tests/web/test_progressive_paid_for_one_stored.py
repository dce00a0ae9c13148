"""Stored attempts keep the side-bet rules they were graded by (docs/side-bets.md "Side-bet rules").

Side-bet rules 2 pay the progressive "for 1" (the $1 collected at the deal, not returned);
before, under rules 1, a winner's $1 was returned. A session records its rules in the
context stored with every question (``side_bet_rules``); a context stored before has
none and is rules 1. So an attempt graded then replays and re-grades exactly as it was
graded, sentences included, while a session started now grades by the new rule.
"""
from __future__ import annotations

import dataclasses
import secrets
from typing import Any

import pytest
from flask import Flask

from trainer.engine.cards import parse_cards
from trainer.engine.drills import DrillContext, get_drill, new_question
from trainer.engine.drills.codec import to_json
from trainer.engine.side_bets import bonus_category, load_table
from trainer.extensions import db
from trainer.models import Attempt
from trainer.services import drills as drill_service
from trainer.services.drills import sessions as sessions_module
from trainer.services.group_settings import GroupSettings

PROGRESSIVE = "nevada-progressive"


def _paying_seed() -> int:
    """A bonus question whose seven cards win a fixed amount on the progressive."""
    context = DrillContext(profile="nevada-progressive")
    for seed in range(400):
        q = get_drill("bonus").question_json(new_question("bonus", seed, context))
        seven = parse_cards(q.get("cards") or q["back"] + q["front"], 7)
        line = load_table("progressive").line_for(bonus_category(seven, "ace-king"))
        if line is not None and line.amount_cents is not None:
            return seed
    raise AssertionError("no paying progressive hand in 400 seeds")


def _answered(trainee: Any) -> tuple[int, Any]:
    """Start a progressive bonus session, answer its first question right; the attempt's id."""
    session_id = drill_service.start_session(trainee.id, "bonus", "practice",
                                             GroupSettings(profile=PROGRESSIVE))
    view = drill_service.issue_question(trainee.id, session_id)
    assert view is not None
    context = drill_service.context_from_json(view.context)
    key = drill_service.answer_key(view.question, context)
    result = drill_service.answer_question(trainee.id, session_id, 1, key)
    assert result.correct
    return result.attempt_id, result


def test_attempt_graded_before_keeps_its_grade(app: Flask, trainee: Any,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    seed = _paying_seed()
    monkeypatch.setattr(secrets, "randbits", lambda bits: seed)
    # A session started before side-bet rules 2: its context was stored without them.
    written = DrillContext.as_dict

    def as_stored_before(self: DrillContext) -> dict[str, Any]:
        data = written(self)
        data.pop("side_bet_rules", None)
        return data

    # And it dealt its questions under those rules (version 1): the services build the
    # context once and deal from it, so the fake old session is built under version 1 too.
    built = sessions_module.build

    def built_before(*args: Any, **kwargs: Any) -> DrillContext:
        return dataclasses.replace(built(*args, **kwargs), side_bet_rules=1)

    with app.app_context():
        with monkeypatch.context() as before:
            before.setattr(DrillContext, "as_dict", as_stored_before)
            before.setattr(sessions_module, "build", built_before)
            old_id, old_result = _answered(trainee)
        old = db.session.get(Attempt, old_id)
        assert "side_bet_rules" not in old.question["context"]
        assert "payment" not in old.question
        graded_then = old_result.grade
        assert "and the bet stays" in str(graded_then.explanation)
        # Re-graded now, it is graded exactly as it was: the answer, the rule and the words.
        again = drill_service.regrade(old)
        # The replay gives the key as the row stores it (JSON); the answer gave it typed.
        assert (again.correct, again.rule_id, to_json(again.correct_answer),
                to_json(list(again.parts))) == (
            graded_then.correct, graded_then.rule_id, to_json(graded_then.correct_answer),
            to_json(list(graded_then.parts)))
        assert str(again.explanation) == str(graded_then.explanation)
        assert drill_service.replay_question(old) == {
            k: v for k, v in old.question.items() if k != "context"}

        # A session started now grades by the new rule, and records it.
        new_id, new_result = _answered(trainee)
        new = db.session.get(Attempt, new_id)
        assert new.question["context"]["side_bet_rules"] == 2
        assert new.question["payment"] == "for-one"
        # The same amount paid.
        assert to_json(new_result.grade.correct_answer) == to_json(graded_then.correct_answer)
        words = str(drill_service.regrade(new).explanation)
        assert "for 1" in words and "collected when the cards were dealt, is not returned" in words
        assert "the bet stays" not in words
        assert new_result.feedback is not None and "for 1" in str(new_result.feedback.why)
