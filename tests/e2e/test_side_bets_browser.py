"""Side bets in headless Chromium: a round with a bonus and an envy, and the player's game
with a Fortune bet (issue 17)."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from flask import Flask

from e2e.conftest import shot, sign_in
from trainer.cli.accounts import DEMO_GROUP
from trainer.engine.drills import DrillContext, get_drill, new_question
from trainer.engine.drills.context import preset_way
from trainer.engine.drills.kinds.round.grade import side_keys
from trainer.engine.game import deal_hand
from trainer.engine.side_bets import BonusCategory, bonus_category, load_table
from trainer.extensions import db
from trainer.models import GameHand, Group, IssuedQuestion
from trainer.services import drills as drill_service
from trainer.services import table as game_table
from trainer.services.drills import sessions

pytestmark = pytest.mark.e2e


@pytest.fixture
def demo_settings() -> dict[str, Any]:
    """One round per session."""
    return {"drills": {"round": {"length": 3}}}


def on_profile(app: Flask, profile: str) -> str:
    """Put the demo group on ``profile``; return its house way."""
    with app.app_context():
        group = db.session.execute(db.select(Group).filter_by(name=DEMO_GROUP)).scalar_one()
        group.profile = profile
        db.session.commit()
        return group.house_way


def step(app: Flask, sid: int, position: int) -> tuple[dict[str, Any], dict[str, Any]]:
    with app.app_context():
        row = db.session.execute(
            db.select(IssuedQuestion).filter_by(session_id=sid, position=position)
        ).scalar_one()
        question, context = dict(row.question), DrillContext.from_dict(row.context)
    return question, drill_service.answer_key(question, context)


def envy_round_seed(house_way: str) -> int:
    """A Fortune round whose settle step pays a bonus and an envy (found by the engine's key)."""
    ctx = DrillContext(way=preset_way(house_way), profile="nevada-fortune")
    drill = get_drill("round")
    for seed in range(2000):
        q = drill.at_step(new_question("round", seed, ctx), 2, ctx)
        keys = side_keys(q, ctx)
        if any(k["bonus"]["win_cents"] for k in keys) and any(k["envy"]["paid_cents"] for k in keys):
            return seed
    raise AssertionError("no seed")


def test_a_round_with_a_bonus_and_an_envy(app: Flask, live_server: str, page: Any,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    house_way = on_profile(app, "nevada-fortune")
    seed = envy_round_seed(house_way)
    monkeypatch.setattr(sessions, "secrets", SimpleNamespace(randbits=lambda bits: seed))
    sign_in(page, live_server)
    page.goto(f"{live_server}/drills/")
    page.click("[data-start=round-practice]")
    page.wait_for_selector(".q-round[data-step='action']")
    sid = int(page.url.rstrip("/").rsplit("/", 1)[1])

    _question, key = step(app, sid, 1)
    page.click(f".q-round [data-seat='{key['seat']}']")
    page.wait_for_selector(".verdict")
    page.click("#next")
    page.wait_for_selector(".q-round[data-step='banker']")
    _question, key = step(app, sid, 2)
    for card in key["front"]:
        page.click(f"[data-hand] [data-card='{card}']")
    page.click(".q-round [data-submit]")
    page.wait_for_selector(".verdict")
    page.click("#next")

    page.wait_for_selector(".q-round[data-step='settle']")
    _question, key = step(app, sid, 3)
    assert "Fortune bonus" in page.inner_text(".side-bet-line")
    # The main bets in order; the side bets in their own columns (blank pays nothing).
    for entry in key["order"]:
        if entry["action"] == "take":
            page.click(f"[data-take='{entry['seat']}']")
        else:
            page.fill(f"[data-pay-amount='{entry['seat']}']", f"{entry['paid_cents'] / 100:.2f}")
            page.click(f"[data-pay='{entry['seat']}']")
    envy_seat = None
    for side in key["side"]:
        row = f".q-round tr[data-seat='{side['seat']}']"
        if side["bonus_paid_cents"]:
            page.fill(f"{row} [data-bonus-paid]", f"{side['bonus_paid_cents'] / 100:.2f}")
        if side["envy_paid_cents"]:
            envy_seat = side["seat"]
            page.fill(f"{row} [data-envy-paid]", f"{side['envy_paid_cents'] / 100:.2f}")
    assert envy_seat is not None
    shot(page, "side-bets-round-settle")
    page.click(".q-round [data-round-settle] [data-submit]")
    page.wait_for_selector(".verdict")
    assert page.inner_text(".verdict-word") == "Right"
    feedback = page.inner_text("#feedback")
    assert f"Seat {envy_seat} envy" in feedback or f"Seat {envy_seat} Envy" in feedback
    assert "bonus.envy" not in feedback and "bonus.fortune" not in feedback
    shot(page, "side-bets-round-feedback")


def fortune_seed() -> int:
    """A deal whose seven player cards make four of a kind or better (paid 25 to 1 and up)."""
    for seed in range(200_000):
        if bonus_category(deal_hand(seed).player) >= BonusCategory.FOUR_OF_A_KIND:
            return seed
    raise AssertionError("no seed")


def test_the_players_game_with_a_fortune_bet(app: Flask, live_server: str, page: Any,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    seed = fortune_seed()
    monkeypatch.setattr(game_table, "new_seed", lambda: seed)
    sign_in(page, live_server)
    page.click("nav >> text=Play")
    page.wait_for_selector("#play[data-loaded]", state="attached")  # chips count from here
    assert "Fortune bonus (standard table)" in page.inner_text("label[for=side-bet]")
    page.click("#side-bet-table summary")
    assert page.locator("#side-bet-table [data-table=fortune-standard]").is_visible()
    page.select_option("#side-bet", "500")
    page.click("[data-chip='500']")
    page.click("#bet-circle")
    page.click("#deal")
    page.wait_for_selector(".play-hand .card:not([disabled])")
    page.click("#house-way")
    page.wait_for_selector("#result-bonus")
    table = load_table("fortune-standard")
    category = bonus_category(deal_hand(seed).player)
    line = table.line_for(category)
    result = page.inner_text("#result-bonus")
    assert category.title in result and f"pays {line.odds:,} to 1" in result
    assert f"${line.odds * 5:,}.00" in result
    with app.app_context():
        hand = db.session.execute(db.select(GameHand)).scalar_one()
        assert hand.bonus_net_cents == line.odds * 500
        assert hand.balance_after_cents == 100_000 + hand.net_cents + line.odds * 500
    assert page.inner_text("#balance") == f"${hand.balance_after_cents / 100:,.2f}"
    shot(page, "side-bets-play-result")
