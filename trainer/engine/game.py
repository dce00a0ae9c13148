"""The player's game: one hand against the banker, set by the player or the house way.

Pure functions for the practice table: deal the player's and the banker's seven
cards from ``random.Random(seed)``, check the player's setting (the seven dealt
cards, two in front, not fouled), set a hand the house way, and settle the bet
both ways, the player's and the house way's, so the cost of a deviation shows.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from .bonus_settlement import BonusResult, queens_dragon, settle_bonus
from .cards import Card, card_list, deal, parse_cards
from .hands import evaluate2, evaluate5
from .house_way import HouseWay, HouseWaySetting, load
from .messages import N_, EngineError, Money, refusal
from .profiles import DEFAULT_PROFILE, SideBetOffer, TableProfile, get_profile
from .setting import SPLITS, SetHand, foul_message, foul_reason
from .settlement import Settlement, settle, verify_bet
from .side_bets import TableKind, load_table

CHIPS_CENTS: tuple[int, ...] = (100, 500, 2500, 10_000)
STARTING_BALANCE_CENTS = 100_000
# The side bet offered when the profile offers none: the standard Fortune table, $1 to $25.
STANDARD_SIDE_BET = SideBetOffer("fortune-standard")
# A progressive's meter at the practice table: one player, no meter to grow, so a fixed
# figure ($10,000, a common reset value) stands for it.
PRACTICE_METER_CENTS = 1_000_000


def game_side_bet(profile: TableProfile | str) -> SideBetOffer:
    """Return the side bet the player's game offers under a profile (docs/side-bets.md).

    The profile's first bonus or progressive table; else its Queen's Dragon (an EZ
    table); else the standard Fortune table ($1 to $25). Envy needs another player's
    hand, so a table of one never pays it.
    """
    profile = get_profile(profile)
    for kinds in ((TableKind.BONUS, TableKind.PROGRESSIVE), (TableKind.QUEENS_DRAGON,)):
        for offer in profile.side_bets:
            if load_table(offer.table).kind in kinds:
                return offer
    return STANDARD_SIDE_BET


def side_bet_sizes(offer: SideBetOffer) -> tuple[int, ...]:
    """Return the side bets the table's chooser offers (cents): the chips within the limits."""
    sizes = tuple(c for c in (100, 500, 1000, 2500) if offer.min_cents <= c <= offer.max_cents)
    return sizes or (offer.min_cents,)


def _with_offer(profile: TableProfile, offer: SideBetOffer) -> TableProfile:
    """Return the profile offering ``offer`` (the standard Fortune bet a profile lacks)."""
    if offer in profile.side_bets:
        return profile
    return replace(profile, side_bets=(*profile.side_bets, offer))


def verify_side_bet(bonus_cents: int, profile: TableProfile | str) -> None:
    """Raise ValueError unless the side bet is none (0) or within the offered bet's limits."""
    if isinstance(bonus_cents, bool) or not isinstance(bonus_cents, int):
        raise refusal(N_("The side bet must be a whole number of cents."))
    if bonus_cents == 0:
        return
    offer = game_side_bet(profile)
    title = load_table(offer.table).title
    if offer.min_cents == offer.max_cents and bonus_cents != offer.min_cents:
        raise refusal(N_("The %(table)s bet is a fixed %(amount)s."), table=title,
                      amount=Money(offer.min_cents))
    if not offer.min_cents <= bonus_cents <= offer.max_cents:
        raise refusal(N_("The %(table)s bet must be between %(low)s and %(high)s."), table=title,
                      low=Money(offer.min_cents), high=Money(offer.max_cents))


def settle_side_bet(game_deal: GameDeal, bonus_cents: int, profile: TableProfile | str
                    ) -> BonusResult | None:
    """Settle the player's side bet against the house (None without one).

    A bonus or the progressive is judged on the player's seven cards as dealt;
    Queen's Dragon on the banker's seven.
    """
    if not bonus_cents:
        return None
    table = get_profile(profile)
    offer = game_side_bet(table)
    offering = _with_offer(table, offer)
    if load_table(offer.table).kind is TableKind.QUEENS_DRAGON:
        return queens_dragon(game_deal.banker, bonus_cents, offering, offer.table)
    return settle_bonus(game_deal.player, bonus_cents, offering, offer.table,
                        PRACTICE_METER_CENTS)


@dataclass(frozen=True, slots=True)
class GameDeal:
    """The seven cards of the player and the seven of the banker, from one deck."""

    player: tuple[Card, ...]
    banker: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class HandResult:
    """A settled hand: the player's setting and the house way's, each settled."""

    player: SetHand
    house: HouseWaySetting
    banker: HouseWaySetting
    settlement: Settlement
    house_settlement: Settlement
    wheel: str
    bonus: BonusResult | None = None

    @property
    def cost_cents(self) -> int:
        """Return what the player's setting cost against the house way's (negative: gained)."""
        return self.house_settlement.net_cents - self.settlement.net_cents


def deal_hand(seed: int) -> GameDeal:
    """Deal fourteen distinct cards from a shuffled deck: seven to the player, seven to the banker."""
    cards = deal(random.Random(seed), 14)
    return GameDeal(cards[:7], cards[7:])


