"""Every page at the training room's four screen sizes: nothing scrolls sideways, axe-core
finds no violation (whatever its impact), and a screenshot of each is saved.

One journey (one server, one browser) visits each page once and checks it at
1366x768, 1024x768, 768x1024 and 390x844 by resizing the window: every drill kind
in the registry (its question and its feedback, each step of a stepped kind), the
summaries and results, the player's game, the reference pages, the trainee's,
supervisor's and admin's pages, the manager's house-way editor (a copy of Trump Plaza
changed, checked once for real, compared, simulated, published; its version, sheet and
look-up; a supervisor offered it), and the sign-in page. axe-core comes from npm
(tests/e2e/package.json, installed in tests/e2e/node_modules by `npm ci`) and is
evaluated into each page from that local file. Screenshots go to
``$E2E_ARTIFACTS/layouts`` (default test-artifacts/layouts/).
"""
from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from e2e.conftest import ARTIFACTS, sign_in
from trainer.cli.accounts import DEMO_GROUP, DEMO_MANAGER, DEMO_SUPERVISOR, DEMO_TRAINEES
from trainer.engine.drills.base import DRILLS
from trainer.extensions import db
from trainer.models import Attempt, CustomHouseWay, Group, IssuedQuestion, User
from trainer.services import house_way_jobs, jobs

pytestmark = pytest.mark.e2e

VIEWPORTS = {
    "1366x768": (1366, 768),   # a desktop in the supervisor's office
    "1024x768": (1024, 768),   # a tablet in landscape
    "768x1024": (768, 1024),   # a tablet in portrait
    "390x844": (390, 844),     # a phone
}
AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = Path(os.environ.get("E2E_ARTIFACTS") or ARTIFACTS) / "layouts"

# Every element whose content is wider than its box: a page or a box that scrolls (or
# clips) sideways. Left out: visually hidden text and what is inside it (clipped to
# a pixel for screen readers on purpose, as a stacked table's header row), the
# shapes inside an SVG chart (they cannot scroll; the <svg> itself is checked) and a
# text input's value (a long link or rule name scrolls inside the input, which fits), a
# closed select's chosen option (cut to the select's box; its list opens at full width) and
# a region made to scroll, focusable and named (the class table; what is inside it is checked).
OVERFLOW = """() => {
  const found = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + 1) {
    found.push(`the page: ${root.scrollWidth} > ${root.clientWidth}`);
  }
  for (const el of document.body.querySelectorAll("*")) {
    if (el.scrollWidth <= el.clientWidth + 1 || el.clientWidth === 0 || el.ownerSVGElement) continue;
    if (el.tagName === "INPUT") continue;  // a long value scrolls inside its own box, by design
    // A closed select shows its chosen option cut to its box (the list opens in a popup at
    // full width); Chromium 150 reports the longest option as its scrollWidth. A select wider
    // than its container is still found: the container scrolls.
    if (el.tagName === "SELECT") continue;
    // A region made to scroll sideways, focusable and named (the class table, issue 26).
    if (el.matches('[role="region"][tabindex="0"][aria-labelledby]')) continue;
    let clipped = false;
    for (let a = el; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).clip !== "auto") { clipped = true; break; }
    }
    if (clipped || el.getBoundingClientRect().width <= 1) continue;
    let name = el.tagName.toLowerCase();
    if (el.id) name += "#" + el.id;
    if (el.classList.length) name += "." + Array.from(el.classList).join(".");
    found.push(`${name}: ${el.scrollWidth} > ${el.clientWidth}`);
  }
  return found;
}"""

# Two frames: the resize handlers (lib.js fits the tables) run, then the layout settles.
SETTLE = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"

# The seats of a call-the-action table: no two overlap, none sticks out of the table.
SEATS_APART = """() => {
  const found = [];
  const table = document.querySelector(".table-diagram");
  if (!table) return found;
  const box = table.getBoundingClientRect();
  const seats = Array.from(table.querySelectorAll("[data-seat]"))
    .map((s) => [s.dataset.seat, s.getBoundingClientRect()]);
  for (const [seat, r] of seats) {
    if (r.left < box.left - 1 || r.right > box.right + 1 ||
        r.top < box.top - 1 || r.bottom > box.bottom + 1) {
      found.push(`seat ${seat} sticks out of the table`);
    }
  }
  for (let i = 0; i < seats.length; i++) {
    for (let j = i + 1; j < seats.length; j++) {
      const [a, p] = seats[i], [b, q] = seats[j];
      if (p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom) {
        found.push(`seats ${a} and ${b} overlap`);
      }
    }
  }
  return found;
}"""

