"""Issue 26, tablets and phones: a seat of the settlement and round drills is one row
(back and front side by side), never a card per line; the supervisor's class table stays
a table (the trainee's name fixed, the rest scrolling sideways inside it) in English and
Russian; touch targets of 44 px where the pointer is coarse and 24 px everywhere; a
skip link; the menu on one line at 1366 in every language; axe-core finds nothing.

One browser (tests/e2e/conftest.py) with touch (``pointer: coarse``), one server per
test, the window resized between the sizes. Runs on SQLite only (.ci/run: layout tests
draw the same pages whatever the database). Screenshots go to
test-artifacts/tablet-layout/.
"""
from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from e2e import test_layout_browser as layout
from e2e.conftest import ARTIFACTS, sign_in
from e2e.test_layout_browser import AXE, OVERFLOW, SETTLE, require_axe
from e2e.test_reference_browser import pdf_pages
from trainer.cli.accounts import DEMO_MANAGER, DEMO_SUPERVISOR, DEMO_TRAINEES
from trainer.engine.drills import DRILLS
from trainer.extensions import db
from trainer.models import User
from trainer.services import accounts as account_service

pytestmark = pytest.mark.e2e

SHOTS = ARTIFACTS / "tablet-layout"
SIZES = {"768x1024": (768, 1024), "834x1194": (834, 1194), "1024x768": (1024, 768),
         "390x844": (390, 844)}
LANGUAGES = ("en", "pt", "es", "it", "ru")
# A seat's row on a tablet: the back and the front side by side, the result buttons and
# the amount beside or under them, never a card per line (issue 26: 489 px at 768).
SEAT_ROW_MAX = {"768x1024": 220, "834x1194": 220, "1024x768": 220, "390x844": 300}
COARSE_TARGET = 44  # where the pointer is coarse (a finger)
TARGET = 24  # WCAG 2.2 2.5.8, every pointer

# Every axe-core violation, whatever its impact.
AXE_ALL = """async () => {
  const result = await window.axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} -- ` +
    v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | "));
}"""

# Every visible control smaller than ``least`` px in width or height. Inline text links
# (a link inside a sentence, a table cell's text) are excepted, as WCAG excepts them.
SMALL_TARGETS = """(least) => {
  const found = [];
  const controls = document.querySelectorAll(
    "a[href], button, input:not([type=hidden]), select, textarea, summary, label.check, [role=button]");
  for (const el of controls) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || el.closest("[hidden], .visually-hidden")) continue;
    let box = r;
    if (el.matches("input[type=radio], input[type=checkbox]")) {
      const label = el.closest("label");  // the label is what a finger presses
      if (label) box = label.getBoundingClientRect();
      else if (el.classList.contains("visually-hidden")) continue;
    }
    if (el.tagName === "A" && getComputedStyle(el).display === "inline") {
      const parent = el.parentElement;
      const text = parent ? parent.textContent.replace(el.textContent, "").trim() : "";
      if (text.length > 0 || (parent && parent.matches("td, th, li, dd, p"))) continue;
    }
    if (box.width < least - 0.5 || box.height < least - 0.5) {
      let name = el.tagName.toLowerCase();
      if (el.id) name += "#" + el.id;
      if (el.classList.length) name += "." + Array.from(el.classList).join(".");
      const words = (el.textContent || el.getAttribute("aria-label") || "").trim().slice(0, 20);
      found.push(`${name} "${words}": ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return found.slice(0, 8);
}"""

# What sticks out of the question's felt box (a button cut off at its edge).
STICKS_OUT = """() => {
  const box = document.querySelector("#question");
  if (!box) return [];
  const edge = box.getBoundingClientRect();
  return Array.from(box.querySelectorAll("button, label, input, .card"))
    .filter((el) => { const r = el.getBoundingClientRect();
      return r.width && (r.right > edge.right + 1 || r.left < edge.left - 1); })
    .slice(0, 3).map((el) => `${el.tagName.toLowerCase()} "${el.textContent.trim().slice(0, 12)}"`);
}"""

