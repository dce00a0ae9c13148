"""Run issue 15's benches one after another and print one side-by-side summary (markdown).

Each line is one bench's headline figures with the 1-minute load average during
it (sampled each second: mean / max) and its wall time. A bench that is missing,
fails or lacks a prerequisite is reported "not run" (with why) and the others go on.

    .venv/bin/python bench/report.py                         # everything, SQLite only
    .venv/bin/python bench/report.py --quick                 # small sizes, minutes not hours
    .venv/bin/python bench/report.py --only request,load --database-url postgresql+psycopg://.../trainer_load_2
    .venv/bin/python bench/report.py --list

Steps (``--only`` / ``--skip`` take these names): set-speed (cold/warm hands/s per
preset: bench/set_speed_bench.py when present, else bench/house_way_bench.py),
peer (bench/peer_compare.py: ours against pokersolver; needs npm install in
bench/peer), cli (bench/cli_start_bench.py), simulate (``trainer house-way
simulate`` of 1,000,000 Trump Plaza deals), request (bench/request_cost_bench.py),
load (bench/load_test.py at 50, 100 and 150 trainees; worker RSS comes from it),
pdf (bench/pdf_bench.py, launches Chromium). ``--database-url`` (a PostgreSQL
database whose name contains "load": it is emptied) adds the request and load
steps on PostgreSQL. Run it on a quiet machine: every figure shares the same 2 CPUs.
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
PY = str(ROOT / ".venv" / "bin" / "python")
TRAINER = str(ROOT / ".venv" / "bin" / "trainer")
STEPS = ("set-speed", "peer", "cli", "simulate", "request", "load", "pdf")


class NotRun(Exception):
    """A bench that could not run; the message says why."""


def loadavg() -> float:
    """Return the 1-minute load average."""
    return float(Path("/proc/loadavg").read_text().split()[0])


class Sampler(threading.Thread):
    """Sample the 1-minute load average once a second."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.samples = [loadavg()]
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.wait(1.0):
            self.samples.append(loadavg())


def run(argv: list[str], env: dict[str, str] | None = None, timeout: float = 3600) -> str:
    """Run a bench command; return its stdout, or raise NotRun with the end of its errors."""
    import os

    try:
        out = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=timeout,
                             env={**os.environ, **(env or {})})
    except subprocess.TimeoutExpired:
        raise NotRun(f"timed out after {timeout:.0f} s") from None
    if out.returncode not in (0, 1):  # 1: ran, but missed a target (the figures still count)
        tail = (out.stderr or out.stdout).strip().splitlines()[-1:] or ["no output"]
        raise NotRun(f"exit {out.returncode}: {tail[0][:160]}")
    return out.stdout


def json_lines(text: str) -> list[dict]:
    """Return the JSON objects printed one a line."""
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                found.append(json.loads(line))
            except ValueError:
                continue
    return found


# ----------------------------------------------------------------------------- the steps
# Each returns [(line name, figures text)].

def step_set_speed(args: argparse.Namespace) -> list[tuple[str, str]]:
    newer = BENCH / "set_speed_bench.py"
    if newer.exists():
        try:
            rows = json_lines(run([PY, str(newer), "--hands", str(args.hands)]))
        except NotRun:
            rows = []
        lines = []
        for row in rows:
            if "preset" not in row:
                continue
            figures = ", ".join(f"{k.replace('_', ' ')} {v:,}" for k, v in row.items()
                                if k != "preset" and isinstance(v, int | float) and "per_second" in k)
            lines.append((f"set speed {row['preset']}", figures or json.dumps(row)))
        if lines:
            return lines
    if not (BENCH / "house_way_bench.py").exists():
        raise NotRun("no set-speed bench")
    rows = json_lines(run([PY, str(BENCH / "house_way_bench.py"), "--hands", str(args.hands)]))
    lines = [(f"set speed {row['preset']}",
              f"{row['hands_per_second']:,} hands/s over {row['hands']:,} hands (cold and warm in "
              f"one pass; {row['hands_per_cpu_second']:,} per CPU s)")
             for row in rows if "preset" in row]
    if not lines:
        raise NotRun("no figures printed")
    return lines


