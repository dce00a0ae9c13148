"""Keyboard shortcuts on every choice (lib.js, [data-key]) and the menu that folds on
tablets and phones, opened by keyboard with scripts turned off."""
from __future__ import annotations

from typing import Any

import pytest

from e2e.conftest import sign_in
from trainer.cli.accounts import DEMO_TRAINEE_PASSWORD, DEMO_TRAINEES

pytestmark = pytest.mark.e2e


def _start(page: Any, base: str, kind: str) -> None:
    page.goto(f"{base}/drills/")
    page.click(f"[data-start='{kind}-practice']")
    page.wait_for_selector("#question .q")


@pytest.fixture
def demo_settings() -> dict[str, Any]:
    """Hand-reading sessions long enough to meet a hand to name."""
    return {"drills": {"hand-reading": {"length": 20}}}


def test_a_hand_name_is_answered_by_the_key_its_button_shows(live_server: str, page: Any) -> None:
    sign_in(page, live_server)
    _start(page, live_server, "hand-reading")
    for position in range(1, 21):
        page.wait_for_selector(f"#question .q[data-position='{position}']")
        choices = page.locator("#question .choice")
        assert choices.count() == page.locator("#question .choice[data-key]").count()  # every choice
        named = choices.count() > 3  # the hand names, not A / B / copy
        button = choices.nth(choices.count() - 1)
        key = button.get_attribute("data-key")
        assert button.locator("kbd").inner_text() == key.upper()
        page.locator("h1").click()  # nothing focused: the key goes to the page
        page.keyboard.press(key)
        page.wait_for_selector("#feedback .verdict, #feedback > *")
        assert "chosen" in (button.get_attribute("class") or "")
        if named:
            break
        page.keyboard.press("Enter")
    assert named, "no hand to name in 20 questions"


def test_outcome_keys_mark_seat_after_seat_and_leave_typing_alone(live_server: str, page: Any) -> None:
    sign_in(page, live_server)
    _start(page, live_server, "settlement")
    rows = page.locator("#question tr[data-seat]")
    assert rows.count() >= 2
    first, second = rows.nth(0), rows.nth(1)
    page.locator("h1").click()
    page.keyboard.press("w")  # the first seat not marked yet wins ...
    assert first.locator("input[value=win]").is_checked()
    paid = first.locator("[data-paid]")
    assert paid.evaluate("el => el === document.activeElement")  # ... and its amount is next
    page.keyboard.type("7.5l")  # typing in the amount: no key is taken as a shortcut
    assert paid.input_value() == "7.5l"
    assert not first.locator("input[value=lose]").is_checked()
    page.locator("h1").click()
    page.keyboard.press("l")  # the next seat not marked yet
    assert second.locator("input[value=lose]").is_checked()
    assert first.locator("input[value=win]").is_checked()
    second.locator("input[value=lose]").focus()
    page.keyboard.press("p")  # the focused seat wins over the first unmarked one
    assert second.locator("input[value=push]").is_checked()
    assert rows.count() == 2 or not rows.nth(2).locator("input:checked").count()


def test_the_menu_folds_on_a_phone_and_opens_by_keyboard_without_scripts(
    live_server: str, browser_context: Any
) -> None:
    context = browser_context.browser.new_context(
        java_script_enabled=False, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(f"{live_server}/auth/login")
        page.fill("input[name=login]", DEMO_TRAINEES[0][0])
        page.fill("input[name=password]", DEMO_TRAINEE_PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_selector("#trainee-home")
        drills = page.locator("#main-menu a", has_text="Drills")
        assert page.locator(".menu-button").is_visible() and not drills.is_visible()
        header = page.locator(".topbar").bounding_box()
        assert header and header["height"] < 80  # the folded menu takes one line
        for _ in range(5):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.id") == "menu-toggle":
                break
        assert page.evaluate("document.activeElement.id") == "menu-toggle"
        page.keyboard.press("Space")
        assert drills.is_visible()
        drills.click()
        page.wait_for_selector("#drills-home")
        page.set_viewport_size({"width": 1366, "height": 768})
        assert not page.locator(".menu-button").is_visible()
        assert page.locator("#main-menu a", has_text="Drills").is_visible()
    finally:
        context.close()