# The header's parts' widths, unfolded: what would not fit one line.
MENU_WIDTHS = """() => { document.querySelector(".topbar").classList.remove("menu-folded");
  return Array.from(document.querySelectorAll(".topbar > *, .nav a, .logout > *"))
    .map((e) => e.className + ":" + Math.round(e.getBoundingClientRect().width)).join(" "); }"""

SEAT_ROWS = """() => Array.from(document.querySelectorAll("#question tr[data-seat]"))
  .map((tr) => Math.round(tr.getBoundingClientRect().height))"""


@pytest.fixture
def context_options() -> dict[str, Any]:
    """A tablet: touch, so ``(pointer: coarse)`` applies."""
    return {"viewport": {"width": 768, "height": 1024}, "locale": "en-US", "has_touch": True}


@pytest.fixture
def demo_settings() -> dict[str, Any]:
    """A settlement session long enough to meet tables of many seats; one round."""
    return {"drills": {"settlement": {"length": 6}, "round": {"length": len(DRILLS["round"].steps)}}}


class Sizes:
    """Check the page on screen at each size; keep the problems to name them all."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.problems: list[str] = []
        self.axe = AXE.read_text(encoding="utf-8")
        SHOTS.mkdir(parents=True, exist_ok=True)

    def check(self, name: str, sizes: dict[str, tuple[int, int]], axe: bool = True) -> None:
        page = self.page
        for size, (width, height) in sizes.items():
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate(SETTLE)
            for out in page.evaluate(STICKS_OUT):
                self.problems.append(f"{name} at {size}: sticks out of the question: {out}")
            if page.evaluate("() => document.documentElement.scrollWidth > innerWidth + 1"):
                self.problems.append(f"{name} at {size}: the page scrolls sideways: "
                                     f"{page.evaluate(OVERFLOW)[:3]}")
            least = COARSE_TARGET if page.evaluate(
                "() => matchMedia('(pointer: coarse)').matches") else TARGET
            for small in page.evaluate(SMALL_TARGETS, least):
                self.problems.append(f"{name} at {size}: a target under {least} px: {small}")
            if axe:
                if not page.evaluate("() => Boolean(window.axe)"):
                    page.evaluate(self.axe)
                self.problems += [f"{name} at {size}: axe: {v}" for v in page.evaluate(AXE_ALL)]
            page.screenshot(path=str(SHOTS / f"{name}-{size}.png"), full_page=True)


def test_a_settlement_seat_is_one_row_on_tablets_and_phones(
        app: Flask, live_server: str, page: Any) -> None:
    require_axe()
    sizes = Sizes(page)
    assert page.evaluate("() => matchMedia('(pointer: coarse)').matches")
    sign_in(page, live_server)
    page.goto(f"{live_server}/drills/")
    sizes.check("drills", SIZES)
    page.click("[data-start='settlement-practice']")
    most = 0
    for position in range(1, 7):
        page.wait_for_selector(f"#question .q[data-position='{position}']")
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate(SETTLE)
            rows = page.evaluate(SEAT_ROWS)
            most = max(most, len(rows))
            tall = [h for h in rows if h > SEAT_ROW_MAX[size]]
            if tall:
                sizes.problems.append(f"settlement {position} at {size}: seat rows {rows} px "
                                      f"(at most {SEAT_ROW_MAX[size]})")
            if page.locator("#question table.settle-table.stacked").count() and size != "390x844":
                sizes.problems.append(f"settlement {position} at {size}: the seats are stacked cards")
        if position == 1:
            sizes.check("settlement", SIZES)
        # Every seat pushes: a quick answer to reach the next table.
        for row in page.locator("#question tr[data-seat]").all():
            row.locator("input[value=push]").check(force=True)
        page.click("#question [data-submit]")
        page.wait_for_selector("#feedback .verdict")
        if position == 1:
            sizes.check("settlement-feedback", {"768x1024": SIZES["768x1024"], "390x844": SIZES["390x844"]})
        page.set_viewport_size({"width": 768, "height": 1024})
        if position < 6:
            page.click("#next")
    assert most >= 4, f"no table of four seats or more in six questions ({most})"
    # The supervisor's printable report of those answers (mistakes of big tables): on one
    # Letter page as it says, and no wider than a phone.
    page.context.clear_cookies()
    sign_in(page, live_server, DEMO_SUPERVISOR[0], DEMO_SUPERVISOR[2], home="h1")
    with app.app_context():
        trainee_id = db.session.execute(
            db.select(User.id).filter_by(login=DEMO_TRAINEES[0][0])).scalar_one()
    page.goto(f"{live_server}/supervisor/trainees/{trainee_id}/report?period=all")
    page.wait_for_selector("#report-mistakes")
    sizes.check("report", {"390x844": SIZES["390x844"], "768x1024": SIZES["768x1024"]})
    page.emulate_media(media="print")
    letter = page.pdf(format="Letter", print_background=True)
    page.emulate_media(media="null")
    (SHOTS / "report-letter.pdf").write_bytes(letter)
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 720, "height": 960})  # Letter less 12 mm margins, at 96 dpi
    page.screenshot(path=str(SHOTS / "report-print-letter.png"), full_page=True)
    page.emulate_media(media="null")
    if pdf_pages(letter) != 1:
        sizes.problems.append(f"the report prints on {pdf_pages(letter)} Letter pages")
    assert sizes.problems == [], "\n".join(sizes.problems)


def test_a_round_s_settle_step_is_a_row_a_seat(app: Flask, live_server: str, page: Any) -> None:
    require_axe()
    sizes = Sizes(page)
    sign_in(page, live_server)
    page.goto(f"{live_server}/drills/")
    page.click("[data-start='round-practice']")
    session_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    for position in (1, 2):  # the action and the banker's hand, answered as drills.js would
        page.wait_for_selector(f"#question .q[data-position='{position}']")
        layout._answer(page, layout._issued(app, session_id, position), "round")
        page.click("#next")
    page.wait_for_selector("#question .q[data-position='3']")
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(SETTLE)
        rows = page.evaluate(SEAT_ROWS)
        assert rows, "no seat rows"
        tall = [h for h in rows if h > SEAT_ROW_MAX[size]]
        if tall:
            sizes.problems.append(f"round settle at {size}: seat rows {rows} px")
    sizes.check("round-settle", SIZES)
    assert sizes.problems == [], "\n".join(sizes.problems)


CLASS_SIZES = {"en": {k: SIZES[k] for k in ("768x1024", "834x1194", "1024x768", "390x844")},
               "ru": {"1024x768": (1024, 768), "1366x768": (1366, 768)}}

# The class table: a table (not cards), its trainee-name cells sticky at the left edge, the
# figures scrolling inside its own box; after scrolling the box, a name is still in view.
CLASS_TABLE = """() => {
  const table = document.querySelector("#overview-table");
  const box = table.closest(".class-table");
  const found = [];
  if (table.classList.contains("stacked") || getComputedStyle(table).display !== "table") {
    found.push("the class table is not a table");
  }
  const names = Array.from(table.querySelectorAll(".name-col"));
  if (!names.length || names.some((c) => getComputedStyle(c).position !== "sticky")) {
    found.push("the trainee names are not sticky");
  }
  const rows = Array.from(table.tBodies[0].rows);
  const tops = rows.map((r) => Math.round(r.getBoundingClientRect().height));
  if (tops.some((h) => h > 200)) found.push(`rows ${tops} px tall: a card per trainee?`);
  box.scrollLeft = box.scrollWidth;
  const name = table.tBodies[0].querySelector(".name-col").getBoundingClientRect();
  const edge = box.getBoundingClientRect();
  if (name.left < edge.left - 1 || name.right > edge.right + 1) found.push("the name scrolls away");
  box.scrollLeft = 0;
  return found;
}"""


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_class_table_stays_a_table_with_the_names_fixed(
        app: Flask, live_server: str, page: Any, lang: str) -> None:
    require_axe()
    from e2e.test_overview_fits_browser import _seed

    group_id = _seed(app, lang)
    sizes = Sizes(page)
    sign_in(page, live_server, DEMO_SUPERVISOR[0], DEMO_SUPERVISOR[2], home="h1")
    for query in ("", "?drill=settlement"):
        page.goto(f"{live_server}/supervisor/groups/{group_id}{query}")
        page.wait_for_selector(f"html[lang={lang}] #overview-table")
        for size, (width, height) in CLASS_SIZES[lang].items():
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate(SETTLE)
            sizes.problems += [f"{lang}{query} at {size}: {p}" for p in page.evaluate(CLASS_TABLE)]
        sizes.check(f"class-table-{lang}{query.replace('?drill=', '-')}", CLASS_SIZES[lang])
    assert sizes.problems == [], "\n".join(sizes.problems)


def test_a_skip_link_and_a_one_line_menu_at_1366_in_every_language(
        app: Flask, live_server: str, page: Any, make_user: Any) -> None:
    """The menu's links and the sign-out button on one line at 1366 (in English always;
    in a language whose words do not fit, folded behind the "Menu" button on a header of
    one line), for the trainee and the supervisor; the first Tab reaches a skip link that
    moves the focus to the page's content."""
    problems = []
    admin = make_user(role="admin", login="menu-admin")
    accounts = [(DEMO_TRAINEES[0][0], None, "#trainee-home", LANGUAGES),
                (DEMO_SUPERVISOR[0], DEMO_SUPERVISOR[2], "h1", LANGUAGES),
                (DEMO_MANAGER[0], DEMO_MANAGER[2], "h1", ("en",)),
                (admin.login, admin.password, "h1", ("en",))]
    for login, password, home, langs in accounts:
        page.context.clear_cookies()
        if password is None:
            sign_in(page, live_server)
        else:
            sign_in(page, live_server, login, password, home=home)
        for lang in langs:
            with app.app_context():
                user = db.session.execute(db.select(User).filter_by(login=login)).scalar_one()
                account_service.set_language(user.id, lang)
                db.session.commit()
            page.set_viewport_size({"width": 1366, "height": 768})
            page.goto(f"{live_server}/")
            page.wait_for_selector(f"html[lang={lang}]")
            page.evaluate(SETTLE)
            header = page.locator(".topbar").bounding_box()
            folded = page.locator(".topbar.menu-folded").count() == 1
            centres = page.evaluate("""() => Array.from(document.querySelectorAll(
                ".topbar .nav a, .topbar .logout button")).map((el) => {
                  const r = el.getBoundingClientRect(); return Math.round((r.top + r.bottom) / 2); })""")
            if folded:  # the compact menu: one line, the links behind the "Menu" button
                if not page.locator(".menu-button").is_visible() or header["height"] > 80:
                    problems.append(f"{login} in {lang}: the folded menu is not one line")
                if lang == "en":
                    widths = page.evaluate(MENU_WIDTHS)
                    problems.append(f"{login} in English: the menu folds at 1366: {widths}")
            elif max(centres) - min(centres) > 4 or header["height"] > 80:
                problems.append(f"{login} in {lang}: the menu takes more than a line at 1366 "
                                f"({header['height']} px)")
            page.screenshot(path=str(SHOTS / f"menu-{lang}-{login}-1366.png"))
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.className") != "skip-link":
                problems.append(f"{login} in {lang}: the first Tab is not the skip link")
            page.keyboard.press("Enter")
            if page.evaluate("document.activeElement.id") != "content":
                problems.append(f"{login} in {lang}: the skip link does not reach the content")
    assert problems == [], "\n".join(problems)


