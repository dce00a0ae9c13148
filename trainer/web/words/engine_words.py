"""The engine's sentences in the reader's language (issue 19, docs/languages.md).

The engine writes English and marks each sentence with ``N_`` as a ``Message``
(``trainer/engine/messages.py``: a template with named placeholders and its values);
its refusals are ``EngineError``s carrying one. ``message_words`` translates: the template
through the catalogue (the per-request translations of ``web/platform/i18n.py``), and the
values that are words in turn (a nested ``Message``, a ``Joined`` list's separator),
whole numbers in the locale's digits and ``Money`` in the page's money. A value the
engine shows as it is (a card's notation, a seat, typed text) stays as it is.

A service's own refusal is raised with a ``Message`` (``DrillError(Message(N_(...)))``:
services mark their sentences with the engine's ``N_``, never Babel). A service that
words an engine refusal as its own error keeps the engine's as the cause
(``raise MalformedAnswer(str(error)) from error``); ``message_words`` of that error finds
the engine's message there, when the words are the same. Anything else is shown as
``str()``, as before. A translation whose placeholders do not fit falls back to the
English template, never a 500.
"""
from __future__ import annotations

from typing import Any

from flask_babel import format_decimal

from trainer.engine.hands import JOKER_AS, Category, HandName
from trainer.engine.house_way import words as way_words
from trainer.engine.messages import (
    Capital,
    EngineError,
    Joined,
    Lowered,
    Message,
    Money,
    Plural,
    Translated,
    Worded,
    capital,
    lowered,
)
from trainer.web.platform import languages
from trainer.web.platform.i18n import translations


def message_of(error: BaseException) -> Message | Joined | None:
    """Return the engine's message behind an error: its own, or its cause's with the same words.

    An error raised with a ``Message`` as its one argument (a service's refusal,
    ``raise DrillError(Message(N_("...")))``), or a ``Joined`` list of them (several
    problems at once), carries that message too.
    """
    seen: BaseException | None = error
    while seen is not None:
        found = seen.message if isinstance(seen, EngineError) else seen.args[0] \
            if len(seen.args) == 1 and isinstance(seen.args[0], Message | Joined) else None
        if found is not None:
            return found if str(seen) == str(error) else None
        seen = seen.__cause__
    return None


def message_words(obj: Any) -> str:
    """Return an engine message, or an error carrying one, in the reader's language."""
    if isinstance(obj, BaseException):
        found = message_of(obj)
        return str(obj) if found is None else _value(found)
    if isinstance(obj, Message):
        return _message(obj)
    return _value(obj)


def _message(message: Message) -> str:
    if isinstance(message, Plural):  # the catalogue's form for this count (Russian has three)
        template = translations().ungettext(message.template, message.plural, message.count)
        english = message.template if message.count == 1 else message.plural
    else:
        template, english = translations().ugettext(message.template), message.template
    if not message.params:
        return str(template)
    values = {key: _value(value) for key, value in message.params.items()}
    try:
        return str(template % values)
    except (KeyError, ValueError, TypeError):  # a catalogue entry that does not fit
        return str(english % values)


def _value(value: Any) -> str:
    if isinstance(value, Message):
        return _message(value)
    if isinstance(value, Joined):
        separator = translations().ugettext(value.separator) if value.separator.strip() \
            else value.separator
        return str(separator).join(_value(item) for item in value.items)
    if isinstance(value, Money):
        return languages.money(value.cents, short=value.short)
    if isinstance(value, Lowered):
        return lowered(_value(value.value), value.whole)
    if isinstance(value, Capital):
        return capital(_value(value.value))
    if isinstance(value, Translated):  # data's own words: the data's translation, if any
        return value.text_in(languages.language())
    if isinstance(value, HandName):
        return hand_name(value)
    if isinstance(value, Worded):
        # What stands for the English phrase, in the reader's language; a reader whose
        # catalogue leaves it in English reads the English phrase, which says more.
        said = _value(value.said)
        return value.english if said == str(value.said) else said
    if type(value) is int:
        return str(format_decimal(value))
    return str(value)


def hand_name(name: HandName) -> str:
    """Return a hand's description in the reader's language ("Pareja de ochos").

    The words are the house-way sheets' tables (``engine/house_way/words.py``: rank
    plurals, Russian genitive, one phrase per category), written with a capital as the
    English is; a language without a table (English, a pseudo-locale) reads the English.
    """
    lang = languages.language()
    if lang not in way_words.WORDS:
        return name.english
    if name.five:
        said = way_words.describe(name.category, name.ranks, lang)
    elif name.category is Category.ONE_PAIR:
        said = way_words.WORDS[lang].pair.format(of=way_words.WORDS[lang].of[name.ranks[0]])
    else:
        said = way_words.front_words(name.ranks[0], name.ranks[1], lang)
    said = capital(said)
    if name.joker_as:
        rank = "10" if name.joker_as == "T" else name.joker_as  # ten written as the cards show it
        said = _message(Message(JOKER_AS, hand=said, rank=rank))
    return said


def sentence_words(sentence: str | Message | Joined | Money | Translated) -> str:
    """Return one of the engine's fixed sentences (a rule book line, a hint) in the reader's language.

    The sentence is looked up as it is (the engine marks it with ``N_``); a sentence
    the catalogue does not hold, such as one made of several pieces, stays as written.
    A ``Message`` (a feedback's reason) is said as ``message_words`` says it.
    """
    if isinstance(sentence, Message):
        return _message(sentence)
    if not isinstance(sentence, str):  # several sentences (a ``Joined``) or an amount: said
        return _value(sentence)
    return str(translations().ugettext(sentence)) if sentence else sentence
