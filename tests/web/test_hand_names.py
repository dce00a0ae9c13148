"""Hand descriptions inside the engine's sentences in the reader's language (issue 19).

``HandValue.name`` is a sentence's value whose ``str()`` is the English description; the
web words it from ``engine/house_way/words.py``'s tables (``engine_words.hand_name``).
"""
from __future__ import annotations

from flask import Flask
from flask_babel import force_locale

from trainer.engine.cards import parse_cards
from trainer.engine.drills.kinds.hand_reading import HandReadingDrill, ReadingQuestion
from trainer.engine.hands import evaluate2, evaluate5
from trainer.engine.setting import foul_message
from trainer.web.words import engine_words


def test_a_hand_description_reads_in_the_readers_language(app: Flask) -> None:
    pair = evaluate5(parse_cards("8s 8h Kd 5c 2s", 5))
    two = evaluate5(parse_cards("Ks Kh 5d 5c 2s", 5))
    straight = evaluate5(parse_cards("Ts 9h 8d 7c 6s", 5))
    front = evaluate2(parse_cards("Ks 7h", 2))
    with app.test_request_context():
        with force_locale("es"):
            assert engine_words.message_words(pair.name) == "Pareja de ochos, K-5-2"
            assert engine_words.message_words(two.name) == "Doble pareja, reyes y cincos, kicker 2"
            assert engine_words.message_words(straight.name) == "Escalera al diez"
            assert engine_words.message_words(front.name) == "K-7"
        with force_locale("ru"):
            assert engine_words.message_words(evaluate2(parse_cards("8s 8h", 2)).name) == "Пара восьмёрок"
        with force_locale("en"):
            for value in (pair, two, straight, front):
                assert engine_words.message_words(value.name) == value.description


def test_the_joker_role_is_said_after_the_hand_in_the_readers_language(app: Flask) -> None:
    value = evaluate5(parse_cards("JK Ks Kh 5d 2c", 5))
    assert value.joker_as
    with app.test_request_context():
        with force_locale("it"):
            said = engine_words.message_words(value.name)
        with force_locale("en"):
            assert engine_words.message_words(value.name) == value.description
    assert said.startswith("Coppia di re, A-5-2, ") and said.endswith(f"{value.joker_as}"), said


def test_the_foul_sentence_names_the_hands_in_english_byte_for_byte_and_in_spanish(
        app: Flask) -> None:
    message = foul_message(parse_cards("9s 7h 5d 3c 2s", 5), parse_cards("As Ah", 2))
    assert message is not None
    assert str(message) == ("Fouled: the front (Pair of aces) outranks the back "
                            "(Nine-high pai gow, 9-7-5-3-2); the five-card hand must be the higher.")
    with app.test_request_context(), force_locale("es"):
        said = engine_words.message_words(message)
    assert "(Pareja de ases)" in said and "(Pai gow al nueve, 9-7-5-3-2)" in said, said


def test_a_hand_reading_explanation_is_the_grades_in_english() -> None:
    question = ReadingQuestion(mode="compare", a=("8s", "8h", "Kd", "5c", "2s"),
                               b=("Ts", "9h", "8d", "7c", "6s"))
    said = HandReadingDrill._compared(question, "second_highest")
    assert str(said) == "A: Pair of eights, K-5-2. B: Ten-high straight"
