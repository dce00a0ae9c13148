"""Import and export in the presets' format: ``from_toml`` and ``to_toml``.

``from_toml`` checks the text's size, nesting and numbers (``engine/toml_limits.py``)
before ``tomllib`` reads it, and turns a syntax error into an ``EditError`` naming the
line. ``to_toml`` writes the presets' layout (top-level fields, ``[rank_groups]``, each
``[[sections]]`` with ``when = { ... }`` inline, ``[[sections.rules]]``, a table per
translation beside its words); a small writer of its own, since ``tomli-w`` cannot
keep conditions inline (docs/house-ways.md, "Export").
"""
from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from math import isfinite
from typing import Any

from ... import toml_limits
from ...messages import N_, Message, Nn_, Plural
from .errors import EditError, said

_TOML_WHERE = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


def from_toml(text: str) -> dict[str, Any]:
    """Read a house-way file's text; a TOML syntax error is an ``EditError`` naming the line."""
    if not isinstance(text, str):
        raise EditError([said("file", Message(N_("The file is not text.")))])
    # Size, nesting and number length before parsing: tomllib recurses on nesting and
    # Python refuses a decimal int past 4,300 digits (engine/toml_limits.py).
    too_much = toml_limits.check(text)
    if too_much is not None:
        raise EditError([said("file", too_much)])
    try:
        return tomllib.loads(text)
    except RecursionError:  # the scan above should have said it
        raise EditError([said("file", Plural(Nn_(
            "The file nests more than %(count)s level deep.",
            "The file nests more than %(count)s levels deep."), toml_limits.MAX_DEPTH))]) from None
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        where = _TOML_WHERE.search(message)
        if where is None:
            raise EditError([said("file", Message(N_("The file is not a house-way file: "
                                                      "%(error)s."), error=message))]) from None
        line, column = where.groups()
        what = message[:where.start()].rstrip(".")
        raise EditError([said(f"line {line}", Message(N_("The file cannot be read at line "
                                                          "%(line)s, column %(column)s: "
                                                          "%(error)s."), line=line,
                                                       column=column, error=what))]) from None
    except ValueError:  # a number Python will not read (past 4,300 digits): as the scan says
        raise EditError([said("file", Plural(Nn_(
            "The file holds a number longer than %(count)s character.",
            "The file holds a number longer than %(count)s characters."),
            toml_limits.MAX_NUMBER_CHARS))]) from None


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
            "\r": "\\r"}


def _toml_str(s: str) -> str:
    out = []
    for ch in s:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _toml_key(k: Any) -> str:
    if not isinstance(k, str):
        raise ValueError("A house way's field names must be text.")
    return k if _BARE_KEY.fullmatch(k) else _toml_str(k)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not isfinite(v):
            raise ValueError("A house way cannot hold an infinite number.")
        return repr(v)
    if isinstance(v, str):
        return _toml_str(v)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        items = [f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items() if x is not None]
        return "{ " + ", ".join(items) + " }" if items else "{}"
    raise ValueError("A house way holds only text, numbers, yes/no, lists and tables.")


def _is_table_list(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, Mapping) for x in v)


def to_toml(data: Mapping[str, Any]) -> str:
    """Write a house way in the presets' format: the top-level fields, then
    ``[rank_groups]``, then each ``[[sections]]`` with its ``[[sections.rules]]``
    (conditions as inline ``when = { ... }``), ``[[coverage]]`` and ``[[examples]]``.
    ``tomllib.loads(to_toml(d)) == d`` (fields whose value is None are left out)."""
    title = str(data.get("title", data.get("name", "House way")))
    lines = ["# " + "".join(ch if ch.isprintable() else " " for ch in title).strip(),
             "# Exported by the Pai Gow dealer trainer; the same format as its preset files.",
             ""]
    _toml_table(lines, [], data)
    return "\n".join(lines).rstrip("\n") + "\n"


def _toml_table(lines: list[str], path: list[str], table: Mapping[str, Any]) -> None:
    top = not path
    later = []
    for k, v in table.items():
        if v is None:
            continue
        if (top and isinstance(v, Mapping)) or _is_table_list(v) or (
                k == "translations" and isinstance(v, Mapping)
                and all(isinstance(w, Mapping) for w in v.values())):
            later.append((k, v))
        else:
            lines.append(f"{_toml_key(k)} = {_toml_value(v)}")
    for k, v in later:
        name = ".".join(_toml_key(p) for p in [*path, k])
        if k == "translations" and isinstance(v, Mapping):
            # One table a language, beside the words it translates (the presets' layout).
            for lang, words in v.items():
                lines.extend(["", f"[{name}.{_toml_key(lang)}]"])
                _toml_table(lines, [*path, k, lang], words)
        elif isinstance(v, Mapping):
            lines.extend(["", f"[{name}]"])
            _toml_table(lines, [*path, k], v)
        else:
            for item in v:
                lines.extend(["", f"[[{name}]]"])
                _toml_table(lines, [*path, k], item)
