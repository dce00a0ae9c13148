"""Issue 26: a sentence for people writes a ten as the cards show it, 10 ("A-10 in front",
"Pair of sixes, A-10-3", "joker as 10"), never the notation's T; ids, the JSON form and
stored data keep the notation ("ranks": ["A", "K", "Q", "J", "T"], joker_as "T")."""
from __future__ import annotations

import json
import re

from trainer.engine.cards import parse_cards
from trainer.engine.hands import evaluate2, evaluate5
from trainer.engine.house_way import words
from trainer.engine.house_way.interpreter.wording import front_text

from .feedback_samples import FIXTURE

# The notation's ten inside a run of ranks ("A-T-6", "Q-T") or as a kicker ("T kicker").
RANK_T = re.compile(r"(?<![A-Za-z])T-[2-9AKQJ]|[2-9AKQJ]-T(?![A-Za-z])|\bT kicker\b|joker as T\b")


def test_hand_descriptions_write_ten_as_10_and_keep_the_notation_in_data() -> None:
    assert evaluate5(parse_cards("Ah Td 6c 6s 3d")).description == "Pair of sixes, A-10-3"
    assert evaluate2(parse_cards("Ah Td")).description == "A-10"
    with_joker = evaluate5(parse_cards("Ah Kd Qc Js JK"))
    assert with_joker.description == "Ace-high straight, joker as 10"
    assert with_joker.joker_as == "T" and with_joker.as_dict()["ranks"] == ["A", "K", "Q", "J", "T"]


def test_a_front_in_an_explanation_writes_ten_as_10_in_every_language() -> None:
    assert front_text(parse_cards("Ah Td")) == "A-10"
    for lang in words.WORDS:
        assert words.front_words(14, 10, lang) == "A-10"


def test_no_sample_feedback_writes_a_ten_as_t() -> None:
    samples = json.loads(FIXTURE.read_text(encoding="utf-8"))  # written by the code under test
    found = sorted({m.group(0) for m in RANK_T.finditer(json.dumps(samples, ensure_ascii=False))})
    assert len(samples) > 800 and found == []
