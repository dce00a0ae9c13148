"""Time the ``trainer`` engine commands from a cold start (a fresh process each run).

Each command is run N times as a new process through the installed console script
(``.venv/bin/trainer``), as a person at a shell would; the median and the fastest
wall time are reported with the load average before and after. For comparison it
also times a bare ``python -c pass`` and ``python -c "import click"`` (the floor
under any click command). Figures go in docs/engine.md ("Start-up").

    .venv/bin/python bench/cli_start_bench.py            # 20 runs of each
    .venv/bin/python bench/cli_start_bench.py -n 50
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent
TRAINER = str(BIN / "trainer")
COMMANDS: list[tuple[str, list[str]]] = [
    ("python -c pass", [sys.executable, "-c", "pass"]),
    ("python -c 'import click'", [sys.executable, "-c", "import click"]),
    ("trainer hand rank", [TRAINER, "hand", "rank", "Kh Kd JK 7c 3s"]),
    ("trainer hand compare", [TRAINER, "hand", "compare", "As Ks Qs Js Ts", "2c 3c 4c 5c 6d"]),
    ("trainer hand foul", [TRAINER, "hand", "foul", "--back", "2c 3d 4h 9s Jc", "--front", "Ah Kh"]),
    ("trainer dice", [TRAINER, "dice", "7"]),
    ("trainer hand set", [TRAINER, "hand", "set", "As Ah Kd Qc 7s 5h 2c"]),
    ("trainer house-way list", [TRAINER, "house-way", "list"]),
]


def time_runs(argv: list[str], runs: int) -> list[float]:
    """Run a command ``runs`` times, each a fresh process; return wall times in ms."""
    subprocess.run(argv, capture_output=True, check=True)  # the files in the page cache
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, capture_output=True, check=True)
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--runs", type=int, default=20)
    args = parser.parse_args()
    before = os.getloadavg()
    print(f"{'command':28} {'median ms':>10} {'min ms':>8}   ({args.runs} cold runs each)")
    for label, argv in COMMANDS:
        try:
            times = time_runs(argv, args.runs)
        except subprocess.CalledProcessError as error:
            print(f"{label:28} failed (exit {error.returncode}): {error.stderr.decode().strip()}")
            continue
        print(f"{label:28} {statistics.median(times):10.1f} {min(times):8.1f}")
    after = os.getloadavg()
    print(f"load average {before[0]:.2f} before, {after[0]:.2f} after, on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
