"""The round drill's words: its skills, hints and the feedback of each step.

The action step's words are the action drill's and the banker step's the house-way
drill's (``action_feedback``, ``set_hand_feedback``); the settle step lists each seat
(the settlement drill's ``seat_part``), the order of settling and the player-banker's
commission, right or wrong.
"""
from __future__ import annotations

from ....messages import N_, Lowered, Message
from ...context import DrillContext, Grade
from ...explain import Feedback, Part, Text, amount, parts_feedback, rate_message
from ...side_bet_parts import side_feedback_parts
from ...skills import Skill
from ..action import HINT as ACTION_HINT
from ..settlement import HINT as SETTLE_HINT
from ..settlement import queen_high, seat_part, side_parts_json
from .questions import RoundQuestion, RoundSeat, SettleAnswer, SettleKey

TITLE = N_("Run a round")
BLURB = N_("A whole round in order: call the action, set the banker's hand, settle every seat.")

# The rules a round's steps test (``RoundDrill.rule_of``), and the settle step's mistakes.
ACTION_RULE = "round.action"
BANKER_RULE = "round.banker."
SETTLE_RULE = "round.settle"
PLAYER_BANKER = ".player-banker"
OUTCOME = "round.settle.outcome"
SETTLE_ORDER = "round.settle.order"
AMOUNT = "round.settle.amount"
BANKER_COMMISSION = "round.settle.banker-commission"

# What to look at in a round (and at its banker step when the way's own rule says nothing).
HINT = N_("A round: look at the banker's seat to count the action, set the banker's hand "
          "the house way, then take the losers before paying the winners.")

# The banker step's rules: one per house-way family, named by the family (the same words
# as the web's families, so "Round: the banker's hand, two pair").
BANKER_FAMILIES: dict[str, str] = {
    "pai-gow": N_("No pair"),
    "one-pair": N_("One pair"),
    "two-pair": N_("Two pair"),
    "three-pair": N_("Three pair"),
    "trips": N_("Trips"),
    "two-trips": N_("Two sets of trips"),
    "full-house": N_("Full house"),
    "trips-two-pair": N_("Trips and two pair"),
    "quads": N_("Four of a kind"),
    "quads-pair": N_("Four of a kind and a pair"),
    "quads-trips": N_("Four of a kind and trips"),
    "five-aces": N_("Five aces"),
    "sf": N_("Straights and flushes"),
}


def _banker_skill(family: str, words: str) -> Skill:
    name = Message(N_("Round: the banker's hand, %(family)s"),
                   family=Lowered(Message(words), whole=True))
    # How the banker's hand is set is the house way's, never the rule book's: the
    # feedback quotes the way's own rule (``house_way_feedback``).
    return Skill(BANKER_RULE + family, "§13", name, name,
                 N_("Set the banker's hand by the house way."), HINT)


SKILLS = (
    Skill(ACTION_RULE, "§2", N_("Round: the action"), N_("Round: the action"),
          N_("Count the dice total counter-clockwise with the banker's seat as 1; the "
             "piles follow counter-clockwise and a pile on an empty seat is dead."),
          ACTION_HINT),
    Skill(ACTION_RULE + PLAYER_BANKER, "§2", N_("Round: the action with a player banking"),
          N_("Round: the action with a player banking"),
          N_("When a player banks, the count starts at the player-banker's seat, "
             "which is 1."), ACTION_HINT),
    *(_banker_skill(family, words) for family, words in BANKER_FAMILIES.items()),
    Skill(SETTLE_RULE, "§9", N_("Round: settling"), N_("Round: settling"),
          N_("Losing bets are taken first, then winners are paid net of commission; "
             "pushes stay where they are."), SETTLE_HINT),
    Skill(SETTLE_RULE + PLAYER_BANKER, "§10", N_("Round: settling with a player banking"),
          N_("Round: settling with a player banking"),
          N_("The player-banker pays the winners, takes the losers and pays "
             "commission on the bank's net win."), SETTLE_HINT),
    Skill(OUTCOME, "§7", N_("Round: a seat's result"), N_("Round: a seat's result"),
          N_("Two wins win, one win pushes, no win loses; a copy goes to the banker."),
          SETTLE_HINT),
    Skill(SETTLE_ORDER, "§9", N_("Round: the order of settling"),
          N_("Round: the order of settling"),
          N_("Losing bets are taken first, then winners are paid."), SETTLE_HINT),
    Skill(AMOUNT, "§9", N_("Round: the amount paid"), N_("Round: the amount paid"),
          N_("A winner is paid even money less the commission."), SETTLE_HINT),
    Skill(BANKER_COMMISSION, "§10", N_("Round: the banker's commission"),
          N_("Round: the banker's commission"),
          N_("The player-banker pays commission on the bank's net win: "
             "what the losers lost less what the winners won."), SETTLE_HINT),
)
# The settle step's mistakes: a grade carries one when the trainee makes it; no question
# is dealt "on" it (``rule_of`` names the step), so dealing for it deals a settle step
# where the mistake can be made (``RoundDrill.deal_for``).
MISTAKES = (OUTCOME, SETTLE_ORDER, AMOUNT, BANKER_COMMISSION)


