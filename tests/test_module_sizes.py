"""Small modules, short functions (issue 29, part 3): no module in ``trainer/`` over 600
lines and no function or method over 80.

A module past 600 lines does more than one job and a function past 80 does several
steps; either is split by job, with names that say what each part does (the house-way
editor became ``engine/house_way/editing/``, the proof's ``check_way`` its named steps,
the house-way editor's views ``web/manager/ways/``; docs/architecture.md). A module's
size is its line count; a function's runs from its ``def`` line to its last line
(decorators aside), nested functions and methods included, each measured on its own.
"""
from __future__ import annotations

import ast
from pathlib import Path

import trainer

MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80

PACKAGE_DIR = Path(trainer.__file__).resolve().parent
REPO_ROOT = PACKAGE_DIR.parent

# TEMPORARY, NOT AN EXEMPTION: files being split by other work of issue 29 at the time this
# test was written. The coordinator empties this set when that work lands; the last test
# below fails as soon as a listed file is within both limits (or is gone), so it cannot
# linger.
PENDING_SPLIT: frozenset[str] = frozenset()


def module_files() -> list[Path]:
    return sorted(PACKAGE_DIR.rglob("*.py"))


def relative(path: Path) -> str:
    return path.resolve().relative_to(REPO_ROOT).as_posix()


def long_functions(source: str, limit: int = MAX_FUNCTION_LINES) -> list[tuple[int, str, int]]:
    """Return (line, qualified name, lines) of every function or method longer than ``limit``."""
    found: list[tuple[int, str, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                assert child.end_lineno is not None
                lines = child.end_lineno - child.lineno + 1
                if lines > limit:
                    found.append((child.lineno, name, lines))
                visit(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return found


def module_lines(source: str) -> int:
    return len(source.splitlines())


def test_the_measures_count_a_function_from_def_to_its_last_line_and_a_module_by_lines() -> None:
    def body(indent: int) -> str:
        return "".join(f"{' ' * indent}x{i} = {i}\n" for i in range(79))

    fits = f"@decorator\ndef fits():\n{body(4)}\n"                 # lines 2-81: 80 lines
    grows = f"class Kind:\n    def grows(self):\n{body(8)}        return 1\n"  # 84-164: 81
    source = fits + grows
    assert long_functions(source) == [(84, "Kind.grows", 81)]
    assert long_functions(source, limit=81) == []
    assert module_lines(source) == 164


def test_no_module_in_trainer_is_over_600_lines() -> None:
    too_long = []
    for path in module_files():
        lines = module_lines(path.read_text(encoding="utf-8"))
        if lines > MAX_MODULE_LINES and relative(path) not in PENDING_SPLIT:
            too_long.append(f"{relative(path)}: {lines} lines")
    assert not too_long, (
        f"Modules over {MAX_MODULE_LINES} lines (split each by job, names that say what each "
        "part does):\n  " + "\n  ".join(too_long))


def test_no_function_or_method_in_trainer_is_over_80_lines() -> None:
    too_long = []
    for path in module_files():
        if relative(path) in PENDING_SPLIT:
            continue
        for line, name, lines in long_functions(path.read_text(encoding="utf-8")):
            too_long.append(f"{relative(path)}:{line} {name}: {lines} lines")
    assert not too_long, (
        f"Functions over {MAX_FUNCTION_LINES} lines (split each into named steps):\n  "
        + "\n  ".join(too_long))


def test_every_file_pending_a_split_is_still_too_large() -> None:
    """The temporary list holds only files that still break a limit: a file split (or
    gone) must leave the list, so nothing stays exempt once its split has landed."""
    done = []
    for name in sorted(PENDING_SPLIT):
        path = REPO_ROOT / name
        if not path.is_file():
            done.append(f"{name}: no such file")
            continue
        source = path.read_text(encoding="utf-8")
        if module_lines(source) <= MAX_MODULE_LINES and not long_functions(source):
            done.append(f"{name}: within both limits")
    assert not done, "Remove from PENDING_SPLIT:\n  " + "\n  ".join(done)
