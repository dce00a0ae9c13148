"""The QA walk's dashboard findings, in a browser (docs/dashboards.md): the class table
that scrolls sideways inside its box says so (a sentence and a fading right edge) and
keeps its sticky name column; on a phone, the trainee's progress cards print no
"drill my mistakes" label of their own; the printable report's latest mistakes are
spaced cards, one entry set apart from the next, and the report still prints on one
Letter page. Screenshots go to test-artifacts/dashboard-hints/.
"""
from __future__ import annotations

from datetime import timedelta
from itertools import pairwise
from typing import Any

import pytest
from flask import Flask

from e2e.conftest import ARTIFACTS, shot, sign_in
from e2e.test_overview_fits_browser import _seed
from e2e.test_reference_browser import pdf_pages
from trainer.cli.accounts import DEMO_SUPERVISOR, DEMO_TRAINEE_PASSWORD, DEMO_TRAINEES
from trainer.extensions import db
from trainer.models import Attempt, DrillSession, User, utcnow
from trainer.services import accounts

pytestmark = pytest.mark.e2e

SHOTS = ARTIFACTS / "dashboard-hints"

# The class table's box, its hint and its shade, and the name column against the box.
SCROLL_STATE = """() => {
  const frame = document.querySelector('[data-scroll-hint]');
  const box = frame.querySelector('[data-scroll-box]');
  const hint = document.querySelector('#overview-scroll-hint');
  const shade = getComputedStyle(frame.querySelector('.scroll-shade'), '::after');
  const name = document.querySelector('#overview-table tbody .name-col').getBoundingClientRect();
  return {overflow: box.scrollWidth - box.clientWidth, hintShown: !!hint.offsetParent,
          hint: hint.innerText, moreRight: frame.classList.contains('more-right'),
          moreLeft: frame.classList.contains('more-left'), shade: Number(shade.opacity),
          nameLeft: Math.round(name.left - box.getBoundingClientRect().left)};
}"""


def _wait_settled(page: Any) -> None:
    page.wait_for_timeout(350)  # the shade's 0.2 s fade


def test_the_class_table_says_it_scrolls_sideways_at_834_in_portuguese(
        app: Flask, live_server: str, page: Any) -> None:
    group_id = _seed(app, "pt")
    sign_in(page, live_server, DEMO_SUPERVISOR[0], DEMO_SUPERVISOR[2], home="h1")
    page.set_viewport_size({"width": 834, "height": 1194})
    page.goto(f"{live_server}/supervisor/groups/{group_id}")
    page.wait_for_selector("html[lang=pt] #overview-table")
    _wait_settled(page)
    state = page.evaluate(SCROLL_STATE)
    assert state["overflow"] > 0, f"the table fits at 834 in pt: nothing to hint ({state})"
    assert state["hintShown"] and state["hint"].strip(), state
    assert state["moreRight"] and state["shade"] == 1 and not state["moreLeft"], state
    shot(page, "group-834x1194-pt", SHOTS)
    # Scrolled to the end: no shade on the right, a shadow beside the name, which stays put.
    page.evaluate("() => { const b = document.querySelector('[data-scroll-box]');"
                  " b.scrollLeft = b.scrollWidth; }")
    _wait_settled(page)
    state = page.evaluate(SCROLL_STATE)
    assert not state["moreRight"] and state["shade"] == 0 and state["moreLeft"], state
    assert state["nameLeft"] == 0, f"the name column moved with the figures ({state})"
    shot(page, "group-834x1194-pt-scrolled", SHOTS)
    # Wide enough for the whole table: no hint, no shade.
    page.set_viewport_size({"width": 2400, "height": 1194})
    _wait_settled(page)
    state = page.evaluate(SCROLL_STATE)
    assert state["overflow"] <= 1 and not state["hintShown"] and state["shade"] == 0, state


