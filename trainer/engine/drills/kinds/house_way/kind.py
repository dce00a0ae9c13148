"""The ``house-way`` drill: set the banker's seven cards by the house way."""
from __future__ import annotations

import random
from itertools import combinations

from ....cards import card_list, parse_cards
from ....house_way import HouseWaySetting
from ....house_way.dealing import UnknownRule, UnreachableRule, deal_for_rule
from ....messages import N_
from ....setting import is_foul, same_value
from ...base import Drill, register
from ...context import DrillContext, Grade
from ...dealing import HOUSE_WAY_FAMILIES, deal_family
from ...explain import Feedback, Text
from ...skills import DefaultCriterion, Skill
from . import legacy
from .questions import SetAnswer, SetKey, SetQuestion
from .words import hint, set_hand_feedback, setting_explanation, skills_of

SLUG = "house-way"


@register
class HouseWayDrill(Drill):
    """Pick the two front cards of the banker's hand, as the house way sets it."""

    slug = SLUG
    title = N_("Set the banker's hand")
    blurb = N_("Pick the two front cards of the banker's seven, the house way.")
    order = 10
    default_time_limit_s = 30
    families = HOUSE_WAY_FAMILIES
    question_type = SetQuestion
    answer_type = SetAnswer
    key_type = SetKey
    legacy = legacy
    criterion = DefaultCriterion(min_accuracy=98.0, window=100, max_median_s=8.0,
                                 exam_length=50, exam_time_limit_s=10)

    def skills_of(self, context: DrillContext) -> tuple[Skill, ...]:
        """Return the rules of the context's house way, in the sheet's order."""
        return skills_of(context.way)

    def generate(self, rng: random.Random, context: DrillContext) -> SetQuestion:
        """Deal seven cards of a weighted rule family, shown in shuffled order."""
        family = self.pick_family(rng, context)
        cards = list(deal_family(rng, family, context.way, context.table.wheel))
        rng.shuffle(cards)
        return SetQuestion(cards=tuple(card_list(cards)))


    def deal_for(self, rng: random.Random, context: DrillContext, skill: str) -> SetQuestion | None:
        """Deal seven cards the context's house way sets by rule ``skill`` (a ``.fallback``
        id too), every such hand equally likely (``house_way.dealing``).

        None when no hand is set by that rule (shadowed by an earlier rule, or not a rule
        of this way): reported at once, never dealt for. A way without a class table
        raises ``ClassTableMissing`` (a published way always has one).
        """
        try:
            cards = deal_for_rule(context.way, skill, rng, context.table.wheel)
        except (UnreachableRule, UnknownRule):
            return None
        return SetQuestion(cards=tuple(card_list(cards)))

    def key(self, question: SetQuestion, context: DrillContext) -> HouseWaySetting:
        """Return the house way's setting of the question's cards."""
        return context.way.set(parse_cards(question.cards, 7), context.table.wheel)

    def rule_of(self, question: SetQuestion, context: DrillContext) -> str:
        """Return the house-way rule id that decides the hand."""
        return self.key(question, context).rule

    def probe(self, question: SetQuestion) -> SetAnswer:
        """Put the first two cards in front."""
        return SetAnswer(front=question.cards[:2])

    def wrong_answer(self, question: SetQuestion, context: DrillContext,
                     rng: random.Random) -> SetAnswer:
        """Return two front cards (drawn by ``rng``) that set the hand otherwise than the way."""
        key = self.key(question, context)
        wheel = context.table.wheel
        seven = parse_cards(question.cards, 7)
        fronts = list(combinations(seven, 2))
        rng.shuffle(fronts)
        for front in fronts:
            back = tuple(c for c in seven if c not in front)
            if not same_value(back, front, key.back, key.front, wheel):
                return SetAnswer(front=tuple(card_list(front)))
        raise RuntimeError("Every setting of these cards is the house way's.")  # pragma: no cover

    def grade(self, question: SetQuestion, answer: SetAnswer, context: DrillContext) -> Grade:
        """Right when the trainee's back and front have the house way's values."""
        # Checked by the answer's schema as it came in (an answer made in code too).
        front = self.validate_answer(question, self.answer_json(answer), context)["front"]
        wheel = context.table.wheel
        seven = parse_cards(question.cards, 7)
        front_cards = parse_cards(front, 2)
        back_cards = tuple(c for c in seven if c not in front_cards)
        key = self.key(question, context)
        correct = same_value(back_cards, front_cards, key.back, key.front, wheel)
        return Grade(
            correct=correct,
            rule_id=key.rule,
            correct_answer=SetKey.of(key),
            explanation=setting_explanation(
                key, not correct and is_foul(back_cards, front_cards, wheel)),
        )

    def hint(self, rule_id: str, question: SetQuestion | None = None,
             context: DrillContext | None = None) -> Text:
        """Return what the group's house way does with this hand: its deciding rule in words."""
        return hint(rule_id, context.way if context is not None else None)

    def feedback(self, question: SetQuestion, answer: SetAnswer | None,
                 context: DrillContext, grade: Grade | None = None,
                 timed_out: bool = False) -> Feedback:
        """Say how the trainee set the hand, how the house way sets it, and the sheet's rule."""
        grade = grade or self.grade(question, answer or self.probe(question), context)
        return set_hand_feedback(question.cards, answer, grade, context, timed_out)
