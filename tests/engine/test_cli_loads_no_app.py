"""The engine commands run without loading Flask or SQLAlchemy (``trainer.cli.main``)."""
import json
import subprocess
import sys

from cli_probe import APP_PACKAGES, run_trainer


def test_hand_rank_runs_without_flask_or_sqlalchemy():
    out, report = run_trainer("hand", "rank", "Kh Kd JK 7c 3s")
    assert report == {"code": 0, "loaded": []}
    assert json.loads(out)["category"] == "one_pair"


def test_house_way_list_runs_without_flask_or_sqlalchemy():
    out, report = run_trainer("house-way", "list")
    assert report == {"code": 0, "loaded": []}
    assert json.loads(out)["default"]


def test_importing_the_engine_loads_no_flask_or_sqlalchemy():
    code = ("import sys, trainer.engine.drills, trainer.engine.house_way, trainer.cli.engine; "
            f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({list(APP_PACKAGES)!r})))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60, check=True)
    assert result.stdout.strip() == "[]"


def test_bonus_counts_runs_without_flask_or_sqlalchemy_and_sums_to_all_hands():
    out, report = run_trainer("bonus", "counts", "--json")
    assert report == {"code": 0, "loaded": []}
    answer = json.loads(out)
    assert len(answer["counts"]) == 12 and sum(answer["counts"].values()) == answer["total"] == 154_143_080


def test_bonus_edge_prints_every_table_without_flask_or_sqlalchemy():
    out, report = run_trainer("bonus", "edge", "--meter", "10000")
    assert report == {"code": 0, "loaded": []}
    assert "fortune-standard" in out and "7.7656%" in out and "progressive" in out
