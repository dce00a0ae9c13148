"""Issue 19, "Must show": each language in headless Chromium. For pt, es, it and ru, a
trainee whose language is set (on the account page for Portuguese, in the database for
the others) plays one question of every drill kind in the registry (every step of a
stepped kind) and sees its feedback; the supervisor opens the group overview, the manager
the house-way editor of a draft, and the trainee prints a sheet (its PDF on at most two
pages; with no PDF text extractor in the venv, the known translated rule sentence is read
on the HTML sheet the PDF is printed from).

On each page: ``<html lang>`` is the language, nothing scrolls sideways, axe-core finds no
violation, and no visible text (or attribute people read) is the
English of a catalogue message whose translation differs from it: the language's
``messages.po`` read with Babel (a message missing from it counts as untranslated), each
named with its file:line from a fresh extraction. Screenshots at 1366x768 go to
test-artifacts/languages/<lang>-<page>.png, and each page at 390x844 too (checked at both
sizes: no sideways scroll and no axe violation, issue 26).
"""
from __future__ import annotations

import functools
import tomllib
from importlib import resources
from typing import Any

import pytest
from babel.messages.pofile import read_po
from flask import Flask

from e2e import test_wrong_answers_browser as answering
from e2e.conftest import ARTIFACTS, sign_in
from e2e.test_layout_browser import AXE, AXE_RUN, OVERFLOW, SETTLE, require_axe
from e2e.test_pseudo_locale_browser import READ_PAGE, catalogues
from e2e.test_reference_browser import pdf_pages
from trainer.cli.accounts import DEMO_GROUP, DEMO_MANAGER, DEMO_SUPERVISOR, DEMO_TRAINEES
from trainer.engine.drills import DRILLS
from trainer.extensions import db
from trainer.models import Group, User
from trainer.services import accounts, house_ways
from trainer.services import drills as drill_service

pytestmark = pytest.mark.e2e

LANGUAGES = ("pt", "es", "it", "ru")
SHOTS = ARTIFACTS / "languages"
SHEET = "trump-plaza"


@functools.cache
def _extracted() -> dict[str, str]:
    """Every message now in the code, as msgid -> "file:line" (its first place)."""
    places = {}
    for message in catalogues.extract():
        if message.id:
            (path, line), *_ = message.locations
            for msgid in (message.id if isinstance(message.id, tuple) else (message.id,)):
                places.setdefault(msgid, f"{path}:{line}")
    return places


@functools.cache
def english_leftovers(lang: str) -> dict[str, str]:
    """English msgids shown as they are in ``lang``, as text -> "file:line".

    Those whose translation in the language's ``messages.po`` differs from the msgid, is
    empty or fuzzy, and those of the code missing from the ``.po``; not those kept as
    they are on purpose (a translation equal to its msgid).
    """
    with open(catalogues.po_path(lang), "rb") as file:
        catalog = read_po(file, locale=lang)
    places = dict(_extracted())  # a message of the code missing from the .po reads English
    kept = set()
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for msgid in ids:
            if msgid in strings and all(strings) and not message.fuzzy:
                kept.add(msgid)  # the same word in both languages, on purpose ("Enter")
            places.setdefault(msgid, " ".join(path for path, _line in message.locations) or "?")
    return {" ".join(k.split()): v for k, v in places.items()
            if k not in kept and any(c.isalpha() for c in k)}


def _comma(cents: int) -> str:
    """An amount as a dealer types it in these four languages: 47,50."""
    return f"{cents // 100},{cents % 100:02d}"


def _sheet_sentence(lang: str) -> str:
    """A rule's sentence on the sheet in ``lang``, read from the preset's data file."""
    data = tomllib.loads(resources.files("trainer.engine.house_way").joinpath(
        "presets", f"{SHEET}.toml").read_text(encoding="utf-8"))
    return str(data["sections"][0]["rules"][0]["translations"][lang]["text"])


@pytest.fixture
def context_options() -> dict[str, Any]:
    return {"viewport": {"width": 1366, "height": 768}, "locale": "en-US"}


@pytest.fixture
def demo_settings() -> dict[str, Any]:
    """One question of each kind (one round of a stepped kind) a session."""
    return {"drills": {slug: {"length": max(1, len(d.steps))} for slug, d in DRILLS.items()}}


