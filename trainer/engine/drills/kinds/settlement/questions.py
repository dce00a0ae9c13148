"""The settlement drill's question, answer, answer key and graded parts, as stored and shown.

Their JSON forms are the ones every stored row holds:

- a question ``{"banker": {"back", "front"}, "positions": [{"seat", "back", "front",
  "bet_cents"}], }``, with ``bonus_cents`` on each position and a ``side_bet`` header
  (``SideBet``) at a table that offers a side bet;
- an answer ``{"positions": [{"outcome", "paid_cents"}]}`` (the amount for a winner
  only), a seat with a side bet adding ``bonus_paid_cents`` (and ``envy_paid_cents`` at
  an Envy table);
- a key ``{"positions": [{"seat", "outcome", "paid_cents"}]}`` (``paid_cents`` null for
  a push or a loser), with the side-bet fields of a seat that has one;
- the grade's parts: each seat settled (``SeatPart``), then each side bet and envy
  (``side.BonusPart``, ``side.EnvyPart``).

A round's players are positions too, and its settle step grades seats as ``SeatPart``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from ....messages import N_, EngineError, Message, refusal
from ....settlement import Result
from ...codec import OMIT_NONE, Answer, Question
from ...schema import MAX_CENTS, Each, Maybe, OneOf, Schema, Whole, derived
from ...side_bet_parts import answer_fields
from .side import SideBet


@dataclass(frozen=True, slots=True, kw_only=True)
class Hand:
    """A set hand: five cards in back, two in front."""

    back: tuple[str, ...]
    front: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Position:
    """A seat's set hand and bet (a round's player too); its side bet at such a table."""

    seat: int
    back: tuple[str, ...]
    front: tuple[str, ...]
    bet_cents: int
    # The side bet (0: none); only at a table that offers one.
    bonus_cents: int | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True, kw_only=True)
class SettlementQuestion(Question):
    """The banker's set hand and every position's, with its bet."""

    banker: Hand
    positions: tuple[Position, ...]
    side_bet: SideBet | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class Seat:
    """One position of a question with the table's side bet: what its answer's schema reads."""

    position: Position
    side: SideBet | None


def _side_field(name: str) -> Any:
    """Return the schema of a side-bet field of one seat's answer (None: not taken there)."""
    def schema(seat: Seat, context: Any) -> Schema | None:
        side = seat.side.as_dict() if seat.side is not None else None
        return answer_fields(side, seat.position.bonus_cents or 0, seat.position.seat).get(name)
    return schema


def _outcome_schema(seat: Seat, context: Any) -> Schema:
    return OneOf(tuple(r.value for r in Result),
                 Message(N_("Seat %(seat)s: mark it win, push or lose."), seat=seat.position.seat))


def _amount(seat: int) -> Message:
    return Message(N_("Seat %(seat)s: enter the amount paid, in cents, as a whole number "
                      "up to %(most)s."), seat=seat, most=MAX_CENTS)


def _paid_schema(seat: Seat, context: Any) -> Schema:
    return Maybe(Whole(0, MAX_CENTS, _amount(seat.position.seat)))


@dataclass(frozen=True, slots=True, kw_only=True)
class PositionAnswer(Answer):
    """One position settled: its outcome, the amount paid a winner, its side bet's pay."""

    # In the order a checked answer holds them: the required fields, then the amount.
    outcome: Result = field(metadata={"schema": _outcome_schema})
    bonus_paid_cents: int | None = field(default=None, metadata={
        **OMIT_NONE, "required": True, "schema": _side_field("bonus_paid_cents")})
    envy_paid_cents: int | None = field(default=None, metadata={
        **OMIT_NONE, "required": True, "schema": _side_field("envy_paid_cents")})
    paid_cents: int | None = field(default=None, metadata={**OMIT_NONE, "schema": _paid_schema})


def position_schema(position: Position, side: SideBet | None) -> Schema:
    """Return the shape of one position's settlement: an outcome, and an amount for a winner.

    A seat with a side bet also takes its pay and, at an Envy table, its envy
    (``side_bet_parts.answer_fields``); a seat without one takes neither.
    """
    seat = position.seat

    def amount_for_winners(answer: dict[str, Any]) -> None:
        paid = answer.get("paid_cents")
        if answer["outcome"] == Result.WIN and paid is None:
            raise EngineError(_amount(seat))
        if answer["outcome"] != Result.WIN and paid is not None:
            raise refusal(N_("Seat %(seat)s: only a winner is paid; leave the amount empty."),
                          seat=seat)

    return derived(PositionAnswer, Seat(position, side), None, then=amount_for_winners)


def _positions_schema(question: SettlementQuestion, context: Any) -> Schema:
    return Each([position_schema(p, question.side_bet) for p in question.positions],
                N_("Settle all %(wanted)s positions; %(given)s were answered."))


@dataclass(frozen=True, slots=True, kw_only=True)
class SettlementAnswer(Answer):
    """Every position settled, in the question's order."""

    positions: tuple[PositionAnswer, ...] = field(metadata={"schema": _positions_schema})


@dataclass(frozen=True, slots=True, kw_only=True)
class PositionKey(Answer):
    """How one position is settled: the outcome, a winner's pay, its side bet's pay."""

    seat: int
    outcome: Result
    # Null for a push or a loser (always written).
    paid_cents: int | None = None
    bonus_paid_cents: int | None = field(default=None, metadata=OMIT_NONE)
    envy_paid_cents: int | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True, kw_only=True)
class SettlementKey(Answer):
    """Every position settled right."""

    positions: tuple[PositionKey, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Reset:
    """A fouled hand reset the house way (the house-way foul policy) and its deciding rule."""

    back: tuple[str, ...]
    front: tuple[str, ...]
    rule: str | None


class SettledSeat(Protocol):
    """A graded seat as its words read it (a settlement's ``SeatPart``, a round's seat)."""

    @property
    def seat(self) -> int: ...
    @property
    def correct(self) -> bool: ...
    @property
    def outcome(self) -> Result: ...
    @property
    def paid_cents(self) -> int | None: ...
    @property
    def back(self) -> str: ...
    @property
    def front(self) -> str: ...
    @property
    def fouled(self) -> bool: ...
    @property
    def reset(self) -> Reset | None: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatPart:
    """One seat's main bet, graded: right or wrong, the settlement rule that applies, and
    how it settles (a round's settle step grades its seats as ``round.RoundSeat``)."""

    seat: int
    correct: bool
    rule_id: str
    outcome: Result
    paid_cents: int | None
    back: str
    front: str
    fouled: bool
    commission_cents: int
    reset: Reset | None = field(default=None, metadata=OMIT_NONE)
