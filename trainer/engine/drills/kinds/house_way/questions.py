"""The house-way drill's question, answer and answer key, as stored and shown.

Their JSON forms are the ones every stored row holds: a question ``{"cards": [seven]}``,
an answer ``{"front": [two of them]}``, a key the house way's setting
(``HouseWaySetting.as_dict``: back, front, rule, explanation). The foul check's reset and
the round's banker step reuse them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ....cards import card_list
from ....house_way import HouseWaySetting
from ....messages import N_, Message
from ...codec import Answer, Question
from ...schema import Cards, Schema


@dataclass(frozen=True, slots=True, kw_only=True)
class SetQuestion(Question):
    """The banker's seven cards, in the order shown."""

    cards: tuple[str, ...]


def _front_schema(question: SetQuestion, context: Any) -> Schema:
    """Two of the question's seven cards."""
    return Cards(2, question.cards, Message(N_("front")))


@dataclass(frozen=True, slots=True, kw_only=True)
class SetAnswer(Answer):
    """The two cards the trainee puts in front (the other five are the back)."""

    front: tuple[str, ...] = field(metadata={"schema": _front_schema})


@dataclass(frozen=True, slots=True, kw_only=True)
class SetKey(Answer):
    """How the house way sets the seven cards: back, front, its deciding rule and why."""

    back: tuple[str, ...]
    front: tuple[str, ...]
    rule: str
    explanation: str

    @classmethod
    def of(cls, setting: HouseWaySetting) -> SetKey:
        """Return the key of a house way's setting (its explanation worded now)."""
        return cls(back=tuple(card_list(setting.back)), front=tuple(card_list(setting.front)),
                   rule=setting.rule, explanation=setting.explanation)
