"""The five-card rank tables: shipped as package data, equal to a fresh build, made lazily."""
import json
import subprocess
import sys
from importlib import resources

import pytest

from trainer.engine import hands
from trainer.engine.hands import (
    Wheel,
    _build_tables,
    _load_tables,
    table_file_name,
    tables_from_bytes,
    tables_to_bytes,
)

DATA = resources.files("trainer.engine").joinpath("data")


@pytest.mark.parametrize("wheel", [w.value for w in Wheel])
def test_shipped_tables_equal_a_fresh_build(wheel):
    # If this fails, the evaluator changed: run tools/build_rank_tables.py.
    built = _build_tables(wheel)
    shipped = DATA.joinpath(table_file_name(wheel)).read_bytes()
    assert shipped == tables_to_bytes(built)
    assert tables_from_bytes(shipped) == built
    assert _load_tables(wheel) == built


def test_tables_round_trip_and_refuse_other_bytes():
    tables = ({30: 1 << 20, 2 * 3 * 5 * 7 * 43: 5}, {11: 7})
    assert tables_from_bytes(tables_to_bytes(tables)) == tables
    with pytest.raises(ValueError):
        tables_from_bytes(b"XXXX" + tables_to_bytes(tables)[4:])
    with pytest.raises(ValueError):
        tables_from_bytes(tables_to_bytes(tables)[:-4])


def test_a_missing_table_file_is_built_instead(monkeypatch):
    monkeypatch.setattr(hands, "table_file_name", lambda wheel: "no-such-table.bin")
    assert _load_tables(Wheel.LOWEST.value) == _build_tables(Wheel.LOWEST.value)


def _fresh(code: str) -> object:
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60, check=True)
    return json.loads(result.stdout)


def test_importing_the_engine_commands_makes_no_table():
    code = ("import json, trainer.cli, trainer.engine.house_way, trainer.engine.drills; "
            "from trainer.engine import hands; print(json.dumps(sorted(hands._TABLES)))")
    assert _fresh(code) == []


def test_tables_are_made_per_wheel_on_first_use():
    code = ("import json; from trainer.engine.cards import parse_cards; "
            "from trainer.engine import hands; from trainer.engine.house_way import load; "
            "a = hands.rank5(parse_cards('As Ks Qs Js Ts'), 'lowest'); "
            "b = sorted(hands._TABLES); "
            # The interpreter ranks backs; a class table's set() needs no rank table.
            "load(table=False).set('As Ks Qs Js Ts 2c 3d'); "
            "print(json.dumps([b, sorted(hands._TABLES)]))")
    assert _fresh(code) == [["lowest"], ["lowest", "second_highest"]]
