"""The progressive is paid "for 1" (docs/rules.md §12, docs/side-bets.md "Side-bet rules 2").

The dealer collects every $1 progressive wager when the cards are dealt: a winning hand
is paid the table's amount (or the meter's share) and no $1 is returned; a losing one
was already collected. Every other side bet is still paid "to 1". The house edges the
rule book gives (52.71% / 38.81% / 15.65% at meters $10,000 / $25,000 / $50,000 for the
example amounts, Queen's Dragon 10.02%) follow from the engine's exact counts. Questions
dealt under side-bet rules 1 (the progressive paid "to 1", its wager returned) replay
and grade as they did.
"""
from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest
from click.testing import CliRunner

from trainer.cli import cli
from trainer.cli.engine import register
from trainer.engine import side_bets
from trainer.engine.bonus_settlement import settle_bonus, settle_round_bonuses
from trainer.engine.cards import parse_cards
from trainer.engine.drills import DrillContext, get_drill, new_question
from trainer.engine.drills.codec import to_json
from trainer.engine.drills.kinds import bonus
from trainer.engine.side_bets import bonus_category, counts, load_table
from trainer.engine.side_bets.counts import ALL_HANDS, category_counts, house_edge

register(cli)

PROGRESSIVE = "nevada-progressive"
ROYAL = parse_cards("As Ks Qs Js Ts 4h 2d", 7)
NOTHING = parse_cards("As Kd 9s 7h 5c 3d 2h", 7)
BONUS = get_drill(bonus.SLUG)
# A context as every session stored it before side-bet rules 2: no ``side_bet_rules``.
OLD_CONTEXT = {"house_way": "trump-plaza", "profile": PROGRESSIVE, "foul_policy": "lose",
               "focus_rules": [], "generator": 2}


