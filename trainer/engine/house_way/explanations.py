"""Explanation templates: the one reader and the one filler (issue 24).

A rule's ``explain`` template (and each translation's) is a sentence with words in
braces the trainer fills in for the hand at hand: ``"Two pair, {high_pair} and
{low_pair}: split"``. Only a plain ``{field}`` is a placeholder; ``{{`` and ``}}``
write a brace. Python's own ``str.format`` is never used on a template: it also reads
format specs (``{front:>100000000}``: a 100 MB answer), conversions (``{pair!r}``),
attribute and index access (``{front.__class__}``, ``{back[0]}``) and positional fields
(``{0}``), none of which a sentence needs.

* ``problem(text)``: why a template cannot be used (a ``Problem``: a code and a
  sentence), or None. The rules: text of at most ``MAX_CHARS`` characters, at most
  ``MAX_FIELDS`` placeholders, each a plain ``{field}`` the trainer fills in, every
  other brace doubled. The editor (``editing.validate``) refuses a template with a
  problem; loading a stored way keeps it but does not use it (``interpreter``).
* ``fill(text, values)``: the one function that words an explanation. It refuses
  (``TemplateError``) a template with a problem or a field ``values`` lacks, and never
  returns more than ``MAX_OUTPUT`` characters, so that no path can blow up even when
  the validation was bypassed.

Pure: no I/O. Parsed templates are cached (by text, only templates of at most
``MAX_CHARS`` characters), so wording an explanation costs a join.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..messages import N_, Message, Nn_, Plural
from . import kinds as K

__all__ = ["LANGUAGE_WORDS", "MAX_CHARS", "MAX_FIELDS", "MAX_OUTPUT", "Problem", "Template",
           "TemplateError", "fill", "named", "parse", "problem"]

# At most this many characters in a template (the longest preset's is 155)...
MAX_CHARS = 300
# ...and this many placeholders (the presets use at most 4).
MAX_FIELDS = 20
# What ``fill`` returns at most: far above any valid template's words (300 characters and
# 20 hand descriptions of under 100 characters each), a cap for defence only.
MAX_OUTPUT = 4000
ELLIPSIS = "…"

# The problems' codes. A stored way holding one of the LOADABLE ones is kept and loads (its
# explanation is not used: the generated sentence is); BRACES and UNKNOWN were refused at
# load before issue 24 too, so no stored way holds them.
NOT_TEXT = "not-text"
TOO_LONG = "too-long"
TOO_MANY = "too-many"
NOT_PLAIN = "not-plain"
BRACES = "braces"
UNKNOWN = "unknown"
LOADABLE = frozenset({TOO_LONG, TOO_MANY, NOT_PLAIN})

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# A placeholder's field name: what comes before a format spec, conversion, attribute or index.
_HEAD = re.compile(r"[^.\[!:]*")


@dataclass(frozen=True, slots=True)
class Problem:
    """Why a template cannot be used: ``code`` (one of the codes above) and ``said``, a
    sentence to show (``str()`` is its English)."""

    code: str
    said: Message

    def __str__(self) -> str:
        return str(self.said)


class TemplateError(ValueError):
    """A template that cannot be filled in; ``problem`` says why."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


@dataclass(frozen=True, slots=True)
class Template:
    """A usable template: its pieces, each (text before, field or None), and its fields."""

    parts: tuple[tuple[str, str | None], ...]
    fields: tuple[str, ...]


# The languages an explanation is written in, named in a sentence about it (issue 24).
LANGUAGE_WORDS: dict[str, str] = {"en": N_("English"), "pt": N_("Portuguese"),
                                  "es": N_("Spanish"), "it": N_("Italian"), "ru": N_("Russian")}


# The sentence ``named`` makes: it says its own place (the editor does not add one).
NAMED = N_("Rule %(rule)s, explanation in %(language)s: %(why)s")


def named(problem: Problem, rule: str, lang: str) -> Message:
    """Return a problem as a sentence naming the rule (its number) and the language:
    "Rule 3.2, explanation in Spanish: The explanation writes {front:>9}: ..."."""
    language = LANGUAGE_WORDS.get(lang)
    return Message(NAMED, rule=rule,
                   language=Message(language) if language else lang, why=problem.said)


def _known_words(fields: Sequence[str]) -> str:
    return ", ".join("{" + f + "}" for f in fields)


def _braces() -> Problem:
    # (the braces are the explanation's own syntax: a value, never the catalogue's)
    return Problem(BRACES, Message(N_("The explanation has a %(open)s or %(close)s without its "
                                      "partner: write words to fill in as %(example)s, and no "
                                      "other braces."), open="'{'", close="'}'",
                                   example="{pair}"))


