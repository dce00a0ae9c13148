"""Write the house-way editor's condition facts as package data.

    .venv/bin/python tools/build_house_way_facts.py            # write the file
    .venv/bin/python tools/build_house_way_facts.py --check    # exit 1 if it is stale

Writes ``trainer/engine/house_way/tables/condition-facts.bin``: per rank multiset, the
straight/flush facts its classes show (``house_way/facts.py``), which the editor's
"this condition can never hold" check reads. About 8 s.
``tests/engine/test_house_way_editing.py`` rebuilds it and compares.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from trainer.engine.house_way.facts import FACTS_FILE, build_facts, facts_to_bytes

DATA = Path(__file__).resolve().parent.parent / "trainer" / "engine" / "house_way" / "tables"


def main(argv: list[str]) -> int:
    start = time.perf_counter()
    data = facts_to_bytes(build_facts(workers=2))
    path = DATA / FACTS_FILE
    if "--check" in argv:
        if not path.exists() or path.read_bytes() != data:
            print(f"{path.name} is stale: run tools/build_house_way_facts.py", file=sys.stderr)
            return 1
        return 0
    path.write_bytes(data)
    print(f"{path.name}: {len(data):,} bytes ({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
