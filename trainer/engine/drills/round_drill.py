"""The ``round`` drill: one whole round as it runs on the floor, step by step.

A round is three questions in a row, each graded and timed on its own:

1. ``action``: the dice are rolled; click the seat that gets the first pile (the
   piles go out counter-clockwise, a pile on an empty seat is dead, four cards
   are never used);
2. ``banker``: set the banker's seven cards by the house way;
3. ``settle``: settle every seat in the rule book's order: losers taken first,
   then winners paid net of commission; pushes are left in place. In a
   player-banker round the dealer's hand plays too, and the banker pays the
   commission on the net win of the bank.

The three steps share the round's seed: ``generate`` deals the whole round and
``at_step`` turns it into the question of one step, adding only what that step
may show (the banker's house-way setting appears only at the settle step).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..action import POSITIONS, action_position, deal_order, pile_order, table_position
from ..cards import Card, card_list, deal_piles, parse_cards
from ..hands import is_queen_high_pai_gow
from ..house_way import HouseWay, HouseWaySetting, rule_family
from ..messages import N_, Joined, Message, Money, refusal
from ..setting import is_foul, same_value, splits
from ..settlement import Result, Settlement, banker_commission_cents, payout_cents, settle
from ..side_bets import load_table
from .action_drill import SEATS, action_feedback, roll_to_seat
from .base import Drill, register
from .context import DrillContext, Grade
from .dealing import HOUSE_WAY_FAMILIES, deal_family
from .explain import Feedback, Part, Text, amount, parts_feedback, rate_message
from .explain import hint as rule_hint
from .house_way_drill import set_hand_feedback, setting_explanation
from .schema import MAX_CENTS, Cards, Each, Fields, ListOf, Maybe, OneOf, Schema, Whole
from .settlement_drill import BETS_DOLLARS, _queen_high_banker, queen_high_message, seat_part
from .side_bet_parts import (
    draw_side_bets,
    graded_parts,
    is_side_part,
    key_answer,
    offer_of,
    settle_side,
    side_bet_question,
    side_feedback_parts,
    side_fields_schema,
    special_category,
    special_hand,
)

STEPS = ("action", "banker", "settle")


def load_table_kind(name: str) -> str:
    """Return a side-bet pay table's kind ("bonus", "progressive", "queens-dragon")."""
    return load_table(name).kind.value
PLAYER_BANKER_RATE = 0.25
DEALER_SEAT = 1


def seat_of_pile(total: int, banker_seat: int) -> list[int]:
    """Return the seat that receives each pile, in dealing order."""
    return [table_position(banker_seat, position) for position in pile_order(total)]


def position_of_seat(seat: int, banker_seat: int) -> int:
    """Return a seat's position counted counter-clockwise from the banker (the banker is 1)."""
    return (seat - banker_seat) % POSITIONS + 1


@dataclass(frozen=True, slots=True)
class RoundFocus:
    """How a round is steered toward the trainee's missed rules ("my mistakes").

    ``round.action.player-banker``, ``round.settle.player-banker`` and
    ``round.settle.banker-commission`` ask for a player-banker; ``round.banker.<family>``
    deals the banker's pile from that house-way family; the other ``round.settle.*``
    rules fill every seat, so there is more to settle.
    """

    player_banker: bool = False
    banker_families: tuple[str, ...] = ()
    full_table: bool = False

    @classmethod
    def of(cls, focus_rules: tuple[str, ...]) -> RoundFocus:
        """Read the steering from a context's focus rules (any other rule is ignored)."""
        rules = [r for r in focus_rules if r.startswith("round.")]
        families = tuple(sorted({r.removeprefix("round.banker.") for r in rules
                                 if r.startswith("round.banker.")} & set(HOUSE_WAY_FAMILIES)))
        return cls(
            player_banker=any(r.endswith(("player-banker", "banker-commission"))
                              for r in rules),
            banker_families=families,
            full_table=any(r.startswith("round.settle.") and not r.endswith("player-banker")
                           for r in rules),
        )


