"""A demo trainee signs in through headless Chromium and lands on the trainee home page."""
from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from werkzeug.serving import make_server

from trainer.web.commands import DEMO_TRAINEE_PASSWORD, DEMO_TRAINEES

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

pytestmark = pytest.mark.e2e


@pytest.fixture
def live_server(app: Flask, runner) -> Iterator[str]:
    """Seed the demo accounts and serve the app on 127.0.0.1 from a thread; yield its URL."""
    assert runner.invoke(args=["seed-demo"]).exit_code == 0
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)
        server.server_close()


@pytest.fixture
def page(live_server: str) -> Iterator[object]:
    """Yield a Playwright page in headless Debian Chromium."""
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing; .ci/run installs it")
        pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            # A training-room tablet in landscape.
            context = browser.new_context(viewport={"width": 1180, "height": 820})
            yield context.new_page()
            context.close()
        finally:
            browser.close()


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
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "trainee-home.png"), full_page=True)

    page.click("button:has-text('Sign out')")
    page.wait_for_url(f"{live_server}/auth/login")
