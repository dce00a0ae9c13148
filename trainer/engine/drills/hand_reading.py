"""The ``hand-reading`` drill: name a hand, or say which of two hands wins."""
from __future__ import annotations

import random
from typing import Any

from ..cards import JOKER, Card, card_list, parse_cards
from ..hands import Category, Outcome, compare, evaluate, evaluate5
from ..messages import N_, Joined, Message
from .base import Drill, register
from .context import DrillContext, Grade
from .explain import NO_ANSWER, Feedback, Text, book_feedback
from .schema import Fields, OneOf, Schema

CATEGORY_WEIGHTS = {
    Category.FIVE_ACES: 1, Category.ROYAL_FLUSH: 2, Category.STRAIGHT_FLUSH: 3,
    Category.FOUR_OF_A_KIND: 3, Category.FULL_HOUSE: 4, Category.FLUSH: 5,
    Category.STRAIGHT: 6, Category.THREE_OF_A_KIND: 4, Category.TWO_PAIR: 5,
    Category.ONE_PAIR: 4, Category.HIGH_CARD: 3,
}


def deal_category(rng: random.Random, category: Category, joker: bool) -> tuple[Card, ...]:
    """Deal five cards of ``category`` (the joker in them when asked and possible)."""
    for _ in range(400):
        suit = rng.randrange(4)
        if category is Category.FIVE_ACES:
            return tuple(Card(c) for c in rng.sample([48, 49, 50, 51, 52], 5))
        if category in (Category.ROYAL_FLUSH, Category.STRAIGHT_FLUSH, Category.STRAIGHT):
            top = 14 if category is Category.ROYAL_FLUSH else rng.randint(5, 13)
            ranks = [14, 2, 3, 4, 5] if top == 5 else list(range(top - 4, top + 1))
            suited = category is not Category.STRAIGHT
            cards = [(r - 2) * 4 + (suit if suited else rng.randrange(4)) for r in ranks]
        elif category is Category.FLUSH:
            cards = [r * 4 + suit for r in rng.sample(range(13), 5)]
        else:
            shape = {Category.FOUR_OF_A_KIND: (4, 1), Category.FULL_HOUSE: (3, 2),
                     Category.THREE_OF_A_KIND: (3, 1, 1), Category.TWO_PAIR: (2, 2, 1),
                     Category.ONE_PAIR: (2, 1, 1, 1),
                     Category.HIGH_CARD: (1, 1, 1, 1, 1)}[category]
            cards = []
            for rank, count in zip(rng.sample(range(13), len(shape)), shape, strict=True):
                cards += [rank * 4 + s for s in rng.sample(range(4), count)]
        if joker:
            cards[rng.randrange(5)] = JOKER
        if len(set(cards)) == 5 and evaluate5(cards).category is category:
            rng.shuffle(cards)
            return tuple(Card(c) for c in cards)
    return deal_category(rng, category, False)