def give_pile(piles: list[tuple[Card, ...]], unused: tuple[Card, ...], index: int,
              seven: tuple[Card, ...]) -> tuple[list[tuple[Card, ...]], tuple[Card, ...]]:
    """Put ``seven`` in pile ``index``, swapping its cards with those they replace (one deck still)."""
    old = piles[index]
    incoming = [c for c in seven if c not in old]
    spare = [c for c in old if c not in seven]
    swap = dict(zip(incoming, spare, strict=True))
    new_piles = [tuple(seven) if k == index else tuple(swap.get(c, c) for c in pile)
                 for k, pile in enumerate(piles)]
    return new_piles, tuple(swap.get(c, c) for c in unused)


@register
class RoundDrill(Drill):
    """Run one round: call the action, set the banker's hand, settle the table."""

    slug = "round"
    title = "Run a round"
    default_time_limit_s = 60
    families = {"round": 1}
    steps = STEPS
    # Only the action step has fixed answers (1 in 7); the banker and settle steps are free-form.
    step_chance_levels = (1 / POSITIONS, None, None)

    def answer_choices(self, question: dict[str, Any], context: DrillContext
                       ) -> dict[str, dict[str, Any]] | None:
        """Return the seven seats at the action step; the other steps are free-form."""
        if question.get("step") != "action":
            return None
        return {str(seat): {"seat": seat} for seat in SEATS}

    # --- the deal --------------------------------------------------------------

    def generate(self, rng: random.Random, context: DrillContext) -> dict[str, Any]:
        """Pick the action's seat (evenly), roll dice that land there, deal and set the hands.

        The players' cards are shuffled within the back and the front as shown.
        """
        table = context.table
        way = context.way
        steer = RoundFocus.of(context.focus_rules)
        action_seat = rng.randint(1, POSITIONS)
        # "My mistakes" steers the round; without focus rules the draws are as they always were.
        player_banker = rng.random() < PLAYER_BANKER_RATE or steer.player_banker
        banker_seat = rng.randint(2, POSITIONS) if player_banker else DEALER_SEAT
        dice = roll_to_seat(rng, action_seat, banker_seat)
        others = [s for s in range(1, POSITIONS + 1) if s not in (banker_seat, DEALER_SEAT)]
        # The dealer's seat always has a hand: the house banks, or it plays the player-banker.
        count = rng.randint(1, 5) if player_banker else rng.randint(1, 6)
        if steer.full_table:
            count = len(others)
        occupied = sorted({banker_seat, DEALER_SEAT, *rng.sample(others, count)})
        piles, unused = deal_piles(rng)
        if steer.banker_families:
            # The banker's pile is dealt from a missed house-way family.
            family = rng.choice(steer.banker_families)
            index = seat_of_pile(sum(dice), banker_seat).index(banker_seat)
            seven = deal_family(rng, family, context.way, table.wheel)
            piles, unused = give_pile(piles, unused, index, seven)
        # Side bets (a profile that offers one only: the others draw exactly as before).
        offer = offer_of(table)
        side: dict[str, Any] | None = None
        if offer is not None:
            side = side_bet_question(rng, offer, context.side_bet_rules)
            piles, unused = self._side_piles(rng, offer, piles, unused, dice, banker_seat,
                                             occupied, bool(steer.banker_families))
        bets = [d * 100 for d in BETS_DOLLARS
                if table.min_bet_cents <= d * 100 <= table.max_bet_cents] or [table.min_bet_cents]
        players: list[dict[str, Any]] = []
        for pile, seat in enumerate(seat_of_pile(sum(dice), banker_seat)):
            if seat not in occupied or seat == banker_seat:
                continue
            seven = piles[pile]
            house = seat == DEALER_SEAT
            back, front = (list(cards) for cards in
                           self._set(rng, seven, way, table.wheel, house))
            rng.shuffle(back)
            rng.shuffle(front)
            players.append({"seat": seat, "back": card_list(back), "front": card_list(front),
                            "bet_cents": rng.choice(bets)})
        players.sort(key=lambda p: p["seat"])
        question = {"dice": dice, "banker_seat": banker_seat, "occupied": occupied,
                    "piles": [card_list(p) for p in piles], "unused": card_list(unused),
                    "players": players}
        if offer is not None and side is not None:
            # The dealer's own hand (seat 1, playing a player-banker) makes no side bet.
            betting = [p for p in players if p["seat"] != DEALER_SEAT]
            for p in players:
                p["bonus_cents"] = 0
            for p, bonus in zip(betting, draw_side_bets(rng, offer, len(betting)), strict=True):
                p["bonus_cents"] = bonus
            question["side_bet"] = side
        return question

    def _side_piles(self, rng: random.Random, offer: Any, piles: list[tuple[Card, ...]],
                    unused: tuple[Card, ...], dice: Any, banker_seat: int, occupied: list[int],
                    steered: bool) -> tuple[list[tuple[Card, ...]], tuple[Card, ...]]:
        """Deal a paying hand to a player's pile now and then (Queen's Dragon: the banker's)."""
        order = seat_of_pile(sum(dice), banker_seat)
        if load_table_kind(offer.table) == "queens-dragon":
            if not steered and rng.random() < 1 / 3:
                seven = tuple(Card(c) for c in _queen_high_banker(rng))
                piles, unused = give_pile(piles, unused, order.index(banker_seat), seven)
            return piles, unused
        category = special_category(rng, offer)
        seats = [s for s in occupied if s not in (banker_seat, DEALER_SEAT)]
        if category is None or not seats:
            return piles, unused
        seat = rng.choice(seats)
        hand = special_hand(rng, category, offer, set())
        if hand is not None:
            piles, unused = give_pile(piles, unused, order.index(seat), hand)
        return piles, unused

    def _set(self, rng: random.Random, seven: tuple[Card, ...], way: HouseWay, wheel: str,
             house: bool) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """Set a player's hand: mostly the house way, sometimes another way, now and then fouled."""
        roll = rng.random()
        if house or roll < 0.75:
            s = way.set(seven, wheel)
            return s.back, s.front
        ways = splits(seven)
        fouled = [w for w in ways if is_foul(w.back, w.front, wheel)]
        legal = [w for w in ways if not is_foul(w.back, w.front, wheel)]
        pick = rng.choice(fouled if roll >= 0.95 and fouled else legal)
        return pick.back, pick.front

    # --- the steps -------------------------------------------------------------

    def banker_cards(self, question: dict[str, Any]) -> list[str]:
        """Return the banker's seven cards: the pile that lands on the banker's seat."""
        seats = seat_of_pile(sum(question["dice"]), question["banker_seat"])
        cards: list[str] = question["piles"][seats.index(question["banker_seat"])]
        return cards

    def at_step(self, question: dict[str, Any], step: int, context: DrillContext) -> dict[str, Any]:
        """Return the question of one step of the round (0 action, 1 banker, 2 settle)."""
        if not 0 <= step < len(STEPS):
            raise ValueError(f"A round has {len(STEPS)} steps.")
        q = {**question, "step": STEPS[step]}
        if STEPS[step] in ("banker", "settle"):
            q["banker_cards"] = self.banker_cards(question)
        if STEPS[step] == "settle":
            key = self._banker_key(q, context)
            q["banker"] = {"back": card_list(key.back), "front": card_list(key.front)}
        return q

    def _banker_key(self, question: dict[str, Any], context: DrillContext) -> HouseWaySetting:
        return context.way.set(parse_cards(question["banker_cards"], 7),
                               context.table.wheel)

    def probe(self, question: dict[str, Any]) -> dict[str, Any]:
        """Return a well-formed answer to a step (to learn the key when the clock ran out)."""
        step = question.get("step")
        if step == "action":
            return {"seat": 1}
        if step == "banker":
            return {"front": list(question["banker_cards"][:2])}
        probe: dict[str, Any] = {"order": []}
        if question["banker_seat"] != DEALER_SEAT:
            probe["banker_commission_cents"] = 0
        if question.get("side_bet"):
            envy = {"envy_paid_cents": 0} if question["side_bet"].get("envy") else {}
            probe["side"] = [{"seat": p["seat"], "bonus_paid_cents": 0, **envy}
                             for p in question["players"] if p.get("bonus_cents")]
        return probe

    def answer_schema(self, question: dict[str, Any], context: DrillContext | None) -> Schema:
        """Return the shape of the step's answer.

        ``action``: ``{"seat": 1..7}``; ``banker``: ``{"front": [two of the banker's
        seven]}``; ``settle``: ``{"order": [{"seat", "action": "take"}, {"seat",
        "action": "pay", "paid_cents"}, ...]}`` naming each seat with a hand at most
        once, plus ``banker_commission_cents`` when a player banks (and only then).
        """
        step = question.get("step")
        if step == "action":
            return Fields({"seat": Whole(1, POSITIONS, N_("Pick one of the seven seats (1-7)."))})
        if step == "banker":
            return Fields({"front": Cards(2, question["banker_cards"], Message(N_("front")))})
        if step != "settle":
            raise refusal(N_("This round question has no step."))
        seats = [p["seat"] for p in question["players"]]

        def entry_rules(entry: dict[str, Any]) -> None:
            if entry["seat"] not in seats:
                raise refusal(N_("Settle only the seats that have a hand."))
            paid = entry.get("paid_cents")
            if entry["action"] == "pay" and paid is None:
                raise refusal(N_("Seat %(seat)s: enter the amount paid, in cents, "
                                 "as a whole number."), seat=entry["seat"])
            if entry["action"] == "take" and paid is not None:
                raise refusal(N_("Seat %(seat)s: a bet that is taken is not paid."),
                              seat=entry["seat"])

        def once_each(answer: dict[str, Any]) -> None:
            settled: list[int] = []
            for entry in answer["order"]:
                if entry["seat"] in settled:
                    raise refusal(N_("Seat %(seat)s is settled twice."), seat=entry["seat"])
                settled.append(entry["seat"])

        entry = Fields(
            {"seat": Whole(1, POSITIONS, N_("Settle only the seats that have a hand.")),
             "action": OneOf(("take", "pay"),
                             N_("Each seat you settle: take the bet or pay it."))},
            {"paid_cents": Maybe(Whole(0, MAX_CENTS, Message(
                N_("Enter each amount paid in whole cents, up to %(most)s."), most=MAX_CENTS)))},
            then=entry_rules)
        fields: dict[str, Schema] = {"order": ListOf(
            entry, 0, POSITIONS, Message(N_("Settle each seat at most once: a table has "
                                            "%(seats)s seats."), seats=POSITIONS))}
        if question["banker_seat"] != DEALER_SEAT:
            fields["banker_commission_cents"] = Whole(
                0, MAX_CENTS, N_("Enter the commission the player-banker pays, in cents."))
        side = question.get("side_bet")
        if side:
            # One entry per seat with a side bet, in seat order: its pay, and its envy.
            fields["side"] = Each(
                [side_fields_schema(side, p["bonus_cents"], p["seat"])
                 for p in question["players"] if p.get("bonus_cents")],
                N_("Pay the side bets of all %(wanted)s seats that have one; "
                   "%(given)s were answered."))
        return Fields(fields, then=once_each)

    def rule_of(self, question: dict[str, Any], context: DrillContext) -> str:
        """Return the rule id the step tests.

        ``round.action``, ``round.banker.<family>`` or ``round.settle``.
        """
        step = question.get("step")
        player_banker = question["banker_seat"] != DEALER_SEAT
        if step == "action":
            return "round.action.player-banker" if player_banker else "round.action"
        if step == "banker":
            return "round.banker." + rule_family(self._banker_key(question, context).rule)
        if step == "settle":
            return "round.settle.player-banker" if player_banker else "round.settle"
        raise ValueError("This round question has no step.")

    def hint(self, rule_id: str, question: dict[str, Any] | None = None,
             context: DrillContext | None = None) -> Text:
        """Return the step's hint; the banker's step says what the group's house way does
        with the banker's hand (its deciding rule in words, ``explain.way_hint``)."""
        if (rule_id.startswith("round.banker.") and question is not None
                and context is not None and "banker_cards" in question):
            way = context.way
            decided = way.set(parse_cards(question["banker_cards"], 7), context.table.wheel).rule
            return rule_hint(rule_id, way, decided)
        return rule_hint(rule_id)

    def grade(self, question: dict[str, Any], answer: dict[str, Any], context: DrillContext) -> Grade:
        """Grade one step of the round."""
        answer = self.validate_answer(question, answer, context)
        step = question.get("step")
        if step == "action":
            return self._grade_action(question, answer, context)
        if step == "banker":
            return self._grade_banker(question, answer, context)
        if step == "settle":
            return self._grade_settle(question, answer, context)
        raise ValueError("This round question has no step.")

    def _grade_action(self, question: dict[str, Any], answer: dict[str, Any], context: DrillContext) -> Grade:
        seat = answer["seat"]
        total, banker_seat = sum(question["dice"]), question["banker_seat"]
        position = action_position(total)
        right = table_position(banker_seat, position)
        occupied_positions = [position_of_seat(s, banker_seat) for s in question["occupied"]]
        piles = []
        for pile, pos in deal_order(total, occupied_positions):
            piles.append({"pile": pile + 1,
                          "seat": table_position(banker_seat, pile_order(total)[pile]),
                          "dead": pos is None})
        dead = [p["seat"] for p in piles if p["dead"]]
        text = Joined((
            Message(N_("Dice total %(total)s: count %(position)s counter-clockwise from the "
                       "banker (seat %(banker)s is 1), so seat %(seat)s gets the first pile "
                       "and the rest follow counter-clockwise."),
                    total=total, position=position, banker=banker_seat, seat=right),
            Message(N_("Dead piles (empty seats): %(seats)s."), seats=Joined(dead, ", "))
            if dead else Message(N_("No seat is empty, so no pile is dead.")),
            Message(N_("The four cards left over are never used."))))
        return Grade(seat == right, self.rule_of(question, context),
                     {"seat": right, "position": position, "piles": piles}, text)

    def _grade_banker(self, question: dict[str, Any], answer: dict[str, Any], context: DrillContext) -> Grade:
        cards = question["banker_cards"]
        front = parse_cards(answer["front"], 2)
        seven = parse_cards(cards, 7)
        back = tuple(c for c in seven if c not in front)
        key = self._banker_key(question, context)
        wheel = context.table.wheel
        correct = same_value(back, front, key.back, key.front, wheel)
        return Grade(correct, self.rule_of(question, context), key.as_dict(),
                     setting_explanation(key, not correct and is_foul(back, front, wheel)))

    def settle_all(self, question: dict[str, Any], context: DrillContext) -> list[Settlement]:
        """Settle every player's hand (and the dealer's, when a player banks) against the banker."""
        banker = question["banker"]
        bb, bf = parse_cards(banker["back"], 5), parse_cards(banker["front"], 2)
        return [settle(parse_cards(p["back"], 5), parse_cards(p["front"], 2), bb, bf,
                       p["bet_cents"], context.table, context.way)
                for p in question["players"]]

    def _grade_settle(self, question: dict[str, Any], answer: dict[str, Any], context: DrillContext) -> Grade:
        order = answer["order"]
        players = question["players"]
        seats = [p["seat"] for p in players]
        settled = dict(zip(seats, self.settle_all(question, context), strict=True))
        bets = {p["seat"]: p["bet_cents"] for p in players}
        given: list[tuple[int, str, int | None]] = []
        for entry in order:
            action = entry["action"]
            given.append((entry["seat"], action,
                          entry.get("paid_cents") if action == "pay" else None))
        player_banker = question["banker_seat"] != DEALER_SEAT
        banker_paid = answer.get("banker_commission_cents") if player_banker else None

        losers = [s for s in seats if settled[s].outcome is Result.LOSE]
        winners = [s for s in seats if settled[s].outcome is Result.WIN]
        pays = {s: payout_cents(bets[s], context.table) for s in winners}
        actions = {s: a for s, a, _ in given}
        errors: list[str] = []
        parts = []
        for seat in seats:
            s = settled[seat]
            want = {"lose": "take", "win": "pay", "push": None}[s.outcome.value]
            ok = actions.get(seat) == want
            if ok and want == "pay":
                paid = next(p for g, _, p in given if g == seat)
                if paid != pays[seat]:
                    ok = False
                    errors.append("round.settle.amount")
            elif not ok:
                errors.append("round.settle.outcome")
            part = {"seat": seat, "correct": ok, "outcome": s.outcome.value,
                    "paid_cents": pays.get(seat), "commission_cents": s.commission_cents,
                    "back": s.back.value, "front": s.front.value, "fouled": s.fouled}
            if s.reset_back is not None:
                part["reset"] = {"back": card_list(s.reset_back),
                                 "front": card_list(s.reset_front), "rule": s.reset_rule}
            parts.append(part)
        kinds = [a for _, a, _ in given]
        if "take" in kinds and "pay" in kinds and (
                max(i for i, k in enumerate(kinds) if k == "take")
                > min(i for i, k in enumerate(kinds) if k == "pay")):
            errors.append("round.settle.order")
        correct_answer: dict[str, Any] = {
            "order": [{"seat": s, "action": "take"} for s in losers]
            + [{"seat": s, "action": "pay", "paid_cents": pays[s]} for s in winners],
            "pushes": [s for s in seats if settled[s].outcome is Result.PUSH],
        }
        if player_banker:
            bank = sum(bets[s] for s in losers) - sum(bets[s] for s in winners)
            commission = banker_commission_cents(max(bank, 0), context.table)
            correct_answer["banker_net_cents"] = bank
            correct_answer["banker_commission_cents"] = commission
            if banker_paid != commission:
                errors.append("round.settle.banker-commission")
        priority = ("round.settle.outcome", "round.settle.order", "round.settle.amount",
                    "round.settle.banker-commission")
        right = sum(p["correct"] for p in parts)
        text: list[Message] = [Message(N_(
            "%(right)s of %(count)s seats settled right. Losers are taken first, then winners "
            "are paid net of commission; pushes are left in place."), right=right, count=len(parts))]
        keys = self.side_keys(question, context)
        side_missed: list[str] = []
        if keys:
            side_parts = graded_parts(keys, {e["seat"]: e for e in answer.get("side", [])})
            side_missed = [p["rule_id"] for p in side_parts if not p["correct"]]
            parts += side_parts
            correct_answer["side"] = [{"seat": k["seat"], **key_answer(k)} for k in keys]
            text.append(Message(N_("%(right)s of %(count)s side-bet payments right (side bets "
                                   "are against the house)."),
                                right=sum(p["correct"] for p in side_parts), count=len(side_parts)))
        rule_id = (min(errors, key=priority.index) if errors
                   else side_missed[0] if side_missed else self.rule_of(question, context))
        errors += side_missed
        if "round.settle.order" in errors:
            text.append(Message(N_("A winner was paid before every loser was taken.")))
        note = queen_high_message(question["banker"], context)
        if note is not None:
            text.append(note)
        if player_banker:
            text.append(Message(N_("The bank's net is %(net)s; its commission is %(commission)s."),
                                net=Money(correct_answer["banker_net_cents"], sign_inside=True),
                                commission=Money(correct_answer["banker_commission_cents"])))
        return Grade(not errors, rule_id, correct_answer, Joined(text), tuple(parts))

    def side_keys(self, question: dict[str, Any], context: DrillContext) -> list[dict[str, Any]]:
        """Return the key of each seat's side bet at the settle step (none without side bets).

        The house banks: the banker's hand is the dealer's. A player banks: the
        banker's hand is a player's (it pays envy) and seat 1 is the dealer's.
        """
        side = question.get("side_bet")
        if not side:
            return []
        banker = parse_cards(question["banker"]["back"] + question["banker"]["front"], 7)
        player_banker = question["banker_seat"] != DEALER_SEAT
        betting = [p for p in question["players"] if p["seat"] != DEALER_SEAT]
        dealer = next((p for p in question["players"] if p["seat"] == DEALER_SEAT), None)
        dealer_seven = (parse_cards(dealer["back"] + dealer["front"], 7)
                        if player_banker and dealer is not None else banker)
        return settle_side(side, [p["seat"] for p in betting],
                           [parse_cards(p["back"] + p["front"], 7) for p in betting],
                           [p.get("bonus_cents") or 0 for p in betting], context.table,
                           banker, others=[banker] if player_banker else (),
                           dealer_seven=dealer_seven)

    # --- feedback in words -----------------------------------------------------

    def feedback(self, question: dict[str, Any], answer: dict[str, Any] | None,
                 context: DrillContext, grade: Grade | None = None,
                 timed_out: bool = False) -> Feedback:
        """Word one step: the seat called, the banker's hand set, or every part of the settling."""
        grade = grade or self.grade(question, answer or self.probe(question), context)
        step = question.get("step")
        if step == "action":
            return action_feedback(question, answer, grade, timed_out)
        if step == "banker":
            return set_hand_feedback(question["banker_cards"], answer, grade, context, timed_out,
                                     rule_id=grade.rule_id)
        return self._settle_feedback(question, answer, grade, context, timed_out)

    def _settle_feedback(self, question: dict[str, Any], answer: dict[str, Any] | None,
                         grade: Grade, context: DrillContext, timed_out: bool) -> Feedback:
        """List each seat, the order of settling and the player-banker's commission, right or wrong."""
        order = answer["order"] if answer is not None else []
        done = {e["seat"]: e for e in order}
        seven = parse_cards(question["banker"]["back"] + question["banker"]["front"], 7)
        queen = context.table.no_commission and is_queen_high_pai_gow(seven)
        parts: list[Part] = []
        for part in grade.parts:
            if is_side_part(part):
                continue
            entry = done.get(part["seat"])
            given: dict[str, Any] = {"outcome": "push"}
            if entry is not None:
                given = ({"outcome": "lose"} if entry["action"] == "take"
                         else {"outcome": "win", "paid_cents": entry.get("paid_cents")})
            if answer is None:
                given = {}
            parts.append(seat_part(part, given, context, queen, timed_out))
        key = grade.correct_answer
        kinds = [e["action"] for e in order]
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
        if "banker_commission_cents" in key:
            paid = answer.get("banker_commission_cents") if answer is not None else None
            right = key["banker_commission_cents"]
            net = key["banker_net_cents"]
            values = {"net": amount(net), "rate": rate_message(context.table),
                      "amount": amount(right)}
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
        side = question.get("side_bet")
        if side:
            parts += side_feedback_parts([p for p in grade.parts if is_side_part(p)], side,
                                         answer is not None, timed_out)
        return parts_feedback(tuple(parts), answer is not None, grade.correct, grade.rule_id,
                              grade.explanation, timed_out)
