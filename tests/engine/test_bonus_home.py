"""The bonus drill in its home (issue 28): typed, byte for byte what the dict drill stored and
said, dealt for each of its skills, and a wrong answer of its own.

What it stores and says is compared with the commit before the change (dcd43b1): for
seeds 1-300 under eight stored contexts (``bonus_base_dump.CONTEXTS``: every bonus table,
none offered, side-bet rules 1, generator 1, a custom profile's table, other house ways
and foul policies), each record's JSON text (the question, its rule, the key, the grade of
every fixed answer, the probe and a wrong amount, the feedback, the hint, the parts of a
stored attempt, the refusals of malformed answers) has the digest that commit's record
had (``data/bonus-dcd43b1-digests.json``), and, when that commit's checkout is at hand
(``TRAINER_BASE_CHECKOUT``, default ``/work/base``), the same text as its code writes.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from engine import bonus_base_dump
from hypothesis import given
from hypothesis import strategies as st

from trainer.engine.cards import Card, card_list
from trainer.engine.drills import DrillContext, get_drill, new_question
from trainer.engine.drills.codec import from_json, to_json
from trainer.engine.drills.kinds import bonus
from trainer.engine.drills.kinds.bonus.questions import CATEGORY_SLUGS, MAX_PAID_CENTS
from trainer.engine.profiles import SideBetOffer, get_profile
from trainer.engine.side_bets import PAY_ORDER, Payment, TableKind, bonus_category, load_table, table_names

HERE = Path(__file__).parent
BASE = Path(os.environ.get("TRAINER_BASE_CHECKOUT", "/work/base"))
DIGESTS = HERE / "data" / "bonus-dcd43b1-digests.json"
SEEDS = 300
# The digest check re-runs the first seeds of the 300 recorded (each seed's record has
# its own digest): enough to hold every context's shapes, at a third of the time.
CHECKED_SEEDS = 100
DRILL = get_drill(bonus.SLUG)


@cache
def dumped(seeds: int = SEEDS) -> dict[str, list[dict[str, Any]]]:
    """This tree's records of seeds 1..``seeds``, as JSON read back (as the dump script writes)."""
    records: dict[str, list[dict[str, Any]]] = json.loads(json.dumps(bonus_base_dump.dump(seeds)))
    return records


def digest(record: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(record).encode()).hexdigest()[:16]


# --- byte for byte ---------------------------------------------------------------------


def test_every_record_has_the_digest_of_the_commit_befores_record() -> None:
    expected = json.loads(DIGESTS.read_text(encoding="utf-8"))
    assert expected["commit"] == "dcd43b1"
    records = dumped(CHECKED_SEEDS)
    assert list(records) == list(expected["digests"])
    for name, digests in expected["digests"].items():
        assert len(digests) == SEEDS and len(records[name]) == CHECKED_SEEDS
        differ = [seed for seed, (record, old)
                  in enumerate(zip(records[name], digests[:CHECKED_SEEDS], strict=True), 1)
                  if digest(record) != old]
        assert not differ, f"{name}: seeds {differ[:10]} no longer write what dcd43b1 wrote"


@pytest.mark.skipif(not (BASE / "trainer" / "engine" / "drills" / "bonus_drill.py").is_file(),
                    reason="no checkout of the commit before issue 28 at TRAINER_BASE_CHECKOUT")
def test_every_record_is_the_text_the_commit_befores_code_writes(tmp_path: Path) -> None:
    out = tmp_path / "base.json"
    subprocess.run([sys.executable, str(HERE / "bonus_base_dump.py"), str(out), str(SEEDS)],
                   env={**os.environ, "PYTHONPATH": str(BASE)}, cwd=tmp_path, check=True,
                   timeout=900)
    base = json.loads(out.read_text(encoding="utf-8"))
    records = dumped()
    assert list(base) == list(records)
    for name, old_records in base.items():
        for seed, (old, new) in enumerate(zip(old_records, records[name], strict=True), 1):
            for field, text in old.items():
                assert new[field] == text, f"{name}, seed {seed}: {field} differs"


def test_a_question_row_keeps_its_keys_in_the_order_the_dict_drill_wrote_them() -> None:
    question = new_question(bonus.SLUG, 4, DrillContext(profile="nevada-progressive"))
    row = DRILL.question_json(question)
    assert list(row)[-2:] == ["kind", "seed"] and row["seed"] == 4
    assert list(row)[:4] == ["table", "offered", "envy", "bet_cents"]
    assert json.dumps(DRILL.question_json(DRILL.read_question(row))) == json.dumps(row)


