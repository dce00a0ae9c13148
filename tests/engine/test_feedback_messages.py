"""The drills' feedback sentences are marked messages, and still read in English (issue 19, item 1).

Every sentence of an answer's feedback (what was said, what was right, each part's
sentences and name, the pay line's sentence) is a ``Message``: an ``N_``-marked
template, extracted by Babel as babel.cfg says, with its values named; amounts are
``Money`` (so the web writes them in the reader's money) and words inside a sentence
are messages of their own, or the engine's data texts (pay tables, bonus categories),
which ``web/words/data_words.py`` extracts. ``str()`` and the JSON stay the English the
engine always wrote: ``data/feedback-english.json`` was captured before the change
(``feedback_samples.py``), not computed by the code under test.
"""
from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg

from trainer.engine.drills.explain import Feedback, Part
from trainer.engine.messages import Joined, Lowered, Message, Money
from trainer.web.words.data_words import engine_texts

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _samples_module() -> Any:
    """Load the samples beside this file (the tests are not a package)."""
    if "feedback_samples" not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            "feedback_samples", Path(__file__).with_name("feedback_samples.py"))
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["feedback_samples"] = module
        spec.loader.exec_module(module)
    return sys.modules["feedback_samples"]


def _engine_templates() -> set[str]:
    """Extract the engine's marked sentences as babel.cfg's engine section says."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as cfg:
        _method_map, options_map = parse_mapping_cfg(cfg)
    options = options_map["trainer/engine/**.py"]
    assert "N_" in options.get("keywords", {})
    return {message for _f, _l, message, _c, _ctx in extract_from_dir(
        str(ROOT / "trainer" / "engine"), [("**.py", "python")], {"**.py": options},
        keywords={})}


TEMPLATES = _engine_templates()
FIXTURE, capture, samples = (getattr(_samples_module(), name)
                             for name in ("FIXTURE", "capture", "samples"))
DATA_TEXTS = {text for module in ("engine/side_bets/paytables.py",
                                  "engine/side_bets/categories.py", "engine/profiles.py")
              for text in engine_texts(module)}
SAMPLES = list(samples())


def messages_in(value: Any) -> Iterator[Message]:
    """Yield every message inside a sentence's value: itself, its values, a list's items."""
    if isinstance(value, Message):
        yield value
        for inner in value.params.values():
            yield from messages_in(inner)
    elif isinstance(value, Joined):
        for item in value.items:
            yield from messages_in(item)
    elif isinstance(value, Lowered):
        yield from messages_in(value.value)


def sentences(fb: Feedback) -> Iterator[tuple[str, Any]]:
    """Yield (field, value) for every sentence of a feedback a person reads."""
    yield "said", fb.said
    yield "right", fb.right
    yield "sentence", fb.sentence
    if not fb.sheet_rule:  # a sheet's own sentence is the house way's text (data/W2)
        yield "why", fb.why
    if fb.section and not str(fb.section).startswith("§"):
        yield "section", fb.section
    if not isinstance(fb.detail, str):  # the grade's explanation, where it is marked
        yield "detail", fb.detail
    part: Part
    for part in fb.parts:
        for field in ("said", "right", "why", "you", "fix"):
            yield f"part {part.name} {field}", getattr(part, field)
        yield f"part {part.name} label", part.label


def check_sentence(where: str, value: Any) -> None:
    if value == "" and not where.endswith(("said", "sentence", "label")):
        return  # no sentence at all (a part's reason, a right answer that is all right)
    assert isinstance(value, Message | Money | Joined), f"{where}: an unmarked sentence {value!r}"
    for message in messages_in(value):
        assert message.template in TEMPLATES or message.template in DATA_TEXTS, \
            f"{where}: not extracted by pybabel: {message.template!r}"
        names = set(PLACEHOLDER.findall(message.template))
        assert names <= set(message.params), (where, message.template, message.params)
        if message.template not in DATA_TEXTS:
            assert bool(names) == bool(message.params), (where, message.template, message.params)


def test_every_feedback_sentence_is_a_marked_message_of_named_values() -> None:
    kinds = set()
    for name, fb in SAMPLES:
        kinds.add(name.split("/")[0])
        for field, value in sentences(fb):
            check_sentence(f"{name} {field}", value)
    assert kinds == {"action", "bonus", "foul-check", "hand-reading", "house-way",
                     "settlement", "round"}


def test_how_it_is_worked_out_is_marked_where_it_names_amounts_or_counts() -> None:
    """The grade's explanation of every drill kind is marked: amounts, counts, hands, seats."""
    kinds = set()
    for name, fb in SAMPLES:
        kinds.add(name.split("/")[0])
        check_sentence(f"{name} detail", fb.detail)
    assert {"action", "settlement", "bonus", "round", "foul-check", "hand-reading",
            "house-way"} <= kinds


def test_the_round_s_bank_net_keeps_its_sign_after_the_dollar_in_english() -> None:
    """The round's explanation always wrote a losing bank's net "$-110.00"; the sentence
    keeps it (the web writes the reader's money); other amounts write "-$2.50"."""
    assert str(Money(-11000, sign_inside=True)) == "$-110.00"
    assert str(Money(1300, sign_inside=True)) == "$13.00"
    assert str(Money(-11000)) == "-$110.00"


def test_feedback_amounts_are_money_not_dollar_text() -> None:
    """No "$" is written into a template or a value: amounts are Money, written by the web."""
    found = 0
    for name, fb in SAMPLES:
        for field, value in sentences(fb):
            for message in messages_in(value):
                assert "$" not in message.template, (name, field, message.template)
                for inner in message.params.values():
                    assert not (isinstance(inner, str) and "$" in inner), (name, field, inner)
                    found += isinstance(inner, Money)
    assert found > 500


def test_the_sample_answers_reach_every_kind_of_part() -> None:
    """The samples are wrong and right in each part (so the English check covers them)."""
    names = {re.sub(r"\d+", "N", part.name) for _n, fb in SAMPLES for part in fb.parts
             if not part.correct}
    assert {"seat N", "seat N bonus", "seat N Envy", "seat N Queen's Dragon",
            "the order of settling", "the player-banker's commission", "Does it qualify for Envy?",
            "Bonus hand", "Amount paid"} <= names, names


def test_the_feedback_reads_in_english_byte_for_byte_as_before() -> None:
    expected = json.loads(FIXTURE.read_text(encoding="utf-8"))
    found = capture()
    assert sorted(found) == sorted(expected)
    for name in sorted(expected):
        assert found[name] == expected[name], name


@pytest.mark.parametrize("cents, english", [(4750, "$47.50"), (123456, "$1,234.56"),
                                            (-250, "-$2.50"), (500, "$5.00")])
def test_money_in_a_sentence_is_written_as_the_feedback_wrote_it(cents: int, english: str) -> None:
    assert str(Money(cents, grouped=True)) == english
    assert str(Message("You paid seat %(seat)s %(amount)s", seat=2,
                       amount=Money(cents, grouped=True))) == f"You paid seat 2 {english}"


def test_a_bet_is_written_short_as_said_at_the_table() -> None:
    assert [str(Money(c, grouped=True, short=True)) for c in (500, 250, 100_000)] == \
        ["$5", "$2.50", "$1,000"]
    assert str(Lowered(Message("Four of a Kind"))) == "four of a Kind"
    assert str(Lowered(Message("Four of a Kind"), whole=True)) == "four of a kind"
