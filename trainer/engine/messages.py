"""The engine's sentences for people, marked for translation but written in English.

The engine is pure (no Babel): it marks each sentence a trainee, supervisor or
manager can read with the no-op ``N_`` (``pybabel extract -k N_`` finds them for the
catalogues, babel.cfg) and keeps it with its values as a ``Message``: a
``template`` with named placeholders (``%(card)s``) and its ``params``. ``str()``
of a message is the English sentence, byte for byte what the engine always said,
so the commands, tests and JSON API read as before; the web layer translates the
template and the params that are themselves words (``trainer/web/words/engine_words.py``,
docs/languages.md "The engine's sentences").

A refusal is an ``EngineError``, a ``ValueError`` whose ``str()`` is the English
sentence and whose ``message`` is the ``Message``. The values a template takes:

- a ``Message`` (a word or a phrase of its own, translated in turn);
- a ``Joined`` (several of those, joined with a separator);
- a whole number (written ``1,234`` in English, in the reader's locale by the web);
- a ``Money`` amount of whole cents (``$47.50`` in English, the reader's money by the web);
- a ``Lowered`` word (one of the above with a small first letter, in any language);
- a ``Capital`` word (one of the above with a capital first letter);
- a ``Translated`` text (data's own words, a house way's sheet sentence, with the data's
  translations: the web picks the reader's language);
- anything else (a card as notation, a seat number, typed text) is shown as it is.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def N_(text: str) -> str:
    """Mark a sentence for translation; the engine keeps it in English."""
    return text


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a count's sentence for translation as a plural entry (``keywords = Nn_:1,2``):
    ``Plural(Nn_("%(count)s hand foul", "%(count)s hands foul"), count)``."""
    return singular, plural


class Money:
    """An amount of whole cents inside a sentence, written ``$47.50`` in English.

    ``grouped`` adds the thousands comma (``$1,234.50``) where the sentence always had it;
    ``short`` drops a whole amount's cents (``$5``, a bet as said at the table), as the
    web's ``money(cents, short=True)`` does. ``sign_inside`` writes a negative amount's
    sign after the dollar (``$-110.00``), as the round drill's "How it is worked out"
    always wrote the bank's net; the web writes it as the reader's money either way.
    """

    __slots__ = ("cents", "grouped", "short", "sign_inside")

    def __init__(self, cents: int, grouped: bool = False, short: bool = False,
                 sign_inside: bool = False) -> None:
        self.cents, self.grouped, self.short = cents, grouped, short
        self.sign_inside = sign_inside

    def __str__(self) -> str:
        sign = "-" if self.cents < 0 else ""
        whole, part = divmod(abs(self.cents), 100)
        written = f"{whole:,}" if self.grouped else f"{whole}"
        written = written if self.short and not part else f"{written}.{part:02d}"
        return f"${sign}{written}" if self.sign_inside else f"{sign}${written}"

    def __repr__(self) -> str:
        return f"Money({self.cents})"


class Message:
    """A template with named placeholders and its values; ``str()`` is the English sentence."""

    __slots__ = ("params", "template")

    def __init__(self, template: str, **params: Any) -> None:
        self.template, self.params = template, params

    def __str__(self) -> str:
        if not self.params:  # a sentence without placeholders is never %-formatted
            return self.template
        return self.template % {key: english(value) for key, value in self.params.items()}

    def __repr__(self) -> str:
        return f"Message({self.template!r}, **{self.params!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Message) and other.template == self.template
                and other.params == self.params)

    def __hash__(self) -> int:
        return hash(self.template)