def verify_deal_bet(bet_cents: int, balance_cents: int,
                    profile: TableProfile | str = DEFAULT_PROFILE, bonus_cents: int = 0) -> None:
    """Raise ValueError unless the bets are within the table limits and the balance covers them.

    The balance must cover the worst loss: the bet, any flat fee and the side bet.
    """
    profile = get_profile(profile)
    verify_bet(bet_cents, profile)
    verify_side_bet(bonus_cents, profile)
    fee = 0 if profile.no_commission or profile.fee_cents is None else profile.fee_cents
    if bet_cents + fee + bonus_cents > balance_cents:
        balance = Money(balance_cents)
        if fee and bonus_cents:
            raise refusal(N_("The bet (with the %(fee)s fee) with the side bet is more than your "
                             "balance of %(balance)s."), fee=Money(fee), balance=balance)
        if fee:
            raise refusal(N_("The bet (with the %(fee)s fee) is more than your balance of "
                             "%(balance)s."), fee=Money(fee), balance=balance)
        if bonus_cents:
            raise refusal(N_("The bet with the side bet is more than your balance of "
                             "%(balance)s."), balance=balance)
        raise refusal(N_("The bet is more than your balance of %(balance)s."), balance=balance)


def split_table(seven: Sequence[int], wheel: str) -> dict[str, dict[str, Any]]:
    """Describe all 21 settings of the player's seven: legal or fouled, and why.

    Keyed by the two front cards' places among the seven ("i-j", the lower first), so
    the page can keep Done disabled with the reason
    shown without another trip to the server; the server checks again on Done.
    """
    cards = tuple(Card(c) for c in seven)
    table: dict[str, dict[str, Any]] = {}
    for back_idx, front_idx in SPLITS:
        back = tuple(cards[i] for i in back_idx)
        front = tuple(cards[i] for i in front_idx)
        reason = foul_reason(back, front, wheel)
        table[f"{front_idx[0]}-{front_idx[1]}"] = {
            "fouled": reason is not None,
            "reason": reason,
            "back": evaluate5(back, wheel).description,
            "front": evaluate2(front).description,
        }
    return table


def verify_setting(seven: Sequence[int], front: Sequence[str], wheel: str) -> SetHand:
    """Return the player's setting of ``seven`` with ``front`` in front; ValueError if fouled.

    The front must be two different cards of the seven dealt, in notation.
    """
    if not isinstance(front, (list, tuple)) or not all(isinstance(c, str) for c in front):
        raise refusal(N_("Pick two cards for the front."))
    front_cards = parse_cards(list(front))
    if len(front_cards) != 2:
        raise refusal(N_("The front (low hand) needs 2 cards; it has %(given)s."),
                      given=len(front_cards))
    dealt = tuple(Card(c) for c in seven)
    for card in front_cards:
        if card not in dealt:
            raise refusal(N_("%(card)s is not one of your cards."), card=card)
    back = tuple(c for c in dealt if c not in front_cards)
    reason = foul_message(back, front_cards, wheel)
    if reason is not None:
        raise EngineError(reason)
    return SetHand(back, front_cards)


def house_way_setting(seven: Sequence[int], house_way: HouseWay | str, wheel: str
                      ) -> HouseWaySetting:
    """Set seven cards by a house way: the way itself, or a preset's name."""
    way = house_way if isinstance(house_way, HouseWay) else load(house_way)
    return way.set(tuple(Card(c) for c in seven), wheel)


def play_hand(game_deal: GameDeal, front: Sequence[str] | None, bet_cents: int,
              profile: TableProfile | str, house_way: HouseWay | str,
              bonus_cents: int = 0) -> HandResult:
    """Settle the player's setting (None: the house way's) and the house way's against the banker.

    ``house_way`` is the way the hand was dealt under (a custom version, or a preset as
    it was: the services' ``house_ways.exact``), or a preset's name. A side bet
    (``bonus_cents``) is settled against the house whatever the setting.
    """
    table = get_profile(profile)
    wheel = table.wheel
    if not isinstance(house_way, HouseWay):
        house_way = load(house_way)
    house = house_way_setting(game_deal.player, house_way, wheel)
    if front is None:
        player = SetHand(house.back, house.front)
    else:
        player = verify_setting(game_deal.player, front, wheel)
    banker = house_way_setting(game_deal.banker, house_way, wheel)
    settled = settle(player.back, player.front, banker.back, banker.front, bet_cents, table,
                     house_way)
    house_settled = settle(house.back, house.front, banker.back, banker.front, bet_cents,
                           table, house_way)
    bonus = settle_side_bet(game_deal, bonus_cents, table)
    return HandResult(player, house, banker, settled, house_settled, wheel, bonus)


def setting_dict(back: Sequence[int], front: Sequence[int], wheel: str) -> dict[str, Any]:
    """Return a setting's cards and the words for each part (for pages and history)."""
    return {"back": card_list(back), "front": card_list(front),
            "back_name": evaluate5(back, wheel).description,
            "front_name": evaluate2(front).description}
