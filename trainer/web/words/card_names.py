"""Cards' names and letters in each language: a per-language table (issue 19, item 4).

A card's accessible name starts with what the card shows, then says it in words:
"Q♥, queen of hearts", "Q♥, dama de copas", "Q♥, regina di cuori", "Q♥, дама червей".
The names are a table here, not catalogue entries, because the grammar differs by
language (Russian puts the suit in the genitive, "дама червей", and needs no "of") and
because the on-card letters and the names go together: with the installation's local
letters (``card_letters = local``) a Russian card shows "Д♥" and is named
"Д♥, дама червей". Looked up once per language and letters (``labels``, cached), so
drawing a card costs a dictionary look-up. The choices (the casino words, which local
letters each market prints) are written down in docs/glossary-<lang>.md.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from trainer.engine.cards import RANK_CHARS, SUIT_CHARS, SUIT_SYMBOLS

JOKER_FACE = "JK\u2605"
# The international letters every casino deck prints (the default).
INTERNATIONAL_LETTERS = {"A": "A", "K": "K", "Q": "Q", "J": "J", "T": "10"}


@dataclass(frozen=True)
class CardWords:
    """One language's card words: ranks, suits, how they join, the joker, its local letters."""

    ranks: dict[str, str]          # "Q" -> "dama"
    suits: dict[str, str]          # "h" -> "copas" (the form that follows the rank)
    pattern: str                   # "{rank} de {suit}"
    joker: str                     # "curinga"
    local_letters: dict[str, str]  # the court cards and the ace as that market's decks print them


WORDS: dict[str, CardWords] = {
    "en": CardWords(
        ranks={"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten", "9": "nine",
               "8": "eight", "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three",
               "2": "two"},
        suits={"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"},
        pattern="{rank} of {suit}", joker="joker",
        local_letters=INTERNATIONAL_LETTERS),
    # Brazilian and Portuguese tables: ás, rei, dama, valete; espadas, copas, ouros, paus.
    # Portuguese decks print A R D V (ás, rei, dama, valete).
    "pt": CardWords(
        ranks={"A": "ás", "K": "rei", "Q": "dama", "J": "valete", "T": "dez", "9": "nove",
               "8": "oito", "7": "sete", "6": "seis", "5": "cinco", "4": "quatro", "3": "três",
               "2": "dois"},
        suits={"s": "espadas", "h": "copas", "d": "ouros", "c": "paus"},
        pattern="{rank} de {suit}", joker="curinga",
        local_letters={"A": "A", "K": "R", "Q": "D", "J": "V", "T": "10"}),
    # Spanish tables with the French deck: as, rey, reina, jota; picas, corazones,
    # diamantes, tréboles. Spanish-printed French decks mark rey, dama, jota: A R D J.
    "es": CardWords(
        ranks={"A": "as", "K": "rey", "Q": "reina", "J": "jota", "T": "diez", "9": "nueve",
               "8": "ocho", "7": "siete", "6": "seis", "5": "cinco", "4": "cuatro", "3": "tres",
               "2": "dos"},
        suits={"s": "picas", "h": "corazones", "d": "diamantes", "c": "tréboles"},
        pattern="{rank} de {suit}", joker="comodín",
        local_letters={"A": "A", "K": "R", "Q": "D", "J": "J", "T": "10"}),
    # Italian tables: asso, re, regina (donna), fante; picche, cuori, quadri, fiori.
    # Italian French-suited decks print A R D F (asso, re, donna, fante).
    "it": CardWords(
        ranks={"A": "asso", "K": "re", "Q": "regina", "J": "fante", "T": "dieci", "9": "nove",
               "8": "otto", "7": "sette", "6": "sei", "5": "cinque", "4": "quattro", "3": "tre",
               "2": "due"},
        suits={"s": "picche", "h": "cuori", "d": "quadri", "c": "fiori"},
        pattern="{rank} di {suit}", joker="jolly",
        local_letters={"A": "A", "K": "R", "Q": "D", "J": "F", "T": "10"}),
    # Russian: туз, король, дама, валет; the suit in the genitive plural after the rank
    # (пик, червей, бубён, треф). Russian decks print Т К Д В.
    "ru": CardWords(
        ranks={"A": "туз", "K": "король", "Q": "дама", "J": "валет", "T": "десятка",
               "9": "девятка", "8": "восьмёрка", "7": "семёрка", "6": "шестёрка",
               "5": "пятёрка", "4": "четвёрка", "3": "тройка", "2": "двойка"},
        suits={"s": "пик", "h": "червей", "d": "бубён", "c": "треф"},
        pattern="{rank} {suit}", joker="джокер",
        local_letters={"A": "Т", "K": "К", "Q": "Д", "J": "В", "T": "10"}),
}


def words(language: str) -> CardWords:
    """Return a language's card words (English for a language without a table)."""
    return WORDS.get(language, WORDS["en"])


@cache
def faces(language: str, local: bool) -> dict[str, str]:
    """Return what each rank shows on the card: A K Q J 10 9 ..., or the market's own letters."""
    letters = words(language).local_letters if local else INTERNATIONAL_LETTERS
    return {r: letters.get(r, r) for r in RANK_CHARS}


@cache
def labels(language: str, local: bool) -> dict[str, str]:
    """Return every card's accessible name in a language: {"Qh": "Q♥, dama de copas", ...}."""
    table = words(language)
    shown = faces(language, local)
    names = {"JK": f"{JOKER_FACE}, {table.joker}"}
    for r in RANK_CHARS:
        for s in SUIT_CHARS:
            said = table.pattern.format(rank=table.ranks[r], suit=table.suits[s])
            names[r + s] = f"{shown[r]}{SUIT_SYMBOLS[s]}, {said}"
    return names