# A phone in every language: the settlement table inside its panel, each result button's
# word on one line (never "Проигр-ыш"), no button cut off.
SETTLE_FITS = """() => {
  const found = [];
  const box = document.querySelector("#question");
  const table = box.querySelector("table.settle-table");
  const edge = box.getBoundingClientRect();
  const t = table.getBoundingClientRect();
  if (t.right > edge.right + 1) {
    found.push(`the seat table is ${Math.round(t.width)} px in a ${Math.round(edge.width)} px panel`);
  }
  for (const span of box.querySelectorAll(".segmented span")) {
    const word = span.firstChild;
    const range = document.createRange();
    range.selectNodeContents(word);
    const lines = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
    const r = span.getBoundingClientRect();
    if (lines.size > 1) found.push(`"${word.textContent.trim()}" breaks over ${lines.size} lines`);
    if (r.right > edge.right + 1 || span.scrollWidth > span.clientWidth + 1) {
      found.push(`"${word.textContent.trim()}" is cut off`);
    }
  }
  return found.slice(0, 6);
}"""

# The player's chips: each amount inside its chip, no two chips overlapping.
CHIPS_FIT = """() => {
  const found = [];
  const chips = Array.from(document.querySelectorAll("[data-chip]"));
  chips.forEach((chip, i) => {
    const c = chip.getBoundingClientRect();
    const face = chip.querySelector(".chip-face");
    const f = face ? face.getBoundingClientRect() : c;
    if (!face || f.left < c.left + 2 || f.right > c.right - 2) {
      found.push(`chip ${chip.dataset.chip}: "${chip.textContent.trim()}" wider than its chip`);
    }
    const next = chips[i + 1];
    if (next && next.getBoundingClientRect().left < c.right - 1) {
      found.push(`chips ${chip.dataset.chip} and ${next.dataset.chip} overlap`);
    }
  });
  return found;
}"""

