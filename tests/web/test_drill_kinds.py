"""One place per drill kind: the web registry, the kind's templates and script, and nothing else.

Adding a drill kind is one engine module, one entry in ``trainer/web/drill_kinds.py``,
one template folder ``templates/drills/kinds/<slug>/`` and one script
``static/js/kinds/<slug>.js``. These tests check that every kind has all of them, that
no folder or script is left without a kind, and that no other template, script or
report names a kind's slug.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.drills import DRILLS
from trainer.web import drill_kinds
from trainer.web.drill_kinds import KINDS, TEMPLATE_PARTS
from web.helpers import login, post_form

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
STATIC = ROOT / "static"
KINDS_TEMPLATES = TEMPLATES / "drills" / "kinds"
KINDS_SCRIPTS = STATIC / "js" / "kinds"

# The macros each kind's feedback.html and attempt.html define (the shared templates
# call them by name: drills/_answers.html, drills/_attempt.html).
MACROS = {
    "feedback": ("right_answer", "parts"),
    "attempt": ("question", "answer", "brief"),
}

# Where a drill slug must not be written: the shared templates and scripts, the reports
# and the web floor. A kind's own files are the exception.
SEARCHED = ("templates", "static/js", "trainer/services/reports", "trainer/web")
SEARCHED_SUFFIXES = {".html", ".js", ".py", ".txt", ".svg"}
# Words that happen to be spelled like a slug but do not mean the drill, each with why.
NOT_THE_DRILL = {
    ("trainer/web/admin.py", "action"): "the audit log's filter by action (a query parameter)",
    ("templates/admin/audit.html", "action"): "the audit log's filter by action (its field)",
    ("templates/play/table.html", "house-way"): "the player's House Way button (its id)",
    ("static/js/play.js", "house-way"): "the player's House Way button (its id)",
    ("templates/drills/kinds/round/", "action"): "a round's first step, called action",
    ("static/js/kinds/round.js", "action"): "a round's first step, called action",
}


def _module_of(slug: str) -> str:
    """Return the engine module that defines a drill kind."""
    return type(DRILLS[slug]).__module__.rsplit(".", 1)[1]


def _own_files(slug: str) -> set[str]:
    """Return the files (and the folder) where a kind's slug belongs."""
    return {
        f"templates/drills/kinds/{slug}/",
        f"static/js/kinds/{slug}.js",
        f"trainer/engine/drills/{_module_of(slug)}.py",
        "trainer/web/drill_kinds.py",
    }


def _within(relative: str, where: str) -> bool:
    """Tell whether a file is ``where`` or, when ``where`` is a folder, inside it."""
    return relative == where or (where.endswith("/") and relative.startswith(where))


def _slug_literals(text: str, slug: str) -> list[int]:
    """Return the line numbers where ``slug`` is written as a quoted string literal."""
    pattern = re.compile(r"""(["'`])""" + re.escape(slug) + r"""\1""")
    return [text.count("\n", 0, m.start()) + 1 for m in pattern.finditer(text)]


# --- completeness --------------------------------------------------------------


def test_every_engine_kind_has_a_web_entry_and_every_entry_an_engine_kind() -> None:
    assert set(KINDS) == set(DRILLS)
    assert [k.slug for k in drill_kinds.drill_kinds()] == drill_kinds.slugs()
    assert set(drill_kinds.slugs()) == set(DRILLS)


def test_entries_have_a_title_a_blurb_and_their_own_place_in_the_order() -> None:
    orders = [k.order for k in KINDS.values()]
    assert len(set(orders)) == len(orders)
    for slug, kind in KINDS.items():
        assert kind.slug == slug
        assert str(kind.title).strip() and str(kind.blurb).strip()
        assert kind.template_folder == f"drills/kinds/{slug}/"
        assert kind.script == f"js/kinds/{slug}.js"
        with pytest.raises(ValueError):
            kind.template("summary-of-everything")


