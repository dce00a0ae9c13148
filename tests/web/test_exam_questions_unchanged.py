"""Nothing adaptive ever chooses an exam's questions (issue 30).

The exams of every drill kind, for seeds 1..200, are dealt through the exam service on
this tree and on the commit before practice that adapts (``/work/base``, or
``EXAM_BASE_TREE``; skipped when it is not there), each in its own process
(``exam_questions_dump.py``), and must deal the very same questions.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
MAIN = HERE.parents[1]
BASE = Path(os.environ.get("EXAM_BASE_TREE", "/work/base"))


def _dump(tree: Path, out: Path) -> list[dict[str, Any]]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    subprocess.run([sys.executable, str(HERE / "exam_questions_dump.py"), str(out)],
                   check=True, env=env, cwd=tree, timeout=900)
    found: list[dict[str, Any]] = json.loads(out.read_text(encoding="utf-8"))
    return found


@pytest.mark.skipif(not (BASE / "trainer").is_dir(), reason="no checkout of the commit before")
def test_exam_questions_for_seeds_1_to_200_are_those_of_the_commit_before(tmp_path: Path) -> None:
    now = _dump(MAIN, tmp_path / "main.json")
    before = _dump(BASE, tmp_path / "base.json")
    kinds = {q["kind"] for q in before}
    assert kinds and {q["kind"] for q in now} >= kinds
    now = [q for q in now if q["kind"] in kinds]
    assert len(now) == len(before) >= 200 * len(kinds) - 200
    assert {q["seed"] for q in now if q["kind"] == "house-way"} == set(range(1, 201))
    for mine, theirs in zip(now, before, strict=True):
        assert mine == theirs, (mine["kind"], mine["position"])
