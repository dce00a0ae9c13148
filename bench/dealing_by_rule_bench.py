"""Dealing by rule (issue 28 part 6): index build per preset and time per dealt hand.

One process, cold: the class weights (once a process), then per preset and wheel the
class table's load, the rule index's build (``dealing.rule_index``) and its memory
(tracemalloc, a second build), then ``--deals`` hands per rule of the sheet, timed (seeded). Figures,
with the load average, go in docs/engine.md ("Dealing by rule").

    .venv/bin/python bench/dealing_by_rule_bench.py [--deals N] [--seed S] [preset ...]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("presets", nargs="*")
    parser.add_argument("--deals", type=int, default=200, help="hands per rule")
    parser.add_argument("--seed", type=int, default=2028)
    args = parser.parse_args()

    from trainer.engine.hands import Wheel
    from trainer.engine.house_way import dealing as D
    from trainer.engine.house_way import load, preset_names
    from trainer.engine.house_way.classes import class_keys

    print(json.dumps({"load_average_before": os.getloadavg(), "deals_per_rule": args.deals,
                      "python": sys.version.split()[0]}), flush=True)
    keys = class_keys()
    start = time.perf_counter()
    D.class_weights(keys)
    print(json.dumps({"class_weights_s": round(time.perf_counter() - start, 3)}), flush=True)
    rng = random.Random(args.seed)
    for name in args.presets or preset_names():
        way = load(name)
        for wheel in (w.value for w in Wheel):
            start = time.perf_counter()
            way.class_table(wheel)
            table_s = time.perf_counter() - start
            start = time.perf_counter()
            index = D.rule_index(way, wheel)
            index_s = time.perf_counter() - start
            # Memory: a second build of the same index under tracemalloc (which slows it).
            table = way.class_table(wheel)
            assert table is not None
            tracemalloc.start()
            again = D._build_index(table)
            kept, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            assert again.spans == index.spans
            rules = D.reachable_rules(way, wheel)
            start = time.perf_counter()
            for rule_id in rules:
                for _ in range(args.deals):
                    D.deal_for_rule(way, rule_id, rng, wheel)
            dealt = len(rules) * args.deals
            per_hand = (time.perf_counter() - start) / dealt
            print(json.dumps({"preset": name, "wheel": wheel, "rules": len(rules),
                              "unreachable": list(D.unreachable_rules(way, wheel)),
                              "table_load_s": round(table_s, 3),
                              "index_build_s": round(index_s, 3),
                              "index_kept_mb": round(kept / 1e6, 2),
                              "index_peak_mb": round(peak / 1e6, 2),
                              "deal_us": round(per_hand * 1e6, 1)}), flush=True)
    print(json.dumps({"load_average_after": os.getloadavg()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
