"""Grading one step of a round: the seat called, the banker's hand set, the table settled."""
from __future__ import annotations

from typing import Any

from ....action import action_position, deal_order, pile_order, table_position
from ....cards import card_list, parse_cards
from ....house_way import HouseWaySetting, rule_family
from ....messages import N_, Joined, Message, Money
from ....setting import is_foul, same_value
from ....settlement import Result, Settlement, banker_commission_cents, payout_cents, settle
from ...codec import to_json
from ...context import DrillContext, Grade
from ...side_bet_parts import graded_parts, settle_side
from ..action import SLUG as ACTION
from ..action import ActionAnswer, position_of_seat
from ..house_way import SetAnswer, SetKey, setting_explanation
from ..settlement import Reset, paid_of, queen_high_message, read_side_parts
from .deal import seat_of_pile
from .questions import (
    BANKER,
    DEALER_SEAT,
    SETTLE,
    OrderEntry,
    Pile,
    RoundActionKey,
    RoundQuestion,
    RoundSeat,
    SettleAnswer,
    SettleKey,
)
from .words import (
    ACTION_RULE,
    AMOUNT,
    BANKER_COMMISSION,
    BANKER_RULE,
    OUTCOME,
    PLAYER_BANKER,
    SETTLE_ORDER,
    SETTLE_RULE,
)

# The order in which a settle step's mistakes name its rule.
MISTAKES = (OUTCOME, SETTLE_ORDER, AMOUNT, BANKER_COMMISSION)


def banker_cards(question: RoundQuestion) -> tuple[str, ...]:
    """Return the banker's seven cards: the pile that lands on the banker's seat."""
    seats = seat_of_pile(sum(question.dice), question.banker_seat)
    return question.piles[seats.index(question.banker_seat)]


def banker_key(question: RoundQuestion, context: DrillContext) -> HouseWaySetting:
    """Return the house way's setting of the banker's seven cards (as the step shows them)."""
    seven = question.banker_cards or banker_cards(question)
    return context.way.set(parse_cards(seven, 7), context.table.wheel)


def step_rule(question: RoundQuestion, context: DrillContext) -> str:
    """Return the rule a step tests: ``round.action``, ``round.banker.<family>``, ``round.settle``
    (the action and settle steps' ``.player-banker`` when a player banks)."""
    suffix = PLAYER_BANKER if question.player_banker else ""
    if question.step == BANKER:
        return BANKER_RULE + rule_family(banker_key(question, context).rule)
    if question.step == SETTLE:
        return SETTLE_RULE + suffix
    if question.step == ACTION:
        return ACTION_RULE + suffix
    raise ValueError("This round question has no step.")


def grade_action(question: RoundQuestion, answer: ActionAnswer, rule: str) -> Grade:
    """Grade the seat called, and say where every pile goes (dead on an empty seat)."""
    total, banker_seat = sum(question.dice), question.banker_seat
    position = action_position(total)
    right = table_position(banker_seat, position)
    occupied_positions = [position_of_seat(s, banker_seat) for s in question.occupied]
    piles = tuple(Pile(pile=pile + 1, seat=table_position(banker_seat, pile_order(total)[pile]),
                       dead=pos is None)
                  for pile, pos in deal_order(total, occupied_positions))
    dead = [p.seat for p in piles if p.dead]
    text = Joined((
        Message(N_("Dice total %(total)s: count %(position)s counter-clockwise from the "
                   "banker (seat %(banker)s is 1), so seat %(seat)s gets the first pile "
                   "and the rest follow counter-clockwise."),
                total=total, position=position, banker=banker_seat, seat=right),
        Message(N_("Dead piles (empty seats): %(seats)s."), seats=Joined(dead, ", "))
        if dead else Message(N_("No seat is empty, so no pile is dead.")),
        Message(N_("The four cards left over are never used."))))
    return Grade(answer.seat == right, rule,
                 RoundActionKey(seat=right, position=position, piles=piles), text)


def grade_banker(question: RoundQuestion, answer: SetAnswer, context: DrillContext,
                 rule: str) -> Grade:
    """Grade the banker's hand set: right when its back and front have the house way's values."""
    seven = parse_cards(question.banker_cards or banker_cards(question), 7)
    front = parse_cards(answer.front, 2)
    back = tuple(c for c in seven if c not in front)
    key = banker_key(question, context)
    wheel = context.table.wheel
    correct = same_value(back, front, key.back, key.front, wheel)
    return Grade(correct, rule, SetKey.of(key),
                 setting_explanation(key, not correct and is_foul(back, front, wheel)))


def settle_all(question: RoundQuestion, context: DrillContext) -> list[Settlement]:
    """Settle every player's hand (and the dealer's, when a player banks) against the banker."""
    banker = question.banker
    if banker is None:
        raise ValueError("Only a round's settle step shows the banker's hand.")
    bb, bf = parse_cards(banker.back, 5), parse_cards(banker.front, 2)
    return [settle(parse_cards(p.back, 5), parse_cards(p.front, 2), bb, bf, p.bet_cents,
                   context.table, context.way)
            for p in question.players]


