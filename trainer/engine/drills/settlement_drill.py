"""The ``settlement`` drill: settle a whole table against the banker."""
from __future__ import annotations

import random
from typing import Any

from ..cards import Card, card_list, parse_cards
from ..hands import Outcome, is_queen_high_pai_gow
from ..house_way import HouseWaySetting
from ..messages import N_, EngineError, Joined, Message, refusal
from ..profiles import FoulPolicy
from ..setting import SetHand, is_foul, splits
from ..settlement import Result, Settlement, payout_cents, settle
from .base import Drill, register
from .context import DrillContext, Grade
from .explain import (
    NO_ANSWER_WORDS,
    Feedback,
    Part,
    Text,
    amount,
    commission_message,
    hands_words,
    outcome_message,
    outcome_words,
    parts_feedback,
)
from .schema import MAX_CENTS, Each, Fields, Maybe, OneOf, Schema, Whole
from .side_bet_parts import (
    answer_fields,
    draw_side_bets,
    graded_parts,
    is_side_part,
    key_answer,
    offer_of,
    settle_side,
    side_bet_question,
    side_feedback_parts,
    special_category,
    special_hand,
)

OUTCOMES = ("win", "push", "lose")
# How a seat's outcome is dealt: a plain set hand, a copy of the banker's front, a foul.
HOW = {"win": ("plain",), "push": ("plain", "plain", "copy"),
       "lose": ("plain", "plain", "copy", "foul")}
# The missed rules "my mistakes" steers the dealing toward: a copy, or a foul.
STEERED_HOW = {"settlement.copy-push": "copy", "settlement.copy-lose": "copy",
               "settlement.foul": "foul"}
BANKER_TRIES = 40
PLAYER_TRIES = 30
BETS_DOLLARS = (2, 5, 5, 10, 13, 15, 20, 20, 25, 25, 33, 40, 50, 55, 75, 100)
# The order in which a table's hardest case names the whole question's rule.
PRIORITY = ("settlement.queen-high", "settlement.foul", "settlement.copy-push",
            "settlement.copy-lose", "settlement.push", "settlement.win",
            "settlement.lose")


def settled_right(given: Any, key: Any) -> bool:
    """Tell whether one position was settled right: its outcome and, for a win, the amount paid.

    ``given`` and ``key`` are the position's answer and answer key
    (``{"outcome": ..., "paid_cents": ...}``); a key without an outcome is never matched.
    """
    outcome = key.get("outcome")
    return outcome is not None and given.get("outcome") == outcome and (
        outcome != "win" or given.get("paid_cents") == key.get("paid_cents"))


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


def position_rule(s: Settlement, queen_high: bool) -> str:
    """Name the settlement rule that applies to one settled position."""
    if s.fouled and s.reset_back is None:
        return "settlement.foul"
    if queen_high:
        # No-commission: every bet pushes against a queen-high pai gow banker.
        return "settlement.queen-high"
    if Outcome.COPY in (s.back, s.front):
        return "settlement.copy-push" if s.outcome is Result.PUSH else "settlement.copy-lose"
    return f"settlement.{s.outcome.value}"


def position_schema(seat: int, side: dict[str, Any] | None = None, bonus_cents: int = 0) -> Schema:
    """Return the shape of one position's settlement: an outcome, and an amount for a winner.

    A seat with a side bet also takes its pay and, at an Envy table, its envy
    (``side_bet_parts.answer_fields``); a seat without one takes neither.
    """
    amount = Message(N_("Seat %(seat)s: enter the amount paid, in cents, as a whole number "
                        "up to %(most)s."), seat=seat, most=MAX_CENTS)

    def amount_for_winners(answer: dict[str, Any]) -> None:
        paid = answer.get("paid_cents")
        if answer["outcome"] == "win" and paid is None:
            raise EngineError(amount)
        if answer["outcome"] != "win" and paid is not None:
            raise refusal(N_("Seat %(seat)s: only a winner is paid; leave the amount empty."),
                          seat=seat)

    return Fields({"outcome": OneOf(("win", "push", "lose"),
                                    Message(N_("Seat %(seat)s: mark it win, push or lose."),
                                            seat=seat)),
                   **answer_fields(side, bonus_cents, seat)},
                  {"paid_cents": Maybe(Whole(0, MAX_CENTS, amount))}, then=amount_for_winners)


