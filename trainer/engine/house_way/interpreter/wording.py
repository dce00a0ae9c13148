"""Wording a rule's explanation for a set hand: its template's fields, filled lazily.

``ExplanationFields`` (English) and ``ExplanationFieldsIn`` (another language,
``words.py``) give a template its fields: the hand's shape words at once, the front
and the back described only when the template asks for them. ``worded`` fills a
template, or the generated sentence when the template cannot be used.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...hands import CARD_RANK, evaluate5
from .. import explanations as E
from .. import kinds as K
from .. import words as W
from .hand import SevenCards
from .splits import BACK_GET, FRONT_GET


def front_text(cards: Sequence[int]) -> str:
    """The two front cards in an English explanation: "a pair of 8s", "A-10"."""
    hi, lo = sorted((CARD_RANK[c] for c in cards), reverse=True)
    if hi == lo:
        return f"a pair of {K.plural(hi)}"
    return f"{rank_word(hi)}-{rank_word(lo)}"


def rank_word(rank: int) -> str:
    """A rank in an explanation: ten written 10, as the cards show it ("A-10 in front")."""
    return "10" if rank == 10 else K.rank_char(rank)


_BACK_WORDS: dict[tuple[str, int], str] = {}


def back_text(cards: Sequence[int], strength: int, wheel: str) -> str:
    """The five back cards in an English explanation, kept per (wheel, strength)."""
    words = _BACK_WORDS.get((wheel, strength))
    if words is None:
        text = evaluate5(cards, wheel).description.split(", joker as")[0]
        words = _BACK_WORDS[(wheel, strength)] = text[0].lower() + text[1:]
    return words


class ExplanationFields(dict[str, str]):
    """Explanation words, the front and back described only when asked for."""

    def __init__(self, hand: SevenCards, split: int) -> None:
        super().__init__(K.shape_fields(hand.shape))
        self.hand = hand
        self.split = split

    def __missing__(self, key: str) -> str:
        h, k = self.hand, self.split
        if key == "front":
            return front_text(FRONT_GET[k](h.cards))
        if key == "back":
            return back_text(BACK_GET[k](h.cards), h.back_strength(k), h.wheel)
        raise KeyError(key)


class ExplanationFieldsIn(dict[str, str]):
    """Explanation words in another language (``words.py``), front and back when asked for."""

    def __init__(self, hand: SevenCards, split: int, lang: str) -> None:
        super().__init__(W.shape_fields(hand.shape, lang))
        self.hand = hand
        self.split = split
        self.lang = lang

    def __missing__(self, key: str) -> str:
        h, k = self.hand, self.split
        if key == "front":
            hi, lo = sorted((CARD_RANK[c] for c in FRONT_GET[k](h.cards)), reverse=True)
            return W.front_words(hi, lo, self.lang)
        if key == "back":
            value = evaluate5(BACK_GET[k](h.cards), h.wheel)
            return W.describe(value.category, value.ranks, self.lang)
        raise KeyError(key)


def worded(template: str, fields: Mapping[str, str], lang: str | None) -> str:
    """Word a rule's explanation (``explanations.fill``, which refuses anything but plain
    fields and caps the length); when it cannot be used (a stored template the editor
    refuses, or a field this hand lacks), the generated sentence of the rule's setting."""
    try:
        return E.fill(template, fields)
    except E.TemplateError:
        return E.fill(W.generated_template(lang), fields)
