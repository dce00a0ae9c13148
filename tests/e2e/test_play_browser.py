"""The player's game in headless Chromium: three hands by mouse, three by keyboard."""
from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest
from flask import Flask

from e2e.conftest import shot, sign_in
from trainer.engine.cards import parse_cards
from trainer.engine.game import STARTING_BALANCE_CENTS
from trainer.engine.house_way import load
from trainer.engine.setting import is_foul
from trainer.extensions import db
from trainer.models import GameHand, PlayerGame

HOUSE_WAY = "trump-plaza"

pytestmark = pytest.mark.e2e


def open_table(page: Any, live_server: str) -> None:
    """Sign the first demo trainee in and open the player's game."""
    sign_in(page, live_server)
    page.click("nav >> text=Play")
    page.wait_for_selector("#play")
    page.wait_for_selector("#deal")
    # The table's state has loaded (play.js): a key pressed before that is ignored.
    page.wait_for_selector("#play[data-loaded]", state="attached")


def open_hand(app: Flask) -> dict[str, Any]:
    """Return the dealt hand's cards and its house-way front, from the database."""
    with app.app_context():
        hand = db.session.execute(db.select(GameHand).filter_by(state="dealt")).scalar_one()
        seven = parse_cards(hand.player_cards, 7)
        house = load(HOUSE_WAY).set(seven)
        fouled = next(([str(c) for c in f] for f in combinations(seven, 2)
                       if is_foul([c for c in seven if c not in f], f)), None)
        return {"id": hand.id, "cards": hand.player_cards, "bet": hand.bet_cents,
                "house_front": [str(c) for c in house.front], "fouled": fouled}


def balance(app: Flask) -> int:
    """Return the current game's balance, from the database."""
    with app.app_context():
        return db.session.execute(
            db.select(PlayerGame.balance_cents).filter_by(ended_at=None)
        ).scalar_one()


def shown_balance(cents: int) -> str:
    """Write a balance as the page does."""
    return f"${cents / 100:,.2f}"


def settled(app: Flask) -> list[GameHand]:
    """Return the settled hands, oldest first."""
    with app.app_context():
        hands = db.session.execute(
            db.select(GameHand).filter_by(state="settled").order_by(GameHand.number)
        ).scalars().all()
        for hand in hands:
            db.session.expunge(hand)
        return hands


def wait_settled(page: Any, number: int) -> None:
    """Wait for hand ``number`` to reach the history."""
    page.wait_for_selector(f"#history tr[data-hand='{number}']")


