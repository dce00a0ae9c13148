"""Settlement with side bets: the bonus, envy, Queen's Dragon (docs/side-bets.md).

A side bet is always against the house: whoever banks the main game, the house pays
a winning side bet and takes a losing one, and a player-banker never pays one. A
bonus is judged on the seat's seven cards whatever the setting, so a fouled hand
still gets its bonus and still collects envies. Pay tables are "to 1": the stake is
kept and is not part of the win, except the progressive's, paid "for 1": the dealer
collects every progressive wager when the cards are dealt and a winner is paid the
amount with no stake returned (``PayTable.payment``). ``rules`` is the side-bet rules
version to settle by (``side_bets.SIDE_BET_RULES``; 1: the progressive paid "to 1").
Money is integer cents.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .hands import is_queen_high_pai_gow
from .messages import N_, Money, refusal
from .profiles import SideBetOffer, TableProfile, get_profile
from .settlement import Settlement, commission_cents, settle
from .side_bets import (
    SIDE_BET_RULES,
    BonusCategory,
    Payment,
    PayTable,
    TableKind,
    bonus_category,
    load_table,
)

if TYPE_CHECKING:
    from .house_way import HouseWay


@dataclass(frozen=True)
class BonusResult:
    """One settled side bet: the pay line (by rule id) and the money.

    ``win_cents`` is the pay line's amount and ``paid_cents`` what the dealer hands
    over (the amount less any commission); ``net_cents`` is the player's result: a
    "to 1" winner keeps the stake too, a "for 1" winner's stake was collected at the
    deal (``payment``), a loser is down the stake.
    """

    table: str
    rule_id: str
    name: str
    category: BonusCategory | None
    bet_cents: int
    win_cents: int
    commission_cents: int
    net_cents: int
    payment: Payment = Payment.TO_ONE

    @property
    def won(self) -> bool:
        """Tell whether the bet won."""
        return self.win_cents > 0

    @property
    def paid_cents(self) -> int:
        """Return what the dealer pays the bet (0 when it loses)."""
        return self.win_cents - self.commission_cents if self.won else 0

    @property
    def collected_at_deal(self) -> bool:
        """Tell whether the stake was collected when the cards were dealt ("for 1")."""
        return self.payment is Payment.FOR_ONE

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON form used by the command line and exports."""
        return {"table": self.table, "rule_id": self.rule_id, "name": self.name,
                "category": self.category.slug if self.category is not None else None,
                "bet_cents": self.bet_cents, "win_cents": self.win_cents,
                "commission_cents": self.commission_cents, "paid_cents": self.paid_cents,
                "net_cents": self.net_cents, "payment": self.payment.value}


def _verify_side_bet(bet_cents: int, offer: SideBetOffer, table: PayTable) -> None:
    if isinstance(bet_cents, bool) or not isinstance(bet_cents, int):
        raise refusal(N_("The side bet must be a whole number of cents."))
    if not offer.min_cents <= bet_cents <= offer.max_cents:
        if offer.min_cents == offer.max_cents:
            raise refusal(N_("The %(table)s bet is a fixed %(amount)s."), table=table.title,
                          amount=Money(offer.min_cents))
        raise refusal(N_("The %(table)s bet must be between %(low)s and %(high)s at this table."),
                      table=table.title, low=Money(offer.min_cents), high=Money(offer.max_cents))


def _offer(profile: TableProfile, table: str | None, kinds: tuple[TableKind, ...],
           rules: int = SIDE_BET_RULES) -> tuple[SideBetOffer, PayTable]:
    if table is None:
        for offer in profile.side_bets:
            if load_table(offer.table, rules).kind in kinds:
                return offer, load_table(offer.table, rules)
        raise ValueError("This table offers no such side bet.")
    offer = profile.side_bet(table)
    paytable = load_table(offer.table, rules)
    if paytable.kind not in kinds:
        raise ValueError(f"{paytable.title} is not settled this way.")
    return offer, paytable


