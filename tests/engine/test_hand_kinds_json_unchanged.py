"""The typed house-way, foul-check and hand-reading drills store and say exactly what the
dict drills did (issue 28): every stored attempt replays and re-grades identically.

For seeds 1-300 under six stored contexts (``hand_kinds_base.CONTEXTS``: both question
generators, presets, a fee table with the lowest wheel setting, the house-way foul policy,
"my mistakes" focus rules), each question's JSON, its rule, the JSON of the answers it is
graded with (the probe, every fixed answer, the house way's own front), each grade's
JSON with its key, the feedback on each answer and on no answer, and the hint are
compared with the commit before the change: record by record with its code when the
checkout is at hand (``TRAINER_BASE_CHECKOUT``, default ``/work/base``; run in a
subprocess with that ``trainer`` first on the path), and always with the digests of
that commit's records kept in ``data/hand-kinds-dcd43b1-digests.json``.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from engine import hand_kinds_base
from engine.table_kinds_dump import question_record, typed_graded

from trainer.engine.drills import DrillContext, get_drill, new_question
from trainer.engine.drills.kinds import foul_check, hand_reading, house_way

HERE = Path(__file__).parent


CONTEXTS: dict[str, dict[str, Any]] = hand_kinds_base.CONTEXTS
SEEDS: range = hand_kinds_base.SEEDS
BASE = Path(os.environ.get("TRAINER_BASE_CHECKOUT", "/work/base"))
DIGESTS = HERE / "data" / "hand-kinds-dcd43b1-digests.json"
SLUGS = (house_way.SLUG, foul_check.SLUG, hand_reading.SLUG)


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def digest(records: list[dict[str, Any]]) -> str:
    return hashlib.sha256(canonical(records).encode()).hexdigest()


def records(slug: str, name: str) -> list[dict[str, Any]]:
    """The typed drill's records, in the form ``hand_kinds_base.dump`` writes them."""
    drill = get_drill(slug)
    context = DrillContext.from_dict(CONTEXTS[name])
    out = []
    for seed in SEEDS:
        question = new_question(slug, seed, context)
        assert drill.read_question(drill.question_json(question)) == question
        rule = drill.rule_of(question, context)
        answers = [drill.probe(question), *(drill.answer_choices(question, context) or {}).values()]
        key = drill.grade(question, drill.probe(question), context).correct_answer
        if slug == house_way.SLUG:
            answers.append(house_way.SetAnswer(front=key.front))
        graded = [typed_graded(drill, question, answer, context) for answer in answers]
        out.append(question_record(drill, question, drill.question_json(question), rule, graded,
                                   context))
    # What JSON would do to it on its way to a row and back (tuples as lists).
    loaded: list[dict[str, Any]] = json.loads(canonical(out))
    return loaded


@cache
def base_records() -> dict[str, Any] | None:
    """The records of the commit before the change, or None when its checkout is not here."""
    if not have_base():
        return None
    return run_base(*SLUGS)


def run_base(*args: str) -> dict[str, Any]:
    """Run ``hand_kinds_base.py`` with the earlier commit's code and return what it wrote."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "base.json"
        subprocess.run([sys.executable, str(HERE / "hand_kinds_base.py"), str(out), *args],
                       check=True, cwd=BASE, env={**os.environ, "PYTHONPATH": str(BASE)},
                       timeout=900)
        data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return data


def have_base() -> bool:
    """Tell whether the checkout of the commit before the change is here."""
    return (BASE / "trainer" / "engine" / "drills" / "base.py").is_file()


@pytest.mark.parametrize("name", list(CONTEXTS))
@pytest.mark.parametrize("slug", SLUGS)
def test_questions_answers_keys_grades_feedback_and_hints_are_what_the_dict_drills_gave(
        slug: str, name: str) -> None:
    mine = records(slug, name)
    assert len(mine) == len(SEEDS) == 300
    base = base_records()
    if base is not None:
        theirs = base[f"{slug} {name}"]
        assert len(theirs) == len(mine)
        for seed, (old, new) in zip(SEEDS, zip(theirs, mine, strict=True), strict=True):
            assert new == old, f"{slug} under {name}, seed {seed}"
        assert digest(theirs) == json.loads(DIGESTS.read_text())[f"{slug} {name}"]
    assert digest(mine) == json.loads(DIGESTS.read_text())[f"{slug} {name}"]


def test_the_records_compare_every_answer_kind_and_both_keys_of_a_foul() -> None:
    """The comparison is not empty: fouled and legal hands, reset keys, both modes."""
    fouls = records(foul_check.SLUG, "foxwoods-house-way-fouls")
    assert {r["graded"][0]["grade"]["correct_answer"]["fouled"] for r in fouls} == {True, False}
    assert any("reset" in r["graded"][0]["grade"]["correct_answer"] for r in fouls)
    reading = records(hand_reading.SLUG, "default")
    assert {r["question"]["mode"] for r in reading} == {"category", "compare"}
    sets = records(house_way.SLUG, "first-generator")
    assert {g["grade"]["correct"] for r in sets for g in r["graded"]} == {True, False}


def test_a_stored_question_with_a_field_changed_is_refused_in_words() -> None:
    drill = get_drill(foul_check.SLUG)
    data = drill.question_json(new_question(foul_check.SLUG, 3, DrillContext()))
    assert drill.read_question(data) == drill.read_question({**data})
    with pytest.raises(ValueError, match="unexpected cards"):
        drill.read_question({**data, "cards": ["As"]})
    with pytest.raises(ValueError, match="back is missing"):
        drill.read_question({k: v for k, v in data.items() if k != "back"})
    with pytest.raises(ValueError, match="not of the 'foul-check' drill"):
        drill.read_question({**data, "kind": house_way.SLUG})
