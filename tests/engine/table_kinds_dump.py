"""What the action, settlement and round drills store and say, dumped as JSON lines.

Run as a script with the commit before issue 28 first on the path (``PYTHONPATH=<checkout>
python table_kinds_dump.py OUT``), it writes, for seeds 1..300 under each of ``CONTEXTS``,
one line per question (each of a round's three steps): the question's JSON and its text
(the keys in the order a stored row holds them), its rule, and for each answer it is
graded with (the probe, every fixed answer, the right answer made from the key) the
answer as stored and its text, the key's text, the grade's JSON and the feedback's;
then the feedback on no answer and the hint. It uses only the dict API those drills had.
``typed_lines`` writes the same lines from today's typed kinds through their JSON edge
(``question_json``, ``read_answer``, ``answer_json``, ``key_json``);
``test_table_kinds_json_unchanged.py`` compares the two.
"""
from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

SEEDS = range(1, 301)
KINDS = ("action", "settlement", "round")
# Contexts in their stored JSON form (``DrillContext.from_dict``), named: both generators,
# every kind of table (commission, fee, no commission, each side bet, the progressive
# under both side-bet rules), the house-way foul policy, "my mistakes".
CONTEXTS: dict[str, dict[str, Any]] = {
    "default": {"generator": 2},
    "no-commission": {"profile": "no-commission", "generator": 2},
    "fee": {"profile": "california", "house_way": "golden-nugget", "generator": 2},
    "fortune-envy": {"profile": "nevada-fortune", "generator": 2},
    "emperors": {"profile": "nevada-emperors", "generator": 2},
    "progressive": {"profile": "nevada-progressive", "generator": 2},
    "progressive-rules-1": {"profile": "nevada-progressive", "generator": 2,
                            "side_bet_rules": 1},
    "queens-dragon": {"profile": "ez", "generator": 2},
    "house-way-fouls": {"house_way": "mgm-grand", "foul_policy": "house_way",
                        "profile": "no-commission", "generator": 2},
    "focus": {"generator": 2, "focus_rules": [
        "action.player-banker", "settlement.copy-push", "settlement.foul",
        "round.banker.two-pair", "round.settle.order", "round.settle.banker-commission"]},
    "first-generator": {},
    "first-generator-no-commission": {"profile": "no-commission", "house_way": "foxwoods"},
}


def right_answer(question: dict[str, Any], key: dict[str, Any]) -> dict[str, Any]:
    """Return the right answer to a question (its JSON) from its answer key's JSON."""
    if "seat" in key:
        return {"seat": key["seat"]}
    if "front" in key:
        return {"front": key["front"]}
    if "positions" in key:
        return {"positions": [{k: v for k, v in p.items() if k != "seat" and v is not None}
                              for p in key["positions"]]}
    answer: dict[str, Any] = {"order": key["order"]}
    if "banker_commission_cents" in key:
        answer["banker_commission_cents"] = key["banker_commission_cents"]
    if "side" in key:
        answer["side"] = key["side"]
    return answer


def graded_record(answer: Any, grade: dict[str, Any], feedback: dict[str, Any]) -> dict[str, Any]:
    """One answer as graded: the answer as stored and its text (the keys in the order a row
    holds them), the key's text (the grade's ``correct_answer``), the grade's JSON and the
    feedback's. Shared with ``hand_kinds_base.py`` and its test."""
    return {"answer": answer, "answer_text": json.dumps(answer),
            "key_text": json.dumps(grade["correct_answer"]), "grade": grade, "feedback": feedback}


def typed_graded(drill: Any, question: Any, answer: Any, context: Any) -> dict[str, Any]:
    """``graded_record`` of an answer graded by today's typed kind through its JSON edge: the
    answer stored and read back as a stored one is, the key in its JSON."""
    read = drill.read_answer(question, drill.answer_json(answer), context)
    grade = drill.grade(question, read, context)
    return graded_record(drill.answer_json(read),
                         {**grade.as_dict(), "correct_answer": drill.key_json(grade.correct_answer)},
                         drill.feedback(question, read, context, grade).as_dict())


def question_record(drill: Any, question: Any, shown: Any, rule: str, graded: list[dict[str, Any]],
                    context: Any) -> dict[str, Any]:
    """One question's record: its JSON (``shown``) and its text, its rule, its graded answers,
    the feedback on no answer (timed out) and the hint. Shared as ``graded_record`` is."""
    return {"question": shown, "question_text": json.dumps(shown), "rule": rule, "graded": graded,
            "timed_out": drill.feedback(question, None, context, timed_out=True).as_dict(),
            "hint": str(drill.hint(rule, question, context))}


def _questions(kind: str, drill: Any, dealt: Any, context: Any) -> Iterator[tuple[int | None, Any]]:
    if not drill.steps:
        yield None, dealt
        return
    for step in range(len(drill.steps)):
        yield step, drill.at_step(dealt, step, context)


def dict_lines() -> Iterator[dict[str, Any]]:
    """Yield the lines with the dict drills of the commit before issue 28."""
    from trainer.engine.drills import get_drill, new_question
    from trainer.engine.drills.base import DrillContext

    for name, data in CONTEXTS.items():
        context = DrillContext.from_dict(data)
        for kind in KINDS:
            drill = get_drill(kind)
            for seed in SEEDS:
                for step, q in _questions(kind, drill, new_question(kind, seed, context), context):
                    rule = drill.rule_of(q, context)
                    probe = drill.probe(q)
                    key = json.loads(json.dumps(drill.grade(q, probe, context).correct_answer))
                    answers = [probe, *(drill.answer_choices(q, context) or {}).values(),
                               right_answer(q, key)]
                    graded = []
                    for answer in answers:
                        grade = drill.grade(q, answer, context)
                        graded.append(graded_record(drill.validate_answer(q, answer, context),
                                                    grade.as_dict(),
                                                    drill.feedback(q, answer, context, grade).as_dict()))
                    yield {"context": name, "kind": kind, "seed": seed, "step": step,
                           **question_record(drill, q, q, rule, graded, context)}


def typed_lines(contexts: dict[str, dict[str, Any]] | None = None) -> Iterator[dict[str, Any]]:
    """Yield the lines with today's typed kinds, through their JSON edge."""
    from trainer.engine.drills import DrillContext, get_drill, new_question

    for name, data in (contexts or CONTEXTS).items():
        context = DrillContext.from_dict(data)
        for kind in KINDS:
            drill = get_drill(kind)
            for seed in SEEDS:
                for step, q in _questions(kind, drill, new_question(kind, seed, context), context):
                    shown = drill.question_json(q)
                    assert drill.read_question(shown) == q
                    rule = drill.rule_of(q, context)
                    probe = drill.probe(q)
                    key = drill.key_json(drill.grade(q, probe, context).correct_answer)
                    answers = [probe, *(drill.answer_choices(q, context) or {}).values(),
                               drill.read_answer(q, right_answer(shown, key), context)]
                    graded = [typed_graded(drill, q, answer, context) for answer in answers]
                    yield {"context": name, "kind": kind, "seed": seed, "step": step,
                           **question_record(drill, q, shown, rule, graded, context)}


def line_text(line: dict[str, Any]) -> str:
    """Return one line as the file holds it (canonical JSON)."""
    return json.dumps(line, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


if __name__ == "__main__":
    with open(sys.argv[1], "w", encoding="utf-8") as handle:
        for each in dict_lines():
            handle.write(line_text(each) + "\n")
