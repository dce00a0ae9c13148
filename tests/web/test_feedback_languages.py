"""An answer's feedback in the reader's language, money in the reader's format (issue 19, item 1).

The drills' feedback sentences are the engine's ``Message``s (``engine/drills/explain.py``);
the verdict says them with ``web/engine_words.message_words``. A fake catalogue stands in for the
Spanish one (as ``test_engine_words.py`` does): every template the engine marks reads
``ES[...]``, so a sentence that was not said through the catalogue shows. For each drill
kind a Spanish reader answers a question wrong and reads the verdict's sentence and every
part in Spanish (and "how it is worked out"), each amount
written as Spanish money (``47,50 US$``), never ``$47.50``;
an English reader reads exactly the engine's English.
"""
from __future__ import annotations

import html as html_lib
import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from catalogue_tools import catalogues
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale, get_locale

from trainer.engine.drills import DRILLS
from trainer.engine.drills.explain import Feedback
from trainer.engine.messages import Joined, Lowered, Message, Money
from trainer.web.platform import languages
from trainer.web.words import engine_words
from web.helpers import login, post_form
from web.test_drills import fetch_question, send_answer, start
from web.test_feedback_words import answer_wrong, attempt_of, issued

KINDS = tuple(DRILLS)


ROOT = Path(__file__).resolve().parents[2]


def _marked_templates() -> set[str]:
    """The sentences the engine and the services mark with ``N_`` (babel.cfg's engine section)."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as cfg:
        _method_map, options_map = parse_mapping_cfg(cfg)
    options = options_map["trainer/engine/**.py"]
    return {message for folder in ("engine", "services")
            for _f, _l, message, _c, _ctx in extract_from_dir(
                str(ROOT / "trainer" / folder), [("**.py", "python")], {"**.py": options},
                keywords={})}


TEMPLATES = _marked_templates()


class FakeSpanish:
    """The request's translations: every engine template marked ES[...] for an es reader."""

    def __init__(self, real: Any) -> None:
        self.real = real

    def ugettext(self, text: str) -> str:
        if str(get_locale()) == "es" and text in TEMPLATES and text.strip():
            return f"ES[{text}]"
        return str(self.real.ugettext(text))


@pytest.fixture
def fake_spanish(monkeypatch: pytest.MonkeyPatch) -> None:
    real = engine_words.translations
    monkeypatch.setattr(engine_words, "translations", lambda: FakeSpanish(real()))


def reader(client: FlaskClient, trainee: Any, language: str) -> FlaskClient:
    login(client, trainee)
    post_form(client, "/auth/account/language", {"language": language})
    return client


def amounts(value: Any) -> list[int]:
    """Return the cents of every Money inside a sentence."""
    if isinstance(value, Money):
        return [value.cents]
    if isinstance(value, Message):
        return [c for inner in value.params.values() for c in amounts(inner)]
    if isinstance(value, Joined):
        return [c for item in value.items for c in amounts(item)]
    if isinstance(value, Lowered):
        return amounts(value.value)
    return []


def feedback_of(app: Flask, session_id: int, kind: str) -> Feedback:
    question, context = issued(app, session_id, 1)
    attempt = attempt_of(app, session_id)
    # Read through the drill's edge, as the services read a stored row.
    drill = DRILLS[kind]
    typed = drill.read_question(question)
    answer = None if attempt.answer is None else drill.read_answer(typed, attempt.answer, context)
    return drill.feedback(typed, answer, context)


def verdict_texts(page: str) -> tuple[str, list[str]]:
    """Return the verdict's sentence and each part's line, as text."""
    sentence = re.search(r'<p class="verdict-sentence">(.*?)</p>', page, re.S)
    assert sentence is not None, page
    parts = re.findall(r'<li class="part-(?:good|bad)"[^>]*>(.*?)</li>', page, re.S)
    text = [html_lib.unescape(re.sub(r"<[^>]+>", " ", p)) for p in parts]
    return html_lib.unescape(sentence.group(1)), text


