"""A live class in one browser (issue 31): the instructor's projector and three trainees'
devices, each a context of one Chromium, in English and Spanish. A hand of every kind a
class offers is dealt at random, answered in the trainees' pages (one of them wrong),
locked and revealed with the projector's keys; a trainee page reloaded mid-hand catches up.

The projector fits 1920x1080 and 1280x720 without scrolling, its cards at least a tenth
of the screen's height, its shortcut keys shown on the buttons, the names hideable, no
JSON and no rule id in its text; the trainee's page fits 390x844 and 768x1024. Screenshots
go to test-artifacts/classroom/ (looked at by hand).
"""
from __future__ import annotations

import random
from typing import Any

import pytest
from flask import Flask
from web.classroom_room import _right, class_kinds
from web.wrong_answers import no_json_and_no_rule_id

from e2e import test_wrong_answers_browser as answering
from e2e.conftest import ARTIFACTS, sign_in
from e2e.test_layout_browser import OVERFLOW, SETTLE
from e2e.test_wrong_answers_browser import _answer_in_page
from trainer.cli.accounts import DEMO_GROUP, DEMO_SUPERVISOR, DEMO_TRAINEES
from trainer.engine.drills import get_drill
from trainer.extensions import db
from trainer.models import ClassHand, Group, User
from trainer.services import accounts
from trainer.services.classroom.rows import hand_context

pytestmark = pytest.mark.e2e

SHOTS = ARTIFACTS / "classroom"
PROJECTOR = {"1920x1080": (1920, 1080), "1280x720": (1280, 720)}
# The trainees' devices: a phone, a tablet, and a phone that reloads mid-hand.
SEATS = ("390x844", "768x1024", "390x844")
WRONG_SEAT = 1
# After a hand of each kind at random: two rows of cards (two hands compared, dealt for a
# rule) and the largest table (six seats, typed in by the instructor).
COMPARE_RULE = ("hand-reading", "reading.compare.five")
SIX_SEATS = {
    "banker.back:cards": "As Ad Kc Kd 2s", "banker.front:cards": "Qh Jh",
    **{f"positions.{i}.{field}": value for i, seat in enumerate((
        ("2", "3s 3h 5c 6d 8s", "9h 7c", "10"), ("3", "Th Tc 4d 4s 2c", "Ac 5h", "25"),
        ("4", "Js Jd 8h 6c 4h", "Kh 9d", "5"), ("5", "Qs Qd 7s 5d 3d", "Ts 8c", "50"),
        ("6", "9s 9c 6s 6h 2d", "Ah 7d", "15"), ("7", "4c 5s 7h 8d JK", "Qc Jc", "100")))
       for field, value in zip(("seat:int", "back:cards", "front:cards", "bet_cents:money"), seat,
                               strict=True)},
}

# The projector's fit: no scrolling either way, nothing cut off in the hand or the panel,
# and its smallest card's height.
FIT = """() => {
  const root = document.documentElement;
  const cards = Array.from(document.querySelectorAll("#projector-hand .card"));
  // scrollHeight and clientHeight are whole pixels of fractional layout boxes: a
  // difference of one pixel is their rounding, not a line cut off.
  const cut = (el) => Math.max(0, el.scrollHeight - el.clientHeight - 1);
  return {
    scrollX: root.scrollWidth - root.clientWidth,
    scrollY: root.scrollHeight - window.innerHeight,
    handCut: cut(document.getElementById("projector-hand")),
    // The panel may scroll in itself for a large class; what the room reads in it (the
    // count, and once revealed who was right with what) must be in view.
    panelCut: (() => {
      const panel = document.getElementById("projector-panel").getBoundingClientRect();
      const seen = document.querySelector("#class-reveal") || document.querySelector("#class-count");
      return seen ? Math.max(0, seen.getBoundingClientRect().bottom - panel.bottom) : 0;
    })(),
    cardMin: cards.length ? Math.min(...cards.map((c) => c.getBoundingClientRect().height)) : 0,
    cards: cards.length,
    height: window.innerHeight,
  };
}"""

# Whether any name of a trainee on the projector can be seen.
NAMES_SEEN = """() => Array.from(document.querySelectorAll("#projector .who"))
  .some((el) => el.textContent.trim() && getComputedStyle(el).visibility !== "hidden"
        && el.getBoundingClientRect().width > 0)"""


