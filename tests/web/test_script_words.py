"""Issue 19: the page scripts hold no words of their own (docs/architecture.md, "Translations").

A script shows the words its page rendered for it (``data-text-*`` attributes, translated
by the template) or a server-rendered fragment; an English sentence in a string literal
of ``static/js`` or of a drill kind's script (its web folder's ``kind.js``,
``templates/drills/kinds/<slug>/``) would never reach a catalogue. This reads every script's string
literals (comments left out) and fails on one that reads as words: two words or more
separated by spaces, or a capitalised word ending a sentence. A technical string that
looks like words (a CSS selector list) goes in ``TECHNICAL``.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "static" / "js"
# Each drill kind's script lives in its web folder (served as /static/kinds/<slug>.js).
KIND_SCRIPTS = ROOT / "templates" / "drills" / "kinds"
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


def all_scripts() -> list[str]:
    """Return every page script, relative to the repository: static/js and the kinds' own."""
    return sorted(p.relative_to(ROOT).as_posix()
                  for p in (*SCRIPTS.rglob("*.js"), *KIND_SCRIPTS.rglob("*.js")))


def test_the_kinds_scripts_are_read_too() -> None:
    assert any(name.startswith("templates/drills/kinds/") for name in all_scripts())


@pytest.mark.parametrize("script", all_scripts())
def test_scripts_hold_no_words(script: str) -> None:
    found = words_in((ROOT / script).read_text(encoding="utf-8"))
    assert not found, (f"{script} shows words of its own: {found}; render them in "
                       "the page (a data-text-* attribute with _()) and read them there")