# --- old rows and the codec --------------------------------------------------------------


def test_an_old_row_without_a_payment_reads_and_pays_to_one() -> None:
    row = {"table": "progressive", "offered": True, "envy": None, "bet_cents": 100,
           "meter_cents": 5_000_000, "cards": ["As", "Ks", "Qs", "Js", "Ts", "4h", "2d"],
           "kind": "bonus", "seed": 9}
    question = DRILL.read_question(row)
    assert question.payment is None and not question.pay_table().for_one
    assert DRILL.question_json(question) == row
    assert DRILL.read_question({**row, "payment": "for-one"}).pay_table().for_one


@pytest.mark.parametrize("change, words", [
    ({"cards": None}, "seven cards"),
    ({"back": ["As", "Ks", "Qs", "Js", "Ts"]}, "seven cards"),
    ({"cards": ["As", "Ks"]}, "seven cards"),
    ({"shown": True}, "unexpected shown"),
    ({"bet_cents": "5"}, "whole number"),
    ({"kind": "settlement"}, "not of the 'bonus' drill"),
])
def test_a_row_that_is_no_bonus_question_is_refused_by_name(change: dict[str, Any], words: str) -> None:
    row = {"table": "fortune-standard", "offered": True, "envy": "envy", "bet_cents": 500,
           "cards": ["9s", "9h", "9d", "9c", "Kh", "4d", "2c"], **change}
    row = {k: v for k, v in row.items() if v is not None}
    with pytest.raises(ValueError, match=words):
        DRILL.read_question(row)


def _question(seed: int, table: str, offered: bool, envy: str | None, bet: int, payment: bool,
              meter: int | None, cards: list[int], dealt: bool) -> bonus.BonusQuestion:
    shown = card_list([Card(c) for c in cards])
    return bonus.BonusQuestion(
        seed=seed, table=table, offered=offered, envy=envy, bet_cents=bet,
        payment=Payment.FOR_ONE if payment else None, meter_cents=meter,
        cards=tuple(shown) if dealt else None, back=None if dealt else tuple(shown[:5]),
        front=None if dealt else tuple(shown[5:]))


questions = st.builds(
    _question, st.integers(0, 2**63 - 1),
    st.sampled_from(["fortune-standard", "fortune-5000", "emperors-treasure", "progressive"]),
    st.booleans(), st.none() | st.just("envy"), st.integers(100, 2500), st.booleans(),
    st.none() | st.integers(1_000_000, 25_000_000),
    st.lists(st.integers(0, 52), min_size=7, max_size=7, unique=True), st.booleans())
answers = st.builds(bonus.BonusAnswer, qualifies=st.booleans(),
                    category=st.sampled_from(CATEGORY_SLUGS),
                    paid_cents=st.integers(0, MAX_PAID_CENTS))
parts = st.builds(bonus.BonusPart, part=st.sampled_from(["qualifies", "category", "paid"]),
                  correct=st.booleans(), rule_id=st.text(max_size=40),
                  chance=st.none() | st.sampled_from([0.5, 1 / 12]),
                  given=st.text(max_size=20), right=st.text(max_size=20))


@given(questions, answers, parts)
def test_a_question_answer_key_and_part_read_back_from_their_json_are_the_same(
        question: bonus.BonusQuestion, answer: bonus.BonusAnswer, part: bonus.BonusPart) -> None:
    assert DRILL.read_question(DRILL.question_json(question)) == question
    assert DRILL.read_answer(question, DRILL.answer_json(answer), None) == answer
    assert from_json(bonus.BonusAnswer, DRILL.key_json(answer)) == answer
    assert from_json(bonus.BonusPart, to_json(part)) == part


# --- skills and dealing by skill ---------------------------------------------------------

CUSTOM = get_profile("nevada-fortune").with_settings(
    name="our-table", side_bets=(SideBetOffer("fortune-5000", envy="envy"),))
CONTEXTS = {"fortune": DrillContext(profile="nevada-fortune"),
            "emperors": DrillContext(profile="nevada-emperors"),
            "progressive": DrillContext(profile="nevada-progressive"),
            "none offered": DrillContext(profile="ez"),
            "custom fortune-5000": DrillContext(custom=CUSTOM)}
ENVY = load_table("envy")
ENVY_RULES = {line.rule_id for line in ENVY.lines} | {ENVY.losing_rule_id}


