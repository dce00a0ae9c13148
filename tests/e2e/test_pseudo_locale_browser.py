"""Issue 19, item 5: the pseudo-locale run. Every page of every role, read in the pseudo-locale
(``en_001``, tools/catalogues.py: each translation is the English wrapped in ⟦ ⟧ with its
letters accented), must show no word of three letters or more outside the markers: such a
word never went through a catalogue.

The pseudo catalogue is made afresh from the code (in a temporary folder), so a message
marked a minute ago counts as marked. Each role signs in and the test follows the links of
its pages (the menus, then one more step), one page per path pattern, plus the first
question of every drill kind in the registry and the sign-in page. Allowed outside the
markers: numbers, money, card letters and suits, and data: the names of people and groups
in the database, the house ways' own texts (their translations are the data's, issue 19
item 2), month and day names in dates. The failure names the page, where, and the text.
"""
from __future__ import annotations

import re
from collections import deque
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urlsplit

import pytest
from babel import Locale
from catalogue_tools import catalogues, pseudo_config
from flask import Flask

from e2e.conftest import shot, sign_in
from e2e.test_wrong_answers_browser import POST_ANSWER, _issued, wrong_answer
from trainer import PSEUDO_LOCALE
from trainer.cli.accounts import (
    DEMO_MANAGER,
    DEMO_SUPERVISOR,
    DEMO_TRAINEE_PASSWORD,
    DEMO_TRAINEES,
)
from trainer.engine.drills import DRILLS
from trainer.extensions import db
from trainer.models import Group, User
from trainer.services import drills as drill_service
from trainer.web.words import card_names

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.e2e

SHOTS = ROOT / "test-artifacts" / "pseudo-locale"
# Pages per role at most (one per path pattern), and how many clicks from home.
MAX_PAGES = 70
DEPTH = 3
SKIP = re.compile(r"/static/|/logout|\.csv$|/export/|/pdf$|/health")

# Every visible text node, and the attributes people read, with where they are.
READ_PAGE = """() => {
  const out = [];
  const hidden = (el) => !el.getClientRects().length || el.closest("[hidden], template");
  const where = (el) => {
    const parts = [];
    for (let e = el; e && e !== document.body && parts.length < 3; e = e.parentElement) {
      parts.unshift(e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") +
        (e.classList.length ? "." + Array.from(e.classList).slice(0, 2).join(".") : ""));
    }
    return parts.join(" > ");
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || /^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/.test(el.tagName) || hidden(el)) { continue; }
    const text = n.textContent.replace(/\\s+/g, " ").trim();
    if (text) { out.push({text: text, where: where(el), node: true}); }
  }
  document.querySelectorAll("[placeholder], [aria-label], img[alt], input[type=submit][value], " +
      "input[type=button][value]").forEach((el) => {
    for (const name of ["placeholder", "aria-label", "alt", "value"]) {
      const value = el.getAttribute(name);
      if (value && (name !== "value" || el.tagName === "INPUT")) {
        out.push({text: value, where: where(el) + "[" + name + "]", node: false});
      }
    }
  });
  // The words scripts show later (drills.js, play.js ...) wait in data-text-* attributes.
  document.querySelectorAll("*").forEach((el) => {
    for (const attr of el.attributes) {
      if (attr.name.startsWith("data-text")) {
        out.push({text: attr.value, where: where(el) + "[" + attr.name + "]", node: false});
      }
    }
  });
  document.title && out.push({text: document.title, where: "title", node: false});
  return out;
}"""

# Places whose words are known not to go through a catalogue yet, with why; remove an
# entry when its words are marked. The engine's explanations (engine/drills, the feedback's
# "explanation" line) are being turned into N_ messages (engine/messages.py, issue 19 item 1).
PENDING = ("dd.explanation", "details.reveal > dl.facts > dd")
WORD = re.compile(r"[^\W\d_]{3,}")
IDENTIFIER = re.compile(r"[\w-]+(?:[./][\w-]*)+")
# Card letters and suits, amounts, times: never words of three letters, but a joker is "JK".
DATA_WORDS = {"USD", "US", "UTC", "JK"}


