"""The bonus drill: drawn by category, graded per part with the pay line's rule id, not guessable."""
from collections import Counter

import pytest

from trainer.engine.cards import parse_cards
from trainer.engine.drills import DrillContext, get_drill, new_question
from trainer.engine.drills.kinds.bonus import SLUG, BonusAnswer
from trainer.engine.setting import is_foul
from trainer.engine.side_bets import PAY_ORDER, BonusCategory, bonus_category, load_table

DRILL = get_drill(SLUG)
FORTUNE = DrillContext(profile="nevada-fortune")
# A question as a row stores it, read through the drill's edge.
QUADS_ROW = {"table": "fortune-standard", "offered": True, "envy": "envy", "bet_cents": 500,
             "cards": ["9s", "9h", "9d", "9c", "Kh", "4d", "2c"], "kind": "bonus", "seed": 0}
QUADS = DRILL.read_question(QUADS_ROW)


def seven(question):
    return parse_cards(question.cards or [*question.back, *question.front], 7)


def answer(qualifies, category, paid_cents):
    return BonusAnswer(qualifies=qualifies, category=category, paid_cents=paid_cents)


def test_four_of_a_kind_pays_25_to_1_and_the_feedback_says_so_in_words():
    right = answer(True, "four-of-a-kind", 12_500)
    grade = DRILL.grade(QUADS, right, FORTUNE)
    assert grade.correct and grade.rule_id == "bonus.fortune-standard.four-of-a-kind"
    assert "Four of a kind pays 25 to 1: $125.00 on a $5 bet" in str(grade.explanation)
    assert "qualifies" in str(grade.explanation) and "$5.00 Envy" in str(grade.explanation)


def test_each_part_is_graded_with_its_pay_lines_rule_id():
    wrong = answer(False, "full-house", 12_500)
    grade = DRILL.grade(QUADS, wrong, FORTUNE)
    assert not grade.correct
    assert [(p.part, p.correct, p.rule_id) for p in grade.parts] == [
        ("qualifies", False, "bonus.envy.four-of-a-kind"),
        ("category", False, "bonus.fortune-standard.four-of-a-kind"),
        ("paid", True, "bonus.fortune-standard.four-of-a-kind"),
    ]
    assert str(grade.explanation).startswith("You answered does not qualify; Full house.")
    # Read from the attempt's stored JSON.
    stored, key = DRILL.answer_json(wrong), DRILL.key_json(grade.correct_answer)
    assert DRILL.part_results(stored, key, False) == [False, False, True]
    assert DRILL.part_results(stored, key, True) == [False, False, False]


def test_a_hand_below_a_straight_pays_nothing_and_the_bet_is_taken():
    question = DRILL.read_question({**QUADS_ROW, "cards": ["9s", "9h", "Kd", "Kc", "2h", "4d", "7c"]})
    grade = DRILL.grade(question, answer(False, "nothing", 0), FORTUNE)
    assert grade.correct and grade.rule_id == "bonus.fortune-standard.nothing"
    assert "the $5 bonus bet is taken" in str(grade.explanation)


def test_a_fouled_setting_still_gets_its_bonus():
    # King-eight behind, king-nine in front: fouled; all seven still make a straight, 2 to 1.
    row = {**QUADS_ROW, "back": ["5s", "6h", "7d", "8c", "Kh"], "front": ["Kd", "9s"]}
    del row["cards"]
    question = DRILL.read_question(row)
    assert is_foul(parse_cards(question.back), parse_cards(question.front))
    grade = DRILL.grade(question, answer(False, "straight", 1000), FORTUNE)
    assert grade.correct and "fouled" in str(grade.explanation)
    assert "Straight pays 2 to 1: $10.00 on a $5 bet" in str(grade.explanation)


def test_the_progressive_pays_the_meter_on_a_fixed_one_dollar_bet():
    ctx = DrillContext(profile="nevada-progressive")
    question = DRILL.read_question({
        "table": "progressive", "offered": True, "envy": None, "bet_cents": 100,
        "meter_cents": 12_345_600, "cards": ["As", "Ah", "Ad", "Ac", "JK", "4d", "2c"]})
    grade = DRILL.grade(question, answer(True, "five-aces", 12_345_600), ctx)
    assert grade.correct and grade.rule_id == "bonus.progressive.five-aces"


def test_emperors_treasure_pays_the_royal_with_a_suited_ace_king():
    ctx = DrillContext(profile="nevada-emperors")
    question = DRILL.read_question({
        "table": "emperors-treasure", "offered": True, "envy": None, "bet_cents": 500,
        "cards": ["As", "Ks", "Qs", "Js", "Ts", "Ah", "Kh"]})
    grade = DRILL.grade(question, answer(True, "royal-plus-match", 500 * 2000), ctx)
    assert grade.correct and grade.rule_id == "bonus.emperors-treasure.royal-plus-match"


@pytest.mark.parametrize("profile,table", [
    ("nevada-fortune", "fortune-standard"), ("nevada-emperors", "emperors-treasure"),
    ("nevada-progressive", "progressive"), ("nevada", "fortune-standard"),
    ("ez", "fortune-standard")])
def test_the_group_profile_chooses_the_table(profile, table):
    question = new_question(SLUG, 7, DrillContext(profile=profile))
    assert question.table == table
    assert question.offered is (profile.startswith("nevada-"))


def test_every_category_above_a_straight_appears_often_and_rare_hands_far_more_than_in_the_deck():
    counts = Counter()
    cues = Counter()
    layouts = Counter()
    n = 2800
    for seed in range(n):
        question = new_question(SLUG, seed, FORTUNE)
        category = bonus_category(seven(question))
        counts[category] += 1
        cues[load_table("envy").line_for(category) is not None] += 1
        layouts[question.cards is not None] += 1
    assert set(counts) == set(PAY_ORDER)
    for category in PAY_ORDER:
        if category > BonusCategory.STRAIGHT:
            assert counts[category] / n >= 1 / 20, (category, counts[category])
    # In the deck a royal plus royal match is far rarer than 1 in 10,000 hands.
    assert counts[BonusCategory.ROYAL_PLUS_MATCH] / n > 1 / 100
    assert abs(cues[True] / n - 0.5) <= 0.03
    assert layouts[True] > n / 5 and layouts[False] > n / 2
