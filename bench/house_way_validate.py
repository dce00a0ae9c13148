"""Time the house-way editor's ``validate`` (issue 18): a form post re-validates the draft.

    .venv/bin/python bench/house_way_validate.py

Prints, per preset, the first call in a fresh process (it reads the shipped condition
facts and builds the search points once), a call with the "can never hold" cache
cleared, and a call with it warm; then a worst case: a two-pair rule whose seven tests
conflict only three at a time, so the search scans every two-pair hand structure
1 + 7 + 21 times before it words the whole condition. Figures: docs/house-ways.md.
"""
from __future__ import annotations

import time

from trainer.engine.house_way import editing as E
from trainer.engine.house_way import preset_names
from trainer.engine.house_way.editing import can_hold


def timed(data: dict) -> tuple[float, int]:
    start = time.perf_counter()
    errors = E.validate(data)
    return time.perf_counter() - start, len(errors)


def main() -> None:
    first, _ = timed(E.preset_data("trump-plaza"))
    print(f"first call in the process (trump-plaza): {first:.3f} s")
    for name in preset_names():
        data = E.preset_data(name)
        can_hold.clear_cache()
        cold, n = timed(data)
        warm, _ = timed(data)
        print(f"{name:22} errors {n}  cache cleared {cold:.3f} s  warm {warm:.3f} s")
    data = E.preset_data("trump-plaza")
    rule = dict(data["sections"][2]["rules"][0])
    # Any two of the first three can hold together; all three cannot.
    rule["when"] = {"any": [{"ace": True}, {"holds": "flush"}], "ace": False,
                    "not": {"holds": "flush"}, "sf": True, "high_pair": "7-K",
                    "low_pair": "2-T", "king_or_ace": True}
    worst = E.replace_rule(data, 2, 0, rule)
    can_hold.clear_cache()
    cold, n = timed(worst)
    print(f"worst case (cache cleared): {cold:.3f} s, {n} error(s): "
          f"{E.validate(worst)[0].message if n else ''}")


if __name__ == "__main__":
    main()
