"""Dealing a round (generator 2), steered toward missed rules or one skill.

The action's seat is picked first (evenly), then dice that land there are rolled, the
seven piles dealt from one deck (four cards unused) and each player's hand set: mostly
the house way, sometimes another way, now and then fouled; the dealer's own hand (it
plays a player-banker) always the house way. The players' cards are shuffled within
the back and the front as shown.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace

from ....action import POSITIONS, pile_order, table_position
from ....cards import Card, card_list, deal_piles
from ....house_way import HouseWay
from ....profiles import SideBetOffer
from ....setting import is_foul, splits
from ....side_bets import TableKind, load_table
from ...context import DrillContext
from ...dealing import HOUSE_WAY_FAMILIES, deal_family
from ...side_bet_parts import (
    draw_side_bets,
    offer_of,
    side_bet_question,
    special_category,
    special_hand,
)
from ..action import roll_to_seat
from ..settlement import Position, SideBet, bet_sizes, queen_high_banker
from .questions import DEALER_SEAT, RoundQuestion

PLAYER_BANKER_RATE = 0.25
# The rule-id prefixes that steer a round ("my mistakes", ``RoundFocus``).
ROUND_PREFIX = "round."
BANKER_PREFIX = "round.banker."
SETTLE_PREFIX = "round.settle."


def seat_of_pile(total: int, banker_seat: int) -> list[int]:
    """Return the seat that receives each pile, in dealing order."""
    return [table_position(banker_seat, position) for position in pile_order(total)]


def players_piles(total: int, banker_seat: int, occupied: list[int]) -> list[tuple[int, int]]:
    """Return (pile, seat) of each player's pile, in dealing order: the piles that land on an
    occupied seat other than the banker's."""
    return [(pile, seat) for pile, seat in enumerate(seat_of_pile(total, banker_seat))
            if seat in occupied and seat != banker_seat]


@dataclass(frozen=True, slots=True)
class RoundFocus:
    """How a round is steered toward the trainee's missed rules ("my mistakes"), or a skill.

    ``round.action.player-banker``, ``round.settle.player-banker`` and
    ``round.settle.banker-commission`` ask for a player-banker; ``round.banker.<family>``
    deals the banker's pile from that house-way family; the other ``round.settle.*``
    rules fill every seat, so there is more to settle. ``house_banks`` (dealing for a
    skill only) keeps the bank with the house.
    """

    player_banker: bool = False
    banker_families: tuple[str, ...] = ()
    full_table: bool = False
    house_banks: bool = False

    @classmethod
    def of(cls, focus_rules: tuple[str, ...]) -> RoundFocus:
        """Read the steering from a context's focus rules (any other rule is ignored)."""
        rules = [r for r in focus_rules if r.startswith(ROUND_PREFIX)]
        families = tuple(sorted({r.removeprefix(BANKER_PREFIX) for r in rules
                                 if r.startswith(BANKER_PREFIX)} & set(HOUSE_WAY_FAMILIES)))
        return cls(
            player_banker=any(r.endswith(("player-banker", "banker-commission"))
                              for r in rules),
            banker_families=families,
            full_table=any(r.startswith(SETTLE_PREFIX) and not r.endswith("player-banker")
                           for r in rules),
        )


def give_pile(piles: list[tuple[Card, ...]], unused: tuple[Card, ...], index: int,
              seven: tuple[Card, ...]) -> tuple[list[tuple[Card, ...]], tuple[Card, ...]]:
    """Put ``seven`` in pile ``index``, swapping its cards with those they replace (one deck still)."""
    old = piles[index]
    incoming = [c for c in seven if c not in old]
    spare = [c for c in old if c not in seven]
    swap = dict(zip(incoming, spare, strict=True))
    new_piles = [tuple(seven) if k == index else tuple(swap.get(c, c) for c in pile)
                 for k, pile in enumerate(piles)]
    return new_piles, tuple(swap.get(c, c) for c in unused)


