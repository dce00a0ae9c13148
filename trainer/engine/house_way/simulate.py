"""Play the house way against the house way on random deals (``house-way simulate``).

Counts only outcomes: the player's hand against the banker's, back with back and
front with front, every copy to the banker (docs/rules.md §7). Turning the
counts into money (commission, fee) is the caller's job, so that this module
stays below settlement in the engine's layers.
"""
from __future__ import annotations

import random
import time
from multiprocessing import get_context
from typing import Any

from ..cards import DECK
from ..hands import is_queen_high_pai_gow, rank2, rank5_function
from .interpreter import load


def _play(args: tuple[str, str, int, int, str]) -> dict[str, int]:
    player_way, banker_way, hands, seed, wheel = args
    player, banker = load(player_way), load(banker_way)
    rank5 = rank5_function(wheel)
    rng = random.Random(seed)
    sample = rng.sample
    deck = DECK
    win = push = lose = 0
    # The same outcomes on the deals where the banker holds a queen-high pai gow,
    # so that the caller can apply the no-commission push rule to them.
    queen = {"win": 0, "push": 0, "lose": 0}
    for _ in range(hands):
        cards = sample(deck, 14)
        p = player.set(cards[:7], wheel)
        b = banker.set(cards[7:], wheel)
        back = rank5(p.back) - rank5(b.back)
        front = rank2(p.front) - rank2(b.front)
        if back > 0 and front > 0:
            win += 1
            outcome = "win"
        elif back > 0 or front > 0:
            push += 1
            outcome = "push"
        else:
            lose += 1
            outcome = "lose"
        if is_queen_high_pai_gow(cards[7:]):
            queen[outcome] += 1
    return {"win": win, "push": push, "lose": lose,
            "win_vs_queen_high": queen["win"], "push_vs_queen_high": queen["push"],
            "lose_vs_queen_high": queen["lose"]}


def simulate(player_way: str, banker_way: str, hands: int, seed: int,
             wheel: str = "second_highest", workers: int = 2) -> dict[str, Any]:
    """Deal ``hands`` random deals; count player wins, pushes and losses.

    The counts are before any table rule: ``*_vs_queen_high`` repeat them for the
    deals where the banker holds a queen-high pai gow (``summarize`` applies
    ``settlement.table_result`` to them).
    """
    if hands <= 0:
        raise ValueError("The number of hands must be more than zero.")
    load(player_way), load(banker_way)
    workers = max(1, min(workers, hands))
    shares = [hands // workers + (1 if i < hands % workers else 0) for i in range(workers)]
    jobs = [(player_way, banker_way, n, seed * 1_000_003 + i, wheel)
            for i, n in enumerate(shares)]
    start = time.perf_counter()
    if workers > 1:
        with get_context("fork").Pool(workers) as pool:
            parts = pool.map(_play, jobs)
    else:
        parts = [_play(jobs[0])]
    seconds = time.perf_counter() - start
    counts: dict[str, Any] = {k: sum(p[k] for p in parts) for k in parts[0]}
    counts["hands"] = hands
    counts["seconds"] = seconds
    return counts
