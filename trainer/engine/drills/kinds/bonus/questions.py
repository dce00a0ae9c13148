"""The bonus drill's question, answer and graded part, as stored and shown.

Their JSON forms are the ones every stored row holds. A question: the pay table, whether
the group's profile offers it, its Envy table (null without one), the bet, for a table
paid "for 1" under the question's side-bet rules ``"payment": "for-one"`` (a question
dealt before those rules has none and pays "to 1" as it did), a progressive's meter,
and the seven cards as dealt (``cards``) or as set (``back`` and ``front``). An answer,
and the key (the right answer): ``qualifies``, ``category``, ``paid_cents``. A part:
``part``, ``correct``, ``rule_id``, ``chance``, ``given`` and ``right`` (the last two
in English words).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ....cards import Card, parse_cards
from ....messages import N_
from ....profiles import SideBetOffer, TableProfile
from ....side_bets import PAY_ORDER, BonusCategory, Payment, PayTable, TableKind, load_table, question_table
from ...codec import OMIT_NONE, Answer, Question
from ...schema import Flag, OneOf, Whole

# The table drilled when the group's profile offers no bonus bet, and the common Envy table.
STANDARD_TABLE = "fortune-standard"
ENVY_TABLE = "envy"
# The most an answer may pay: $1,000,000 (8,000 to 1 on $25 is $200,000; a meter less).
MAX_PAID_CENTS = 100_000_000
CATEGORY_SLUGS = tuple(c.slug for c in PAY_ORDER)
# The three parts of an answer, in order.
PartName = Literal["qualifies", "category", "paid"]


def offered_table(profile: TableProfile) -> tuple[SideBetOffer, bool]:
    """Return the bonus offer a drill settles under this profile, and whether the profile offers it.

    The profile's first bonus or progressive table; else the standard Fortune table
    with Envy (not offered: the drill says so).
    """
    for offer in profile.side_bets:
        if load_table(offer.table).kind in (TableKind.BONUS, TableKind.PROGRESSIVE):
            return offer, True
    return SideBetOffer(STANDARD_TABLE, envy=ENVY_TABLE), False


def envy_table(offer: SideBetOffer) -> PayTable:
    """Return the Envy table whose categories make the cue's "qualifies" (the offer's, or the common one)."""
    return load_table(offer.envy or ENVY_TABLE)


def qualifying(offer: SideBetOffer) -> tuple[BonusCategory, ...]:
    """Return the categories that qualify (pay Envy), best first."""
    envy = envy_table(offer)
    return tuple(c for c in PAY_ORDER if envy.line_for(c) is not None)


@dataclass(frozen=True, slots=True, kw_only=True)
class BonusQuestion(Question):
    """Seven cards, as dealt or as set, and a bonus bet on them at a pay table."""

    table: str
    # Whether the group's profile offers this table (else the drill says it uses the standard).
    offered: bool = True
    # The Envy table; null when the offer has none (the cue then asks of the common one).
    envy: str | None = None
    bet_cents: int
    payment: Payment | None = field(default=None, metadata=OMIT_NONE)
    meter_cents: int | None = field(default=None, metadata=OMIT_NONE)
    cards: tuple[str, ...] | None = field(default=None, metadata=OMIT_NONE)
    back: tuple[str, ...] | None = field(default=None, metadata=OMIT_NONE)
    front: tuple[str, ...] | None = field(default=None, metadata=OMIT_NONE)

    def __post_init__(self) -> None:
        dealt = self.cards is not None and len(self.cards) == 7 \
            and self.back is None and self.front is None
        set_ = self.cards is None and self.back is not None and self.front is not None \
            and len(self.back) == 5 and len(self.front) == 2
        if not (dealt or set_):
            raise ValueError("A bonus question shows seven cards: cards, or a back of five "
                             "and a front of two.")

    @property
    def is_set(self) -> bool:
        """Tell whether the seven are shown as a player set them (a back and a front)."""
        return self.cards is None

    def seven(self) -> tuple[Card, ...]:
        """Return the question's seven cards."""
        if self.cards is not None:
            return parse_cards(self.cards, 7)
        return parse_cards([*(self.back or ()), *(self.front or ())], 7)

    def offer(self) -> SideBetOffer:
        """Return the side-bet offer the question is settled under (its table and Envy table)."""
        return SideBetOffer(self.table, envy=self.envy)

    def pay_table(self) -> PayTable:
        """Return the pay table as the question's side-bet rules pay it (``question_table``)."""
        return question_table({"table": self.table, "payment": self.payment})


@dataclass(frozen=True, slots=True, kw_only=True)
class BonusAnswer(Answer):
    """The dealer's cue, the bonus hand and the amount paid; the answer key is one too."""

    qualifies: bool = field(metadata={"schema": Flag(
        N_("Answer the dealer's cue \"does this qualify?\" with yes or no."))})
    category: str = field(metadata={"schema": OneOf(
        CATEGORY_SLUGS, N_("Name the bonus hand: pick one of the categories."))})
    paid_cents: int = field(metadata={"schema": Whole(
        0, MAX_PAID_CENTS, N_("Enter the amount paid (0 when the bonus bet loses)."))})


@dataclass(frozen=True, slots=True, kw_only=True)
class BonusPart:
    """One graded part: the cue, the category or the amount, with the pay line's rule id.

    ``chance`` is what guessing scores (the cue 1/2, the category 1/12); None for the
    amount, which is free-form. ``given`` and ``right`` are the English words.
    """

    part: PartName
    correct: bool
    rule_id: str
    chance: float | None
    given: str
    right: str
