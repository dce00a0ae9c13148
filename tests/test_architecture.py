"""The floors of ``trainer/`` (docs/architecture.md): imports run one way, downwards.

cli -> factory -> web -> services -> models -> extensions -> engine. Every module is
imported, then its source is read with ``ast``: each ``import`` (at module level or
inside a function, outside ``if TYPE_CHECKING:`` blocks) must name a module on its own
floor or a lower one. The engine imports no Flask, SQLAlchemy or Werkzeug, the engine
commands load neither, and the modules import each other without a cycle.
"""
from __future__ import annotations

import ast
import importlib
import json
import pkgutil
import subprocess
import sys
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
        return f"{_relative_path(self.module)}:{self.line}"


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


def _resolve_from(module: str, node: ast.ImportFrom) -> str:
    """Return the absolute module a ``from ... import`` names (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    package = module if _is_package(module) else module.rpartition(".")[0]
    base = package.split(".")
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """Return the modules an import statement loads: ``from pkg import sub`` loads pkg.sub."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = _resolve_from(module, node)
    targets = []
    for alias in node.names:
        candidate = f"{base}.{alias.name}"
        targets.append(candidate if candidate in MODULES else base)
    return list(dict.fromkeys(targets))


@cache
def imports_of(module: str) -> tuple[Import, ...]:
    """Return every import in a module's source outside ``if TYPE_CHECKING:`` blocks."""
    source = _module_file(module).read_text(encoding="utf-8")
    found: list[Import] = []

    def visit(node: ast.AST, at_import: bool) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child, at_import)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            written = ast.get_source_segment(source, node) or ""
            text = " ".join(written.replace("(", "").replace(")", "").split())
            for target in _targets(module, node):
                found.append(Import(module, target, node.lineno, text, at_import))
            return
        inside_function = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for child in ast.iter_child_nodes(node):
            visit(child, at_import and not inside_function)

    visit(ast.parse(source, filename=str(_module_file(module))), True)
    return tuple(found)


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


def test_imports_run_down_the_floors() -> None:
    problems = []
    for name in MODULES:
        floor = floor_of(name)
        if floor is None:
            continue  # reported by the test above
        for found in imports_of(name):
            target_floor = floor_of(found.target)
            if target_floor is None:
                continue  # the standard library or a third-party package
            if FLOORS.index(target_floor) > FLOORS.index(floor):
                problems.append(f"{found.where}: `{found.text}`: {floor} imports {found.target} "
                                f"({target_floor}, a higher floor)")
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


def _cycles(graph: dict[str, list[Import]]) -> list[list[str]]:
    """Return one cycle through each strongly connected group of modules (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for found in graph[node]:
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
            if len(group) > 1:
                groups.append(group)

    for node in graph:
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
            for found in graph[current]:
                if found.target == start:
                    cycle = [*paths[current], start]
                    break
                if found.target in members and found.target not in paths:
                    paths[found.target] = [*paths[current], found.target]
                    queue.append(found.target)
        cycles.append(cycle or sorted(group))
    return cycles


def test_modules_import_each_other_without_a_cycle() -> None:
    graph = _module_level_graph()
    problems = []
    for cycle in _cycles(graph):
        steps = []
        for here, there in pairwise(cycle):
            found = next(f for f in graph[here] if f.target == there)
            steps.append(f"{found.where}: `{found.text}`")
        problems.append(" -> ".join(cycle) + "\n      " + "\n      ".join(steps))
    _fail(problems, "Module-level import cycles (TYPE_CHECKING imports aside):")
