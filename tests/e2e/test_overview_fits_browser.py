"""The supervisor's group overview is a table, not cards, on a 1366-wide screen in every language.

Russian headings ("Тренировочные вопросы без ответа", each drill's title and its chance
level) are the longest; the table's columns wrap their headings and a drill's figures
instead of pushing the table wider than its box (lib.js ``fitTables`` then stacks it into
cards). Screenshots at 1366x768 and 1024x768 go to ``test-artifacts/overview-fit/``.
"""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from flask import Flask

from e2e.conftest import ARTIFACTS, shot, sign_in
from trainer.cli.accounts import DEMO_SUPERVISOR, DEMO_TRAINEES
from trainer.engine.drills import DRILLS
from trainer.extensions import db
from trainer.models import Attempt, DrillSession, Group, User, utcnow
from trainer.services import accounts

pytestmark = pytest.mark.e2e

SHOTS = ARTIFACTS / "overview-fit"


@pytest.fixture
def context_options() -> dict[str, Any]:
    return {"viewport": {"width": 1366, "height": 768}, "locale": "en-US"}


def _seed(app: Flask, lang: str) -> int:
    """Give every demo trainee answers of every drill kind (the widest cells), set the
    supervisor's language; return the group's id."""
    with app.app_context():
        group_id = db.session.execute(db.select(Group.id)).scalar_one()
        now = utcnow()
        for number, (login, _name) in enumerate((t[0], t[1]) for t in DEMO_TRAINEES):
            trainee = db.session.execute(db.select(User).filter_by(login=login)).scalar_one()
            for k, kind in enumerate(DRILLS):
                start = now - timedelta(hours=1 + k, minutes=number)
                session = DrillSession(user_id=trainee.id, group_id=group_id, kind=kind, mode="timed",
                                       length=12, time_limit_ms=10_000, house_way="trump-plaza",
                                       profile="nevada", started_at=start)
                db.session.add(session)
                for position in range(1, 13):
                    answered = start + timedelta(seconds=position * 10)
                    db.session.add(Attempt(
                        session=session, position=position, user_id=trainee.id, kind=kind,
                        seed=position, question={}, answer={}, correct_answer={},
                        correct=position % 3 != 0, timed_out=False, rule_id="pair.keep",
                        issued_at=answered - timedelta(milliseconds=12_345),
                        answered_at=answered, elapsed_ms=12_345))
        supervisor = db.session.execute(db.select(User).filter_by(login=DEMO_SUPERVISOR[0])).scalar_one()
        accounts.set_language(supervisor.id, lang)
        db.session.commit()
        return group_id


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_group_overview_is_a_table_at_1366_in_each_language(
        app: Flask, live_server: str, page: Any, lang: str) -> None:
    group_id = _seed(app, lang)
    sign_in(page, live_server, DEMO_SUPERVISOR[0], DEMO_SUPERVISOR[2], home="h1")
    page.goto(f"{live_server}/supervisor/groups/{group_id}")
    page.wait_for_selector(f"html[lang={lang}] #overview-table")
    page.wait_for_timeout(100)  # fitTables runs on the next animation frame
    shot(page, f"{lang}-1366x768", SHOTS)
    stacked_1366 = page.locator("#overview-table.stacked").count()
    box = page.evaluate("""() => { const t = document.querySelector('#overview-table');
        return [t.parentElement.scrollWidth, t.parentElement.clientWidth]; }""")
    # Nothing clipped: every heading's text fits inside its cell.
    clipped = page.evaluate("""() => Array.from(document.querySelectorAll('#overview-table th'))
        .filter(th => th.scrollWidth > th.clientWidth + 1).map(th => th.textContent.trim())""")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.wait_for_timeout(100)
    shot(page, f"{lang}-1024x768", SHOTS)
    assert stacked_1366 == 0, f"the overview falls back to cards at 1366 in {lang}: {box}"
    assert clipped == [], clipped
