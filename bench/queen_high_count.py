"""Count the queen-high pai gow hands by brute force over every seven-card hand.

The no-commission profile pushes every bet when the banker's seven cards are a
queen-high pai gow (seven different ranks, no straight, flush or straight flush,
queen high, so no joker). This script calls the engine's own test,
``trainer.engine.hands.is_queen_high_pai_gow``, on each of the 154,143,080 hands of
seven from the 53-card deck and expects 2,719,500 of them. The unit suite counts the
same figure exactly by rank multiset and suit pattern in about a second
(``tests/engine/test_no_commission.py``); this is the slow, literal confirmation.

    nice -n 10 .venv/bin/python bench/queen_high_count.py [--workers 1]

Work is split by the hand's lowest card (the first card of the combination), so each
worker's share is exact. Exit status 1 if a count differs.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from itertools import combinations
from multiprocessing import get_context
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trainer.engine.hands import is_queen_high_pai_gow

EXPECTED = 2_719_500
TOTAL = 154_143_080


def count_from(first: int) -> tuple[int, int]:
    """Count (hands, queen-high hands) among the hands whose lowest card is ``first``."""
    hands = found = 0
    test = is_queen_high_pai_gow
    for rest in combinations(range(first + 1, 53), 6):
        hands += 1
        if test((first, *rest)):
            found += 1
    return hands, found


def main() -> int:
    """Run the count and compare it with the expected figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    firsts = list(range(47))        # the lowest card of seven is at most card 46
    if args.workers > 1:
        with get_context("fork").Pool(args.workers) as pool:
            parts = pool.map(count_from, firsts, chunksize=1)
    else:
        parts = [count_from(f) for f in firsts]
    hands = sum(h for h, _ in parts)
    found = sum(f for _, f in parts)
    seconds = time.perf_counter() - start
    print(f"hands {hands:,} (C(53,7) = {math.comb(53, 7):,}); queen-high pai gow {found:,} "
          f"({found / hands:.4%}); {seconds:.0f} s, {hands / seconds:,.0f} hands/s")
    ok = hands == TOTAL and found == EXPECTED
    print("match" if ok else f"MISMATCH: expected {EXPECTED:,} of {TOTAL:,}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
