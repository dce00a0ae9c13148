"""The first question generator (generator 1), kept so that older attempts replay.

Questions recorded before generator 2 (balanced answers, shuffled cards) carry no
``generator`` in their context; their seeds must still regenerate the question
the trainee saw, so this module keeps generator 1's drawing code unchanged. New
questions never use it.
"""
from __future__ import annotations

import random
from typing import Any

from ..action import POSITIONS, roll_dice
from ..cards import Card, card_list, deal_piles
from ..hands import evaluate5, is_queen_high_pai_gow, rank2, rank5
from ..house_way import HouseWay, HouseWaySetting, rule_family
from ..setting import is_foul, splits
from .context import DrillContext
from .dealing import HOUSE_WAY_FAMILIES, deal_family
from .foul_check import BOUNDARY_RULES, foul_rule
from .hand_reading import CATEGORY_WEIGHTS, _copy_of, deal_category

FOUL_FAMILIES = {"fouled": 5, "boundary": 4, "legal": 2}
READING_FAMILIES = {"category": 4, "joker": 3, "compare-five": 2, "compare-two": 1, "copy": 2}
CASES = {"win": 4, "push": 4, "lose": 4, "copy": 3, "foul": 2}
BETS_DOLLARS = (2, 5, 5, 10, 13, 15, 20, 20, 25, 25, 33, 40, 50, 55, 75, 100)


def _pick(rng: random.Random, families: dict[str, int], focus: list[str]) -> str:
    focus = [f for f in focus if f in families]
    if focus:
        return rng.choice(focus)
    names = sorted(families)
    return rng.choices(names, weights=[families[n] for n in names])[0]


def _foul_family(rule_id: str) -> str:
    if rule_id in BOUNDARY_RULES:
        return "boundary"
    return "legal" if rule_id.startswith("foul.legal") else "fouled"


def _reading_family(rule_id: str) -> str:
    parts = rule_id.split(".")
    if parts[1:2] == ["copy"]:
        return "copy"
    if parts[1:2] == ["compare"]:
        return "compare-two" if parts[-1] == "two" else "compare-five"
    return "joker" if parts[-1] == "joker" else "category"


def house_way(rng: random.Random, context: DrillContext) -> dict[str, Any]:
    """Generate a house-way question as generator 1 did."""
    family = _pick(rng, HOUSE_WAY_FAMILIES, [rule_family(r) for r in context.focus_rules])
    return {"cards": card_list(deal_family(rng, family, context.way, context.table.wheel))}


def foul_check(rng: random.Random, context: DrillContext) -> dict[str, Any]:
    """Generate a foul-check question as generator 1 did."""
    wheel = context.table.wheel
    family = _pick(rng, FOUL_FAMILIES, [_foul_family(r) for r in context.focus_rules])
    for _ in range(60):
        seven = deal_family(rng, rng.choice(["pai-gow", "one-pair", "two-pair", "joker"]),
                            context.way, wheel)
        ways = splits(seven)
        rules = [foul_rule(w.back, w.front, wheel) for w in ways]
        if family == "fouled":
            pick = [w for w, r in zip(ways, rules, strict=True) if not r.startswith("foul.legal")]
        elif family == "boundary":
            pick = [w for w, r in zip(ways, rules, strict=True) if r in BOUNDARY_RULES]
        else:
            pick = [w for w, r in zip(ways, rules, strict=True) if r.startswith("foul.legal")]
        if pick:
            way = rng.choice(pick)
            return {"back": card_list(way.back), "front": card_list(way.front)}
    way = ways[0]
    return {"back": card_list(way.back), "front": card_list(way.front)}


def hand_reading(rng: random.Random, context: DrillContext) -> dict[str, Any]:
    """Generate a hand-reading question as generator 1 did."""
    family = _pick(rng, READING_FAMILIES, [_reading_family(r) for r in context.focus_rules])
    cats = list(CATEGORY_WEIGHTS)
    weights = list(CATEGORY_WEIGHTS.values())
    if family in ("category", "joker"):
        category = rng.choices(cats, weights)[0]
        hand = deal_category(rng, category, family == "joker")
        return {"mode": "category", "hand": card_list(hand)}
    if family == "compare-two" or (family == "copy" and rng.random() < 0.4):
        a = tuple(Card(c) for c in rng.sample(range(53), 2))
    else:
        a = deal_category(rng, rng.choices(cats, weights)[0], rng.random() < 0.2)
    b = _copy_of(rng, a) if family == "copy" else None
    if b is None:
        deck = [c for c in range(53) if c not in a]
        if len(a) == 5:
            b = deal_category(rng, evaluate5(a).category if rng.random() < 0.6
                              else rng.choices(cats, weights)[0], False)
            if set(a) & set(b):
                b = tuple(Card(c) for c in rng.sample(deck, 5))
        else:
            b = tuple(Card(c) for c in rng.sample(deck, 2))
    return {"mode": "compare", "a": card_list(a), "b": card_list(b)}