class Checker:
    """Check the open page in one language; keep the problems to name them all at the end."""

    def __init__(self, page: Any, lang: str) -> None:
        self.page, self.lang = page, lang
        self.english = english_leftovers(lang)
        self.problems: list[str] = []
        self.untranslated: list[str] = []
        self.axe = AXE.read_text(encoding="utf-8")

    def __call__(self, name: str) -> None:
        page = self.page
        page.evaluate(SETTLE)
        lang = page.get_attribute("html", "lang")
        if lang != self.lang:
            self.problems.append(f"{name}: <html lang={lang!r}>")
        # At 1366 and on a phone (issue 26): no sideways scroll, no axe violation.
        for size, (width, height) in (("390x844", (390, 844)), ("1366x768", (1366, 768))):
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate(SETTLE)
            self.problems += [f"{name} at {size}: scrolls sideways: {p}" for p in page.evaluate(OVERFLOW)]
            if not page.evaluate("() => Boolean(window.axe)"):
                page.evaluate(self.axe)
            self.problems += [f"{name} at {size}: axe: {v}" for v in page.evaluate(AXE_RUN)]
            if size == "390x844":
                page.screenshot(path=str(SHOTS / f"{self.lang}-{name}-{size}.png"), full_page=True)
        for item in page.evaluate(READ_PAGE):
            text = " ".join(item["text"].split())
            for candidate in dict.fromkeys((text, text.rstrip(":").rstrip())):
                if candidate in self.english:
                    self.untranslated.append(f"{name}: {item['where']}: {candidate!r} "
                                             f"({self.english[candidate]})")
                    break
        page.screenshot(path=str(SHOTS / f"{self.lang}-{name}.png"), full_page=True)


def _set_language(app: Flask, logins: list[str], lang: str) -> None:
    with app.app_context():
        for login in logins:
            user = db.session.execute(db.select(User).filter_by(login=login)).scalar_one()
            accounts.set_language(user.id, lang)
        db.session.commit()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_drills_overview_editor_and_sheet(
        app: Flask, live_server: str, browser_context: Any, page: Any, lang: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    require_axe()
    SHOTS.mkdir(parents=True, exist_ok=True)
    base, trainee = live_server, DEMO_TRAINEES[0][0]
    by_form = lang == LANGUAGES[0]  # one language chosen on the account page, the rest in the database
    _set_language(app, [DEMO_SUPERVISOR[0], DEMO_MANAGER[0]] + ([] if by_form else [trainee]), lang)
    with app.app_context():
        manager = db.session.execute(db.select(User).filter_by(login=DEMO_MANAGER[0])).scalar_one()
        draft_id = house_ways.create_draft(f"casa-{lang}", "Casa Lisboa", SHEET, user_id=manager.id).id
        group_id = db.session.execute(db.select(Group.id).filter_by(name=DEMO_GROUP)).scalar_one()
    monkeypatch.setattr(answering, "_typed", _comma)  # amounts typed with a decimal comma
    check = Checker(page, lang)

    sign_in(page, base)
    if by_form:
        page.goto(f"{base}/auth/account")
        page.select_option("#language", lang)
        page.click("#account form[action$='/account/language'] button[type=submit]")
        page.wait_for_selector(f"html[lang={lang}]")
    for kind, drill in DRILLS.items():
        page.goto(f"{base}/drills/")
        page.click(f"[data-start='{kind}-practice']")
        page.wait_for_selector("#question .q")
        session_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
        steps = drill.steps or ("question",)
        for position in range(1, len(steps) + 1):
            page.wait_for_selector(f"#question .q[data-position='{position}']")
            question, context = answering._issued(app, session_id, position)
            answer, _words = answering.wrong_answer(
                kind, question, drill_service.answer_key(question, context), context)
            with page.expect_response(lambda r: r.url.endswith("/answer")) as sent:
                how = answering._answer_in_page(page, answer)
            if sent.value.json().get("correct") is not False:
                check.problems.append(f"drill-{kind} step {position}: the wrong answer ({how}) "
                                      "was not graded wrong")
            page.wait_for_selector("#feedback .verdict-sentence")
            if position < len(steps):
                page.click("#next")
        check(f"drill-{kind}")

    page.goto(f"{base}/house-way/{SHEET}")
    check("sheet")
    sentence = _sheet_sentence(lang)
    assert sentence in " ".join(page.inner_text("main").split()), sentence
    pdf = page.request.get(f"{base}/house-way/{SHEET}/pdf?paper=a4")
    assert pdf.ok and pdf.body().startswith(b"%PDF"), pdf.status
    assert 1 <= pdf_pages(pdf.body()) <= 2
    (SHOTS / f"{lang}-sheet.pdf").write_bytes(pdf.body())

    for (login, _name, password), path, name in (
            (DEMO_SUPERVISOR, f"/supervisor/groups/{group_id}", "supervisor-overview"),
            (DEMO_MANAGER, f"/manager/house-ways/{draft_id}", "manager-editor")):
        browser_context.clear_cookies()
        sign_in(page, base, login, password, home="h1")
        page.goto(f"{base}{path}")
        check(name)

    (SHOTS / f"{lang}-problems.txt").write_text(
        "\n".join([*check.problems, *check.untranslated]) + "\n", encoding="utf-8")
    assert check.problems == [], f"{len(check.problems)} problems:\n" + "\n".join(check.problems)
    assert check.untranslated == [], (
        f"{len(check.untranslated)} English texts left in {lang}:\n" + "\n".join(check.untranslated))
