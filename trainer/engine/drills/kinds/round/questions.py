"""The round drill's question, answers, answer keys and graded parts, as stored and shown.

A round is dealt once (``RoundQuestion`` without a ``step``: the dice, the seats, the
seven piles and four unused cards, the players' set hands) and asked in three steps;
each step's question is the round with its ``step`` name, and from the banker step on
the banker's seven cards (``banker_cards``), at the settle step the banker's hand as
the house way sets it (``banker``). The steps are named by ``STEPS``; the first is the
action drill's own name (``action.SLUG``), whose answer (a seat) and key it reuses, the
banker step reuses the house-way drill's answer and key, the settle step the
settlement drill's hands and graded seats.

The settle step's answer is the order of settling (``{"order": [{"seat", "action":
"take"}, {"seat", "action": "pay", "paid_cents"}]}``), plus the player-banker's
commission when a player banks and each side bet's pay at a side-bet table; its key
lists the losers taken, the winners paid, the pushes, the bank's net and commission.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ....action import POSITIONS
from ....messages import N_, Message, refusal
from ....settlement import Result
from ...codec import OMIT_NONE, Answer, Question
from ...schema import MAX_CENTS, Each, Fields, ListOf, Maybe, OneOf, Schema, Whole
from ...side_bet_parts import side_fields_schema
from ..action import SLUG as ACTION
from ..action import ActionKey
from ..settlement import Hand, Position, Reset, SideBet, SidePaid

# The round's steps, in the floor's order: the action (the action drill's), the banker's
# hand, the settling. Stored with each step's question; never renamed.
BANKER = "banker"
SETTLE = "settle"
STEPS = (ACTION, BANKER, SETTLE)
# The dealer's seat: it always has a hand (it banks, or plays a player-banker).
DEALER_SEAT = 1


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundQuestion(Question):
    """One round: the dealt table and, as a step's question, what that step may show."""

    dice: tuple[int, ...]
    banker_seat: int
    occupied: tuple[int, ...]
    piles: tuple[tuple[str, ...], ...]
    unused: tuple[str, ...]
    players: tuple[Position, ...]
    side_bet: SideBet | None = field(default=None, metadata=OMIT_NONE)
    step: str | None = field(default=None, metadata=OMIT_NONE)
    banker_cards: tuple[str, ...] | None = field(default=None, metadata=OMIT_NONE)
    banker: Hand | None = field(default=None, metadata=OMIT_NONE)

    @property
    def player_banker(self) -> bool:
        """Tell whether a player banks (the dealer's hand then plays against the bank)."""
        return self.banker_seat != DEALER_SEAT


@dataclass(frozen=True, slots=True, kw_only=True)
class Pile:
    """One pile of the deal, in dealing order: the seat it lands on, dead on an empty one."""

    pile: int
    seat: int
    dead: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundActionKey(ActionKey):
    """The action step's key: the action drill's, and where every pile goes."""

    piles: tuple[Pile, ...]


def _take_or_pay(entry: dict[str, Any], seats: list[int]) -> None:
    if entry["seat"] not in seats:
        raise refusal(N_("Settle only the seats that have a hand."))
    paid = entry.get("paid_cents")
    if entry["action"] == "pay" and paid is None:
        raise refusal(N_("Seat %(seat)s: enter the amount paid, in cents, "
                         "as a whole number."), seat=entry["seat"])
    if entry["action"] == "take" and paid is not None:
        raise refusal(N_("Seat %(seat)s: a bet that is taken is not paid."), seat=entry["seat"])


def _order_schema(question: RoundQuestion, context: Any) -> Schema:
    seats = [p.seat for p in question.players]
    entry = Fields(
        {"seat": Whole(1, POSITIONS, N_("Settle only the seats that have a hand.")),
         "action": OneOf(("take", "pay"), N_("Each seat you settle: take the bet or pay it."))},
        {"paid_cents": Maybe(Whole(0, MAX_CENTS, Message(
            N_("Enter each amount paid in whole cents, up to %(most)s."), most=MAX_CENTS)))},
        then=lambda e: _take_or_pay(e, seats))
    return ListOf(entry, 0, POSITIONS, Message(N_("Settle each seat at most once: a table has "
                                                  "%(seats)s seats."), seats=POSITIONS))


def _commission_schema(question: RoundQuestion, context: Any) -> Schema | None:
    if not question.player_banker:
        return None
    return Whole(0, MAX_CENTS, N_("Enter the commission the player-banker pays, in cents."))


def _side_schema(question: RoundQuestion, context: Any) -> Schema | None:
    if question.side_bet is None:
        return None
    side = question.side_bet.as_dict()
    # One entry per seat with a side bet, in seat order: its pay, and its envy.
    return Each([side_fields_schema(side, p.bonus_cents or 0, p.seat)
                 for p in question.players if p.bonus_cents],
                N_("Pay the side bets of all %(wanted)s seats that have one; "
                   "%(given)s were answered."))


@dataclass(frozen=True, slots=True, kw_only=True)
class OrderEntry(Answer):
    """One seat settled, in the order settled: its bet taken, or paid an amount."""

    seat: int
    action: Literal["take", "pay"]
    paid_cents: int | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True, kw_only=True)
class SettleAnswer(Answer):
    """The settle step's answer: the order of settling, the bank's commission, side bets."""

    order: tuple[OrderEntry, ...] = field(metadata={"schema": _order_schema})
    banker_commission_cents: int | None = field(default=None, metadata={
        **OMIT_NONE, "required": True, "schema": _commission_schema})
    side: tuple[SidePaid, ...] | None = field(default=None, metadata={
        **OMIT_NONE, "required": True, "schema": _side_schema})


@dataclass(frozen=True, slots=True, kw_only=True)
class SettleKey(Answer):
    """The settle step's key: losers taken, then winners paid; the pushes; the bank's figures."""

    order: tuple[OrderEntry, ...]
    pushes: tuple[int, ...]
    banker_net_cents: int | None = field(default=None, metadata=OMIT_NONE)
    banker_commission_cents: int | None = field(default=None, metadata=OMIT_NONE)
    side: tuple[SidePaid, ...] | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundSeat:
    """One seat settled at the settle step, graded: right or wrong, and how it settles
    (the settlement drill's seat, in the order a round's part is stored, without a rule)."""

    seat: int
    correct: bool
    outcome: Result
    paid_cents: int | None
    commission_cents: int
    back: str
    front: str
    fouled: bool
    reset: Reset | None = field(default=None, metadata=OMIT_NONE)