def generate(rng: random.Random, context: DrillContext,
             steer: RoundFocus | None = None) -> RoundQuestion:
    """Deal one round (``steer``: as the context's focus rules ask, when not given)."""
    table = context.table
    way = context.way
    steer = steer if steer is not None else RoundFocus.of(context.focus_rules)
    action_seat = rng.randint(1, POSITIONS)
    # "My mistakes" steers the round; without focus rules the draws are as they always were.
    player_banker = (rng.random() < PLAYER_BANKER_RATE or steer.player_banker) \
        and not steer.house_banks
    banker_seat = rng.randint(2, POSITIONS) if player_banker else DEALER_SEAT
    dice = roll_to_seat(rng, action_seat, banker_seat)
    others = [s for s in range(1, POSITIONS + 1) if s not in (banker_seat, DEALER_SEAT)]
    # The dealer's seat always has a hand: the house banks, or it plays the player-banker.
    count = rng.randint(1, 5) if player_banker else rng.randint(1, 6)
    if steer.full_table:
        count = len(others)
    occupied = sorted({banker_seat, DEALER_SEAT, *rng.sample(others, count)})
    piles, unused = deal_piles(rng)
    if steer.banker_families:
        # The banker's pile is dealt from a missed house-way family.
        family = rng.choice(steer.banker_families)
        index = seat_of_pile(sum(dice), banker_seat).index(banker_seat)
        seven = deal_family(rng, family, context.way, table.wheel)
        piles, unused = give_pile(piles, unused, index, seven)
    # Side bets (a profile that offers one only: the others draw exactly as before).
    offer = offer_of(table)
    side: SideBet | None = None
    if offer is not None:
        side = SideBet(**side_bet_question(rng, offer, context.side_bet_rules))
        piles, unused = _side_piles(rng, offer, piles, unused, sum(dice), banker_seat,
                                    occupied, bool(steer.banker_families))
    bets = bet_sizes(table)
    players: list[Position] = []
    for pile, seat in players_piles(sum(dice), banker_seat, occupied):
        back, front = (list(cards) for cards in
                       set_player(rng, piles[pile], way, table.wheel, seat == DEALER_SEAT))
        rng.shuffle(back)
        rng.shuffle(front)
        players.append(Position(seat=seat, back=tuple(card_list(back)),
                                front=tuple(card_list(front)), bet_cents=rng.choice(bets)))
    players.sort(key=lambda p: p.seat)
    if offer is not None and side is not None:
        # The dealer's own hand (seat 1, playing a player-banker) makes no side bet.
        betting = [p.seat for p in players if p.seat != DEALER_SEAT]
        bonus = dict(zip(betting, draw_side_bets(rng, offer, len(betting)), strict=True))
        players = [replace(p, bonus_cents=bonus.get(p.seat, 0)) for p in players]
    return RoundQuestion(dice=dice, banker_seat=banker_seat, occupied=tuple(occupied),
                         piles=tuple(tuple(card_list(p)) for p in piles),
                         unused=tuple(card_list(unused)), players=tuple(players),
                         side_bet=side)


def _side_piles(rng: random.Random, offer: SideBetOffer, piles: list[tuple[Card, ...]],
                unused: tuple[Card, ...], total: int, banker_seat: int, occupied: list[int],
                steered: bool) -> tuple[list[tuple[Card, ...]], tuple[Card, ...]]:
    """Deal a paying hand to a player's pile now and then (Queen's Dragon: the banker's)."""
    order = seat_of_pile(total, banker_seat)
    if load_table(offer.table).kind is TableKind.QUEENS_DRAGON:
        if not steered and rng.random() < 1 / 3:
            seven = tuple(Card(c) for c in queen_high_banker(rng))
            piles, unused = give_pile(piles, unused, order.index(banker_seat), seven)
        return piles, unused
    category = special_category(rng, offer)
    seats = [s for s in occupied if s not in (banker_seat, DEALER_SEAT)]
    if category is None or not seats:
        return piles, unused
    seat = rng.choice(seats)
    hand = special_hand(rng, category, offer, set())
    if hand is not None:
        piles, unused = give_pile(piles, unused, order.index(seat), hand)
    return piles, unused


def set_player(rng: random.Random, seven: tuple[Card, ...], way: HouseWay, wheel: str,
               house: bool) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """Set a player's hand: mostly the house way, sometimes another way, now and then fouled;
    ``house``: the house way (the dealer's own hand). Generator 1 set them so too."""
    roll = rng.random()
    if house or roll < 0.75:
        s = way.set(seven, wheel)
        return s.back, s.front
    ways = splits(seven)
    fouled = [w for w in ways if is_foul(w.back, w.front, wheel)]
    legal = [w for w in ways if not is_foul(w.back, w.front, wheel)]
    pick = rng.choice(fouled if roll >= 0.95 and fouled else legal)
    return pick.back, pick.front
