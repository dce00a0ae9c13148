"""The ``hand-reading`` drill: name a hand, or say which of two hands wins."""
from __future__ import annotations

import random

from ....cards import card_list, parse_cards
from ....hands import Category, Outcome, compare, evaluate
from ....messages import N_, Joined, Message
from ...base import Drill, register
from ...context import DrillContext, Grade
from ...explain import NO_ANSWER, Feedback, Text, book_feedback
from . import legacy
from .deal import deal_category, deal_pair
from .questions import WINNERS, ReadingAnswer, ReadingKey, ReadingQuestion
from .words import (
    SKILLS,
    WINNER_WORDS,
    category_message,
    category_rule,
    compare_rule,
)

SLUG = "hand-reading"
CATEGORIES = tuple(Category)
# Naming families (the answer is one of the categories) and comparing ones (a, b or copy).
NAMING = ("category", "joker")
# Of all questions, naming ones: 7 in 12; comparing ones: 5 in 12.
NAMING_SHARE = 7 / 12
# Tries at dealing a hand with the joker that reads as the wanted category.
JOKER_TRIES = 20


@register
class HandReadingDrill(Drill):
    """Name a five-card hand's category, or say which of two hands wins."""

    slug = SLUG
    title = N_("Read the hand")
    blurb = N_("Name a five-card hand, or say which of two hands wins.")
    order = 40
    default_time_limit_s = 10
    families = {"category": 4, "joker": 3, "compare-five": 3, "compare-two": 2}
    # Its skills' rule family (``reading.*``) in the reports.
    family_names = {"reading": N_("Reading hands")}
    # A constant answer for each kind of question: 1 in 11 when naming, 1 in 3 when comparing.
    chance_level = NAMING_SHARE / len(CATEGORIES) + (1 - NAMING_SHARE) / len(WINNERS)
    question_type = ReadingQuestion
    answer_type = ReadingAnswer
    key_type = ReadingKey
    legacy = legacy
    skills = SKILLS

    def focus_family(self, rule_id: str) -> str:
        """Map a reading rule id back to the family that asks it (copies are comparisons)."""
        parts = rule_id.split(".")
        if parts[1:2] in (["copy"], ["compare"]):
            return "compare-two" if parts[-1] == "two" else "compare-five"
        return "joker" if parts[-1] == "joker" else "category"

    def answer_choices(self, question: ReadingQuestion,
                       context: DrillContext) -> dict[str, ReadingAnswer]:
        """Return every category when naming, else a, b and copy."""
        if question.mode == "category":
            return {c.slug: ReadingAnswer(category=c.slug) for c in CATEGORIES}
        return {w: ReadingAnswer(winner=w) for w in WINNERS}

    def generate(self, rng: random.Random, context: DrillContext) -> ReadingQuestion:
        """Pick a family, then the answer evenly (a category, or a / b / copy), then the hands."""
        family = self.pick_family(rng, context)
        if family in NAMING:
            hand = list(deal_category(rng, rng.choice(CATEGORIES), family == "joker"))
            rng.shuffle(hand)
            return ReadingQuestion(mode="category", hand=tuple(card_list(hand)))
        return self._compared_question(rng, family, rng.choice(WINNERS), context)

    def _compared_question(self, rng: random.Random, family: str, winner: str,
                           context: DrillContext) -> ReadingQuestion:
        a, b = deal_pair(rng, family, winner, context.table.wheel)
        shown_a, shown_b = list(a), list(b)
        rng.shuffle(shown_a)
        rng.shuffle(shown_b)
        return ReadingQuestion(mode="compare", a=tuple(card_list(shown_a)),
                               b=tuple(card_list(shown_b)))


    def deal_for(self, rng: random.Random, context: DrillContext,
                 skill: str) -> ReadingQuestion | None:
        """Deal a question on the reading rule ``skill``: a hand of its category (with the
        joker for a ``.joker`` rule), or two hands of its size with a winner (a copy for
        ``reading.copy.*``). None for an id that is not one of this drill's skills, or when
        the bounded tries deal none (never for a skill: tests/engine)."""
        if skill not in {s.id for s in self.skills}:
            return None
        if skill.startswith(("reading.compare.", "reading.copy.")):
            family = "compare-two" if skill.endswith(".two") else "compare-five"
            winner = "copy" if skill.startswith("reading.copy.") else rng.choice(WINNERS[:2])
            question = self._compared_question(rng, family, winner, context)
            return question if self.rule_of(question, context) == skill else None
        joker = skill.endswith(".joker")
        category = next(c for c in CATEGORIES if category_rule(c, joker) == skill)
        for _ in range(JOKER_TRIES if joker else 1):
            hand = list(deal_category(rng, category, joker))
            rng.shuffle(hand)
            question = ReadingQuestion(mode="category", hand=tuple(card_list(hand)))
            if self.rule_of(question, context) == skill:
                return question
        return None

    def _key(self, question: ReadingQuestion, wheel: str) -> tuple[str, str, Message | Joined]:
        if question.mode == "category":
            value = evaluate(parse_cards(question.hand or (), 5), wheel)
            rule = category_rule(value.category, bool(value.joker_as))
            return value.category.slug, rule, Joined((value.name,))
        a = parse_cards(question.a or (), (5, 2))
        b = parse_cards(question.b or (), len(a))
        outcome = compare(a, b, wheel)
        winner = {Outcome.WIN: "a", Outcome.LOSS: "b", Outcome.COPY: "copy"}[outcome]
        rule = compare_rule(winner, "five" if len(a) == 5 else "two")
        va, vb = evaluate(a, wheel), evaluate(b, wheel)
        return winner, rule, Message(N_("A: %(a)s. B: %(b)s."), a=va.name, b=vb.name)

    @staticmethod
    def _compared(question: ReadingQuestion, wheel: str) -> Message:
        """Return the two hands in words, as the grade's explanation says them without its stop."""
        a = parse_cards(question.a or (), (5, 2))
        b = parse_cards(question.b or (), len(a))
        return Message(N_("A: %(a)s. B: %(b)s"), a=evaluate(a, wheel).name,
                       b=evaluate(b, wheel).name)

    def rule_of(self, question: ReadingQuestion, context: DrillContext) -> str:
        """Return the reading rule the question tests."""
        return self._key(question, context.table.wheel)[1]

    def probe(self, question: ReadingQuestion) -> ReadingAnswer:
        """Answer high card, or hand A."""
        return ReadingAnswer(category="high_card") if question.mode == "category" \
            else ReadingAnswer(winner="a")

    def wrong_answer(self, question: ReadingQuestion, context: DrillContext,
                     rng: random.Random) -> ReadingAnswer:
        """Return another category, or another winner, drawn by ``rng``."""
        right = self.grade(question, self.probe(question), context).correct_answer
        choices = self.answer_choices(question, context)
        return choices[rng.choice([name for name in choices
                                   if name not in (right.category, right.winner)])]

    def grade(self, question: ReadingQuestion, answer: ReadingAnswer,
              context: DrillContext) -> Grade:
        """Grade a category name or a winner ("a", "b" or "copy")."""
        # Checked by the answer's schema as it came in (an answer made in code too).
        checked = self.validate_answer(question, self.answer_json(answer), context)
        key, rule, text = self._key(question, context.table.wheel)
        if question.mode == "category":
            return Grade(checked["category"] == key, rule, ReadingKey(category=key), text)
        return Grade(checked["winner"] == key, rule, ReadingKey(winner=key), text)

    def feedback(self, question: ReadingQuestion, answer: ReadingAnswer | None,
                 context: DrillContext, grade: Grade | None = None,
                 timed_out: bool = False) -> Feedback:
        """Say what the trainee named or picked, and what the hand is or which wins."""
        grade = grade or self.grade(question, answer or self.probe(question), context)
        key: ReadingKey = grade.correct_answer
        correct = grade.correct and answer is not None and not timed_out
        said: Text
        if key.category is not None:
            said = NO_ANSWER if answer is None else \
                Message(N_("You named it %(category)s"),
                        category=category_message(answer.category or ""))
            value = evaluate(parse_cards(question.hand or (), 5), context.table.wheel)
            right: Text = Message(N_("it is %(category)s (%(explanation)s)"),
                                  category=category_message(key.category),
                                  explanation=value.name)
        else:
            said = NO_ANSWER if answer is None else \
                Message(N_("You said %(winner)s"), winner=Message(WINNER_WORDS[answer.winner or ""]))
            right = Message(N_("%(winner)s (%(explanation)s)"),
                            winner=Message(WINNER_WORDS[key.winner or ""]),
                            explanation=self._compared(question, context.table.wheel))
        return book_feedback(correct, said, right, grade.rule_id, grade.explanation, timed_out)
