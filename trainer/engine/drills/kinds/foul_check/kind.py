"""The ``foul-check`` drill: is this player's set hand legal or fouled?"""
from __future__ import annotations

import random
from typing import Any

from ....cards import card_list, parse_cards
from ....hands import evaluate2, evaluate5, rank2, rank5
from ....messages import N_, Joined, Message, refusal
from ....profiles import FoulPolicy
from ....setting import same_value, splits
from ...base import Drill, register
from ...context import DrillContext, Grade
from ...dealing import deal_family
from ...explain import Feedback
from ...schema import Fields, derived
from ..house_way import SetKey
from . import legacy
from .deal import DEALS, deal_rule, legal_boundary, shown
from .questions import FoulAnswer, FoulKey, FoulQuestion
from .rules import ANSWERS, BOUNDARY_RULES, FAMILY_ANSWERS, fits, foul_rule
from .words import SKILLS, foul_feedback

SLUG = "foul-check"


@register
class FoulCheckDrill(Drill):
    """Say whether a set hand is fouled; reset it the house way where that is the rule."""

    slug = SLUG
    title = N_("Spot the foul")
    blurb = N_("Say whether a player's set hand is legal or fouled.")
    order = 50
    default_time_limit_s = 10
    families = {"fouled": 5, "boundary": 4, "legal": 5}
    # Its skills' rule family (``foul.*``) in the reports.
    family_names = {"foul": N_("Fouls")}
    chance_level = 1 / 2
    question_type = FoulQuestion
    answer_type = FoulAnswer
    key_type = FoulKey
    legacy = legacy
    skills = SKILLS

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

    def _reset(self, question: FoulQuestion, context: DrillContext) -> tuple[str, ...]:
        """Return the front the house way resets the hand's seven cards to."""
        seven = parse_cards(question.back, 5) + parse_cards(question.front, 2)
        return tuple(card_list(context.way.set(seven, context.table.wheel).front))

    def answer_choices(self, question: FoulQuestion, context: DrillContext) -> dict[str, FoulAnswer]:
        """Return the two answers: legal, and fouled (with the house-way reset when due)."""
        # Called fouled, a hand carries its reset front: the house way's, when it is fouled.
        reset = self._reset(question, context) \
            if context.table.foul_policy == FoulPolicy.HOUSE_WAY else None
        return {"legal": FoulAnswer(fouled=False), "fouled": FoulAnswer(fouled=True, front=reset)}

    def generate(self, rng: random.Random, context: DrillContext) -> FoulQuestion:
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
                back, front = legal_boundary(rng)
                if fits(foul_rule(back, front, wheel), answer, family):
                    return shown(rng, back, front)
        for tries in range(200):
            seven = deal_family(rng, rng.choice(DEALS), context.way, wheel)
            ways = splits(seven)
            rng.shuffle(ways)
            # The first fit in a shuffled order: any fitting setting alike.
            spare = next((w for w in ways if fits(foul_rule(w.back, w.front, wheel), answer,
                                                  family if tries < 60 else None)), None)
            if spare is not None:
                break
        way = spare or ways[0]
        return shown(rng, way.back, way.front)


    def deal_for(self, rng: random.Random, context: DrillContext, skill: str) -> FoulQuestion | None:
        """Deal a set hand that turns on the foul rule's part ``skill``; None for an id that
        is not one of this drill's skills (every one of them is dealt: tests/engine)."""
        if skill not in {s.id for s in self.skills}:
            return None
        return deal_rule(rng, skill, context.way, context.table.wheel)

    def rule_of(self, question: FoulQuestion, context: DrillContext) -> str:
        """Return the foul rule the hand turns on."""
        return foul_rule(parse_cards(question.back, 5),
                         parse_cards(question.front, 2), context.table.wheel)

    def answer_schema(self, question: FoulQuestion, context: DrillContext | None) -> Fields:
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

        return derived(FoulAnswer, question, context, then=reset_rules)

    def probe(self, question: FoulQuestion) -> FoulAnswer:
        """Call the hand legal."""
        return FoulAnswer(fouled=False)

    def wrong_answer(self, question: FoulQuestion, context: DrillContext,
                     rng: random.Random) -> FoulAnswer:
        """Call a legal hand fouled (reset to a front ``rng`` draws, where the policy wants
        one) and a fouled hand legal."""
        if self.grade(question, self.probe(question), context).correct_answer.fouled:
            return FoulAnswer(fouled=False)
        if context.table.foul_policy != FoulPolicy.HOUSE_WAY:
            return FoulAnswer(fouled=True)
        seven = [*question.back, *question.front]
        return FoulAnswer(fouled=True, front=tuple(rng.sample(seven, 2)))

    def grade(self, question: FoulQuestion, answer: FoulAnswer, context: DrillContext) -> Grade:
        """Right when legal/fouled is right (and, under ``house_way``, the reset too)."""
        # Checked by the answer's schema as it came in (an answer made in code too).
        checked = self.validate_answer(question, self.answer_json(answer), context)
        wheel = context.table.wheel
        back = parse_cards(question.back, 5)
        front = parse_cards(question.front, 2)
        fouled = rank5(back, wheel) < rank2(front)
        rule = foul_rule(back, front, wheel)
        b, f = evaluate5(back, wheel), evaluate2(front)
        text = [Message(N_("Back: %(back)s. Front: %(front)s."), back=b.name, front=f.name),
                Message(N_("Fouled: the front outranks the back.") if fouled
                        else N_("Legal: the back is the higher hand."))]
        key = FoulKey(fouled=fouled)
        correct = checked["fouled"] == fouled
        if fouled and context.table.foul_policy == FoulPolicy.HOUSE_WAY:
            reset = context.way.set(back + front, wheel)
            key = FoulKey(fouled=fouled, reset=SetKey.of(reset))
            text.append(Message(N_("Reset the house way: %(explanation)s."),
                                explanation=reset.explanation))
            if correct:
                new_front = parse_cards(checked["front"], 2)  # the schema asks it of a fouled call
                new_back = tuple(c for c in back + front if c not in new_front)
                correct = same_value(new_back, new_front, reset.back, reset.front, wheel)
        return Grade(correct, rule, key, Joined(text))

    def feedback(self, question: FoulQuestion, answer: FoulAnswer | None,
                 context: DrillContext, grade: Grade | None = None,
                 timed_out: bool = False) -> Feedback:
        """Say legal or fouled as called and as it is, with the rule book's foul rule."""
        grade = grade or self.grade(question, answer or self.probe(question), context)
        return foul_feedback(question, answer, grade, context, timed_out)
