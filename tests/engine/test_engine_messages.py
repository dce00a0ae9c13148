"""The engine's sentences are marked for translation and still read in English (issue 19, item 1).

The engine marks each sentence a trainee can see (card parsing, setting, the drills'
answers, the table's bets) with ``N_`` and raises it as an ``EngineError`` carrying
its template and values (``trainer/engine/messages.py``). These tests extract the
engine's templates with Babel's own Python API, the ``N_`` keyword as babel.cfg gives
it, and check that every refusal the engine raises for a malformed answer or card
has its template there, with named placeholders matching its values, and that
``str()`` is the English sentence the engine always wrote (the expected sentences
are copied from before the change, not computed).
"""
from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg

from trainer.engine import game, settlement
from trainer.engine.action import deal_order, verify_total
from trainer.engine.cards import parse_card, parse_cards, verify_distinct
from trainer.engine.drills import DRILLS, DrillContext, explain, get_drill, new_question
from trainer.engine.drills.kinds.house_way.words import FAMILY_WORDS
from trainer.engine.drills.schema import Each, Fields, ListOf, Whole
from trainer.engine.drills.skills import BOOK
from trainer.engine.house_way import RULE_KINDS
from trainer.engine.messages import N_, EngineError, Joined, Message, Money
from trainer.engine.profiles import FoulPolicy, get_profile
from trainer.engine.setting import splits, verify_set_hand

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "trainer" / "engine"
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def engine_templates() -> set[str]:
    """Extract the engine's marked sentences as pybabel does with babel.cfg's engine section."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as cfg:
        _method_map, options_map = parse_mapping_cfg(cfg)
    options = options_map.get("trainer/engine/**.py")
    assert options is not None, "babel.cfg has no [python: trainer/engine/**.py] section"
    assert "N_" in options.get("keywords", {}), "babel.cfg's engine section does not extract N_"
    # A counted sentence (Nn_) comes out as its singular and plural forms: each is a template.
    found: set[str] = set()
    for _f, _l, message, _c, _ctx in extract_from_dir(
            str(ENGINE), [("**.py", "python")], {"**.py": options}, keywords={}):
        found.update(message if isinstance(message, tuple) else (message,))
    return found


TEMPLATES = engine_templates()


def messages_in(message: Message) -> Iterator[Message]:
    """Yield a message and every message among its values (a word, a place, a list)."""
    yield message
    for value in message.params.values():
        items = value.items if isinstance(value, Joined) else (value,)
        for item in items:
            if isinstance(item, Message):
                yield from messages_in(item)


def check_marked(error: BaseException) -> EngineError:
    """Assert an engine refusal is an EngineError whose every template is extracted."""
    assert isinstance(error, EngineError), f"an unmarked engine sentence: {error!r}"
    for message in messages_in(error.message):
        assert message.template in TEMPLATES, f"not extracted by pybabel: {message.template!r}"
        names = set(PLACEHOLDER.findall(message.template))
        assert names and names <= set(message.params) if message.params else not names, \
            (message.template, message.params)
    assert str(error) == str(error.message)
    return error


def refusal_of(call: Any, *args: Any, **kwargs: Any) -> EngineError:
    with pytest.raises(ValueError) as caught:
        call(*args, **kwargs)
    return check_marked(caught.value)


# --- str() is the English sentence, byte for byte -------------------------------------

@pytest.mark.parametrize(("call", "english"), [
    (lambda: parse_card("Zz"), "Zz is not a card: write a rank (2-9, T or 10, J, Q, K, A) "
                               "and a suit (s, h, d, c), or JK for the joker."),
    (lambda: parse_card(7), "7 is not a card: write a rank (2-9, T or 10, J, Q, K, A) "
                            "and a suit (s, h, d, c), or JK for the joker."),
    (lambda: parse_cards("As Kd", 7), "A hand here has 7 cards; 2 were given."),
    (lambda: parse_cards("As Kd", (5, 7)), "A hand here has 5 or 7 cards; 2 were given."),
    (lambda: parse_cards("As Kd As"), "As appears twice in the hand."),
    (lambda: verify_distinct([parse_card("10h"), parse_card("th")]), "Th appears twice in the hand."),
    (lambda: splits(parse_cards("As Kd")), "A Pai Gow hand has 7 cards; 2 were given."),
    (lambda: verify_set_hand(parse_cards("As Kd Qh"), parse_cards("2c 3c")),
     "The back (high hand) needs 5 cards; it has 3."),
    (lambda: verify_set_hand(parse_cards("As Kd Qh Jc Tc"), parse_cards("2c")),
     "The front (low hand) needs 2 cards; it has 1."),
    (lambda: verify_total(19), "A dice total is a whole number from 3 to 18 (or 1 to 7 "
                               "from a random number generator)."),
    (lambda: deal_order(5, [9]), "Position 9 is not at this table (1-7)."),
    (lambda: settlement.verify_bet(1.5), "The bet must be a whole number of cents."),
    (lambda: settlement.verify_bet(0), "The bet must be more than zero."),
    (lambda: settlement.verify_bet(1, replace(get_profile("nevada"), min_bet_cents=500,
                                              max_bet_cents=100_000)),
     "The bet must be between $5.00 and $1000.00 at this table."),
    (lambda: game.verify_setting(parse_cards("As Ad 2c 3d 7h 9s Kc"), ["Qh", "As"], "second-highest"),
     "Qh is not one of your cards."),
    (lambda: game.verify_setting(parse_cards("As Ad 2c 3d 7h 9s Kc"), "As", "second-highest"),
     "Pick two cards for the front."),
    (lambda: Whole(0, 10_000_000).check(-1, ("positions", 1, "paid_cents")),
     "The answer's 'positions' item 2 'paid_cents' must be a whole number from 0 to 10,000,000."),
    (lambda: ListOf(Whole(1, 7), 0, 7).check({}, ("order",)),
     "The answer's 'order' has the wrong form: it must be a list."),
    (lambda: Each([Whole(1, 7)], "Settle all %(wanted)s positions; %(given)s were answered.")
     .check([1, 2]), "Settle all 1 positions; 2 were answered."),
    (lambda: Fields({"seat": Whole(1, 7)}).check({"seat": 1, "x": 2}),
     "The answer has a field it does not take: 'x'."),
    (lambda: Fields({"front": Whole(1, 7)}, message=None).check({}),
     "The answer is missing 'front'."),
    (lambda: Fields({"seat": Whole(1, 7)}).check("sideways"), "The answer must be a JSON object."),
])
def test_an_engine_refusal_still_reads_in_english_byte_for_byte(call: Any, english: str) -> None:
    error = refusal_of(call)
    assert str(error) == english
    assert error.args == (english,)


def test_a_fouled_setting_refused_at_the_table_reads_as_before() -> None:
    seven = parse_cards("As Ad 2c 3d 7h 9s Kc")
    error = refusal_of(game.verify_setting, seven, ["As", "Ad"], "second-highest")
    assert str(error).startswith("Fouled: the front (")
    assert str(error).endswith("); the five-card hand must be the higher.")
    # The values are the hands' descriptions, shown in the sentence.
    assert set(error.params) == {"front", "back"}
    assert f"({error.params['front']}) outranks the back ({error.params['back']})" in str(error)


def test_an_amount_in_a_sentence_is_money_and_a_number_is_grouped_in_english() -> None:
    assert str(Money(123456)) == "$1234.56" and str(Money(123456, grouped=True)) == "$1,234.56"
    assert str(Money(-5)) == "-$0.05"
    assert str(Message(N_("Seat %(seat)s: enter the amount paid, in cents, as a whole number "
                          "up to %(most)s."), seat=3, most=10_000_000)) == \
        "Seat 3: enter the amount paid, in cents, as a whole number up to 10,000,000."
    # A sentence without placeholders is never %-formatted (a "5%" stays as written).
    assert str(Message("5% commission")) == "5% commission"


# --- every refusal of a malformed answer is marked, in every drill kind --------------

def malformed(answer: dict[str, Any]) -> list[Any]:
    """Return answers a trainee's browser might send wrong, built from a well-formed one."""
    out: list[Any] = ["sideways", [answer], {}, {**answer, "extra": 1}]
    for key, value in answer.items():
        out += [{**answer, key: {"deep": 1}}, {**answer, key: "Zz"}, {**answer, key: True},
                {k: v for k, v in answer.items() if k != key}]
        if isinstance(value, list):
            out += [{**answer, key: ["Zz", "Kd"]}, {**answer, key: value[:1]},
                    {**answer, key: [value[0], value[0]] if value else []},
                    {**answer, key: value + value + value + value}]
            for i, item in enumerate(value):
                if isinstance(item, dict):
                    for field in item:
                        for bad in ("Zz", -1, None, True):
                            changed = copy.deepcopy(value)
                            changed[i] = {**item, field: bad}
                            out.append({**answer, key: changed})
                    changed = copy.deepcopy(value)
                    changed[i] = {**item, "extra": 1}
                    out.append({**answer, key: changed})
        if isinstance(value, int) and not isinstance(value, bool):
            out += [{**answer, key: -1}, {**answer, key: 10**12}]
    return out


