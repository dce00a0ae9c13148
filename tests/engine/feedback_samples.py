"""Answered questions of every drill kind, and their feedback written out in English.

Shared by ``test_feedback_messages.py`` (every sentence a marked ``Message``, the English
unchanged) and the fixture ``data/feedback-english.json``. The fixture was captured from
the code *before* the feedback became messages (issue 19, item 1): this module run with
the commit before the change (70d76c3) on the path, whose feedback wrote the same English
as the tree the change started from on every sample then taken. So the English it holds
was not computed by the code under test. ``.venv/bin/python tests/engine/feedback_samples.py``
rewrites it from the current code: only when a sentence is meant to change.

The samples: each drill kind under eight table settings (every preset profile, and a
house-way foul policy under another casino; a round also under "my mistakes" on the
player-banker's commission, so a player banks), two seeds each (a round three), each
step of a round, answered with no answer (timed out), the probe, three fixed answers,
the right answer and answers wrong in one place (an amount a cent off, a seat's outcome,
the order, the player-banker's commission, a side bet's pay, another front).
"""
from __future__ import annotations

import copy
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from trainer.engine.drills import DRILLS, DrillContext, new_question
from trainer.engine.drills.base import Drill
from trainer.engine.drills.explain import Feedback
from trainer.engine.house_way import load
from trainer.engine.profiles import FoulPolicy

FIXTURE = Path(__file__).resolve().parent / "data" / "feedback-english.json"
CONTEXTS = (DrillContext(), DrillContext(profile="california"),
            DrillContext(profile="no-commission"), DrillContext(profile="nevada-fortune"),
            DrillContext(profile="nevada-emperors"), DrillContext(profile="nevada-progressive"),
            DrillContext(profile="ez"),
            DrillContext(load("mgm-grand"), foul_policy=FoulPolicy.HOUSE_WAY))
# Rounds also under "my mistakes" on the player-banker's commission (a player banks).
ROUND_CONTEXTS = (*CONTEXTS, DrillContext(profile="ez",
                                          focus_rules=("round.settle.banker-commission",)))
SEEDS = range(2)
# A round has more seeds: a table of losers and winners comes up in them.
ROUND_SEEDS = range(3)


def _valid(drill: Drill, q: dict[str, Any], context: DrillContext, answer: Any) -> bool:
    try:
        drill.validate_answer(q, answer, context)
    except ValueError:
        return False
    return True


def _right(slug: str, q: dict[str, Any], key: dict[str, Any]) -> list[dict[str, Any]]:
    """Answers built from the key: the right one, then ones wrong in one place."""
    out: list[dict[str, Any]] = []
    if "positions" in key:  # settlement
        right = {"positions": [{k: v for k, v in p.items() if k != "seat" and v is not None}
                               for p in key["positions"]]}
        out.append(right)
        for i, p in enumerate(right["positions"]):
            if p["outcome"] == "win":
                wrong = copy.deepcopy(right)
                wrong["positions"][i]["paid_cents"] += 1
                out.append(wrong)
                break
        wrong = copy.deepcopy(right)
        first = wrong["positions"][0]
        first["outcome"] = "push" if first["outcome"] != "push" else "lose"
        first.pop("paid_cents", None)
        out.append(wrong)
        for i, p in enumerate(right["positions"]):
            for field in ("bonus_paid_cents", "envy_paid_cents"):
                if field in p:
                    wrong = copy.deepcopy(right)
                    wrong["positions"][i][field] += 100
                    out.append(wrong)
    elif "order" in key:  # a round's settle step
        right = {"order": [dict(e) for e in key["order"]]}
        if "banker_commission_cents" in key:
            right["banker_commission_cents"] = key["banker_commission_cents"]
        if "side" in key:
            right["side"] = [{k: v for k, v in e.items() if k.endswith("_cents") or k == "seat"}
                             for e in key["side"]]
        out.append(right)
        if len(right["order"]) > 1:
            out.append({**right, "order": list(reversed(right["order"]))})
        pays = [i for i, e in enumerate(right["order"]) if e["action"] == "pay"]
        if pays:
            wrong = copy.deepcopy(right)
            wrong["order"][pays[0]]["paid_cents"] += 1
            out.append(wrong)
        if "banker_commission_cents" in right:
            out.append({**right, "banker_commission_cents": right["banker_commission_cents"] + 5})
        if right.get("side"):
            wrong = copy.deepcopy(right)
            for field in ("bonus_paid_cents", "envy_paid_cents"):
                if field in wrong["side"][0]:
                    wrong["side"][0][field] += 100
            out.append(wrong)
    elif "seat" in key:  # the action
        out += [{"seat": key["seat"]}, {"seat": key["seat"] % 7 + 1}]
    elif "front" in key and "back" in key:  # a house-way setting
        out.append({"front": list(key["front"])})
        cards = q.get("cards") or q.get("banker_cards") or []
        rng = random.Random(len(cards) and cards[0])
        for _ in range(3):
            out.append({"front": rng.sample(list(cards), 2)})
    elif "fouled" in key:
        out += [{"fouled": True}, {"fouled": False}]
        if "reset" in key:
            out.append({"fouled": True, "front": list(key["reset"]["front"])})
        cards = list(q["back"]) + list(q["front"])
        out.append({"fouled": True, "front": cards[:2]})
    elif "category" in key or "winner" in key:  # hand reading
        out.append(dict(key))
    elif "paid_cents" in key:  # bonus
        right = dict(key)
        out += [right, {**right, "paid_cents": right["paid_cents"] + 100},
                {**right, "qualifies": not right["qualifies"]},
                {**right, "category": "nothing" if right["category"] != "nothing" else "pair"}]
    return out


