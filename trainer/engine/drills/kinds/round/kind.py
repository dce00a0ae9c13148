"""The ``round`` drill: one whole round as it runs on the floor, step by step.

A round is three questions in a row, each graded and timed on its own:

1. the action (the action drill's step): the dice are rolled; click the seat that gets
   the first pile (the piles go out counter-clockwise, a pile on an empty seat is dead,
   four cards are never used);
2. ``banker``: set the banker's seven cards by the house way (the house-way drill's);
3. ``settle``: settle every seat in the rule book's order: losers taken first, then
   winners paid net of commission; pushes are left in place. In a player-banker round
   the dealer's hand plays too, and the banker pays the commission on the net win of
   the bank.

The three steps share the round's seed: ``generate`` deals the whole round and
``at_step`` turns it into the question of one step, adding only what that step may show
(the banker's house-way setting appears only at the settle step).
"""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from ....action import POSITIONS
from ....cards import card_list
from ....house_way import rule_family
from ....messages import N_, refusal
from ...base import Drill, get_drill, register
from ...codec import from_json, to_json
from ...context import DrillContext, Grade
from ...explain import Feedback, Text
from ...schema import Schema, derived
from ..action import SEATS, ActionAnswer, ActionQuestion, action_feedback
from ..action import SLUG as ACTION
from ..house_way import SLUG as HOUSE_WAY
from ..house_way import SetAnswer, SetQuestion, set_hand_feedback, way_hint
from ..settlement import Hand, SidePaid
from . import deal, legacy
from .grade import (
    banker_cards,
    banker_key,
    grade_action,
    grade_banker,
    grade_settle,
    step_rule,
)
from .questions import (
    BANKER,
    SETTLE,
    STEPS,
    OrderEntry,
    RoundQuestion,
    SettleAnswer,
    SettleKey,
)
from .words import (
    ACTION_RULE,
    AMOUNT,
    BANKER_COMMISSION,
    BANKER_RULE,
    BLURB,
    OUTCOME,
    PLAYER_BANKER,
    SETTLE_ORDER,
    SETTLE_RULE,
    SKILLS,
    TITLE,
    settle_feedback,
)

SLUG = "round"

# Each step's answer (the action drill's seat, the house-way drill's front, the settling).
STEP_ANSWERS: dict[str, type] = {ACTION: ActionAnswer, BANKER: SetAnswer, SETTLE: SettleAnswer}
# How many rounds ``deal_for`` deals before it says a skill cannot be dealt here.
SKILL_TRIES = 60
# Per skill of the action and settle steps: the step dealt and how the round is steered.
SKILL_STEPS: dict[str, tuple[int, deal.RoundFocus]] = {
    ACTION_RULE: (0, deal.RoundFocus(house_banks=True)),
    ACTION_RULE + PLAYER_BANKER: (0, deal.RoundFocus(player_banker=True)),
    SETTLE_RULE: (2, deal.RoundFocus(house_banks=True)),
    SETTLE_RULE + PLAYER_BANKER: (2, deal.RoundFocus(player_banker=True)),
    OUTCOME: (2, deal.RoundFocus()),
    SETTLE_ORDER: (2, deal.RoundFocus(full_table=True)),
    AMOUNT: (2, deal.RoundFocus(full_table=True)),
    BANKER_COMMISSION: (2, deal.RoundFocus(player_banker=True)),
}


def _once_each(answer: dict[str, Any]) -> None:
    settled: list[int] = []
    for entry in answer["order"]:
        if entry["seat"] in settled:
            raise refusal(N_("Seat %(seat)s is settled twice."), seat=entry["seat"])
        settled.append(entry["seat"])


