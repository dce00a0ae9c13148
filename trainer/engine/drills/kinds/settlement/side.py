"""Side bets at a settled table, typed: the question's header, each seat's pay, the parts.

The settlement and the round deal, settle and word side bets with ``side_bet_parts``
(shared, on JSON); these are their typed forms, whose JSON is what those functions read
and write: the header ``{"table", "envy", "payment"?, "meter_cents"?}``, a seat's pay
``{"seat", "bonus_paid_cents", "envy_paid_cents"?}`` (a round's answer and key list
them), and the graded parts (a bonus bet's, an envy's).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...codec import JSON_NAME, OMIT_NONE, Answer, from_json, to_json
from ...side_bet_parts import ENVY_PART, key_answer


@dataclass(frozen=True, slots=True, kw_only=True)
class SideBet:
    """The side bet a table offers: its pay table, its Envy table, how it pays, a meter."""

    table: str
    envy: str | None = None
    # "for-one" when the table pays "for 1" under the question's side-bet rules.
    payment: str | None = field(default=None, metadata=OMIT_NONE)
    # A progressive's meter shown, in cents.
    meter_cents: int | None = field(default=None, metadata=OMIT_NONE)

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON form (what ``side_bet_parts`` reads)."""
        data: dict[str, Any] = to_json(self)
        return data


@dataclass(frozen=True, slots=True, kw_only=True)
class SidePaid(Answer):
    """What one seat's side bet is paid (0 when it loses) and, at an Envy table, its envy."""

    seat: int
    bonus_paid_cents: int
    envy_paid_cents: int | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True, kw_only=True)
class GradedSide:
    """What every graded side-bet part of a seat holds (``side_bet_parts.graded_parts``),
    first in its JSON: the part's own fields follow."""

    seat: int
    # ``side_bet_parts.BONUS_PART`` (the side bets' rule family) or ``ENVY_PART``.
    part: str
    # Always null: an amount is free-form (docs/drills.md "Guessing does not pay").
    chance: None = None
    correct: bool
    rule_id: str
    paid_cents: int
    given_cents: int | None
    bet_cents: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BonusPart(GradedSide):
    """One seat's side bet, graded: the bonus hand's name and category."""

    name: str
    category: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class EnvyPart(GradedSide):
    """One seat's envy, graded: who paid it (seat or null for the dealer, hand, cents)."""

    paid_by: tuple[tuple[int | None, str, int], ...] = field(metadata={JSON_NAME: "from"})


SidePart = BonusPart | EnvyPart


def read_side_parts(parts: Iterable[dict[str, Any]]) -> tuple[SidePart, ...]:
    """Return ``side_bet_parts.graded_parts``'s dicts as typed parts."""
    return tuple(from_json(EnvyPart, p) if p.get("part") == ENVY_PART else from_json(BonusPart, p)
                 for p in parts)


def side_parts_json(parts: Sequence[Any]) -> list[dict[str, Any]]:
    """Return a grade's side-bet parts as the JSON ``side_bet_parts`` words."""
    return [to_json(p) for p in parts if isinstance(p, GradedSide)]


def paid_of(key: dict[str, Any]) -> SidePaid:
    """Return one seat's right side-bet pay from its ``side_bet_parts.settle_side`` key."""
    return SidePaid(seat=key["seat"], **key_answer(key))
