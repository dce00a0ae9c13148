"""The player's game: one hand against the banker, set by the player or the house way.

Pure functions for the practice table: deal the player's and the banker's seven
cards from ``random.Random(seed)``, check the player's setting (the seven dealt
cards, two in front, not fouled), set a hand the house way, and settle the bet
both ways, the player's and the house way's, so the cost of a deviation shows.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, card_list, deal, parse_cards
from .hands import evaluate2, evaluate5
from .house_way import HouseWaySetting, load
from .profiles import DEFAULT_PROFILE, TableProfile, get_profile
from .setting import SPLITS, SetHand, foul_reason, same_value
from .settlement import Settlement, settle, verify_bet

CHIPS_CENTS: tuple[int, ...] = (100, 500, 2500, 10_000)
STARTING_BALANCE_CENTS = 100_000


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

    @property
    def followed_house_way(self) -> bool:
        """Tell whether the player's setting has the house way's value in back and in front."""
        return same_value(self.player.back, self.player.front, self.house.back,
                          self.house.front, self.wheel)

    @property
    def cost_cents(self) -> int:
        """Return what the player's setting cost against the house way's (negative: gained)."""
        return self.house_settlement.net_cents - self.settlement.net_cents


def deal_hand(seed: int) -> GameDeal:
    """Deal fourteen distinct cards from a shuffled deck: seven to the player, seven to the banker."""
    cards = deal(random.Random(seed), 14)
    return GameDeal(cards[:7], cards[7:])


def verify_deal_bet(bet_cents: int, balance_cents: int,
                    profile: TableProfile | str = DEFAULT_PROFILE) -> None:
    """Raise ValueError unless the bet is within the table limits and the balance covers it.

    The balance must cover the worst loss: the bet and any flat fee.
    """
    profile = get_profile(profile)
    verify_bet(bet_cents, profile)
    fee = 0 if profile.no_commission or profile.fee_cents is None else profile.fee_cents
    if bet_cents + fee > balance_cents:
        needed = "" if not fee else f" (with the ${fee / 100:.2f} fee)"
        raise ValueError(f"The bet{needed} is more than your balance of "
                         f"${balance_cents / 100:.2f}.")


def split_key(seven: Sequence[int], front: Sequence[int]) -> str:
    """Return the key of a setting: the two front cards' places among the seven, as "i-j"."""
    places = sorted(list(seven).index(c) for c in front)
    return f"{places[0]}-{places[1]}"


def split_table(seven: Sequence[int], wheel: str) -> dict[str, dict[str, Any]]:
    """Describe all 21 settings of the player's seven: legal or fouled, and why.

    Keyed by ``split_key``, so the page can keep Done disabled with the reason
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
        raise ValueError("Pick two cards for the front.")
    front_cards = parse_cards(list(front))
    if len(front_cards) != 2:
        raise ValueError(f"The front (low hand) needs 2 cards; it has {len(front_cards)}.")
    dealt = tuple(Card(c) for c in seven)
    for card in front_cards:
        if card not in dealt:
            raise ValueError(f"{card} is not one of your cards.")
    back = tuple(c for c in dealt if c not in front_cards)
    reason = foul_reason(back, front_cards, wheel)
    if reason is not None:
        raise ValueError(reason)
    return SetHand(back, front_cards)


def house_way_setting(seven: Sequence[int], house_way: str, wheel: str) -> HouseWaySetting:
    """Set seven cards by the named house way."""
    return load(house_way).set(tuple(Card(c) for c in seven), wheel)


def play_hand(game_deal: GameDeal, front: Sequence[str] | None, bet_cents: int,
              profile: TableProfile | str, house_way: str) -> HandResult:
    """Settle the player's setting (None: the house way's) and the house way's against the banker."""
    table = get_profile(profile)
    wheel = table.wheel
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
    return HandResult(player, house, banker, settled, house_settled, wheel)


def setting_dict(back: Sequence[int], front: Sequence[int], wheel: str) -> dict[str, Any]:
    """Return a setting's cards and the words for each part (for pages and history)."""
    return {"back": card_list(back), "front": card_list(front),
            "back_name": evaluate5(back, wheel).description,
            "front_name": evaluate2(front).description}
