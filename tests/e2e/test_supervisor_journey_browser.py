"""The whole supervisor journey in headless Chromium, as a new training room would walk it.

A supervisor creates a group in the app, opens and changes its settings (house way
and table rules), creates a trainee; the trainee plays a timed drill and walks
away from a question; the supervisor sees that question as timed out and schedules
a sealed exam; while the trainee's exam runs, results, look-up and sheets are
closed; when it ends they open.
"""
from __future__ import annotations

import time
from typing import Any

import pytest
from flask import Flask

from tests.e2e.conftest import shot, sign_in
from trainer.cli.accounts import DEMO_SUPERVISOR
from trainer.engine.house_way import preset_names
from trainer.engine.profiles import profile_names
from trainer.extensions import db
from trainer.models import Attempt, CertificationExam, Group, User

pytestmark = pytest.mark.e2e

GROUP = "Evening class"
TRAINEE_LOGIN = "rosa.m"
TRAINEE_PASSWORD = "green-felt-table-42"
# Seconds per timed foul-check question: short, so walking away times out soon.
TIME_LIMIT_S = 2
# The server's grace for the answer's trip back (drill_service.GRACE_MS).
GRACE_S = 1


@pytest.fixture
def context_options() -> dict[str, Any]:
    """A training-room laptop."""
    return {"viewport": {"width": 1366, "height": 768}}


def _supervisor_signs_in(page: Any, live_server: str) -> None:
    login, _name, password = DEMO_SUPERVISOR
    sign_in(page, live_server, login, password, home="text=My groups")


def _timed_out_attempts(app: Flask, login: str) -> list[tuple[bool, bool, Any]]:
    with app.app_context():
        user_id = db.session.execute(db.select(User.id).filter_by(login=login)).scalar_one()
        rows = db.session.execute(
            db.select(Attempt.timed_out, Attempt.correct, Attempt.answer)
            .filter_by(user_id=user_id, kind="foul-check")
        ).all()
        return [tuple(row) for row in rows]


def _exam_session_id(app: Flask, trainee_id: int) -> int:
    with app.app_context():
        return db.session.execute(
            db.select(CertificationExam.session_id).filter_by(trainee_id=trainee_id)).scalar_one()


def _exam_attempt_ids(app: Flask, trainee_id: int) -> list[int]:
    session_id = _exam_session_id(app, trainee_id)
    with app.app_context():
        return list(db.session.execute(
            db.select(Attempt.id).filter_by(session_id=session_id)).scalars())


def _wait_for(condition: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.1)


