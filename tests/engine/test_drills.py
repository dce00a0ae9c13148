"""Drill kinds: reproducible generation, coverage of rule families, fair grading."""
from collections import Counter

import pytest

from trainer.engine.cards import parse_cards
from trainer.engine.drills import DRILLS, DrillContext, get_drill, new_question
from trainer.engine.drills.dealing import HOUSE_WAY_FAMILIES
from trainer.engine.drills.kinds.action import ActionQuestion
from trainer.engine.drills.kinds.foul_check import BOUNDARY_RULES, FoulAnswer, FoulQuestion
from trainer.engine.drills.kinds.hand_reading import ReadingAnswer, ReadingQuestion
from trainer.engine.drills.kinds.house_way import SetAnswer, SetQuestion
from trainer.engine.drills.kinds.settlement import settle_all
from trainer.engine.hands import Category, evaluate
from trainer.engine.house_way import load
from trainer.engine.profiles import FoulPolicy
from trainer.engine.setting import splits

CTX = DrillContext()


def _value(cards):
    """A hand's value as the rule book defines it: category and ranks."""
    v = evaluate(cards)
    return v.category, v.ranks


@pytest.mark.parametrize("slug", sorted(DRILLS))
def test_generation_replays_from_the_seed(slug):
    for seed in (1, 99, 2**40 + 3):
        assert new_question(slug, seed, CTX) == new_question(slug, seed, CTX)
    assert new_question(slug, 1, CTX) != new_question(slug, 2, CTX)


def test_unknown_drill_is_refused():
    with pytest.raises(ValueError, match="no drill called"):
        get_drill("poker")


def _sample(slug, n=1000, ctx=CTX):
    drill = get_drill(slug)
    return drill, [new_question(slug, seed, ctx) for seed in range(n)]


def test_house_way_drill_meets_every_rule_family():
    drill, questions = _sample("house-way")
    families = Counter(drill.key(q, CTX).family for q in questions)
    jokers = sum("JK" in q.cards for q in questions)
    expected = set(HOUSE_WAY_FAMILIES) - {"joker"}
    assert expected <= set(families), expected - set(families)
    assert jokers >= 100
    # Weighted, not plain deals: no pair and one pair are a minority.
    assert families["pai-gow"] + families["one-pair"] < 300


def test_house_way_drill_accepts_every_equivalent_setting():
    drill = get_drill("house-way")
    way = load(CTX.house_way)
    for seed in range(60):
        q = new_question("house-way", seed, CTX)
        key = way.set(parse_cards(q.cards, 7))
        for w in splits(parse_cards(q.cards, 7)):
            g = drill.grade(q, SetAnswer(front=tuple(str(c) for c in w.front)), CTX)
            same = (_value(w.back) == _value(key.back)
                    and _value(w.front) == _value(key.front))
            assert g.correct == same, (q, w)
            assert g.rule_id == key.rule


def test_house_way_drill_choice_between_equal_ranks_is_not_an_error():
    q = SetQuestion(cards=("Kh", "Kd", "Ks", "9c", "9s", "9h", "2d"))
    drill = get_drill("house-way")
    assert load(CTX.house_way).set(parse_cards(q.cards)).rule == "two-trips.high-pair-front"
    # Any two of the three kings make the same front.
    for front in (("Kh", "Kd"), ("Kd", "Ks"), ("Ks", "Kh")):
        assert drill.grade(q, SetAnswer(front=front), CTX).correct
    assert not drill.grade(q, SetAnswer(front=("9c", "9s")), CTX).correct


@pytest.mark.parametrize("answer, message", [
    ({}, "missing 'front'"),
    ({"front": ["Kh"]}, "2 cards; 1 were given"),
    ({"front": ["Kh", "Kh"]}, "Kh appears twice"),
    ({"front": ["Ah", "Kd"]}, "Ah is not one of this hand's cards"),
    ({"front": ["Zz", "Kd"]}, "Zz is not a card"),
    ({"front": "Kh Kd"}, "wrong form"),
])
def test_house_way_drill_rejects_malformed_answers(answer, message):
    q = SetQuestion(cards=("Kh", "Kd", "9c", "9s", "5h", "3c", "2d"))
    with pytest.raises(ValueError, match=message):
        get_drill("house-way").read_answer(q, answer, CTX)
    # An answer made in code is checked the same way when it is graded.
    if isinstance(answer.get("front"), list):
        with pytest.raises(ValueError, match=message):
            get_drill("house-way").grade(q, SetAnswer(front=tuple(answer["front"])), CTX)


def test_house_way_drill_marks_a_wrong_setting_wrong():
    q = SetQuestion(cards=("Kh", "Kd", "9c", "9s", "5h", "3c", "2d"))
    g = get_drill("house-way").grade(q, SetAnswer(front=("3c", "2d")), CTX)
    assert not g.correct
    assert g.correct_answer.rule == g.rule_id


