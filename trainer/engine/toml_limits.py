"""Limits on a TOML text read from outside (a house-way file), checked before parsing.

``tomllib`` parses nested arrays and inline tables by recursion, so 25,000 ``[`` in
a row exhaust Python's recursion limit (``RecursionError``), and it turns a decimal
integer into an ``int``, which Python refuses past 4,300 digits (``ValueError``).
Neither is a ``TOMLDecodeError``, and neither says anything a manager can act on.
``check`` reads the text once, without parsing it, and names the first limit it
breaks:

- ``MAX_BYTES``: the text's size in UTF-8 (a preset file is 48 to 76 KB);
- ``MAX_DEPTH``: how deeply arrays, inline tables and table headers nest, and how many
  dotted parts one key has (a preset's deepest is 4: ``[sections.rules.translations.pt]``);
- ``MAX_NUMBER_CHARS``: the length of a number (a run of digits, letters and ``_``
  starting with a digit or a sign and a digit; a preset's longest is 4).

Strings and comments are skipped, so a bracket or a long digit run inside a quoted
text counts for nothing. The scan is conservative: a quote it cannot match to its
closing quote is read as an ordinary character, so what follows still counts.
"""
from __future__ import annotations

import re

from .messages import N_, Message, Nn_, Plural

MAX_BYTES = 256 * 1024
MAX_DEPTH = 10
MAX_NUMBER_CHARS = 20

_TOKEN = re.compile(
    r'"""(?:[^"\\]|\\.|"{1,2}(?!"))*"{3,5}'     # a multi-line basic string
    r"|'''(?:[^']|'{1,2}(?!'))*'{3,5}"          # a multi-line literal string
    r'|"(?:[^"\\\n]|\\.)*"'                     # a basic string (one line)
    r"|'[^'\n]*'"                               # a literal string (one line)
    r"|#[^\n]*"                                 # a comment
    r"|(?P<number>[+-]?[0-9][0-9A-Za-z_]*)"     # a number (or a key made of digits)
    r"|[A-Za-z_-][0-9A-Za-z_-]*"                # a bare key or a word (true, inf)
    r"|(?P<mark>[\[\]{}.,=\n])",                # the marks that open, close and separate
    re.DOTALL,
)


def _line(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


def check(text: str) -> Message | None:
    """Return the first limit ``text`` breaks, in words, or None when it is within them all."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        return Message(N_("The file is larger than %(limit)s KB (it is %(size)s KB)."),
                       limit=MAX_BYTES // 1024, size=-(-size // 1024))
    # Open brackets, innermost last: "[" (an array or a table header) or "{" (an inline table).
    opened: list[str] = []
    in_key = True       # reading a key (its dots nest tables), not a value
    dots = 0
    for match in _TOKEN.finditer(text):
        number, mark = match.group("number"), match.group("mark")
        if number is not None:
            if len(number) > MAX_NUMBER_CHARS:
                return Plural(Nn_("Line %(line)s holds a number longer than %(count)s "
                                  "character.",
                                  "Line %(line)s holds a number longer than %(count)s "
                                  "characters."),
                              MAX_NUMBER_CHARS, line=_line(text, match.start()))
            continue
        if mark is None:
            continue
        if mark in "[{":
            opened.append(mark)
            if mark == "{":
                in_key, dots = True, 0
            elif not in_key or len(opened) > 2:
                in_key = False   # an array's values (a header's "[" keeps reading a key)
        elif mark in "]}":
            if opened:
                opened.pop()
        elif mark == ".":
            if in_key:
                dots += 1
        elif mark == "=":
            in_key, dots = False, 0
        elif mark == ",":
            if opened and opened[-1] == "{":
                in_key, dots = True, 0
        elif not opened:   # a new line at the top level: the next key
            in_key, dots = True, 0
        if len(opened) > MAX_DEPTH or dots >= MAX_DEPTH:
            return Plural(Nn_("Line %(line)s nests more than %(count)s level deep.",
                              "Line %(line)s nests more than %(count)s levels deep."),
                          MAX_DEPTH, line=_line(text, match.start()))
    return None
