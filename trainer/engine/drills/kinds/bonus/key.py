"""The bonus drill's answer key, worked out from the question: the hand, its pay line, the cue.

A bonus is judged on all seven cards, whatever the setting (docs/rules.md §12): the
hand's category decides the pay line of the question's table (its losing rule when the
table pays nothing for it) and whether it qualifies for Envy (a line of the Envy table).
"""
from __future__ import annotations

from dataclasses import dataclass

from ....side_bets import PAY_ORDER, BonusCategory, BonusHand, PayLine, PayTable, bonus_hand
from .questions import BonusAnswer, BonusQuestion, envy_table


@dataclass(frozen=True, slots=True)
class Reckoning:
    """Everything grading and the feedback need of a question: the hand and its lines."""

    hand: BonusHand
    table: PayTable
    envy: PayTable
    line: PayLine | None
    envy_line: PayLine | None
    answer: BonusAnswer

    @property
    def rule_id(self) -> str:
        """Return the pay line's rule id (the table's losing rule for a hand that pays nothing)."""
        return self.line.rule_id if self.line is not None else self.table.losing_rule_id

    @property
    def envy_rule_id(self) -> str:
        """Return the Envy line's rule id (the Envy table's losing rule when it does not qualify)."""
        return self.envy_line.rule_id if self.envy_line is not None else self.envy.losing_rule_id


def reckon(question: BonusQuestion) -> Reckoning:
    """Work out the answer: the hand, its pay line, the cue and the amount paid."""
    table = question.pay_table()
    envy = envy_table(question.offer())
    hand = bonus_hand(question.seven(), table.match)
    line = table.line_for(hand.category)
    envy_line = envy.line_for(hand.category)
    paid = line.win_cents(question.bet_cents, question.meter_cents) if line is not None else 0
    return Reckoning(hand, table, envy, line, envy_line,
                     BonusAnswer(qualifies=envy_line is not None, category=hand.category.slug,
                                 paid_cents=paid))


def answer_naming(question: BonusQuestion, category: BonusCategory) -> BonusAnswer:
    """Return the answer that names ``category``: its cue and what it pays on this bet."""
    line = question.pay_table().line_for(category)
    return BonusAnswer(
        qualifies=envy_table(question.offer()).line_for(category) is not None,
        category=category.slug,
        paid_cents=line.win_cents(question.bet_cents, question.meter_cents) if line else 0)


def choices(question: BonusQuestion) -> dict[str, BonusAnswer]:
    """Return, per category, the answer that names it (its cue and its pay for this bet)."""
    return {category.slug: answer_naming(question, category) for category in PAY_ORDER}