def queen_high_note(banker: dict[str, Any], context: DrillContext) -> str:
    """Explain the no-commission push when the banker's seven are a queen-high pai gow
    (English text after a sentence: " The banker's ...", or "")."""
    note = queen_high_message(banker, context)
    return "" if note is None else " " + str(note)


def queen_high_message(banker: dict[str, Any], context: DrillContext) -> Message | None:
    """The sentence explaining the no-commission queen-high push, or None."""
    seven = parse_cards(banker["back"] + banker["front"], 7)
    if not (context.table.no_commission and is_queen_high_pai_gow(seven)):
        return None
    if context.table.foul_policy == FoulPolicy.HOUSE_WAY:
        return Message(N_("The banker's seven cards are a queen-high pai gow: at a "
                          "no-commission table every bet pushes, whatever it would have "
                          "been; a fouled hand is reset the house way and pushes too."))
    return Message(N_("The banker's seven cards are a queen-high pai gow: at a no-commission "
                      "table every bet pushes, whatever it would have been; only a fouled "
                      "hand still loses."))


def _queen_high_banker(rng: random.Random) -> list[int]:
    for _ in range(500):
        ranks = [10, *rng.sample(range(10), 6)]   # queen (index 10) + six lower ranks
        cards = [r * 4 + rng.randrange(4) for r in ranks]
        if is_queen_high_pai_gow(cards):
            return cards
    return rng.sample(range(52), 7)  # pragma: no cover


