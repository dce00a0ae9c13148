"""The settlement drill's first generator (generator 1), kept so that older attempts replay.

Questions recorded before generator 2 (balanced outcomes, shuffled cards) carry no
``generator`` in their context; their seeds must still deal the table the trainee saw,
so these draws never change. New questions never use it.
"""
from __future__ import annotations

import random

from ....cards import Card, card_list
from ....hands import rank2, rank5
from ....house_way import HouseWay, HouseWaySetting
from ....setting import is_foul, splits
from ...context import DrillContext
from .deal import bet_sizes, queen_high_banker
from .questions import Hand, Position, SettlementQuestion

CASES = {"win": 4, "push": 4, "lose": 4, "copy": 3, "foul": 2}


def _player(rng: random.Random, case: str, used: set[int], banker: HouseWaySetting,
            way: HouseWay, wheel: str) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
    deck = [c for c in range(53) if c not in used]
    best = None
    for _ in range(40):
        if case == "copy":
            ranks = sorted(c.rank for c in banker.front)
            pick: list[int] = []
            for r in ranks:
                options = [c for c in deck if Card(c).rank == r and c not in pick and c != 52]
                if not options:
                    break
                pick.append(rng.choice(options))
            if len(pick) == 2:
                rest = rng.sample([c for c in deck if c not in pick], 5)
                if not is_foul(rest, pick, wheel):
                    return tuple(Card(c) for c in rest), tuple(Card(c) for c in pick)
            case = "push"
            continue
        seven = rng.sample(deck, 7)
        if case == "foul":
            fouled = [w for w in splits(seven) if is_foul(w.back, w.front, wheel)]
            if fouled:
                w = rng.choice(fouled)
                return w.back, w.front
            continue
        if rng.random() < 0.8:
            s = way.set(seven, wheel)
            back, front = s.back, s.front
        else:
            legal = [w for w in splits(seven) if not is_foul(w.back, w.front, wheel)]
            w = rng.choice(legal)
            back, front = w.back, w.front
        pb, bb = rank5(back, wheel), rank5(banker.back, wheel)
        pf, bf = rank2(front), rank2(banker.front)
        outcome = ("win" if pb > bb and pf > bf else
                   "lose" if (pb <= bb and pf <= bf) else "push")
        best = (back, front)
        if outcome == case:
            return best
    return best


def generate(rng: random.Random, context: DrillContext) -> SettlementQuestion:
    """Generate a settlement question as generator 1 did."""
    table = context.table
    way = context.way
    wheel = table.wheel
    if table.no_commission and rng.random() < 0.3:
        banker_seven = queen_high_banker(rng)
    else:
        banker_seven = rng.sample(range(53), 7)
    banker = way.set(banker_seven, wheel)
    used = set(banker_seven)
    n = rng.randint(2, 6)
    seats = sorted(rng.sample(range(2, 8), n))
    sizes = bet_sizes(table)
    positions = []
    for seat in seats:
        case = rng.choices(list(CASES), weights=list(CASES.values()))[0]
        hand = _player(rng, case, used, banker, way, wheel)
        assert hand is not None  # forty tries always find a hand
        back, front = hand
        used.update(back + front)
        positions.append(Position(seat=seat, back=tuple(card_list(back)),
                                  front=tuple(card_list(front)),
                                  bet_cents=rng.choice(sizes)))
    return SettlementQuestion(
        banker=Hand(back=tuple(card_list(banker.back)), front=tuple(card_list(banker.front))),
        positions=tuple(positions))
