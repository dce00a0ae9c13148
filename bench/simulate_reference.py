"""Trump Plaza against Trump Plaza on random deals, summarized for nevada and no-commission.

One run of the engine's simulation counts each deal's outcome before the table rules
(and again on the deals where the banker holds a queen-high pai gow), so the same deals
give both profiles: ``nevada`` (5% commission) and ``no-commission`` (every bet pushes
against a queen-high pai gow banker). Each summary is ``trainer house-way simulate``'s
JSON, with the rule book's reference figures and whether each share is within three
standard errors of them. With the same seed and one worker the deals are the same as
``trainer house-way simulate trump-plaza --seed S --workers 1``.

    nice -n 10 .venv/bin/python bench/simulate_reference.py --hands 10000000 --seed 13

Engine only (no app, no database). Exit status 1 if a share is outside 3 standard errors.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trainer.cli.house_way import summarize
from trainer.engine.house_way.simulate import simulate
from trainer.engine.profiles import get_profile


def main() -> int:
    """Run one simulation and print the raw counts and both profiles' summaries."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    counts = simulate("trump-plaza", "trump-plaza", args.hands, args.seed,
                      "second_highest", args.workers)
    print(json.dumps({"counts": counts, "load_average": os.getloadavg()}))
    ok = True
    for name in ("nevada", "no-commission"):
        out = summarize("trump-plaza", "trump-plaza", counts, get_profile(name), 10_000)
        print(json.dumps(out))
        ok = ok and all(out["reference_within_3se"].values())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
