"""The settlement drill's words: its skills (the rule book's §7, §8 and §11), hint,
the queen-high note and the feedback, seat by seat (a round's settle step reuses them)."""
from __future__ import annotations

from collections.abc import Sequence

from ....cards import parse_cards
from ....hands import is_queen_high_pai_gow
from ....messages import N_, Message
from ....profiles import FoulPolicy
from ...context import DrillContext
from ...explain import (
    NO_ANSWER_WORDS,
    Part,
    Text,
    amount,
    commission_message,
    hands_words,
    outcome_message,
    outcome_words,
)
from ...skills import DefaultCriterion, Skill
from .questions import Hand, SeatPart, SettledSeat

TITLE = N_("Settle the table")
BLURB = N_("Mark each position win, push or lose and pay winners after commission.")
# Certified by settled positions: 99% of the last 50, the exam 20 tables of 30 s each.
CRITERION = DefaultCriterion(min_accuracy=99.0, window=50, max_median_s=None,
                             exam_length=20, exam_time_limit_s=30)

# The rules a settled position shows (``grade.position_rule``).
WIN = "settlement.win"
PUSH = "settlement.push"
LOSE = "settlement.lose"
COPY_PUSH = "settlement.copy-push"
COPY_LOSE = "settlement.copy-lose"
FOUL = "settlement.foul"
QUEEN_HIGH = "settlement.queen-high"

# What to look at when settling (a round's settle step says the same).
HINT = N_("Settling: look at each back against the banker's back and each front "
          "against the banker's front; a copy goes to the banker, and a winner is "
          "paid less the commission.")

SKILLS = (
    Skill(WIN, "§7", N_("Player wins: paid less commission"),
          N_("Player wins: paid less commission"),
          N_("Two wins win: the bet is paid even money less the commission."), HINT),
    Skill(PUSH, "§7", N_("One hand each: push"), N_("One hand each: push"),
          N_("One win and one loss push: the bet is returned."), HINT),
    Skill(LOSE, "§7", N_("Player loses"), N_("Player loses"),
          N_("No win loses: the bet is taken."), HINT),
    Skill(COPY_PUSH, "§7", N_("A copy goes to the banker: push"),
          N_("A copy goes to the banker: push"),
          N_("A copy goes to the banker; with a win on the other hand the bet pushes."), HINT),
    Skill(COPY_LOSE, "§7", N_("Copies go to the banker: lose"),
          N_("Copies go to the banker: lose"),
          N_("A copy goes to the banker; without a win on the other hand the bet loses."),
          HINT),
    Skill(FOUL, "§8", N_("A fouled hand loses"), N_("A fouled hand loses"),
          N_("A fouled player hand loses its bet, whatever the cards."), HINT),
    Skill(QUEEN_HIGH, "§11", N_("Queen-high pai gow: every bet pushes"),
          N_("Queen-high pai gow: every bet pushes"),
          N_("At a no-commission table every bet pushes when the banker's seven "
             "cards are a queen-high pai gow."), HINT),
)


def queen_high(banker: Hand, context: DrillContext) -> bool:
    """Tell whether every bet pushes: a no-commission table, a queen-high pai gow banker."""
    return context.table.no_commission and is_queen_high_pai_gow(
        parse_cards(banker.back + banker.front, 7))


def queen_high_message(banker: Hand, context: DrillContext) -> Message | None:
    """The sentence explaining the no-commission queen-high push, or None."""
    if not queen_high(banker, context):
        return None
    if context.table.foul_policy == FoulPolicy.HOUSE_WAY:
        return Message(N_("The banker's seven cards are a queen-high pai gow: at a "
                          "no-commission table every bet pushes, whatever it would have "
                          "been; a fouled hand is reset the house way and pushes too."))
    return Message(N_("The banker's seven cards are a queen-high pai gow: at a no-commission "
                      "table every bet pushes, whatever it would have been; only a fouled "
                      "hand still loses."))


def seat_part(part: SettledSeat, said_outcome: str | None, said_paid: int | None,
              context: DrillContext, queen: bool, timed_out: bool = False) -> Part:
    """Return one settled seat as a graded part in words (this drill, a round's settle step).

    ``said_outcome`` and ``said_paid`` are what the trainee marked the seat (None: not
    settled) and paid it.
    """
    seat, outcome, paid = part.seat, part.outcome, part.paid_cents
    said = outcome_words(said_outcome, said_paid) if said_outcome else NO_ANSWER_WORDS
    right = outcome_words(outcome, paid)
    how = hands_words(part.back, part.front, part.fouled, part.reset is not None, queen)
    you: Text
    fix: Text
    why: Text = Message(N_("Seat %(seat)s %(how)s: %(outcome)s"), seat=seat, how=how,
                        outcome=outcome_message(outcome))
    if said_outcome == outcome == "win" and said_paid != paid:
        you = Message(N_("You paid seat %(seat)s %(amount)s"), seat=seat, amount=amount(said_paid))
        fix = Message(N_("%(how)s is %(amount)s"), how=commission_message(context.table),
                      amount=amount(paid))
        why = Message(N_("Seat %(seat)s %(how)s: win, paid %(commission)s, %(amount)s"),
                      seat=seat, how=how, commission=commission_message(context.table),
                      amount=amount(paid))
    elif said_outcome is None:
        you = Message(N_("You left seat %(seat)s unsettled"), seat=seat)
        fix = Message(N_("seat %(seat)s %(how)s: %(outcome)s"), seat=seat, how=how,
                      outcome=outcome_message(outcome))
    else:
        you = Message(N_("You marked seat %(seat)s %(said)s"), seat=seat, said=said)
        fix = Message(N_("seat %(seat)s %(how)s: %(right)s, not %(said)s"), seat=seat, how=how,
                      right=right, said=outcome_message(said_outcome))
    return Part(f"seat {seat}", part.correct and not timed_out, said, right, why,
                you, fix, label=Message(N_("seat %(seat)s"), seat=seat))


def seat_parts(parts: Sequence[object]) -> list[SeatPart]:
    """Return a grade's seats (its main bets), without its side-bet parts."""
    return [p for p in parts if isinstance(p, SeatPart)]