def _outside(items: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """Return (where, text, outside words) for each item with words outside ⟦ ⟧.

    Visible text nodes are read in order with one depth counter, since a translation
    holding HTML (<strong>%(name)s</strong>) spreads over several nodes; attributes alone.
    """
    found = []
    depth = 0
    for item in items:
        depth_here = depth if item["node"] else 0
        outside = []
        for char in item["text"]:
            if char == catalogues.OPEN:
                depth_here += 1
            elif char == catalogues.CLOSE:
                depth_here = max(0, depth_here - 1)
            elif depth_here == 0:
                outside.append(char)
            if depth_here and outside and outside[-1] != " ":
                outside.append(" ")
        if item["node"]:
            depth = depth_here
        words = "".join(outside)
        if WORD.search(words):
            found.append((item["where"], item["text"], words))
    return found


def _allowed_words(app: Flask) -> set[str]:
    """Words that are data: people's and groups' names, house-way texts, dates' names."""
    words: set[str] = set(DATA_WORDS)
    with app.app_context():
        for user in db.session.execute(db.select(User)).scalars():
            words.update(WORD.findall(f"{user.name} {user.login}"))
        for group in db.session.execute(db.select(Group)).scalars():
            words.update(WORD.findall(group.name))
    # The cards' accessible names are the web's per-language tables, not catalogue
    # entries (docs/languages.md, "Cards"); the pseudo-locale reads the English ones.
    words.update(WORD.findall(" ".join(card_names.labels("en", False).values())))
    return words


def _house_way_phrases() -> list[re.Pattern[str]]:
    """The house ways' own texts (titles, sheet sentences, explanations) as patterns."""
    import tomllib

    texts: set[str] = set()
    for path in sorted(catalogues.HOUSE_WAYS.glob("*.toml")):
        for _where, table in catalogues._walk(tomllib.loads(path.read_text("utf-8")), ""):
            texts.update(" ".join(v.split()) for v in table.values()
                         if isinstance(v, str) and WORD.search(v) and len(v) > 3)
            if isinstance(table.get("title"), str):  # a way's name: its title less "house way"
                texts.add(table["title"].removesuffix(" house way"))
    # The longest first: a title inside a sentence must not cut the sentence's match.
    return [re.compile(re.sub(r"\\\{\w+\\\}", ".+?", re.escape(text)))
            for text in sorted(texts, key=len, reverse=True)]


def _date_words() -> set[str]:
    locale = Locale.parse(catalogues.PSEUDO_LOCALE)
    names: set[str] = {"AM", "PM"}
    for table in (locale.months, locale.days):
        for width in ("abbreviated", "wide"):
            for context in ("format", "stand-alone"):
                names.update(table.get(context, {}).get(width, {}).values())
    return names


class Reader:
    """Reads pages and keeps what it finds outside the markers."""

    def __init__(self, app: Flask, page: Any) -> None:
        self.page = page
        self.words = _allowed_words(app) | _date_words()
        self.phrases = _house_way_phrases()
        self.problems: list[str] = []
        self.read: list[str] = []
        self.reported: set[tuple[str, str]] = set()

    def check(self, name: str) -> None:
        self.read.append(name)
        for where, text, words in _outside(self.page.evaluate(READ_PAGE)):
            if where.endswith("]") and IDENTIFIER.fullmatch(text):
                continue  # an example of data in a field: a time zone, an action's prefix
            if where.endswith(PENDING):
                continue
            rest = words
            for phrase in self.phrases:
                rest = phrase.sub(" ", rest)
            bad = [w for w in WORD.findall(rest) if w not in self.words]
            # Each text once (a menu's unmarked word on every page is one problem).
            key = (where.rsplit(" > ", 1)[-1], text)
            if bad and key not in self.reported:
                self.reported.add(key)
                self.problems.append(f"{name}: {where}: {text[:120]!r} (outside: {' '.join(bad[:6])})")


def _pattern(path: str) -> str:
    return re.sub(r"/\d+(?=/|$)", "/N", path)


def _crawl(reader: Reader, base: str, start: str, role: str) -> None:
    """Read the pages reachable from ``start`` in DEPTH clicks, one per path pattern."""
    page = reader.page
    seen: set[str] = set()
    queue: deque[tuple[str, int]] = deque([(start, 0)])
    count = 0
    while queue and count < MAX_PAGES:
        url, depth = queue.popleft()
        path = urlsplit(url).path
        if _pattern(path) in seen:
            continue
        seen.add(_pattern(path))
        response = page.goto(url)
        if response is None or not response.ok or \
                "text/html" not in (response.headers.get("content-type") or ""):
            continue
        count += 1
        page.wait_for_load_state("load")
        name = f"{role} {path}"
        reader.check(name)
        if count <= 12:
            shot(page, f"{role}-{count:02d}", SHOTS)
        if depth >= DEPTH:
            continue
        for href in page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)"):
            href = urldefrag(href)[0]
            if href.startswith(base) and not SKIP.search(urlsplit(href).path) and \
                    _pattern(urlsplit(href).path) not in seen:
                queue.append((href, depth + 1))