def _people(app: Flask, lang: str) -> int:
    """Everyone reads ``lang``; return the demo group's id."""
    with app.app_context():
        for login in (DEMO_SUPERVISOR[0], *(t[0] for t in DEMO_TRAINEES)):
            user = db.session.execute(db.select(User).filter_by(login=login)).scalar_one()
            accounts.set_language(user.id, lang)
        group_id: int = db.session.execute(
            db.select(Group.id).filter_by(name=DEMO_GROUP)).scalar_one()
        db.session.commit()
        return group_id


def _answers(app: Flask, class_id: int, number: int) -> tuple[dict[str, Any], dict[str, Any], str]:
    """A right and a wrong answer to the hand (the engine's), and its deciding rule."""
    with app.app_context():
        hand = db.session.execute(db.select(ClassHand).filter_by(
            class_id=class_id, number=number)).scalar_one()
        drill = get_drill(hand.kind)
        context = hand_context(hand)
        question = drill.read_question(hand.question)
        right = _right(drill, question, context)
        wrong: dict[str, Any] = drill.answer_json(
            drill.wrong_answer(question, context, random.Random(number)))
        assert not drill.grade(question, drill.read_answer(question, wrong, context),
                               context).correct
        return right, wrong, str(hand.rule_id)


def _key(page: Any, act: str) -> str:
    key: str = page.get_attribute(f'#drive [data-act="{act}"]', "data-key")
    return key