def _result(offer: SideBetOffer, table: PayTable, profile: TableProfile, bet_cents: int,
            category: BonusCategory | None, slug: str | None, meter_cents: int | None
            ) -> BonusResult:
    line = (table.line_for(category) if category is not None
            else table.line_by_slug(slug) if slug else None)
    if line is None:
        return BonusResult(table.name, table.losing_rule_id, "Nothing", category, bet_cents, 0, 0,
                           -bet_cents, table.payment)
    win = line.win_cents(bet_cents, meter_cents)
    commission = commission_cents(win, profile) if offer.commission else 0
    return BonusResult(table.name, line.rule_id, line.name, category, bet_cents, win, commission,
                       table.net_cents(win - commission, bet_cents), table.payment)


def settle_bonus(seven: Sequence[int], bonus_bet_cents: int, profile: TableProfile | str,
                 table: str | None = None, meter_cents: int | None = None,
                 rules: int = SIDE_BET_RULES) -> BonusResult:
    """Settle a bonus (or progressive) bet on seven cards, against the house.

    ``table`` None: the profile's first bonus or progressive table. A progressive's
    meter lines need ``meter_cents``; it is paid "for 1" (under ``rules`` 2 and on).
    """
    profile = get_profile(profile)
    offer, paytable = _offer(profile, table, (TableKind.BONUS, TableKind.PROGRESSIVE), rules)
    _verify_side_bet(bonus_bet_cents, offer, paytable)
    if meter_cents is not None and (isinstance(meter_cents, bool) or not isinstance(meter_cents, int)
                                    or meter_cents < 0):
        raise ValueError("The meter must be a whole number of cents, zero or more.")
    category = bonus_category(seven, paytable.match)
    return _result(offer, paytable, profile, bonus_bet_cents, category, None, meter_cents)


def queens_dragon(banker_seven: Sequence[int], bet_cents: int, profile: TableProfile | str,
                  table: str | None = None, rules: int = SIDE_BET_RULES) -> BonusResult:
    """Settle a Queen's Dragon bet on the banker's seven cards (queen-high pai gow pays)."""
    profile = get_profile(profile)
    offer, paytable = _offer(profile, table, (TableKind.QUEENS_DRAGON,), rules)
    _verify_side_bet(bet_cents, offer, paytable)
    if len(banker_seven) != 7 or len(set(banker_seven)) != 7:
        raise ValueError("The banker's hand is seven different cards.")
    slug = "queen-high-pai-gow" if is_queen_high_pai_gow(tuple(banker_seven)) else None
    return _result(offer, paytable, profile, bet_cents, None, slug, None)


@dataclass(frozen=True)
class SeatSettlement:
    """A seat's main bet and bonus bet, settled together."""

    main: Settlement
    bonus: BonusResult | None
    net_cents: int


def settle_seat(player_back: Sequence[int], player_front: Sequence[int],
                banker_back: Sequence[int], banker_front: Sequence[int], bet_cents: int,
                bonus_bet_cents: int | None, profile: TableProfile | str,
                house_way: HouseWay | str | None = None, meter_cents: int | None = None,
                table: str | None = None, rules: int = SIDE_BET_RULES) -> SeatSettlement:
    """Settle one seat's main bet against the banker and its bonus bet against the house.

    The bonus is judged on the player's seven cards as dealt, whatever the setting (a
    fouled hand still gets its bonus). ``bonus_bet_cents`` None or 0: no bonus bet.
    """
    profile = get_profile(profile)
    main = settle(player_back, player_front, banker_back, banker_front, bet_cents, profile,
                  house_way)
    if not bonus_bet_cents:
        return SeatSettlement(main, None, main.net_cents)
    bonus = settle_bonus((*player_back, *player_front), bonus_bet_cents, profile, table,
                         meter_cents, rules)
    return SeatSettlement(main, bonus, main.net_cents + bonus.net_cents)


@dataclass(frozen=True)
class EnvyPayment:
    """An envy paid to ``seat`` for the hand of ``from_seat`` (None: the dealer's hand)."""

    seat: int
    from_seat: int | None
    category: BonusCategory
    rule_id: str
    name: str
    amount_cents: int

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"seat": self.seat, "from_seat": self.from_seat, "category": self.category.slug,
                "rule_id": self.rule_id, "name": self.name, "amount_cents": self.amount_cents}


