"""A demo trainee signs in through headless Chromium and lands on the trainee home page."""
from __future__ import annotations

import pytest

from e2e.conftest import shot
from trainer.cli.accounts import DEMO_TRAINEE_PASSWORD, DEMO_TRAINEES

pytestmark = pytest.mark.e2e


def test_demo_trainee_signs_in_and_sees_the_trainee_home(live_server: str, page) -> None:
    page.goto(f"{live_server}/")
    assert "/auth/login" in page.url
    page.fill("input[name=login]", DEMO_TRAINEES[0][0])
    page.fill("input[name=password]", DEMO_TRAINEE_PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("#trainee-home")

    assert page.url == f"{live_server}/"
    assert "Demo Trainee One" in page.inner_text("#trainee-home")
    assert page.is_visible("text=My recent results")
    assert page.is_visible("text=Start a drill")
    shot(page, "trainee-home")

    page.click("button:has-text('Sign out')")
    page.wait_for_url(f"{live_server}/auth/login")