# A stacked table's cells: the value in its own column, no line of it under the label.
STACKED_VALUES = """() => {
  const found = [];
  for (const cell of document.querySelectorAll("table.stacked [data-label]")) {
    if (!cell.textContent.trim() || getComputedStyle(cell, "::before").content === "none") continue;
    const range = document.createRange();
    range.selectNodeContents(cell);
    const left = cell.getBoundingClientRect().left;
    const lines = Array.from(range.getClientRects()).filter((r) => r.width > 0);
    if (lines.some((r) => r.left < left + 40)) {
      found.push(`"${cell.dataset.label}: ${cell.textContent.trim().slice(0, 24)}" runs under its label`);
    }
  }
  return found.slice(0, 4);
}"""


def test_a_phone_fits_the_settlement_buttons_the_chips_and_stacked_values_in_every_language(
        app: Flask, live_server: str, page: Any) -> None:
    """Issue 26 leftovers at 390x844: the settlement table inside its panel with each result
    word on one line ("Perde", "Проигрыш"); the player's chips show a bare number (the sign
    once above them) inside each chip; a stacked table's wrapped value stays in its column."""
    problems: list[str] = []
    sign_in(page, live_server)
    page.set_viewport_size({"width": 390, "height": 844})
    with app.app_context():
        trainee = db.session.execute(db.select(User).filter_by(login=DEMO_TRAINEES[0][0])).scalar_one()
    for lang in LANGUAGES:
        with app.app_context():
            account_service.set_language(trainee.id, lang)
            db.session.commit()
        page.goto(f"{live_server}/drills/")
        page.wait_for_selector(f"html[lang={lang}]")
        page.click("[data-start='settlement-practice']")
        page.wait_for_selector("#question .q[data-position='1']")
        page.evaluate(SETTLE)
        problems += [f"settlement in {lang}: {p}" for p in page.evaluate(SETTLE_FITS)]
        problems += [f"settlement in {lang}: sticks out: {p}" for p in page.evaluate(STICKS_OUT)]
        page.screenshot(path=str(SHOTS / f"settlement-390x844-{lang}.png"), full_page=True)
        for row in page.locator("#question tr[data-seat]").all():
            row.locator("input[value=push]").check(force=True)
        page.click("#question [data-submit]")
        page.wait_for_selector("#feedback .verdict")
        page.goto(f"{live_server}/play/")
        page.wait_for_selector("#play[data-loaded]", state="attached")
        page.evaluate(SETTLE)
        problems += [f"play in {lang}: {p}" for p in page.evaluate(CHIPS_FIT)]
        page.screenshot(path=str(SHOTS / f"play-390x844-{lang}.png"), full_page=True)
        page.goto(f"{live_server}/results")
        page.evaluate(SETTLE)
        if not page.locator("table.stacked").count():
            problems.append(f"results in {lang}: no stacked table at 390")
        problems += [f"results in {lang}: {p}" for p in page.evaluate(STACKED_VALUES)]
        page.screenshot(path=str(SHOTS / f"results-390x844-{lang}.png"), full_page=True)
    assert problems == [], "\n".join(problems)