def side_keys(question: RoundQuestion, context: DrillContext) -> list[dict[str, Any]]:
    """Return the key of each seat's side bet at the settle step (none without side bets).

    The house banks: the banker's hand is the dealer's. A player banks: the
    banker's hand is a player's (it pays envy) and seat 1 is the dealer's.
    """
    if question.side_bet is None or question.banker is None:
        return []
    banker = parse_cards(question.banker.back + question.banker.front, 7)
    betting = [p for p in question.players if p.seat != DEALER_SEAT]
    dealer = next((p for p in question.players if p.seat == DEALER_SEAT), None)
    dealer_seven = (parse_cards(dealer.back + dealer.front, 7)
                    if question.player_banker and dealer is not None else banker)
    return settle_side(question.side_bet.as_dict(), [p.seat for p in betting],
                       [parse_cards(p.back + p.front, 7) for p in betting],
                       [p.bonus_cents or 0 for p in betting], context.table,
                       banker, others=[banker] if question.player_banker else (),
                       dealer_seven=dealer_seven)


def grade_settle(question: RoundQuestion, answer: SettleAnswer, context: DrillContext,
                 rule: str) -> Grade:
    """Grade the settling: each seat's outcome and pay, the order, the bank's commission,
    the side bets."""
    players = question.players
    seats = [p.seat for p in players]
    settled = dict(zip(seats, settle_all(question, context), strict=True))
    bets = {p.seat: p.bet_cents for p in players}
    done = {e.seat: e for e in answer.order}
    losers = [s for s in seats if settled[s].outcome is Result.LOSE]
    winners = [s for s in seats if settled[s].outcome is Result.WIN]
    pays = {s: payout_cents(bets[s], context.table) for s in winners}
    errors: list[str] = []
    parts: list[Any] = []
    for seat in seats:
        s = settled[seat]
        want = {Result.LOSE: "take", Result.WIN: "pay", Result.PUSH: None}[s.outcome]
        entry = done.get(seat)
        ok = (entry.action if entry is not None else None) == want
        if ok and entry is not None and want == "pay":
            if entry.paid_cents != pays[seat]:
                ok = False
                errors.append(AMOUNT)
        elif not ok:
            errors.append(OUTCOME)
        reset = (Reset(back=tuple(card_list(s.reset_back)),
                       front=tuple(card_list(s.reset_front or ())), rule=s.reset_rule)
                 if s.reset_back is not None else None)
        parts.append(RoundSeat(seat=seat, correct=ok, outcome=s.outcome,
                              paid_cents=pays.get(seat), commission_cents=s.commission_cents,
                              back=s.back.value, front=s.front.value, fouled=s.fouled,
                              reset=reset))
    if paid_before_taken(answer.order):
        errors.append(SETTLE_ORDER)
    banker_net = banker_commission = None
    if question.player_banker:
        banker_net = sum(bets[s] for s in losers) - sum(bets[s] for s in winners)
        banker_commission = banker_commission_cents(max(banker_net, 0), context.table)
        if answer.banker_commission_cents != banker_commission:
            errors.append(BANKER_COMMISSION)
    right = sum(p.correct for p in parts)
    text: list[Message] = [Message(N_(
        "%(right)s of %(count)s seats settled right. Losers are taken first, then winners "
        "are paid net of commission; pushes are left in place."), right=right, count=len(parts))]
    keys = side_keys(question, context)
    side_missed: list[str] = []
    side = None
    if keys:
        side_parts = read_side_parts(graded_parts(keys, {e.seat: to_json(e)
                                                         for e in answer.side or ()}))
        side_missed = [p.rule_id for p in side_parts if not p.correct]
        parts += side_parts
        side = tuple(paid_of(k) for k in keys)
        text.append(Message(N_("%(right)s of %(count)s side-bet payments right (side bets "
                               "are against the house)."),
                            right=sum(p.correct for p in side_parts), count=len(side_parts)))
    key = SettleKey(order=tuple([OrderEntry(seat=s, action="take") for s in losers]
                                + [OrderEntry(seat=s, action="pay", paid_cents=pays[s])
                                   for s in winners]),
                    pushes=tuple(s for s in seats if settled[s].outcome is Result.PUSH),
                    banker_net_cents=banker_net, banker_commission_cents=banker_commission,
                    side=side)
    rule_id = (min(errors, key=MISTAKES.index) if errors
               else side_missed[0] if side_missed else rule)
    errors += side_missed
    if SETTLE_ORDER in errors:
        text.append(Message(N_("A winner was paid before every loser was taken.")))
    note = queen_high_message(question.banker, context) if question.banker else None
    if note is not None:
        text.append(note)
    if banker_net is not None and banker_commission is not None:
        text.append(Message(N_("The bank's net is %(net)s; its commission is %(commission)s."),
                            net=Money(banker_net, sign_inside=True),
                            commission=Money(banker_commission)))
    return Grade(not errors, rule_id, key, Joined(text), tuple(parts))


def paid_before_taken(order: tuple[OrderEntry, ...]) -> bool:
    """Tell whether a winner was paid before every loser was taken."""
    kinds = [e.action for e in order]
    return "take" in kinds and "pay" in kinds and (
        max(i for i, k in enumerate(kinds) if k == "take") > kinds.index("pay"))