def settle_feedback(question: RoundQuestion, answer: SettleAnswer | None, grade: Grade,
                    context: DrillContext, timed_out: bool) -> Feedback:
    """List each seat, the order of settling and the player-banker's commission, right or wrong."""
    order = answer.order if answer is not None else ()
    done = {e.seat: e for e in order}
    queen = question.banker is not None and queen_high(question.banker, context)
    parts: list[Part] = []
    for part in (p for p in grade.parts if isinstance(p, RoundSeat)):
        entry = done.get(part.seat)
        said: tuple[str | None, int | None] = ("push", None)
        if entry is not None:
            said = ("lose", None) if entry.action == "take" else ("win", entry.paid_cents)
        if answer is None:
            said = (None, None)
        parts.append(seat_part(part, said[0], said[1], context, queen, timed_out))
    key: SettleKey = grade.correct_answer
    kinds = [e.action for e in order]
    if "take" in kinds and "pay" in kinds:
        late = max(i for i, k in enumerate(kinds) if k == "take") > kinds.index("pay")
        parts.append(Part(
            "the order of settling", not late and not timed_out,
            Message(N_("a winner paid before a loser was taken") if late
                    else N_("losers first")),
            Message(N_("every loser taken before any winner is paid")),
            Message(N_("Losing bets are taken first, then winners are paid.")),
            Message(N_("You paid a winner before every loser was taken")),
            Message(N_("losers are taken first, then winners are paid")),
            label=Message(N_("the order of settling"))))
    if key.banker_commission_cents is not None and key.banker_net_cents is not None:
        paid = answer.banker_commission_cents if answer is not None else None
        right, net = key.banker_commission_cents, key.banker_net_cents
        values = {"net": amount(net), "rate": rate_message(context.table), "amount": amount(right)}
        why: Text = Message(N_("The bank's net win is %(net)s; %(rate)s on it is %(amount)s"),
                            **values) if net > 0 else \
            Message(N_("The bank's net is %(net)s: no net win, so no commission"), **values)
        # The same sentence with its full stop, as the part's reason.
        why_full = Message(N_("The bank's net win is %(net)s; %(rate)s on it is %(amount)s."),
                           **values) if net > 0 else \
            Message(N_("The bank's net is %(net)s: no net win, so no commission."), **values)
        parts.append(Part(
            "the player-banker's commission", paid == right and not timed_out,
            amount(paid), amount(right), why_full,
            Message(N_("You charged the player-banker %(amount)s"), amount=amount(paid)),
            why, label=Message(N_("the player-banker's commission"))))
    if question.side_bet is not None:
        parts += side_feedback_parts(side_parts_json(grade.parts), question.side_bet.as_dict(),
                                     answer is not None, timed_out)
    return parts_feedback(tuple(parts), answer is not None, grade.correct, grade.rule_id,
                          grade.explanation, timed_out)