class Plural(Message):
    """A sentence about a count: the singular ``template`` for one, ``plural`` otherwise, in
    English; the web asks the catalogue's plural forms (``ngettext``: Russian has three).
    ``count`` is also the placeholder ``%(count)s``."""

    __slots__ = ("count", "plural")

    def __init__(self, forms: tuple[str, str], count: int, **params: Any) -> None:
        super().__init__(forms[0], count=count, **params)
        self.plural, self.count = forms[1], count

    def __str__(self) -> str:
        template = self.template if self.count == 1 else self.plural
        return template % {key: english(value) for key, value in self.params.items()}

    def __repr__(self) -> str:
        return f"Plural(({self.template!r}, {self.plural!r}), {self.count!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Plural) and other.template == self.template
                and other.plural == self.plural and other.params == self.params)

    def __hash__(self) -> int:
        return hash(self.template)


class Joined:
    """Several values shown one after another with ``separator`` between them."""

    __slots__ = ("items", "separator")

    def __init__(self, items: Iterable[Any], separator: str = " ") -> None:
        self.items, self.separator = tuple(items), separator

    def __str__(self) -> str:
        return self.separator.join(english(item) for item in self.items)


class Lowered:
    """A word or phrase (a ``Message``, a data text) written with a small first letter
    (``whole``: all of it in small letters) inside a sentence: "four of a kind pays ..."."""

    __slots__ = ("value", "whole")

    def __init__(self, value: Any, whole: bool = False) -> None:
        self.value, self.whole = value, whole

    def __str__(self) -> str:
        return lowered(english(self.value), self.whole)


class Worded:
    """A phrase the engine builds in English from parts ("Royal flush in hearts with the
    king and queen of hearts"), and what a reader of another language is told in its
    place (``said``: a ``Message`` or another value the web says) while the phrase has no
    words of its own in the catalogues. ``str()`` is the English, byte for byte."""

    __slots__ = ("english", "said")

    def __init__(self, english: str, said: Any) -> None:
        self.english, self.said = english, said

    def __str__(self) -> str:
        return self.english

    def __repr__(self) -> str:
        return f"Worded({self.english!r}, {self.said!r})"


class Translated:
    """Words that are data (a house way's sheet sentence, its title), with the data's own
    translations: ``str()`` is the English original; the web says the reader's language's
    text (``texts[lang]``), else the English (docs/languages.md)."""

    __slots__ = ("english", "texts")

    def __init__(self, english: str, texts: Mapping[str, str] | None = None) -> None:
        self.english, self.texts = english, dict(texts or {})

    def __str__(self) -> str:
        return self.english

    def __repr__(self) -> str:
        return f"Translated({self.english!r}, {self.texts!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Translated) and other.english == self.english
                and other.texts == self.texts)

    def __hash__(self) -> int:
        return hash(self.english)

    def text_in(self, lang: str | None) -> str:
        """Return the text in a language, the English original when the data has none."""
        return self.texts.get(lang or "", self.english)


class Capital:
    """A word or phrase written with a capital first letter inside a sentence (a label that
    starts it: "Two-pair: lower pair in front")."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __str__(self) -> str:
        return capital(english(self.value))


def capital(text: str) -> str:
    """Return ``text`` with a capital first letter."""
    return text[:1].upper() + text[1:]


def lowered(text: str, whole: bool = False) -> str:
    """Return ``text`` with a small first letter (``whole``: in small letters)."""
    return text.lower() if whole else text[:1].lower() + text[1:]


def english(value: Any) -> str:
    """Write one value of a template in English, as the engine always wrote it."""
    if type(value) is int:  # not a bool, a Card or an enum
        return f"{value:,}"
    return str(value)


class EngineError(ValueError):
    """A refusal in words: ``str()`` is the English sentence, ``message`` its ``Message``."""

    def __init__(self, message: Message | str, **params: Any) -> None:
        found = message if isinstance(message, Message) else Message(message, **params)
        super().__init__(str(found))
        self.message = found

    @property
    def template(self) -> str:
        """Return the message's template (the text a catalogue translates)."""
        return self.message.template

    @property
    def params(self) -> Mapping[str, Any]:
        """Return the message's values by placeholder name."""
        return self.message.params


def refusal(template: str, **params: Any) -> EngineError:
    """Return the error for a refusal: ``raise refusal(N_("..."), name=value)``."""
    return EngineError(template, **params)
