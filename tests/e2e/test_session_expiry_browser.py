"""A drill whose sign-in ends mid-session says why, and the next page is the sign-in page (issue 24)."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from flask import Flask

from e2e.conftest import sign_in
from trainer.extensions import db
from trainer.models import UserSession, utcnow

pytestmark = pytest.mark.e2e

IDLE_SENTENCE = "You were signed out after 2 hours without activity. Please sign in again."


def test_a_drill_left_past_the_idle_limit_says_why_and_goes_to_sign_in(
        app: Flask, live_server: str, page: Any) -> None:
    sign_in(page, live_server)
    page.click("#start-house-way [data-start=house-way-timed]")
    page.wait_for_selector(".q-house-way[data-position='1']")
    with app.app_context():
        for row in db.session.execute(db.select(UserSession)).scalars():
            row.last_seen_at = utcnow() - timedelta(hours=2, seconds=1)
        db.session.commit()
    for _ in range(2):  # any two cards to the front, and send the answer
        page.locator("[data-hand] [data-card]").first.click()
    page.click(".q-house-way [data-submit]")
    page.wait_for_selector("#drill-error:not([hidden])")
    assert page.inner_text("#drill-error") == IDLE_SENTENCE
    page.reload()
    page.wait_for_url(f"{live_server}/auth/login?next=*")
    assert IDLE_SENTENCE in page.inner_text("body")
