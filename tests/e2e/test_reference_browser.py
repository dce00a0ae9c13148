"""The house-way sheets and the commission chart print in Chromium; the look-up by clicking cards.

Each PDF and a PNG of its first page are kept in test-artifacts/ for a person to look at.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from e2e.conftest import ARTIFACTS as BASE_ARTIFACTS
from e2e.conftest import sign_in
from trainer.engine.cards import card_list
from trainer.engine.house_way import load, preset_names

ARTIFACTS = BASE_ARTIFACTS / "reference"
# The printable area of each paper at 96 CSS pixels an inch (print.css: 10 mm by 11 mm
# margins), for the PNG of page one and the overflow check.
PAPERS = {"Letter": (816 - 83, 1056 - 76), "A4": (794 - 83, 1123 - 76)}
_PAGE = re.compile(rb"/Type\s*/Page(?![A-Za-z])")

# In print: the smallest text on the page, and any text that is not black.
PRINT_AUDIT = """() => {
  const small = [], coloured = [];
  for (const el of document.querySelectorAll("body *")) {
    const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || el.getClientRects().length === 0) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden") continue;
    if (parseFloat(style.fontSize) < 12) small.push(el.className + " " + style.fontSize);
    if (style.color !== "rgb(0, 0, 0)") coloured.push(el.className + " " + style.color);
  }
  const nav = document.querySelector(".topbar");
  const rules = Array.from(document.querySelectorAll(".sheet-rule"));
  return {small, coloured, navShown: !!nav && nav.getClientRects().length > 0,
          rulesKeptWhole: rules.every(r => getComputedStyle(r).breakInside === "avoid"),
          background: getComputedStyle(document.body).backgroundColor};
}"""

pytestmark = pytest.mark.e2e


def pdf_pages(pdf: bytes) -> int:
    """Count the page objects of a PDF (Chromium writes no object streams)."""
    return len(_PAGE.findall(pdf))


@pytest.fixture
def context_options() -> dict[str, Any]:
    """A desktop-sized window for the sheets."""
    return {"viewport": {"width": 1180, "height": 820}}


@pytest.fixture
def page(serve: str, browser_context: Any, trainee: Any) -> Iterator[Any]:
    """Yield a page signed in as a trainee."""
    page = browser_context.new_page()
    sign_in(page, serve, trainee.login, trainee.password, home="#trainee-home")
    yield page


@pytest.fixture
def live_server(serve: str) -> str:
    """The served app (no demo accounts: the page signs in as a test trainee)."""
    return serve


def print_and_keep(page: Any, name: str) -> dict[str, int]:
    """Print the open page on US letter and A4; keep the PDFs and a PNG of page one.

    Also check that nothing is wider than the paper's printable area.
    """
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pages = {}
    for paper, (width, height) in PAPERS.items():
        path = ARTIFACTS / f"{name}-{paper.lower()}.pdf"
        pdf = page.pdf(path=str(path), format=paper, print_background=True)
        pages[paper] = pdf_pages(pdf)
        page.emulate_media(media="print")
        page.set_viewport_size({"width": width, "height": height})
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{name} is {overflow}px wider than {paper}"
        page.screenshot(path=str(ARTIFACTS / f"{name}-{paper.lower()}-page1.png"))
        page.emulate_media(media="null")
    page.set_viewport_size({"width": 1180, "height": 820})
    return pages


def audit_print(page: Any) -> dict[str, Any]:
    """Return the print-media audit of the open page."""
    page.emulate_media(media="print")
    try:
        return page.evaluate(PRINT_AUDIT)
    finally:
        page.emulate_media(media="null")


@pytest.mark.parametrize("preset", preset_names())
def test_each_sheet_prints_on_at_most_two_pages(live_server: str, page: Any, preset: str) -> None:
    page.goto(f"{live_server}/house-way/{preset}")
    assert page.is_visible("button:has-text('Print')"), "the script shows the Print button"
    assert page.locator(".sheet-rule").count() == len(load(preset).rules)

    audit = audit_print(page)
    assert audit["small"] == [], "nothing under 9 pt"
    assert audit["coloured"] == [], "black on white"
    assert audit["background"] in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)")
    assert not audit["navShown"], "no navigation on paper"

    assert audit["rulesKeptWhole"], "a rule is never split across pages"

    pages = print_and_keep(page, f"house-way-{preset}")
    assert all(1 <= n <= 2 for n in pages.values()), pages


@pytest.mark.parametrize("profile", ["nevada", "california"])
def test_commission_chart_prints_on_one_page(live_server: str, page: Any, profile: str) -> None:
    page.goto(f"{live_server}/commission-chart?profile={profile}")
    assert page.locator(".chart-table tbody tr").count() == 99  # $2 to $100 (issue 26)
    audit = audit_print(page)
    assert audit["small"] == []
    assert audit["coloured"] == []
    assert not audit["navShown"]
    pages = print_and_keep(page, f"commission-chart-{profile}")
    assert pages == {"Letter": 1, "A4": 1}


def test_look_up_by_clicking_seven_cards(live_server: str, page: Any) -> None:
    seven = ["As", "Ad", "7c", "7d", "Kh", "5s", "JK"]
    page.goto(f"{live_server}/house-way/look-up")
    grid = page.locator("#card-grid")
    assert grid.is_visible()
    for c in seven:
        grid.locator(f"button[data-card='{c}']").click()
    assert page.input_value("#lookup-cards") == " ".join(seven)
    assert grid.locator("button[aria-pressed='true']").count() == 7
    # An eighth card is refused; clicking a chosen card takes it back.
    grid.locator("button[data-card='2c']").click()
    assert page.input_value("#lookup-cards") == " ".join(seven)
    grid.locator("button[data-card='Kh']").click()
    grid.locator("button[data-card='Kh']").click()
    page.select_option("#lookup-preset", "trump-plaza")
    page.click("button:has-text('Set the hand')")
    page.wait_for_selector("#lookup-result")

    setting = load("trump-plaza").set(seven)
    assert "cards=" in page.url and "preset=trump-plaza" in page.url
    assert page.get_attribute("#lookup-front", "data-cards") == " ".join(card_list(setting.front))
    assert page.get_attribute("#lookup-back", "data-cards") == " ".join(card_list(setting.back))
    assert page.get_attribute("#lookup-rule-id", "data-rule") == setting.rule
    assert page.inner_text("#lookup-rule-id") == load("trump-plaza").rule(setting.rule).short
    # The grid shows the hand that was looked up.
    assert page.locator("#card-grid button[aria-pressed='true']").count() == 7

    # The shared link reopens the same look-up; compare shows every casino.
    page.goto(page.input_value("#share-url") + "&compare=1")
    page.wait_for_selector("#lookup-compare")
    assert page.locator("#lookup-compare tbody tr").count() == len(preset_names())
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "look-up-compare.png"), full_page=True)
