"""Dump what the bonus drill writes, as JSON text, for seeds 1..300 under several contexts.

Run by ``test_bonus_home.py`` against this checkout and, in a subprocess with
``PYTHONPATH`` set to a checkout of the commit before issue 28 (dcd43b1), against that
one: the two dumps must be the same text, byte for byte. It is written to run on both:
before issue 28 a question, an answer and a key were dicts; after, the kind's frozen
dataclasses, written as JSON by the drill's edge (``question_json``, ``key_json``).

Each record (one seed under one context) holds the question's JSON, its rule, the key,
the grade of every fixed answer (the twelve categories with their cue and pay, and the
probe) and of a wrong amount, the feedback on the probe, on the right answer and on no
answer, the practice hint, and the refusals of malformed answers.

    python tests/engine/bonus_base_dump.py OUT.json [SEEDS]
"""
from __future__ import annotations

import json
import sys
from typing import Any

from trainer.engine.drills import DrillContext, get_drill, new_question

# The contexts dumped: (name, stored context). Profiles with each bonus table, none, an
# old side-bet rules version, a context of generator 1 (stored without one), a custom
# profile's table, and other house ways and foul policies.
CONTEXTS: list[tuple[str, dict[str, Any]]] = [
    ("default", {"generator": 2, "side_bet_rules": 2}),
    ("fortune", {"profile": "nevada-fortune", "generator": 2, "side_bet_rules": 2}),
    ("emperors", {"profile": "nevada-emperors", "house_way": "foxwoods", "generator": 2,
                  "side_bet_rules": 2}),
    ("progressive", {"profile": "nevada-progressive", "generator": 2, "side_bet_rules": 2}),
    ("progressive-rules-1", {"profile": "nevada-progressive", "generator": 2}),
    ("generator-1", {"profile": "nevada-fortune", "house_way": "golden-nugget"}),
    ("ez-house-way-fouls", {"profile": "ez", "foul_policy": "house_way", "generator": 2,
                            "side_bet_rules": 2}),
    ("custom-fortune-5000", {
        "profile": "custom", "house_way": "mgm-grand", "generator": 2, "side_bet_rules": 2,
        "table": {"name": "custom", "title": "Our table", "wheel": "second_highest",
                  "commission_rate": "0.05", "commission_rounding": "cent",
                  "fee_cents": None, "foul_policy": "lose", "no_commission": False,
                  "min_bet_cents": 500, "max_bet_cents": 20_000,
                  "side_bets": [{"table": "fortune-5000", "min_cents": 200, "max_cents": 1000,
                                 "envy": "envy", "commission": False}]}}),
]
# Answers the schema refuses: each refusal's words are dumped.
MALFORMED: list[Any] = [
    None, [], {}, {"qualifies": True, "category": "flush"},
    {"qualifies": None, "category": "flush", "paid_cents": 0},
    {"qualifies": 1, "category": "flush", "paid_cents": 0},
    {"qualifies": True, "category": "two-pair", "paid_cents": 0},
    {"qualifies": True, "category": "flush", "paid_cents": 12.5},
    {"qualifies": True, "category": "flush", "paid_cents": -1},
    {"qualifies": True, "category": "flush", "paid_cents": 100_000_001},
    {"qualifies": True, "category": "flush", "paid_cents": 0, "extra": 1},
]


def grade_json(drill: Any, grade: Any, typed: bool) -> dict[str, Any]:
    """Return a grade's JSON as stored: its key through the drill's edge once typed."""
    data: dict[str, Any] = grade.as_dict()
    if typed:
        data["correct_answer"] = drill.key_json(grade.correct_answer)
    return data


def dump(seeds: int) -> dict[str, list[dict[str, Any]]]:
    """Return every context's records for seeds 1..``seeds``."""
    drill = get_drill("bonus")
    typed = getattr(drill, "question_type", None) is not None
    out: dict[str, list[dict[str, Any]]] = {}
    for name, stored in CONTEXTS:
        context = DrillContext.from_dict(stored)
        records = []
        for seed in range(1, seeds + 1):
            question = new_question("bonus", seed, context)
            shown = drill.question_json(question) if typed else question
            probe = drill.probe(question)
            key = drill.grade(question, probe, context).correct_answer
            key_json = drill.key_json(key) if typed else key
            right = drill.read_answer(question, key_json, context) if typed else key_json
            wrong_json = {**key_json, "paid_cents": key_json["paid_cents"] + 100}
            wrong = drill.read_answer(question, wrong_json, context) if typed else wrong_json
            choices = drill.answer_choices(question, context)
            graded = {label: grade_json(drill, drill.grade(question, answer, context), typed)
                      for label, answer in [("probe", probe), ("right", right),
                                            ("wrong-amount", wrong), *sorted(choices.items())]}
            grade = drill.grade(question, right, context)
            refusals = []
            for bad in MALFORMED:
                try:
                    (drill.read_answer(question, bad, context) if typed
                     else drill.validate_answer(question, bad, context))
                    refusals.append(None)
                except ValueError as error:
                    refusals.append(str(error))
            records.append({
                "question": json.dumps(shown),
                "rule": drill.rule_of(question, context),
                "key": json.dumps(key_json),
                "choices": {label: json.dumps(drill.answer_json(a) if typed else a)
                            for label, a in sorted(choices.items())},
                "grades": json.dumps(graded),
                "feedback": json.dumps({
                    "probe": drill.feedback(question, probe, context).as_dict(),
                    "right": drill.feedback(question, right, context, grade).as_dict(),
                    "none": drill.feedback(question, None, context, timed_out=True).as_dict(),
                    "wrong-timed-out": drill.feedback(question, wrong, context,
                                                      timed_out=True).as_dict()}),
                "hint": str(drill.hint(grade.rule_id, question, context)),
                "parts": drill.part_results(wrong_json, key_json, False),
                "refusals": refusals,
            })
        out[name] = records
    return out


if __name__ == "__main__":
    with open(sys.argv[1], "w", encoding="utf-8") as handle:
        json.dump(dump(int(sys.argv[2]) if len(sys.argv) > 2 else 300), handle, indent=0)