def test_supervisor_journey_from_new_group_to_sealed_exam(
    app: Flask, live_server: str, browser_context: Any
) -> None:
    supervisor = browser_context.new_page()
    _supervisor_signs_in(supervisor, live_server)

    # 1. Create a group in the app, with a house way and table rules that are not the defaults.
    supervisor.goto(f"{live_server}/supervisor/groups/new")
    supervisor.fill("input[name=name]", GROUP)
    first_way, second_way = preset_names()[1], preset_names()[2]
    supervisor.select_option("select[name=house_way]", first_way)
    supervisor.select_option("select[name=profile]", profile_names()[1])
    supervisor.click("form:has(input[name=name]) button[type=submit]")
    supervisor.wait_for_selector("text=Group Evening class created.")
    with app.app_context():
        group_id = db.session.execute(db.select(Group.id).filter_by(name=GROUP)).scalar_one()

    # 2. Open its settings (a group created in the app has only a creation entry) and change them.
    supervisor.goto(f"{live_server}/supervisor/groups/{group_id}/edit")
    supervisor.wait_for_selector("#group-settings")
    assert supervisor.locator("#history tbody tr").count() >= 1
    offered = supervisor.locator("select[name=profile] option").evaluate_all(
        "options => options.map(o => o.value)")
    assert offered == list(profile_names())
    supervisor.select_option("select[name=house_way]", second_way)
    supervisor.select_option("select[name=profile]", "no-commission")
    supervisor.fill("input[name='time-foul-check']", str(TIME_LIMIT_S))
    supervisor.check("input[name='certify-foul-check']")
    supervisor.fill("input[name='accuracy-foul-check']", "50")
    supervisor.fill("input[name='window-foul-check']", "10")
    supervisor.fill("input[name='examlength-foul-check']", "2")
    supervisor.fill("input[name='examtime-foul-check']", "60")
    supervisor.click("#group-settings button[type=submit]")
    supervisor.wait_for_selector(".flash")
    supervisor.goto(f"{live_server}/supervisor/groups/{group_id}/edit")
    assert supervisor.locator("select[name=profile]").input_value() == "no-commission"
    assert supervisor.locator("select[name=house_way]").input_value() == second_way
    history = supervisor.locator("#history").inner_text()
    assert "no-commission" in history or "No commission" in history or "commission" in history.lower()
    assert "{" not in history  # words, not JSON
    shot(supervisor, "journey-1-group-settings")

    # 3. Create a trainee in the new group.
    supervisor.goto(f"{live_server}/supervisor/trainees/new")
    supervisor.fill("input[name=name]", "Rosa Martins")
    supervisor.fill("input[name=login]", TRAINEE_LOGIN)
    supervisor.fill("input[name=password]", TRAINEE_PASSWORD)
    supervisor.select_option("select[name=group_id]", str(group_id))
    supervisor.click("form:has(input[name=login]) button[type=submit]")
    supervisor.wait_for_selector("text=Trainee Rosa Martins created.")
    with app.app_context():
        trainee_id = db.session.execute(
            db.select(User.id).filter_by(login=TRAINEE_LOGIN)).scalar_one()

    # 4. The trainee starts a timed foul check, sees the first question and walks away.
    trainee = browser_context.browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    sign_in(trainee, live_server, TRAINEE_LOGIN, TRAINEE_PASSWORD)
    trainee.goto(f"{live_server}/drills/")
    trainee.click("[data-start='foul-check-timed']")
    trainee.wait_for_selector("[data-foul-choice]")
    trainee.goto(f"{live_server}/")
    trainee.wait_for_selector("#trainee-home")
    time.sleep(TIME_LIMIT_S + GRACE_S + 0.5)
    assert _timed_out_attempts(app, TRAINEE_LOGIN) == []  # nothing settled it yet

    # 5. The supervisor's trainee page settles the walked-away question as timed out.
    supervisor.goto(f"{live_server}/supervisor/trainees/{trainee_id}")
    supervisor.wait_for_selector("#trainee-page")
    assert _timed_out_attempts(app, TRAINEE_LOGIN) == [(True, False, None)]
    mistakes = supervisor.locator("#mistakes").inner_text()
    assert "Timed out" in mistakes or "timed out" in mistakes
    shot(supervisor, "journey-2-trainee-timed-out")

    # 6. The supervisor schedules a sealed foul-check exam.
    supervisor.select_option("#exam-kind", "foul-check")
    supervisor.click("text=Schedule exam")
    supervisor.wait_for_selector("text=Exam scheduled for Rosa Martins")

    # A scheduled exam restricts nothing.
    response = trainee.goto(f"{live_server}/house-way/look-up")
    assert response is not None and response.status == 200

    # 7. The trainee starts the exam and answers its first question.
    trainee.goto(f"{live_server}/")
    trainee.click("#my-exams a")
    trainee.click("text=Start the exam")
    trainee.wait_for_selector("[data-foul-choice]")
    trainee.click("[data-foul-choice] [data-key=l]")
    # A sealed exam shows nothing per answer and goes straight on to its next question.
    _wait_for(lambda: len(_exam_attempt_ids(app, trainee_id)) == 1)
    trainee.wait_for_selector("[data-foul-choice] button:not([disabled])")

    # While it runs, results, look-up and sheets are closed, and show no exam answer.
    for path in ("/house-way/look-up", f"/house-way/{second_way}", f"/house-way/{second_way}/pdf"):
        response = trainee.goto(f"{live_server}{path}")
        assert response is not None and response.status == 423, path
        assert trainee.locator("text=Not available during your exam").count() >= 1, path
    shot(trainee, "journey-3-look-up-closed")
    trainee.goto(f"{live_server}/results")
    assert trainee.locator("#exam-sealed-note").count() == 1
    for attempt_id in _exam_attempt_ids(app, trainee_id):
        response = trainee.goto(f"{live_server}/results/{attempt_id}")
        assert response is not None and response.status == 423

    # 8. The trainee finishes the exam: everything opens again.
    session_id = _exam_session_id(app, trainee_id)
    trainee.goto(f"{live_server}/drills/sessions/{session_id}")
    trainee.wait_for_selector("[data-foul-choice] button:not([disabled])")
    trainee.click("[data-foul-choice] [data-key=l]")
    trainee.wait_for_url(f"{live_server}/drills/sessions/{session_id}/summary")
    for path in ("/house-way/look-up", f"/house-way/{second_way}", "/results",
                 f"/drills/sessions/{session_id}/summary"):
        response = trainee.goto(f"{live_server}{path}")
        assert response is not None and response.status == 200, path
    shot(trainee, "journey-4-exam-summary")
