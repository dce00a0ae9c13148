#!/usr/bin/env python
"""Write the shipped bonus counts, trainer/engine/side_bets/data/counts.json (docs/side-bets.md).

tests/engine/test_bonus_counts.py recounts and compares, so the file cannot go stale.
Usage: .venv/bin/python tools/build_bonus_counts.py
"""
from pathlib import Path

from trainer.engine.side_bets.counts import compute_category_counts, counts_json

PATH = Path(__file__).resolve().parent.parent / "trainer/engine/side_bets/data/counts.json"

if __name__ == "__main__":
    PATH.write_text(counts_json(compute_category_counts()), encoding="utf-8")
    print(f"wrote {PATH}")
