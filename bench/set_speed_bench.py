"""Hands set per second by each preset: class tables against the interpreter, cold and warm.

Each measurement runs in a fresh process (``--one``): the hands are dealt first
(seeded, card numbers), then ``HouseWay.set`` is timed over all of them twice.
"Cold" is the first pass: the process has never set a hand, and the timed loop
includes loading the class tables from disk (or, on the interpreter path, deciding
each new rank pattern and filling its cache). "Warm" is the second pass over the same
hands. The interpreter path is ``load(name, table=False)``, the path before class
tables. Figures, with the load average, go in docs/house-ways.md.

    .venv/bin/python bench/set_speed_bench.py [--hands N] [--seed S] [preset ...]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def one(name: str, table: bool, hands: int, seed: int) -> dict[str, object]:
    """Time one path in this (fresh) process."""
    from trainer.engine.house_way import load

    rng = random.Random(seed)
    dealt = [rng.sample(range(53), 7) for _ in range(hands)]
    way = load(name, table)
    set_hand = way.set
    out: dict[str, object] = {}
    for label in ("cold", "warm"):
        start, cpu = time.perf_counter(), time.process_time()
        for hand in dealt:
            set_hand(hand)
        seconds = time.perf_counter() - start
        out[f"{label}_hands_per_second"] = round(hands / seconds)
        out[f"{label}_hands_per_cpu_second"] = round(hands / (time.process_time() - cpu))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("presets", nargs="*")
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--one", nargs=2, metavar=("PRESET", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        name, path = args.one
        print(json.dumps(one(name, path == "table", args.hands, args.seed)))
        return 0
    from trainer.engine.house_way import preset_names

    print(json.dumps({"load_average_before": os.getloadavg(), "hands": args.hands,
                      "python": sys.version.split()[0]}), flush=True)
    for name in args.presets or preset_names():
        row: dict[str, object] = {"preset": name}
        for path in ("table", "interpreter"):
            run = subprocess.run([sys.executable, __file__, "--hands", str(args.hands),
                                  "--seed", str(args.seed), "--one", name, path],
                                 capture_output=True, text=True, check=True)
            row[path] = json.loads(run.stdout)
        t, i = row["table"], row["interpreter"]
        assert isinstance(t, dict) and isinstance(i, dict)
        row["cold_speed_up"] = round(t["cold_hands_per_second"] / i["cold_hands_per_second"], 1)
        print(json.dumps(row), flush=True)
    print(json.dumps({"load_average_after": os.getloadavg()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
