"""The areas of ``trainer/web/`` (docs/architecture.md, "The areas of web/"): a blueprint
never imports another area's module.

Every module under ``trainer/web/`` belongs to one area, the package it lies in
(``trainer/web/<area>/...``): the areas of pages (``AREAS``) and the two shared floors
beneath them (``SHARED``: ``platform``, the app-wide pieces, and ``words``, what turns
things into words). Each module's source is read with ``ast``; every import, at module
level or inside a function (outside ``if TYPE_CHECKING:`` blocks), that names a module of
``trainer.web`` must name one of its own area or of a shared floor, and a shared floor's
module imports no area's. A piece two areas need moves down into ``platform`` or
``words``, or into ``trainer/services/``. A module outside every area fails too, so a new
module is placed, not left loose in ``trainer/web/``.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

import trainer

PACKAGE_DIR = Path(trainer.__file__).resolve().parent
REPO_ROOT = PACKAGE_DIR.parent
WEB_DIR = PACKAGE_DIR / "web"

# The areas of pages: who the pages are for, each a package of ``trainer/web/``.
AREAS = frozenset({"auth", "trainee", "play", "supervisor", "manager", "reference", "admin",
                   "classroom"})
# The shared floors: any area may import them; they never import an area.
SHARED = frozenset({"platform", "words"})


@dataclass(frozen=True)
class WebImport:
    """One import of a ``trainer.web`` module by a module under ``trainer/web/``."""

    path: str     # the importing file, relative to the repository
    module: str   # the importing module, e.g. "trainer.web.supervisor.trainees"
    target: str   # the web module imported, e.g. "trainer.web.trainee.home"
    line: int


def module_name(path: Path, root: Path) -> str:
    """Return the dotted module name of a file under ``root`` (a package's ``__init__.py``:
    the package)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def area_of(module: str) -> str | None:
    """Return the area of a ``trainer.web`` module (the package under ``trainer/web/`` it lies
    in), or None for ``trainer.web`` itself and for a module of no area (a module straight
    in ``trainer/web/`` has no package: it is returned as its own, unknown, area name)."""
    parts = module.split(".")
    if parts[:2] != ["trainer", "web"] or len(parts) < 3:
        return None
    return parts[2]


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = (module if is_package else module.rpartition(".")[0]).split(".")
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def web_imports(path: str, module: str, source: str, is_package: bool) -> list[WebImport]:
    """Return the imports of ``trainer.web`` modules in a source, at any depth (functions
    too), outside ``if TYPE_CHECKING:``. ``from trainer.web.x import y`` names ``x.y`` when
    ``y`` is a module (a file or package beside it), else ``x``."""
    found: list[WebImport] = []

    def add(target: str, node: ast.stmt) -> None:
        if target == "trainer.web" or target.startswith("trainer.web."):
            found.append(WebImport(path, module, target, node.lineno))

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for statement in node.orelse:
                visit(statement)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node)
            return
        if isinstance(node, ast.ImportFrom):
            base = _absolute(module, is_package, node)
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                add(candidate if _is_module(candidate) else base, node)
            return
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(source))
    return list(dict.fromkeys(found))  # one per statement and module named


def _is_module(name: str) -> bool:
    relative = Path(*name.split("."))
    return (REPO_ROOT / relative.with_suffix(".py")).is_file() or (
        REPO_ROOT / relative / "__init__.py").is_file()


def crossing(found: WebImport) -> str | None:
    """Return why an import crosses from one area into another, or None when it may be made."""
    here, there = area_of(found.module), area_of(found.target)
    if here is None or there is None or here == there:
        return None  # the web package's own __init__, or within one area
    if there in SHARED and (here in SHARED or here in AREAS):
        return None  # the shared floors, beneath every area
    if here in SHARED:
        return f"the shared floor {here} imports the {there} area's {found.target}"
    return f"the {here} area imports the {there} area's {found.target}"


def _web_files() -> list[Path]:
    return sorted(WEB_DIR.rglob("*.py"))


def all_web_imports() -> list[WebImport]:
    found = []
    for file in _web_files():
        found += web_imports(str(file.relative_to(REPO_ROOT)), module_name(file, REPO_ROOT),
                             file.read_text(encoding="utf-8"), file.name == "__init__.py")
    return found


def _fail(problems: list[str], heading: str) -> None:
    if problems:
        pytest.fail(heading + "\n  " + "\n  ".join(problems), pytrace=False)


def test_every_web_module_lies_in_an_area_or_a_shared_floor() -> None:
    problems = []
    for file in _web_files():
        module = module_name(file, REPO_ROOT)
        area = area_of(module)
        if module != "trainer.web" and area not in AREAS | SHARED:
            problems.append(f"{file.relative_to(REPO_ROOT)}: in no area; move it into one of "
                            + ", ".join(f"web/{name}/" for name in sorted(AREAS | SHARED)))
    _fail(problems, "Web modules outside the areas (docs/architecture.md, \"The areas of web/\"):")


def test_no_area_imports_another_areas_module() -> None:
    problems = [f"{found.path}:{found.line}: {why}"
                for found in all_web_imports() if (why := crossing(found)) is not None]
    _fail(problems, "Imports across the web's areas (move the piece both need into "
                    "web/platform/, web/words/ or trainer/services/):")


# -- the check itself can fail ------------------------------------------------------------------


def _crossings(module: str, source: str) -> list[tuple[int, str]]:
    return [(found.line, why) for found in web_imports("x.py", module, source, False)
            if (why := crossing(found)) is not None]


def test_an_area_importing_another_area_is_named_with_its_line() -> None:
    source = ("from trainer.web.platform import access\n"
              "from trainer.web.words.names import rule_name\n"
              "from trainer.web.supervisor import base\n"
              "def page():\n"
              "    from trainer.web.trainee.home import recent_attempts\n")
    assert _crossings("trainer.web.admin.pages", source) == [
        (3, "the admin area imports the supervisor area's trainer.web.supervisor.base"),
        (5, "the admin area imports the trainee area's trainer.web.trainee.home")]


def test_a_shared_floor_importing_an_area_is_named() -> None:
    source = ("from trainer.web.words import names\n"
              "from trainer.web.reference.pages import way_label\n")
    assert _crossings("trainer.web.platform.sheets", source) == [
        (2, "the shared floor platform imports the reference area's trainer.web.reference.pages")]


def test_imports_within_an_area_and_type_checking_imports_pass() -> None:
    source = ("from typing import TYPE_CHECKING\n"
              "from .blueprint import bp\n"
              "from trainer.web.manager.profile_form import ProfileForm\n"
              "if TYPE_CHECKING:\n"
              "    from trainer.web.supervisor.base import bp\n")
    assert _crossings("trainer.web.manager.ways.editor", source) == []


def test_a_module_straight_in_web_is_an_area_of_its_own() -> None:
    assert area_of("trainer.web.drills") == "drills"
    assert area_of("trainer.web") is None
    assert crossing(WebImport("x.py", "trainer.web.drills", "trainer.web.filters", 1)) == (
        "the drills area imports the filters area's trainer.web.filters")
