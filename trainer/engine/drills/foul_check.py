"""The ``foul-check`` drill: is this player's set hand legal or fouled?"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..cards import Card, card_list, parse_cards
from ..hands import Category, evaluate2, evaluate5, rank2, rank5
from ..messages import N_, Joined, Message, refusal
from ..profiles import FoulPolicy
from ..setting import same_value, splits
from .base import Drill, register
from .context import DrillContext, Grade
from .dealing import deal_family
from .explain import NO_ANSWER, Feedback, Text, book_feedback, cards_words
from .schema import Cards, Fields, Flag, Schema

BOUNDARY_RULES = frozenset(("foul.legal.same-pair", "foul.legal.same-top-ranks",
                            "foul.higher-cards-in-front", "foul.higher-pair-in-front"))
ANSWERS = ("fouled", "legal")
# The answers each family's questions have: a boundary hand is either.
FAMILY_ANSWERS = {"fouled": frozenset({"fouled"}), "legal": frozenset({"legal"}),
                  "boundary": frozenset(ANSWERS)}


DEALS = ("pai-gow", "one-pair", "two-pair", "joker")


def _legal_boundary(rng: random.Random) -> tuple[list[Card], list[Card]]:
    """Build a legal hand on the boundary: the same pair, or the same two top cards, in both."""
    if rng.random() < 0.25:
        rank, *others = rng.sample(range(13), 4)
        suits = rng.sample(range(4), 4)
        front = [rank * 4 + suits[0], rank * 4 + suits[1]]
        back = [rank * 4 + suits[2], rank * 4 + suits[3]]
    else:
        high, low = sorted(rng.sample(range(3, 13), 2), reverse=True)
        others = rng.sample(range(low), 3)
        a, b = rng.sample(range(4), 2), rng.sample(range(4), 2)
        front = [high * 4 + a[0], low * 4 + b[0]]
        back = [high * 4 + a[1], low * 4 + b[1]]
    back += [r * 4 + rng.randrange(4) for r in others]
    return [Card(c) for c in back], [Card(c) for c in front]


def _shown(rng: random.Random, back: Sequence[int], front: Sequence[int]) -> dict[str, Any]:
    """Return a set hand as shown: the cards shuffled within the back and within the front."""
    shown_back, shown_front = list(back), list(front)
    rng.shuffle(shown_back)
    rng.shuffle(shown_front)
    return {"back": card_list(shown_back), "front": card_list(shown_front)}


def _answer(rule: str) -> str:
    return "legal" if rule.startswith("foul.legal") else "fouled"


def _fits(rule: str, answer: str, family: str | None) -> bool:
    """Tell whether a setting's rule has ``answer`` and belongs to ``family`` (None: any)."""
    if _answer(rule) != answer:
        return False
    return family != "boundary" or rule in BOUNDARY_RULES


def foul_rule(back: Sequence[int], front: Sequence[int], wheel: str) -> str:
    """Classify a set hand by the part of the foul rule it turns on."""
    b, f = evaluate5(back, wheel), evaluate2(front)
    fouled = b.strength < f.strength
    if f.category is Category.ONE_PAIR:
        if b.category is Category.HIGH_CARD:
            return "foul.pair-over-no-pair"
        if b.category is Category.ONE_PAIR:
            if fouled:
                return "foul.higher-pair-in-front"
            return ("foul.legal.same-pair" if b.ranks[0] == f.ranks[0]
                    else "foul.legal.pair-under-pair")
        return "foul.legal.pair-under-better"
    if b.category is Category.HIGH_CARD:
        if fouled:
            return "foul.higher-cards-in-front"
        return ("foul.legal.same-top-ranks" if b.ranks[:2] == f.ranks
                else "foul.legal.no-pair")
    return "foul.legal"


