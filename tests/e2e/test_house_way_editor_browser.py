"""The casino's own house way, end to end in headless Chromium (issue 18, "Must show").

A manager copies Trump Plaza, changes the two-pair rule for Medium + Medium with an
ace (rule 3.3 keeps only Low + High; a new rule after it splits Medium + Medium with an
ace), checks it over every hand in the background (0 fouls, 0 undecided), sees the share
of hands set differently and the edge change, and publishes it; a supervisor assigns it
to the demo group; its sheet prints on at most two pages; and a trainee's house-way drill
grades by the new version. Screenshots at 1366x768 and 390x844 go to test-artifacts/.

The jobs are queued (JOB_RUNNER "worker", the deployed default) and run by a job worker
beside the server (``services/job_worker.py``, as ``trainer worker`` runs it), so the
progress bar is the real one; the check takes about a minute on a quiet machine. The
sheet's PDF is printed by that worker too: the page asks again until it is there.
"""
from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from e2e.conftest import ARTIFACTS, shot, sign_in
from e2e.test_reference_browser import pdf_pages
from trainer.cli.accounts import DEMO_GROUP, DEMO_MANAGER, DEMO_SUPERVISOR, DEMO_TRAINEES
from trainer.engine.house_way import load
from trainer.engine.house_way.interpreter import HouseWay
from trainer.extensions import db
from trainer.models import DrillSession, Group, HouseWayVersion, IssuedQuestion
from trainer.services import drills as drill_service
from trainer.services.drills.context import context_from_json
from trainer.services.job_worker import Worker

pytestmark = pytest.mark.e2e

SIZES = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
CHECK_TIMEOUT_MS = 15 * 60 * 1000
# A Medium + Medium two pair with an ace: Trump Plaza keeps it together (rule 3.3);
# the new way splits it, sevens in front.
MEDIUM_ACE = ["9c", "9d", "7h", "7s", "Ac", "5d", "2h"]


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    """The jobs are queued for a worker, as deployed (the tests' default is inline)."""
    return {**app_config, "JOB_RUNNER": "worker"}


@pytest.fixture(autouse=True)
def job_worker(app: Flask) -> Iterator[None]:
    """A job worker beside the server, its lanes in threads of this process; stopped after."""
    worker = Worker(str(app.config["SQLALCHEMY_DATABASE_URI"]), poll_seconds=0.2,
                    around=app.app_context)
    stop = threading.Event()
    thread = threading.Thread(target=worker.serve, args=(stop,), daemon=True)
    thread.start()
    yield
    stop.set()
    thread.join(timeout=60)


@pytest.fixture
def context_options() -> dict[str, Any]:
    return {"viewport": SIZES["desktop"]}


@pytest.fixture
def demo_settings() -> dict[str, Any]:
    return {"drills": {"house-way": {"length": 3}}}


def shots(page: Any, name: str) -> None:
    """Screenshot the open page at both sizes, then return to the desktop size."""
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{name} scrolls sideways by {overflow}px at {size}"
        shot(page, f"house-way-editor-{name}-{size}")
    page.set_viewport_size(SIZES["desktop"])


def sign_out(page: Any) -> None:
    page.click("form.logout button")
    page.wait_for_selector("input[name=login]")