def edge_output(*args: str) -> str:
    result = CliRunner().invoke(cli, ["bonus", "edge", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_progressive_is_paid_for_one_the_wager_collected_at_the_deal() -> None:
    table = load_table("progressive")
    assert table.payment is side_bets.Payment.FOR_ONE and table.for_one
    royal = settle_bonus(ROYAL, 100, PROGRESSIVE, meter_cents=1_000_000)
    # Paid the table's amount; the $1 collected at the deal is not returned.
    assert (royal.rule_id, royal.win_cents, royal.paid_cents) == (
        "bonus.progressive.royal-flush", 32_500, 32_500)
    assert royal.net_cents == 32_500 - 100 and royal.collected_at_deal
    lost = settle_bonus(NOTHING, 100, PROGRESSIVE, meter_cents=1_000_000)
    assert (lost.paid_cents, lost.net_cents) == (0, -100)
    # The house keeps every progressive wager, a winner's too, and pays the amount.
    table_round = settle_round_bonuses([ROYAL, NOTHING], [100, 100], PROGRESSIVE,
                                       meter_cents=1_000_000)
    assert table_round.house_takes_cents == 200
    assert table_round.house_pays_cents == 32_500
    assert table_round.house_net_cents == -(royal.net_cents + lost.net_cents)
    # Every other side bet is still paid "to 1": the stake stays beside the win.
    fortune = settle_bonus(ROYAL, 500, "nevada-fortune")
    assert not fortune.collected_at_deal and fortune.net_cents == fortune.paid_cents == 500 * 150
    # The command line's settlement says so too: the seat is up $49 on four of a kind.
    out = CliRunner().invoke(cli, [
        "settle", "--player-back", "8h 8d 8c 8s 2h", "--player-front", "Kc 3d",
        "--banker-back", "9c 9d 4h 5c 6d", "--banker-front", "2c 3c", "--bet-cents", "1000",
        "--profile", PROGRESSIVE, "--side-bet-cents", "100", "--meter-cents", "2500000"])
    answer = json.loads(out.stdout)
    assert (answer["side_bet"]["paid_cents"], answer["side_bet"]["net_cents"]) == (5_000, 4_900)
    assert answer["side_bet"]["payment"] == "for-one"
    assert answer["total_net_cents"] == answer["net_cents"] + 4_900
    # Under side-bet rules 1 the progressive returned the $1 to a winner.
    before = settle_bonus(ROYAL, 100, PROGRESSIVE, meter_cents=1_000_000, rules=1)
    assert (before.paid_cents, before.net_cents) == (32_500, 32_500)


def _edge_worked_here(meter_cents: int) -> Fraction:
    """The edge from the exact counts and the table's amounts, the stake never returned."""
    table = load_table("progressive")
    total = Fraction(0)
    for category, hands in category_counts("ace-king").items():
        line = table.line_for(category)
        if line is None:
            total -= hands * 100
        elif line.meter_percent is not None:
            total += hands * (meter_cents * line.meter_percent // 100 - 100)
        else:
            total += hands * ((line.amount_cents or 0) - 100)
    return -total / (ALL_HANDS * 100)


@pytest.mark.parametrize(("meter_dollars", "book"), [(10_000, "52.71"), (25_000, "38.81"),
                                                     (50_000, "15.65")])
def test_progressive_edge_at_each_meter_matches_the_rule_book(meter_dollars: int, book: str) -> None:
    edge = house_edge("progressive", meter_dollars * 100)
    assert edge == _edge_worked_here(meter_dollars * 100)
    assert f"{float(edge) * 100:.2f}" == book
    # "For 1" costs the player the $1 on every winning hand: the edge rises by P(win).
    winning = sum(n for c, n in category_counts("ace-king").items()
                  if load_table("progressive").line_for(c) is not None)
    before = house_edge(load_table("progressive", 1), meter_dollars * 100)
    assert edge - before == Fraction(winning, ALL_HANDS)
    out = edge_output("progressive", "--meter", str(meter_dollars))
    row = next(line for line in out.splitlines() if line.startswith("progressive "))
    assert row.split()[-1] == f"{book}%" and "(for 1)" in row


def _queen_high_by_hand() -> int:
    """Queen-high pai gows counted another way: rank sets with no straight, times suitings."""
    lower = range(10)   # deuce .. jack (rank indexes 0..9); the queen is 10
    rank_sets = [set(s) | {10} for s in combinations(lower, 6)]
    no_straight = [r for r in rank_sets
                   if not any(all(x in r for x in range(low, low + 5)) for low in range(7))]
    # Four suits for seven cards, less those with five or more in one suit (a flush).
    suitings = 4 ** 7 - 4 * sum(comb(7, k) * 3 ** (7 - k) for k in (5, 6, 7))
    return len(no_straight) * suitings


def test_queens_dragon_edge_is_the_rule_books() -> None:
    assert counts.queen_high_count() == _queen_high_by_hand() == 2_719_500
    edge = house_edge("queens-dragon")
    hits = counts.queen_high_count()
    assert edge == Fraction(ALL_HANDS - hits - 50 * hits, ALL_HANDS)
    assert f"{float(edge) * 100:.2f}" == "10.02"
    out = edge_output("queens-dragon")
    row = next(line for line in out.splitlines() if line.startswith("queens-dragon "))
    assert row.split()[-1] == "10.02%" and "2,719,500 of 154,143,080" in out


def _paying_seed(context: DrillContext) -> tuple[int, bonus.BonusQuestion]:
    for seed in range(400):
        question = new_question(bonus.SLUG, seed, context)
        seven = question.seven()
        category = bonus_category(seven, "ace-king")
        line = load_table("progressive").line_for(category)
        if line is not None and line.amount_cents is not None:
            return seed, question
    raise AssertionError("no fixed-amount progressive hand in 400 seeds")


def test_attempt_graded_before_keeps_its_grade() -> None:
    old_context = DrillContext.from_dict(OLD_CONTEXT)
    assert old_context.side_bet_rules == 1
    seed, new = _paying_seed(DrillContext(profile=PROGRESSIVE))
    old = new_question(bonus.SLUG, seed, old_context)
    # The same cards, bet and meter; only the new question records its "for 1" payment.
    new_row, old_row = BONUS.question_json(new), BONUS.question_json(old)
    assert {k: v for k, v in new_row.items() if k != "payment"} == old_row
    assert new_row["payment"] == "for-one" and "payment" not in old_row
    key = BONUS.grade(old, BONUS.probe(old), old_context).correct_answer
    old_grade = BONUS.grade(old, key, old_context)
    assert old_grade.correct and "and the bet stays" in str(old_grade.explanation)
    assert "for 1" not in str(old_grade.explanation)
    # The new rule: the amount paid is the same, the wager is collected at the deal.
    new_context = DrillContext.from_dict(DrillContext(profile=PROGRESSIVE).as_dict())
    assert new_context.side_bet_rules == side_bets.SIDE_BET_RULES == 2
    new_grade = BONUS.grade(new, key, new_context)
    assert new_grade.correct and new_grade.correct_answer == old_grade.correct_answer
    assert "for 1" in str(new_grade.explanation)
    assert "collected when the cards were dealt, is not returned" in str(new_grade.explanation)


def test_a_progressive_teaching_sentence_says_the_rule_it_was_graded_by() -> None:
    seed, question = _paying_seed(DrillContext(profile=PROGRESSIVE))
    context = DrillContext(profile=PROGRESSIVE)
    key = BONUS.grade(question, BONUS.probe(question), context).correct_answer
    feedback = BONUS.feedback(question, key, context)
    line = load_table("progressive").line_for(bonus_category(question.seven(), "ace-king"))
    assert line is not None and key.paid_cents == line.amount_cents
    amount = f"${(line.amount_cents or 0) / 100:,.2f}"
    assert str(feedback.why) == (f"{line.name} pays a fixed {amount} for 1: {amount}, and the $1 "
                                 "bet, collected when the cards were dealt, is not returned.")
    # At a settled table too: the seat's sentence says "for 1" and that the bet was collected.
    settle = get_drill("settlement")
    for seed in range(400):
        q = new_question("settlement", seed, context)
        grade = settle.grade(q, settle.probe(q), context)
        paid = [p for p in to_json(list(grade.parts)) if p.get("part") == "bonus" and p["paid_cents"]]
        if paid:
            break
    else:
        raise AssertionError("no paying progressive seat in 400 settlement questions")
    assert settle.question_json(q)["side_bet"]["payment"] == "for-one"
    fb = settle.feedback(q, settle.probe(q), context, grade)
    said = [str(p.why) for p in fb.parts if "bonus" in p.name and "for 1" in str(p.why)]
    assert said and all("bet was collected when the cards were dealt" in s for s in said)
    # The same question as dealt under rules 1 says the bet stays, as it did then.
    old_context = DrillContext.from_dict({**OLD_CONTEXT, "profile": PROGRESSIVE})
    old_q = new_question("settlement", seed, old_context)
    assert "payment" not in settle.question_json(old_q)["side_bet"]
    old_grade = settle.grade(old_q, settle.probe(old_q), old_context)
    assert [p for p in to_json(list(old_grade.parts)) if p.get("part") == "bonus"] == [
        p for p in to_json(list(grade.parts)) if p.get("part") == "bonus"]
    old_fb = settle.feedback(old_q, settle.probe(old_q), old_context, old_grade)
    assert not any("for 1" in str(p.why) for p in old_fb.parts)


def test_a_context_with_unknown_side_bet_rules_is_refused() -> None:
    with pytest.raises(ValueError, match="side-bet rules"):
        DrillContext.from_dict({**OLD_CONTEXT, "side_bet_rules": 7})
    with pytest.raises(ValueError, match="side-bet rules"):
        load_table("progressive", 0)