def _press(page: Any, act: str) -> None:
    """Press the projector's shortcut for ``act`` (nothing focused, as after a choice)."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press(_key(page, act))


def _projector_at(page: Any, size: str, name: str, problems: list[str]) -> None:
    width, height = PROJECTOR[size]
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate(SETTLE)
    fit = page.evaluate(FIT)
    if fit["scrollX"] > 0 or fit["scrollY"] > 0:
        problems.append(f"{name} at {size} scrolls: {fit}")
    if fit["handCut"] > 0 or fit["panelCut"] > 0:
        problems.append(f"{name} at {size}: the hand or the panel's answers are cut off: {fit}")
    if fit["cards"] and fit["cardMin"] < height / 10:
        problems.append(f"{name} at {size}: a card {fit['cardMin']:.0f} px < {height / 10:.0f} px")
    overflow = page.evaluate(OVERFLOW)
    if overflow:
        problems.append(f"{name} at {size} overflows: {overflow[:3]}")
    page.screenshot(path=str(SHOTS / f"{name}-projector-{size}.png"))


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_live_class_dealt_answered_locked_and_revealed_in_one_browser(
        app: Flask, live_server: str, browser_context: Any, lang: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    # Amounts typed as a reader of the language types them: 23,75 in Spanish.
    decimal = {"en": ".", "es": ","}[lang]
    monkeypatch.setattr(answering, "_typed", lambda cents: f"{cents // 100}{decimal}{cents % 100:02d}")
    group_id = _people(app, lang)
    kinds = class_kinds(app)
    browser = browser_context.browser
    errors: list[str] = []
    contexts = []

    def new_page(size: str) -> Any:
        width, height = (int(x) for x in size.split("x"))
        context = browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    try:
        teacher = new_page("1920x1080")
        sign_in(teacher, live_server, DEMO_SUPERVISOR[0], DEMO_SUPERVISOR[2], home="h1")
        teacher.goto(f"{live_server}/class/groups/{group_id}")
        teacher.click("#start-class")
        teacher.wait_for_selector("#projector")
        class_id = int(teacher.url.rstrip("/").rsplit("/", 1)[1])
        # Every drive button shows its key.
        for act in ("deal", "lock", "reveal", "next", "timer", "names"):
            assert teacher.inner_text(f'#drive [data-act="{act}"] kbd').strip() == \
                _key(teacher, act).upper()

        seats = []
        for i, size in enumerate(SEATS):
            seat = new_page(size)
            sign_in(seat, live_server, DEMO_TRAINEES[i][0])
            seat.goto(f"{live_server}/class/")
            seat.click("#join-class")
            seat.wait_for_selector("#class-seat")
            seats.append(seat)
        teacher.wait_for_function(
            "() => (document.querySelector('#class-roster') || {textContent: ''})"
            ".textContent.includes('3')")

        problems: list[str] = []
        deals = [(kind, "random", kind) for kind in kinds] + [
            (COMPARE_RULE[0], "rule", "compare"), ("settlement", "typed", "six-seats")]
        for number, (kind, how, name) in enumerate(deals, start=1):
            teacher.select_option("#drive-kind", kind)
            teacher.select_option("#drive-how", how)
            teacher.select_option("#drive-timer", "0")
            if how == "rule":
                teacher.select_option(f'.drive-rule[data-for-kind="{kind}"] select', COMPARE_RULE[1])
            if how == "typed":
                typed = teacher.locator(f'[data-typed][data-for-kind="{kind}"]')
                for field, value in SIX_SEATS.items():
                    typed.locator(f'input[name="{field}"]').fill(value)
                teacher.set_viewport_size({"width": 1280, "height": 720})
                teacher.screenshot(path=str(SHOTS / f"{lang}-typed-form-1280x720.png"))
                teacher.click('#drive [data-act="deal"]')
                # Dealt once, the form closes: the room sees the table.
                teacher.wait_for_selector(f'[data-typed][data-for-kind="{kind}"]', state="hidden")
            else:
                _press(teacher, "deal")
            teacher.wait_for_selector(f'.projector-title[data-number="{number}"]')
            for seat in seats:
                seat.wait_for_selector(f'#question .q[data-position="{number}"]')
            # A page reloaded mid-hand catches up to the hand on the table.
            seats[2].reload()
            seats[2].wait_for_selector(f'#question .q[data-position="{number}"]')
            right, wrong, rule_id = _answers(app, class_id, number)
            for i, seat in enumerate(seats):
                _answer_in_page(seat, wrong if i == WRONG_SEAT else right)
                seat.wait_for_selector("#mine .class-mine-line")
            teacher.wait_for_selector('#class-count[data-answered="3"]')
            if number == 1 or how == "typed":
                _projector_at(teacher, "1280x720", f"{lang}-{name}-open", problems)
            # What the room sees (the drive's rule list below is the instructor's own).
            no_json_and_no_rule_id(teacher.inner_html(".projector-stage"), [rule_id])
            _press(teacher, "lock")
            teacher.wait_for_selector('.projector-state[data-state="locked"]')
            for seat in seats:
                seat.wait_for_function(
                    "() => document.querySelector('#question button') &&"
                    " document.querySelector('#question button').disabled")
            _press(teacher, "reveal")
            teacher.wait_for_selector("#class-reveal")
            assert teacher.inner_text("#class-reveal .class-right").split()[0] == "2"
            for i, seat in enumerate(seats):
                seat.wait_for_selector("#result .verdict")
                verdict = seat.get_attribute("#result .verdict", "data-correct")
                assert verdict == ("no" if i == WRONG_SEAT else "yes"), (name, i)
            no_json_and_no_rule_id(teacher.inner_html(".projector-stage"), [rule_id])
            for size in PROJECTOR:
                _projector_at(teacher, size, f"{lang}-{name}", problems)
            # Names hidden for the room, with the key; shown again.
            assert teacher.evaluate(NAMES_SEEN)
            _press(teacher, "names")
            assert not teacher.evaluate(NAMES_SEEN)
            if number == 1:
                teacher.screenshot(path=str(SHOTS / f"{lang}-{name}-projector-1280x720-no-names.png"))
            _press(teacher, "names")
            assert teacher.evaluate(NAMES_SEEN)
            for i, seat in enumerate(seats[:2]):
                overflow = seat.evaluate(OVERFLOW)
                if overflow:
                    problems.append(f"{lang} {name} trainee at {SEATS[i]} overflows: {overflow[:3]}")
                no_json_and_no_rule_id(seat.inner_html("#question") + seat.inner_html("#mine"), [])
                seat.screenshot(path=str(SHOTS / f"{lang}-{name}-trainee-{SEATS[i]}.png"),
                                full_page=True)
        assert not problems, problems

        teacher.click("#end-class")
        teacher.wait_for_selector("#class-hands")
        assert teacher.locator("#class-hands tbody tr").count() == len(deals)
        for seat in seats:
            seat.wait_for_selector("#class-home:not([hidden])")
        assert not errors, errors
    finally:
        for context in contexts:
            context.close()
