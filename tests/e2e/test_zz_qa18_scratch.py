"""QA18 scratch (temporary): the manager part of the layout journey only."""
from __future__ import annotations

import time
from typing import Any

import pytest
from flask import Flask

from e2e.conftest import sign_in
from e2e.test_layout_browser import SHOTS, WAY_REF, Checker, _manager, require_axe
from trainer.cli.accounts import DEMO_GROUP, DEMO_SUPERVISOR
from trainer.extensions import db
from trainer.models import Group

pytestmark = pytest.mark.e2e


def test_scratch(app: Flask, live_server: str, browser_context: Any) -> None:
    require_axe()
    page = browser_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    check = Checker(page)
    original = Checker.__call__
    def timed(self, name, extra=None):
        t = time.monotonic(); original(self, name, extra); print("PAGE", name, round(time.monotonic() - t, 2))
    Checker.__call__ = timed
    base = live_server
    started = time.monotonic()
    with app.app_context():
        group_id = db.session.execute(db.select(Group.id).filter_by(name=DEMO_GROUP)).scalar_one()
    _manager(app, page, check, base)
    sign_in(page, base, DEMO_SUPERVISOR[0], DEMO_SUPERVISOR[2], home="h1")
    page.goto(f"{base}/supervisor/groups/{group_id}/edit")
    page.select_option("#house_way", WAY_REF)
    check("group-settings-custom-way")
    print("SECONDS", time.monotonic() - started)
    report = "\n".join(check.problems)
    (SHOTS / "problems.txt").write_text(report + "\n", encoding="utf-8")
    assert not errors, errors
    assert check.problems == [], f"{len(check.problems)} problems:\n{report}"
