"""The hand-reading drill's question, answer and answer key, as stored and shown.

A question names a five-card hand ``{"mode": "category", "hand": [five]}`` or compares
two ``{"mode": "compare", "a": [...], "b": [...]}`` (five cards each, or two); the
answer and the key are ``{"category": <slug>}`` or ``{"winner": "a" | "b" | "copy"}``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ....hands import Category
from ....messages import N_
from ...codec import OMIT_NONE, Answer, Question
from ...schema import OneOf, Schema

WINNERS = ("a", "b", "copy")


@dataclass(frozen=True, slots=True, kw_only=True)
class ReadingQuestion(Question):
    """A hand to name (``hand``), or two hands to compare (``a`` and ``b``)."""

    mode: Literal["category", "compare"]
    hand: tuple[str, ...] | None = field(default=None, metadata=OMIT_NONE)
    a: tuple[str, ...] | None = field(default=None, metadata=OMIT_NONE)
    b: tuple[str, ...] | None = field(default=None, metadata=OMIT_NONE)


def _category_schema(question: ReadingQuestion, context: Any) -> Schema | None:
    """A category's slug, when the question names a hand."""
    if question.mode != "category":
        return None
    return OneOf([c.slug for c in Category], N_("That is not a hand category: name one of them."))


def _winner_schema(question: ReadingQuestion, context: Any) -> Schema | None:
    """a, b or copy, when the question compares two hands."""
    if question.mode == "category":
        return None
    return OneOf(WINNERS, N_("Answer a, b or copy."))


@dataclass(frozen=True, slots=True, kw_only=True)
class ReadingAnswer(Answer):
    """The category named, or the hand said to win (one of them, as the question asks)."""

    category: str | None = field(default=None, metadata={
        **OMIT_NONE, "schema": _category_schema, "required": True})
    winner: str | None = field(default=None, metadata={
        **OMIT_NONE, "schema": _winner_schema, "required": True})


@dataclass(frozen=True, slots=True, kw_only=True)
class ReadingKey(Answer):
    """The hand's category, or which hand wins."""

    category: str | None = field(default=None, metadata=OMIT_NONE)
    winner: str | None = field(default=None, metadata=OMIT_NONE)
