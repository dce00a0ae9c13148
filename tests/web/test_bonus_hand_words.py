"""The bonus drill's seven-card hand in the reader's language (issue 19).

The engine describes a judged bonus hand in English ("Queen-high flush, Q-9-7-6-3",
"Royal flush in diamonds with the king and queen of hearts"); ``BonusHand.said`` is the
same description as a value the web says: a five-card hand's ``HandName`` (worded from the
sheets' tables), the no-hand sentence, or the category's title for the seven-card and
royal-match hands. English reads as before, byte for byte.
"""
from __future__ import annotations

import random

import pytest
from flask import Flask

from trainer.engine.messages import Lowered
from trainer.engine.side_bets import PAY_ORDER
from trainer.engine.side_bets.categories import BonusCategory, bonus_hand, sample_hand
from trainer.web.words.engine_words import message_words

HANDS = [bonus_hand(sample_hand(category, random.Random(seed)))
         for category in PAY_ORDER for seed in range(12)]


def test_every_bonus_hands_words_are_its_english_description() -> None:
    assert {h.category for h in HANDS} == set(PAY_ORDER)
    for hand in HANDS:
        assert hand.said is not None and str(hand.said) == hand.description, hand


def test_english_readers_read_the_description_as_before(app: Flask) -> None:
    with app.test_request_context(headers={"Accept-Language": "en"}):
        for hand in HANDS:
            assert message_words(Lowered(hand.said)) == hand.description[:1].lower() + hand.description[1:]


@pytest.mark.parametrize("lang", ["es", "pt", "it", "ru"])
def test_other_readers_read_the_hand_in_their_language(app: Flask, lang: str) -> None:
    # English words no glossary borrows ("full", "flush", "straight" and "royal match" are
    # the casino's loanwords in some languages; "no" and "in" are Spanish and Italian too).
    english = {"nothing", "better", "kind", "aces", "spades", "hearts", "diamonds", "clubs",
               "joker", "seven-card", "high", "with", "of"}
    with app.test_request_context(headers={"Accept-Language": lang}):
        for hand in HANDS:
            said = message_words(Lowered(hand.said))
            words = {w.strip(",.:()").lower() for w in said.split()}
            assert not words & english, (hand.category, hand.description, said)
            if hand.category is BonusCategory.NOTHING:
                assert said != "nothing: no straight or better"
