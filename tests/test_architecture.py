"""The floors of ``trainer/`` (docs/architecture.md): imports run one way, downwards.

cli -> factory -> web -> services -> models -> extensions -> engine. Every module is
imported, then its source is read with ``ast``: each ``import`` (at module level or
inside a function, outside ``if TYPE_CHECKING:`` blocks) must name a module on its own
floor or a lower one. The engine imports no Flask, SQLAlchemy or Werkzeug, the engine
commands load neither, and the modules import each other without a cycle: every
import counts there too, inside functions as well (an import moved into a function
only hides a cycle until the function runs), and so does a module importing itself.
"""
from __future__ import annotations

import ast
import importlib
import json
import pkgutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest

import trainer

PACKAGE_DIR = Path(trainer.__file__).resolve().parent
REPO_ROOT = PACKAGE_DIR.parent

# Lowest first. ``trainer/__init__.py`` is the factory (create_app); ``extensions.py``
# holds the unbound extension objects, which models and everything above may use.
FLOORS = ("engine", "extensions", "models", "services", "web", "factory", "cli")
FLOOR_ORDER = " < ".join(FLOORS)

APP_LIBRARIES = ("flask", "sqlalchemy", "werkzeug")  # and every flask_* package
ENGINE_COMMAND_MODULES = ("trainer.cli", "trainer.cli.bonus", "trainer.cli.engine", "trainer.cli.house_way",
                          "trainer.cli.io")


@dataclass(frozen=True)
class Import:
    """One import statement's target, where it is written, and when it runs."""

    module: str       # the importing module, e.g. "trainer.services.drills"
    target: str       # the module imported, absolute, e.g. "trainer.models.drill"
    line: int
    text: str         # the statement as written, for the failure message
    at_import: bool   # runs when the module is imported (not inside a function)

    @property
    def where(self) -> str:
        return _where(self)


def _where(found: Import) -> str:
    return f"{_relative_path(found.module)}:{found.line}"


def _all_module_names() -> list[str]:
    names = ["trainer"]
    # A package that fails to import is still listed; the first test reports the error.
    for info in pkgutil.walk_packages(trainer.__path__, prefix="trainer.", onerror=lambda name: None):
        names.append(info.name)
    return sorted(names)


MODULES = _all_module_names()


@cache
def _module_file(name: str) -> Path:
    module = importlib.import_module(name)
    assert module.__file__, name
    return Path(module.__file__).resolve()


def _relative_path(name: str) -> str:
    return str(_module_file(name).relative_to(REPO_ROOT))


def _is_package(name: str) -> bool:
    return _module_file(name).name == "__init__.py"


