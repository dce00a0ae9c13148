"""Benchmark the rules engine: five-card rankings and settlements per second.

Run by hand: ``.venv/bin/python bench/engine_bench.py [--n 1000000]``.
Reports hands per second in one process and the peak resident memory.
"""
from __future__ import annotations

import argparse
import random
import resource
import time


def peak_rss_mb() -> float:
    """Return this process's peak resident set size in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    """Run both benchmarks and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    t0 = time.perf_counter()
    from trainer.engine.hands import rank5_function, warm_rank_tables
    from trainer.engine.setting import is_foul, splits
    from trainer.engine.settlement import settle
    warm_rank_tables()
    print(f"engine import and rank tables loaded: {time.perf_counter() - t0:.3f} s, "
          f"RSS {peak_rss_mb():.1f} MB")

    rng = random.Random(args.seed)
    deck = list(range(53))
    rank = rank5_function()
    chunk = 20_000
    spent = 0.0
    for start in range(0, args.n, chunk):
        hands = [tuple(rng.sample(deck, 5)) for _ in range(min(chunk, args.n - start))]
        t0 = time.perf_counter()
        for hand in hands:
            rank(hand)
        spent += time.perf_counter() - t0
    print(f"rank5: {args.n:,} hands in {spent:.2f} s = {args.n / spent:,.0f} hands/s")

    spent = 0.0
    for start in range(0, args.n, chunk):
        pairs = []
        for _ in range(min(chunk, args.n - start)):
            cards = rng.sample(deck, 14)
            player = splits(cards[:7])[rng.randrange(21)]
            banker = next(w for w in splits(cards[7:]) if not is_foul(w.back, w.front))
            pairs.append((player.back, player.front, banker.back, banker.front))
        t0 = time.perf_counter()
        for pb, pf, bb, bf in pairs:
            settle(pb, pf, bb, bf, 2000)
        spent += time.perf_counter() - t0
    print(f"settle: {args.n:,} settlements in {spent:.2f} s = {args.n / spent:,.0f} /s")
    print(f"peak RSS: {peak_rss_mb():.1f} MB")


if __name__ == "__main__":
    main()