def test_three_hands_with_the_mouse(app: Flask, live_server: str, page: Any) -> None:
    open_table(page, live_server)
    assert page.inner_text("#balance") == "$1,000.00"
    assert page.is_disabled("#deal") and page.is_disabled("#done") and page.is_disabled("#house-way")

    # Hand 1: build $20 with chips, take one off by right-click and one by clicking it.
    page.click("[data-chip='500']")
    for _ in range(5):
        page.click("#bet-circle")
    assert page.inner_text("#bet-amount") == "$25"
    page.click("#bet-circle", button="right")
    assert page.inner_text("#bet-amount") == "$20"
    page.click("[data-chip='100']")
    page.click("#bet-circle")
    page.click("#bet-chips .chip-placed[data-index='4']")
    assert page.inner_text("#bet-amount") == "$20"
    shot(page, "play-bet")
    page.click("#deal")
    page.wait_for_selector(".play-hand")
    hand = open_hand(app)
    assert hand["bet"] == 2000
    assert page.inner_text("#balance") == "$1,000.00"
    if hand["fouled"]:
        for card in hand["fouled"]:
            page.click(f"[data-cards] [data-card='{card}']")
        assert page.is_disabled("#done")
        assert page.inner_text("#setting-note").startswith("Fouled")
        shot(page, "play-fouled")
        for card in hand["fouled"]:
            page.click(f"[data-front] [data-card='{card}']")
    for card in hand["house_front"]:
        page.click(f"[data-cards] [data-card='{card}']")
    assert page.is_enabled("#done")
    page.click("#done")
    wait_settled(page, 1)
    shot(page, "play-hand-1-settled")
    first = settled(app)[0]
    assert page.inner_text("#balance") == shown_balance(STARTING_BALANCE_CENTS + first.net_cents)
    assert page.get_attribute("#play-result", "data-outcome") == first.outcome

    # Hand 2: Re-Bet, then House Way.
    page.click("#rebet")
    page.wait_for_selector(".play-hand .card:not([disabled])")
    page.click("#house-way")
    wait_settled(page, 2)
    assert "You (house way)" in page.inner_text("#play-result")

    # Hand 3: clear, a $100 chip, set it another legal way, Done.
    page.click("[data-chip='10000']")
    page.click("#bet-circle")
    page.click("#clear")
    assert page.inner_text("#bet-amount") == "$0"
    page.click("#bet-circle")
    page.click("#deal")
    page.wait_for_selector(".play-hand .card:not([disabled])")
    hand = open_hand(app)
    seven = parse_cards(hand["cards"], 7)
    front = next([str(c) for c in f] for f in combinations(seven, 2)
                 if not is_foul([c for c in seven if c not in f], f))
    for card in front:
        page.click(f"[data-cards] [data-card='{card}']")
    page.click("#done")
    wait_settled(page, 3)
    shot(page, "play-three-hands-mouse")
    hands = settled(app)
    assert [h.bet_cents for h in hands] == [2000, 2000, 10_000]
    assert hands[1].used_house_way and not hands[0].used_house_way
    assert balance(app) == STARTING_BALANCE_CENTS + sum(h.net_cents for h in hands)
    assert page.inner_text("#balance") == shown_balance(balance(app))
    assert page.locator("#history tr").count() == 3


def test_three_hands_with_the_keyboard_only(app: Flask, live_server: str, page: Any) -> None:
    open_table(page, live_server)
    page.focus("body")
    # Hand 1: two $5 chips and a $1 chip, one taken back: $10; D deals.
    for key in ("2", "2", "1", "Backspace"):
        page.keyboard.press(key)
    assert page.inner_text("#bet-amount") == "$10"
    page.keyboard.press("d")
    page.wait_for_selector(".play-hand .card:not([disabled])")
    hand = open_hand(app)
    if hand["fouled"]:
        for card in hand["fouled"]:
            page.keyboard.press(str(hand["cards"].index(card) + 1))
        assert page.is_disabled("#done")
        page.keyboard.press("Enter")            # Done stays shut on a fouled setting
        page.keyboard.press("Backspace")
        page.keyboard.press("Backspace")
        assert page.locator("[data-front] .card").count() == 0
    for card in hand["house_front"]:
        page.keyboard.press(str(hand["cards"].index(card) + 1))
    page.keyboard.press("Enter")
    wait_settled(page, 1)
    shot(page, "play-keyboard-hand-1")

    # Hand 2: R re-bets, H sets the house way.
    page.keyboard.press("r")
    page.wait_for_selector(".play-hand .card:not([disabled])")
    page.keyboard.press("h")
    wait_settled(page, 2)

    # Hand 3: a $25 chip, Enter deals; the house-way front by number, Enter is Done.
    page.keyboard.press("3")
    assert page.inner_text("#bet-amount") == "$25"
    page.keyboard.press("Enter")
    page.wait_for_selector(".play-hand .card:not([disabled])")
    hand = open_hand(app)
    for card in hand["house_front"]:
        page.keyboard.press(str(hand["cards"].index(card) + 1))
    page.keyboard.press("Enter")
    wait_settled(page, 3)
    shot(page, "play-three-hands-keyboard")
    hands = settled(app)
    assert [h.bet_cents for h in hands] == [1000, 1000, 2500]
    assert [h.used_house_way for h in hands] == [False, True, False]
    assert balance(app) == STARTING_BALANCE_CENTS + sum(h.net_cents for h in hands)
    assert page.inner_text("#balance") == shown_balance(balance(app))
    # Reloading shows the same balance and history: the server keeps them.
    page.reload()
    page.wait_for_selector("#history tr[data-hand='3']")
    assert page.inner_text("#balance") == shown_balance(balance(app))
