"""The foul check's question, answer and answer key, as stored and shown.

A question is a player's set hand ``{"back": [five], "front": [two]}``; an answer
``{"fouled": bool}``, with the two front cards it is reset to (``"front"``) when it is
called fouled under the house-way foul policy; the key ``{"fouled": bool}`` and, for a
fouled hand under that policy, the house way's ``"reset"`` (the house-way drill's key).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ....messages import N_, Message
from ...codec import OMIT_NONE, Answer, Question
from ...schema import Cards, Flag, Schema
from ..house_way import SetKey


@dataclass(frozen=True, slots=True, kw_only=True)
class FoulQuestion(Question):
    """A set hand: its five back cards and two front cards, each in the order shown."""

    back: tuple[str, ...]
    front: tuple[str, ...]


def _reset_schema(question: FoulQuestion, context: Any) -> Schema:
    """Two of the hand's seven cards."""
    return Cards(2, [*question.back, *question.front], Message(N_("front")))


@dataclass(frozen=True, slots=True, kw_only=True)
class FoulAnswer(Answer):
    """Fouled or legal, and the front a hand called fouled is reset to (house-way policy)."""

    fouled: bool = field(metadata={"schema": Flag()})
    front: tuple[str, ...] | None = field(default=None,
                                          metadata={**OMIT_NONE, "schema": _reset_schema})


@dataclass(frozen=True, slots=True, kw_only=True)
class FoulKey(Answer):
    """Whether the hand is fouled, and the house way's reset of it when that is the rule."""

    fouled: bool
    reset: SetKey | None = field(default=None, metadata=OMIT_NONE)
