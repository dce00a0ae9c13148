"""The table-games manager's pages at the four screen sizes (issue 18 item 1): nothing
scrolls sideways at 390 px, axe-core finds no serious or critical violation, and the
read-only overview offers no control that changes the group."""
from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from e2e.conftest import sign_in
from e2e.test_layout_browser import Checker, require_axe
from trainer.cli.accounts import DEMO_GROUP, DEMO_MANAGER, DEMO_TRAINEES
from trainer.extensions import db
from trainer.models import Group, User

pytestmark = pytest.mark.e2e


def test_manager_pages_fit_every_screen_and_stay_read_only(
    app: Flask, live_server: str, browser_context: Any, make_user: Any
) -> None:
    require_axe()
    admin = make_user(role="admin", login="manager-layout-admin")
    with app.app_context():
        group_id = db.session.execute(db.select(Group.id).filter_by(name=DEMO_GROUP)).scalar_one()
        trainee_id = db.session.execute(
            db.select(User.id).filter_by(login=DEMO_TRAINEES[0][0])).scalar_one()
    page = browser_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    check = Checker(page)
    base = live_server

    sign_in(page, base, DEMO_MANAGER[0], DEMO_MANAGER[2], home="#manager-home")
    pages = {
        "manager-home": "/", "manager-house-ways": "/manager/house-ways",
        "manager-groups": "/supervisor/", "manager-group-overview": f"/supervisor/groups/{group_id}",
        "manager-trainee-page": f"/supervisor/trainees/{trainee_id}",
    }
    for name, path in pages.items():
        with check.part(name):
            page.goto(f"{base}{path}")
            check(name)
    page.goto(f"{base}/supervisor/groups/{group_id}")
    assert page.locator("a[href$='/edit'], a[href*='/trainees/new']").count() == 0
    # The menu opens at phone width and names the manager's pages.
    page.set_viewport_size({"width": 390, "height": 844})
    page.click("label.menu-button")
    assert page.locator("#main-menu a[href='/manager/house-ways']").is_visible()
    page.set_viewport_size({"width": 1366, "height": 768})
    page.click("button:has-text('Sign out')")

    sign_in(page, base, admin.login, admin.password, home="h1")
    with check.part("admin-new-manager"):
        page.goto(f"{base}/admin/managers/new")
        check("admin-new-manager")

    assert not errors, errors
    assert check.problems == [], "\n".join(check.problems)
