"""The round drill's first generator (generator 1), kept so that older attempts replay.

Rounds recorded before generator 2 carry no ``generator`` in their context; their seeds
must still deal the round the trainee saw, so these draws never change.
"""
from __future__ import annotations

import random

from ....action import POSITIONS, roll_dice
from ....cards import card_list, deal_piles
from ...context import DrillContext
from ..settlement import Position, bet_sizes
from .deal import PLAYER_BANKER_RATE, players_piles, set_player
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
    bets = bet_sizes(table)
    players: list[Position] = []
    for pile, seat in players_piles(sum(dice), banker_seat, occupied):
        back, front = set_player(rng, piles[pile], way, table.wheel, seat == DEALER_SEAT)
        players.append(Position(seat=seat, back=tuple(card_list(back)),
                                front=tuple(card_list(front)), bet_cents=rng.choice(bets)))
    players.sort(key=lambda p: p.seat)
    return RoundQuestion(dice=dice, banker_seat=banker_seat, occupied=tuple(occupied),
                         piles=tuple(tuple(card_list(p)) for p in piles),
                         unused=tuple(card_list(unused)), players=tuple(players))