def expected_rule(table_name: str, cards: tuple[Card, ...], bonus_table: str) -> str:
    """The line of ``table_name`` paying the seven cards, worked out here from the tables'
    data: the hand is read as the bonus table reads it (its royal match), as at the table."""
    table = load_table(table_name)
    line = table.line_for(bonus_category(cards, load_table(bonus_table).match))
    return line.rule_id if line is not None else table.losing_rule_id


def test_the_skills_are_every_pay_line_of_every_bonus_progressive_and_envy_table() -> None:
    tables = [load_table(n) for n in table_names()]
    expected = {rule for t in tables if t.kind is not TableKind.QUEENS_DRAGON
                for rule in [*(line.rule_id for line in t.lines), t.losing_rule_id]}
    ids = [s.id for s in DRILL.skills]
    assert len(ids) == len(set(ids)) and set(ids) == expected
    fours = next(s for s in DRILL.skills if s.id == "bonus.fortune-standard.four-of-a-kind")
    assert str(fours.name) == "Fortune bonus (standard table): four of a kind"
    assert fours.short == "Four of a kind"
    assert str(next(s for s in DRILL.skills if s.id == "bonus.envy.nothing").name) \
        == "Envy bonus: no qualifying hand"
    # No rule-book sentence (the feedback words the line's pay for the bet shown), and the
    # hint the drill always gave.
    assert {(s.section, s.sentence, s.hint) for s in DRILL.skills} == {
        ("", "", "Look at the cards the rule turns on.")}
    assert DRILL.hint("bonus.fortune-standard.flush") == "Look at the cards the rule turns on."


@pytest.mark.parametrize("name", sorted(CONTEXTS))
def test_every_skill_of_the_groups_tables_is_dealt_twenty_times_graded_by_it(name: str) -> None:
    context = CONTEXTS[name]
    rng = random.Random(28)
    skills = DRILL.skills_of(context)
    assert {s.id for s in skills} >= ENVY_RULES
    for skill in skills:
        for _ in range(20):
            question = DRILL.deal_for(rng, context, skill.id)
            assert question is not None, f"{skill.id} is not dealt under {name}"
            cards = question.seven()
            assert len(set(cards)) == 7
            grade = DRILL.grade(question, DRILL.probe(question), context)
            if skill.id in ENVY_RULES:
                # The cue's part carries the Envy line.
                assert grade.parts[0].rule_id == skill.id \
                    == expected_rule("envy", cards, question.table)
            else:
                assert DRILL.rule_of(question, context) == skill.id \
                    == expected_rule(question.table, cards, question.table)


def test_no_skill_is_unreachable_and_another_tables_line_is_reported_not_dealt() -> None:
    reached = {s.id for context in CONTEXTS.values() for s in DRILL.skills_of(context)}
    assert reached == {s.id for s in DRILL.skills}
    fortune = CONTEXTS["fortune"]
    rng = random.Random(1)
    assert DRILL.deal_for(rng, fortune, "bonus.progressive.five-aces") is None
    assert DRILL.deal_for(rng, fortune, "bonus.emperors-treasure.nothing") is None
    assert DRILL.deal_for(rng, fortune, "settlement.win") is None


# --- a wrong answer of its own -----------------------------------------------------------


@pytest.mark.parametrize("name", ["fortune", "progressive"])
def test_the_drills_wrong_answer_is_well_formed_and_graded_wrong_in_each_way(name: str) -> None:
    context = CONTEXTS[name]
    wrong_parts: Counter[str] = Counter()
    for seed in range(1, 121):
        question = new_question(bonus.SLUG, seed, context)
        answer = DRILL.wrong_answer(question, context, random.Random(seed))
        assert DRILL.read_answer(question, DRILL.answer_json(answer), context) == answer
        grade = DRILL.grade(question, answer, context)
        assert not grade.correct
        wrong_parts.update(p.part for p in grade.parts if not p.correct)
    assert set(wrong_parts) == {"qualifies", "category", "paid"}


def test_the_twelve_fixed_answers_name_each_category_once() -> None:
    question = new_question(bonus.SLUG, 3, CONTEXTS["fortune"])
    choices = DRILL.answer_choices(question, CONTEXTS["fortune"])
    assert list(choices) == [c.slug for c in PAY_ORDER]
    assert sum(DRILL.grade(question, a, CONTEXTS["fortune"]).correct for a in choices.values()) == 1