# On a desktop the group overview is a table a supervisor reads across, not cards.
OVERVIEW_IS_A_TABLE = """() => window.innerWidth >= 1366 &&
  document.querySelector("#overview-table.stacked") ? ["the overview is stacked at 1366"] : []"""

# Every violation, whatever its impact (issue 26: zero on every page at every size).
AXE_RUN = """async () => {
  const result = await window.axe.run(document, {resultTypes: ["violations"]});
  return result.violations
    .map((v) => `${v.id} (${v.impact}): ${v.help} -- ` +
         v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | "));
}"""


@pytest.fixture
def demo_settings() -> dict[str, Any]:
    """One question of each drill kind (one unit of a stepped kind) per session."""
    return {"drills": {slug: {"length": max(1, len(drill.steps))} for slug, drill in DRILLS.items()}}


class Checker:
    """Check pages at every size; collect the problems, so one run names them all."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.axe = AXE.read_text(encoding="utf-8")
        self.problems: list[str] = []
        self.checked: list[str] = []
        SHOTS.mkdir(parents=True, exist_ok=True)
        (SHOTS / "problems.txt").write_text("", encoding="utf-8")

    def __call__(self, name: str, extra: str | None = None) -> None:
        """Check the page on screen at every size (and ``extra``, a script naming problems)."""
        page = self.page
        page.wait_for_load_state("load")
        for size, (width, height) in VIEWPORTS.items():
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate(SETTLE)
            for found in page.evaluate(OVERFLOW):
                self.problems.append(f"{name} at {size}: scrolls sideways: {found}")
            page.screenshot(path=str(SHOTS / f"{name}-{size}.png"), full_page=True)
            if not page.evaluate("() => Boolean(window.axe)"):
                page.evaluate(self.axe)
            for found in page.evaluate(extra) if extra else []:
                self.problems.append(f"{name} at {size}: {found}")
            for violation in page.evaluate(AXE_RUN):
                self.problems.append(f"{name} at {size}: axe: {violation}")
        page.set_viewport_size({"width": 1366, "height": 768})
        self.checked.append(name)

    @contextmanager
    def part(self, name: str) -> Iterator[None]:
        """Run one part of the journey; a failure is noted and the journey goes on to the next."""
        try:
            yield
        except Exception as error:  # reported with the rest, at the end
            self.problems.append(f"{name}: {type(error).__name__}: {str(error).splitlines()[0]}")


def _issued(app: Flask, session_id: int, position: int) -> dict[str, Any]:
    with app.app_context():
        row = db.session.execute(
            db.select(IssuedQuestion).filter_by(session_id=session_id, position=position)
        ).scalar_one()
        return {**row.question, "_context": row.context}


def _answer(page: Any, question: dict[str, Any], kind: str) -> None:
    """Answer the question on screen with the drill's probe answer, as drills.js would send it."""
    question.pop("_context")
    drill = DRILLS[kind]
    typed = drill.read_question({k: v for k, v in question.items() if k != "context"})
    answer = drill.answer_json(drill.probe(typed))
    page.evaluate(
        """async (answer) => {
          const root = document.getElementById("drill");
          const box = document.querySelector("#question .q");
          const reply = await window.PaiGow.post(root.dataset.answerUrl,
            {position: Number(box.dataset.position), answer: answer});
          if (!reply.ok) { throw new Error(JSON.stringify(reply.data)); }
          document.querySelectorAll("#question button, #question input")
            .forEach((el) => { el.disabled = true; });
          document.getElementById("feedback").innerHTML = reply.data.html;
          document.getElementById("next-bar").hidden = false;
          document.getElementById("next").hidden = reply.data.finished;
          document.getElementById("to-summary").hidden = !reply.data.finished;
        }""",
        answer,
    )


def _drills(app: Flask, page: Any, base: str, check: Checker) -> None:
    """Each kind in the registry: its question and its feedback (every step of a stepped kind)."""
    for kind, drill in DRILLS.items():
        page.goto(f"{base}/drills/")
        page.click(f"[data-start='{kind}-practice']")
        page.wait_for_selector("#question .q")
        session_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
        steps = drill.steps or ("question",)
        for position, step in enumerate(steps, start=1):
            page.wait_for_selector(f"#question .q[data-position='{position}']")
            check(f"drill-{kind}-{step}", SEATS_APART)
            _answer(page, _issued(app, session_id, position), kind)
            page.wait_for_selector("#feedback .verdict, #feedback > *")
            check(f"drill-{kind}-{step}-feedback")
            if position < len(steps):
                page.click("#next")
        page.click("#to-summary")
        page.wait_for_load_state("load")
        check(f"drill-{kind}-summary")