def envy_payments(hands: Sequence[Sequence[int] | None], bonus_bets_cents: Sequence[int],
                  profile: TableProfile | str, dealer_hand: Sequence[int] | None = None
                  ) -> list[EnvyPayment]:
    """Return every envy the house pays: one per seat and per other qualifying hand.

    ``hands`` are the seats' seven cards (None for an empty seat) and
    ``bonus_bets_cents`` their bonus bets (0: none). A seat collects only with a bonus
    bet of at least the envy table's minimum, never for its own hand, and once for
    each other qualifying hand. The dealer's hand pays envy only if the table says so.
    """
    profile = get_profile(profile)
    if len(hands) != len(bonus_bets_cents):
        raise ValueError("Give one bonus bet (0 for none) for every seat.")
    offers = [o for o in profile.side_bets if o.envy]
    if not offers:
        return []
    envy = load_table(offers[0].envy or "")
    minimum = envy.min_bonus_bet_cents or 0
    made: list[tuple[int | None, BonusCategory]] = []
    for index, hand in enumerate(hands):
        if hand is not None:
            made.append((index, bonus_category(hand, envy.match)))
    if dealer_hand is not None and envy.dealer_pays:
        made.append((None, bonus_category(dealer_hand, envy.match)))
    payments = []
    for seat, bet in enumerate(bonus_bets_cents):
        if hands[seat] is None or not bet or bet < minimum:
            continue
        for from_seat, category in made:
            line = envy.line_for(category)
            if from_seat != seat and line is not None:
                payments.append(EnvyPayment(seat, from_seat, category, line.rule_id, line.name,
                                            line.win_cents(bet)))
    return payments


@dataclass(frozen=True)
class RoundBonuses:
    """Every side bet of a round, and what the house pays and takes for them.

    ``house_takes_cents`` counts every stake the house keeps: a losing bet's, and a
    "for 1" bet's even when it wins (collected at the deal); ``house_pays_cents`` what
    the dealer pays out (winners, less any commission, and envies).
    """

    bonuses: tuple[BonusResult | None, ...]
    envies: tuple[EnvyPayment, ...]
    dragon: tuple[BonusResult | None, ...]
    house_pays_cents: int
    house_takes_cents: int
    banker_pays_cents: int = 0

    @property
    def house_net_cents(self) -> int:
        """Return the house's result on the side bets (positive: the house wins)."""
        return self.house_takes_cents - self.house_pays_cents


def settle_round_bonuses(hands: Sequence[Sequence[int] | None], bonus_bets_cents: Sequence[int],
                         profile: TableProfile | str, banker_hand: Sequence[int] | None = None,
                         banker_seat: int | None = None,
                         dragon_bets_cents: Sequence[int] | None = None,
                         dealer_hand: Sequence[int] | None = None,
                         meter_cents: int | None = None,
                         rules: int = SIDE_BET_RULES) -> RoundBonuses:
    """Settle a round's side bets, all against the house.

    ``banker_seat`` is the seat of a player-banker, if one banks: their own side bets
    are settled like anyone's, against the house, and they pay none
    (``banker_pays_cents`` is always 0). ``banker_hand`` (seven cards) decides
    Queen's Dragon; ``dealer_hand`` is the dealer's seven cards for envy (paid only
    if the envy table's data says so).
    """
    profile = get_profile(profile)
    if len(hands) != len(bonus_bets_cents):
        raise ValueError("Give one bonus bet (0 for none) for every seat.")
    if banker_seat is not None and not 0 <= banker_seat < len(hands):
        raise ValueError("The player-banker's seat is not at the table.")
    bonuses = tuple(
        settle_bonus(hand, bet, profile, meter_cents=meter_cents, rules=rules)
        if hand is not None and bet
        else None for hand, bet in zip(hands, bonus_bets_cents, strict=True))
    envies = tuple(envy_payments(hands, bonus_bets_cents, profile, dealer_hand))
    dragon: tuple[BonusResult | None, ...] = ()
    if dragon_bets_cents is not None:
        if banker_hand is None:
            raise ValueError("Queen's Dragon is settled on the banker's hand: give it.")
        dragon = tuple(queens_dragon(banker_hand, bet, profile, rules=rules) if bet else None
                       for bet in dragon_bets_cents)
    settled = [r for r in (*bonuses, *dragon) if r is not None]
    pays = sum(r.paid_cents for r in settled) + sum(e.amount_cents for e in envies)
    takes = sum(r.bet_cents for r in settled if not r.won or r.collected_at_deal)
    return RoundBonuses(bonuses, envies, dragon, pays, takes, 0)
