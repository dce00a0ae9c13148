"""A supervisor opens the dashboards in headless Chromium.

Charts draw, a CSV downloads, the report prints on one page.
"""
from __future__ import annotations

import csv
import io
import re
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask

from trainer.cli.accounts import DEMO_SUPERVISOR, DEMO_TRAINEES
from trainer.extensions import db
from trainer.models import Attempt, DrillSession, Group, User, utcnow

pytestmark = pytest.mark.e2e


def _seed_attempts(app: Flask) -> tuple[int, int]:
    """Give the first demo trainee a fortnight of timed house-way answers; return (group, trainee)."""
    with app.app_context():
        trainee = db.session.execute(db.select(User).filter_by(login=DEMO_TRAINEES[0][0])).scalar_one()
        group_id = db.session.execute(db.select(Group.id)).scalar_one()
        now = utcnow()
        for day in range(14):
            start = now - timedelta(days=day, hours=1)
            session = DrillSession(user_id=trainee.id, group_id=group_id, kind="house-way", mode="timed",
                                   length=10, time_limit_ms=10_000, house_way="trump-plaza",
                                   profile="nevada", started_at=start,
                                   finished_at=start + timedelta(minutes=3))
            db.session.add(session)
            for position in range(1, 11):
                correct = (position + day) % 5 != 0
                answered = start + timedelta(seconds=position * 10)
                db.session.add(Attempt(
                    session=session, position=position, user_id=trainee.id, kind="house-way",
                    seed=day * 100 + position,
                    question={"cards": ["As", "Ad", "7c", "7d", "2h", "3s", "JK"]},
                    answer={"front": ["7c", "7d"] if correct else ["2h", "3s"]},
                    correct_answer={"back": ["As", "Ad", "2h", "3s", "JK"], "front": ["7c", "7d"]},
                    correct=correct, timed_out=False,
                    rule_id="two-pair.split.aces" if position % 2 else "pair.keep",
                    issued_at=answered - timedelta(milliseconds=3000 + 200 * day),
                    answered_at=answered, elapsed_ms=3000 + 200 * day,
                ))
        db.session.commit()
        return group_id, trainee.id


@pytest.fixture
def context_options() -> dict[str, Any]:
    """A desktop window that accepts downloads."""
    return {"viewport": {"width": 1280, "height": 900}, "accept_downloads": True}


def test_supervisor_reads_the_dashboards_downloads_csv_and_prints_a_report(
    app: Flask, live_server: str, browser_context, tmp_path
) -> None:
    group_id, trainee_id = _seed_attempts(app)
    page = browser_context.new_page()
    page.goto(f"{live_server}/auth/login")
    page.fill("input[name=login]", DEMO_SUPERVISOR[0])
    page.fill("input[name=password]", DEMO_SUPERVISOR[2])
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server}/")

    page.goto(f"{live_server}/supervisor/groups/{group_id}?period=30d")
    page.wait_for_selector("#overview-table")
    assert page.locator("#overview-table tbody tr").count() == 3
    # A trend is drawn where there are days to draw; the two trainees without answers show
    # a dash, not an empty chart (issue 26).
    sparklines = page.locator("svg.sparkline")
    assert sparklines.count() == 1
    assert page.locator("td.trend .muted").count() == 2
    box = page.locator(f"tr[data-trainee='{trainee_id}'] svg.sparkline polyline").first.bounding_box()
    assert box and box["width"] > 20  # a fortnight of the 30-day trend is drawn
    assert page.locator("text=Weakest rule families of the group").is_visible()

    with page.expect_download() as download_info:
        page.click("text=All attempts (CSV)")
    path = tmp_path / "attempts.csv"
    download_info.value.save_as(path)
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))))
    assert rows[0][:3] == ["Trainee", "Login", "Drill"] and len(rows) == 1 + 140

    href = page.get_attribute(f"tr[data-trainee='{trainee_id}'] .name-col a", "href")
    page.goto(f"{live_server}{href}")
    page.wait_for_selector("#trainee-page")
    charts = page.locator("svg.line-chart")
    assert charts.count() == 2
    for index in range(2):
        chart = charts.nth(index)
        assert chart.is_visible()
        assert chart.locator("polyline.series").count() >= 1
        assert chart.bounding_box()["height"] > 100
    assert page.locator("svg.bar-chart rect.bar").count() == 1
    assert page.locator("#mistakes tbody tr").count() > 0
    page.screenshot(path=str(tmp_path / "trainee.png"), full_page=True)

    page.goto(f"{live_server}/supervisor/trainees/{trainee_id}/report?period=30d")
    page.wait_for_selector("#trainee-report")
    page.emulate_media(media="print")
    assert not page.locator(".report-foot").is_visible()
    pdf = page.pdf(format="A4", print_background=True)
    assert pdf.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1
