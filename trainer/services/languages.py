"""Languages, the currency and the cards' letters: the reader's and the installation's (issue 19).

``LANGUAGES`` is the one list of the languages the trainer speaks; the app's config,
the locale selector, the account page and the admin's page all read it here.

The language a page uses is, in order (``web/platform/languages.py`` asks): the reader's own
(``User.language``, chosen on the account page and set by ``services/accounts.py``), the
installation's (an admin's setting, ``language``), the browser's ``Accept-Language``, else
English. The same order as the time zones (``services/time_zones.py``): the room's choice
comes before each browser's, so a training room whose tablets are set to English still
reads its own language.

The installation's settings are rows of ``installation_settings`` (key, value):
``language`` (one of ``LANGUAGES``; no row: each browser's), ``currency`` (an ISO 4217
code with two minor digits; no row: USD) and ``card_letters`` (``international``, the
A K Q J 10 every casino prints, or ``local``; no row: international). A bad stored
value reads as the default. A signed-in request reads them in the same statement as
its user (``installation_columns``, ``web/platform/sessions.py``), so choosing the language
costs no SQL statement of its own.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from babel.numbers import get_currency_precision, is_currency

from trainer.extensions import db
from trainer.models import InstallationSetting
from trainer.services import audit

# The languages the trainer speaks: English first (the source language), then the
# markets that deal the game (issue 19). One constant, one place.
LANGUAGES: tuple[str, ...] = ("en", "pt", "es", "it", "ru")
DEFAULT_LANGUAGE = "en"
# Each language's name in itself, for the menus that choose one (never translated:
# a reader who cannot read the page can still find their own language).
LANGUAGE_NAMES: dict[str, str] = {
    "en": "English", "pt": "Português", "es": "Español", "it": "Italiano", "ru": "Русский",
}

DEFAULT_CURRENCY = "USD"
CARD_LETTERS = ("international", "local")
DEFAULT_CARD_LETTERS = "international"

LANGUAGE_KEY = "language"
CURRENCY_KEY = "currency"
CARD_LETTERS_KEY = "card_letters"
KEYS = (LANGUAGE_KEY, CURRENCY_KEY, CARD_LETTERS_KEY)


def language_or_none(code: object) -> str | None:
    """Return a supported language code as given, else None (never raises)."""
    return code if isinstance(code, str) and code in LANGUAGES else None


def currency_or_none(code: object) -> str | None:
    """Return an ISO 4217 code with two minor digits (cents), else None (never raises)."""
    if not isinstance(code, str) or len(code) != 3 or not code.isalpha() or not code.isupper():
        return None
    return code if is_currency(code) and get_currency_precision(code) == 2 else None


@dataclass(frozen=True)
class Installation:
    """The installation's language (None: each browser's), currency and card letters."""

    language: str | None = None
    currency: str = DEFAULT_CURRENCY
    card_letters: str = DEFAULT_CARD_LETTERS

    @classmethod
    def from_values(cls, language: Any, currency: Any, card_letters: Any) -> Installation:
        """Build from stored values (None or junk: the default), in the order of ``KEYS``."""
        return cls(language=language_or_none(language),
                   currency=currency_or_none(currency) or DEFAULT_CURRENCY,
                   card_letters=card_letters if card_letters in CARD_LETTERS
                   else DEFAULT_CARD_LETTERS)


def installation_columns() -> list[Any]:
    """Return one scalar subquery per setting (in the order of ``KEYS``), to read with a user."""
    return [db.select(InstallationSetting.value).where(InstallationSetting.key == key)
            .scalar_subquery().label(f"installation_{key}") for key in KEYS]


def installation() -> Installation:
    """Read the installation's settings (one statement)."""
    rows = {row.key: row.value for row in db.session.execute(
        db.select(InstallationSetting.key, InstallationSetting.value)
        .where(InstallationSetting.key.in_(KEYS)))}
    return Installation.from_values(*(rows.get(key) for key in KEYS))


def checked_language(code: str | None) -> str | None:
    """Return a language code as kept (None for empty); ValueError, in words, for another."""
    code = (code or "").strip()
    if not code:
        return None
    if language_or_none(code) is None:
        raise ValueError(f"\u201c{code[:16]}\u201d is not a language of this trainer; "
                         f"choose one of {', '.join(LANGUAGES)}.")
    return code


def checked_currency(code: str | None) -> str:
    """Return a currency code as kept (empty: USD); ValueError, in words, for a bad one."""
    code = (code or "").strip().upper()
    if not code:
        return DEFAULT_CURRENCY
    if currency_or_none(code) is None:
        raise ValueError(f"\u201c{code[:16]}\u201d is not a currency the trainer can show: write "
                         "an ISO 4217 code of a currency with cents, such as USD, EUR, BRL or RUB.")
    return code


def set_installation(actor_id: int, language: str | None, currency: str | None,
                     card_letters: str | None) -> None:
    """Set the installation's language, currency and card letters, and log the change.

    Checks every value before changing any (ValueError in words); the caller commits.
    """
    new = Installation(
        language=checked_language(language),
        currency=checked_currency(currency),
        card_letters=_checked_letters(card_letters),
    )
    old = installation()
    if new == old:
        return
    rows = {row.key: row for row in db.session.execute(
        db.select(InstallationSetting).where(InstallationSetting.key.in_(KEYS))).scalars()}
    # The default is kept as no row, so a later default change reaches every installation.
    values = {LANGUAGE_KEY: new.language,
              CURRENCY_KEY: None if new.currency == DEFAULT_CURRENCY else new.currency,
              CARD_LETTERS_KEY: None if new.card_letters == DEFAULT_CARD_LETTERS
              else new.card_letters}
    for key, value in values.items():
        row = rows.get(key)
        if value is None:
            if row is not None:
                db.session.delete(row)
        elif row is None:
            db.session.add(InstallationSetting(key=key, value=value))
        else:
            row.value = value
    audit.record(actor_id, "installation.settings", "installation", 0,
                 old={"language": old.language, "currency": old.currency,
                      "card_letters": old.card_letters},
                 new={"language": new.language, "currency": new.currency,
                      "card_letters": new.card_letters})


def _checked_letters(value: str | None) -> str:
    value = (value or "").strip() or DEFAULT_CARD_LETTERS
    if value not in CARD_LETTERS:
        raise ValueError("The cards' letters are either international (A K Q J) or local.")
    return value