@register
class RoundDrill(Drill):
    """Run one round: call the action, set the banker's hand, settle the table."""

    slug = SLUG
    title = TITLE
    blurb = BLURB
    order = 60
    default_time_limit_s = 60
    families = {SLUG: 1}
    steps = STEPS
    # Only the action step has fixed answers (1 in 7); the banker and settle steps are free-form.
    step_chance_levels = (1 / POSITIONS, None, None)
    question_type = RoundQuestion
    # The settle step's answer and key; each step's answer is ``STEP_ANSWERS``'s.
    answer_type = SettleAnswer
    key_type = SettleKey
    legacy = legacy
    skills = SKILLS

    def answer_choices(self, question: RoundQuestion, context: DrillContext
                       ) -> dict[str, ActionAnswer] | None:
        """Return the seven seats at the action step; the other steps are free-form."""
        if question.step != ACTION:
            return None
        return {str(seat): ActionAnswer(seat=seat) for seat in SEATS}

    # --- the deal --------------------------------------------------------------

    def generate(self, rng: random.Random, context: DrillContext) -> RoundQuestion:
        """Pick the action's seat (evenly), roll dice that land there, deal and set the hands."""
        return deal.generate(rng, context)


    def deal_for(self, rng: random.Random, context: DrillContext, skill: str
                 ) -> RoundQuestion | None:
        """Return the step of a round dealt on ``skill``, or None when none can be dealt.

        A step's rule (``round.action``, ``round.banker.<family>``, ``round.settle``, each
        with or without a player banking) is the rule of the step dealt. A settle step's
        mistake (``words.MISTAKES``) is no question's rule: the settle step dealt is one
        where it can be made (a winner to pay for the amount, a loser and a winner for
        the order, a player banking for the commission). A house-way family the way has
        no rule of is reported (None); the others are dealt in at most ``SKILL_TRIES``
        rounds.
        """
        if skill.startswith(BANKER_RULE):
            family = skill.removeprefix(BANKER_RULE)
            if not any(rule_family(r.id) == family for r in context.way.rules):
                return None
            step, steer = 1, deal.RoundFocus(banker_families=(family,))
        elif skill in SKILL_STEPS:
            step, steer = SKILL_STEPS[skill]
        else:
            return None
        for _ in range(SKILL_TRIES):
            question = self.at_step(deal.generate(rng, context, steer), step, context)
            if self._exercises(question, skill, context):
                return question
        return None

    def _exercises(self, question: RoundQuestion, skill: str, context: DrillContext) -> bool:
        """Tell whether a dealt step is on ``skill`` (or, a mistake, lets it be made)."""
        if skill not in (OUTCOME, SETTLE_ORDER, AMOUNT, BANKER_COMMISSION):
            return self.rule_of(question, context) == skill
        key: SettleKey = self.grade(question, self.probe(question), context).correct_answer
        actions = {e.action for e in key.order}
        return {SETTLE_ORDER: actions == {"take", "pay"}, AMOUNT: "pay" in actions,
                BANKER_COMMISSION: question.player_banker}.get(skill, bool(question.players))

    # --- the steps -------------------------------------------------------------

    def at_step(self, question: RoundQuestion, step: int, context: DrillContext
                ) -> RoundQuestion:
        """Return the question of one step of the round (0 action, 1 banker, 2 settle)."""
        if not 0 <= step < len(STEPS):
            raise ValueError(f"A round has {len(STEPS)} steps.")
        name = STEPS[step]
        shown = replace(question, step=name, banker_cards=None, banker=None)
        if name in (BANKER, SETTLE):
            shown = replace(shown, banker_cards=banker_cards(question))
        if name == SETTLE:
            key = banker_key(shown, context)
            shown = replace(shown, banker=Hand(back=tuple(card_list(key.back)),
                                               front=tuple(card_list(key.front))))
        return shown

    def probe(self, question: RoundQuestion) -> ActionAnswer | SetAnswer | SettleAnswer:
        """Return a well-formed answer to a step (to learn the key when the clock ran out)."""
        if question.step == ACTION:
            return ActionAnswer(seat=1)
        if question.step == BANKER:
            return SetAnswer(front=(question.banker_cards or ())[:2])
        side = None
        if question.side_bet is not None:
            envy = 0 if question.side_bet.envy else None
            side = tuple(SidePaid(seat=p.seat, bonus_paid_cents=0, envy_paid_cents=envy)
                         for p in question.players if p.bonus_cents)
        return SettleAnswer(order=(),
                            banker_commission_cents=0 if question.player_banker else None,
                            side=side)

    def wrong_answer(self, question: RoundQuestion, context: DrillContext,
                     rng: random.Random) -> ActionAnswer | SetAnswer | SettleAnswer:
        """Return a wrong answer to a step: another seat (the action drill's), another
        setting (the house-way drill's), or one seat settled wrong, the rest right."""
        if question.step == ACTION:
            action = get_drill(ACTION)
            return action.wrong_answer(self._action_question(question), context, rng)  # type: ignore[no-any-return]
        if question.step == BANKER:
            return get_drill(HOUSE_WAY).wrong_answer(  # type: ignore[no-any-return]
                SetQuestion(cards=question.banker_cards or ()), context, rng)
        key: SettleKey = self.grade(question, self.probe(question), context).correct_answer
        seat = rng.choice([p.seat for p in question.players])
        taken = any(e.seat == seat and e.action == "take" for e in key.order)
        order = tuple(e for e in key.order if e.seat != seat)
        if not taken:
            order = (OrderEntry(seat=seat, action="take"), *order)
        return SettleAnswer(order=order, banker_commission_cents=key.banker_commission_cents,
                            side=key.side)

    def answer_schema(self, question: RoundQuestion, context: DrillContext | None) -> Schema:
        """Return the shape of the step's answer.

        The action step: ``{"seat": 1..7}``; the banker step: ``{"front": [two of the
        banker's seven]}``; the settle step: ``{"order": [{"seat", "action": "take"},
        {"seat", "action": "pay", "paid_cents"}, ...]}`` naming each seat with a hand at
        most once, plus ``banker_commission_cents`` when a player banks (and only then)
        and ``side`` at a side-bet table.
        """
        if question.step == ACTION:
            return derived(ActionAnswer, question, context)
        if question.step == BANKER:
            return derived(SetAnswer, SetQuestion(cards=question.banker_cards or ()), context)
        if question.step != SETTLE:
            raise refusal(N_("This round question has no step."))
        return derived(SettleAnswer, question, context, then=_once_each)

    def question_json(self, question: RoundQuestion) -> dict[str, Any]:
        """Return the JSON form of a round or a step: a step's fields after the kind and the
        seed, as ``at_step`` added them to the dealt round's, so a row keeps its text."""
        data = super().question_json(question)
        for name in ("step", "banker_cards", "banker"):
            if name in data:
                data[name] = data.pop(name)
        return data

    def read_answer(self, question: RoundQuestion, data: Any, context: DrillContext | None
                    ) -> ActionAnswer | SetAnswer | SettleAnswer:
        """Return an untrusted answer to the step, checked against it; ValueError in words."""
        checked = self.validate_answer(question, data, context)
        answer: ActionAnswer | SetAnswer | SettleAnswer = from_json(
            STEP_ANSWERS[question.step or ""], checked, "answer")
        return answer

    def rule_of(self, question: RoundQuestion, context: DrillContext) -> str:
        """Return the rule id the step tests.

        ``round.action``, ``round.banker.<family>`` or ``round.settle``.
        """
        return step_rule(question, context)

    def hint(self, rule_id: str, question: RoundQuestion | None = None,
             context: DrillContext | None = None) -> Text:
        """Return the step's hint; the banker's step says what the group's house way does
        with the banker's hand (its deciding rule in words, the house-way home's ``way_hint``)."""
        if (rule_id.startswith(BANKER_RULE) and question is not None
                and context is not None and question.banker_cards):
            found = way_hint(context.way, banker_key(question, context).rule)
            if found is not None:
                return found
        return super().hint(rule_id)

    def grade(self, question: RoundQuestion, answer: Any, context: DrillContext) -> Grade:
        """Grade one step of the round (the answer checked against the step first)."""
        answer = self.read_answer(question, to_json(answer), context)
        rule = self.rule_of(question, context)
        if isinstance(answer, ActionAnswer):
            return grade_action(question, answer, rule)
        if isinstance(answer, SetAnswer):
            return grade_banker(question, answer, context, rule)
        return grade_settle(question, answer, context, rule)

    # --- feedback in words -----------------------------------------------------

    def feedback(self, question: RoundQuestion, answer: Any, context: DrillContext,
                 grade: Grade | None = None, timed_out: bool = False) -> Feedback:
        """Word one step: the seat called, the banker's hand set, or every part of the settling."""
        grade = grade or self.grade(question, answer or self.probe(question), context)
        if question.step == ACTION:
            return action_feedback(self._action_question(question), answer, grade, timed_out)
        if question.step == BANKER:
            return set_hand_feedback(question.banker_cards or (), answer, grade, context,
                                     timed_out, rule_id=grade.rule_id)
        return settle_feedback(question, answer, grade, context, timed_out)

    @staticmethod
    def _action_question(question: RoundQuestion) -> ActionQuestion:
        """Return the round's action step as the action drill's question."""
        return ActionQuestion(seed=question.seed, dice=question.dice,
                              banker_seat=question.banker_seat, occupied=question.occupied)