def test_a_manager_writes_checks_and_publishes_a_way_a_trainee_then_trains_on(
        app: Flask, live_server: str, page: Any) -> None:
    base = live_server
    login, _name, password = DEMO_MANAGER
    sign_in(page, base, login, password, home="h1")

    # Copy Trump Plaza.
    page.goto(f"{base}/manager/house-ways")
    shots(page, "list")
    page.click("#house-way-list li:has-text('Trump Plaza') a:has-text('Copy and edit')")
    page.fill("#slug", "golden-sands")
    page.fill("#casino", "Golden Sands, Reno")
    page.click("button:has-text('Copy and edit')")
    page.wait_for_selector("#way-title")
    editor_url = page.url

    # Rule 3.3 keeps only Low + High together with an ace...
    page.click("a[aria-label='Edit rule 3.3']")
    page.uncheck("input[name='when-pair_groups'][value='medium+medium']")
    page.fill("#short", "Two pair, Low + High, ace: together")
    page.fill("#text", "Low + High, with an ace singleton: together.")
    shots(page, "rule-form")
    page.click("button:has-text('Save rule')")
    page.wait_for_selector("#way-title")
    # ...and a new rule after it splits Medium + Medium with an ace.
    page.click("a[aria-label='Add a rule after rule 3.3']")
    page.select_option("#kind", "two-pair.split")
    page.check("input[name='when-pair_groups'][value='medium+medium']")
    page.select_option("#when-ace", "yes")
    page.fill("#number", "3.3a")
    page.fill("#short", "Medium + Medium with an ace: split")
    page.fill("#text", "Medium + Medium, with an ace singleton: split.")
    page.fill("#explain", "Two pair, {high_pair} and {low_pair}, Medium with Medium and an ace: "
                          "split, {low_pair} in front")
    page.click("button:has-text('Save rule')")
    page.wait_for_selector("li.way-rule[data-number='3.3a']")
    assert page.locator("#publish-refusal").count() == 1  # not checked yet
    assert page.locator("button:has-text('Publish as the next version')").is_disabled()
    shots(page, "editor")

    # Check: the real job, its progress bar, then the report in words.
    page.click(".way-nav a:has-text('Check')")
    page.click("button:has-text('Check this draft')")
    page.wait_for_selector("[data-job-url] progress, #check-report")
    # job.js moves the bar from the job's JSON state, then reloads the page at the end.
    page.wait_for_function(
        "() => !!document.querySelector('#check-report')"
        " || (document.querySelector('[data-job-url] progress') || {}).value > 0",
        timeout=CHECK_TIMEOUT_MS)
    if page.locator("[data-job-url]").count():
        shots(page, "check-running")
    page.wait_for_selector("#check-report", timeout=CHECK_TIMEOUT_MS)
    assert page.inner_text("#fouled-line").endswith("0 of 154,143,080 hands foul.")
    assert "0 hands no rule decides" in page.inner_text("#undecided-line")
    shots(page, "check-report")

    # What it changes against its base, Trump Plaza.
    page.click(".way-nav a:has-text('What it changes')")
    page.click("button:has-text('Work out what it changes')")
    page.wait_for_selector("#diff-report", timeout=CHECK_TIMEOUT_MS)
    share = page.inner_text("#diff-share")
    found = re.match(r"([\d.]+)% of all hands are set differently: ([\d,]+) of 154,143,080\.",
                     share)
    assert found and float(found.group(1)) > 0, share
    assert "Medium + Medium with an ace: split" in page.inner_text("#diff-report")
    assert page.locator("#diff-report .card").count() >= 7
    shots(page, "changes")

    # The edge change, by the default table rules (Nevada), on the default deals.
    page.click(".way-nav a:has-text('Edge')")
    assert page.input_value("#deals") == "1,000,000"
    page.click("button:has-text('Simulate')")
    page.wait_for_selector("#edge-report", timeout=CHECK_TIMEOUT_MS)
    sentence = page.inner_text("#edge-sentence")
    assert re.match(r"The house keeps about (\d\.\d\d points (more|less)|the same share) of "
                    r"every bet \(95% interval", sentence), sentence
    shots(page, "edge")

    # Publish.
    page.goto(editor_url)
    page.fill("#note", "Medium + Medium with an ace: split")
    page.click("button:has-text('Publish as the next version')")
    page.wait_for_selector(".flash-success:has-text('version 1')")
    assert "Version 1" in page.inner_text("#versions")
    shots(page, "published")
    sign_out(page)

    # A supervisor assigns it to the demo group.
    with app.app_context():
        group_id = db.session.execute(db.select(Group.id).filter_by(name=DEMO_GROUP)).scalar_one()
        version = db.session.execute(
            db.select(HouseWayVersion).filter_by(ref="golden-sands@1")).scalar_one()
        published = dict(version.data)
    sup_login, _sup_name, sup_password = DEMO_SUPERVISOR
    sign_in(page, base, sup_login, sup_password, home="h1")
    page.goto(f"{base}/supervisor/groups/{group_id}/edit")
    page.select_option("#house_way", "golden-sands@1")
    page.click("#group-settings button[type=submit]")
    page.wait_for_load_state()
    with app.app_context():
        assert db.session.get(Group, group_id).house_way == "golden-sands@1"

    # Its sheet prints on at most two pages.
    # Printed by the worker (queued when the group's settings changed, or now): the
    # request answers "being prepared" (202) until it is there.
    deadline = time.monotonic() + 120
    while True:
        response = page.request.get(f"{base}/house-way/golden-sands@1/pdf?paper=letter")
        if response.status != 202 or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert response.status == 200, response.status
    pdf = response.body()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "house-way-golden-sands-letter.pdf").write_bytes(pdf)
    assert 1 <= pdf_pages(pdf) <= 2
    sign_out(page)

    # A trainee's house-way drill grades by the new version.
    new_way = HouseWay(dict(published, name="golden-sands@1"), table=False)
    old_way = load("trump-plaza", table=False)
    assert new_way.set(MEDIUM_ACE).rule != old_way.set(MEDIUM_ACE).rule
    sign_in(page, base, DEMO_TRAINEES[0][0])
    page.click("#start-house-way [data-start=house-way-practice]")
    page.wait_for_selector(".q-house-way[data-position='1']")
    session_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    with app.app_context():
        session = db.session.get(DrillSession, session_id)
        assert session.house_way == "golden-sands@1"
        assert session.house_way_digest == version.rules_digest
    for position in (1, 2, 3):
        page.wait_for_selector(f".q-house-way[data-position='{position}'] [data-hand] .card")
        with app.app_context():
            row = db.session.execute(db.select(IssuedQuestion).filter_by(
                session_id=session_id, position=position)).scalar_one()
            cards, context = list(row.question["cards"]), context_from_json(row.context)
            # The grader's key for the Medium + Medium + ace hand under this session.
            key = drill_service.answer_key({**row.question, "cards": MEDIUM_ACE}, context)
        assert key["rule"] == new_way.set(MEDIUM_ACE).rule
        for card in new_way.set(cards).as_dict()["front"]:
            page.click(f"[data-hand] [data-card='{card}']")
        page.click(".q-house-way [data-submit]")
        page.wait_for_selector(".verdict")
        assert page.inner_text(".verdict-word") == "Right"
        if position == 1:
            shots(page, "trainee-drill")
        if position < 3:
            page.click("#next")
