"""The house-way, foul-check and hand-reading homes: typed questions, answers and keys that
read back from their JSON, skills in the words the rule book and the pages used, the
kinds' declarations, and a wrong answer each can give (issue 28)."""
from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine.cards import DECK
from trainer.engine.drills import DRILLS, DrillContext, get_drill, new_question
from trainer.engine.drills.codec import from_json
from trainer.engine.drills.explain import hint, rule_book
from trainer.engine.drills.kinds import foul_check, hand_reading, house_way
from trainer.engine.drills.kinds.foul_check import FoulAnswer, FoulKey, FoulQuestion
from trainer.engine.drills.kinds.hand_reading import ReadingAnswer, ReadingKey, ReadingQuestion
from trainer.engine.drills.kinds.house_way import SetAnswer, SetKey, SetQuestion
from trainer.engine.drills.skills import BOOK
from trainer.engine.house_way import load, preset_names
from trainer.engine.messages import english
from trainer.engine.profiles import FoulPolicy

HERE = Path(__file__).parent
WORDS = HERE / "data" / "hand-kinds-dcd43b1-words.json"
SLUGS = (house_way.SLUG, foul_check.SLUG, hand_reading.SLUG)
CONTEXTS = [DrillContext(), DrillContext(way=load("foxwoods"), foul_policy=FoulPolicy.HOUSE_WAY),
            DrillContext(way=load("golden-nugget"), profile="california"),
            DrillContext.from_dict({"house_way": "mgm-grand"})]  # the first generator

# --- typed values read back from their JSON ---------------------------------------------

cards = st.sampled_from([str(c) for c in DECK])
hands = st.lists(cards, min_size=1, max_size=7, unique=True).map(tuple)
text = st.text(max_size=12)
set_keys = st.builds(SetKey, back=hands, front=hands, rule=text, explanation=text)
questions = st.one_of(
    st.builds(SetQuestion, seed=st.integers(0, 2**63), cards=hands),
    st.builds(FoulQuestion, seed=st.integers(0, 2**63), back=hands, front=hands),
    st.builds(ReadingQuestion, seed=st.integers(0, 2**63), mode=st.just("category"), hand=hands),
    st.builds(ReadingQuestion, seed=st.integers(0, 2**63), mode=st.just("compare"), a=hands, b=hands))
answers = st.one_of(
    st.builds(SetAnswer, front=hands),
    st.builds(FoulAnswer, fouled=st.booleans(), front=st.none() | hands),
    st.builds(ReadingAnswer, category=st.none() | text, winner=st.none() | text),
    set_keys,
    st.builds(FoulKey, fouled=st.booleans(), reset=st.none() | set_keys),
    st.builds(ReadingKey, category=st.none() | text, winner=st.none() | text))
KIND_OF = {SetQuestion: house_way.SLUG, FoulQuestion: foul_check.SLUG,
           ReadingQuestion: hand_reading.SLUG}


@given(questions)
def test_a_question_read_back_from_its_json_is_the_same_question(question: Any) -> None:
    drill = get_drill(KIND_OF[type(question)])
    data = drill.question_json(question)
    assert list(data)[-2:] == ["kind", "seed"]  # as the dict drills wrote it
    assert drill.read_question(json.loads(json.dumps(data))) == question


@given(answers)
def test_an_answer_or_key_read_back_from_its_json_is_the_same(value: Any) -> None:
    assert from_json(type(value), json.loads(json.dumps(get_drill(house_way.SLUG).key_json(value)))) \
        == value


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SLUGS), st.integers(0, 2**40), st.sampled_from(range(len(CONTEXTS))))
def test_a_dealt_question_reads_back_and_its_wrong_answer_is_well_formed_and_wrong(
        slug: str, seed: int, which: int) -> None:
    context = CONTEXTS[which]
    drill = get_drill(slug)
    question = new_question(slug, seed, context)
    assert drill.read_question(drill.question_json(question)) == question
    wrong = drill.wrong_answer(question, context, random.Random(seed))
    read = drill.read_answer(question, json.loads(json.dumps(drill.answer_json(wrong))), context)
    assert read == wrong
    assert not drill.grade(question, read, context).correct


