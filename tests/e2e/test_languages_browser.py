"""Issue 19, items 3 and 4 in headless Chromium: a trainee chooses Spanish on the account
page, settles a table typing amounts the Spanish way ("47,50"; "1.234" is refused as
unclear and nothing is recorded), reads money as "47,50 US$" and the cards' names in
Spanish, and the player's game writes its balance and chips in Spanish too."""
from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from e2e.conftest import shot, sign_in
from e2e.test_drills_browser import current_session_id, key, recorded

pytestmark = pytest.mark.e2e
LENGTH = 4


@pytest.fixture
def demo_settings() -> dict[str, Any]:
    """A few settlement questions: at least one has a winner to pay."""
    return {"drills": {"settlement": {"length": LENGTH}}}


def choose_spanish(page: Any, live_server: str) -> None:
    page.goto(f"{live_server}/auth/account")
    page.select_option("#language", "es")
    page.click("#account form[action$='/account/language'] button[type=submit]")
    page.wait_for_selector("html[lang=es]")
    assert "Mi cuenta" in page.inner_text("h1")


def test_settling_a_table_in_spanish(app: Flask, live_server: str, page: Any) -> None:
    sign_in(page, live_server)
    choose_spanish(page, live_server)
    page.goto(f"{live_server}/")
    page.click("#start-settlement [data-start=settlement-timed]")
    refused = False
    for number in range(1, LENGTH + 1):
        page.wait_for_selector(f".q-settlement[data-position='{number}']")
        session_id = current_session_id(page)
        assert page.get_attribute(".q-settlement [data-paid]", "placeholder") == "0,00"
        labels = page.eval_on_selector_all(".q-settlement .card[aria-label]",
                                           "els => els.map(e => e.getAttribute('aria-label'))")
        assert labels and all(re.search(r" de (picas|corazones|diamantes|tréboles)$|comodín$", label)
                              for label in labels), labels
        _question, answer = key(app, session_id, number)
        winners = [p for p in answer["positions"] if p["outcome"] == "win"]
        for position in answer["positions"]:
            row = f"tr[data-seat='{position['seat']}']"
            page.click(f"{row} label:has(input[value={position['outcome']}])")
            if position["outcome"] == "win":
                page.fill(f"{row} [data-paid]", "1.234")
        if winners and not refused:
            page.click(".q-settlement [data-submit]")
            page.wait_for_selector("#drill-error:not([hidden])")
            assert "no está claro" in page.inner_text("#drill-error")
            shot(page, "languages-es-unclear-amount")
            assert len(recorded(app, session_id)) == number - 1  # nothing recorded
            refused = True
        for position in winners:
            cents = position["paid_cents"]
            page.fill(f"tr[data-seat='{position['seat']}'] [data-paid]",
                      f"{cents // 100},{cents % 100:02d}")
        page.click(".q-settlement [data-submit]")
        page.wait_for_selector(".verdict")
        for position in winners:
            cents = position["paid_cents"]
            assert f"{cents // 100},{cents % 100:02d}\u00a0US$" in page.inner_text(
                f".settle-parts tr[data-seat='{position['seat']}']")
        if winners:
            shot(page, "languages-es-settlement-feedback")
        if number < LENGTH:
            page.keyboard.press("Enter")
    assert refused, "no question had a winner to pay"
    assert recorded(app, session_id) == [(n, True, False) for n in range(1, LENGTH + 1)]


def test_the_players_game_writes_money_in_spanish(live_server: str, page: Any) -> None:
    sign_in(page, live_server)
    choose_spanish(page, live_server)
    page.goto(f"{live_server}/play/")
    page.wait_for_selector("#play[data-loaded]", state="attached")  # chips count from here
    assert page.inner_text("#balance") == "1.000,00\u00a0US$"
    page.click("[data-chip='500']")
    page.click("#bet-circle")
    page.click("#bet-circle")
    assert page.inner_text("#bet-amount") == "10\u00a0US$"  # drawn by PaiGow.money
    assert page.inner_text("[data-chip='500']").startswith("5\u00a0US$")
    shot(page, "languages-es-play")