def _visit(page: Any, check: Checker, base: str, pages: dict[str, str]) -> None:
    """Open each page by its address and check it."""
    for name, path in pages.items():
        with check.part(name):
            page.goto(f"{base}{path}")
            check(name)


# The manager's way: a copy of Trump Plaza whose rule 3.3 splits (Low + High or Medium +
# Medium with an ace), checked once (the real check of every hand, 10 to 20 s), compared
# with Trump Plaza, its edge simulated on the fewest deals the form takes, published, and
# then seen where a supervisor and a trainee meet it.
WAY_SLUG = "layout-sands"
WAY_REF = f"{WAY_SLUG}@1"
# Medium + Medium with an ace: Trump Plaza keeps it together, the copy splits it.
COMPARE_CARDS = "9c 9d 7h 7s Ac 5d 2h"

# The check's hands per rule: a rule's name is never squeezed into a narrow column.
RULE_NAMES_READABLE = """() => Array.from(document.querySelectorAll(".rule-hands td:first-child"))
  .filter((td) => td.getBoundingClientRect().width < 160).slice(0, 1)
  .map((td) => `a rule's name is squeezed to ${Math.round(td.getBoundingClientRect().width)}px`)"""


def _manager(app: Flask, page: Any, check: Checker, base: str) -> None:
    """The manager's editor pages, from copying a preset to a published version."""
    login, _name, password = DEMO_MANAGER
    sign_in(page, base, login, password, home="h1")
    _visit(page, check, base, {"way-copy": "/manager/house-ways/copy?from=trump-plaza"})
    page.fill("#slug", WAY_SLUG)
    page.fill("#casino", "Golden Sands, Reno")
    page.click("button:has-text('Copy and edit')")
    page.wait_for_selector("#way-title")
    with app.app_context():
        way_id = db.session.execute(
            db.select(CustomHouseWay.id).filter_by(slug=WAY_SLUG)).scalar_one()
        manager_id = db.session.execute(db.select(User.id).filter_by(login=login)).scalar_one()
    editor = f"/manager/house-ways/{way_id}"
    _visit(page, check, base, {"way-rule-edit": f"{editor}/sections/3/rules/3/edit"})
    page.select_option("#kind", "two-pair.split")
    page.fill("#short", "Two pair, Low + High or Medium + Medium, ace: split")
    page.fill("#text", "Low + High, or Medium + Medium, with an ace singleton: split.")
    page.fill("#explain", "Two pair, {high_pair} and {low_pair}, with an ace: split, "
                          "{low_pair} in front")
    page.click("button:has-text('Save rule')")
    page.wait_for_selector("#way-title")
    # The one check of the run, through the app's job service (inline in tests), in a
    # thread while the browser looks at the other editor pages.
    checked: list[Any] = []

    def run_check() -> None:
        with app.app_context():
            data = dict(db.session.get(CustomHouseWay, way_id).draft)
            job = house_way_jobs.start_check(data, manager_id, runner=app.extensions[jobs.EXTENSION])
            checked.append((job.status, job.error))

    checking = threading.Thread(target=run_check, daemon=True)
    checking.start()
    _visit(page, check, base, {
        "way-editor": editor,
        "way-rule-new": f"{editor}/sections/3/rules/new?at=3",
        "way-import": "/manager/house-ways/import",
    })
    checking.join(timeout=600)
    with check.part("way-check"):
        assert checked == [(jobs.DONE, None)], checked
        page.goto(f"{base}{editor}/check")
        page.wait_for_selector("#check-report")
        check("way-check", RULE_NAMES_READABLE)
    with check.part("way-changes"):
        page.goto(f"{base}{editor}/changes")
        page.click("button:has-text('Work out what it changes')")
        page.wait_for_selector("#diff-report")
        check("way-changes")
    with check.part("way-edge"):
        page.goto(f"{base}{editor}/edge")
        page.fill("#deals", "10,000")
        page.click("button:has-text('Simulate')")
        page.wait_for_selector("#edge-report")
        check("way-edge")
    with check.part("way-publish"):
        page.goto(f"{base}{editor}")
        page.fill("#note", "Medium + Medium with an ace: split")
        page.click("button:has-text('Publish as the next version')")
        page.wait_for_selector("#versions a:has-text('Version 1')")
    _visit(page, check, base, {
        "manager-house-ways": "/manager/house-ways",
        "way-version": f"{editor}/versions/1",
        "custom-sheet": f"/house-way/{WAY_REF}",
        "custom-look-up": f"/house-way/look-up?preset={WAY_REF}&cards={COMPARE_CARDS}&compare=1",
    })
    page.click("button:has-text('Sign out')")


