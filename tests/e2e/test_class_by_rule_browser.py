"""The class by house-way rule in a browser (issue 27): a real table on a phone (390 px) and a
desktop, in English and Russian, that scrolls inside its own focusable region instead of
clipping or widening the page; axe-core finds nothing. Screenshots go to
test-artifacts/class-by-rule/."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from flask import Flask

from e2e.conftest import ARTIFACTS, sign_in
from e2e.test_layout_browser import AXE, OVERFLOW, SETTLE, require_axe
from trainer.cli.accounts import DEMO_SUPERVISOR, DEMO_TRAINEES
from trainer.engine.house_way import load
from trainer.extensions import db
from trainer.models import Attempt, DrillSession, Group, User, utcnow
from trainer.services import accounts

pytestmark = pytest.mark.e2e

SHOTS = ARTIFACTS / "class-by-rule"
SIZES = {"390x844": (390, 844), "768x1024": (768, 1024), "1366x768": (1366, 768)}
HANDS = ("8h 8s 3d 3c Ks Td 5h", "7c 7d 7h 2s 2d JK Kc")

AXE_ALL = """async () => {
  const result = await window.axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} -- ` +
    v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | "));
}"""

# The rules table: a table (not cards) inside a focusable, named region that scrolls it.
TABLE = """() => {
  const table = document.querySelector("#class-rules");
  const box = table.closest(".rules-scroll");
  const found = [];
  if (getComputedStyle(table).display !== "table") found.push("not a table");
  if (!box.matches('[role="region"][tabindex="0"][aria-labelledby]')) found.push("no region");
  if (table.scrollWidth > box.clientWidth + 1 && getComputedStyle(box).overflowX !== "auto") {
    found.push("the table is wider than its box, which does not scroll");
  }
  return found;
}"""


def _seed(app: Flask, lang: str) -> int:
    """Give the demo trainees answers on two rules of the demo group's way (some wrong)."""
    way = load("trump-plaza")
    with app.app_context():
        group_id = db.session.execute(db.select(Group.id)).scalar_one()
        now = utcnow()
        for number, login in enumerate(t[0] for t in DEMO_TRAINEES):
            trainee = db.session.execute(db.select(User).filter_by(login=login)).scalar_one()
            session = DrillSession(user_id=trainee.id, group_id=group_id, kind="house-way",
                                   mode="practice", length=6, house_way="trump-plaza",
                                   profile="nevada")
            db.session.add(session)
            for position in range(1, 7):
                setting = way.set(HANDS[position % 2])
                answered = now - timedelta(hours=1, minutes=number, seconds=position)
                db.session.add(Attempt(
                    session=session, position=position, user_id=trainee.id, kind="house-way",
                    seed=position, question={}, answer={}, correct_answer=setting.as_dict(),
                    correct=(position + number) % 3 != 0, timed_out=False, rule_id=setting.rule,
                    issued_at=answered - timedelta(seconds=5), answered_at=answered,
                    elapsed_ms=5000))
        supervisor = db.session.execute(
            db.select(User).filter_by(login=DEMO_SUPERVISOR[0])).scalar_one()
        accounts.set_language(supervisor.id, lang)
        db.session.commit()
        return group_id


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_class_by_rule_is_a_scrolling_table_that_passes_axe_at_390_and_1366(
        app: Flask, live_server: str, page: Any, lang: str) -> None:
    require_axe()
    group_id = _seed(app, lang)
    sign_in(page, live_server, DEMO_SUPERVISOR[0], DEMO_SUPERVISOR[2], home="h1")
    page.goto(f"{live_server}/supervisor/groups/{group_id}/rules")
    page.wait_for_selector(f"html[lang={lang}] #class-rules")
    SHOTS.mkdir(parents=True, exist_ok=True)
    axe = AXE.read_text(encoding="utf-8")
    problems: list[str] = []
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(SETTLE)
        problems += [f"{lang} at {size}: {p}" for p in page.evaluate(TABLE)]
        problems += [f"{lang} at {size}: overflow: {p}" for p in page.evaluate(OVERFLOW)]
        if not page.evaluate("() => Boolean(window.axe)"):
            page.evaluate(axe)
        problems += [f"{lang} at {size}: axe: {v}" for v in page.evaluate(AXE_ALL)]
        page.screenshot(path=str(SHOTS / f"{lang}-{size}.png"), full_page=True)
    assert page.locator("#class-rules tbody tr").count() == len(load("trump-plaza").rules)
    # On paper (an A4 page's width): the whole table, nothing scrolled away, no buttons.
    page.set_viewport_size({"width": 794, "height": 1123})
    page.emulate_media(media="print")
    page.evaluate(SETTLE)
    printed = page.evaluate("""() => {
      const box = document.querySelector(".rules-scroll");
      const table = document.querySelector("#class-rules");
      return {clipped: table.scrollWidth > box.clientWidth + 1,
              buttons: Array.from(document.querySelectorAll(".toolbar .actions a, .toolbar button"))
                .filter((b) => b.getBoundingClientRect().width > 0).length};
    }""")
    page.emulate_media(media="screen")
    assert printed == {"clipped": False, "buttons": 0}, printed
    assert problems == [], "\n".join(problems)
