"""The action drill's words: its skills (the rule book's §2), hint and feedback."""
from __future__ import annotations

from ....messages import N_, Message
from ...context import Grade
from ...explain import NO_ANSWER, Feedback, book_feedback
from ...skills import Skill
from .questions import ActionAnswer, ActionKey, ActionQuestion

TITLE = N_("Call the action")
BLURB = N_("Count the dice from the banker and find who gets the first pile.")

# The rules an action question tests (``ActionDrill.rule_of``).
BANKER = "action.banker"
COUNT = "action.count"
PLAYER_BANKER = "action.player-banker"

# What to look at when counting the action (a round's action step says the same).
HINT = N_("The action: add the dice, look at where the banker sits, and count "
          "counter-clockwise from the banker's seat as 1.")

SKILLS = (
    Skill(BANKER, "§2", N_("Dice: the banker's seat"), N_("Dice: the banker's seat"),
          N_("Count the dice total counter-clockwise with the banker's seat as 1: "
             "totals of 1, 8 and 15 land on the banker."), HINT),
    Skill(COUNT, "§2", N_("Dice: counting the seats"), N_("Dice: counting the seats"),
          N_("Count the dice total counter-clockwise with the banker's seat as 1; the "
             "first pile goes to the seat counted to."), HINT),
    Skill(PLAYER_BANKER, "§2", N_("Dice: a player banks"), N_("Dice: a player banks"),
          N_("When a player banks, the count starts at the player-banker's seat, "
             "which is 1."), HINT),
)


def count_explanation(question: ActionQuestion, key: ActionKey) -> Message:
    """Say where the count lands, and that an empty seat's pile is dead."""
    values = {"total": sum(question.dice), "position": key.position,
              "banker": question.banker_seat, "seat": key.seat}
    if key.seat in question.occupied:
        return Message(N_("Dice total %(total)s: count %(position)s counter-clockwise from the "
                          "banker (seat %(banker)s is 1), so seat %(seat)s gets the first "
                          "pile."), **values)
    return Message(N_("Dice total %(total)s: count %(position)s counter-clockwise from the "
                      "banker (seat %(banker)s is 1), so seat %(seat)s gets the first pile. "
                      "That seat is empty: its pile is dead."), **values)


def action_feedback(question: ActionQuestion, answer: ActionAnswer | None, grade: Grade,
                    timed_out: bool) -> Feedback:
    """Return the feedback on a called action (this drill, a round's first step).

    ``grade.correct_answer`` is an ``ActionKey`` (a round's action key is one too).
    """
    key: ActionKey = grade.correct_answer
    said = NO_ANSWER if answer is None else \
        Message(N_("You picked seat %(seat)s"), seat=answer.seat)
    right = Message(N_("the dice total %(total)s counts %(position)s from the banker in seat "
                       "%(banker)s: seat %(seat)s"), total=sum(question.dice),
                    position=key.position, banker=question.banker_seat, seat=key.seat)
    correct = grade.correct and answer is not None and not timed_out
    return book_feedback(correct, said, right, grade.rule_id, grade.explanation, timed_out)
