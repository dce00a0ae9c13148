"""Dealing a table to settle (generator 2) and dealing one for a settlement rule.

Each seat's outcome is picked first (evenly), then a banker and hands that settle so
are dealt: a hand is checked with ``settle`` under the group's table rules, so copies,
fouls (and their reset) and the no-commission queen-high push count as they are
settled. Shown cards are shuffled within each back and front.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from ....cards import Card, card_list
from ....hands import is_queen_high_pai_gow
from ....house_way import HouseWaySetting
from ....profiles import FoulPolicy, TableProfile
from ....setting import SetHand, is_foul, splits
from ....settlement import settle
from ...context import DrillContext
from ...side_bet_parts import (
    draw_side_bets,
    offer_of,
    side_bet_question,
    special_category,
    special_hand,
)
from .grade import table_rule
from .questions import Hand, Position, SettlementQuestion
from .side import SideBet
from .words import COPY_LOSE, COPY_PUSH, FOUL, LOSE, PUSH, QUEEN_HIGH, WIN

OUTCOMES = ("win", "push", "lose")
# How a seat's outcome is dealt: a plain set hand, a copy of the banker's front, a foul.
HOW = {"win": ("plain",), "push": ("plain", "plain", "copy"),
       "lose": ("plain", "plain", "copy", "foul")}
# The missed rules "my mistakes" steers the dealing toward: a copy, or a foul.
STEERED_HOW = {COPY_PUSH: "copy", COPY_LOSE: "copy", FOUL: "foul"}
BANKER_TRIES = 40
PLAYER_TRIES = 30
BETS_DOLLARS = (2, 5, 5, 10, 13, 15, 20, 20, 25, 25, 33, 40, 50, 55, 75, 100)
# How many tables ``deal_for`` deals before it says a rule cannot be dealt here.
RULE_TRIES = 40
# How the seat that shows a rule is dealt (outcome, how), per rule; the other seats
# are dealt plainly with an outcome that names no harder rule.
RULE_SEAT = {WIN: ("win", "plain"), PUSH: ("push", "plain"), LOSE: ("lose", "plain"),
             COPY_PUSH: ("push", "copy"), COPY_LOSE: ("lose", "copy"),
             FOUL: ("lose", "foul"), QUEEN_HIGH: ("push", "plain")}
OTHER_SEATS = {WIN: ("win", "lose"), LOSE: ("lose",), QUEEN_HIGH: ("push",)}


def bet_sizes(table: TableProfile) -> list[int]:
    """Return the bets in cents a seat is dealt from (``BETS_DOLLARS`` within the table's
    limits; the table's minimum when none is)."""
    return [d * 100 for d in BETS_DOLLARS
            if table.min_bet_cents <= d * 100 <= table.max_bet_cents] or [table.min_bet_cents]


def queen_high_banker(rng: random.Random) -> list[int]:
    """Deal seven cards that are a queen-high pai gow."""
    for _ in range(500):
        ranks = [10, *rng.sample(range(10), 6)]   # queen (index 10) + six lower ranks
        cards = [r * 4 + rng.randrange(4) for r in ranks]
        if is_queen_high_pai_gow(cards):
            return cards
    return rng.sample(range(52), 7)  # pragma: no cover


def generate(rng: random.Random, context: DrillContext) -> SettlementQuestion:
    """Pick each seat's outcome first (evenly), then deal a banker and hands that settle so."""
    n = rng.randint(2, 6)
    seats = sorted(rng.sample(range(2, 8), n))
    targets = [rng.choice(OUTCOMES) for _ in seats]
    # "My mistakes" on copies or fouls deals them where the outcome allows (outcomes stay even).
    steer = [how for rule, how in STEERED_HOW.items() if rule in context.focus_rules]
    return deal_table(rng, context, seats, targets, [steer] * n,
                      context.table.no_commission and "win" not in targets)


def deal_for(rng: random.Random, context: DrillContext, rule: str) -> SettlementQuestion | None:
    """Deal a table whose hardest case is ``rule``, or None when none can be dealt here.

    A fouled hand's loss is not dealt under the house-way foul policy (the hand is reset
    and settles as set), nor the queen-high push at a table that charges commission;
    otherwise at most ``RULE_TRIES`` tables are dealt, each checked by ``table_rule``.
    """
    table = context.table
    if rule not in RULE_SEAT or (rule == QUEEN_HIGH and not table.no_commission) or (
            rule == FOUL and table.foul_policy == FoulPolicy.HOUSE_WAY):
        return None
    target, how = RULE_SEAT[rule]
    others = OTHER_SEATS.get(rule, OUTCOMES)
    for _ in range(RULE_TRIES):
        n = rng.randint(2, 6)
        seats = sorted(rng.sample(range(2, 8), n))
        shown = rng.randrange(n)
        targets = [target if i == shown else rng.choice(others) for i in range(n)]
        steers = [[how] if i == shown else ["plain"] for i in range(n)]
        question = deal_table(rng, context, seats, targets, steers, rule == QUEEN_HIGH)
        if table_rule(question, context) == rule:
            return question
    return None


def deal_table(rng: random.Random, context: DrillContext, seats: Sequence[int],
               targets: Sequence[str], steers: Sequence[Sequence[str]],
               queen: bool) -> SettlementQuestion:
    """Deal a banker and each seat's hand settling as ``targets`` says.

    ``steers``: per seat, the ways of dealing its outcome to prefer ("copy", "foul",
    "plain"); ``queen``: try a queen-high pai gow banker first (a no-commission table
    where no seat is to win: every bet pushes but a fouled one under the lose policy;
    if the seats' outcomes cannot all be dealt against one, a plain banker after five
    tries).
    """
    table = context.table
    way = context.way
    wheel = table.wheel
    sizes = bet_sizes(table)
    bets = [rng.choice(sizes) for _ in seats]
    # Side bets (a profile that offers one only: the others draw exactly as before).
    offer = offer_of(table)
    side: SideBet | None = None
    special: tuple[Card, ...] | None = None
    special_at = -1
    if offer is not None:
        side = SideBet(**side_bet_question(rng, offer, context.side_bet_rules))
        category = special_category(rng, offer)
        # A paying hand goes to a seat that is to win or push (the outcomes stay even).
        room = [i for i, t in enumerate(targets) if t != "lose"]
        if category is not None and room:
            special_at = rng.choice(room)
            special = special_hand(rng, category, offer, set())
    positions: list[Position] = []
    for tries in range(BANKER_TRIES):
        banker_seven = (queen_high_banker(rng) if queen and special is None and tries < 5
                        else rng.sample(range(53), 7) if special is None
                        else rng.sample([c for c in range(53) if c not in special], 7))
        banker = way.set(banker_seven, wheel)
        used = set(banker_seven) | set(special or ())
        positions = []
        last = tries == BANKER_TRIES - 1
        for at, (seat, target, bet, steer) in enumerate(
                zip(seats, targets, bets, steers, strict=True)):
            if at == special_at and special is not None:
                hand = _special(special, target, banker, bet, context, last)
            else:
                hand = _player(rng, target, used, banker, bet, context, steer, last)
            if hand is None:
                break
            back, front = list(hand[0]), list(hand[1])
            used.update(back + front)
            rng.shuffle(back)
            rng.shuffle(front)
            positions.append(Position(seat=seat, back=tuple(card_list(back)),
                                      front=tuple(card_list(front)), bet_cents=bet))
        else:
            break
    banker_back, banker_front = list(banker.back), list(banker.front)
    rng.shuffle(banker_back)
    rng.shuffle(banker_front)
    if offer is not None and side is not None:
        positions = [replace(p, bonus_cents=bonus) for p, bonus in
                     zip(positions, draw_side_bets(rng, offer, len(positions)), strict=True)]
    return SettlementQuestion(
        banker=Hand(back=tuple(card_list(banker_back)), front=tuple(card_list(banker_front))),
        positions=tuple(positions), side_bet=side)


def _special(seven: tuple[Card, ...], target: str, banker: HouseWaySetting,
             bet: int, context: DrillContext, last: bool = False
             ) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
    """Set a dealt paying hand the house way; None unless it settles ``target``."""
    w = context.way.set(seven, context.table.wheel)
    result = settle(w.back, w.front, banker.back, banker.front, bet, context.table, context.way)
    return (tuple(w.back), tuple(w.front)) if result.outcome.value == target or last else None


def _player(rng: random.Random, target: str, used: set[int], banker: HouseWaySetting,
            bet: int, context: DrillContext, steer: Sequence[str], last: bool = False
            ) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
    """Deal a player's set hand that settles ``target`` against the banker, or None.

    The first way of ``steer`` that can deal ``target`` is tried first.
    """
    table, wheel = context.table, context.table.wheel
    deck = [c for c in range(53) if c not in used]
    ways = HOW[target]
    first = rng.choice(ways)
    steered = [how for how in steer if how in ways]
    if steered:
        first = steered[0]
    hand = None
    for tries in range(PLAYER_TRIES):
        how = first if tries < PLAYER_TRIES // 2 else ways[tries % len(ways)]
        if how == "copy":
            pick: list[int] = []
            for r in sorted(c.rank for c in banker.front):
                options = [c for c in deck if Card(c).rank == r and c not in pick and c != 52]
                if not options:
                    break
                pick.append(rng.choice(options))
            if len(pick) < 2:
                continue
            rest = rng.sample([c for c in deck if c not in pick], 5)
            if is_foul(rest, pick, wheel):
                continue
            hand = tuple(Card(c) for c in rest), tuple(Card(c) for c in pick)
        else:
            seven = rng.sample(deck, 7)
            w: SetHand | HouseWaySetting
            if how == "foul":
                fouled = [w for w in splits(seven) if is_foul(w.back, w.front, wheel)]
                if not fouled:
                    continue
                w = rng.choice(fouled)
            elif rng.random() < 0.8:
                w = context.way.set(seven, wheel)
            else:
                w = rng.choice([w for w in splits(seven) if not is_foul(w.back, w.front, wheel)])
            hand = tuple(w.back), tuple(w.front)
        result = settle(hand[0], hand[1], banker.back, banker.front, bet, table, context.way)
        if result.outcome.value == target:
            return hand
    return hand if last else None