@pytest.mark.parametrize("kind", KINDS)
def test_a_spanish_reader_reads_the_feedback_in_spanish_with_spanish_money(
        app: Flask, client: FlaskClient, trainee: Any, fake_spanish: None, kind: str) -> None:
    reader(client, trainee, "es")
    for _table in range(8):  # a settled table with a winner (an amount paid), in a few tries
        data, _expected, session_id = answer_wrong(app, client, kind)
        fb = feedback_of(app, session_id, kind)
        if kind != "settlement" or any(amounts(p.right) for p in fb.parts):
            break
    sentence, parts = verdict_texts(data["html"])
    assert sentence.startswith("ES["), sentence
    labels = re.findall(r"<strong>(.*?)</strong>:", data["html"])
    assert len(labels) == len(parts) == len(fb.parts)
    for label in labels:  # each part's name, capitalized as in English: "Es[seat 3]"
        assert label.lower().startswith("es["), label
    shown = [fb.sentence, *(p.right for p in fb.parts),
             *(v for p in fb.parts if not p.correct for v in (p.said, p.why))]
    cents = [c for value in shown for c in amounts(value)]
    with app.test_request_context(), force_locale("es"):
        spanish = {c: languages.money(c) for c in cents}
    text = sentence + " ".join(parts)
    for c, written in spanish.items():
        assert written in text, (c, written, text)
        assert "," in written and "$" in written  # 47,50 US$: Spanish, the installation's dollars
    assert not re.search(r"\$\d", text), text  # no amount written the English way
    worked = re.search(r'<dd class="explanation">(.*?)</dd>', data["html"], re.S)
    assert worked is not None
    # How it is worked out, said too: every kind (a hand-reading question that names one
    # hand says only the hand's name, in the reader's words from the engine's tables).
    if kind != "hand-reading" or "A: " in worked.group(1):
        assert worked.group(1).startswith("ES["), worked.group(1)
        assert not re.search(r"\$\d", html_lib.unescape(worked.group(1))), worked.group(1)
    if kind in ("settlement", "bonus"):
        assert cents, "this kind's wrong answer names amounts"


@pytest.mark.parametrize("kind", KINDS)
def test_an_english_reader_reads_the_engines_english_feedback(
        app: Flask, client: FlaskClient, trainee: Any, fake_spanish: None, kind: str) -> None:
    reader(client, trainee, "en")
    data, _expected, session_id = answer_wrong(app, client, kind)
    sentence, _parts = verdict_texts(data["html"])
    fb = feedback_of(app, session_id, kind)
    assert sentence == str(fb.sentence)
    assert data["feedback"]["sentence"] == str(fb.sentence)
    assert "ES[" not in data["html"]


# --- the services' refusals (item 2) and their extraction (item 4) ---------------------------

def test_a_service_refusal_reads_in_spanish_and_in_english_as_before(
        app: Flask, client: FlaskClient, trainee: Any, fake_spanish: None) -> None:
    reader(client, trainee, "es")
    session_id = start(client, "action", mode="practice")
    fetch_question(client, session_id)
    assert send_answer(client, session_id, 1, {"seat": 1}).status_code == 200
    again = send_answer(client, session_id, 1, {"seat": 2})
    assert again.status_code == 409
    assert again.get_json()["message"] == "ES[This question is already answered.]"
    post_form(client, "/auth/account/language", {"language": "en"})
    again = send_answer(client, session_id, 1, {"seat": 2})
    assert again.get_json()["message"] == "This question is already answered."


def test_the_services_and_the_editors_sentences_are_extracted_for_the_catalogues() -> None:
    """tools/catalogues.py (what the catalogues are made from) finds the services' N_ too."""
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in catalogues.extract() if m.id}
    for sentence in ("This question is already answered.", "The question number is missing.",
                     "There is no such custom house way.",
                     "The seed must be a whole number, zero or more.",
                     "%(drill)s: the exam asks at least one question.",
                     "The title", "%(what)s is empty: write it.",
                     "You picked seat %(seat)s", "%(said)s; %(right)s."):
        assert sentence in ids, sentence
