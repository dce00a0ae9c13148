"""The ``house-way`` drill: set the banker's seven cards by the house way."""
from __future__ import annotations

import random
from typing import Any

from ..cards import card_list, parse_cards
from ..hands import evaluate2
from ..house_way import HouseWaySetting
from ..messages import N_, Joined, Lowered, Message
from ..setting import is_foul, same_value
from .base import Drill, register
from .context import DrillContext, Grade
from .dealing import HOUSE_WAY_FAMILIES, deal_family
from .explain import NO_ANSWER, Feedback, Text, cards_words, house_way_feedback, setting_said
from .explain import hint as rule_hint
from .schema import Cards, Fields, Schema


@register
class HouseWayDrill(Drill):
    """Pick the two front cards of the banker's hand, as the house way sets it."""

    slug = "house-way"
    title = "Set the banker's hand"
    default_time_limit_s = 30
    families = HOUSE_WAY_FAMILIES

    def generate(self, rng: random.Random, context: DrillContext) -> dict[str, Any]:
        """Deal seven cards of a weighted rule family, shown in shuffled order."""
        family = self.pick_family(rng, context)
        cards = list(deal_family(rng, family, context.way, context.table.wheel))
        rng.shuffle(cards)
        return {"cards": card_list(cards)}

    def key(self, question: dict[str, Any], context: DrillContext) -> HouseWaySetting:
        """Return the house way's setting of the question's cards."""
        return context.way.set(parse_cards(question["cards"], 7),
                               context.table.wheel)

    def rule_of(self, question: dict[str, Any], context: DrillContext) -> str:
        """Return the house-way rule id that decides the hand."""
        return self.key(question, context).rule

    def answer_schema(self, question: dict[str, Any], context: DrillContext | None) -> Schema:
        """Answer ``{"front": [two of the seven cards]}``."""
        return Fields({"front": Cards(2, question["cards"], Message(N_("front")))})

    def probe(self, question: dict[str, Any]) -> dict[str, Any]:
        """Put the first two cards in front."""
        return {"front": list(question["cards"][:2])}

    def grade(self, question: dict[str, Any], answer: dict[str, Any], context: DrillContext) -> Grade:
        """Right when the trainee's back and front have the house way's values."""
        front = self.validate_answer(question, answer, context)["front"]
        wheel = context.table.wheel
        seven = parse_cards(question["cards"], 7)
        front_cards = parse_cards(front, 2)
        back_cards = tuple(c for c in seven if c not in front_cards)
        key = self.key(question, context)
        correct = same_value(back_cards, front_cards, key.back, key.front, wheel)
        return Grade(
            correct=correct,
            rule_id=key.rule,
            correct_answer=key.as_dict(),
            explanation=setting_explanation(
                key, not correct and is_foul(back_cards, front_cards, wheel)),
        )

    def hint(self, rule_id: str, question: dict[str, Any] | None = None,
             context: DrillContext | None = None) -> Text:
        """Return what the group's house way does with this hand: its deciding rule in words."""
        return rule_hint(rule_id, context.way if context is not None else None)

    def feedback(self, question: dict[str, Any], answer: dict[str, Any] | None,
                 context: DrillContext, grade: Grade | None = None,
                 timed_out: bool = False) -> Feedback:
        """Say how the trainee set the hand, how the house way sets it, and the sheet's rule."""
        grade = grade or self.grade(question, answer or self.probe(question), context)
        return set_hand_feedback(question["cards"], answer, grade, context, timed_out)


def setting_explanation(key: HouseWaySetting, fouled: bool) -> Message | Joined:
    """How the house way sets the hand (the sheet's explanation, a house way's own text,
    which the web puts in the reader's language) and, when the trainee's setting fouls, so."""
    said = Message(N_("%(explanation)s."), explanation=key.explanation)
    return Joined((said, Message(N_("Your setting was fouled.")))) if fouled else said


def set_hand_feedback(seven: list[str], answer: dict[str, Any] | None, grade: Grade,
                      context: DrillContext, timed_out: bool,
                      rule_id: str | None = None) -> Feedback:
    """Return the feedback on a banker's hand set by the trainee (this drill, a round's step)."""
    key = grade.correct_answer
    house_rule = str(key.get("rule", grade.rule_id))
    said: Text = NO_ANSWER if answer is None else setting_said(seven, answer["front"])
    if answer is not None and not grade.correct:
        front = parse_cards(answer["front"], 2)
        back = tuple(c for c in parse_cards(seven, 7) if c not in front)
        if is_foul(back, front, context.table.wheel):
            said = Message(N_("%(setting)s, which fouls the hand"), setting=said)
    key_front = key.get("front", [])
    right: Text = Message(N_("the house way puts %(cards)s in front"),
                          cards=cards_words(key_front))
    if len(key_front) == 2:
        name = evaluate2(parse_cards(key_front, 2)).name
        # "Pair of eights" -> "pair of eights"; "K-7" stays
        words: Any = Lowered(name) if name.english[1:2].islower() else name
        right = Message(N_("the house way puts %(cards)s in front (%(hand)s)"),
                        cards=cards_words(key_front), hand=words)
    correct = grade.correct and answer is not None and not timed_out
    return house_way_feedback(correct, said, right, context.way, rule_id or grade.rule_id,
                              detail=grade.explanation, timed_out=timed_out, shown_rule=house_rule)