def test_settlement_drill_meets_every_case():
    drill, questions = _sample("settlement", 400)
    rules = Counter()
    for q in questions:
        g = drill.grade(q, _right_settlement(drill, q), CTX)
        assert g.correct
        rules.update(p.rule_id for p in g.parts)
        assert 2 <= len(q.positions) <= 6
    for rule in ("settlement.win", "settlement.push", "settlement.lose",
                 "settlement.copy-push", "settlement.copy-lose", "settlement.foul"):
        assert rules[rule] >= 40, rules


def test_settlement_drill_queen_high_appears_under_no_commission():
    ctx = DrillContext(profile="no-commission")
    drill, questions = _sample("settlement", 200, ctx)
    rules = Counter(p.rule_id for q in questions
                    for p in drill.grade(q, _right_settlement(drill, q, ctx), ctx).parts)
    assert rules["settlement.queen-high"] > 0


def _right_settlement(drill, q, ctx=CTX):
    settled = settle_all(q, ctx)
    from trainer.engine.settlement import payout_cents
    return {"positions": [
        {"outcome": s.outcome.value,
         "paid_cents": payout_cents(p.bet_cents, ctx.table)
         if s.outcome.value == "win" else None}
        for p, s in zip(q.positions, settled, strict=True)]}


def test_settlement_drill_grades_each_position_and_amount():
    drill = get_drill("settlement")
    for seed in range(200):
        q = new_question("settlement", seed, CTX)
        right = _right_settlement(drill, q)
        winners = [i for i, p in enumerate(right["positions"]) if p["outcome"] == "win"]
        if winners:
            break
    wrong_amount = {"positions": [dict(p) for p in right["positions"]]}
    wrong_amount["positions"][winners[0]]["paid_cents"] += 5
    g = drill.grade(q, wrong_amount, CTX)
    assert not g.correct
    assert [p.correct for p in g.parts].count(False) == 1
    wrong_outcome = {"positions": [dict(p) for p in right["positions"]]}
    wrong_outcome["positions"][winners[0]] = {"outcome": "push"}
    assert not drill.grade(q, wrong_outcome, CTX).correct


@pytest.mark.parametrize("answer, message", [
    ({"positions": []}, "Settle all"),
    ({"positions": "win"}, "wrong form"),
])
def test_settlement_drill_rejects_malformed_answers(answer, message):
    q = new_question("settlement", 3, CTX)
    with pytest.raises(ValueError, match=message):
        get_drill("settlement").grade(q, answer, CTX)


def test_settlement_drill_requires_amount_for_a_winner():
    q = new_question("settlement", 3, CTX)
    n = len(q.positions)
    with pytest.raises(ValueError, match="amount paid"):
        get_drill("settlement").grade(q, {"positions": [{"outcome": "win"}] * n}, CTX)
    with pytest.raises(ValueError, match="win, push or lose"):
        get_drill("settlement").grade(q, {"positions": [{"outcome": "tie"}] * n}, CTX)


def test_action_drill_grades_the_seat_the_count_lands_on():
    drill, questions = _sample("action", 1000)
    rules = Counter(drill.rule_of(q, CTX) for q in questions)
    assert set(rules) == {"action.banker", "action.count", "action.player-banker"}
    q = ActionQuestion(dice=(3, 4, 1), banker_seat=1, occupied=(1, 2, 3))
    assert drill.grade(q, {"seat": 1}, CTX).correct          # 8 lands on the banker
    assert not drill.grade(q, {"seat": 2}, CTX).correct
    pb = ActionQuestion(dice=(1, 1, 2), banker_seat=5, occupied=(1, 5))
    assert drill.grade(pb, {"seat": 1}, CTX).correct         # 4 from seat 5: 5,6,7,1
    with pytest.raises(ValueError):
        drill.grade(q, {"seat": 9}, CTX)
    with pytest.raises(ValueError):
        drill.grade(q, {"seat": "one"}, CTX)


def test_hand_reading_meets_every_category_jokers_and_copies():
    drill, questions = _sample("hand-reading", 1000)
    rules = Counter(drill.rule_of(q, CTX) for q in questions)
    for cat in Category:
        assert any(r.startswith(f"reading.{cat.slug.replace('_', '-')}") for r in rules), cat
    assert sum(n for r, n in rules.items() if r.endswith(".joker")) >= 100
    assert rules["reading.copy.five"] > 0 and rules["reading.copy.two"] > 0
    assert rules["reading.compare.five"] > 0 and rules["reading.compare.two"] > 0