def test_the_wrong_answer_is_drawn_by_the_random_source_given() -> None:
    """Not always the same wrong answer where there are several: the demo class's mistakes
    vary with its seed (a foul check has one, but for the front of a legal hand reset)."""
    house_way_fouls = DrillContext(foul_policy=FoulPolicy.HOUSE_WAY)
    foul = get_drill(foul_check.SLUG)
    legal = next(q for q in (new_question(foul_check.SLUG, s, house_way_fouls) for s in range(20))
                 if not foul.grade(q, foul.probe(q), house_way_fouls).correct_answer.fouled)
    for slug, context, question in [
            (house_way.SLUG, DrillContext(), new_question(house_way.SLUG, 4, DrillContext())),
            (hand_reading.SLUG, DrillContext(), new_question(hand_reading.SLUG, 4, DrillContext())),
            (foul_check.SLUG, house_way_fouls, legal)]:
        drill = get_drill(slug)
        drawn = {json.dumps(drill.answer_json(drill.wrong_answer(question, context, random.Random(s))))
                 for s in range(30)}
        assert len(drawn) > 1, slug


# --- the kinds' declarations -------------------------------------------------------------

def test_each_kind_declares_its_title_blurb_place_criterion_and_chance_level() -> None:
    declared = {slug: (DRILLS[slug].title, DRILLS[slug].blurb, DRILLS[slug].order,
                       DRILLS[slug].chance_level) for slug in SLUGS}
    assert declared == {
        "house-way": ("Set the banker's hand",
                      "Pick the two front cards of the banker's seven, the house way.", 10, None),
        "foul-check": ("Spot the foul", "Say whether a player's set hand is legal or fouled.",
                       50, 0.5),
        "hand-reading": ("Read the hand", "Name a five-card hand, or say which of two hands wins.",
                         40, pytest.approx(7 / 12 / 11 + 5 / 12 / 3)),
    }
    criterion = DRILLS[house_way.SLUG].criterion
    assert criterion is not None
    assert (criterion.min_accuracy, criterion.window, criterion.max_median_s,
            criterion.exam_length, criterion.exam_time_limit_s) == (98.0, 100, 8.0, 50, 10)
    assert DRILLS[foul_check.SLUG].criterion is None and DRILLS[hand_reading.SLUG].criterion is None


def test_the_slug_is_written_once_in_each_home() -> None:
    home = Path(house_way.__file__).parent.parent
    for slug, package in ((house_way.SLUG, "house_way"), (foul_check.SLUG, "foul_check"),
                          (hand_reading.SLUG, "hand_reading")):
        found = [(p.name, line) for p in sorted((home / package).glob("*.py"))
                 for line in p.read_text(encoding="utf-8").splitlines()
                 if f'"{slug}"' in line or f"'{slug}'" in line]
        assert found == [("kind.py", f'SLUG = "{slug}"')], found


# --- skills: the words each rule had ----------------------------------------------------

def _words_before() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(WORDS.read_text(encoding="utf-8"))
    return data


def test_the_fixture_is_the_words_of_the_commit_before_the_change() -> None:
    """When that commit's checkout is here, the kept words are what its code says."""
    spec = importlib.util.spec_from_file_location(
        "hand_kinds_json", HERE / "test_hand_kinds_json_unchanged.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not module.have_base():
        pytest.skip("the checkout of the commit before the change is not here")
    ids = sorted(_words_before()["book"])
    assert module.run_base("--words", json.dumps({"ids": ids, "ways": preset_names()})) \
        == _words_before()


def test_every_foul_and_reading_skill_says_what_the_rule_book_hint_and_pages_said() -> None:
    before = _words_before()["book"]
    declared = {s.id: s for slug in (foul_check.SLUG, hand_reading.SLUG)
                for s in get_drill(slug).skills}
    # Every rule id the drills grade is a skill: the nine parts of the foul rule, the eleven
    # categories with and without the joker (five aces always hold it), four comparisons.
    assert set(declared) == set(before) and len(declared) == 9 + 21 + 4
    for rule_id, skill in declared.items():
        was = before[rule_id]
        said = {"section": skill.section, "sentence": english(skill.sentence),
                "hint": english(skill.hint), "name": english(skill.name),
                "short": english(skill.short)}
        assert said == was, rule_id
        # The shared look-ups find them through the registry.
        assert BOOK[rule_id] is skill
        assert rule_book(rule_id) == (skill.section, skill.sentence)
        assert hint(rule_id) == skill.hint


def test_every_preset_rule_as_a_skill_has_the_name_short_name_and_hint_it_had() -> None:
    before = _words_before()["ways"]
    drill = get_drill(house_way.SLUG)
    for name in preset_names():
        way = load(name)
        skills = drill.skills_of(DrillContext(way=way))
        assert [s.id for s in skills] == [r.id for r in way.rules]
        for skill in skills:
            was = before[name][skill.id]
            assert {"name": english(skill.name), "short": english(skill.short),
                    "hint": english(skill.hint)} == was, (name, skill.id)
            assert english(skill.sentence) == way.rule(skill.id).text
            assert skill.id not in BOOK  # a way's rules are the context's, not the registry's