def answers(drill: Drill, q: dict[str, Any], context: DrillContext) -> Iterator[Any]:
    """Yield None (no answer in time) and every valid answer of the list above, once each."""
    yield None
    # Built as JSON (a typed kind's answers and key through its edge), read back typed.
    key = drill.key_json(drill.grade(q, drill.probe(q), context).correct_answer)
    seen: list[Any] = []
    candidates = [drill.answer_json(a) for a in [
        drill.probe(q), *list((drill.answer_choices(q, context) or {}).values())[:3]]]
    candidates += _right(drill.slug, drill.question_json(q), key)
    for answer in candidates:
        if answer not in seen and _valid(drill, q, context, answer):
            seen.append(answer)
            yield answer if drill.answer_type is None else drill.read_answer(q, answer, context)


def questions() -> Iterator[tuple[str, Drill, dict[str, Any], DrillContext]]:
    """Yield (name, drill, question, context) for every sample question (each round step)."""
    for slug, drill in DRILLS.items():
        for c, context in enumerate(ROUND_CONTEXTS if slug == "round" else CONTEXTS):
            for seed in ROUND_SEEDS if slug == "round" else SEEDS:
                q = new_question(slug, seed, context)
                steps = [drill.at_step(q, i, context) for i in range(len(drill.steps))] \
                    if drill.steps else [q]
                for s, step in enumerate(steps):
                    yield f"{slug}/{c}/{seed}/{s}", drill, step, context


def samples() -> Iterator[tuple[str, Feedback]]:
    """Yield (name, feedback) for every sample answer."""
    for name, drill, q, context in questions():
        for a, answer in enumerate(answers(drill, q, context)):
            yield f"{name}/{a}", drill.feedback(q, answer, context, timed_out=answer is None)


def written(fb: Feedback) -> dict[str, Any]:
    """Return every sentence of a feedback as English text (what a page or the JSON shows),
    with the grade's explanation it carries (``detail``: "How it is worked out")."""
    return {**fb.as_dict(), "detail": str(fb.detail),
            "parts": [{**p.as_dict(), "you": str(p.you), "fix": str(p.fix)} for p in fb.parts]}


def capture() -> dict[str, Any]:
    """Return every sample's feedback in English, by name."""
    return {name: written(fb) for name, fb in samples()}


if __name__ == "__main__":
    FIXTURE.parent.mkdir(exist_ok=True)
    found = capture()
    lines = [json.dumps(name) + ": " + json.dumps(found[name], ensure_ascii=False, sort_keys=True,
                                                  separators=(",", ":"))
             for name in sorted(found)]
    FIXTURE.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
    print(f"{len(found)} feedbacks written to {FIXTURE}", file=sys.stderr)