def step_peer(args: argparse.Namespace) -> list[tuple[str, str]]:
    if not (BENCH / "peer" / "node_modules" / "pokersolver").is_dir():
        raise NotRun("npm install in bench/peer first")
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        run([PY, str(BENCH / "peer_compare.py"), "--hands", str(args.peer_hands), "--json", out.name])
        result = json.loads(Path(out.name).read_text())
    ours, peer = result["ours"], result["peer"]
    ratio = result["cold_ratio_to_peer_best"]
    return [("ours vs pokersolver", f"ours cold {ours['first_hands_per_second']:,} / warm "
             f"{ours['second_hands_per_second']:,} hands/s; pokersolver {peer['first_hands_per_second']:,}"
             f" / {peer['second_hands_per_second']:,}; cold ratio {ratio:.1f}x (target 10x), "
             f"{result['hands']:,} hands")]


def step_cli(args: argparse.Namespace) -> list[tuple[str, str]]:
    text = run([PY, str(BENCH / "cli_start_bench.py"), "-n", str(args.cli_runs)])
    lines = []
    for line in text.splitlines():
        match = re.match(r"(trainer [a-z -]+?|python -c .+?)\s+([0-9.]+)\s+([0-9.]+)$", line.strip())
        if match and match.group(1) in ("trainer hand rank", "trainer hand set", "python -c pass"):
            lines.append((f"CLI cold start: {match.group(1)}",
                          f"median {match.group(2)} ms, fastest {match.group(3)} ms "
                          f"(target for hand rank: < 150 ms)"))
    if not lines:
        raise NotRun("no figures printed")
    return lines


def step_simulate(args: argparse.Namespace) -> list[tuple[str, str]]:
    start = time.perf_counter()
    run([TRAINER, "house-way", "simulate", "trump-plaza", "--hands", str(args.deals), "--seed", "15"])
    seconds = time.perf_counter() - start
    return [(f"simulate {args.deals:,} deals", f"{seconds:.2f} s wall, Trump Plaza v Trump Plaza, "
             "2 workers (target for 1M: < 5 s)")]


def _request(url: str | None, pairs: int) -> tuple[str, str]:
    text = run([PY, str(BENCH / "request_cost_bench.py"), str(pairs)],
               env={"DATABASE_URL": url} if url else None)
    figures = {m.group(1): (m.group(2), m.group(3)) for m in re.finditer(
        r"^\s+(question|answer|healthz)\s+median ([0-9.]+) ms, p95 ([0-9.]+) ms", text, re.M)}
    if "question" not in figures:
        raise NotRun("no figures printed")
    name = "PostgreSQL" if url else "SQLite"
    return (f"request cost, {name}", "; ".join(
        f"{what} median {med} ms (p95 {p95})" for what, (med, p95) in figures.items())
        + " (target: question and answer <= 2 ms)")


def step_request(args: argparse.Namespace) -> list[tuple[str, str]]:
    lines = [_request(None, args.pairs)]
    if args.database_url:
        lines.append(_request(args.database_url, args.pairs))
    return lines


def _load(url: str | None, args: argparse.Namespace) -> list[tuple[str, str]]:
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        argv = [PY, str(BENCH / "load_test.py"), "--trainees", args.trainees,
                "--seconds", str(args.load_seconds), "--json", out.name]
        if url:
            argv += ["--database-url", url, "--fresh"]
        run(argv, timeout=3600)
        runs = json.loads(Path(out.name).read_text())
    lines = []
    for r in runs:
        q, a = r["question_ms"], r["answer_ms"]
        lines.append((
            f"load test, {r['backend']}, {r['trainees']} trainees",
            f"question p50/p95/p99 {q[0]:.1f}/{q[1]:.1f}/{q[2]:.1f} ms; answer "
            f"{a[0]:.1f}/{a[1]:.1f}/{a[2]:.1f} ms; {r['requests'] / r['wall']:.0f} req/s; "
            f"errors {r['errors']}; exactly once {'yes' if r['exactly_once'] else 'NO'}; "
            f"CPU server {100 * r['server_cpu_share']:.0f}% / generator "
            f"{100 * r['generator_cpu_share']:.0f}% of the machine"))
        lines.append((f"worker RSS, {r['backend']}, {r['trainees']} trainees",
                      "peak " + ", ".join(f"{mb:.0f}" for mb in r["worker_peak_rss_mb"])
                      + " MB (target < 150 MB)"))
    return lines


