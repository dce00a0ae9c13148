""""How it is worked out" in the reader's language with a house way's own explanation in it.

The engine's explanation is a ``Message`` (issue 19, item 1); a house way's explanation
inside it is the sheet's text, which ``way_words.worked_out_words`` replaces by the sheet's
translation before the sentence is said. The Spanish words below are the preset's own
data (trump-plaza.toml), written out by hand, not computed by the code under test.
"""
from __future__ import annotations

from flask import Flask
from flask_babel import force_locale

from trainer.engine.drills.kinds.house_way import setting_explanation
from trainer.engine.hands import Wheel
from trainer.engine.house_way import load
from trainer.engine.messages import N_, Joined, Message
from trainer.web.words import way_words

SEVEN = "Jh Js 6c 6d 9h 4c 2s"
ENGLISH = "Two pair, jacks and sixes, no ace: split, sixes in front"
SPANISH = "Doble pareja, jotas y seises, sin as: separar, seises en la mano baja"


def _setting() -> dict[str, object]:
    setting = load("trump-plaza").set(SEVEN, Wheel.SECOND_HIGHEST)
    assert setting.explanation == ENGLISH
    return dict(setting.as_dict())


def test_the_house_way_drills_explanation_puts_the_sheets_translation_in(app: Flask) -> None:
    key = load("trump-plaza").set(SEVEN, Wheel.SECOND_HIGHEST)
    worked = setting_explanation(key, fouled=True)
    assert str(worked) == ENGLISH + ". Your setting was fouled."
    grade = {"correct_answer": _setting(), "explanation": str(worked)}
    fb = {"house_way": "trump-plaza"}
    with app.test_request_context():
        with force_locale("es"):
            said = way_words.worked_out_words(grade, fb, worked)
        with force_locale("en"):
            english = way_words.worked_out_words(grade, fb, worked)
    assert said.startswith(SPANISH + ".") and ENGLISH not in said
    assert english == ENGLISH + ". Your setting was fouled."


def test_the_foul_checks_reset_puts_the_sheets_translation_in(app: Flask) -> None:
    worked = Joined((Message(N_("Fouled: the front outranks the back.")),
                     Message(N_("Reset the house way: %(explanation)s."), explanation=ENGLISH)))
    grade = {"correct_answer": {"fouled": True, "reset": _setting()}, "explanation": str(worked)}
    with app.test_request_context(), force_locale("es"):
        said = way_words.worked_out_words(grade, {"house_way": "trump-plaza"}, worked)
    assert SPANISH in said and ENGLISH not in said