def _parse(text: str, fields: tuple[str, ...]) -> Template | Problem:
    """Read a template of at most MAX_CHARS characters: its pieces, or its first problem."""
    parts: list[tuple[str, str | None]] = []
    literal: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "}":
            if text.startswith("}}", i):
                literal.append("}")
                i += 2
                continue
            return _braces()
        if c != "{":
            j = i + 1
            while j < n and text[j] not in "{}":
                j += 1
            literal.append(text[i:j])
            i = j
            continue
        if text.startswith("{{", i):
            literal.append("{")
            i += 2
            continue
        close = text.find("}", i + 1)
        if close < 0:
            return _braces()
        inner = text[i + 1:close]
        head = _HEAD.match(inner)
        name = head.group() if head else inner
        if "{" in name:  # "{a {b}": an opening brace inside a placeholder
            return _braces()
        if name not in fields:
            return Problem(UNKNOWN, Message(
                N_("The explanation uses %(field)s, which the trainer cannot fill in: use "
                   "%(known)s."), field="{" + (name or inner) + "}", known=_known_words(fields)))
        if inner != name or not _NAME.fullmatch(name):
            # A format spec, conversion, attribute or index (or a nested placeholder).
            return Problem(NOT_PLAIN, Message(
                N_("The explanation writes %(placeholder)s: only a plain word in braces, such "
                   "as %(example)s, can be filled in (nothing after the word: no ':', '!', "
                   "'.' or '[')."), placeholder=text[i:close + 1][:40], example="{" + name + "}"))
        parts.append(("".join(literal), name))
        literal = []
        i = close + 1
    if len(parts) > MAX_FIELDS:
        return Problem(TOO_MANY, Plural(
            Nn_("The explanation has %(count)s word in braces: at most %(most)s can be "
                "filled in.",
                "The explanation has %(count)s words in braces: at most %(most)s can be "
                "filled in."), len(parts), most=str(MAX_FIELDS)))
    if literal:
        parts.append(("".join(literal), None))
    return Template(tuple(parts), tuple(dict.fromkeys(f for _, f in parts if f is not None)))


@lru_cache(maxsize=4096)
def _cached(text: str, fields: tuple[str, ...]) -> Template | Problem:
    return _parse(text, fields)


def _read(text: object, fields: Sequence[str] | None) -> Template | Problem:
    known = K.TEMPLATE_FIELDS if fields is None else tuple(fields)
    if not isinstance(text, str):
        return Problem(NOT_TEXT, Message(N_("%(what)s must be text."),
                                        what=Message(N_("The explanation"))))
    if len(text) > MAX_CHARS:
        # (the limit written without a thousands comma, as the editor's other limits)
        return Problem(TOO_LONG, Message(N_("%(what)s is too long: at most %(most)s characters."),
                                         what=Message(N_("The explanation")),
                                         most=str(MAX_CHARS)))
    return _cached(text, known)


def problem(text: object, fields: Sequence[str] | None = None) -> Problem | None:
    """Return why ``text`` cannot be an explanation template (``fields``: the words the
    trainer fills in, ``kinds.TEMPLATE_FIELDS`` by default), or None when it can."""
    found = _read(text, fields)
    return found if isinstance(found, Problem) else None


def parse(text: object, fields: Sequence[str] | None = None) -> Template:
    """Return a template's pieces; ``TemplateError`` when it has a problem."""
    found = _read(text, fields)
    if isinstance(found, Problem):
        raise TemplateError(found)
    return found


def fill(text: object, values: Mapping[str, object],
         fields: Sequence[str] | None = None) -> str:
    """Word an explanation: the template with each ``{field}`` replaced by ``values[field]``.

    ``TemplateError`` when the template has a problem or ``values`` lacks one of its
    fields; never more than ``MAX_OUTPUT`` characters (cut, with an ellipsis).
    """
    template = parse(text, fields)
    out: list[str] = []
    size = 0
    for before, field in template.parts:
        out.append(before)
        size += len(before)
        if field is not None:
            try:
                value = values[field]
            except (KeyError, LookupError):
                raise TemplateError(Problem(UNKNOWN, Message(
                    N_("The explanation uses %(field)s, but this hand has no such cards to "
                       "name."), field="{" + field + "}"))) from None
            word = (value if isinstance(value, str) else str(value))[:MAX_OUTPUT + 1]
            out.append(word)
            size += len(word)
        if size > MAX_OUTPUT:
            break
    said = "".join(out)
    if len(said) > MAX_OUTPUT:
        said = said[:MAX_OUTPUT - len(ELLIPSIS)] + ELLIPSIS
    return said