def _wrong_answers(app: Flask, login: str) -> int:
    """Give a demo trainee wrong answers: two house-way hands and a six-seat settlement."""
    with app.app_context():
        user = db.session.execute(db.select(User).filter_by(login=login)).scalar_one()
        now = utcnow()
        house = DrillSession(user_id=user.id, kind="house-way", mode="timed", length=2,
                             time_limit_ms=10_000, house_way="trump-plaza", profile="nevada",
                             started_at=now - timedelta(minutes=10))
        table = DrillSession(user_id=user.id, kind="settlement", mode="timed", length=1,
                             time_limit_ms=30_000, house_way="trump-plaza", profile="nevada",
                             started_at=now - timedelta(minutes=5))
        db.session.add_all([house, table])
        cards = ["JK", "Kd", "2s", "4s", "3c", "5c", "6d"]
        for position in (1, 2):
            at = now - timedelta(minutes=9, seconds=-position * 10)
            db.session.add(Attempt(
                session=house, position=position, user_id=user.id, kind="house-way", seed=position,
                question={"cards": cards, "context": {"house_way": "trump-plaza"}},
                answer={"back": ["JK", "Kd", "2s", "4s", "3c"], "front": ["5c", "6d"]},
                correct_answer={"back": ["5c", "6d", "2s", "4s", "3c"], "front": ["JK", "Kd"]},
                correct=False, timed_out=False, rule_id="no-pair.standard",
                issued_at=at - timedelta(seconds=5), answered_at=at, elapsed_ms=5000))
        seats = [{"seat": seat, "back": ["Ts", "6h", "Qh", "8h", "3d"], "front": ["8d", "3h"],
                  "bet_cents": 500} for seat in range(2, 8)]
        at = now - timedelta(minutes=4)
        db.session.add(Attempt(
            session=table, position=1, user_id=user.id, kind="settlement", seed=9,
            question={"banker": {"back": ["2h", "3s", "7h", "5s", "7d"], "front": ["9h", "Ks"]},
                      "positions": seats},
            answer={"positions": [{"outcome": "win", "paid_cents": 500} for _ in seats]},
            correct_answer={"positions": [{"seat": s["seat"], "outcome": "lose", "paid_cents": None}
                                          for s in seats]},
            correct=False, timed_out=False, rule_id="settlement.lose",
            issued_at=at - timedelta(seconds=20), answered_at=at, elapsed_ms=20_000))
        db.session.commit()
        return user.id


# Every card of the report's mistakes, by entry: its box; and each entry's top border.
REPORT_CARDS = """() => [...document.querySelectorAll('#report-mistakes .report-mistake')].map((li) => ({
  border: parseFloat(getComputedStyle(li).borderTopWidth),
  fontSize: Math.min(...[...li.querySelectorAll('.card')]
    .map((c) => parseFloat(getComputedStyle(c).fontSize))),
  hands: [...li.querySelectorAll('.hand')].map((h) => [...h.querySelectorAll('.card')].map((c) => {
    const r = c.getBoundingClientRect(); return [r.left, r.right, r.top, r.width]; })),
}))"""


def _apart(cards: list[list[float]]) -> bool:
    """Tell whether each card of a hand stands clear of the next one on its line."""
    return all(b[0] - a[1] >= 1 for a, b in pairwise(cards) if abs(a[2] - b[2]) < 2)


def test_the_report_s_mistakes_are_spaced_cards_one_entry_apart_on_one_page(
        app: Flask, live_server: str, page: Any) -> None:
    trainee_id = _wrong_answers(app, DEMO_TRAINEES[0][0])
    sign_in(page, live_server, DEMO_SUPERVISOR[0], DEMO_SUPERVISOR[2], home="h1")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server}/supervisor/trainees/{trainee_id}/report?period=all")
    page.wait_for_selector("#report-mistakes .card")
    shot(page, "report-1024x768-en", SHOTS)
    for media in ("screen", "print"):
        page.emulate_media(media=media)
        entries = page.evaluate(REPORT_CARDS)
        assert len(entries) == 3, entries
        assert all(entry["border"] >= 1 for entry in entries[1:]), (media, entries)
        for entry in entries:
            assert entry["fontSize"] >= 11, (media, entry["fontSize"])  # 9 pt at least
            for hand in entry["hands"]:
                assert hand and all(card[3] > 0 for card in hand) and _apart(hand), (media, hand)
    letter = page.pdf(format="Letter", print_background=True)
    page.emulate_media(media="null")
    (SHOTS / "report-letter.pdf").write_bytes(letter)
    assert pdf_pages(letter) == 1


# Each "drill my mistakes" cell of the stacked progress table: its ::before label and display.
MISTAKE_CELLS = """() => [...document.querySelectorAll('#progress-table td.row-action')].map((td) => ({
  label: getComputedStyle(td, '::before').content, shown: getComputedStyle(td).display !== 'none',
  button: !!td.querySelector('[data-drill-mistakes]')}))"""


def test_the_phone_progress_cards_print_no_drill_my_mistakes_label_in_portuguese(
        app: Flask, live_server: str, page: Any) -> None:
    trainee_id = _wrong_answers(app, DEMO_TRAINEES[0][0])
    with app.app_context():
        accounts.set_language(trainee_id, "pt")
        db.session.commit()
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page, live_server, DEMO_TRAINEES[0][0], DEMO_TRAINEE_PASSWORD)
    page.wait_for_selector("html[lang=pt] #progress-table.stacked")
    shot(page, "trainee-home-390x844-pt", SHOTS)
    cells = page.evaluate(MISTAKE_CELLS)
    assert any(c["button"] for c in cells) and any(not c["button"] for c in cells), cells
    for cell in cells:
        assert cell["label"] in ("none", "normal"), cell
        assert cell["shown"] == cell["button"], cell
