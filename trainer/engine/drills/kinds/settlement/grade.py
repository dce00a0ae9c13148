"""Grading a settled table: each position's outcome and pay, and each side bet's.

``position_results`` reads a stored attempt's JSON (the reports run it over rows); the
rest works on the typed question and answer.
"""
from __future__ import annotations

from typing import Any

from ....cards import card_list, parse_cards
from ....hands import Outcome
from ....messages import N_, Joined, Message
from ....settlement import Result, Settlement, payout_cents, settle
from ...codec import to_json
from ...context import DrillContext, Grade
from ...side_bet_parts import graded_parts, settle_side
from .questions import (
    PositionAnswer,
    PositionKey,
    Reset,
    SeatPart,
    SettlementAnswer,
    SettlementKey,
    SettlementQuestion,
)
from .side import SidePaid, paid_of, read_side_parts
from .words import (
    COPY_LOSE,
    COPY_PUSH,
    FOUL,
    LOSE,
    PUSH,
    QUEEN_HIGH,
    WIN,
    queen_high,
    queen_high_message,
)

# The order in which a table's hardest case names the whole question's rule.
PRIORITY = (QUEEN_HIGH, FOUL, COPY_PUSH, COPY_LOSE, PUSH, WIN, LOSE)


def _right(outcome: Any, paid: Any, key_outcome: Any, key_paid: Any) -> bool:
    return key_outcome is not None and outcome == key_outcome and (
        key_outcome != Result.WIN or paid == key_paid)


def settled_right(given: Any, key: Any) -> bool:
    """Tell whether one position was settled right: its outcome and, for a win, the amount paid.

    ``given`` and ``key`` are the position's stored answer and answer key
    (``{"outcome": ..., "paid_cents": ...}``); a key without an outcome is never matched.
    """
    return _right(given.get("outcome"), given.get("paid_cents"), key.get("outcome"),
                  key.get("paid_cents"))


def position_results(answer: Any, correct_answer: Any, timed_out: bool) -> list[bool]:
    """Return, per settled position of a recorded table, whether it was settled right.

    The grade's own rule (``settled_right``); a timed-out table is all wrong. Any
    stored row is read without raising: a position whose key or answer is not an
    object counts as wrong.
    """
    keys = correct_answer.get("positions") if isinstance(correct_answer, dict) else None
    keys = [key if isinstance(key, dict) else {} for key in keys] if isinstance(keys, list) else []
    given = answer.get("positions") if isinstance(answer, dict) else None
    if timed_out or not isinstance(given, list):
        return [False] * len(keys)
    return [settled_right(given[i] if i < len(given) and isinstance(given[i], dict) else {}, key)
            for i, key in enumerate(keys)]


def position_rule(s: Settlement, queen: bool) -> str:
    """Name the settlement rule that applies to one settled position."""
    if s.fouled and s.reset_back is None:
        return FOUL
    if queen:
        # No-commission: every bet pushes against a queen-high pai gow banker.
        return QUEEN_HIGH
    if Outcome.COPY in (s.back, s.front):
        return COPY_PUSH if s.outcome is Result.PUSH else COPY_LOSE
    return {Result.WIN: WIN, Result.PUSH: PUSH, Result.LOSE: LOSE}[s.outcome]


def settle_all(question: SettlementQuestion, context: DrillContext) -> list[Settlement]:
    """Settle every position of the question under the group's table rules."""
    banker_back = parse_cards(question.banker.back, 5)
    banker_front = parse_cards(question.banker.front, 2)
    return [settle(parse_cards(p.back, 5), parse_cards(p.front, 2), banker_back, banker_front,
                   p.bet_cents, context.table, context.way)
            for p in question.positions]


def position_rules(question: SettlementQuestion, context: DrillContext,
                   settled: list[Settlement]) -> list[str]:
    """Return the rule each settled position shows."""
    queen = queen_high(question.banker, context)
    return [position_rule(s, queen) for s in settled]


def table_rule(question: SettlementQuestion, context: DrillContext) -> str:
    """Return the hardest settlement rule the table shows."""
    return min(position_rules(question, context, settle_all(question, context)),
               key=PRIORITY.index)


