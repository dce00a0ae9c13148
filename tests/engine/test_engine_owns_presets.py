"""The engine is the one owner of the house-way presets, the table-rules profiles and their defaults.

Everything else asks it (``preset_names``, ``DEFAULT_HOUSE_WAY``, ``profile_names``,
``DEFAULT_PROFILE``): no other module reads the presets folder or writes a default's
name, so adding a preset or a profile, or changing a default, is one edit in the engine.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

from trainer.engine.house_way import DEFAULT_HOUSE_WAY, preset_names
from trainer.engine.profiles import DEFAULT_PROFILE, PROFILES, get_profile, profile_names

ROOT = Path(__file__).resolve().parents[2]
TRAINER = ROOT / "trainer"
ENGINE = TRAINER / "engine"
DEFAULTS = {DEFAULT_PROFILE, DEFAULT_HOUSE_WAY}
# A path into the presets folder or at a preset file, however it is spelt.
PRESET_PATH = re.compile(r"(^|[/\\])presets([/\\]|$)|\.toml$")
LISTING_CALLS = {"glob", "rglob", "iterdir", "listdir", "scandir", "walk"}


def _dict_key_nodes(tree: ast.AST) -> set[int]:
    """Return the ids of constants used as dict keys (or inside tuple keys): data keyed by name."""
    keys: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key in node.keys:
                if key is not None:
                    keys.update(id(n) for n in ast.walk(key))
    return keys


def _strings(path: Path) -> list[tuple[int, str]]:
    """Return (line, text) of each string constant in a module that is not a dict key."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    keys = _dict_key_nodes(tree)
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in keys]


def _outside_engine() -> list[Path]:
    return [p for p in sorted(TRAINER.rglob("*.py")) if ENGINE not in p.parents]


def _where(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT)}:{line}"


def test_profile_names_are_every_profile_with_the_default_first() -> None:
    names = profile_names()
    assert names[0] == DEFAULT_PROFILE
    assert sorted(names) == sorted(PROFILES) and len(set(names)) == len(names)
    assert [get_profile(name).name for name in names] == names
    assert preset_names()[0] == DEFAULT_HOUSE_WAY


def test_no_module_outside_the_engine_repeats_a_default() -> None:
    found = [f"{_where(path, line)} {text!r}" for path in _outside_engine()
             for line, text in _strings(path) if text in DEFAULTS]
    quoted = re.compile("|".join(rf"[\"']{re.escape(name)}[\"']" for name in DEFAULTS))
    for folder in (ROOT / "templates", ROOT / "static"):
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in {".html", ".js"}):
            for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if quoted.search(text):
                    found.append(f"{_where(path, number)} {text.strip()}")
    assert found == [], "ask trainer.engine for DEFAULT_PROFILE / DEFAULT_HOUSE_WAY instead"


def test_no_module_outside_the_engine_reads_the_presets_folder() -> None:
    found = []
    for path in _outside_engine():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{_where(path, line)} {text!r}" for line, text in _strings(path)
                  if PRESET_PATH.search(text)]
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name in LISTING_CALLS and re.search(r"preset|toml|engine", ast.unparse(node), re.I):
                    found.append(f"{_where(path, node.lineno)} {ast.unparse(node)}")
            # A path built into the engine's package, e.g. Path(__file__).parent / "engine".
            if (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)
                    and isinstance(node.right, ast.Constant) and node.right.value == "engine"):
                found.append(f"{_where(path, node.lineno)} {ast.unparse(node)}")
    assert found == [], "ask trainer.engine.house_way.preset_names() instead"


def test_inside_the_engine_each_default_is_written_once() -> None:
    owners = {DEFAULT_PROFILE: ENGINE / "profiles.py",
              DEFAULT_HOUSE_WAY: ENGINE / "house_way" / "interpreter" / "presets.py"}
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        for line, text in _strings(path):
            if text in owners and path != owners[text]:
                found.append(f"{_where(path, line)} {text!r}")
    assert found == [], "use DEFAULT_PROFILE / DEFAULT_HOUSE_WAY"
