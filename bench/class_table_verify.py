"""Check every preset's shipped class tables against the interpreter, on every class.

For each preset and wheel setting the interpreter decides all 292,253 classes afresh
(``class_build.build_class_table``, two processes); every class's split and rule must
equal the shipped table's, and the file must be byte for byte what the build writes.
With ``--verify`` it also runs ``trainer house-way verify`` on each (every class set
through the table's look-up and card mapping, checked against the interpreter, for
fouls and order); about four times longer. Figures go in docs/house-ways.md.

    nice -n 10 .venv/bin/python bench/class_table_verify.py [--verify] [preset ...]

Exit status 1 on any mismatch.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from importlib import resources
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trainer.engine.hands import Wheel
from trainer.engine.house_way import load, preset_names
from trainer.engine.house_way.class_build import build_class_table
from trainer.engine.house_way.classes import table_file_name
from trainer.engine.house_way.verify import verify


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("presets", nargs="*")
    parser.add_argument("--verify", action="store_true")
    args = parser.parse_args()
    tables = resources.files("trainer.engine.house_way").joinpath("tables")
    ok = True
    start = time.perf_counter()
    print(json.dumps({"load_average_before": os.getloadavg()}), flush=True)
    for name in args.presets or preset_names():
        for wheel in (w.value for w in Wheel):
            t0 = time.perf_counter()
            fresh = build_class_table(load(name, table=False), wheel, workers=2)
            shipped = load(name).class_table(wheel)
            mismatched = (-1 if shipped is None else
                          sum(a != b or c != d for a, b, c, d in zip(
                              fresh.split, shipped.split, fresh.rule, shipped.rule,
                              strict=True)))
            same_bytes = fresh.to_bytes() == tables.joinpath(
                table_file_name(name, wheel)).read_bytes()
            out = {"preset": name, "wheel": wheel, "classes": len(fresh.split),
                   "mismatched_classes": mismatched, "same_bytes": same_bytes,
                   "seconds": round(time.perf_counter() - t0, 1)}
            ok = ok and mismatched == 0 and same_bytes
            if args.verify:
                summary = verify(name, wheel=wheel, workers=2)
                out["verify"] = {k: summary[k] for k in (
                    "complete", "classes_checked", "failed_hands", "class_table", "seconds")}
                ok = ok and summary["failed_hands"] == 0
            print(json.dumps(out), flush=True)
    print(json.dumps({"all_match": ok, "seconds": round(time.perf_counter() - start, 1),
                      "load_average_after": os.getloadavg()}), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