def floor_of(name: str) -> str | None:
    """Return the floor of a trainer module, or None if it lies outside every floor."""
    if name == "trainer":
        return "factory"
    parts = name.split(".")
    if parts[0] != "trainer":
        return None
    if parts[1] in ("engine", "extensions", "models", "services", "web", "cli"):
        return parts[1]
    return None


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _resolve_from(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """Return the absolute module a ``from ... import`` names (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    package = module if is_package else module.rpartition(".")[0]
    base = package.split(".")
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _targets(module: str, is_package: bool, node: ast.Import | ast.ImportFrom) -> list[str]:
    """Return the modules an import statement loads: ``from pkg import sub`` loads pkg.sub."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = _resolve_from(module, is_package, node)
    targets = []
    for alias in node.names:
        candidate = f"{base}.{alias.name}"
        targets.append(candidate if candidate in MODULES else base)
    return list(dict.fromkeys(targets))


def imports_in_source(module: str, source: str, is_package: bool) -> list[Import]:
    """Return every import in a module's source, at any depth, outside ``if TYPE_CHECKING:``."""
    found: list[Import] = []

    def visit(node: ast.AST, at_import: bool) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for statement in node.orelse:
                visit(statement, at_import)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            written = ast.get_source_segment(source, node) or ""
            text = " ".join(written.replace("(", "").replace(")", "").split())
            for target in _targets(module, is_package, node):
                found.append(Import(module, target, node.lineno, text, at_import))
            return
        inside_function = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for child in ast.iter_child_nodes(node):
            visit(child, at_import and not inside_function)

    visit(ast.parse(source), True)
    return found


@cache
def imports_of(module: str) -> tuple[Import, ...]:
    """Return every import in a trainer module (see ``imports_in_source``)."""
    return tuple(imports_in_source(module, _module_file(module).read_text(encoding="utf-8"),
                                   _is_package(module)))


def _fail(problems: list[str], heading: str) -> None:
    if problems:
        pytest.fail(heading + "\n  " + "\n  ".join(problems), pytrace=False)


def test_every_module_imports_and_lies_on_a_floor() -> None:
    problems = []
    for name in MODULES:
        try:
            importlib.import_module(name)
        except Exception as error:  # report every broken module, not just the first
            problems.append(f"{name}: import failed: {type(error).__name__}: {error}")
            continue
        if floor_of(name) is None:
            problems.append(f"{_relative_path(name)}: not on any floor; move it into one of "
                            "engine/, models/, services/, web/, cli/")
    _fail(problems, "Modules that do not import or lie outside the floors:")


def runs_up(found: Import) -> str | None:
    """Return why an import runs up the floors (at module level or inside a function), or None."""
    floor, target_floor = floor_of(found.module), floor_of(found.target)
    if floor is None or target_floor is None:
        return None  # a module off the floors (reported above), or a library
    if FLOORS.index(target_floor) <= FLOORS.index(floor):
        return None
    when = "" if found.at_import else " inside a function"
    return f"{floor} imports {found.target}{when} ({target_floor}, a higher floor)"


def test_imports_run_down_the_floors() -> None:
    problems = [f"{_where(found)}: `{found.text}`: {why}"
                for name in MODULES for found in imports_of(name)
                if (why := runs_up(found)) is not None]
    _fail(problems, f"Imports that run up the floors ({FLOOR_ORDER}):")


def _app_library(target: str) -> bool:
    top = target.split(".")[0]
    return top in APP_LIBRARIES or top.startswith("flask_")


def test_the_engine_imports_no_flask_sqlalchemy_or_werkzeug() -> None:
    problems = [
        f"{found.where}: `{found.text}`"
        for name in MODULES if floor_of(name) == "engine"
        for found in imports_of(name) if _app_library(found.target)
    ]
    _fail(problems, "The engine is pure Python; these imports load the web or database stack:")


def test_the_services_import_no_flask_werkzeug_or_click() -> None:
    # Services are called with plain arguments: no request, no app config, no
    # translated wording (the web layer words refusals), no CLI exceptions.
    problems = [
        f"{found.where}: `{found.text}`"
        for name in MODULES if floor_of(name) == "services"
        for found in imports_of(name)
        if found.target.split(".")[0] in ("flask", "werkzeug", "click")
        or found.target.startswith("flask_")
    ]
    _fail(problems, "Services take plain arguments; these imports reach the web or CLI stack:")


def test_the_engine_commands_import_no_flask_or_sqlalchemy_when_loaded() -> None:
    problems = [
        f"{found.where}: `{found.text}` (import it inside the function that needs it)"
        for name in ENGINE_COMMAND_MODULES
        for found in imports_of(name) if found.at_import and _app_library(found.target)
    ]
    _fail(problems, "The engine commands' modules import the app's stack at module level:")


def _module_level_graph() -> dict[str, list[Import]]:
    return {name: [found for found in imports_of(name)
                   if found.at_import and found.target in MODULES and found.target != name]
            for name in MODULES}


def _import_graph() -> dict[str, list[Import]]:
    """Every import between trainer modules, inside functions too (a self-import included)."""
    return {name: [found for found in imports_of(name) if found.target in MODULES]
            for name in MODULES}


def test_loading_the_engine_commands_reaches_no_module_that_loads_flask() -> None:
    """Follow the module-level imports from the engine commands (the static side of the next test)."""
    graph = _module_level_graph()
    shortest: dict[str, list[str]] = {}  # offending import -> the shortest chain that reaches it
    for start in ENGINE_COMMAND_MODULES:
        path_to = {start: [start]}
        queue = [start]
        while queue:
            current = queue.pop(0)
            for found in imports_of(current):
                if found.at_import and _app_library(found.target):
                    offence = f"{found.where}: `{found.text}`"
                    if offence not in shortest or len(path_to[current]) < len(shortest[offence]):
                        shortest[offence] = path_to[current]
            for found in graph[current]:
                if found.target not in path_to:
                    path_to[found.target] = [*path_to[current], found.target]
                    queue.append(found.target)
    problems = [f"{' -> '.join(chain)}: {offence}" for offence, chain in sorted(shortest.items())]
    _fail(problems, "Importing an engine command loads the app's stack through:")


def test_importing_the_engine_commands_loads_no_flask_or_sqlalchemy() -> None:
    modules = ", ".join(ENGINE_COMMAND_MODULES)
    code = (f"import json, sys, {modules}\n"
            "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60, check=False, cwd=REPO_ROOT)
    if result.returncode != 0:
        pytest.fail(f"`python -c 'import {modules}'` failed:\n{result.stderr}", pytrace=False)
    loaded = set(json.loads(result.stdout.strip().splitlines()[-1]))
    app_stack = sorted(name for name in loaded if _app_library(name))
    if "flask" in loaded or "sqlalchemy" in loaded:
        pytest.fail(f"`import {modules}` loaded {', '.join(app_stack)} (the imports that do it "
                    "are listed by test_loading_the_engine_commands_reaches_no_module_that_loads_flask)",
                    pytrace=False)


def _cycles(graph: Mapping[str, Sequence[Import]]) -> list[tuple[list[str], list[str]]]:
    """Return each strongly connected group of modules (Tarjan) of more than one module, or
    of one that imports itself: (the shortest cycle through its first module, its members)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for found in graph.get(node, ()):
            if found.target not in index:
                connect(found.target)
                low[node] = min(low[node], low[found.target])
            elif found.target in on_stack:
                low[node] = min(low[node], index[found.target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or any(f.target == node for f in graph.get(node, ())):
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            connect(node)

    cycles = []
    for group in groups:
        members = set(group)
        start = min(group)
        # Breadth-first search back to the start inside the group: the shortest cycle.
        paths = {start: [start]}
        queue = [start]
        cycle: list[str] | None = None
        while queue and cycle is None:
            current = queue.pop(0)
            for found in graph.get(current, ()):
                if found.target == start:
                    cycle = [*paths[current], start]
                    break
                if found.target in members and found.target not in paths:
                    paths[found.target] = [*paths[current], found.target]
                    queue.append(found.target)
        cycles.append((cycle or sorted(group), sorted(group)))
    return sorted(cycles)


def _describe_cycles(graph: Mapping[str, Sequence[Import]]) -> list[str]:
    problems = []
    for cycle, members in _cycles(graph):
        steps = []
        for here, there in pairwise(cycle):
            found = next(f for f in graph[here] if f.target == there)
            when = "" if found.at_import else " (inside a function)"
            steps.append(f"{found.where}: `{found.text}`{when}")
        group = (f"\n      all {len(members)} modules of this knot of imports: {', '.join(members)}"
                 if len(members) > len(cycle) - 1 else "")
        problems.append(" -> ".join(cycle) + "\n      " + "\n      ".join(steps) + group)
    return problems


def test_modules_import_each_other_without_a_cycle_not_even_inside_a_function() -> None:
    # An import inside a function still makes the two modules depend on each other: it
    # only hides the cycle from the interpreter until the function runs.
    _fail(_describe_cycles(_import_graph()),
          "Import cycles, inside functions too (TYPE_CHECKING imports aside):")


# --- the reading of imports finds what it is for --------------------------------


def _imports_in(source: str, module: str = "trainer.engine.drills.base") -> list[tuple[str, bool]]:
    return [(found.target, found.at_import) for found in imports_in_source(module, source, is_package=False)]


def test_imports_inside_functions_and_methods_are_read_and_relative_ones_resolved() -> None:
    source = ("import random\n"
              "from .context import DrillContext\n"
              "def old(kind):\n"
              "    from .legacy import GENERATORS\n"
              "class Drill:\n"
              "    from ..house_way import rule_family\n"
              "    def grade(self):\n"
              "        import trainer.services.drills as up\n"
              "        return lambda: __import__('x')\n")
    assert _imports_in(source) == [
        ("random", True), ("trainer.engine.drills.context", True), ("trainer.engine.drills.legacy", False),
        ("trainer.engine.house_way", True), ("trainer.services.drills", False)]


def test_type_checking_imports_are_left_out_and_their_else_branch_kept() -> None:
    source = ("import typing\n"
              "from typing import TYPE_CHECKING\n"
              "if TYPE_CHECKING:\n"
              "    from trainer.models import User\n"
              "else:\n"
              "    from trainer.engine import cards\n"
              "def f():\n"
              "    if typing.TYPE_CHECKING:\n"
              "        from trainer.web import drills\n"
              "    from trainer.engine import hands\n")
    assert _imports_in(source, "trainer.models.example") == [
        ("typing", True), ("typing", True), ("trainer.engine.cards", True), ("trainer.engine.hands", False)]


def _edges(*pairs: tuple[str, str], at_import: bool = True) -> dict[str, list[Import]]:
    graph: dict[str, list[Import]] = {}
    for here, there in pairs:
        graph.setdefault(here, []).append(Import(here, there, 1, f"import {there}", at_import))
        graph.setdefault(there, [])
    return graph


def test_a_cycle_through_a_function_level_import_is_found_with_its_modules_in_order() -> None:
    graph = _edges(("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("b", "e"), ("e", "b"))
    assert _cycles(graph) == [(["a", "b", "c", "a"], ["a", "b", "c", "e"])]
    assert _cycles(_edges(("a", "b"), ("b", "c"), ("a", "c"))) == []


def test_an_upward_import_inside_a_function_runs_up_the_floors() -> None:
    source = "def grade():\n    from trainer.services import drills\n    from trainer.engine import cards\n"
    found = imports_in_source("trainer.engine.drills.base", source, is_package=False)
    assert [runs_up(f) for f in found] == [
        "engine imports trainer.services.drills inside a function (services, a higher floor)", None]


def test_a_module_that_imports_itself_is_a_cycle() -> None:
    assert _cycles(_edges(("a", "a"), ("a", "b"))) == [(["a", "a"], ["a"])]
