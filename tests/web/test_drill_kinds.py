"""A drill kind lives in one home, and nothing outside it names the kind.

A kind's home (docs/architecture.md) is two places: its engine package
``trainer/engine/drills/kinds/<pkg>/`` (``<pkg>``: the slug with ``-`` -> ``_``), which
declares the slug once (``SLUG = "..."``) beside its questions, grader, skills, words and
criterion; and its web folder ``templates/drills/kinds/<slug>/``, which holds its four
templates (``question.html``, ``answer.html``, ``feedback.html``, ``attempt.html``) and
its script ``kind.js``, served as ``/static/kinds/<slug>.js``. The registries (the
engine's ``DRILLS``, the web's ``trainer/web/platform/drill_kinds.py``) import the homes and hold
no slug. These tests check that every kind has both halves of its home and nothing is
left without a kind, and that nowhere else in ``trainer/``, ``templates/`` or
``static/`` names a kind's slug: as a quoted string literal, a ``data-kind`` value or a
URL segment. The slugs come from the registry, never from a list written here.
"""
from __future__ import annotations

import ast
import gzip
import hashlib
import importlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.drills import DRILLS
from trainer.web.platform import drill_kinds
from trainer.web.platform.drill_kinds import DRILL_KINDS, TEMPLATE_PARTS
from web.helpers import login, post_form

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
KINDS_TEMPLATES = TEMPLATES / "drills" / "kinds"
ENGINE_KINDS = ROOT / "trainer" / "engine" / "drills" / "kinds"
ENGINE_KINDS_PACKAGE = "trainer.engine.drills.kinds"
OLD_SCRIPTS = ROOT / "static" / "js" / "kinds"  # where the kinds' scripts were before
SCRIPT = "kind.js"

# The macros each kind's feedback.html and attempt.html define (the shared templates
# call them by name: drills/_answers.html, drills/_attempt.html).
MACROS = {
    "feedback": ("right_answer", "parts"),
    "attempt": ("question", "answer", "brief"),
}

# Where a slug must not be written (outside its kind's home); tests and docs aside.
SEARCHED = ("trainer", "templates", "static")


def package_of(slug: str) -> str:
    """Return the name of a kind's engine package: its slug, ``-`` written ``_``."""
    return slug.replace("-", "_")


def homes(slug: str) -> tuple[str, str]:
    """Return the two folders where a kind's slug belongs: its engine package and its web folder."""
    return (f"trainer/engine/drills/kinds/{package_of(slug)}/", f"templates/drills/kinds/{slug}/")


@dataclass(frozen=True)
class NotTheDrill:
    """A word spelled like a slug that means something else there, and why.

    ``where`` is a file, or a folder ending in ``/``; ``line``, when given, is a pattern
    the line must match (so the rest of the file is still searched).
    """

    where: str
    word: str
    why: str
    line: str | None = None

    def allows(self, hit: Hit) -> bool:
        return (hit.slug == self.word and _within(hit.path, self.where)
                and (self.line is None or re.search(self.line, hit.text) is not None))


# Kept small on purpose: each entry is a different meaning, never the drill.
NOT_THE_DRILL = (
    NotTheDrill("trainer/web/admin/pages.py", "action",
                "the audit log's filter by action (the query parameter `action`)"),
    NotTheDrill("templates/admin/audit.html", "action",
                "the audit log's filter by action (its field's id and name)"),
    NotTheDrill("templates/play/table.html", "house-way",
                "the player's game: the House Way button (its id)"),
    NotTheDrill("static/js/play.js", "house-way",
                "the player's game: the House Way button (looked up by its id)"),
    NotTheDrill("trainer/web/play/pages.py", "house-way",
                "the player's game: the URL that sets the player's hand the house way"),
    NotTheDrill("trainer/web/reference/pages.py", "house-way",
                "the reference pages' URLs of a casino's house-way sheet and its look-up"),
    NotTheDrill("trainer/cli/house_way.py", "house-way",
                "the command group `trainer house-way ...` (verify, simulate, export)"),
    NotTheDrill("trainer/cli/bonus.py", "bonus",
                "the command group `trainer bonus ...` (the side bet's counts and edge)"),
    NotTheDrill("trainer/engine/house_way/presets/", "house-way",
                "the web addresses of a preset's sources (wizardofodds.com/.../house-way/...)"),
    NotTheDrill("trainer/engine/side_bets/paytables.py", "bonus",
                "the Bonus side bet: a pay table's kind (TableKind.BONUS) and the family of "
                "its rule ids (bonus.<table>.<line>)"),
    NotTheDrill("trainer/engine/side_bets/tables/", "bonus",
                "a pay table's kind, `kind = \"bonus\"` (the side bet, not the drill)"),
    NotTheDrill("trainer/services/table.py", "bonus",
                "the player's game: a hand's side-bet result (the Bonus bet)"),
    NotTheDrill("trainer/engine/drills/kinds/round/", "action",
                "a settle step's order entry: what the dealer does with a seat's bet, "
                "`\"action\": \"take\"|\"pay\"` (stored in answers)",
                line=r"""["']action["']\s*:\s*(["'](take|pay)["']|OneOf\b)|\w\[["']action["']\]"""),
)


