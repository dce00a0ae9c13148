"""How far other readings of the Trump Plaza text move house way against house way.

Usage: .venv/bin/python bench/house_way_readings.py [--deals N] [--seed S]

The published matchup (player 28.55%, push 41.47%, banker 29.98%) is not reproduced by
the sheet as written (docs/house-ways.md, "Simulate"). The sheet's only open points
are its "Resolved" lines on straights and flushes, so this plays the same random
deals under the sheet and under each other reading of those lines, both sides using
the same reading, and prints each reading's rates and its paired difference from the
sheet, with the difference's 95% half-width. A reading that explained the published
figures would move player wins by about -0.05 and banker wins by about +0.07 points.

Readings (each replaces the sheet's setting only on the hands it names):
  13.2-literal   one pair with an S/F whose pair cannot go in front: rule 2 instead
                 (pair in back, two highest singletons in front)
  13.3-literal   trips with an S/F where no S/F leaves a pair in front: rule 5 instead
  back-first     every S/F rule takes the strongest back first, then the best front
"""
from __future__ import annotations

import argparse
import json
import math
import random
import resource
import time
from collections import Counter

from trainer.engine.cards import DECK
from trainer.engine.hands import CARD_RANK, Category, rank2, rank5
from trainer.engine.house_way import load
from trainer.engine.setting import is_foul_strengths, splits

SF = {Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH}
PAIR = Category.ONE_PAIR


def _value(seven, front):
    back = list(seven)
    for card in front:
        back.remove(card)
    return rank5(back), rank2(list(front))


def _pair_rule(seven):
    """Rule 2 (one pair) or rule 5 (trips): the group in back, two top singletons in front."""
    count = Counter(CARD_RANK[c] for c in seven)
    singles = sorted((c for c in seven if count[CARD_RANK[c]] == 1),
                     key=CARD_RANK.__getitem__, reverse=True)
    if count.get(14) == 3:                        # rule 5.1: three aces split
        ace = next(c for c in seven if CARD_RANK[c] == 14)
        return _value(seven, (ace, singles[0]))
    return _value(seven, singles[:2])


def _back_first(seven):
    pool = [(b, f) for b, f in ((rank5(s.back), rank2(s.front)) for s in splits(seven))
            if b >> 20 in SF and not is_foul_strengths(b, f)]
    return max(pool)


READINGS = {
    "13.2-literal": lambda seven, rule, value: (
        _pair_rule(seven) if rule == "sf.best-front.one-pair" and value[1] >> 20 != PAIR
        else value),
    "13.3-literal": lambda seven, rule, value: (
        _pair_rule(seven) if rule == "sf.best-front.trips" and value[1] >> 20 != PAIR
        else value),
    "back-first": lambda seven, rule, value: (
        _back_first(seven) if rule.startswith("sf.") else value),
}


def _outcome(player, banker) -> int:
    """1 player wins, 0 push, -1 banker wins (every copy to the banker)."""
    back, front = player[0] > banker[0], player[1] > banker[1]
    return 1 if back and front else 0 if back or front else -1


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    way = load("trump-plaza")
    rng = random.Random(args.seed)
    names = ["sheet", *READINGS]
    counts = {n: Counter() for n in names}
    moved = {n: Counter() for n in READINGS}     # per deal: (player diff, banker diff)
    start = time.perf_counter()
    for _ in range(args.deals):
        cards = rng.sample(DECK, 14)
        sides = []
        for seven in (cards[:7], cards[7:]):
            s = way.set(seven)
            sides.append((seven, s.rule, (rank5(list(s.back)), rank2(list(s.front)))))
        base = _outcome(sides[0][2], sides[1][2])
        counts["sheet"][base] += 1
        for name, read in READINGS.items():
            p, b = (read(seven, rule, value) for seven, rule, value in sides)
            result = _outcome(p, b)
            counts[name][result] += 1
            if result != base:
                moved[name][(int(result == 1) - int(base == 1),
                             int(result == -1) - int(base == -1))] += 1
    n = args.deals
    for name in names:
        c = counts[name]
        row = {"reading": name, "deals": n, "player_win": round(100 * c[1] / n, 3),
               "push": round(100 * c[0] / n, 3), "banker_win": round(100 * c[-1] / n, 3)}
        if name in moved:
            for i, key in enumerate(("player_win", "banker_win")):
                total = sum(k[i] * v for k, v in moved[name].items())
                square = sum(k[i] ** 2 * v for k, v in moved[name].items())
                mean = total / n
                half = 1.96 * math.sqrt(max(square / n - mean * mean, 0) / n)
                row[f"{key}_change"] = round(100 * mean, 3)
                row[f"{key}_change_ci95"] = round(100 * half, 3)
            row["deals_changed_pct"] = round(100 * sum(moved[name].values()) / n, 3)
        print(json.dumps(row), flush=True)
    print(json.dumps({"seconds": round(time.perf_counter() - start, 1),
                      "peak_rss_mib": round(resource.getrusage(
                          resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}))


if __name__ == "__main__":
    main()
