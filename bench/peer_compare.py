"""Set the same hands with our house way and with pokersolver's, and compare the rates.

Writes ``--hands`` random seven-card hands (seed ``--seed``, the 53-card deck) to a
file in pokersolver's notation (``Td``; the joker ``Or``), then times, each in a
fresh process on that file:

- ours: ``HouseWay.set`` of preset ``--preset`` (MGM Grand: pokersolver's house
  way is MGM Grand's), cold = the first pass of a process that has never set a
  hand (issue 15's definition), warm = a second pass over the same hands;
- pokersolver's ``PaiGowPokerHelper.solve`` (bench/peer/set_hands.js under node),
  first pass and second pass (it keeps no cache; V8 is warm on the second).

Cards are parsed before the clock starts on both sides. Prints a markdown table
and the ratio of our cold rate to pokersolver's best; issue 15's target is 10x.
The two set hands differently on some hands (different rule books); this bench
times them, it does not compare settings. Needs ``npm install`` in bench/peer
(``node_modules`` is not in git); without it pokersolver is "not run".

    .venv/bin/python bench/peer_compare.py                   # 200,000 hands
    .venv/bin/python bench/peer_compare.py --hands 50000 --json out.json
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PEER = ROOT / "bench" / "peer"

OURS = r"""
import json, sys, time
from trainer.engine.cards import parse_card
from trainer.engine.house_way import load
hands = [tuple(parse_card("JK" if c == "Or" else c) for c in line.split())
         for line in open(sys.argv[1]).read().split("\n") if line]
way = load(sys.argv[2])
set_hand = way.set
def one_pass():
    start = time.perf_counter()
    for hand in hands:
        set_hand(hand)
    return time.perf_counter() - start
cold = one_pass()
warm = one_pass()
print(json.dumps({"engine": "ours (" + sys.argv[2] + ")", "hands": len(hands),
                  "first_seconds": cold, "first_hands_per_second": round(len(hands) / cold),
                  "second_seconds": warm, "second_hands_per_second": round(len(hands) / warm)}))
"""


def loadavg() -> str:
    """Return the three load averages."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def write_hands(path: Path, count: int, seed: int) -> None:
    """Write ``count`` random hands, one a line, in pokersolver's notation."""
    from trainer.engine.cards import DECK

    names = ["Or" if str(c) == "JK" else str(c) for c in DECK]
    rng = random.Random(seed)
    path.write_text("".join(" ".join(rng.sample(names, 7)) + "\n" for _ in range(count)))


def run_ours(path: Path, preset: str) -> dict:
    """Time our house way on the file in a fresh process."""
    out = subprocess.run([sys.executable, "-c", OURS, str(path), preset], check=True,
                         capture_output=True, text=True, cwd=ROOT)
    return json.loads(out.stdout.strip().splitlines()[-1])


def run_peer(path: Path) -> dict | None:
    """Time pokersolver on the file under node, or None when it is not installed."""
    node = shutil.which("node")
    if node is None or not (PEER / "node_modules" / "pokersolver").is_dir():
        return None
    out = subprocess.run([node, str(PEER / "set_hands.js"), str(path)], check=True,
                         capture_output=True, text=True, cwd=PEER)
    return json.loads(out.stdout.strip().splitlines()[-1])


def compare(hands: int, seed: int, preset: str) -> dict:
    """Run both on the same hands; return the figures and the ratio."""
    with tempfile.TemporaryDirectory(prefix="peer-") as tmp:
        path = Path(tmp) / "hands.txt"
        write_hands(path, hands, seed)
        before = loadavg()
        ours = run_ours(path, preset)
        peer = run_peer(path)
        after = loadavg()
    ratio = None
    if peer is not None:
        best = max(peer["first_hands_per_second"], peer["second_hands_per_second"])
        ratio = ours["first_hands_per_second"] / best
    return {"hands": hands, "seed": seed, "ours": ours, "peer": peer,
            "cold_ratio_to_peer_best": ratio, "loadavg_before": before, "loadavg_after": after}


def table(result: dict) -> str:
    """Return the comparison as a markdown table."""
    ours, peer = result["ours"], result["peer"]
    lines = ["| engine | hands | cold (first pass) hands/s | warm (second pass) hands/s |",
             "| --- | --- | --- | --- |",
             f"| {ours['engine']} | {ours['hands']:,} | {ours['first_hands_per_second']:,} "
             f"| {ours['second_hands_per_second']:,} |"]
    if peer is None:
        lines.append("| pokersolver | not run (npm install in bench/peer) | | |")
    else:
        lines.append(f"| {peer['engine']} (node {peer['node']}) | {peer['hands']:,} "
                     f"| {peer['first_hands_per_second']:,} | {peer['second_hands_per_second']:,} |")
    return "\n".join(lines)


def main() -> int:
    """Compare and print; exit 1 below the 10x target (when pokersolver ran)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--preset", default="mgm-grand")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args()
    result = compare(args.hands, args.seed, args.preset)
    print(table(result))
    ratio = result["cold_ratio_to_peer_best"]
    print(f"our cold rate / pokersolver's best: {ratio:.1f}x (target 10x)" if ratio is not None
          else "pokersolver: not run")
    print(f"loadavg before {result['loadavg_before']}, after {result['loadavg_after']}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    return 0 if ratio is None or ratio >= 10 else 1


if __name__ == "__main__":
    sys.exit(main())