def require_axe() -> None:
    """Skip without axe-core on a developer's machine; in CI (which installs it) fail."""
    if not AXE.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{AXE} is missing; .ci/run installs it (cd tests/e2e && npm ci)")
        pytest.skip("axe-core is missing: cd tests/e2e && npm ci")


def test_every_page_fits_every_screen_and_passes_axe(
    app: Flask, live_server: str, browser_context: Any, make_user: Any
) -> None:
    require_axe()
    admin = make_user(role="admin", login="layout-admin")
    page = browser_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    check = Checker(page)
    base = live_server
    _visit(page, check, base, {"login": "/auth/login"})

    # The trainee: every drill, the results, the player's game, the reference pages.
    sign_in(page, base)
    with check.part("drills"):
        _drills(app, page, base, check)
    with app.app_context():
        trainee = db.session.execute(db.select(User).filter_by(login=DEMO_TRAINEES[0][0])).scalar_one()
        attempts = {a.kind: a.id for a in db.session.execute(
            db.select(Attempt).filter_by(user_id=trainee.id)).scalars()}
        trainee_id = trainee.id
        group_id = db.session.execute(db.select(Group.id).filter_by(name=DEMO_GROUP)).scalar_one()
    assert set(attempts) == set(DRILLS)
    _visit(page, check, base, {
        "trainee-home": "/", "drills": "/drills/", "results": "/results",
        **{f"result-{kind}": f"/results/{attempt_id}" for kind, attempt_id in attempts.items()},
        "house-way-sheet": "/house-way", "commission-chart": "/commission-chart",
        "look-up": "/house-way/look-up", "password": "/auth/password",
    })
    with check.part("play"):
        page.goto(f"{base}/play/")
        page.wait_for_selector("#deal")
        check("play-betting")
        page.click("[data-chip='500']")
        page.click("#bet-circle")
        page.click("#deal")
        page.wait_for_selector("#house-way:not([disabled])")
        check("play-dealt")
        page.click("#house-way")
        page.wait_for_selector("#play-result")
        check("play-result")
    page.click("button:has-text('Sign out')")

    # The supervisor: home, the group overview, the trainee page, replays, the report, settings.
    sign_in(page, base, DEMO_SUPERVISOR[0], DEMO_SUPERVISOR[2], home="h1")
    _visit(page, check, base, {
        "supervisor-home": "/", "supervisor-groups": "/supervisor/",
        "trainee-page": f"/supervisor/trainees/{trainee_id}",
        **{f"replay-{kind}": f"/supervisor/attempts/{attempt_id}/replay"
           for kind, attempt_id in attempts.items()},
        "report": f"/supervisor/trainees/{trainee_id}/report",
        "group-settings": f"/supervisor/groups/{group_id}/edit",
        "new-trainee": "/supervisor/trainees/new", "new-group": "/supervisor/groups/new",
        "reset-password": f"/supervisor/trainees/{trainee_id}/password",
    })
    for query in ("", "?drill=settlement"):
        with check.part(f"group-overview{query}"):
            page.goto(f"{base}/supervisor/groups/{group_id}{query}")
            check("group-overview" + query.replace("?drill=", "-"), OVERVIEW_IS_A_TABLE)
    page.click("button:has-text('Sign out')")

    # The admin.
    sign_in(page, base, admin.login, admin.password, home="h1")
    _visit(page, check, base, {
        "admin-home": "/", "admin-accounts": "/admin/users", "admin-audit": "/admin/audit",
        "admin-new-supervisor": "/admin/supervisors/new",
    })
    page.click("button:has-text('Sign out')")

    # The manager's house-way editor; then a supervisor offered the published version.
    _manager(app, page, check, base)
    sign_in(page, base, DEMO_SUPERVISOR[0], DEMO_SUPERVISOR[2], home="h1")
    with check.part("group-settings-custom-way"):
        page.goto(f"{base}/supervisor/groups/{group_id}/edit")
        page.select_option("#house_way", WAY_REF)  # offered, and shown chosen
        check("group-settings-custom-way")

    report = "\n".join(check.problems)
    (SHOTS / "problems.txt").write_text(report + "\n", encoding="utf-8")
    assert not errors, errors
    assert check.problems == [], f"{len(check.problems)} problems:\n{report}"
