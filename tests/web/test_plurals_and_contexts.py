"""Counts read right in every language, and words with two meanings carry a context (issue 19).

Russian has three plural forms (1 раздача, 2 раздачи, 5 раздач), so a sentence about a
count is a plural entry of the catalogue (``ngettext`` in templates and Python, the
engine's and services' ``Plural(Nn_(singular, plural), count)``), never a singular
chosen in code or a plural fixed in the text. The catalogues' translations are written
later, so these tests read the extraction (Babel's API, as ``tools/catalogues.py``
extracts; nothing is written to ``translations/``) and put a fake Russian catalogue,
compiled from it with three marked forms, in front of the page. Also here: numbers the
``percent`` and ``seconds`` filters write in the reader's language.
"""
from __future__ import annotations

import io
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.support import Translations
from catalogue_tools import catalogues  # tools/catalogues.py: the extraction babel.cfg describes
from flask import Flask, render_template_string
from flask_babel import force_locale

from trainer.engine.messages import Nn_, Plural
from trainer.services import house_ways, jobs
from trainer.web.platform import filters, i18n
from trainer.web.words import engine_words

ROOT = Path(__file__).resolve().parents[2]

# Sentences about a count, (singular, plural) as the catalogue must hold them.
PLURALS = [
    # The house-way check (templates/manager/ways/*, the publish refusal of services/house_ways/).
    ("%(n)s of %(num)s hand foul.", "%(n)s of %(num)s hands foul."),
    ("%(num)s hand no rule decides.", "%(num)s hands no rule decides."),
    ("Checked: %(fouled)s of %(num)s hand foul; %(undecided)s undecided.",
     "Checked: %(fouled)s of %(num)s hands foul; %(undecided)s undecided."),
    ("%(num)s hand set differently.", "%(num)s hands set differently."),
    ("%(count)s hand foul", "%(count)s hands foul"),
    ("no rule decides %(count)s hand", "no rule decides %(count)s hands"),
    # The supervisor's overview and group criteria.
    ("of %(num)d trainee ready to deal", "of %(num)d trainees ready to deal"),
    ("%(num)d answer", "%(num)d answers"),
    ("exam of %(num)d question, %(s)d s each", "exam of %(num)d questions, %(s)d s each"),
    # The drill pages and exams.
    ("%(num)d question · %(seconds)d s each when timed", "%(num)d questions · %(seconds)d s each when timed"),
    ("house way %(hw)s · table rules %(profile)s · %(num)d question · %(s)d s a question",
     "house way %(hw)s · table rules %(profile)s · %(num)d questions · %(s)d s a question"),
    ("%(num)d more timed answer", "%(num)d more timed answers"),
    # Python: forms and the request limits.
    ("A password needs at least %(num)d character.", "A password needs at least %(num)d characters."),
    ("The request holds more than %(num)d value.", "The request holds more than %(num)d values."),
]

# (context, word): the same English word with different meanings in different places.
CONTEXTS = [
    ("a column of the audit log: what was done", "Action"),
    ("the round's first step: the dice say which seat is dealt first", "Action"),
    ("a column: how many answers were right", "Right"),
    ("a column: the cards dealt in a question", "Hand"),
    ("a pay table's column: the winning poker hand", "Hand"),
    ("two hands that tie", "Copy"),
]

FORMS = ("ONE", "FEW", "MANY")


@pytest.fixture(scope="module")
def extracted() -> Catalog:
    return catalogues.extract(ROOT)


@pytest.fixture
def russian(extracted: Catalog, monkeypatch: pytest.MonkeyPatch) -> Translations:
    """A Russian catalogue of every plural entry: each form marked ONE/FEW/MANY, in front
    of the templates' and the engine's translations."""
    catalog = Catalog(locale="ru", fuzzy=False)
    for message in extracted:
        if message.id and message.pluralizable:
            catalog.add(message.id, tuple(f"{form}[{message.id[1]}]" for form in FORMS))
    assert catalog.num_plurals == 3
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    found = Translations(fp=buffer)
    monkeypatch.setattr(i18n, "translations", lambda: found)
    monkeypatch.setattr(engine_words, "translations", lambda: found)
    return found


@pytest.mark.parametrize("singular, plural", PLURALS)
def test_each_counted_sentence_is_extracted_as_a_plural(extracted: Catalog, singular: str,
                                                       plural: str) -> None:
    message = extracted.get(singular)
    assert message is not None, f"{singular!r} is not extracted"
    assert message.id == (singular, plural), f"{singular!r} is not a plural entry: {message.id!r}"


def test_no_count_is_left_as_a_fixed_plural(extracted: Catalog) -> None:
    """The old singular-only msgids are gone (the plural was fixed in the text)."""
    ids = {m.id for m in extracted if isinstance(m.id, str)}
    for old in ("%(n)s of %(hands)s hands foul.", "of %(n)d trainees ready to deal", "%(n)d answers",
                "%(length)d questions · %(seconds)d s each when timed", "%(count)s hands foul",
                "%(count)s hand foul", "%(n)s more timed answers"):
        assert old not in ids, old


