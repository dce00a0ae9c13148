"""Every drill kind answered wrong on purpose in Chromium, at the training room's four sizes
(issue 16, "Must show": feedback that names the trainee's wrong value and the right one).

One browser, one server and one sign-in; one page per size (1366x768, 1024x768,
768x1024, 390x844). At each size every kind in the drill registry is started in
practice and one question (each step of a stepped kind) is answered wrong the way
the trainee would: a seat or a choice clicked, the front cards picked, a settlement
table or a bonus marked and its amounts typed, a round's seats taken and paid in
order. An answer the page cannot take that way (a side bet's amounts, a kind added
later) is sent by the page's own ``PaiGow.post`` and shown as drills.js shows it. The wrong answers
and the words their feedback must name come from tests/web/wrong_answers.py (worked
out from the question and its key, not from the feedback code). The feedback's
visible text must name both, hold no JSON and no raw rule id (ids only in title
attributes), and nothing on the page may scroll sideways. A screenshot of each
feedback goes to ``$E2E_ARTIFACTS/layouts`` (default test-artifacts/layouts/), beside
the layout test's.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from e2e.conftest import sign_in
from e2e.test_layout_browser import OVERFLOW, SETTLE, SHOTS, VIEWPORTS
from trainer.engine.drills import DRILLS, DrillContext
from trainer.extensions import db
from trainer.models import IssuedQuestion
from trainer.services import drills as drill_service

if "web" not in sys.modules:
    # tests/web is not collected in this run (pytest imports test packages by file,
    # --import-mode=importlib): load its package from its folder to share its helpers.
    _WEB = Path(__file__).resolve().parents[1] / "web"
    _spec = importlib.util.spec_from_file_location(
        "web", _WEB / "__init__.py", submodule_search_locations=[str(_WEB)])
    assert _spec is not None and _spec.loader is not None
    sys.modules["web"] = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(sys.modules["web"])

from web.wrong_answers import JSON_TEXT, no_json_and_no_rule_id, wrong_answer

pytestmark = pytest.mark.e2e

# Send an answer as drills.js does (its POST, then the reply's feedback shown and the
# question's controls shut): for answers typed into a table rather than clicked.
POST_ANSWER = """async (answer) => {
  const root = document.getElementById("drill");
  const box = document.querySelector("#question .q");
  const reply = await window.PaiGow.post(root.dataset.answerUrl,
    {position: Number(box.dataset.position), answer: answer});
  if (!reply.ok) { throw new Error(reply.data.message || String(reply.status)); }
  document.querySelectorAll("#question button, #question input")
    .forEach((el) => { el.disabled = true; });
  document.getElementById("feedback").innerHTML = reply.data.html;
  document.getElementById("next-bar").hidden = false;
  document.getElementById("next").hidden = reply.data.finished;
  document.getElementById("to-summary").hidden = !reply.data.finished;
}"""

# The choice button whose answer is this one (hand names, outcomes, fouled or legal).
CHOICE_FOR = """(answer) => {
  const canon = (v) => (v && typeof v === "object" && !Array.isArray(v))
    ? "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + canon(v[k])).join(",") + "}"
    : Array.isArray(v) ? "[" + v.map(canon).join(",") + "]" : JSON.stringify(v);
  const buttons = Array.from(document.querySelectorAll("#question .choice[data-answer]"));
  return buttons.findIndex((b) => canon(JSON.parse(b.dataset.answer)) === canon(answer));
}"""


@pytest.fixture
def demo_settings() -> dict[str, Any]:
    """One question of each drill kind (one round of a stepped kind) per session."""
    return {"drills": {slug: {"length": max(1, len(drill.steps))} for slug, drill in DRILLS.items()}}


def _issued(app: Flask, session_id: int, position: int) -> tuple[dict[str, Any], DrillContext]:
    with app.app_context():
        row = db.session.execute(
            db.select(IssuedQuestion).filter_by(session_id=session_id, position=position)
        ).scalar_one()
        return dict(row.question), DrillContext.from_dict(row.context)


def _typed(cents: int) -> str:
    """An amount as a dealer types it: 47.50."""
    return f"{cents // 100}.{cents % 100:02d}"


def _answer_in_page(page: Any, answer: dict[str, Any]) -> str:
    """Give ``answer`` in the page: click it where the page has it, else post it; say how."""
    if set(answer) == {"seat"} and page.locator(f"#question [data-seat='{answer['seat']}']").count():
        page.click(f"#question button[data-seat='{answer['seat']}']")
        return "clicked the seat"
    if set(answer) == {"front"} and page.locator("#question [data-hand]").count():
        for card in answer["front"]:
            page.click(f"#question [data-hand] [data-card='{card}']")
        page.click("#question [data-submit]")
        return "picked the front"
    if set(answer) == {"positions"} and not page.locator("#question [data-bonus-paid], "
                                                        "#question [data-envy-paid]").count():
        rows = page.locator("#question tr[data-seat]")
        for i, position in enumerate(answer["positions"]):
            row = rows.nth(i)
            row.locator(f"[data-outcome][value='{position['outcome']}']").check()
            if position["outcome"] == "win":
                row.locator("[data-paid]").fill(_typed(position["paid_cents"]))
        page.click("#question [data-settle] [data-submit]")
        return "typed the table"
    if set(answer) == {"qualifies", "category", "paid_cents"}:
        form = page.locator("#question [data-bonus-form]")
        form.locator(f"[data-qualifies][value='{'yes' if answer['qualifies'] else 'no'}']").check()
        form.locator(f"[data-category][value='{answer['category']}']").check()
        form.locator("[data-paid]").fill(_typed(answer["paid_cents"]))
        form.locator("[data-submit]").click()
        return "typed the bonus"
    if "order" in answer and set(answer) <= {"order", "banker_commission_cents"} \
            and not page.locator("#question [data-bonus-paid]").count():
        panel = page.locator("#question [data-round-settle]")
        for entry in answer["order"]:
            seat = entry["seat"]
            if entry["action"] == "take":
                panel.locator(f"[data-take='{seat}']").click()
            else:
                panel.locator(f"[data-pay-amount='{seat}']").fill(_typed(entry["paid_cents"]))
                panel.locator(f"[data-pay='{seat}']").click()
        if "banker_commission_cents" in answer:
            panel.locator("[data-banker-commission]").fill(_typed(answer["banker_commission_cents"]))
        panel.locator("[data-submit]").click()
        return "settled in order"
    index = page.evaluate(CHOICE_FOR, answer)
    if index >= 0:
        page.locator("#question .choice[data-answer]").nth(index).click()
        return "clicked the choice"
    page.evaluate(POST_ANSWER, answer)
    return "posted"


def _feedback_problems(page: Any, expected: list[str], rule_id: str | None) -> list[str]:
    """What is wrong with the feedback on screen (empty when it names both answers in words)."""
    found = []
    text = page.inner_text("#feedback")
    sentence = " ".join(page.inner_text("#feedback .verdict-sentence").split())
    if not expected:
        found.append("no expected words for this kind (add it to tests/web/wrong_answers.py)")
    for words in expected:
        if words not in " ".join(text.split()):
            found.append(f"does not say {words!r}: {sentence!r}")
    json_text = JSON_TEXT.search(text)
    if json_text:
        found.append(f"shows JSON: {json_text.group(0)!r}")
    try:
        no_json_and_no_rule_id(page.inner_html("#feedback"), [rule_id] if rule_id else [])
    except AssertionError as error:
        found.append(f"rule id or JSON outside a tooltip: {str(error)[:200]}")
    return found


def test_every_kind_answered_wrong_names_both_answers_at_every_size(
        app: Flask, live_server: str, browser_context: Any) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    errors: list[str] = []
    signed_in = False
    played: list[str] = []
    for size, (width, height) in VIEWPORTS.items():
        page = browser_context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.set_viewport_size({"width": width, "height": height})
        if not signed_in:
            sign_in(page, live_server)
            signed_in = True
        for kind, drill in DRILLS.items():
            page.goto(f"{live_server}/drills/")
            page.click(f"[data-start='{kind}-practice']")
            page.wait_for_selector("#question .q")
            session_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
            steps = drill.steps or ("question",)
            for position, step in enumerate(steps, start=1):
                name = f"wrong-{kind}-{step}-{size}"
                page.wait_for_selector(f"#question .q[data-position='{position}']")
                question, context = _issued(app, session_id, position)
                key = drill_service.answer_key(question, context)
                answer, expected = wrong_answer(kind, question, key, context)
                with page.expect_response(lambda r: r.url.endswith("/answer")) as sent:
                    how = _answer_in_page(page, answer)
                reply = sent.value.json()
                page.wait_for_selector("#feedback .verdict-sentence")
                page.evaluate(SETTLE)
                if reply.get("correct") is not False:
                    problems.append(f"{name}: the wrong answer ({how}) was graded right")
                problems += [f"{name} ({how}): {p}"
                             for p in _feedback_problems(page, expected, reply.get("rule_id"))]
                problems += [f"{name}: scrolls sideways: {p}" for p in page.evaluate(OVERFLOW)]
                page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
                sentence = " ".join(page.inner_text("#feedback .verdict-sentence").split())
                played.append(f"{name}: {how}: {sentence}")
                if position < len(steps):
                    page.click("#next")
        page.close()
    (SHOTS / "wrong-answers.txt").write_text("\n".join([*played, "", *problems]) + "\n",
                                           encoding="utf-8")
    steps_per_size = sum(max(1, len(d.steps)) for d in DRILLS.values())
    assert len(played) == steps_per_size * len(VIEWPORTS)
    assert not errors, errors
    assert problems == [], f"{len(problems)} problems:\n" + "\n".join(problems)

