"""Labels quoted inside the house-way editor's problems read in the manager's language (issue 19).

The editor's validation (``engine/house_way/editing/``) quotes hand shapes, rule kinds
and condition names as values the web translates (``Message(label)``, marked with ``N_``);
the fake catalogue (``test_feedback_languages.fake_spanish``) marks each ``ES[...]``.
"""
from __future__ import annotations

import pytest
from flask import Flask
from flask_babel import force_locale

from trainer.engine.house_way import editing as E
from trainer.web.words import engine_words
from web.test_feedback_languages import fake_spanish  # noqa: F401  (the fixture)


def said_at(data: dict, language: str) -> dict[str, str]:
    out = {}
    for error in E.validate(data):
        assert error.said is not None
        with force_locale(language):
            out[error.path] = engine_words.message_words(error.said)
    return out


def with_first_rule(**changes: object) -> dict:
    data = E.preset_data("trump-plaza")
    data["sections"][0]["rules"][0].update(changes)
    return data


@pytest.mark.usefixtures("fake_spanish")
def test_a_spanish_manager_reads_the_quoted_kind_and_shapes_in_spanish(app: Flask) -> None:
    data = with_first_rule(id="two-pair.split.here")
    with app.test_request_context():
        es = said_at(data, "es")["sections[0].rules[0].when.shapes"]
        en = said_at(data, "en")["sections[0].rules[0].when.shapes"]
    # The placing's words are the rule kind's, translatable too (issue 27: a hint says them).
    assert es == ("ES[A 'ES[ES[two-pair]: ES[lower pair] in front]' rule can only set ES[two-pair] "
                  "hands, but ES[no-pair] hands can reach this rule: choose the hand shapes it "
                  "is for.]"), es
    assert en.startswith("A 'Two-pair: lower pair in front' rule can only set two-pair hands, "
                         "but no-pair hands"), en


@pytest.mark.usefixtures("fake_spanish")
def test_a_spanish_manager_reads_the_quoted_condition_name_in_spanish(app: Flask) -> None:
    data = E.preset_data("trump-plaza")
    data["sections"][1]["rules"][0].setdefault("when", {})["ace"] = "yes"
    with app.test_request_context():
        es = said_at(data, "es")
        en = said_at(data, "en")
    path = "sections[1].rules[0].when.ace"
    assert es[path] == "ES['ES[An ace singleton (the joker counts)]' is answered yes or no.]"
    assert en[path] == "'An ace singleton (the joker counts)' is answered yes or no."
