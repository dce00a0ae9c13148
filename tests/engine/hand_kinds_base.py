"""Dump what the drills of the commit before issue 28 store and say, as JSON, for comparison.

Run with that commit's ``trainer`` first on the path (``PYTHONPATH=<checkout> python
hand_kinds_base.py <out.json> <slug> ...``, or ``<out.json> --words '{"ids": [...], "ways":
[...]}'`` for the rules' words, ``words``): it uses only the dict API the drills had
then (``new_question`` returning a dict, ``Grade.as_dict``, ``Feedback.as_dict``), so it
runs unchanged on that commit. ``test_hand_kinds_json_unchanged.py`` runs it and compares
the typed drills' JSON with it, record by record, and the JSON text of each question,
answer and key (its keys in the order a stored row holds them). Shared with the test: ``CONTEXTS``
and ``SEEDS``.
"""
from __future__ import annotations

import json
import sys
from typing import Any

SEEDS = range(1, 301)
# Contexts as stored with a question (``DrillContext.as_dict``): generator 2 and the first
# generator (stored without one), presets, a fee table with the lowest wheel setting,
# the house-way foul policy and "my mistakes" focus rules.
FOCUS = ["foul.legal.same-pair", "foul.higher-cards-in-front", "reading.copy.two",
         "reading.straight.joker", "reading.compare.five", "two-pair.split.always",
         "three-pair.high-pair-front"]
CONTEXTS: dict[str, dict[str, Any]] = {
    "default": {"generator": 2},
    "first-generator": {},
    "foxwoods-house-way-fouls": {"house_way": "foxwoods", "foul_policy": "house_way",
                                 "generator": 2},
    "california-lowest-wheel": {"house_way": "golden-nugget", "profile": "california",
                                "generator": 2},
    "focus": {"generator": 2, "focus_rules": FOCUS},
    "first-generator-focus-house-way-fouls": {"house_way": "mgm-grand",
                                              "foul_policy": "house_way",
                                              "focus_rules": FOCUS},
}


def answers_of(drill: Any, question: dict[str, Any], context: Any) -> list[dict[str, Any]]:
    """The answers each question is graded with: the probe, every fixed answer, and for a
    hand to set the house way's own front (right) beside the probe's."""
    answers = [drill.probe(question)]
    answers += list((drill.answer_choices(question, context) or {}).values())
    key = drill.grade(question, drill.probe(question), context).correct_answer
    if "front" in key and "cards" in question:
        answers.append({"front": list(key["front"])})
    return answers


def dump(slugs: list[str]) -> dict[str, Any]:
    # Run as a script: this folder is first on the path.
    from table_kinds_dump import graded_record, question_record

    from trainer.engine.drills import DrillContext, get_drill, new_question

    out: dict[str, Any] = {}
    for slug in slugs:
        drill = get_drill(slug)
        for name, stored in CONTEXTS.items():
            context = DrillContext.from_dict(stored)
            records = []
            for seed in SEEDS:
                question = new_question(slug, seed, context)
                rule = drill.rule_of(question, context)
                graded = []
                for answer in answers_of(drill, question, context):
                    grade = drill.grade(question, answer, context)
                    graded.append(graded_record(drill.validate_answer(question, answer, context),
                                                grade.as_dict(),
                                                drill.feedback(question, answer, context, grade).as_dict()))
                # The text as a row holds it: the keys in the order they were written.
                records.append(question_record(drill, question, question, rule, graded, context))
            out[f"{slug} {name}"] = records
    return out


def words(ids: list[str], ways: list[str]) -> dict[str, Any]:
    """The words each rule had: the rule book's section and sentence and the practice hint
    (``explain``), and its name and short name as the pages said them (``web/words/names.py``,
    English); for each preset house way, each rule's name, short name and hint."""
    from trainer.engine.drills import explain
    from trainer.engine.house_way import load
    try:
        from trainer.web.words import names
    except ImportError:  # the tree before the web areas (issue 29): web/names.py
        from trainer.web import names  # type: ignore[no-redef,attr-defined]

    book = {}
    for rule_id in ids:
        found = explain.rule_book(rule_id)
        book[rule_id] = {"section": found[0] if found else None,
                         "sentence": str(found[1]) if found else None,
                         "hint": str(explain.hint(rule_id)),
                         "name": names.rule_name(rule_id), "short": names.rule_short(rule_id)}
    presets = {}
    for name in ways:
        way = load(name)
        presets[name] = {rule.id: {"name": names.rule_name(rule.id, name),
                                   "short": names.rule_short(rule.id, name),
                                   "hint": str(explain.hint(rule.id, way))} for rule in way.rules}
    return {"book": book, "ways": presets}


if __name__ == "__main__":
    with open(sys.argv[1], "w", encoding="utf-8") as handle:
        if sys.argv[2] == "--words":
            asked = json.loads(sys.argv[3])
            json.dump(words(asked["ids"], asked["ways"]), handle, sort_keys=True)
        else:
            json.dump(dump(sys.argv[2:]), handle, sort_keys=True)
