"""The ``bonus`` drill: name a bonus hand, answer the dealer's cue, and pay the bonus bet.

Seven cards are shown, either as dealt or as the player set them (the setting does
not matter: a bonus is judged on all seven cards, docs/rules.md §12 "Side bets"). The
trainee answers three parts, each graded with the pay line's rule id:

1. ``qualifies``: the dealer's cue "does this qualify?": does the hand make a
   category that pays Envy to the other bonus bets at the table (four of a kind
   or better on the common Envy table);
2. ``category``: the bonus category, one of the twelve in pay order;
3. ``paid_cents``: what the bonus bet shown is paid, in cents (the win: on a "to 1"
   table the bet itself stays; the progressive is paid "for 1", its $1 collected
   when the cards were dealt and not returned; a losing bonus bet is paid nothing).
   A question records a "for 1" payment (``question_payment``), so one dealt under
   the side-bet rules before it (the progressive paid "to 1") replays as it was.

The pay table is the group's profile's first bonus or progressive table; a
profile with none (nevada, california, no-commission, ez) drills the standard
Fortune table and the question says so. Questions are drawn by category
(``generate``), so no constant answer beats chance.
"""
from __future__ import annotations

import random
from typing import Any

from ....messages import N_
from ....side_bets import PAY_ORDER, BonusCategory
from ....side_bets.paytables import RULE_FAMILY
from ...base import Drill, register
from ...context import DrillContext, Grade
from ...explain import Feedback, Text
from ...skills import Skill
from . import generate as dealing
from . import grade as grading
from . import words
from .key import answer_naming, choices, reckon
from .questions import BonusAnswer, BonusQuestion

SLUG = "bonus"


@register
class BonusDrill(Drill):
    """Name the bonus hand of seven cards, say whether it qualifies, and pay the bonus bet."""

    slug = SLUG
    title = N_("Pay the bonus")
    blurb = N_("Name the bonus hand of seven cards, answer \"does this qualify?\" and pay the "
               "bonus bet by the pay table.")
    order = 70
    default_time_limit_s = 20
    # The pay lines' rule family (``bonus.<table>.<line>``); the deal ignores "my mistakes".
    families = {RULE_FAMILY: 1}
    # Twelve categories; a constant answer names one of them (the cue's yes or no
    # and the amount follow from it): the categories are drawn so none is right
    # more than one time in ten, and the cue is yes half the time.
    chance_level = 1 / len(PAY_ORDER)
    question_type = BonusQuestion
    answer_type = BonusAnswer
    # The key is the right answer itself.
    key_type = BonusAnswer
    skills = words.all_skills()
    # Not certified until a group sets a criterion.
    criterion = None

    def skills_of(self, context: DrillContext) -> tuple[Skill, ...]:
        """Return the lines of the group's bonus table and of the Envy table its cue asks of."""
        return words.skills_of(context)

    # --- the deal --------------------------------------------------------------

    def generate(self, rng: random.Random, context: DrillContext) -> BonusQuestion:
        """Pick qualifying or not (evenly), then a category (evenly), then deal seven cards of it."""
        return dealing.generate(rng, context)

    def generate_v1(self, rng: random.Random, context: DrillContext) -> BonusQuestion:
        """Deal as generator 2 does: the drill came after generator 2's balanced draws, so a
        context stored without a generator deals the same questions."""
        return dealing.generate(rng, context)

    def deal_for(self, rng: random.Random, context: DrillContext,
                 skill: str) -> BonusQuestion | None:
        """Deal a question graded by the pay line ``skill`` (``generate.deal_for``), or None
        when the group's tables have no such line."""
        return dealing.deal_for(rng, context, skill)

    # --- the key ---------------------------------------------------------------

    def answer_choices(self, question: BonusQuestion, context: DrillContext
                       ) -> dict[str, BonusAnswer]:
        """Return, per category, the answer that names it (its cue and its pay for this bet)."""
        return choices(question)

    def rule_of(self, question: BonusQuestion, context: DrillContext) -> str:
        """Return the pay line's rule id (the table's losing rule for a hand that pays nothing)."""
        return reckon(question).rule_id

    def probe(self, question: BonusQuestion) -> BonusAnswer:
        """Answer "nothing, does not qualify, pays nothing"."""
        return BonusAnswer(qualifies=False, category=BonusCategory.NOTHING.slug, paid_cents=0)

    def wrong_answer(self, question: BonusQuestion, context: DrillContext,
                     rng: random.Random) -> BonusAnswer:
        """Return one of a dealer's mistakes, drawn by ``rng``: the cue turned round, the hand
        named one category off (with that category's cue and pay), or a bet too much paid."""
        key = reckon(question).answer
        mistake = rng.choice(("cue", "category", "amount"))
        if mistake == "cue":
            return BonusAnswer(qualifies=not key.qualifies, category=key.category,
                               paid_cents=key.paid_cents)
        if mistake == "category":
            at = [c.slug for c in PAY_ORDER].index(key.category)
            near = [PAY_ORDER[i] for i in (at - 1, at + 1) if 0 <= i < len(PAY_ORDER)]
            return answer_naming(question, rng.choice(near))
        return BonusAnswer(qualifies=key.qualifies, category=key.category,
                           paid_cents=key.paid_cents + question.bet_cents)

    def part_results(self, answer: Any, correct_answer: Any, timed_out: bool) -> list[bool]:
        """Return the three parts of a recorded attempt: the cue, the category, the amount."""
        return grading.part_results(answer, correct_answer, timed_out)

    # --- grading ---------------------------------------------------------------

    def grade(self, question: BonusQuestion, answer: BonusAnswer, context: DrillContext) -> Grade:
        """Grade the cue, the category and the amount, each with its pay line's rule id.

        ValueError when the answer does not fit its schema (built in code, not read).
        """
        self.validate_answer(question, self.answer_json(answer), context)
        return grading.grade(question, answer, context)

    def feedback(self, question: BonusQuestion, answer: BonusAnswer | None,
                 context: DrillContext, grade: Grade | None = None,
                 timed_out: bool = False) -> Feedback:
        """Say what was answered and what was right, part by part, and the pay line's sentence."""
        grade = grade or self.grade(question, answer or self.probe(question), context)
        return words.feedback(question, answer, grade, timed_out)

    def hint(self, rule_id: str, question: BonusQuestion | None = None,
             context: DrillContext | None = None) -> Text:
        """Return every pay line's hint (its skill's): look at the cards the line turns on."""
        return words.HINT
