"""Wrong answers for every drill kind and the words their feedback must then name.

Shared by the test-client feedback tests (tests/web/test_feedback_words.py) and the
browser test that answers every kind wrong in the page (tests/e2e/test_wrong_answers_browser.py).
The expected words are worked out here from the question and its key, never taken
from the feedback code.
"""
from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest

from trainer.engine.cards import parse_cards
from trainer.engine.drills import DrillContext, get_drill
from trainer.engine.hands import rank2

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
    # The ids may appear in title= tooltips only.
    for rule_id in rule_ids:
        for match in re.finditer(re.escape(rule_id), page):
            before = page[max(0, match.start() - 200):match.start()]
            assert re.search(r'(title|href|data-[\w-]+)="[^"]*$', before), \
                page[match.start() - 80:match.end() + 20]


def wrong_answer(kind: str, question: dict[str, Any], key: dict[str, Any],
                 context: DrillContext) -> tuple[dict[str, Any], list[str]]:
    """Return a wrong answer of ``kind`` and the words the feedback must then name.

    The expected words are worked out here from the question and its key, not taken
    from the feedback code.
    """
    if kind == "action" or (kind == "round" and question.get("step") == "action"):
        wrong = key["seat"] % 7 + 1
        return {"seat": wrong}, [f"You picked seat {wrong}", f"seat {key['seat']}"]
    if kind == "house-way" or (kind == "round" and question.get("step") == "banker"):
        cards = question["cards"] if kind == "house-way" else question["banker_cards"]
        target = rank2(parse_cards(key["front"], 2))
        fronts = [[a, b] for i, a in enumerate(cards) for b in cards[i + 1:]
                  if rank2(parse_cards([a, b], 2)) != target]
        # Not a pair, if it can: the feedback then names the two cards ("You put 9♠ 4♦ in front").
        front = min(fronts, key=lambda f: f[0][0] == f[1][0])
        right = " ".join(words(c) for c in key["front"])
        said = " ".join(words(c) for c in front)
        return {"front": front}, [f"the house way puts {right} in front",
                                  "You " if front[0][0] == front[1][0] else f"{said} in front"]
    if kind == "round" and question.get("step") == "settle":
        seat = question["players"][0]["seat"]
        taken = any(e["seat"] == seat and e["action"] == "take" for e in key["order"])
        order = [e for e in key["order"] if e["seat"] != seat]
        if not taken:
            order = [{"seat": seat, "action": "take"}, *order]
        answer = {"order": order}
        if "banker_commission_cents" in key:
            answer["banker_commission_cents"] = key["banker_commission_cents"]
        said = "push" if taken else "lose"
        return answer, [f"You marked seat {seat} {said}", f"Wrong: seat {seat}"]
    if kind == "hand-reading":
        if "category" in key:
            wrong = "high_card" if key["category"] != "high_card" else "one_pair"
            said = "high card (pai gow)" if wrong == "high_card" else "one pair"
            right = ("high card (pai gow)" if key["category"] == "high_card"
                     else key["category"].replace("_", " "))
            return {"category": wrong}, [f"You named it {said}", f"it is {right}"]
        names = {"a": "hand A wins", "b": "hand B wins", "copy": "it is a copy"}
        wrong = "a" if key["winner"] != "a" else "b"
        return {"winner": wrong}, [f"You said {names[wrong]}", names[key["winner"]]]
    if kind == "foul-check":
        said = "fouled" if not key["fouled"] else "legal"
        answer: dict[str, Any] = {"fouled": not key["fouled"]}
        if answer["fouled"] and context.table.foul_policy.value == "house_way":
            answer["front"] = question["front"]
        right = "it is fouled" if key["fouled"] else "it is legal"
        return answer, [f"You called it {said}", right]
    if kind == "settlement":
        positions = [{"outcome": p["outcome"], "paid_cents": p["paid_cents"]}
                     for p in key["positions"]]
        first = key["positions"][0]
        if first["outcome"] == "win":
            positions[0] = {"outcome": "win", "paid_cents": first["paid_cents"] + 250}
            paid = first["paid_cents"] + 250
            return {"positions": positions}, [
                f"You paid seat {first['seat']} ${paid // 100}.{paid % 100:02d}",
                f"${first['paid_cents'] // 100}.{first['paid_cents'] % 100:02d}"]
        wrong = "lose" if first["outcome"] == "push" else "push"
        positions[0] = {"outcome": wrong}
        return {"positions": positions}, [f"You marked seat {first['seat']} {wrong}",
                                          f"{first['outcome']}, not {wrong}",
                                          f"Wrong: seat {first['seat']}"]
    if kind == "bonus":
        # The cue and the hand right, the amount a dollar too much.
        paid = key["paid_cents"] + 100
        cue = "qualifies" if key["qualifies"] else "does not qualify"
        answer = {"qualifies": key["qualifies"], "category": key["category"], "paid_cents": paid}
        return answer, ["You answered ", f", {dollars(paid)}; it {cue}, ",
                        f", {dollars(key['paid_cents'])}."]
    # A kind added later: any fixed answer that is wrong, or the drill's probe.
    drill = get_drill(kind)
    choices = drill.answer_choices(question, context) or {}
    for answer in [drill.probe(question), *choices.values()]:
        if not drill.grade(question, answer, context).correct:
            return answer, []
    pytest.skip(f"no wrong answer found for {kind}")