def questions(slug: str, context: DrillContext) -> Iterator[dict[str, Any]]:
    drill = get_drill(slug)
    for seed in range(6):
        question = new_question(slug, seed, context)
        if drill.steps:
            for step in range(len(drill.steps)):
                yield drill.at_step(question, step, context)
        else:
            yield question


CONTEXTS = [DrillContext(), DrillContext(profile="nevada-fortune"),
            DrillContext(foul_policy=FoulPolicy.HOUSE_WAY)]


@pytest.mark.parametrize("slug", sorted(DRILLS))
def test_every_refusal_of_a_malformed_answer_is_a_marked_sentence(slug: str) -> None:
    drill = get_drill(slug)
    seen: set[str] = set()
    for context in CONTEXTS:
        for question in questions(slug, context):
            # The answer as it comes in (JSON): malformed variants of the drill's own probe.
            well_formed = drill.answer_json(drill.probe(question))
            drill.validate_answer(question, well_formed, context)
            for answer in malformed(well_formed):
                try:
                    drill.validate_answer(question, answer, context)
                except ValueError as error:
                    seen.update(m.template for m in messages_in(check_marked(error).message))
    assert len(seen) >= 3, seen  # the loop above did refuse answers


# --- the templates themselves ----------------------------------------------------------

def test_every_engine_template_names_its_placeholders() -> None:
    assert len(TEMPLATES) > 50
    for template in TEMPLATES:
        rest = PLACEHOLDER.sub("", template).replace("%%", "")
        assert "%" not in rest, f"an unnamed placeholder in {template!r}"
        assert not re.search(r"\{\w*\}", template), f"a str.format placeholder in {template!r}"