@register
class SettlementDrill(Drill):
    """Mark each position win, push or lose, and pay winners net of commission."""

    slug = "settlement"
    title = "Settle the table"
    default_time_limit_s = 30
    families = {"settlement": 1}
    # The answer holds amounts (free-form); each seat's outcome alone is one of three.
    chance_level = None
    # Certification counts this drill by settled positions (``part_results``), not tables.
    counts_parts = True
    position_chance_level = 1 / len(OUTCOMES)

    def answer_choices(self, question: dict[str, Any], context: DrillContext) -> dict[str, dict[str, Any]]:
        """Return one outcome for every seat (a winner paid the right amount), per outcome.

        The settlement is graded seat by seat (``Grade.parts``): each seat's
        outcome is one of three, so a constant outcome settles a third of the seats.
        """
        pay = payout_cents
        return {outcome: {"positions": [
            {**({"outcome": outcome, "paid_cents": pay(p["bet_cents"], context.table)}
                if outcome == "win" else {"outcome": outcome}), **_no_side(question, p)}
            for p in question["positions"]]} for outcome in OUTCOMES}

    def generate(self, rng: random.Random, context: DrillContext) -> dict[str, Any]:
        """Pick each seat's outcome first (evenly), then deal a banker and hands that settle so.

        A hand is checked with ``settle`` under the group's table rules, so copies,
        fouls (and their reset) and the no-commission queen-high push count as
        they are settled. Shown cards are shuffled within each back and front.
        """
        table = context.table
        way = context.way
        wheel = table.wheel
        n = rng.randint(2, 6)
        seats = sorted(rng.sample(range(2, 8), n))
        targets = [rng.choice(OUTCOMES) for _ in seats]
        limits = [d * 100 for d in BETS_DOLLARS
                  if table.min_bet_cents <= d * 100 <= table.max_bet_cents]
        bets = [rng.choice(limits or [table.min_bet_cents]) for _ in seats]
        # Side bets (a profile that offers one only: the others draw exactly as before).
        offer = offer_of(table)
        side: dict[str, Any] | None = None
        special: tuple[Card, ...] | None = None
        special_at = -1
        if offer is not None:
            side = side_bet_question(rng, offer, context.side_bet_rules)
            category = special_category(rng, offer)
            # A paying hand goes to a seat that is to win or push (the outcomes stay even).
            room = [i for i, t in enumerate(targets) if t != "lose"]
            if category is not None and room:
                special_at = rng.choice(room)
                special = special_hand(rng, category, offer, set())
        # A no-commission table where no seat is to win gets a queen-high pai gow banker
        # (every bet pushes but a fouled one under the lose policy; if the seats'
        # outcomes cannot all be dealt against one, a plain banker after five tries).
        queen = table.no_commission and "win" not in targets
        for tries in range(BANKER_TRIES):
            banker_seven = (_queen_high_banker(rng) if queen and special is None and tries < 5
                            else rng.sample(range(53), 7) if special is None
                            else rng.sample([c for c in range(53) if c not in special], 7))
            banker = way.set(banker_seven, wheel)
            used = set(banker_seven) | set(special or ())
            positions = []
            for at, (seat, target, bet) in enumerate(zip(seats, targets, bets, strict=True)):
                if at == special_at and special is not None:
                    hand = self._special(special, target, banker, bet, context,
                                         last=tries == BANKER_TRIES - 1)
                else:
                    hand = self._player(rng, target, used, banker, bet, context,
                                        last=tries == BANKER_TRIES - 1)
                if hand is None:
                    break
                back, front = list(hand[0]), list(hand[1])
                used.update(back + front)
                rng.shuffle(back)
                rng.shuffle(front)
                positions.append({"seat": seat, "back": card_list(back),
                                  "front": card_list(front), "bet_cents": bet})
            else:
                break
        banker_back, banker_front = list(banker.back), list(banker.front)
        rng.shuffle(banker_back)
        rng.shuffle(banker_front)
        question: dict[str, Any] = {
            "banker": {"back": card_list(banker_back), "front": card_list(banker_front)},
            "positions": positions}
        if offer is not None and side is not None:
            for p, bonus in zip(positions, draw_side_bets(rng, offer, len(positions)),
                                strict=True):
                p["bonus_cents"] = bonus
            question["side_bet"] = side
        return question

    def _special(self, seven: tuple[Card, ...], target: str, banker: HouseWaySetting,
                 bet: int, context: DrillContext, last: bool = False
                 ) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
        """Set a dealt paying hand the house way; None unless it settles ``target``."""
        w = context.way.set(seven, context.table.wheel)
        result = settle(w.back, w.front, banker.back, banker.front, bet, context.table,
                        context.way)
        return (tuple(w.back), tuple(w.front)) if result.outcome.value == target or last \
            else None

    def _player(self, rng: random.Random, target: str, used: set[int],
                banker: HouseWaySetting, bet: int, context: DrillContext, last: bool = False
                ) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
        """Deal a player's set hand that settles ``target`` against the banker, or None."""
        table, wheel = context.table, context.table.wheel
        deck = [c for c in range(53) if c not in used]
        ways = HOW[target]
        first = rng.choice(ways)
        # "My mistakes" on copies or fouls deals them where the outcome allows (outcomes stay even).
        steered = [how for rule, how in STEERED_HOW.items()
                   if rule in context.focus_rules and how in ways]
        if steered:
            first = steered[0]
        hand = None
        for tries in range(PLAYER_TRIES):
            how = first if tries < PLAYER_TRIES // 2 else ways[tries % len(ways)]
            if how == "copy":
                pick: list[int] = []
                for r in sorted(c.rank for c in banker.front):
                    options = [c for c in deck if Card(c).rank == r and c not in pick
                               and c != 52]
                    if not options:
                        break
                    pick.append(rng.choice(options))
                if len(pick) < 2:
                    continue
                rest = rng.sample([c for c in deck if c not in pick], 5)
                if is_foul(rest, pick, wheel):
                    continue
                hand = tuple(Card(c) for c in rest), tuple(Card(c) for c in pick)
            else:
                seven = rng.sample(deck, 7)
                w: SetHand | HouseWaySetting
                if how == "foul":
                    fouled = [w for w in splits(seven) if is_foul(w.back, w.front, wheel)]
                    if not fouled:
                        continue
                    w = rng.choice(fouled)
                elif rng.random() < 0.8:
                    w = context.way.set(seven, wheel)
                else:
                    w = rng.choice([w for w in splits(seven)
                                    if not is_foul(w.back, w.front, wheel)])
                hand = tuple(w.back), tuple(w.front)
            result = settle(hand[0], hand[1], banker.back, banker.front, bet, table,
                            context.way)
            if result.outcome.value == target:
                return hand
        return hand if last else None

    def settle_all(self, question: dict[str, Any], context: DrillContext) -> list[Settlement]:
        """Settle every position of the question under the group's table rules."""
        table = context.table
        banker_back = parse_cards(question["banker"]["back"], 5)
        banker_front = parse_cards(question["banker"]["front"], 2)
        return [settle(parse_cards(p["back"], 5), parse_cards(p["front"], 2),
                       banker_back, banker_front, p["bet_cents"], table,
                       context.way)
                for p in question["positions"]]

    def _rules(self, question: dict[str, Any], context: DrillContext,
               settled: list[Settlement]) -> list[str]:
        seven = parse_cards(question["banker"]["back"] + question["banker"]["front"], 7)
        queen = context.table.no_commission and is_queen_high_pai_gow(seven)
        return [position_rule(s, queen) for s in settled]

    def rule_of(self, question: dict[str, Any], context: DrillContext) -> str:
        """Return the hardest settlement rule the table shows."""
        rules = self._rules(question, context, self.settle_all(question, context))
        return min(rules, key=PRIORITY.index)

    def answer_schema(self, question: dict[str, Any], context: DrillContext | None) -> Schema:
        """Answer ``{"positions": [{"outcome": ..., "paid_cents": ...}, ...]}``, one per position.

        A winner carries the amount paid in whole cents; a push or a loser carries
        no amount (``null`` or none at all).
        """
        side = question.get("side_bet")
        return Fields({"positions": Each(
            [position_schema(p["seat"], side, p.get("bonus_cents") or 0)
             for p in question["positions"]],
            N_("Settle all %(wanted)s positions; %(given)s were answered."))})

    def part_results(self, answer: Any, correct_answer: Any, timed_out: bool) -> list[bool]:
        """Return, per settled position of a recorded attempt, whether it was settled right."""
        return position_results(answer, correct_answer, timed_out)

    def probe(self, question: dict[str, Any]) -> dict[str, Any]:
        """Mark every position a loser."""
        return {"positions": [{"outcome": "lose", **_no_side(question, p)}
                              for p in question["positions"]]}

    def grade(self, question: dict[str, Any], answer: dict[str, Any], context: DrillContext) -> Grade:
        """Grade each position's outcome and, for winners, the amount paid."""
        given = self.validate_answer(question, answer, context)["positions"]
        positions = question["positions"]
        settled = self.settle_all(question, context)
        rules = self._rules(question, context, settled)
        parts, missed = [], []
        for pos, ans, s, rule in zip(positions, given, settled, rules, strict=True):
            outcome, paid = ans["outcome"], ans.get("paid_cents")
            right_paid = payout_cents(pos["bet_cents"], context.table) \
                if s.outcome is Result.WIN else None
            ok = settled_right({"outcome": outcome, "paid_cents": paid},
                               {"outcome": s.outcome.value, "paid_cents": right_paid})
            if not ok:
                missed.append(rule)
            part = {"seat": pos["seat"], "correct": ok, "rule_id": rule,
                    "outcome": s.outcome.value, "paid_cents": right_paid,
                    "back": s.back.value, "front": s.front.value, "fouled": s.fouled,
                    "commission_cents": s.commission_cents}
            if s.reset_back is not None and s.reset_front is not None:
                part["reset"] = {"back": card_list(s.reset_back),
                                 "front": card_list(s.reset_front),
                                 "rule": s.reset_rule}
            parts.append(part)
        right = sum(p["correct"] for p in parts)
        explanation: list[Message] = [Message(N_("%(right)s of %(count)s positions settled right."),
                                              right=right, count=len(parts))]
        answer_key = [{"seat": p["seat"], "outcome": p["outcome"], "paid_cents": p["paid_cents"]}
                      for p in parts]
        keys = self.side_keys(question, context)
        if keys:
            by_seat = {k["seat"]: k for k in keys}
            for entry in answer_key:
                if entry["seat"] in by_seat:
                    entry.update(key_answer(by_seat[entry["seat"]]))
            side_parts = graded_parts(keys, {p["seat"]: a for p, a in
                                             zip(positions, given, strict=True)})
            missed += [p["rule_id"] for p in side_parts if not p["correct"]]
            parts += side_parts
            explanation.append(Message(N_("%(right)s of %(count)s side-bet payments right."),
                                       right=sum(p["correct"] for p in side_parts),
                                       count=len(side_parts)))
        note = queen_high_message(question["banker"], context)
        if note is not None:
            explanation.append(note)
        rule_id = missed[0] if missed else min(rules, key=PRIORITY.index)
        return Grade(
            correct=not missed,
            rule_id=rule_id,
            correct_answer={"positions": answer_key},
            explanation=Joined(explanation) if len(explanation) > 1 else explanation[0],
            parts=tuple(parts),
        )

    def side_keys(self, question: dict[str, Any], context: DrillContext) -> list[dict[str, Any]]:
        """Return the key of each seat's side bet (none without a ``side_bet`` in the question)."""
        side = question.get("side_bet")
        if not side:
            return []
        positions = question["positions"]
        banker = parse_cards(question["banker"]["back"] + question["banker"]["front"], 7)
        return settle_side(side, [p["seat"] for p in positions],
                           [parse_cards(p["back"] + p["front"], 7) for p in positions],
                           [p.get("bonus_cents") or 0 for p in positions], context.table,
                           banker, dealer_seven=banker)

    def feedback(self, question: dict[str, Any], answer: dict[str, Any] | None,
                 context: DrillContext, grade: Grade | None = None,
                 timed_out: bool = False) -> Feedback:
        """List every seat right or wrong, in words; the first wrong seat leads the sentence."""
        grade = grade or self.grade(question, answer or self.probe(question), context)
        seats = [p for p in grade.parts if not is_side_part(p)]
        given = answer["positions"] if answer is not None else [{} for _ in seats]
        seven = parse_cards(question["banker"]["back"] + question["banker"]["front"], 7)
        queen = context.table.no_commission and is_queen_high_pai_gow(seven)
        parts = tuple(seat_part(part, ans, context, queen, timed_out)
                      for part, ans in zip(seats, given, strict=True))
        side = question.get("side_bet")
        if side:
            parts += side_feedback_parts([p for p in grade.parts if is_side_part(p)], side,
                                         answer is not None, timed_out)
        return parts_feedback(parts, answer is not None, grade.correct, grade.rule_id,
                              grade.explanation, timed_out)


def _no_side(question: dict[str, Any], position: dict[str, Any]) -> dict[str, int]:
    """Return a position's side-bet fields paying nothing (a constant answer, the probe)."""
    side = question.get("side_bet")
    if not side or not position.get("bonus_cents"):
        return {}
    return {"bonus_paid_cents": 0, **({"envy_paid_cents": 0} if side.get("envy") else {})}


def seat_part(part: dict[str, Any], given: dict[str, Any], context: DrillContext,
              queen_high: bool, timed_out: bool = False) -> Part:
    """Return one settled seat as a graded part in words (this drill, a round's settle step)."""
    seat, outcome, paid = part["seat"], part["outcome"], part.get("paid_cents")
    said_outcome, said_paid = given.get("outcome"), given.get("paid_cents")
    said = outcome_words(said_outcome, said_paid) if said_outcome else NO_ANSWER_WORDS
    right = outcome_words(outcome, paid)
    how = hands_words(part["back"], part["front"], part["fouled"], "reset" in part, queen_high)
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
    return Part(f"seat {seat}", bool(part["correct"]) and not timed_out, said, right, why,
                you, fix, label=Message(N_("seat %(seat)s"), seat=seat))
