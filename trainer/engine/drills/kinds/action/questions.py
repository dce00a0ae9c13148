"""The action drill's question, answer and answer key, as stored and shown.

Their JSON forms are the ones every stored row holds: a question ``{"dice": [three],
"banker_seat": n, "occupied": [seats]}``, an answer ``{"seat": n}``, a key ``{"seat": n,
"position": p}``. A round's action step reuses the answer and builds on the key.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ....action import POSITIONS
from ....messages import N_
from ...codec import Answer, Question
from ...schema import Whole

# The seats around the table, 1 (the dealer's) to 7.
SEATS = tuple(range(1, POSITIONS + 1))


@dataclass(frozen=True, slots=True, kw_only=True)
class ActionQuestion(Question):
    """Three dice, the banker's seat and the seats with a hand (the banker's among them)."""

    dice: tuple[int, ...]
    banker_seat: int
    occupied: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ActionAnswer(Answer):
    """The seat the trainee says receives the first pile."""

    seat: int = field(metadata={"schema": Whole(1, POSITIONS,
                                                N_("Pick one of the seven seats (1-7)."))})


@dataclass(frozen=True, slots=True, kw_only=True)
class ActionKey(Answer):
    """The seat that receives the first pile, and its position counted from the banker."""

    seat: int
    position: int