@dataclass(frozen=True)
class Hit:
    path: str    # relative to the repository, e.g. "trainer/web/platform/drill_kinds.py"
    line: int
    slug: str
    how: str     # "string literal", "data-kind", "URL segment"
    text: str    # the line, for the allow-list's pattern and the message

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.slug!r} as a {self.how}: {self.text.strip()[:120]}"


def _within(relative: str, where: str) -> bool:
    """Tell whether a file is ``where`` or, when ``where`` is a folder, inside it."""
    return relative == where or (where.endswith("/") and relative.startswith(where))


def _quoted(slug: str) -> re.Pattern[str]:
    return re.compile(r"""(["'`])""" + re.escape(slug) + r"""\1""")


def _data_kind(slug: str) -> re.Pattern[str]:
    # data-kind="slug", data-kind='slug', data-kind=slug (a CSS selector: [data-kind=slug]).
    return re.compile(r"""data-kind\s*=\s*["']?""" + re.escape(slug) + r"""(?![\w-])""")


def _url_segment(slug: str) -> re.Pattern[str]:
    # /slug/, /slug?, /slug" (and ', `, #): a path segment that names the kind.
    return re.compile(r"/" + re.escape(slug) + r"""(?=[/?"'`#])""")


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _python_strings(source: str) -> Iterator[tuple[int, str]]:
    """Yield (line, value) of every string constant in Python source, docstrings aside."""
    tree = ast.parse(source)
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                and node.body and isinstance(node.body[0], ast.Expr) \
                and isinstance(node.body[0].value, ast.Constant):
            docstrings.add(id(node.body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value


def slug_hits(relative: str, text: str, slug: str) -> list[Hit]:
    """Return every place a file names ``slug``: a string literal, a data-kind value, a URL segment.

    Python is read with ``ast`` (its string constants, so a comment or docstring is no
    hit); templates, scripts, stylesheets and data files are read as text.
    """
    lines = text.splitlines()
    hits: list[Hit] = []

    def add(line: int, how: str) -> None:
        hits.append(Hit(relative, line, slug, how, lines[line - 1] if 0 < line <= len(lines) else ""))

    if relative.endswith(".py"):
        for line, value in _python_strings(text):
            if value == slug:
                add(line, "string literal")
            if _data_kind(slug).search(value):
                add(line, "data-kind")
            if _url_segment(slug).search(value + '"'):  # the quote: the string's end
                add(line, "URL segment")
        return hits
    for pattern, how in ((_quoted(slug), "string literal"), (_data_kind(slug), "data-kind"),
                         (_url_segment(slug), "URL segment")):
        for match in pattern.finditer(text):
            add(_line_of(text, match.start()), how)
    return hits


def _searched_files() -> Iterator[tuple[str, str]]:
    for folder in SEARCHED:
        for path in sorted((ROOT / folder).rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            data = path.read_bytes()
            if b"\0" in data:
                continue  # binary data (the rank and class tables)
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            yield path.relative_to(ROOT).as_posix(), text


# --- the engine half of a home -----------------------------------------------------


def _home_package(slug: str) -> str:
    return f"{ENGINE_KINDS_PACKAGE}.{package_of(slug)}"


@pytest.mark.parametrize("slug", sorted(DRILLS))
def test_every_kind_lives_in_its_engine_package_and_declares_its_slug_there(slug: str) -> None:
    home = _home_package(slug)
    drill_module = type(DRILLS[slug]).__module__
    assert drill_module == home or drill_module.startswith(home + "."), (slug, drill_module)
    package = importlib.import_module(home)
    declared = getattr(package, "SLUG", None)
    if declared is None:
        declared = getattr(importlib.import_module(f"{home}.kind"), "SLUG", None)
    assert declared == slug


@pytest.mark.parametrize("slug", sorted(DRILLS))
def test_a_kind_writes_its_slug_once_in_its_engine_home(slug: str) -> None:
    folder = ROOT / homes(slug)[0]
    written = [(path.relative_to(ROOT).as_posix(), line)
               for path in sorted(folder.rglob("*.py"))
               for line, value in _python_strings(path.read_text(encoding="utf-8")) if value == slug]
    assert len(written) == 1, f"{slug!r} is written {len(written)} times (once: SLUG = ...): {written}"
    path, line = written[0]
    assert re.match(r"\s*SLUG\s*(:\s*[\w\[\]]+\s*)?=", (ROOT / path).read_text(encoding="utf-8")
                    .splitlines()[line - 1]), f"{path}:{line} is not `SLUG = ...`"


def test_no_engine_package_is_left_without_a_kind() -> None:
    packages = {p.name for p in ENGINE_KINDS.iterdir() if (p / "__init__.py").is_file()}
    assert packages == {package_of(slug) for slug in DRILLS}


# --- the web half of a home ----------------------------------------------------------


def test_every_engine_kind_has_a_web_entry_and_every_entry_an_engine_kind() -> None:
    assert set(DRILL_KINDS) == set(DRILLS)
    assert [k.slug for k in drill_kinds.drill_kinds()] == drill_kinds.slugs()
    assert set(drill_kinds.slugs()) == set(DRILLS)


def test_entries_have_a_title_a_blurb_and_their_own_place_in_the_order() -> None:
    orders = [k.order for k in DRILL_KINDS.values()]
    assert len(set(orders)) == len(orders)
    for slug, kind in DRILL_KINDS.items():
        assert kind.slug == slug
        assert str(kind.title).strip() and str(kind.blurb).strip()
        assert kind.template_folder == f"drills/kinds/{slug}/"
        with pytest.raises(ValueError):
            kind.template("summary-of-everything")


@pytest.mark.parametrize("slug", sorted(DRILLS))
def test_every_kind_has_its_web_folder_with_its_four_templates_and_its_script(slug: str) -> None:
    folder = ROOT / homes(slug)[1]
    kind = DRILL_KINDS[slug]
    for part in TEMPLATE_PARTS:
        assert kind.template(part) == f"drills/kinds/{slug}/{part}.html"
        assert (folder / f"{part}.html").is_file(), kind.template(part)
    script = folder / SCRIPT
    assert script.is_file(), f"{homes(slug)[1]}{SCRIPT}"
    # The script adds the kind's wiring to the map drills.js looks up by slug.
    assert "window.PaiGow.kinds[" in script.read_text(encoding="utf-8")


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


def test_no_web_folder_is_left_without_a_kind_and_no_script_outside_its_folder() -> None:
    folders = {p.name for p in KINDS_TEMPLATES.iterdir() if p.is_dir()}
    assert folders == set(DRILLS)
    loose = [p.name for p in KINDS_TEMPLATES.iterdir() if not p.is_dir()]
    assert loose == []
    left = sorted(p.name for p in OLD_SCRIPTS.iterdir()) if OLD_SCRIPTS.is_dir() else []
    assert left == [], f"scripts left in static/js/kinds/ (a kind's script is its folder's {SCRIPT}): {left}"


def test_the_drill_page_loads_the_shared_script_and_its_kinds_script_only(
        client: FlaskClient, trainee: Any) -> None:
    login(client, trainee)
    for slug in DRILLS:
        response = post_form(client, f"/drills/{slug}/start", {"mode": "practice"})
        assert response.status_code == 302
        page = client.get(response.headers["Location"]).get_data(as_text=True)
        scripts = re.findall(r'<script src="/static/([^"?]+)\?v=([0-9a-f]{12})"', page)
        # lib.js first; the kind's script before drills.js, which looks the kind up.
        assert [name for name, _ in scripts] == ["js/lib.js", "js/app.js", f"kinds/{slug}.js",
                                                 "js/drills.js"], scripts
        version = dict(scripts)[f"kinds/{slug}.js"]
        # Served like a static file: versioned by the bytes sent, gzipped when asked for.
        url = f"/static/kinds/{slug}.js?v={version}"
        plain = client.get(url, headers={"Accept-Encoding": "identity"})
        assert plain.status_code == 200 and plain.mimetype in ("text/javascript", "application/javascript")
        body = plain.get_data()
        assert hashlib.sha256(body).hexdigest()[:12] == version
        assert b"window.PaiGow.kinds[" in body
        assert "immutable" in plain.headers.get("Cache-Control", "")
        packed = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert packed.status_code == 200 and packed.headers.get("Content-Encoding") == "gzip"
        assert gzip.decompress(packed.get_data()) == body


# --- nothing outside a home names a slug ---------------------------------------------


def _findings() -> tuple[list[Hit], set[NotTheDrill]]:
    found: list[Hit] = []
    used: set[NotTheDrill] = set()
    for relative, text in _searched_files():
        for slug in DRILLS:
            if any(_within(relative, home) for home in homes(slug)):
                continue
            for hit in slug_hits(relative, text, slug):
                allowed = [entry for entry in NOT_THE_DRILL if entry.allows(hit)]
                if allowed:
                    used.update(allowed)
                else:
                    found.append(hit)
    return found, used


def test_no_slug_is_named_outside_its_kinds_home() -> None:
    found, used = _findings()
    assert not found, (f"{len(found)} places name a drill kind's slug outside its home (import the "
                       "kind's SLUG, or take it from the registry):\n" + "\n".join(map(str, found)))
    # Every exception still matches something: a stale one would hide a new use.
    stale = [f"{e.where} {e.word!r}" for e in NOT_THE_DRILL if e not in used]
    assert not stale, f"allow-list entries that match nothing any more (remove them): {stale}"


def test_the_registries_hold_no_slug() -> None:
    """The web registry and the engine's drills package import the homes; neither is one."""
    registries = ("trainer/web/platform/drill_kinds.py", "trainer/engine/drills/__init__.py",
                  "trainer/engine/drills/base.py", "trainer/engine/drills/kinds/__init__.py")
    for relative in registries:
        path = ROOT / relative
        if relative.endswith("kinds/__init__.py") and not path.is_file():
            continue  # a namespace package holds nothing
        text = path.read_text(encoding="utf-8")
        hits = [str(hit) for slug in DRILLS for hit in slug_hits(relative, text, slug)]
        assert hits == [], hits


# --- the search finds what it is for ---------------------------------------------------


def test_the_search_finds_a_slug_in_a_template_a_script_and_python() -> None:
    slug = sorted(DRILLS)[0]
    assert [h.how for h in slug_hits("t.html", f'{{% if kind == "{slug}" %}}', slug)] == ["string literal"]
    assert [h.line for h in slug_hits("t.js", f"\n  if (kind === '{slug}') {{", slug)] == [2]
    assert [h.how for h in slug_hits("t.html", f'<div data-kind="{slug}">', slug)] == [
        "string literal", "data-kind"]
    assert [h.how for h in slug_hits("t.css", f"[data-kind={slug}] {{ color: red; }}", slug)] == ["data-kind"]
    assert [h.how for h in slug_hits("t.html", f'<a href="/drills/{slug}/start">', slug)] == ["URL segment"]
    assert [h.how for h in slug_hits("t.js", f'fetch("/drills/{slug}?x=1")', slug)] == ["URL segment"]
    assert [h.how for h in slug_hits("t.py", f'X = "{slug}"\n', slug)] == ["string literal"]
    assert [h.how for h in slug_hits("t.py", f'X = {{"{slug}": 1}}\n', slug)] == ["string literal"]
    assert [h.how for h in slug_hits("t.py", f'@bp.route("/x/{slug}/start")\ndef f(): pass\n', slug)] == [
        "URL segment"]
    assert [h.how for h in slug_hits("t.py", f'U = "drills/kinds/{slug}/question.html"\n', slug)] == [
        "URL segment"]
    assert [h.how for h in slug_hits("t.py", f'U = "/drills/{slug}"\n', slug)] == ["URL segment"]


def test_the_search_leaves_other_words_comments_and_docstrings_alone() -> None:
    slug = sorted(DRILLS)[0]
    assert slug_hits("t.html", f'"{slug}-x" "x-{slug}" {slug}', slug) == []
    python = f'"""The {slug} kind: "{slug}"."""\n# "{slug}"\nX = f"{{s}}-{slug}"\n'
    assert slug_hits("t.py", python, slug) == []
    assert slug_hits("t.js", f"/{slug}-x/ /x{slug}/", slug) == []


def test_an_allow_list_entry_with_a_line_pattern_allows_only_those_lines() -> None:
    entry = next(e for e in NOT_THE_DRILL if e.line is not None)
    inside = f"{entry.where}x.py" if entry.where.endswith("/") else entry.where
    step = Hit(inside, 1, entry.word, "string literal", f'if step == "{entry.word}":')
    assert not entry.allows(step)
