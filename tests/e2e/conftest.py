"""Browser tests: a live server on 127.0.0.1 and headless Debian Chromium via Playwright.

Modules choose the demo group's drill settings by overriding ``demo_settings``, and
the browser context's options by overriding ``context_options``.
"""
from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

from trainer.cli.accounts import DEMO_GROUP, DEMO_TRAINEE_PASSWORD, DEMO_TRAINEES
from trainer.extensions import db
from trainer.models import Group

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def shot(page: Any, name: str, folder: Path = ARTIFACTS) -> None:
    """Save a full-page screenshot as a test artifact."""
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def sign_in(page: Any, live_server: str, login: str = DEMO_TRAINEES[0][0],
            password: str = DEMO_TRAINEE_PASSWORD, home: str = "#trainee-home") -> None:
    """Sign in through the form, by keyboard, and wait for the home page."""
    page.goto(f"{live_server}/auth/login")
    page.fill("input[name=login]", login)
    page.fill("input[name=password]", password)
    page.press("input[name=password]", "Enter")
    page.wait_for_selector(home)


@pytest.fixture
def demo_settings() -> dict[str, Any] | None:
    """The demo group's settings for this module's tests (None keeps the defaults)."""
    return None


@pytest.fixture
def serve(app: Flask) -> Iterator[str]:
    """Serve the app on 127.0.0.1 from a thread; yield its URL."""
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
def live_server(app: Flask, runner: Any, demo_settings: dict[str, Any] | None,
                serve: str) -> str:
    """Seed the demo accounts (with ``demo_settings``) and return the served URL."""
    assert runner.invoke(args=["seed-demo", "--accounts-only"]).exit_code == 0
    if demo_settings is not None:
        with app.app_context():
            group = db.session.execute(db.select(Group).filter_by(name=DEMO_GROUP)).scalar_one()
            group.settings = demo_settings
            db.session.commit()
    return serve


@pytest.fixture
def context_options() -> dict[str, Any]:
    """Browser context options: a training-room tablet in landscape."""
    return {"viewport": {"width": 1180, "height": 900}}


class _Chromium:
    """One headless Chromium for the whole run (a launch is about a second; the browser
    tests are about fifty): started at the first browser test, started again if a test
    took it down, stopped at the end."""

    def __init__(self) -> None:
        self._playwright: Any = None
        self._browser: Any = None

    def browser(self) -> Any:
        if not os.path.exists(CHROMIUM):
            if os.environ.get("CI"):
                pytest.fail(f"{CHROMIUM} is missing; .ci/run installs it")
            pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium")
        if self._browser is None or not self._browser.is_connected():
            if self._playwright is None:
                from playwright.sync_api import sync_playwright

                self._playwright = sync_playwright().start()
            self._browser = self._playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        return self._browser

    def stop(self) -> None:
        if self._browser is not None and self._browser.is_connected():
            self._browser.close()
        if self._playwright is not None:
            self._playwright.stop()


@pytest.fixture(scope="session")
def chromium() -> Iterator[_Chromium]:
    """The run's one Chromium (see ``_Chromium``)."""
    shared = _Chromium()
    yield shared
    shared.stop()


@pytest.fixture
def browser_context(chromium: _Chromium, context_options: dict[str, Any]) -> Iterator[Any]:
    """Yield a fresh browser context (its own cookies and storage) in the run's Chromium;
    every context the test opened is closed after it."""
    browser = chromium.browser()
    context = browser.new_context(**context_options)
    context.set_default_timeout(10_000)
    try:
        yield context
    finally:
        for opened in list(browser.contexts):
            opened.close()


@pytest.fixture
def page(live_server: str, browser_context: Any) -> Iterator[Any]:
    """Yield a page; the test fails if the page's scripts raised an error."""
    page = browser_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    assert not errors, errors
