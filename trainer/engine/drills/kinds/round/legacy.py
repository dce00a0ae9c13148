"""The round drill's first generator (generator 1), kept so that older attempts replay.

Rounds recorded before generator 2 carry no ``generator`` in their context; their seeds
must still deal the round the trainee saw, so these draws never change.
"""
from __future__ import annotations

import random

from ....action import POSITIONS, roll_dice
from ....cards import card_list, deal_piles
from ....setting import is_foul, splits
from ...context import DrillContext
from ..settlement import BETS_DOLLARS, Position
from .deal import PLAYER_BANKER_RATE, seat_of_pile
from .questions import DEALER_SEAT, RoundQuestion


def generate(rng: random.Random, context: DrillContext) -> RoundQuestion:
    """Generate a round as generator 1 did."""
    table = context.table
    way = context.way
    dice = roll_dice(rng)
    player_banker = rng.random() < PLAYER_BANKER_RATE
    banker_seat = rng.randint(2, POSITIONS) if player_banker else DEALER_SEAT
    others = [s for s in range(1, POSITIONS + 1) if s not in (banker_seat, DEALER_SEAT)]
    count = rng.randint(1, 5) if player_banker else rng.randint(1, 6)
    occupied = sorted({banker_seat, DEALER_SEAT, *rng.sample(others, count)})
    piles, unused = deal_piles(rng)
    bets = [d * 100 for d in BETS_DOLLARS
            if table.min_bet_cents <= d * 100 <= table.max_bet_cents] or [table.min_bet_cents]
    players: list[Position] = []
    for pile, seat in enumerate(seat_of_pile(sum(dice), banker_seat)):
        if seat not in occupied or seat == banker_seat:
            continue
        seven = piles[pile]
        roll = rng.random()
        if seat == DEALER_SEAT or roll < 0.75:
            s = way.set(seven, table.wheel)
            back, front = s.back, s.front
        else:
            ways = splits(seven)
            fouled = [w for w in ways if is_foul(w.back, w.front, table.wheel)]
            legal = [w for w in ways if not is_foul(w.back, w.front, table.wheel)]
            w = rng.choice(fouled if roll >= 0.95 and fouled else legal)
            back, front = w.back, w.front
        players.append(Position(seat=seat, back=tuple(card_list(back)),
                                front=tuple(card_list(front)), bet_cents=rng.choice(bets)))
    players.sort(key=lambda p: p.seat)
    return RoundQuestion(dice=dice, banker_seat=banker_seat, occupied=tuple(occupied),
                         piles=tuple(tuple(card_list(p)) for p in piles),
                         unused=tuple(card_list(unused)), players=tuple(players))