def side_keys(question: SettlementQuestion, context: DrillContext) -> list[dict[str, Any]]:
    """Return the key of each seat's side bet (none without a side bet in the question)."""
    if question.side_bet is None:
        return []
    positions = question.positions
    banker = parse_cards(question.banker.back + question.banker.front, 7)
    return settle_side(question.side_bet.as_dict(), [p.seat for p in positions],
                       [parse_cards(p.back + p.front, 7) for p in positions],
                       [p.bonus_cents or 0 for p in positions], context.table,
                       banker, dealer_seven=banker)


def grade_table(question: SettlementQuestion, answer: SettlementAnswer,
                context: DrillContext) -> Grade:
    """Grade each position's outcome and, for winners, the amount paid; then the side bets."""
    positions = question.positions
    settled = settle_all(question, context)
    rules = position_rules(question, context, settled)
    seats: list[SeatPart] = []
    missed: list[str] = []
    for pos, given, s, rule in zip(positions, answer.positions, settled, rules, strict=True):
        right_paid = payout_cents(pos.bet_cents, context.table) \
            if s.outcome is Result.WIN else None
        ok = _right(given.outcome, given.paid_cents, s.outcome, right_paid)
        if not ok:
            missed.append(rule)
        reset = (Reset(back=tuple(card_list(s.reset_back)), front=tuple(card_list(s.reset_front)),
                       rule=s.reset_rule)
                 if s.reset_back is not None and s.reset_front is not None else None)
        seats.append(SeatPart(seat=pos.seat, correct=ok, rule_id=rule, outcome=s.outcome,
                              paid_cents=right_paid, back=s.back.value, front=s.front.value,
                              fouled=s.fouled, commission_cents=s.commission_cents,
                              reset=reset))
    right = sum(p.correct for p in seats)
    explanation: list[Message] = [Message(N_("%(right)s of %(count)s positions settled right."),
                                          right=right, count=len(seats))]
    paid: dict[int, SidePaid] = {}
    parts: list[Any] = list(seats)
    keys = side_keys(question, context)
    if keys:
        paid = {k["seat"]: paid_of(k) for k in keys}
        side_parts = read_side_parts(graded_parts(keys, {
            p.seat: to_json(a) for p, a in zip(positions, answer.positions, strict=True)}))
        missed += [p.rule_id for p in side_parts if not p.correct]
        parts += side_parts
        explanation.append(Message(N_("%(right)s of %(count)s side-bet payments right."),
                                   right=sum(p.correct for p in side_parts),
                                   count=len(side_parts)))
    key = SettlementKey(positions=tuple(
        PositionKey(seat=p.seat, outcome=p.outcome, paid_cents=p.paid_cents,
                    bonus_paid_cents=paid[p.seat].bonus_paid_cents if p.seat in paid else None,
                    envy_paid_cents=paid[p.seat].envy_paid_cents if p.seat in paid else None)
        for p in seats))
    note = queen_high_message(question.banker, context)
    if note is not None:
        explanation.append(note)
    return Grade(
        correct=not missed,
        rule_id=missed[0] if missed else min(rules, key=PRIORITY.index),
        correct_answer=key,
        explanation=Joined(explanation) if len(explanation) > 1 else explanation[0],
        parts=tuple(parts),
    )


def no_side(question: SettlementQuestion, bonus_cents: int | None) -> dict[str, int]:
    """Return a position's side-bet fields paying nothing (a constant answer, the probe)."""
    side = question.side_bet
    if side is None or not bonus_cents:
        return {}
    return {"bonus_paid_cents": 0, **({"envy_paid_cents": 0} if side.envy else {})}


def answer_of(key: PositionKey) -> PositionAnswer:
    """Return the answer that settles one position as its key says."""
    return PositionAnswer(outcome=key.outcome,
                          paid_cents=key.paid_cents if key.outcome is Result.WIN else None,
                          bonus_paid_cents=key.bonus_paid_cents,
                          envy_paid_cents=key.envy_paid_cents)
