"""A whole round in headless Chromium: action, banker's hand, settlement, by mouse and by keyboard."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from flask import Flask

from e2e.conftest import shot, sign_in
from trainer.engine.drills import DrillContext
from trainer.extensions import db
from trainer.models import Attempt, IssuedQuestion
from trainer.services import drills as drill_service
from trainer.services.drills import sessions
from trainer.web.platform.languages import money_format

# Rounds dealt from these seeds under the demo group's rules (trump-plaza, nevada), by
# question generator 2 (drills balanced by answer):
# the dealer banks, with empty seats, a loser, a winner and a push ...
HOUSE_BANKED_SEED = 4
# ... and a player banks, the bank wins and pays commission, with the same mix.
PLAYER_BANKER_SEED = 19

pytestmark = pytest.mark.e2e


@pytest.fixture
def demo_settings() -> dict[str, Any]:
    """One round per session."""
    return {"drills": {"round": {"length": 3}}}


def sign_in_to_drills(page: Any, live_server: str) -> None:
    """Sign the first demo trainee in and open the drills page."""
    sign_in(page, live_server)
    page.goto(f"{live_server}/drills/")




def deal_from(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Make the drill service deal its next round from ``seed``."""
    monkeypatch.setattr(sessions, "secrets", SimpleNamespace(randbits=lambda bits: seed))


