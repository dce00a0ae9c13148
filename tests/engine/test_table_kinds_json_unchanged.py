"""The typed action, settlement and round drills store and say exactly what the dict drills
did (issue 28): every stored attempt replays and re-grades identically.

For seeds 1-300 under twelve stored contexts (``table_kinds_dump.CONTEXTS``: both
generators, every kind of table and side bet, the house-way foul policy, "my mistakes"),
each question's JSON and its text (a round's three steps), its rule, each answer it is
graded with (the probe, every fixed answer, the right one) as stored and its text, the
key's text, the grade's JSON, the feedback on it and on no answer, and the hint are
compared with the commit before the change: line by line with that commit's code when
its checkout is at hand (``TRAINER_BASE_CHECKOUT``, default ``/work/base``, run in a
subprocess with that ``trainer`` first on the path), and always with the digests of its
lines kept in ``data/table-kinds-json-digests.json``.

One difference is meant: when a side bet's pay line is the rule a grade names (the
trainee missed it), the feedback now quotes that line's sentence and section, which the
bonus drill's home declares (``skills.BOOK``); before, a side-bet rule had no rule-book
sentence there. The comparison sets those two fields aside and checks them against the
declared skill (none declared: empty, as before).
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from engine import table_kinds_dump

from trainer.engine.drills.kinds import action, settlement
from trainer.engine.drills.kinds import round as round_kind
from trainer.engine.drills.skills import skill

HERE = Path(__file__).parent
BASE = Path(os.environ.get("TRAINER_BASE_CHECKOUT", "/work/base"))
DIGESTS = HERE / "data" / "table-kinds-json-digests.json"
# A side bet's pay line: the bonus drill's rule ids (``bonus.<table>.<line>``).
SIDE_BET_RULE = "bonus."


def set_aside(line: dict[str, Any]) -> list[dict[str, Any]]:
    """Take out of a line the feedback's sentence and section where a side bet's rule is
    the grade's (the one meant difference); return those feedbacks as they were."""
    taken = []
    for feedback in [*(g["feedback"] for g in line["graded"]), line["timed_out"]]:
        if feedback["rule_id"].startswith(SIDE_BET_RULE):
            taken.append({**feedback})
            feedback["why"] = feedback["section"] = None
    return taken


def group_of(line: dict[str, Any]) -> str:
    return f"{line['kind']} {line['context']}"


def where(line: dict[str, Any]) -> str:
    return f"{line['kind']} under {line['context']}, seed {line['seed']}, step {line['step']}"


def typed_records() -> tuple[list[tuple[str, str, str]], dict[str, str], int]:
    """Return the typed drills' lines (group, place, text) with the meant difference set
    aside and checked, their digests per group, and how many feedbacks were set aside."""
    lines = []
    digests: dict[str, Any] = defaultdict(hashlib.sha256)
    aside = 0
    for line in table_kinds_dump.typed_lines():
        for feedback in set_aside(line):
            # The pay line's sentence when the bonus drill's home declares it; else, as
            # before, none (a side bet that drill does not deal, Queen's Dragon).
            found = skill(feedback["rule_id"])
            assert (feedback["why"], feedback["section"]) == (
                (str(found.sentence), found.section) if found is not None else ("", ""))
            aside += found is not None
        text = table_kinds_dump.line_text(line)
        lines.append((group_of(line), where(line), text))
        digests[group_of(line)].update(text.encode() + b"\n")
    return lines, {group: d.hexdigest() for group, d in digests.items()}, aside


def test_questions_answers_keys_grades_feedback_and_hints_are_what_the_dict_drills_gave() -> None:
    base: subprocess.Popen[bytes] | None = None
    out = Path(tempfile.mkstemp(suffix=".jsonl")[1])
    try:
        if (BASE / "trainer" / "engine" / "drills" / "base.py").is_file():
            # The commit before the change deals and grades at the same time, in its own process.
            base = subprocess.Popen([sys.executable, str(HERE / "table_kinds_dump.py"), str(out)],
                                    cwd=BASE, env={**os.environ, "PYTHONPATH": str(BASE)})
        mine, digests, aside = typed_records()
        # action, settlement, a round's 3 steps
        assert len(mine) == len(table_kinds_dump.CONTEXTS) * len(table_kinds_dump.SEEDS) * 5
        assert aside > 0  # the side-bet tables do name side-bet rules
        kept = json.loads(DIGESTS.read_text(encoding="utf-8"))
        assert digests == kept
        if base is not None:
            assert base.wait(timeout=1800) == 0
            with out.open(encoding="utf-8") as theirs:
                count = 0
                for (_group, place, text), old in zip(mine, theirs, strict=True):
                    line = json.loads(old)
                    set_aside(line)
                    assert text == table_kinds_dump.line_text(line), place
                    count += 1
            assert count == len(mine)
    finally:
        if base is not None and base.poll() is None:
            base.kill()
        out.unlink(missing_ok=True)


@pytest.mark.parametrize("slug", [action.SLUG, settlement.SLUG])
def test_the_comparison_covers_every_rule_of_the_kind(slug: str) -> None:
    """Not an empty comparison: under the contexts compared, every rule of the action and
    settlement drills is some question's (the settlement's foul under the lose policy)."""
    from trainer.engine.drills import DrillContext, get_drill, new_question

    drill = get_drill(slug)
    seen = {drill.rule_of(new_question(slug, seed, DrillContext.from_dict(data)),
                          DrillContext.from_dict(data))
            for data in table_kinds_dump.CONTEXTS.values() for seed in range(1, 61)}
    assert seen == {s.id for s in drill.skills}


def test_the_round_steps_compared_show_every_step_and_both_bankers() -> None:
    from trainer.engine.drills import DrillContext, get_drill, new_question

    drill = get_drill(round_kind.SLUG)
    context = DrillContext()
    dealt = [new_question(round_kind.SLUG, seed, context) for seed in range(1, 61)]
    assert {d.player_banker for d in dealt} == {True, False}
    assert [drill.at_step(dealt[0], step, context).step for step in range(3)] == list(round_kind.STEPS)
