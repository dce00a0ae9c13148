"""Benchmark: set a million random hands by each preset, in one process.

Usage: .venv/bin/python bench/house_way_bench.py [--hands N] [--seed S] [--no-table] [preset ...]
(``--no-table``: the interpreter path, without class tables; bench/set_speed_bench.py
compares the two, cold and warm, each in a fresh process.)
Prints one JSON line per preset (hands per second of wall time and of CPU time,
cold caches included) and the peak RSS of the process (resource.getrusage); the
million pre-dealt hands themselves take about 150 MiB of it. Figures go in docs/house-ways.md.
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import time

from trainer.engine.cards import DECK
from trainer.engine.house_way import load, preset_names


def main(argv: list[str] | None = None) -> None:
    """Time HouseWay.set over random hands for each preset."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("presets", nargs="*")
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-table", action="store_true")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    hands = [tuple(rng.sample(DECK, 7)) for _ in range(args.hands)]
    for name in args.presets or preset_names():
        way = load(name, table=not args.no_table)
        set_hand = way.set
        start, cpu_start = time.perf_counter(), time.process_time()
        for hand in hands:
            set_hand(hand)
        seconds = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
        print(json.dumps({
            "preset": name, "hands": len(hands), "seconds": round(seconds, 2),
            "hands_per_second": round(len(hands) / seconds),
            # CPU time: the same figure on a busy machine (2 cores shared).
            "cpu_seconds": round(cpu, 2), "hands_per_cpu_second": round(len(hands) / cpu),
            "path": "interpreter" if args.no_table else "class table",
            "cached_rank_patterns": len(way._plain) + sum(map(len, way._straights.values())),
        }), flush=True)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"peak_rss_mib": round(peak_kib / 1024, 1),
                      "python": sys.version.split()[0]}))


if __name__ == "__main__":
    main()