def _msgids(words: Any, nested: bool = True) -> Iterator[str]:
    """Yield the marked msgids a skill's words are made of: a msgid, or a composed message
    and (``nested``) the messages among its values ("" is no words)."""
    if isinstance(words, str) and words:
        yield words
    elif isinstance(words, Message):
        for message in messages_in(words) if nested else (words,):
            yield message.template


def test_the_rule_books_lines_and_the_hints_are_marked() -> None:
    """Every registered kind's skills (their sentences, names and hints, ``skills.BOOK``),
    the house-way hint's family words and the look-up's own fallback are extracted."""
    sentences = [explain.hint("no.such")]
    for found in BOOK.values():
        for words in (found.sentence, found.hint):
            sentences += _msgids(words)
        # A composed name's own template; its values, and a name that is plain text, may be
        # data words (a pay table's line names, translated from the data's catalogue).
        for words in (found.name, found.short):
            if isinstance(words, Message):
                sentences += _msgids(words, nested=False)
    sentences += FAMILY_WORDS.values()
    # A hand's hint is made of the deciding rule's kind: its words are marked too.
    sentences += [text for kind in RULE_KINDS.values() for text in (kind.front_text, kind.back_text)
                  if text]
    assert len(sentences) > 40
    for sentence in sentences:
        assert sentence in TEMPLATES, f"not extracted by pybabel: {sentence!r}"


def test_an_unmarked_sentence_is_not_extracted_so_the_check_can_fail() -> None:
    error = EngineError("Seat %(seat)s: this sentence was never marked.", seat=2)
    with pytest.raises(AssertionError):
        check_marked(error)
    with pytest.raises(AssertionError):
        check_marked(ValueError("a plain ValueError is not marked"))


def test_the_engines_refusals_a_trainee_sees_carry_no_unmarked_literal() -> None:
    """In the modules whose refusals reach a trainee, no ``raise ValueError("...")`` is left."""
    modules = ["cards.py", "setting.py", "action.py", "game.py", "drills/schema.py",
               "drills/side_bet_parts.py"]
    # The homes of the kinds whose answers a trainee sends (every module of each).
    for home in ("settlement", "foul_check", "house_way", "hand_reading"):
        modules += sorted(p.relative_to(ENGINE).as_posix()
                          for p in (ENGINE / "drills" / "kinds" / home).glob("*.py"))
    assert len(modules) > 12
    for name in modules:
        text = (ENGINE / name).read_text(encoding="utf-8")
        # A programming error no request can cause (dealing more cards than the deck holds).
        text = text.replace('raise ValueError(f"Cannot deal', "")
        assert not re.search(r"raise ValueError\(\s*f?[\"']", text), name