def test_hand_reading_grades_categories_and_winners():
    drill = get_drill("hand-reading")
    q = ReadingQuestion(mode="category", hand=("9h", "Td", "Jc", "Qs", "JK"))
    assert drill.grade(q, ReadingAnswer(category="straight"), CTX).correct
    assert not drill.grade(q, ReadingAnswer(category="high_card"), CTX).correct
    with pytest.raises(ValueError, match="not a hand category"):
        drill.grade(q, ReadingAnswer(category="wheel"), CTX)
    with pytest.raises(ValueError, match="does not take: 'winner'"):
        drill.read_answer(q, {"winner": "a"}, CTX)
    with pytest.raises(ValueError, match="not a hand category"):
        drill.read_answer(q, {}, CTX)
    c = ReadingQuestion(mode="compare", a=("As", "Kd"), b=("Ah", "Ks"))
    assert drill.grade(c, ReadingAnswer(winner="copy"), CTX).correct
    assert not drill.grade(c, ReadingAnswer(winner="a"), CTX).correct
    with pytest.raises(ValueError, match="Answer a, b or copy"):
        drill.grade(c, ReadingAnswer(winner="c"), CTX)
    with pytest.raises(ValueError, match="does not take: 'category'"):
        drill.read_answer(c, {"winner": "a", "category": "straight"}, CTX)


def test_foul_check_meets_fouled_boundary_and_legal_hands():
    drill, questions = _sample("foul-check", 1000)
    rules = Counter(drill.rule_of(q, CTX) for q in questions)
    for rule in ("foul.pair-over-no-pair", "foul.higher-pair-in-front",
                 "foul.higher-cards-in-front", "foul.legal.same-top-ranks",
                 "foul.legal.same-pair"):
        assert rules[rule] > 0, rules


def test_foul_check_grades_legal_and_fouled():
    drill = get_drill("foul-check")
    fouled = FoulQuestion(back=("Kh", "Jd", "9c", "7s", "3d"), front=("Kc", "Qd"))
    legal = FoulQuestion(back=("Th", "Td", "Jc", "5s", "4d"), front=("Tc", "Ts"))
    assert drill.grade(fouled, FoulAnswer(fouled=True), CTX).correct
    assert not drill.grade(fouled, FoulAnswer(fouled=False), CTX).correct
    assert drill.grade(legal, FoulAnswer(fouled=False), CTX).correct
    assert drill.rule_of(legal, CTX) == "foul.legal.same-pair"
    with pytest.raises(ValueError, match="must be true or false"):
        drill.read_answer(legal, {"fouled": "no"}, CTX)


def test_foul_check_under_house_way_policy_needs_the_reset():
    ctx = DrillContext(foul_policy=FoulPolicy.HOUSE_WAY)
    drill = get_drill("foul-check")
    q = FoulQuestion(back=("Kh", "Js", "8c", "7s", "3d"), front=("Ac", "Ah"))
    assert not drill.grade(q, FoulAnswer(fouled=True, front=("Ac", "Ah")), ctx).correct
    g = drill.grade(q, FoulAnswer(fouled=True, front=("Kh", "Js")), ctx)
    assert g.correct and g.correct_answer.reset.rule.startswith("one-pair")
    with pytest.raises(ValueError, match="missing 'front'"):
        drill.grade(q, FoulAnswer(fouled=True), ctx)
    with pytest.raises(ValueError, match="missing 'front'"):
        drill.read_answer(q, {"fouled": True}, ctx)


def test_my_mistakes_draws_from_the_missed_rule_families():
    ctx = DrillContext(focus_rules=("two-pair.split.aces", "quads.split.j-k"))
    drill = get_drill("house-way")
    fams = Counter(drill.key(new_question("house-way", s, ctx), ctx).family
                   for s in range(100))
    assert set(fams) <= {"two-pair", "quads", "sf"} and fams["two-pair"] > 20


def test_my_mistakes_works_for_every_drill_kind():
    reading = DrillContext(focus_rules=("reading.flush.joker",))
    questions = [new_question("hand-reading", s, reading) for s in range(40)]
    assert all(q.mode == "category" and "JK" in (q.hand or ()) for q in questions)
    fouls = DrillContext(focus_rules=("foul.legal.same-top-ranks",))
    drill = get_drill("foul-check")
    rules = Counter(drill.rule_of(new_question("foul-check", s, fouls), fouls)
                    for s in range(40))
    assert set(rules) <= BOUNDARY_RULES


def test_context_takes_the_foul_policy_as_the_engines_enum_and_stores_its_text():
    ctx = DrillContext(foul_policy=FoulPolicy.HOUSE_WAY)
    assert ctx.table.foul_policy is FoulPolicy.HOUSE_WAY
    assert ctx.as_dict()["foul_policy"] == "house_way"
    # Text only in the stored form: read there, refused anywhere else.
    assert DrillContext.from_dict(ctx.as_dict()).foul_policy is FoulPolicy.HOUSE_WAY
    with pytest.raises(TypeError):
        DrillContext(foul_policy="house_way")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        DrillContext.from_dict({**ctx.as_dict(), "foul_policy": "forgive"})
