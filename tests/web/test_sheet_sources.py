"""What a printed house-way sheet names (issue 27, part 3).

A casino's own sheet (a custom way, HTML and PDF) prints only what the casino wrote, its
name, version and date: no sources, no references to this project's files or sections,
no other casino's notes, even when the way was copied from a preset (the copy drops the
preset's source, authority, notes and reading notes). A preset's sheet names its source
as a reader would (the casino and the publication), never a file of this project or a
code host. The PDF is checked on the HTML it is printed from (the printer is replaced, as
in test_pdf_cache.py).
"""
from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask import Flask

from trainer.engine.house_way import load, preset_names
from trainer.models import Role
from trainer.services import house_ways
from trainer.web.platform import sheets
from web.helpers import login
from web.test_house_way_versions import _check_job

CASINO = "Riverside Casino"
# Never on any sheet: this project's files and its code host.
PROJECT = ("docs/", "README", "GitHub", "rules.md")
# Never on a casino's own sheet besides those: the presets' source and section marks.
SOURCES = ("Wizard of Odds", "wizardofodds", "Source:", "§", "[recon]", "[2002]")


def _other_casinos() -> list[str]:
    """Every preset's casino, as its sheet names it ("Trump Plaza", "Bally's"...)."""
    return sorted({load(name).casino.split(",")[0].strip() for name in preset_names()})


@pytest.fixture
def printed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Replace Chromium: keep the HTML each PDF is printed from."""
    pages: list[str] = []

    def fake_print(page: str) -> bytes:
        pages.append(page)
        return b"%PDF-1.4 fake"

    monkeypatch.setattr(sheets, "print_to_pdf", fake_print)
    return pages


@pytest.fixture
def manager(make_user: Any) -> Any:
    return make_user(Role.MANAGER, login="manager")


def _visible(page: str) -> str:
    """A page's text and attribute values, unescaped (what a reader or a printer could show)."""
    return html.unescape(page)


def _publish_copy(app: Flask, manager_id: int, base: str, slug: str) -> str:
    with app.app_context():
        way_id = house_ways.create_draft(slug, CASINO, base_ref=base, user_id=manager_id).id
    _check_job(app, way_id)
    with app.app_context():
        return house_ways.publish(way_id, "Our own sheet", manager_id).ref


@pytest.mark.parametrize("base", ["trump-plaza", "mgm-grand", "foxwoods"])
def test_a_casinos_own_sheet_prints_only_what_the_casino_wrote(
        app: Flask, client: Any, manager: Any, printed: list[str], base: str) -> None:
    ref = _publish_copy(app, manager.id, base, "riverside")
    with app.app_context():
        data = house_ways.get_draft(1).draft
        # The copy dropped the preset's provenance and reading notes.
        assert not {"source", "authority", "notes"} & set(data)
        assert not any(k in s or k in r for s in data["sections"] for r in s["rules"]
                       for k in ("resolved", "decided"))
    login(client, manager)
    sheet = client.get(f"/house-way/{ref}")
    assert sheet.status_code == 200
    pdf = client.get(f"/house-way/{ref}/pdf?paper=a4")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    [printed_page] = printed
    for name, page in (("HTML", sheet.get_data(as_text=True)), ("PDF", printed_page)):
        text = _visible(page)
        for word in (*PROJECT, *SOURCES, *_other_casinos()):
            assert word not in text, f"{name} sheet of a copy of {base} prints {word!r}"
        assert CASINO in text and "Version 1, published" in text, name
        footer = re.search(r'<footer class="sheet-foot">.*?</footer>', text, re.S)[0]
        assert CASINO in footer and "Version 1" in footer, name


@pytest.mark.parametrize("preset", preset_names())
def test_a_preset_sheet_names_its_source_as_a_reader_would(
        app: Flask, client: Any, trainee: Any, printed: list[str], preset: str) -> None:
    login(client, trainee)
    sheet = client.get(f"/house-way/{preset}")
    pdf = client.get(f"/house-way/{preset}/pdf")
    assert sheet.status_code == pdf.status_code == 200
    [printed_page] = printed
    for name, page in (("HTML", sheet.get_data(as_text=True)), ("PDF", printed_page)):
        text = _visible(page)
        for word in PROJECT:
            assert word not in text, f"{name} sheet of {preset} prints {word!r}"
        footer = re.search(r'<footer class="sheet-foot">.*?</footer>', text, re.S)[0]
        casino = load(preset).casino.split(",")[0].strip()
        assert "Source:" in footer and casino in footer and "Wizard of Odds" in footer, name
