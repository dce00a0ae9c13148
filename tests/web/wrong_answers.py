"""Wrong answers for every drill kind and the words their feedback must then name.

The answers are the kinds' own (each home's ``wrong_answer``), so a new kind needs nothing
here to be answered wrong; the words are worked out here by the answer's shape.

Shared by the test-client feedback tests (tests/web/test_feedback_words.py) and the
browser test that answers every kind wrong in the page (tests/e2e/test_wrong_answers_browser.py).
The expected words are worked out here from the question and its key, never taken
from the feedback code.
"""
from __future__ import annotations

import html as html_lib
import json
import random
import re
from collections.abc import Callable
from typing import Any

from trainer.engine.drills import DrillContext, get_drill

SUITS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
# Visible text that is JSON: an object opened, or a quoted key.
JSON_TEXT = re.compile(r'\{"|\{\'|"\w+"\s*:')


def dollars(cents: int) -> str:
    """An amount as the feedback writes it, worked out here on its own: $1,234.50."""
    return f"${cents // 100:,}.{cents % 100:02d}"


def words(card: str) -> str:
    """A card as the feedback writes it, worked out here on its own."""
    return "joker" if card == "JK" else ("10" if card[0] == "T" else card[0]) + SUITS[card[1]]


def visible(page: str) -> str:
    """Return a page's visible text: no tags (so no attributes), no scripts or styles."""
    body = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", page)
    return html_lib.unescape(re.sub(r"(?s)<[^>]+>", " ", body))


def no_json_and_no_rule_id(page: str, rule_ids: list[str]) -> None:
    text = visible(page)
    assert not JSON_TEXT.search(text), text
    assert "null" not in text.split()
    for rule_id in rule_ids:
        assert rule_id not in text, f"raw rule id {rule_id!r} in the visible text"
    # The ids may appear in title= tooltips, links and data attributes, and as the value
    # of a hidden form field ("Practise this rule" posts the rule: issue 30), never shown.
    for rule_id in rule_ids:
        for match in re.finditer(re.escape(rule_id), page):
            before = page[max(0, match.start() - 200):match.start()]
            assert re.search(r'((title|href|data-[\w-]+)="[^"]*'
                             r'|<input type="hidden"[^>]*\bvalue="[^"]*)$', before), \
                page[match.start() - 80:match.end() + 20]


def own_wrong_answer(kind: str, question: dict[str, Any], context: DrillContext) -> dict[str, Any]:
    """Return the JSON of the kind's own wrong answer (``Drill.wrong_answer``) to a stored
    question, drawn from the question's seed."""
    drill = get_drill(kind)
    typed = drill.read_question({k: v for k, v in question.items() if k != "context"})
    answer: dict[str, Any] = drill.answer_json(
        drill.wrong_answer(typed, context, random.Random(question.get("seed", 0))))
    return answer


def wrong_answer(kind: str, question: dict[str, Any], key: dict[str, Any],
                 context: DrillContext) -> tuple[dict[str, Any], list[str]]:
    """Return a wrong answer to ``question`` (its JSON, as the row stores it) and the words
    the feedback must then name.

    The answer is the kind's own (``Drill.wrong_answer``, every kind's home declares one),
    drawn from a generator seeded by the question, as the browser sends it. The expected
    words are worked out here from the answer and the key (``expected_words``, by the
    answer's shape), never taken from the feedback code.
    """
    drill = get_drill(kind)
    rng = random.Random(f"{kind}:{json.dumps(question, sort_keys=True)}")
    typed = drill.read_question(question)
    answer: dict[str, Any] = drill.answer_json(drill.wrong_answer(typed, context, rng))
    assert not drill.grade(typed, drill.read_answer(typed, answer, context), context).correct, \
        (kind, answer)
    return answer, expected_words(answer, key, context)


def expected_words(answer: dict[str, Any], key: dict[str, Any], context: DrillContext) -> list[str]:
    """Return what the feedback on ``answer`` must say, worked out here from the answer and
    the key: each answer shape the drill kinds take (a round's steps take the action's, the
    banker's and their own). An answer of a shape not known here: [] (a new kind adds its
    shape, tests/e2e/test_wrong_answers_browser.py asks for it)."""
    for fits, words in SHAPES:
        if fits(answer):
            return words(answer, key, context)
    return []


