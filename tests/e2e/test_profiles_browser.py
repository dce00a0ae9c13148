"""The manager's table-rules pages (issue 18 item 2) at the four screen sizes: nothing
scrolls sideways at 390 px and axe-core finds no serious or critical violation, on the
list, the empty form, a form with its errors, and the edit form."""
from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from e2e.conftest import sign_in
from e2e.test_layout_browser import Checker, require_axe

pytestmark = pytest.mark.e2e


def test_profile_pages_fit_every_screen(
    app: Flask, live_server: str, browser_context: Any, make_user: Any
) -> None:
    require_axe()
    manager = make_user(role="manager", login="profiles-layout-manager")
    page = browser_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    check = Checker(page)
    base = live_server
    sign_in(page, base, manager.login, manager.password, home="h1")
    title = "Layout check four percent"
    with check.part("manager-profile-form-errors"):
        page.goto(f"{base}/manager/profiles/new")
        check("manager-profile-form")
        page.fill("#rate", "4.125")
        page.fill("#max_bet", "1")
        page.click("button:has-text('Save table rules')")
        assert page.locator(".field-error").count() >= 2
        check("manager-profile-form-errors")
    with check.part("manager-profile-saved"):
        page.goto(f"{base}/manager/profiles/new")
        page.fill("#title", title)
        page.fill("#rate", "4")
        page.check("#side-fortune-standard")
        page.click("button:has-text('Save table rules')")
        page.wait_for_selector("#profile-list")
        check("manager-profiles")
        page.click(f"li:has-text('{title}') a:has-text('Edit')")
        page.wait_for_selector("#title")
        check("manager-profile-edit")
    assert not errors, errors
    assert check.problems == [], "\n".join(check.problems)
