"""Write the preset house ways' class tables as package data.

    .venv/bin/python tools/build_class_tables.py                  # every preset, both wheels
    .venv/bin/python tools/build_class_tables.py trump-plaza      # some presets
    .venv/bin/python tools/build_class_tables.py --check          # exit 1 if a shipped file is stale

Writes ``trainer/engine/house_way/tables/classes.bin`` (the class keys, shared) and
``<preset>-<wheel>.bin`` (one table each), each table built by the interpreter over
every class (``class_build.build_class_table``; about 10 s a table on two processes).
``--check`` rebuilds and compares bytes; ``tests/engine/test_class_tables.py`` does
the same for the default preset.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from trainer.engine.hands import Wheel
from trainer.engine.house_way import load, preset_names
from trainer.engine.house_way.class_build import build_class_table
from trainer.engine.house_way.classes import (
    build_class_keys,
    keys_from_bytes,
    keys_to_bytes,
    table_file_name,
)

DATA = Path(__file__).resolve().parent.parent / "trainer" / "engine" / "house_way" / "tables"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    names = [a for a in argv if not a.startswith("--")] or preset_names()
    stale = []
    DATA.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    keys_data = keys_to_bytes(*build_class_keys())
    path = DATA / "classes.bin"
    if check:
        if not path.exists() or path.read_bytes() != keys_data:
            stale.append(path.name)
    else:
        path.write_bytes(keys_data)
        print(f"{path.name}: {len(keys_data):,} bytes ({time.perf_counter() - start:.1f} s)",
              flush=True)
    keys = keys_from_bytes(keys_data)
    for name in names:
        way = load(name, table=False)
        for wheel in Wheel:
            t0 = time.perf_counter()
            data = build_class_table(way, wheel.value, workers=2, keys=keys).to_bytes()
            path = DATA / table_file_name(name, wheel.value)
            if check:
                if not path.exists() or path.read_bytes() != data:
                    stale.append(path.name)
            else:
                path.write_bytes(data)
                print(f"{path.name}: {len(data):,} bytes ({time.perf_counter() - t0:.1f} s)",
                      flush=True)
    if stale:
        print("stale: " + ", ".join(stale) + " (run tools/build_class_tables.py)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
