"""Time the simulation: N Trump Plaza v Trump Plaza deals, one and two workers.

Each run is a fresh process (``trainer.engine.house_way.simulate.simulate``, the loop
behind ``trainer house-way simulate``); the wall time includes loading the class
tables and deriving every class's strengths. The counts of the two runs must be equal
(blocks are seeded by (seed, block number), not by worker). Figures, with the load
average, go in docs/house-ways.md.

    .venv/bin/python bench/simulate_bench.py [--hands 1000000] [--seed 13]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ONE = ("import json, sys; from trainer.engine.house_way.simulate import simulate; "
       "print(json.dumps(simulate('trump-plaza', 'trump-plaza', int(sys.argv[1]), "
       "int(sys.argv[2]), 'second_highest', int(sys.argv[3]))))")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    counts = []
    for workers in (2, 1):
        before = os.getloadavg()
        start = time.perf_counter()
        run = subprocess.run([sys.executable, "-c", ONE, str(args.hands), str(args.seed),
                              str(workers)], capture_output=True, text=True, check=True,
                             cwd=ROOT)
        wall = time.perf_counter() - start
        out = json.loads(run.stdout)
        print(json.dumps({"workers": workers, "deals": args.hands,
                          "process_wall_seconds": round(wall, 2),
                          "simulate_seconds": round(out.pop("seconds"), 2),
                          "deals_per_second": round(args.hands / wall),
                          "counts": out, "load_average_before": before,
                          "load_average_after": os.getloadavg()}), flush=True)
        counts.append(out)
    same = counts[0] == counts[1]
    print(json.dumps({"same_counts_for_1_and_2_workers": same}))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
