"""Time the issue-18 proof: the full check, the diff and the paired simulation.

1. ``check_way`` of Trump Plaza over every class, both wheels, with two workers and
   with one (the tests run it once, with two);
2. the full check of the issue's browser scenario (Trump Plaza with two pair Medium +
   Medium and an ace split), which must report 0 fouls and 0 undecided hands, its
   tables attached;
3. ``diff_ways`` Trump Plaza -> that way;
4. ``paired_simulate`` (player and old banker Trump Plaza, new banker the changed way)
   with two workers and one, and ``edge_change`` under nevada and no-commission.

Figures, with ``/proc/loadavg`` before and after each step, go in docs/house-ways.md
("Checking a custom house way").

    nice -n 10 .venv/bin/python bench/house_way_check.py [--hands 1000000] [--seed 13]
"""
from __future__ import annotations

import argparse
import json
import time
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from trainer.engine.hands import Wheel
from trainer.engine.house_way import DEFAULT_HOUSE_WAY, HouseWay, load
from trainer.engine.house_way.proof import check_way, diff_ways
from trainer.engine.house_way.simulate import paired_simulate
from trainer.engine.house_way_edge import edge_change


def loadavg() -> str:
    return Path("/proc/loadavg").read_text().strip()


def medium_ace_split() -> HouseWay:
    """Trump Plaza with rule 3.3 narrowed to Low + High and a rule before it splitting
    Medium + Medium with an ace (as tests/engine/test_house_way_proof.py builds it)."""
    text = resources.files("trainer.engine.house_way").joinpath(
        "presets", f"{DEFAULT_HOUSE_WAY}.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    data["name"] = "trump-plaza-medium-ace-split"
    for section in data["sections"]:
        rules = section["rules"]
        for i, rule in enumerate(rules):
            if rule["id"] == "two-pair.together.ace":
                rule["when"] = {"pair_groups": ["low+high"], "ace": True}
                rules.insert(i, {"number": "3.3", "id": "two-pair.split.medium-ace",
                                 "text": "Medium + Medium with an ace singleton: split.",
                                 "when": {"pair_groups": ["medium+medium"], "ace": True},
                                 "explain": "Two pair, {high_pair} and {low_pair}: split"})
                return HouseWay(data)
    raise SystemExit("rule 3.3 not found")


def step(name: str, fn: Any) -> Any:
    before = loadavg()
    start = time.perf_counter()
    out = fn()
    print(json.dumps({"step": name, "wall_s": round(time.perf_counter() - start, 2),
                      "loadavg_before": before, "loadavg_after": loadavg()}), flush=True)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    second = Wheel.SECOND_HIGHEST.value
    trump = load(DEFAULT_HOUSE_WAY)
    for workers in (2, 1):
        result = step(f"check trump-plaza, {workers} worker(s)",
                      lambda w=workers: check_way(trump, workers=w))
        report = result.report
        print(json.dumps({k: report[k] for k in ("hands", "classes", "fouled_hands",
                                                 "undecided_hands", "never_reached",
                                                 "shadowed", "seconds", "by_wheel")}))
        assert report["fouled_hands"] == report["undecided_hands"] == 0
        for wheel, table in result.tables.items():
            shipped = trump.class_table(wheel)
            assert shipped is not None and shipped.to_bytes() == table.to_bytes(), wheel
    changed = medium_ace_split()
    result = step("check the changed way, 2 workers", lambda: check_way(changed, workers=2))
    report = result.report
    print(json.dumps({k: report[k] for k in ("hands", "fouled_hands", "undecided_hands",
                                             "never_reached", "shadowed", "seconds")}))
    for table in result.tables.values():
        changed.attach_table(table)
    diff = step("diff trump-plaza -> changed", lambda: diff_ways(trump, changed))
    print(json.dumps({k: diff[k] for k in ("changed_hands", "share", "share_text")}
                     | {"per_rule": [(e["rule"], e["hands"]) for e in diff["per_rule"]]}))
    counts = None
    for workers in (2, 1):
        got = step(f"paired_simulate {args.hands:,} deals, {workers} worker(s)",
                   lambda w=workers: paired_simulate(trump, trump, changed, second,
                                                     args.hands, args.seed, workers=w))
        assert counts is None or got["joint"] == counts["joint"]
        counts = got
    assert counts is not None
    print(json.dumps({"old_counts": counts["old_counts"], "new_counts": counts["new_counts"]}))
    for profile in ("nevada", "no-commission"):
        print(json.dumps(edge_change(counts, profile)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