@pytest.mark.parametrize("slug", sorted(DRILLS))
def test_every_kind_has_its_four_templates_and_its_script(slug: str) -> None:
    kind = KINDS[slug]
    for part in TEMPLATE_PARTS:
        assert (TEMPLATES / kind.template(part)).is_file(), kind.template(part)
    script = STATIC / kind.script
    assert script.is_file(), kind.script
    # The script adds the kind's wiring to the map drills.js looks up by slug.
    assert f'window.PaiGow.kinds["{slug}"]' in script.read_text(encoding="utf-8")


@pytest.mark.parametrize("slug", sorted(DRILLS))
def test_every_kind_defines_the_macros_the_shared_templates_call(app: Flask, slug: str) -> None:
    with app.test_request_context():
        for part, macros in MACROS.items():
            module = app.jinja_env.get_template(drill_kinds.template(slug, part)).module
            for name in macros:
                assert callable(getattr(module, name, None)), (slug, part, name)


def test_a_retired_kind_draws_from_the_fallback_template(app: Flask) -> None:
    with app.test_request_context():
        for part in TEMPLATE_PARTS:
            name = drill_kinds.template("set-hand", part)
            assert name == drill_kinds.UNKNOWN_KIND_TEMPLATE
            module = app.jinja_env.get_template(name).module
            for macros in MACROS.values():
                assert all(callable(getattr(module, m, None)) for m in macros)
    assert drill_kinds.get_kind("set-hand") is None
    assert drill_kinds.title("set-hand") == "set-hand"


def test_no_template_folder_or_script_is_left_without_a_kind() -> None:
    folders = {p.name for p in KINDS_TEMPLATES.iterdir() if p.is_dir()}
    assert folders == set(KINDS)
    loose = [p.name for p in KINDS_TEMPLATES.iterdir() if not p.is_dir()]
    assert loose == []
    scripts = {p.name for p in KINDS_SCRIPTS.iterdir()}
    assert scripts == {f"{slug}.js" for slug in KINDS}


def test_the_drill_page_loads_the_shared_script_and_its_kinds_script_only(
        client: FlaskClient, trainee: Any) -> None:
    login(client, trainee)
    for slug in DRILLS:
        response = post_form(client, f"/drills/{slug}/start", {"mode": "practice"})
        assert response.status_code == 302
        page = client.get(response.headers["Location"]).get_data(as_text=True)
        scripts = re.findall(r'<script src="/static/([^"?]+)\?v=[0-9a-f]{12}"', page)
        # lib.js first; the kind's script before drills.js, which looks the kind up.
        assert scripts == ["js/lib.js", "js/app.js", f"js/kinds/{slug}.js", "js/drills.js"], scripts


# --- nothing else names a slug -------------------------------------------------


def _searched_files() -> list[Path]:
    files: list[Path] = []
    for folder in SEARCHED:
        files += [p for p in sorted((ROOT / folder).rglob("*"))
                  if p.is_file() and p.suffix in SEARCHED_SUFFIXES]
    return files


def test_no_template_script_or_report_names_a_drill_slug_outside_its_kinds_files() -> None:
    files = _searched_files()
    assert any(p.name == "drills.js" for p in files) and any(p.name == "_question.html" for p in files)
    found = []
    used_exceptions = set()
    for path in files:
        relative = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        for slug in DRILLS:
            own = _own_files(slug)
            if any(_within(relative, o) for o in own):
                continue
            lines = _slug_literals(text, slug)
            excepted = [(where, word) for where, word in NOT_THE_DRILL
                        if word == slug and _within(relative, where)]
            if lines and excepted:
                used_exceptions.update(excepted)
                continue
            found += [f"{relative}:{line}: {slug!r}" for line in lines]
    assert found == [], "a drill slug named outside its kind's own files:\n" + "\n".join(found)
    # Every exception still matches something: a stale one would hide a new use.
    assert used_exceptions == set(NOT_THE_DRILL)


def test_the_search_finds_a_slug_written_in_a_shared_template() -> None:
    slug = sorted(DRILLS)[0]
    assert _slug_literals(f'{{% if kind == "{slug}" %}}', slug) == [1]
    assert _slug_literals(f"\n  if (kind === '{slug}') {{", slug) == [2]
    assert _slug_literals(f'"drills/kinds/{slug}/question.html"', slug) == []
    assert _slug_literals(f'"{slug}-x"', slug) == []
