"""The bonus drill in headless Chromium: right by mouse, wrong by keyboard, then the clock runs out."""
from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from e2e.conftest import ARTIFACTS, shot, sign_in
from trainer.cli.accounts import DEMO_GROUP
from trainer.engine.drills import DrillContext
from trainer.extensions import db
from trainer.models import Attempt, Group, IssuedQuestion
from trainer.services import drills as drill_service

pytestmark = pytest.mark.e2e


@pytest.fixture
def demo_settings() -> dict[str, Any]:
    """Three bonus questions on a short clock, so the last can run out."""
    return {"drills": {"bonus": {"length": 3, "time_limit_s": 6}}}


def fortune_group(app: Flask) -> None:
    """Put the demo group on the Fortune profile (standard table with Envy)."""
    with app.app_context():
        group = db.session.execute(db.select(Group).filter_by(name=DEMO_GROUP)).scalar_one()
        group.profile = "nevada-fortune"
        db.session.commit()


def key(app: Flask, session_id: int, position: int) -> dict[str, Any]:
    with app.app_context():
        row = db.session.execute(
            db.select(IssuedQuestion).filter_by(session_id=session_id, position=position)
        ).scalar_one()
        question, context = dict(row.question), DrillContext.from_dict(row.context)
    return drill_service.answer_key(question, context)


def recorded(app: Flask, session_id: int) -> list[tuple[int, bool, bool]]:
    with app.app_context():
        rows = db.session.execute(
            db.select(Attempt).filter_by(session_id=session_id).order_by(Attempt.position)
        ).scalars()
        return [(a.position, a.correct, a.timed_out) for a in rows]


def test_a_timed_bonus_session_right_wrong_and_timed_out(app: Flask, live_server: str, page: Any) -> None:
    fortune_group(app)
    sign_in(page, live_server)
    page.goto(f"{live_server}/drills/")
    page.click("[data-start=bonus-timed]")
    page.wait_for_selector(".q-bonus[data-position='1']")
    session_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    assert "Fortune bonus" in page.inner_text(".q-bonus")

    # 1. Right, by mouse: the cue, the hand, the amount, Pay.
    answer = key(app, session_id, 1)
    page.click(f".bonus-cue input[value={'yes' if answer['qualifies'] else 'no'}]")
    page.click(f".bonus-categories input[value={answer['category']}]")
    page.fill("[data-paid]", f"{answer['paid_cents'] / 100:.2f}")
    shot(page, "bonus-question")
    page.click("[data-bonus-form] [data-submit]")
    page.wait_for_selector(".verdict")
    assert page.inner_text(".verdict-word") == "Right"
    assert "You answered " not in page.inner_text("#feedback .explanation")
    shot(page, "bonus-right")

    # 2. Wrong, by keyboard: the wrong cue (Y / N), then the amount and Enter.
    page.keyboard.press("Enter")
    page.wait_for_selector(".q-bonus[data-position='2']")
    answer = key(app, session_id, 2)
    page.keyboard.press("n" if answer["qualifies"] else "y")
    page.click(f".bonus-categories input[value={answer['category']}]")
    page.fill("[data-paid]", f"{answer['paid_cents'] / 100:.2f}")
    page.press("[data-paid]", "Enter")
    page.wait_for_selector(".verdict")
    assert page.inner_text(".verdict-word").startswith("Wrong")
    feedback = page.inner_text("#feedback")
    assert "You answered" in feedback and "Does it qualify for Envy?" in feedback
    assert "bonus.envy" not in feedback  # rule ids only in tooltips
    shot(page, "bonus-wrong")

    # 3. Left alone, the clock runs out.
    page.click("#next")
    page.wait_for_selector(".q-bonus[data-position='3']")
    page.wait_for_selector(".verdict", timeout=15_000)
    assert page.inner_text(".verdict-word") == "Time is up"
    assert recorded(app, session_id) == [(1, True, False), (2, False, False), (3, False, True)]


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)], ids=["laptop", "phone"])
def test_the_bonus_question_fits_a_laptop_and_a_phone(app: Flask, live_server: str, page: Any,
                                                      size: tuple[int, int]) -> None:
    fortune_group(app)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    sign_in(page, live_server)
    page.goto(f"{live_server}/drills/")
    page.click("[data-start=bonus-practice]")
    page.wait_for_selector(".q-bonus[data-position='1']")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size[0], f"the page scrolls sideways: {width} > {size[0]}"
    shot(page, f"bonus-{size[0]}x{size[1]}")


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)], ids=["laptop", "phone"])
def test_the_pay_charts_fit_a_laptop_and_a_phone(app: Flask, live_server: str, page: Any,
                                                 size: tuple[int, int]) -> None:
    fortune_group(app)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    sign_in(page, live_server)
    page.goto(f"{live_server}/commission-chart")
    page.wait_for_selector("#pay-charts [data-table=fortune-standard]")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size[0], f"the page scrolls sideways: {width} > {size[0]}"
    shot(page, f"pay-charts-{size[0]}x{size[1]}")
    page.locator("#pay-charts").screenshot(path=str(ARTIFACTS / f"pay-charts-only-{size[0]}.png"))