def session_id(page: Any) -> int:
    """Return the drill session id from the page's address."""
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def step(app: Flask, sid: int, position: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return an issued step and its answer key, worked out by the engine."""
    with app.app_context():
        row = db.session.execute(
            db.select(IssuedQuestion).filter_by(session_id=sid, position=position)
        ).scalar_one()
        question, context = dict(row.question), DrillContext.from_dict(row.context)
    return question, drill_service.answer_key(question, context)


def recorded(app: Flask, sid: int) -> list[tuple[int, str, bool]]:
    """Return (position, rule id, correct) of a session's attempts."""
    with app.app_context():
        rows = db.session.execute(
            db.select(Attempt).filter_by(session_id=sid).order_by(Attempt.position)
        ).scalars()
        return [(a.position, a.rule_id, a.correct) for a in rows]


def verdict(page: Any) -> str:
    """Wait for the feedback and return its verdict word."""
    page.wait_for_selector(".verdict")
    return page.inner_text(".verdict-word")


def test_a_round_with_the_mouse(app: Flask, live_server: str, page: Any,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    deal_from(monkeypatch, HOUSE_BANKED_SEED)
    sign_in_to_drills(page, live_server)
    page.click("[data-start=round-timed]")
    page.wait_for_selector(".q-round[data-step='action']")
    sid = session_id(page)
    assert page.inner_text("#progress-text") == "1 of 3"

    # Step 1: the action.
    question, key = step(app, sid, 1)
    assert question["banker_seat"] == 1 and len(question["occupied"]) < 7
    assert page.locator(".q-round .seat-empty").count() == 7 - len(question["occupied"])
    shot(page, "round-1-action")
    page.click(f".q-round [data-seat='{key['seat']}']")
    assert verdict(page) == "Right"
    assert "dead" in page.inner_text("#feedback")
    page.click("#next")

    # Step 2: the banker's hand, the house way.
    page.wait_for_selector(".q-round[data-step='banker']")
    question, key = step(app, sid, 2)
    for card in key["front"]:
        page.click(f"[data-hand] [data-card='{card}']")
    shot(page, "round-2-banker")
    page.click(".q-round [data-submit]")
    assert verdict(page) == "Right"
    assert page.locator(f"#feedback [data-rule='{key['rule']}']").count() >= 1
    page.click("#next")

    # Step 3: settle, losers first, then winners net of commission; pushes left.
    page.wait_for_selector(".q-round[data-step='settle']")
    question, key = step(app, sid, 3)
    assert {e["action"] for e in key["order"]} == {"take", "pay"} and key["pushes"]
    for entry in key["order"]:
        if entry["action"] == "take":
            page.click(f"[data-take='{entry['seat']}']")
        else:
            # Typed short ("47.5", "95"): the order below shows it as the page's money.
            typed = f"{entry['paid_cents'] / 100:.2f}".rstrip("0").rstrip(".")
            page.fill(f"[data-pay-amount='{entry['seat']}']", typed)
            page.click(f"[data-pay='{entry['seat']}']")
    assert page.locator("[data-order] li").count() == len(key["order"])
    for entry in key["order"]:
        if entry["action"] == "pay":
            shown = page.inner_text(f"[data-order] li[data-seat='{entry['seat']}']")
            assert money_format("en", "USD").format(entry["paid_cents"]) in shown, shown
    shot(page, "round-3-settle")
    page.click(".q-round [data-round-settle] [data-submit]")
    assert verdict(page) == "Right"
    shot(page, "round-3-feedback")
    page.click("#to-summary")
    page.wait_for_selector("#round-steps")
    cells = page.locator("#round-steps tr[data-round='1'] td[data-step]")
    assert cells.count() == 3 and page.inner_text("#score") == "3 / 3"
    shot(page, "round-summary")
    rules = recorded(app, sid)
    assert [r[0] for r in rules] == [1, 2, 3] and all(r[2] for r in rules)
    assert rules[0][1] == "round.action" and rules[1][1].startswith("round.banker.")
    assert rules[2][1] == "round.settle"


def test_a_player_banker_round_with_the_keyboard_only(
    app: Flask, live_server: str, page: Any, monkeypatch: pytest.MonkeyPatch,
) -> None:
    deal_from(monkeypatch, PLAYER_BANKER_SEED)
    sign_in_to_drills(page, live_server)
    page.focus("[data-start=round-timed]")
    page.keyboard.press("Enter")
    page.wait_for_selector(".q-round[data-step='action'] [data-seat]:not([disabled])")
    sid = session_id(page)

    question, key = step(app, sid, 1)
    assert question["banker_seat"] != 1
    assert "Player-banker" in page.inner_text(".round-step")
    page.keyboard.press(str(key["seat"]))
    assert verdict(page) == "Right"
    page.keyboard.press("Enter")

    page.wait_for_selector(".q-round[data-step='banker'] [data-hand] .card:not([disabled])")
    question, key = step(app, sid, 2)
    # Pick a wrong card and take it back with the same key, then the right two.
    spare = next(str(i + 1) for i, c in enumerate(question["banker_cards"]) if c not in key["front"])
    page.keyboard.press(spare)
    page.keyboard.press(spare)
    for card in key["front"]:
        page.keyboard.press(str(question["banker_cards"].index(card) + 1))
    page.keyboard.press("Enter")
    assert verdict(page) == "Right"
    page.keyboard.press("Enter")

    page.wait_for_selector(".q-round[data-step='settle'] [data-take]:not([disabled])")
    question, key = step(app, sid, 3)
    assert key["banker_commission_cents"] > 0
    # A wrong take, undone with Backspace.
    push = key["pushes"][0]
    page.keyboard.press(str(push))
    page.keyboard.press("t")
    assert page.locator("[data-order] li").count() == 1
    page.keyboard.press("Backspace")
    assert page.locator("[data-order] li").count() == 0
    for entry in key["order"]:
        page.keyboard.press(str(entry["seat"]))
        if entry["action"] == "take":
            page.keyboard.press("t")
        else:
            page.keyboard.press("p")
            page.keyboard.type(f"{entry['paid_cents'] / 100:.2f}")
            page.keyboard.press("Enter")
    assert page.locator("[data-order] li").count() == len(key["order"])
    page.keyboard.press("b")
    page.keyboard.type(f"{key['banker_commission_cents'] / 100:.2f}")
    shot(page, "round-keyboard-settle")
    page.keyboard.press("Enter")
    assert verdict(page) == "Right"
    assert "player-banker" in page.inner_text("#feedback")
    page.keyboard.press("Enter")
    page.wait_for_selector("#round-steps")
    assert page.inner_text("#score") == "3 / 3"
    shot(page, "round-keyboard-summary")
    rules = recorded(app, sid)
    assert rules[0][1] == "round.action.player-banker"
    assert rules[2][1] == "round.settle.player-banker" and all(r[2] for r in rules)
