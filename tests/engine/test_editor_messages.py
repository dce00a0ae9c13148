"""The house-way editor's problems are marked messages, and still read in English (issue 19, item 1).

``editing.validate`` and the file import give each problem as a ``FieldError``: its English
``message`` (the commands and tests read it) and its ``said`` ``Message``, an ``N_``-marked
template Babel extracts, which the editor says in the manager's language. Fuzzed house
ways (every preset with one or two fields replaced by a wrong value or deleted, seeded)
give hundreds of problems; ``data/editor-problems-english.txt`` holds their English as the
editor wrote it before the change (this module's ``problems()`` run with the commit before
it, 70d76c3, on the path), so the English is compared byte for byte, not computed by the
code under test. ``.venv/bin/python tests/engine/test_editor_messages.py`` rewrites it.
"""
from __future__ import annotations

import contextlib
import copy
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg

from trainer.engine.house_way import editing, preset_names
from trainer.engine.messages import Joined, Message

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).resolve().parent / "data" / "editor-problems-english.txt"
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
VALUES: list[Any] = [
    None, "", 5, True, "x", "zz-top", [], {}, "A", "2-6", "K-J", "Q", "14", "T", "1", ["A", "K"],
    {"shapes": ["nope"]}, {"high_pair": "low+high"}, "{bad", "{foo}", "x" * 2100,
    {"pt": {"text": 5}}, {"xx": {}}, {"pt": {"bogus": "y"}}, {"pt": 3}, ["a", 1], {"shapes": []},
    {"any": []}, {"holds": "nope"}, {"pool": "zz"}, "straight.flush", "__del__"]
FILES = ["just text", "name = 'x'\n[[", "a = 1\n", "x = [1,\n"]


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else ()
    for key, value in items:
        yield from _paths(value, (*prefix, key))


def _set(obj: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        obj = obj[key]
    if value == "__del__":
        obj.pop(path[-1])
    else:
        obj[path[-1]] = value


def problems(per_preset: int = 120) -> Iterator[editing.FieldError]:
    """Yield the problems of fuzzed presets, of a few odd whole values, and of broken files."""
    rng = random.Random(7)
    for name in preset_names():
        base = editing.preset_data(name)
        paths = [p for p in _paths(base) if p]
        for _ in range(per_preset):
            data = copy.deepcopy(base)
            for _change in range(rng.choice((1, 1, 2))):
                with contextlib.suppress(KeyError, IndexError, TypeError):
                    _set(data, rng.choice(paths), copy.deepcopy(rng.choice(VALUES)))
            yield from editing.validate(data)
    for whole in (None, 5, "x", {}, {"name": "Bad Name"}):
        yield from editing.validate(whole)
    for text in FILES:
        try:
            editing.from_toml(text)
        except editing.EditError as error:
            yield from error.errors


def written() -> list[str]:
    """Return each distinct problem as "path<TAB>English message", sorted."""
    return sorted({f"{e.path}\t{e.message}" for e in problems()})


def _templates() -> set[str]:
    with open(ROOT / "babel.cfg", encoding="utf-8") as cfg:
        _method_map, options_map = parse_mapping_cfg(cfg)
    options = options_map["trainer/engine/**.py"]
    return {message for _f, _l, message, _c, _ctx in extract_from_dir(
        str(ROOT / "trainer" / "engine"), [("**.py", "python")], {"**.py": options},
        keywords={})}


def _messages(value: Any) -> Iterator[Message]:
    if isinstance(value, Message):
        yield value
        for inner in value.params.values():
            yield from _messages(inner)
    elif isinstance(value, Joined):
        for item in value.items:
            yield from _messages(item)


def test_every_editor_problem_is_a_marked_message_of_named_values() -> None:
    templates = _templates()
    seen = 0
    for problem in problems():
        said = problem.said
        assert isinstance(said, Message), f"an unmarked problem: {problem!r}"
        assert str(said) == problem.message and problem.sentence is said
        for message in _messages(said):
            assert message.template in templates, f"not extracted: {message.template!r}"
            names = set(PLACEHOLDER.findall(message.template))
            assert names <= set(message.params), (message.template, message.params)
            assert not re.search(r"\{\w*\}", message.template), message.template
        seen += 1
    assert seen > 500


def test_the_editors_problems_read_in_english_byte_for_byte_as_before() -> None:
    expected = FIXTURE.read_text(encoding="utf-8").splitlines()
    assert len(expected) > 500
    assert written() == expected


def test_a_sections_rules_that_are_not_a_list_are_a_problem_not_a_crash() -> None:
    """(validate never raises: the translations' check read a section's rules as a list)"""
    data = editing.preset_data("trump-plaza")
    data["sections"][0]["rules"] = 5
    found = editing.validate(data)
    assert [e.message for e in found if e.path == "sections[0].rules"] == \
        [f"Section {data['sections'][0]['number']} has no rules."]


if __name__ == "__main__":
    FIXTURE.write_text("\n".join(written()) + "\n", encoding="utf-8")
    print(f"written {FIXTURE}", file=sys.stderr)
