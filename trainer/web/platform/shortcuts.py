"""Shortcut letters for a row of choices, from the words on the buttons (issue 26).

Each button's key is the first letter of its own word in the reader's language (Win,
Push, Lose: W, P, L; Ganha, Empate, Perde: G, E, P; Выигрыш, Ничья, Проигрыш: В, Н,
П), so a dealer reads the letter as the word it starts. Two words that begin alike
would make a key mean two things: the later one then takes its next letter no other
button uses (a translation should avoid that; tests/web/test_reader_formats.py checks, in
each language, that a drill's keys are distinct and are the initials of its own words).
"""
from __future__ import annotations

from collections.abc import Iterable


def initial(word: str) -> str:
    """Return a word's first letter, lower-cased ("" for a word without one)."""
    return next((c.lower() for c in word if c.isalpha()), "")


def shortcut_keys(words: Iterable[object]) -> list[str]:
    """Return a key per word: its initial, else (taken already) its next unused letter."""
    keys: list[str] = []
    for word in words:
        letters = [c.lower() for c in str(word) if c.isalpha()]
        key = next((c for c in letters if c not in keys), "")
        keys.append(key)
    return keys
