"""The ``settlement`` drill: settle a whole table against the banker."""
from __future__ import annotations

import random
from typing import Any

from ....settlement import Result, payout_cents
from ...base import Drill, register
from ...context import DrillContext, Grade
from ...explain import Feedback, parts_feedback
from ...side_bet_parts import side_feedback_parts
from . import deal, legacy
from .grade import answer_of, grade_table, no_side, position_results, table_rule
from .questions import PositionAnswer, SettlementAnswer, SettlementKey, SettlementQuestion
from .side import side_parts_json
from .words import BLURB, CRITERION, SKILLS, TITLE, queen_high, seat_part, seat_parts

SLUG = "settlement"


@register
class SettlementDrill(Drill):
    """Mark each position win, push or lose, and pay winners net of commission."""

    slug = SLUG
    title = TITLE
    blurb = BLURB
    order = 20
    default_time_limit_s = 30
    families = {SLUG: 1}
    # The answer holds amounts (free-form); each seat's outcome alone is one of three.
    chance_level = None
    # Certification counts this drill by settled positions (``part_results``), not tables.
    counts_parts = True
    position_chance_level = 1 / len(deal.OUTCOMES)
    question_type = SettlementQuestion
    answer_type = SettlementAnswer
    key_type = SettlementKey
    legacy = legacy
    skills = SKILLS
    criterion = CRITERION

    def answer_choices(self, question: SettlementQuestion, context: DrillContext
                       ) -> dict[str, SettlementAnswer]:
        """Return one outcome for every seat (a winner paid the right amount), per outcome.

        The settlement is graded seat by seat (``Grade.parts``): each seat's
        outcome is one of three, so a constant outcome settles a third of the seats.
        """
        return {outcome.value: SettlementAnswer(positions=tuple(
            PositionAnswer(outcome=outcome,
                           paid_cents=payout_cents(p.bet_cents, context.table)
                           if outcome is Result.WIN else None,
                           **no_side(question, p.bonus_cents))
            for p in question.positions)) for outcome in Result}

    def generate(self, rng: random.Random, context: DrillContext) -> SettlementQuestion:
        """Pick each seat's outcome first (evenly), then deal a banker and hands that settle so."""
        return deal.generate(rng, context)


    def deal_for(self, rng: random.Random, context: DrillContext, skill: str
                 ) -> SettlementQuestion | None:
        """Deal a table whose hardest case is ``skill`` (``deal.deal_for``), or None."""
        return deal.deal_for(rng, context, skill)

    def rule_of(self, question: SettlementQuestion, context: DrillContext) -> str:
        """Return the hardest settlement rule the table shows."""
        return table_rule(question, context)

    def part_results(self, answer: Any, correct_answer: Any, timed_out: bool) -> list[bool]:
        """Return, per settled position of a recorded attempt (JSON), whether it was settled right."""
        return position_results(answer, correct_answer, timed_out)

    def probe(self, question: SettlementQuestion) -> SettlementAnswer:
        """Mark every position a loser."""
        return SettlementAnswer(positions=tuple(
            PositionAnswer(outcome=Result.LOSE, **no_side(question, p.bonus_cents))
            for p in question.positions))

    def wrong_answer(self, question: SettlementQuestion, context: DrillContext,
                     rng: random.Random) -> SettlementAnswer:
        """Settle every position right but one: a winner overpaid, another outcome marked."""
        key: SettlementKey = self.grade(question, self.probe(question), context).correct_answer
        answers = [answer_of(k) for k in key.positions]
        at = rng.randrange(len(answers))
        right = key.positions[at]
        if right.outcome is Result.WIN and right.paid_cents is not None:
            wrong = PositionAnswer(outcome=Result.WIN,
                                   paid_cents=right.paid_cents + rng.choice((100, 250, 500)),
                                   bonus_paid_cents=right.bonus_paid_cents,
                                   envy_paid_cents=right.envy_paid_cents)
        else:
            other = Result.LOSE if right.outcome is Result.PUSH else Result.PUSH
            wrong = PositionAnswer(outcome=other, bonus_paid_cents=right.bonus_paid_cents,
                                   envy_paid_cents=right.envy_paid_cents)
        answers[at] = wrong
        return SettlementAnswer(positions=tuple(answers))

    def grade(self, question: SettlementQuestion, answer: SettlementAnswer,
              context: DrillContext) -> Grade:
        """Grade each position's outcome and, for winners, the amount paid (the answer
        checked against the table first)."""
        return grade_table(question, self.read_answer(question, self.answer_json(answer), context),
                           context)

    def feedback(self, question: SettlementQuestion, answer: SettlementAnswer | None,
                 context: DrillContext, grade: Grade | None = None,
                 timed_out: bool = False) -> Feedback:
        """List every seat right or wrong, in words; the first wrong seat leads the sentence."""
        grade = grade or self.grade(question, answer or self.probe(question), context)
        seats = seat_parts(grade.parts)
        given = answer.positions if answer is not None else (None,) * len(seats)
        queen = queen_high(question.banker, context)
        parts = tuple(seat_part(part, ans.outcome if ans else None,
                                ans.paid_cents if ans else None, context, queen, timed_out)
                      for part, ans in zip(seats, given, strict=True))
        if question.side_bet is not None:
            parts += side_feedback_parts(side_parts_json(grade.parts),
                                         question.side_bet.as_dict(), answer is not None,
                                         timed_out)
        return parts_feedback(parts, answer is not None, grade.correct, grade.rule_id,
                              grade.explanation, timed_out)