@pytest.mark.parametrize("context, word", CONTEXTS)
def test_words_with_two_meanings_carry_a_context(extracted: Catalog, context: str, word: str) -> None:
    assert extracted.get(word, context=context) is not None, (context, word)


def test_action_has_no_context_free_entry_left(extracted: Catalog) -> None:
    """"Action" means the dice's step in one place and a log column in another: each says which."""
    assert extracted.get("Action") is None


def _terms(app: Flask, length: int, lang: str) -> str:
    exam = SimpleNamespace(id=1, house_way="trump-plaza", profile="nevada", length=length,
                           time_limit_ms=10_000)
    with app.test_request_context(), force_locale(lang):
        return render_template_string(
            '{% from "exams/_terms.html" import exam_terms %}{{ exam_terms(exam) }}', exam=exam)


def test_an_exams_terms_say_1_question_and_2_questions_in_english(app: Flask) -> None:
    assert "· 1 question ·" in _terms(app, 1, "en")
    assert "· 2 questions ·" in _terms(app, 2, "en")


def test_russian_picks_a_different_form_for_1_2_and_5_in_a_template(app: Flask, russian: Any) -> None:
    said = [_terms(app, n, "ru") for n in (1, 2, 5)]
    for form, text in zip(FORMS, said, strict=True):
        assert f"{form}[" in text, text
    assert "1 question" in said[0] and "2 questions" in said[1] and "5 questions" in said[2]


def test_the_engines_plural_is_english_by_str_and_three_forms_in_russian(app: Flask,
                                                                         russian: Any) -> None:
    forms = Nn_("%(count)s hand foul", "%(count)s hands foul")
    assert [str(Plural(forms, n)) for n in (1, 2, 5)] == ["1 hand foul", "2 hands foul", "5 hands foul"]
    with app.test_request_context(), force_locale("ru"):
        said = [engine_words.message_words(Plural(forms, n)) for n in (1, 2, 5)]
    assert said == ["ONE[1 hands foul]", "FEW[2 hands foul]", "MANY[5 hands foul]"]


def test_the_publish_refusal_counts_hands_with_plural_forms(app: Flask, russian: Any,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(house_ways.publishing, "digest_of", lambda draft: "d")
    record: Any = SimpleNamespace(draft_digest="d", draft={})

    def refusal(fouled: int, undecided: int) -> Any:
        job = SimpleNamespace(status="done", result={"fouled_hands": fouled, "undecided_hands": undecided})
        monkeypatch.setattr(jobs, "latest", lambda key: job)
        return house_ways.publish_refusal(record)

    one = refusal(1, 2)
    assert str(one) == ("The check found that 1 hand foul and no rule decides 2 hands: "
                        "correct the rules and check again.")
    with app.test_request_context(), force_locale("ru"):
        said = engine_words.message_words(one)
        five = engine_words.message_words(refusal(5, 1))
    assert "ONE[1 hands foul]" in said and "FEW[no rule decides 2 hands]" in said
    assert "MANY[5 hands foul]" in five and "ONE[no rule decides 1 hands]" in five


@pytest.mark.parametrize("lang, share, ms", [
    ("en", "50%", "2.5"), ("ru", "50\u00a0%", "2,5"), ("es", "50\u00a0%", "2,5"), ("pt", "50%", "2,5"),
])
def test_percent_and_seconds_are_written_in_the_readers_language(app: Flask, lang: str, share: str,
                                                                 ms: str) -> None:
    with app.test_request_context(), force_locale(lang):
        assert filters.percent(0.5) == share
        assert filters.seconds(2500) == ms
        assert filters.percent(None) == "—" and filters.seconds(None) == "—"


def test_english_percent_and_seconds_are_as_before(app: Flask) -> None:
    """Rounded as the f-strings were (half to even on the float), no thousands sign on seconds."""
    with app.test_request_context(), force_locale("en"):
        for value in (0.0, 0.125, 0.295, 0.5, 0.999, 1.0, 0.8333333):
            assert filters.percent(value) == f"{value * 100:.0f}%"
        for ms in (0, 49, 50, 150, 12_345, 1_234_567):
            assert filters.seconds(ms) == f"{ms / 1000:.1f}"


def test_a_criterions_figures_are_written_in_the_readers_language(app: Flask) -> None:
    """A certification criterion's accuracy and median time (97.5, 8.5) read "97,5" and
    "8,5 с" in Russian: every template that writes one passes it through ``number``."""
    with app.test_request_context(), force_locale("ru"):
        page = render_template_string(
            '{{ acc|number }}% {{ _("%(s)s s", s=s|number) }}', acc=97.5, s=8.5)
        assert page == "97,5% 8,5 с", page
    with app.test_request_context(), force_locale("en"):
        assert render_template_string("{{ 98.0|number }}") == "98"  # as "%g" wrote it
    raw = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for found in re.finditer(r"\.(min_accuracy|max_median_s)\b(\s*\|\s*number)?", line):
                written = "{{" in line[:found.start()] and not found.group(2)
                condition = re.search(r"\{%[^%]*$", line[:found.start()])
                if written and not condition:
                    raw.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:120]}")
    assert raw == [], "criterion figures written raw:\n" + "\n".join(raw)