@register
class FoulCheckDrill(Drill):
    """Say whether a set hand is fouled; reset it the house way where that is the rule."""

    slug = "foul-check"
    title = "Spot the foul"
    default_time_limit_s = 10
    families = {"fouled": 5, "boundary": 4, "legal": 5}
    chance_level = 1 / 2

    def focus_family(self, rule_id: str) -> str:
        """Map a foul rule id back to the family that asks it."""
        if rule_id in BOUNDARY_RULES:
            return "boundary"
        return "legal" if rule_id.startswith("foul.legal") else "fouled"

    def _focus(self, context: DrillContext) -> list[str]:
        return [f for f in (self.focus_family(r) for r in context.focus_rules
                            if r.startswith("foul.")) if f in self.families]

    def balanced(self, context: DrillContext) -> bool:
        """Tell whether the focus families ask both legal and fouled hands."""
        focus = self._focus(context)
        return not focus or set().union(*(FAMILY_ANSWERS[f] for f in focus)) == set(ANSWERS)

    def answer_choices(self, question: dict[str, Any], context: DrillContext) -> dict[str, dict[str, Any]]:
        """Return the two answers: legal, and fouled (with the house-way reset when due)."""
        fouled: dict[str, Any] = {"fouled": True}
        if context.table.foul_policy == FoulPolicy.HOUSE_WAY:
            # Called fouled, a hand carries its reset front: the house way's, when it is fouled.
            back = parse_cards(question["back"], 5)
            front = parse_cards(question["front"], 2)
            reset = context.way.set(back + front, context.table.wheel)
            fouled["front"] = card_list(reset.front)
        return {"legal": {"fouled": False}, "fouled": fouled}

    def generate(self, rng: random.Random, context: DrillContext) -> dict[str, Any]:
        """Pick legal or fouled first (evenly), then a family and a hand set that way.

        With focus rules ("my mistakes") the answer is drawn from those the focus
        families can ask and the family from the focus; the shown cards are shuffled.
        """
        wheel = context.table.wheel
        focus = self._focus(context)
        answer = rng.choice(sorted(set().union(*(FAMILY_ANSWERS[f] for f in focus))
                                   if focus else ANSWERS))
        if focus:
            family = rng.choice([f for f in focus if answer in FAMILY_ANSWERS[f]])
        else:
            names = sorted(f for f in self.families if answer in FAMILY_ANSWERS[f])
            family = rng.choices(names, weights=[self.families[n] for n in names])[0]
        spare = None
        if (family, answer) == ("boundary", "legal"):
            # Rare in dealt hands: build one (the same pair, or the same top cards, on both sides).
            for _ in range(50):
                back, front = _legal_boundary(rng)
                if _fits(foul_rule(back, front, wheel), answer, family):
                    return _shown(rng, back, front)
        for tries in range(200):
            seven = deal_family(rng, rng.choice(DEALS), context.way, wheel)
            ways = splits(seven)
            rng.shuffle(ways)
            # The first fit in a shuffled order: any fitting setting alike.
            spare = next((w for w in ways if _fits(foul_rule(w.back, w.front, wheel), answer,
                                                   family if tries < 60 else None)), None)
            if spare is not None:
                break
        way = spare or ways[0]
        return _shown(rng, way.back, way.front)

    def rule_of(self, question: dict[str, Any], context: DrillContext) -> str:
        """Return the foul rule the hand turns on."""
        return foul_rule(parse_cards(question["back"], 5),
                         parse_cards(question["front"], 2), context.table.wheel)

    def answer_schema(self, question: dict[str, Any], context: DrillContext | None) -> Schema:
        """Answer ``{"fouled": bool}``; a hand called fouled may carry its reset front.

        Under the ``house_way`` foul policy a hand called fouled must carry the
        two front cards it is reset to, whether or not it really is fouled, so
        the shape of the answer never depends on the right answer.
        """
        reset_needed = context is not None and context.table.foul_policy == FoulPolicy.HOUSE_WAY

        def reset_rules(answer: dict[str, Any]) -> None:
            if not answer["fouled"] and "front" in answer:
                raise refusal(N_("Only a hand called fouled is reset: send no front cards."))
            if answer["fouled"] and reset_needed and "front" not in answer:
                raise refusal(N_("The answer is missing 'front': under the house-way foul "
                                 "policy a hand called fouled is reset, so name its two "
                                 "front cards."))

        seven = list(question["back"]) + list(question["front"])
        return Fields({"fouled": Flag()}, {"front": Cards(2, seven, Message(N_("front")))}, then=reset_rules)

    def probe(self, question: dict[str, Any]) -> dict[str, Any]:
        """Call the hand legal."""
        return {"fouled": False}

    def grade(self, question: dict[str, Any], answer: dict[str, Any], context: DrillContext) -> Grade:
        """Right when legal/fouled is right (and, under ``house_way``, the reset too)."""
        answer = self.validate_answer(question, answer, context)
        wheel = context.table.wheel
        back = parse_cards(question["back"], 5)
        front = parse_cards(question["front"], 2)
        fouled = rank5(back, wheel) < rank2(front)
        said = answer["fouled"]
        rule = foul_rule(back, front, wheel)
        b, f = evaluate5(back, wheel), evaluate2(front)
        text = [Message(N_("Back: %(back)s. Front: %(front)s."), back=b.name, front=f.name),
                Message(N_("Fouled: the front outranks the back.") if fouled
                        else N_("Legal: the back is the higher hand."))]
        key: dict[str, Any] = {"fouled": fouled}
        correct = said == fouled
        if fouled and context.table.foul_policy == FoulPolicy.HOUSE_WAY:
            reset = context.way.set(back + front, wheel)
            key["reset"] = reset.as_dict()
            text.append(Message(N_("Reset the house way: %(explanation)s."),
                                explanation=reset.explanation))
            if correct:
                new_front = parse_cards(answer["front"], 2)
                new_back = tuple(c for c in back + front if c not in new_front)
                correct = same_value(new_back, new_front, reset.back, reset.front, wheel)
        return Grade(correct, rule, key, Joined(text))

    def feedback(self, question: dict[str, Any], answer: dict[str, Any] | None,
                 context: DrillContext, grade: Grade | None = None,
                 timed_out: bool = False) -> Feedback:
        """Say legal or fouled as called and as it is, with the rule book's foul rule."""
        grade = grade or self.grade(question, answer or self.probe(question), context)
        key = grade.correct_answer
        wheel = context.table.wheel
        back = evaluate5(parse_cards(question["back"], 5), wheel).name
        front = evaluate2(parse_cards(question["front"], 2)).name
        said: Text
        if answer is None:
            said = NO_ANSWER
        elif answer["fouled"] and "front" in answer:
            said = Message(N_("You called it fouled and reset it with %(cards)s in front"),
                           cards=cards_words(answer["front"]))
        else:
            said = Message(N_("You called it fouled") if answer["fouled"]
                           else N_("You called it legal"))
        if key["fouled"] and "reset" in key:
            right = Message(N_("it is fouled: the front (%(front)s) outranks the back (%(back)s); "
                               "the house way resets it with %(cards)s in front"),
                            front=front, back=back, cards=cards_words(key["reset"]["front"]))
        elif key["fouled"]:
            right = Message(N_("it is fouled: the front (%(front)s) outranks the back (%(back)s)"),
                            front=front, back=back)
        else:
            right = Message(N_("it is legal: the back (%(back)s) ranks above the front (%(front)s)"),
                            front=front, back=back)
        correct = grade.correct and answer is not None and not timed_out
        return book_feedback(correct, said, right, grade.rule_id, grade.explanation, timed_out)
