"""Write the engine's five-card rank tables as package data.

    .venv/bin/python tools/build_rank_tables.py          # write trainer/engine/data/rank5-*.bin
    .venv/bin/python tools/build_rank_tables.py --check  # exit 1 if a shipped file is stale

The tables are built from the exact evaluator (``trainer.engine.hands._build_tables``);
``tests/engine/test_rank_tables.py`` rebuilds them and compares with the shipped files,
so a change to the evaluator that is not followed by this script fails the tests.
"""
from __future__ import annotations

import sys
from pathlib import Path

from trainer.engine.hands import Wheel, _build_tables, table_file_name, tables_to_bytes

DATA = Path(__file__).resolve().parent.parent / "trainer" / "engine" / "data"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for wheel in Wheel:
        path = DATA / table_file_name(wheel.value)
        data = tables_to_bytes(_build_tables(wheel.value))
        if check:
            if not path.exists() or path.read_bytes() != data:
                stale.append(path.name)
        else:
            DATA.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            print(f"{path.relative_to(DATA.parent.parent.parent)}: {len(data):,} bytes")
    if stale:
        print("stale: " + ", ".join(stale) + " (run tools/build_rank_tables.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
