"""Feedback in words and attempts drawn, in Chromium (issue 16, items 1 and 3).

A house-way question answered wrong in the page names the trainee's front and the
house way's; then one wrong answer of every drill kind in the registry is recorded
and its result page, read as the trainee sees it, shows cards and words: no JSON and
no raw rule id (ids only in tooltips).
"""
from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from web.wrong_answers import own_wrong_answer

from e2e.conftest import shot, sign_in
from trainer.cli.accounts import DEMO_TRAINEES
from trainer.engine.drills import DRILLS, DrillContext
from trainer.extensions import db
from trainer.models import Attempt, IssuedQuestion, User
from trainer.services import drills as drill_service

pytestmark = pytest.mark.e2e

SUITS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}


@pytest.fixture
def demo_settings() -> dict[str, Any]:
    """One question a session."""
    return {"drills": {kind: {"length": 1} for kind in DRILLS}}


def words(card: str) -> str:
    return "joker" if card == "JK" else ("10" if card[0] == "T" else card[0]) + SUITS[card[1]]


def test_feedback_and_result_pages_in_words_for_every_kind(
        app: Flask, live_server: str, page: Any) -> None:
    sign_in(page, live_server)
    page.click("#start-house-way [data-start=house-way-practice]")
    page.wait_for_selector(".q-house-way[data-position='1']")
    session_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    with app.app_context():
        row = db.session.execute(
            db.select(IssuedQuestion).filter_by(session_id=session_id, position=1)).scalar_one()
        question, context = dict(row.question), DrillContext.from_dict(row.context)
    key = drill_service.answer_key(question, context)
    front = own_wrong_answer("house-way", question, context)["front"]
    for card in front:
        page.click(f"[data-hand] [data-card='{card}']")
    page.click(".q-house-way [data-submit]")
    page.wait_for_selector(".verdict-sentence")
    sentence = page.inner_text(".verdict-sentence")
    assert "You " in sentence
    assert f"the house way puts {' '.join(words(c) for c in key['front'])} in front" in sentence
    assert key["rule"] not in page.inner_text("#feedback")
    shot(page, "feedback-house-way-wrong")

    with app.app_context():
        user_id = db.session.execute(
            db.select(User.id).filter_by(login=DEMO_TRAINEES[0][0])).scalar_one()
        attempt_ids = []
        for kind, drill in DRILLS.items():
            sid = drill_service.start_session(user_id, kind, "practice")
            for position in range(1, (len(drill.steps) or 1) + 1):
                view = drill_service.issue_question(user_id, sid)
                assert view is not None
                stored = db.session.execute(
                    db.select(IssuedQuestion).filter_by(session_id=sid, position=position)
                ).scalar_one()
                ctx = DrillContext.from_dict(stored.context)
                drill_service.answer_question(user_id, sid, position,
                                              own_wrong_answer(kind, dict(stored.question), ctx))
            attempt_ids += [(kind, a.id, a.rule_id) for a in db.session.execute(
                db.select(Attempt).filter_by(session_id=sid)).scalars()]
    for kind, attempt_id, rule_id in attempt_ids:
        page.goto(f"{live_server}/results/{attempt_id}")
        page.wait_for_selector(".attempt-view")
        text = page.inner_text("main")
        assert not re.search(r'\{"|"\w+"\s*:', text), (kind, text)
        assert rule_id not in text, (kind, rule_id)
        assert page.inner_text(".verdict-sentence").strip(), kind
        assert page.locator(".answers-side .answer-col").count() == 2
        if kind == "round":
            shot(page, f"result-{kind}-{attempt_id}")