def action(rng: random.Random, context: DrillContext) -> dict[str, Any]:
    """Generate an action question as generator 1 did."""
    dice = list(roll_dice(rng))
    banker_seat = 1 if rng.random() < 0.7 else rng.randint(2, POSITIONS)
    others = [s for s in range(1, POSITIONS + 1) if s != banker_seat]
    occupied = sorted([banker_seat, *rng.sample(others, rng.randint(2, 6))])
    return {"dice": dice, "banker_seat": banker_seat, "occupied": occupied}


def _queen_high_banker(rng: random.Random) -> list[int]:
    for _ in range(500):
        ranks = [10, *rng.sample(range(10), 6)]
        cards = [r * 4 + rng.randrange(4) for r in ranks]
        if is_queen_high_pai_gow(cards):
            return cards
    return rng.sample(range(52), 7)  # pragma: no cover


def _settlement_player(rng: random.Random, case: str, used: set[int], banker: HouseWaySetting,
                       way: HouseWay, wheel: str
                       ) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
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


def settlement(rng: random.Random, context: DrillContext) -> dict[str, Any]:
    """Generate a settlement question as generator 1 did."""
    table = context.table
    way = context.way
    wheel = table.wheel
    if table.no_commission and rng.random() < 0.3:
        banker_seven = _queen_high_banker(rng)
    else:
        banker_seven = rng.sample(range(53), 7)
    banker = way.set(banker_seven, wheel)
    used = set(banker_seven)
    n = rng.randint(2, 6)
    seats = sorted(rng.sample(range(2, 8), n))
    limits = [d * 100 for d in BETS_DOLLARS
              if table.min_bet_cents <= d * 100 <= table.max_bet_cents]
    positions = []
    for seat in seats:
        case = rng.choices(list(CASES), weights=list(CASES.values()))[0]
        hand = _settlement_player(rng, case, used, banker, way, wheel)
        assert hand is not None  # forty tries always find a hand
        back, front = hand
        used.update(back + front)
        positions.append({"seat": seat, "back": card_list(back), "front": card_list(front),
                          "bet_cents": rng.choice(limits or [table.min_bet_cents])})
    return {"banker": {"back": card_list(banker.back), "front": card_list(banker.front)},
            "positions": positions}


def round_(rng: random.Random, context: DrillContext) -> dict[str, Any]:
    """Generate a round as generator 1 did."""
    from .round_drill import DEALER_SEAT, PLAYER_BANKER_RATE, seat_of_pile

    table = context.table
    way = context.way
    dice = list(roll_dice(rng))
    player_banker = rng.random() < PLAYER_BANKER_RATE
    banker_seat = rng.randint(2, POSITIONS) if player_banker else DEALER_SEAT
    others = [s for s in range(1, POSITIONS + 1) if s not in (banker_seat, DEALER_SEAT)]
    count = rng.randint(1, 5) if player_banker else rng.randint(1, 6)
    occupied = sorted({banker_seat, DEALER_SEAT, *rng.sample(others, count)})
    piles, unused = deal_piles(rng)
    bets = [d * 100 for d in BETS_DOLLARS
            if table.min_bet_cents <= d * 100 <= table.max_bet_cents] or [table.min_bet_cents]
    players: list[dict[str, Any]] = []
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
        players.append({"seat": seat, "back": card_list(back), "front": card_list(front),
                        "bet_cents": rng.choice(bets)})
    players.sort(key=lambda p: p["seat"])
    return {"dice": dice, "banker_seat": banker_seat, "occupied": occupied,
            "piles": [card_list(p) for p in piles], "unused": card_list(unused),
            "players": players}


GENERATORS = {"house-way": house_way, "foul-check": foul_check, "hand-reading": hand_reading,
              "action": action, "settlement": settlement, "round": round_}