def _copy_of(rng: random.Random, hand: tuple[Card, ...]) -> tuple[Card, ...] | None:
    """Return another hand of the same ranks in other suits, if the deck allows."""
    out: list[Card] = []
    used: set[int] = set(hand)
    for card in hand:
        options = [c for c in range(52) if c // 4 == card // 4 and c not in used] \
            if card != JOKER else []
        if not options:
            return None
        pick = rng.choice(options)
        used.add(pick)
        out.append(Card(pick))
    if len(hand) == 5 and evaluate5(out).strength != evaluate5(hand).strength:
        return None
    return tuple(out)


CATEGORIES = tuple(Category)
WINNERS = ("a", "b", "copy")
# Naming families (the answer is one of the categories) and comparing ones (a, b or copy).
NAMING = ("category", "joker")
# Of all questions, naming ones: 7 in 12; comparing ones: 5 in 12.
NAMING_SHARE = 7 / 12


@register
class HandReadingDrill(Drill):
    """Name a five-card hand's category, or say which of two hands wins."""

    slug = "hand-reading"
    title = "Read the hand"
    default_time_limit_s = 10
    families = {"category": 4, "joker": 3, "compare-five": 3, "compare-two": 2}
    # A constant answer for each kind of question: 1 in 11 when naming, 1 in 3 when comparing.
    chance_level = NAMING_SHARE / len(CATEGORIES) + (1 - NAMING_SHARE) / len(WINNERS)

    def focus_family(self, rule_id: str) -> str:
        """Map a reading rule id back to the family that asks it (copies are comparisons)."""
        parts = rule_id.split(".")
        if parts[1:2] in (["copy"], ["compare"]):
            return "compare-two" if parts[-1] == "two" else "compare-five"
        return "joker" if parts[-1] == "joker" else "category"

    def answer_choices(self, question: dict[str, Any], context: DrillContext) -> dict[str, dict[str, Any]]:
        """Return every category when naming, else a, b and copy."""
        if question["mode"] == "category":
            return {c.slug: {"category": c.slug} for c in CATEGORIES}
        return {w: {"winner": w} for w in WINNERS}

    def generate(self, rng: random.Random, context: DrillContext) -> dict[str, Any]:
        """Pick a family, then the answer evenly (a category, or a / b / copy), then the hands."""
        family = self.pick_family(rng, context)
        cats = list(CATEGORY_WEIGHTS)
        weights = list(CATEGORY_WEIGHTS.values())
        if family in NAMING:
            hand = list(deal_category(rng, rng.choice(CATEGORIES), family == "joker"))
            rng.shuffle(hand)
            return {"mode": "category", "hand": card_list(hand)}
        winner = rng.choice(WINNERS)
        wheel = context.table.wheel
        for _ in range(500):
            if family == "compare-two":
                a = tuple(Card(c) for c in rng.sample(range(53), 2))
            else:
                a = deal_category(rng, rng.choices(cats, weights)[0], rng.random() < 0.2)
            if winner == "copy":
                b = _copy_of(rng, a)
                if b is None or compare(a, b, wheel) is not Outcome.COPY:
                    continue
            else:
                deck = [c for c in range(53) if c not in a]
                if len(a) == 5:
                    b = deal_category(rng, evaluate5(a).category if rng.random() < 0.6
                                      else rng.choices(cats, weights)[0], False)
                    if set(a) & set(b):
                        b = tuple(Card(c) for c in rng.sample(deck, 5))
                else:
                    b = tuple(Card(c) for c in rng.sample(deck, 2))
                outcome = compare(a, b, wheel)
                if outcome is Outcome.COPY:
                    continue
                if (outcome is Outcome.WIN) != (winner == "a"):
                    a, b = b, a
            break
        assert b is not None  # the loop ends on a pair of hands
        shown_a, shown_b = list(a), list(b)
        rng.shuffle(shown_a)
        rng.shuffle(shown_b)
        return {"mode": "compare", "a": card_list(shown_a), "b": card_list(shown_b)}

    def _key(self, question: dict[str, Any], wheel: str) -> tuple[str, str, Message | Joined]:
        if question["mode"] == "category":
            value = evaluate(parse_cards(question["hand"], 5), wheel)
            rule = f"reading.{value.category.slug.replace('_', '-')}"
            if value.joker_as:
                rule += ".joker"
            return value.category.slug, rule, Joined((value.name,))
        a = parse_cards(question["a"], (5, 2))
        b = parse_cards(question["b"], len(a))
        outcome = compare(a, b, wheel)
        winner = {Outcome.WIN: "a", Outcome.LOSS: "b", Outcome.COPY: "copy"}[outcome]
        size = "five" if len(a) == 5 else "two"
        rule = f"reading.{'copy' if winner == 'copy' else 'compare'}.{size}"
        va, vb = evaluate(a, wheel), evaluate(b, wheel)
        return winner, rule, Message(N_("A: %(a)s. B: %(b)s."), a=va.name, b=vb.name)

    @staticmethod
    def _compared(question: dict[str, Any], wheel: str) -> Message:
        """Return the two hands in words, as the grade's explanation says them without its stop."""
        a = parse_cards(question["a"], (5, 2))
        b = parse_cards(question["b"], len(a))
        return Message(N_("A: %(a)s. B: %(b)s"), a=evaluate(a, wheel).name,
                       b=evaluate(b, wheel).name)

    def rule_of(self, question: dict[str, Any], context: DrillContext) -> str:
        """Return the reading rule the question tests."""
        return self._key(question, context.table.wheel)[1]

    def answer_schema(self, question: dict[str, Any], context: DrillContext | None) -> Schema:
        """Answer ``{"category": <a category>}`` or ``{"winner": "a" | "b" | "copy"}``."""
        if question["mode"] == "category":
            return Fields({"category": OneOf([c.slug for c in Category],
                                             N_("That is not a hand category: name one of them."))})
        return Fields({"winner": OneOf(("a", "b", "copy"), N_("Answer a, b or copy."))})

    def probe(self, question: dict[str, Any]) -> dict[str, Any]:
        """Answer high card, or hand A."""
        return {"category": "high_card"} if question.get("mode") == "category" else {"winner": "a"}

    def grade(self, question: dict[str, Any], answer: dict[str, Any], context: DrillContext) -> Grade:
        """Grade a category name or a winner ("a", "b" or "copy")."""
        answer = self.validate_answer(question, answer, context)
        key, rule, text = self._key(question, context.table.wheel)
        if question["mode"] == "category":
            return Grade(answer["category"] == key, rule, {"category": key}, text)
        return Grade(answer["winner"] == key, rule, {"winner": key}, text)

    def feedback(self, question: dict[str, Any], answer: dict[str, Any] | None,
                 context: DrillContext, grade: Grade | None = None,
                 timed_out: bool = False) -> Feedback:
        """Say what the trainee named or picked, and what the hand is or which wins."""
        grade = grade or self.grade(question, answer or self.probe(question), context)
        key = grade.correct_answer
        correct = grade.correct and answer is not None and not timed_out
        said: Text
        if "category" in key:
            said = NO_ANSWER if answer is None else \
                Message(N_("You named it %(category)s"), category=category_message(answer["category"]))
            value = evaluate(parse_cards(question["hand"], 5), context.table.wheel)
            right: Text = Message(N_("it is %(category)s (%(explanation)s)"),
                                  category=category_message(key["category"]),
                                  explanation=value.name)
        else:
            said = NO_ANSWER if answer is None else \
                Message(N_("You said %(winner)s"), winner=Message(WINNER_WORDS[answer["winner"]]))
            right = Message(N_("%(winner)s (%(explanation)s)"),
                            winner=Message(WINNER_WORDS[key["winner"]]),
                            explanation=self._compared(question, context.table.wheel))
        return book_feedback(correct, said, right, grade.rule_id, grade.explanation, timed_out)


WINNER_WORDS = {"a": N_("hand A wins"), "b": N_("hand B wins"), "copy": N_("it is a copy")}
# The hand categories in words, by slug; high card is pai gow.
CATEGORY_WORDS = {"high_card": N_("high card (pai gow)"), "one_pair": N_("one pair"),
                  "two_pair": N_("two pair"), "three_of_a_kind": N_("three of a kind"),
                  "straight": N_("straight"), "flush": N_("flush"),
                  "full_house": N_("full house"), "four_of_a_kind": N_("four of a kind"),
                  "straight_flush": N_("straight flush"), "royal_flush": N_("royal flush"),
                  "five_aces": N_("five aces")}


def category_words(slug: str) -> str:
    """Return a hand category in words ("three of a kind"); high card is pai gow."""
    return "high card (pai gow)" if slug == "high_card" else slug.replace("_", " ")


def category_message(slug: str) -> Text:
    """Return a hand category for a sentence, a word to translate."""
    found = CATEGORY_WORDS.get(slug)
    return Message(found) if found is not None and found == category_words(slug) \
        else category_words(slug)
