"""``trainer house-way verify|simulate --file``: a house way read from a file (issue 18, item 7).

The engine alone, no app: the file is validated as the editor validates it, then
verified or simulated like a preset. A custom way has no shipped class table, so
the interpreter sets every hand. (A stored version, ``slug@n``, loads the app:
tests/web/test_custom_way_everywhere.py.)
"""
from __future__ import annotations

import copy
import json
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from cli_probe import run_trainer
from click.testing import CliRunner

from trainer.cli import cli
from trainer.cli.engine import register
from trainer.engine.house_way import editing

register(cli)

TOTAL_HANDS = 154_143_080
def preset_data(name: str = "trump-plaza") -> dict[str, Any]:
    """A preset's data, read from its TOML file with tomllib."""
    text = resources.files("trainer.engine.house_way").joinpath(
        "presets", f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def acme() -> dict[str, Any]:
    """Trump Plaza with one rule changed: two pair Medium + Medium with an ace is split."""
    data = preset_data()
    data.update(name="acme", casino="Acme Casino, Reno", title="Acme Casino house way")
    rules = {r["id"]: r for s in data["sections"] for r in s["rules"]}
    rules["two-pair.together.ace"]["when"]["pair_groups"] = ["low+high"]
    rules["two-pair.split.no-ace"]["when"] = {"pair_groups": ["low+high", "medium+medium"]}
    return data


def write(tmp_path: Path, data: dict[str, Any], name: str = "way.toml") -> str:
    path = tmp_path / name
    path.write_text(editing.to_toml(data), encoding="utf-8")
    return str(path)


@pytest.fixture()
def run():
    runner = CliRunner()

    def invoke(*args: str) -> Any:
        return runner.invoke(cli, list(args))

    return invoke


def answer(result: Any) -> dict[str, Any]:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_verify_file_checks_a_sample_by_the_interpreter(run, tmp_path: Path) -> None:
    path = write(tmp_path, acme())
    out = answer(run("house-way", "verify", "--file", path, "--sample", "3000", "--workers", "1"))
    assert out["house_way"] == "acme" and out["file"] == path
    assert out["hands_checked"] == 3000 and out["failed_hands"] == 0
    assert out["class_table"] == {"used": False, "table_mismatches": None}
    # The same 3000 hands as the preset's run: the changed rule moves hands from
    # "together with an ace" to "split", and nothing else changes.
    preset = answer(run("house-way", "verify", "trump-plaza", "--sample", "3000", "--workers", "1"))
    moved = preset["per_rule"]["two-pair.together.ace"] - out["per_rule"].get("two-pair.together.ace", 0)
    assert moved > 0
    assert out["per_rule"]["two-pair.split.no-ace"] == preset["per_rule"]["two-pair.split.no-ace"] + moved
    others = {k: v for k, v in out["per_rule"].items() if not k.startswith("two-pair.")}
    assert others == {k: v for k, v in preset["per_rule"].items() if not k.startswith("two-pair.")}


def test_verify_file_checks_every_hand(run, tmp_path: Path) -> None:
    out = answer(run("house-way", "verify", "--file", write(tmp_path, acme()), "--workers", "2"))
    assert out["complete"] is True
    assert out["hands_checked"] == out["all_hands"] == TOTAL_HANDS
    assert out["classes_checked"] == 292_253
    assert out["failed_hands"] == 0 and out["failures"] == []
    assert sum(out["per_rule"].values()) == TOTAL_HANDS


def test_verify_file_reports_the_hands_no_rule_decides(run, tmp_path: Path) -> None:
    data = acme()
    del data["sections"][0]   # no pair, no S/F: nothing decides those hands now
    data["examples"] = [e for e in data["examples"] if not e["rule"].startswith("pai-gow")]
    result = run("house-way", "verify", "--file", write(tmp_path, data), "--sample", "400",
                 "--workers", "1")
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert out["failed_hands"] > 0
    assert all(f["rule"] == "undecided" and "no rule decides" in f["failure"]
               for f in out["failures"])


@pytest.mark.parametrize("content, fragment", [
    ('name = "x"\n[[sections]\n', "line 2"),
    ('name = "acme"\ncasino = "Acme"\n', "section"),
])
def test_a_bad_file_is_one_line_error_with_exit_2(run, tmp_path: Path, content: str,
                                                  fragment: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(content, encoding="utf-8")
    result = run("house-way", "verify", "--file", str(path), "--sample", "10")
    assert result.exit_code == 2 and result.stdout == ""
    assert fragment in result.stderr.lower() and len(result.stderr.strip().splitlines()) == 1
    missing = run("house-way", "verify", "--file", str(tmp_path / "none.toml"))
    assert missing.exit_code == 2 and "Cannot read the house-way file" in missing.stderr
    both = run("house-way", "verify", "trump-plaza", "--file", str(path))
    assert both.exit_code == 2 and "not both" in both.stderr


def test_an_unknown_name_is_still_refused(run) -> None:
    result = run("house-way", "verify", "no-such-casino")
    assert result.exit_code == 2 and "Unknown house way" in result.stderr


def test_simulate_plays_the_file_on_the_same_deals(run, tmp_path: Path) -> None:
    args = ("--hands", "16384", "--seed", "3", "--workers", "1")
    # The preset's own data under another name: the same settings, so the same counts.
    same = preset_data()
    same["name"] = "copy-of-trump-plaza"
    preset = answer(run("house-way", "simulate", "trump-plaza", *args))
    copied = answer(run("house-way", "simulate", "--file", write(tmp_path, same, "copy.toml"),
                        "--against", "trump-plaza", *args))
    keys = ("player_win", "push", "banker_win", "banker_queen_high", "house_edge")
    assert {k: copied[k] for k in keys} == {k: preset[k] for k in keys}
    assert copied["player"].startswith("copy-of-trump-plaza (file ") and copied["banker"] == "trump-plaza"
    # The custom way as the player: its changed hands change some outcomes.
    custom = answer(run("house-way", "simulate", "--file", write(tmp_path, acme()),
                        "--against", "trump-plaza", *args))
    assert {k: custom[k] for k in keys} != {k: preset[k] for k in keys}
    # And as the banker (--against-file), against the preset's player.
    banker = answer(run("house-way", "simulate", "trump-plaza", "--against-file",
                        write(tmp_path, acme(), "banker.toml"), *args))
    assert banker["banker"].startswith("acme (file ") and banker["hands"] == 16384
    assert "reference" not in custom and "reference" not in banker


def test_verify_and_simulate_a_file_load_no_flask_or_sqlalchemy(tmp_path: Path) -> None:
    path = write(tmp_path, acme())
    out, report = run_trainer("house-way", "verify", "--file", path, "--sample", "200",
                              "--workers", "1")
    assert report == {"code": 0, "loaded": []}
    assert json.loads(out)["failed_hands"] == 0
    out, report = run_trainer("house-way", "simulate", "--file", path, "--hands", "2000",
                              "--workers", "1")
    assert report == {"code": 0, "loaded": []}
    assert json.loads(out)["hands"] == 2000


def test_the_file_round_trips_to_the_same_way() -> None:
    # What the tests write is what they mean: the file reads back to the data.
    data = acme()
    assert tomllib.loads(editing.to_toml(data)) == copy.deepcopy(data)
