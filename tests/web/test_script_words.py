"""Issue 19: the page scripts hold no words of their own (docs/architecture.md, "Translations").

A script shows the words its page rendered for it (``data-text-*`` attributes, translated
by the template) or a server-rendered fragment; an English sentence in a string literal
of ``static/js`` would never reach a catalogue. This reads every script's string
literals (comments left out) and fails on one that reads as words: two words or more
separated by spaces, or a capitalised word ending a sentence. A technical string that
looks like words (a CSS selector list) goes in ``TECHNICAL``.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "static" / "js"
# Comments first, so a quote in a comment starts no string; then the three string forms.
TOKEN = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`",
                   re.S)
WORDS = re.compile(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}|^[A-Z][a-z]+[.!?]$")
# Selector lists and other strings that are not for people.
TECHNICAL = {"use strict", "button, input", "#question button, #question input", "chip chip-"}


def words_in(source: str) -> list[str]:
    """Return the string literals of a script that read as words for people."""
    found = []
    for token in TOKEN.finditer(source):
        text = token.group()
        if text.startswith("/"):
            continue
        body = text[1:-1]
        if WORDS.search(body) and body not in TECHNICAL:
            found.append(body)
    return found


def test_the_check_finds_words_and_skips_comments_and_selectors() -> None:
    source = """
    // the trainee's settle step: "not a string"
    count.textContent = "Seven cards are chosen already.";
    el.querySelectorAll("button, input"); key === "Enter"; x = 'Done.';
    /* it's "a comment" */ y = ' of ' + total + " cards chosen";
    """
    assert words_in(source) == ["Seven cards are chosen already.", "Done.", " cards chosen"]


@pytest.mark.parametrize("script", sorted(p.relative_to(SCRIPTS).as_posix()
                                          for p in SCRIPTS.rglob("*.js")))
def test_scripts_hold_no_words(script: str) -> None:
    found = words_in((SCRIPTS / script).read_text(encoding="utf-8"))
    assert not found, (f"static/js/{script} shows words of its own: {found}; render them in "
                       "the page (a data-text-* attribute with _()) and read them there")