def _seat(answer: dict[str, Any], key: dict[str, Any], _context: DrillContext) -> list[str]:
    return [f"You picked seat {answer['seat']}", f"seat {key['seat']}"]


def _front(answer: dict[str, Any], key: dict[str, Any], _context: DrillContext) -> list[str]:
    front = answer["front"]
    right = " ".join(words(c) for c in key["front"])
    said = " ".join(words(c) for c in front)
    # A pair in front is named as a hand ("You put a pair of 9s in front"); other cards as cards.
    return [f"the house way puts {right} in front",
            "You " if front[0][0] == front[1][0] else f"{said} in front"]


def _settle_in_order(answer: dict[str, Any], key: dict[str, Any],
                     _context: DrillContext) -> list[str]:
    def taken(order: list[dict[str, Any]], seat: int) -> bool:
        return any(e["seat"] == seat and e["action"] == "take" for e in order)

    seats = sorted({e["seat"] for e in (*answer["order"], *key["order"])})
    seat = next(s for s in seats if taken(answer["order"], s) != taken(key["order"], s))
    # A seat the key takes and the answer leaves is marked a push; one it takes, lost.
    said = "push" if taken(key["order"], seat) else "lose"
    return [f"You marked seat {seat} {said}", f"Wrong: seat {seat}"]


def _category_words(category: str) -> str:
    return "high card (pai gow)" if category == "high_card" else category.replace("_", " ")


def _reading(answer: dict[str, Any], key: dict[str, Any], _context: DrillContext) -> list[str]:
    if "category" in answer:
        return [f"You named it {_category_words(answer['category'])}",
                f"it is {_category_words(key['category'])}"]
    names = {"a": "hand A wins", "b": "hand B wins", "copy": "it is a copy"}
    return [f"You said {names[answer['winner']]}", names[key["winner"]]]


def _foul(answer: dict[str, Any], key: dict[str, Any], _context: DrillContext) -> list[str]:
    said = "fouled" if answer["fouled"] else "legal"
    return [f"You called it {said}", "it is fouled" if key["fouled"] else "it is legal"]


def _table(answer: dict[str, Any], key: dict[str, Any], _context: DrillContext) -> list[str]:
    at = next(i for i, (given, right) in enumerate(zip(answer["positions"], key["positions"],
                                                       strict=True))
              if (given["outcome"], given.get("paid_cents")) != (right["outcome"], right["paid_cents"]))
    given, right = answer["positions"][at], key["positions"][at]
    seat = right["seat"]
    if given["outcome"] == right["outcome"]:  # a winner paid the wrong amount
        return [f"You paid seat {seat} {dollars(given['paid_cents'])}", dollars(right["paid_cents"])]
    wrong = given["outcome"]
    return [f"You marked seat {seat} {wrong}", f"{right['outcome']}, not {wrong}",
            f"Wrong: seat {seat}"]


def _bonus(answer: dict[str, Any], key: dict[str, Any], _context: DrillContext) -> list[str]:
    # "You answered <cue>, <hand>, <amount>; it <cue>, <hand>, <amount>." (the hand in the
    # pay table's own words, so only the cue and the amounts are worked out here).
    def cue(value: bool) -> str:
        return "qualifies" if value else "does not qualify"

    return [f"You answered {cue(answer['qualifies'])}, ",
            f", {dollars(answer['paid_cents'])}; it {cue(key['qualifies'])}, ",
            f", {dollars(key['paid_cents'])}."]


# Each answer shape (its keys) and the words its feedback names.
SHAPES: tuple[tuple[Callable[[dict[str, Any]], bool],
                    Callable[[dict[str, Any], dict[str, Any], DrillContext], list[str]]], ...] = (
    (lambda a: set(a) == {"seat"}, _seat),
    (lambda a: set(a) == {"front"}, _front),
    (lambda a: "order" in a, _settle_in_order),
    (lambda a: "positions" in a, _table),
    (lambda a: {"qualifies", "paid_cents"} <= set(a), _bonus),
    (lambda a: set(a) in ({"category"}, {"winner"}), _reading),
    (lambda a: "fouled" in a, _foul),
)
