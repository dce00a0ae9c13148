"""Grading the bonus drill: the cue, the category and the amount, each with its pay line's rule.

The cue is graded with the Envy line's rule id (the Envy table's "nothing" when the hand
does not qualify), the category and the amount with the bonus table's line (its
"nothing" for a hand it does not pay). The grade's rule is the first wrong part's, else
the pay line's.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ....cards import parse_cards
from ....messages import N_, Joined, Lowered, Message, Money
from ....setting import is_foul
from ....side_bets import PAY_ORDER
from ...context import DrillContext, Grade
from .key import reckon
from .questions import BonusAnswer, BonusPart, BonusQuestion
from .words import QUALIFIES_WORDS, category_name, cue_sentence, dollars, pay_sentence


def grade(question: BonusQuestion, given: BonusAnswer, context: DrillContext) -> Grade:
    """Grade the cue, the category and the amount, each with its pay line's rule id."""
    worked = reckon(question)
    table, key = worked.table, worked.answer
    names = {c.slug: category_name(table, c) for c in PAY_ORDER}
    words = {"qualifies": Message(QUALIFIES_WORDS[given.qualifies]),
             "category": Message(names[given.category]),
             "paid": Money(given.paid_cents, grouped=True)}
    parts = (
        BonusPart(part="qualifies", correct=given.qualifies == key.qualifies,
                  rule_id=worked.envy_rule_id, chance=1 / 2,
                  given=QUALIFIES_WORDS[given.qualifies], right=QUALIFIES_WORDS[key.qualifies]),
        BonusPart(part="category", correct=given.category == key.category,
                  rule_id=worked.rule_id, chance=1 / len(PAY_ORDER),
                  given=names[given.category], right=names[key.category]),
        # The amount is free-form (the balance rule scores the fixed parts only).
        BonusPart(part="paid", correct=given.paid_cents == key.paid_cents,
                  rule_id=worked.rule_id, chance=None,
                  given=dollars(given.paid_cents), right=dollars(key.paid_cents)),
    )
    wrong = [p for p in parts if not p.correct]
    # The hand in words: the web says it in the reader's language (categories.py, ``said``).
    text: list[Any] = [Message(N_("The seven cards make %(hand)s: %(name)s."),
                               hand=Lowered(worked.hand.said), name=Message(names[key.category]))]
    if question.back is not None and question.front is not None:
        fouled = is_foul(parse_cards(question.back, 5), parse_cards(question.front, 2),
                         context.table.wheel)
        text.append(Message(N_("The bonus is judged on all seven cards, whatever the "
                               "setting (this one is fouled).") if fouled
                            else N_("The bonus is judged on all seven cards, whatever the "
                                    "setting.")))
    text.append(pay_sentence(table, worked.line, question.bet_cents, question.meter_cents))
    text.append(cue_sentence(worked, question.offer()))
    if not question.offered:
        text.append(Message(N_("This group's table offers no bonus bet, so the drill uses "
                               "the %(table)s."), table=Message(table.title)))
    if wrong:
        text.insert(0, Message(N_("You answered %(answers)s."),
                               answers=Joined((words[p.part] for p in wrong), "; ")))
    return Grade(correct=not wrong, rule_id=wrong[0].rule_id if wrong else worked.rule_id,
                 correct_answer=key, explanation=Joined(text), parts=parts)


def part_results(answer: Any, correct_answer: Any, timed_out: bool) -> list[bool]:
    """Return the three parts of a recorded attempt (its stored JSON): the cue, the category,
    the amount; a part the key lacks, or any part of a timed-out attempt, is wrong."""
    key = correct_answer if isinstance(correct_answer, Mapping) else {}
    said = answer if isinstance(answer, Mapping) and not timed_out else {}
    return [name in key and said.get(name) == key.get(name)
            for name in ("qualifies", "category", "paid_cents")]