def step_load(args: argparse.Namespace) -> list[tuple[str, str]]:
    lines = _load(None, args)
    if args.database_url:
        lines += _load(args.database_url, args)
    return lines


def step_pdf(args: argparse.Namespace) -> list[tuple[str, str]]:
    if not Path("/usr/bin/chromium").exists():
        raise NotRun("no /usr/bin/chromium")
    text = run([PY, str(BENCH / "pdf_bench.py")])
    cold = [float(m.group(1)) for m in re.finditer(r"^\S+\s+([0-9.]+)\s+[0-9.]+\s+[0-9.]+", text, re.M)]
    cached = re.search(r"cached: median ([0-9.]+) ms", text)
    worst = re.search(r"slowest served-from-cache request: ([0-9.]+) ms", text)
    if cached is None:
        raise NotRun("no figures printed")
    return [("PDF cold (Chromium)", f"median {statistics.median(cold):.0f} ms over {len(cold)} sheets"
             if cold else "not parsed"),
            ("PDF cached", f"median {cached.group(1)} ms, slowest served {worst.group(1) if worst else '?'}"
             " ms (target < 50 ms)")]


RUNNERS: dict[str, Callable[[argparse.Namespace], list[tuple[str, str]]]] = {
    "set-speed": step_set_speed, "peer": step_peer, "cli": step_cli, "simulate": step_simulate,
    "request": step_request, "load": step_load, "pdf": step_pdf,
}


def main() -> int:
    """Run the chosen steps and print the summary table."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="small sizes: 100,000 hands, 100,000 deals, 20 s load runs at 50 only, "
                             "no PDF (checks the tooling, not figures for the docs)")
    parser.add_argument("--only", default="", help="comma-separated steps to run")
    parser.add_argument("--skip", default="", help="comma-separated steps to leave out")
    parser.add_argument("--list", action="store_true", help="list the steps and exit")
    parser.add_argument("--database-url", default=None,
                        help="a PostgreSQL database (name containing 'load'; it is emptied)")
    parser.add_argument("--trainees", default=None, help="load test class sizes (50,100,150)")
    args = parser.parse_args()
    if args.list:
        print("\n".join(STEPS))
        return 0
    args.hands = 100_000 if args.quick else 1_000_000
    args.peer_hands = 20_000 if args.quick else 200_000
    args.deals = 100_000 if args.quick else 1_000_000
    args.cli_runs = 5 if args.quick else 20
    args.pairs = 100 if args.quick else 300
    args.load_seconds = 20 if args.quick else 60
    args.trainees = args.trainees or ("50" if args.quick else "50,100,150")
    chosen = [s for s in STEPS if (not args.only or s in args.only.split(","))
              and s not in args.skip.split(",")]
    if args.quick and not args.only:
        chosen = [s for s in chosen if s != "pdf"]
    unknown = set(filter(None, (args.only + "," + args.skip).split(","))) - set(STEPS)
    if unknown:
        parser.error(f"unknown steps {sorted(unknown)}; --list shows them")
    rows = []
    for step in chosen:
        print(f"running {step} ...", file=sys.stderr, flush=True)
        sampler = Sampler()
        sampler.start()
        started = time.perf_counter()
        try:
            lines = RUNNERS[step](args)
        except NotRun as why:
            lines = [(step, f"not run ({why})")]
        sampler.halt.set()
        wall = time.perf_counter() - started
        load = f"{statistics.mean(sampler.samples):.2f} / {max(sampler.samples):.2f}"
        rows += [(name, figures, load, f"{wall:.0f} s") for name, figures in lines]
    print(f"\nissue 15 benches, {time.strftime('%Y-%m-%d %H:%M')}, "
          f"{'quick' if args.quick else 'full'} run; loadavg = 1-minute load average during the step "
          "(mean / max, sampled each second)\n")
    print("| bench | figures | loadavg during | step wall time |")
    print("| --- | --- | --- | --- |")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
