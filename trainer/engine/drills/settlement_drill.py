"""The ``settlement`` drill: settle a whole table against the banker."""
from __future__ import annotations

import random

from ..cards import Card, card_list, parse_cards
from ..hands import Outcome, rank2, rank5
from ..house_way import load
from ..setting import is_foul, splits
from ..settlement import Result, is_queen_high_pai_gow, payout_cents, settle
from .base import Drill, DrillContext, Grade, register, require

CASES = {"win": 4, "push": 4, "lose": 4, "copy": 3, "foul": 2}
BETS_DOLLARS = (2, 5, 5, 10, 13, 15, 20, 20, 25, 25, 33, 40, 50, 55, 75, 100)
# The order in which a table's hardest case names the whole question's rule.
PRIORITY = ("settlement.queen-high", "settlement.foul", "settlement.copy-push",
            "settlement.copy-lose", "settlement.push", "settlement.win",
            "settlement.lose")


def position_rule(s, queen_high: bool) -> str:
    """Name the settlement rule that applies to one settled position."""
    if s.fouled and s.reset_back is None:
        return "settlement.foul"
    if queen_high and s.back is Outcome.WIN and s.front is Outcome.WIN:
        return "settlement.queen-high"
    if Outcome.COPY in (s.back, s.front):
        return "settlement.copy-push" if s.outcome is Result.PUSH else "settlement.copy-lose"
    return f"settlement.{s.outcome.value}"


def _queen_high_banker(rng: random.Random) -> list[int]:
    for _ in range(500):
        ranks = [10] + rng.sample(range(10), 6)   # queen (index 10) + six lower ranks
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

    def generate(self, rng: random.Random, context: DrillContext) -> dict:
        """Deal the banker (set the house way) and two to six players."""
        table = context.table
        way = load(context.house_way)
        wheel = table.wheel
        if table.no_commission and rng.random() < 0.3:
            banker_seven = _queen_high_banker(rng)
        else:
            banker_seven = rng.sample(range(53), 7)
        banker = way.set(banker_seven, wheel)
        used = set(banker_seven)
        n = rng.randint(2, 6)
        seats = sorted(rng.sample(range(2, 8), n))
        limits = [d * 100 for d in BETS_DOLLARS
                  if table.min_bet_cents <= d * 100 <= table.max_bet_cents]
        positions = []
        for seat in seats:
            case = rng.choices(list(CASES), weights=list(CASES.values()))[0]
            back, front = self._player(rng, case, used, banker, way, wheel)
            used.update(back + front)
            positions.append({"seat": seat, "back": card_list(back),
                              "front": card_list(front),
                              "bet_cents": rng.choice(limits or [table.min_bet_cents])})
        return {"banker": {"back": card_list(banker.back),
                           "front": card_list(banker.front)},
                "positions": positions}

    def _player(self, rng, case, used, banker, way, wheel):
        deck = [c for c in range(53) if c not in used]
        best = None
        for _ in range(40):
            if case == "copy":
                ranks = sorted(c.rank for c in banker.front)
                pick = []
                for r in ranks:
                    options = [c for c in deck if Card(c).rank == r and c not in pick
                               and c != 52]
                    if not options:
                        break
                    pick.append(rng.choice(options))
                if len(pick) == 2:
                    rest = rng.sample([c for c in deck if c not in pick], 5)
                    if not is_foul(rest, pick, wheel):
                        return tuple(Card(c) for c in rest), tuple(Card(c) for c in pick)
                case = "push"
                continue
            seven = rng.sample(deck, 7)
            if case == "foul":
                fouled = [w for w in splits(seven) if is_foul(w.back, w.front, wheel)]
                if fouled:
                    w = rng.choice(fouled)
                    return w.back, w.front
                continue
            if rng.random() < 0.8:
                s = way.set(seven, wheel)
                back, front = s.back, s.front
            else:
                legal = [w for w in splits(seven) if not is_foul(w.back, w.front, wheel)]
                w = rng.choice(legal)
                back, front = w.back, w.front
            pb, bb = rank5(back, wheel), rank5(banker.back, wheel)
            pf, bf = rank2(front), rank2(banker.front)
            outcome = ("win" if pb > bb and pf > bf else
                       "lose" if (pb <= bb and pf <= bf) else "push")
            best = (back, front)
            if outcome == case:
                return best
        return best

    def settle_all(self, question: dict, context: DrillContext) -> list:
        """Settle every position of the question under the group's table rules."""
        table = context.table
        banker_back = parse_cards(question["banker"]["back"], 5)
        banker_front = parse_cards(question["banker"]["front"], 2)
        return [settle(parse_cards(p["back"], 5), parse_cards(p["front"], 2),
                       banker_back, banker_front, p["bet_cents"], table,
                       context.house_way)
                for p in question["positions"]]

    def _rules(self, question: dict, context: DrillContext, settled) -> list[str]:
        seven = parse_cards(question["banker"]["back"] + question["banker"]["front"], 7)
        queen = context.table.no_commission and is_queen_high_pai_gow(seven)
        return [position_rule(s, queen) for s in settled]

    def rule_of(self, question: dict, context: DrillContext) -> str:
        """Return the hardest settlement rule the table shows."""
        rules = self._rules(question, context, self.settle_all(question, context))
        return min(rules, key=PRIORITY.index)

    def grade(self, question: dict, answer: dict, context: DrillContext) -> Grade:
        """Grade each position's outcome and, for winners, the amount paid."""
        given = require(answer, "positions", list)
        positions = question["positions"]
        if len(given) != len(positions):
            raise ValueError(f"Settle all {len(positions)} positions; "
                             f"{len(given)} were answered.")
        settled = self.settle_all(question, context)
        rules = self._rules(question, context, settled)
        parts, missed = [], []
        for pos, ans, s, rule in zip(positions, given, settled, rules):
            if not isinstance(ans, dict):
                raise ValueError("Each position's answer must be an object.")
            outcome = ans.get("outcome")
            if outcome not in ("win", "push", "lose"):
                raise ValueError(f"Seat {pos['seat']}: mark it win, push or lose.")
            paid = ans.get("paid_cents")
            if outcome == "win":
                if isinstance(paid, bool) or not isinstance(paid, int) or paid < 0:
                    raise ValueError(f"Seat {pos['seat']}: enter the amount paid, in "
                                     "cents, as a whole number.")
            right_paid = payout_cents(pos["bet_cents"], context.table) \
                if s.outcome is Result.WIN else None
            ok = outcome == s.outcome.value and (outcome != "win" or paid == right_paid)
            if not ok:
                missed.append(rule)
            part = {"seat": pos["seat"], "correct": ok, "rule_id": rule,
                    "outcome": s.outcome.value, "paid_cents": right_paid,
                    "back": s.back.value, "front": s.front.value, "fouled": s.fouled,
                    "commission_cents": s.commission_cents}
            if s.reset_back is not None:
                part["reset"] = {"back": card_list(s.reset_back),
                                 "front": card_list(s.reset_front),
                                 "rule": s.reset_rule}
            parts.append(part)
        rule_id = missed[0] if missed else min(rules, key=PRIORITY.index)
        right = sum(p["correct"] for p in parts)
        return Grade(
            correct=not missed,
            rule_id=rule_id,
            correct_answer={"positions": [{"seat": p["seat"], "outcome": p["outcome"],
                                           "paid_cents": p["paid_cents"]}
                                          for p in parts]},
            explanation=f"{right} of {len(parts)} positions settled right.",
            parts=tuple(parts),
        )