@pytest.fixture
def app_config(app_config: dict[str, Any], pseudo_translations: Path) -> dict[str, Any]:
    return pseudo_config(app_config, pseudo_translations)


@pytest.fixture
def demo_settings() -> dict[str, Any]:
    """One question a session, so each kind's first question is quick to reach."""
    return {"drills": {slug: {"length": max(1, len(drill.steps))} for slug, drill in DRILLS.items()}}


def test_every_page_of_every_role_is_translated_in_the_pseudo_locale(
        app: Flask, live_server: str, browser_context: Any, page: Any, make_user: Any) -> None:
    assert PSEUDO_LOCALE == catalogues.PSEUDO_LOCALE
    admin = make_user(role="admin", login="pseudo-admin", name="Pseudo Admin")
    reader = Reader(app, page)

    page.goto(f"{live_server}/auth/login")
    reader.check("anonymous /auth/login")
    assert catalogues.OPEN in page.inner_text("body"), "the pseudo catalogue is not in use"

    # The trainee: the menus' pages, then each drill kind's first question.
    trainee = DEMO_TRAINEES[0][0]
    sign_in(page, live_server, trainee, DEMO_TRAINEE_PASSWORD)
    for kind in DRILLS:
        page.goto(f"{live_server}/drills/")
        page.click(f"[data-start='{kind}-practice']")
        page.wait_for_selector("#question .q")
        reader.check(f"trainee drill {kind}, first question")
        shot(page, f"trainee-drill-{kind}", SHOTS)
        # Answered wrong (tests/web/wrong_answers.py), as drills.js sends it: the feedback.
        session_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
        question, context = _issued(app, session_id, 1)
        answer, _expected = wrong_answer(kind, question, drill_service.answer_key(question, context),
                                         context)
        page.evaluate(POST_ANSWER, answer)
        page.wait_for_selector("#feedback .verdict-sentence")
        reader.check(f"trainee drill {kind}, feedback")
        shot(page, f"trainee-drill-{kind}-feedback", SHOTS)
    _crawl(reader, live_server, f"{live_server}/", "trainee")

    for role, login, password in (("supervisor", DEMO_SUPERVISOR[0], DEMO_SUPERVISOR[2]),
                                  ("manager", DEMO_MANAGER[0], DEMO_MANAGER[2]),
                                  ("admin", admin.login, admin.password)):
        browser_context.clear_cookies()
        sign_in(page, live_server, login, password, home="h1")
        _crawl(reader, live_server, f"{live_server}/", role)

    (SHOTS / "pages.txt").write_text("\n".join(reader.read) + "\n", encoding="utf-8")
    assert len(reader.read) > 20, reader.read
    assert not reader.problems, (
        f"{len(reader.problems)} texts outside the catalogue on {len(reader.read)} pages:\n"
        + "\n".join(reader.problems))
