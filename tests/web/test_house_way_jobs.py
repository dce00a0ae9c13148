"""The house-way job kinds (issue 18): check, diff, simulate and class_table run as jobs,
their results stored, their class tables kept (trainer/services/house_way_jobs.py)."""
from __future__ import annotations

import copy
import os
from typing import Any

import pytest
from sqlalchemy import delete as sa_delete
from sqlalchemy import func, select

from trainer.engine.house_way import load
from trainer.engine.house_way import proof as proof_module
from trainer.engine.house_way.interpreter import rules_digest
from trainer.engine.house_way.proof import CheckResult
from trainer.extensions import db
from trainer.models import Job
from trainer.models.house_way import HouseWayTable
from trainer.services import house_way_jobs as hwj
from trainer.services import house_ways, jobs

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")


@pytest.fixture
def runner(app) -> jobs.Runner:
    return app.extensions[jobs.EXTENSION]  # inline in tests (tests/conftest.py)


def data_of(preset: str, **changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(load(preset).data)
    data.update(changes)
    return data


def shipped_tables(name: str) -> dict[str, Any]:
    way = load(name)
    return {w: way.class_table(w) for w in hwj.WHEELS}


def fake_check(name: str, calls: list[str]) -> Any:
    """A stand-in for the engine's check: the preset's shipped tables, an empty report."""
    def check_way(way, progress=None, workers=1, classes=None):
        calls.append(way.rules_digest)
        if progress:
            progress(1, 1)
        return CheckResult({"fouled_hands": 0, "undecided_hands": 0, "fake": True},
                           shipped_tables(name))
    return check_way


def stored_wheels(app, digest: str) -> list[str]:
    with app.app_context():
        return sorted(db.session.execute(
            select(HouseWayTable.wheel).where(HouseWayTable.rules_digest == digest)).scalars())


def test_the_four_kinds_are_registered_by_the_app(app):
    for kind, fn in hwj.JOB_KINDS.items():
        assert jobs.kind_function(kind) is fn
    assert set(hwj.JOB_KINDS) == {"check", "diff", "simulate", "class_table"}


def test_a_check_of_the_first_classes_reports_them_and_stores_no_tables(app, runner):
    data = data_of("trump-plaza")
    digest = rules_digest(data)
    with app.app_context():
        job = hwj.start_check(data, None, runner=runner, classes=3000)
        assert job.status == "done", job.error
        assert job.key == f"check:{digest}:first-3000"
        assert job.progress == 1000
        report = job.result
        # A small check never counts as the draft's check.
        assert house_ways.check_report(digest) is None
    assert report["classes"] == 3000
    assert report["fouled_hands"] == 0 and report["undecided_hands"] == 0
    assert report["rules_digest"] == digest
    assert stored_wheels(app, digest) == []


@pytest.mark.skipif(bool(TEST_DATABASE_URL), reason="the whole check runs once, on SQLite (about 10 s)")
def test_a_whole_check_of_trump_plaza_finds_no_foul_and_stores_its_tables(app, runner):
    data = data_of("trump-plaza", name="riverside")  # not the preset by name: no shipped table
    digest = rules_digest(data)
    with app.app_context():
        job = hwj.start_check(data, None, runner=runner)
        assert job.status == "done", job.error
        assert job.key == f"check:{digest}"
        assert house_ways.check_report(digest) == job.result
        stored = house_ways.load_tables(digest)
    assert job.result["fouled_hands"] == 0 and job.result["undecided_hands"] == 0
    assert job.result["hands"] == 154_143_080
    shipped = shipped_tables("trump-plaza")
    assert sorted(stored) == sorted(hwj.WHEELS)
    for wheel, table in stored.items():  # the check's tables are the shipped ones
        assert (table.split, table.rule) == (shipped[wheel].split, shipped[wheel].rule)


def test_a_way_that_cannot_be_read_fails_the_job_in_words(app, runner):
    data = data_of("trump-plaza")
    data["sections"] = [{"title": "Broken", "rules": [{"id": "no-such-kind.x"}]}]
    with app.app_context():
        job = hwj.start_check(data, None, runner=runner, classes=10)
        assert job.status == "failed"
        assert job.error.startswith("This house way cannot be read:")


def test_class_table_builds_and_stores_the_tables_of_a_published_way(app, runner, monkeypatch):
    calls: list[str] = []
    monkeypatch.setattr(proof_module, "check_way", fake_check("foxwoods", calls))
    data = data_of("foxwoods", name="riverside@1")
    digest = rules_digest(data)
    with app.app_context():
        job = hwj.start_class_table(data, None, runner=runner)
        assert job.status == "done", job.error
        assert job.result == {"rules_digest": digest, "built": True, "fouled_hands": 0,
                              "undecided_hands": 0}
        assert job.key == f"class_table:{digest}"
        first = job.id
    assert calls == [digest]
    assert stored_wheels(app, digest) == sorted(hwj.WHEELS)
    with app.app_context():  # finished on the same data: answered, not run again (issue 25)
        again = hwj.start_class_table(data, None, runner=runner)
        assert again.id == first and again.result["built"] is True
        db.session.execute(sa_delete(Job))  # the job forgotten: the tables are still stored
        db.session.commit()
        fresh = hwj.start_class_table(data, None, runner=runner)
        assert fresh.result == {"rules_digest": digest, "built": False}
    assert calls == [digest]


def test_the_tables_a_job_stores_commit_with_its_result_on_both_databases(app, runner, monkeypatch):
    monkeypatch.setattr(proof_module, "check_way", fake_check("foxwoods", []))
    data = data_of("foxwoods", name="riverside@2")
    with app.app_context():
        hwj.start_class_table(data, None, runner=runner)
        count = db.session.execute(select(func.count()).select_from(HouseWayTable)).scalar()
        done = db.session.execute(select(func.count()).select_from(Job).where(Job.status == "done")).scalar()
    assert (count, done) == (2, 1)


def test_diff_against_another_preset_counts_the_hands_set_differently(app, runner):
    with app.app_context():
        job = hwj.start_diff(data_of("foxwoods"), "trump-plaza", None, runner=runner)
        assert job.status == "done", job.error
        assert job.key == f"diff:{rules_digest(data_of('foxwoods'))}:trump-plaza"
        result = job.result
    assert result["hands"] == 154_143_080
    assert 0 < result["changed_hands"] < result["hands"]
    assert sum(row["hands"] for row in result["per_rule"]) == result["changed_hands"]
    with app.app_context():
        same = hwj.start_diff(data_of("trump-plaza", title="Reworded"), "trump-plaza", None,
                              runner=runner).result
    assert same["changed_hands"] == 0


def test_diff_of_a_draft_without_tables_checks_it_first_and_keeps_its_tables(app, runner, monkeypatch):
    calls: list[str] = []
    monkeypatch.setattr(proof_module, "check_way", fake_check("trump-plaza", calls))
    draft = data_of("trump-plaza", name="my-way")  # same rules as the preset, no shipped table
    digest = rules_digest(draft)
    with app.app_context():
        job = hwj.start_diff(draft, "trump-plaza", None, runner=runner)
        assert job.status == "done", job.error
        assert job.result["changed_hands"] == 0
    assert calls == [digest]
    assert stored_wheels(app, digest) == sorted(hwj.WHEELS)


def test_simulate_deals_the_same_hands_and_reports_the_edge_change(app, runner):
    with app.app_context():
        job = hwj.start_simulate(data_of("foxwoods"), "trump-plaza", "trump-plaza", "nevada", None,
                                 runner=runner, hands=2_000, seed=7)
        assert job.status == "done", job.error
        result = job.result
        digest = rules_digest(data_of("foxwoods"))
        assert job.key == f"simulate:{digest}:trump-plaza:trump-plaza:nevada:2000:7"
    assert result["hands"] == 2_000 and result["seed"] == 7 and result["profile"] == "nevada"
    assert result["counts"]["hands"] == 2_000
    assert sum(row["deals"] for row in result["counts"]["joint"]) == 2_000
    assert result["edge"]["hands"] == 2_000 and result["edge"]["profile"] == "nevada"
    with app.app_context():  # the old way against itself: no change at all
        same = hwj.start_simulate(data_of("trump-plaza"), "trump-plaza", "trump-plaza", "nevada",
                                  None, runner=runner, hands=2_000, seed=7).result
    assert all(row["old"] == row["new"] for row in same["counts"]["joint"] if row["deals"])
    assert (same["edge"]["change_points"], same["edge"]["changed_deals"]) == (0, 0)
    assert same["edge"]["direction"] == "same"


@pytest.mark.parametrize("hands, seed, words", [
    (999, 1, "from 1,000 to 10,000,000"), (10_000_001, 1, "from 1,000 to 10,000,000"),
    ("1000", 1, "whole number"), (2000, -1, "zero or more"),
])
def test_a_bad_simulation_is_refused_in_words_and_starts_nothing(app, runner, hands, seed, words):
    with app.app_context():
        with pytest.raises(ValueError, match=words):
            hwj.start_simulate(data_of("foxwoods"), "trump-plaza", "trump-plaza", "nevada", None,
                               runner=runner, hands=hands, seed=seed)
        assert db.session.execute(select(func.count()).select_from(Job)).scalar() == 0


def test_a_finished_job_is_answered_again_and_rerun_when_what_it_names_changed(app, runner, monkeypatch):
    monkeypatch.setattr(proof_module, "check_way", fake_check("foxwoods", []))
    data = data_of("foxwoods", name="riverside@3")
    with app.app_context():
        first = hwj.start_class_table(data, None, runner=runner)
        again = hwj.start_class_table(data, None, runner=runner)
        assert again.id == first.id
        # Same key, other parameters (as after a preset file changed under its name).
        first.params = {"rules_digest": rules_digest(data), "data": data_of("foxwoods", title="Before")}
        db.session.commit()
        rerun = hwj.start_class_table(data, None, runner=runner)
        assert rerun.id != first.id and rerun.status == "done"
        assert rerun.params["data"] == data
