"""The reader's language and the installation's currency and card letters, for this request.

``select_locale`` is Flask-Babel's locale selector: the reader's own language, else the
installation's, else the browser's ``Accept-Language``, else English (the order and the
settings: ``services/languages.py``). A signed-in request finds both on its loaded user
(``User.language`` and the installation's settings read in the same statement,
``web/platform/sessions.py``), so it sends no SQL of its own; an anonymous page reads the
installation's settings once (one statement, kept on ``g``).

Money is integer cents everywhere; ``money(cents)`` writes it in the page's locale and
the installation's currency exactly as Babel's ``format_currency`` does ("47,50 US$" in
Spanish, "US$ 47,50" in Portuguese, "$47.50" in English), from a ``MoneyFormat`` worked
out once per locale and currency (a template around the number, the decimal and group
signs). The page's scripts get the same ``MoneyFormat`` from ``<body data-money>``
(``base.html``, ``PaiGow.money`` in ``static/js/lib.js``), so a script never writes a
currency sign of its own.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from typing import Any

from babel import Locale
from babel.numbers import (
    format_currency,
    format_decimal,
    get_currency_symbol,
    get_decimal_symbol,
    get_minus_sign_symbol,
)
from flask import g, has_request_context, request
from flask.ctx import _AppCtxGlobals
from flask_babel import get_locale
from flask_login import current_user
from sqlalchemy.exc import SQLAlchemyError

from trainer.services import languages
from trainer.services.languages import DEFAULT_LANGUAGE, LANGUAGES, Installation
from trainer.web.platform import i18n

_G_INSTALLATION = "_trainer_installation"
# Where the number goes in a MoneyFormat's templates.
NUMBER = "%(n)s"


def installation() -> Installation:
    """Return the installation's language, currency and card letters for this request.

    Signed in: read with the user's session (no statement; ``keep_installation``).
    Otherwise one statement a request. Outside a request (a command): read now.
    """
    if not has_request_context():
        return languages.installation()
    cached: Installation | None = g.get(_G_INSTALLATION)
    if cached is None and current_user.is_authenticated:
        # Loading the signed-in user (first use of current_user) kept it (web/platform/sessions.load).
        cached = g.get(_G_INSTALLATION)
    if cached is not None:
        return cached
    try:
        found = languages.installation()
    except SQLAlchemyError:
        # No database to ask (an error page while it is down): the defaults.
        found = Installation()
    setattr(g, _G_INSTALLATION, found)
    return found


def keep_installation(found: Installation) -> None:
    """Keep for this request the installation's settings read with the signed-in user's session."""
    setattr(g, _G_INSTALLATION, found)


def forget_installation() -> None:
    """Drop this request's copy of the installation's settings (after the admin changes them)."""
    if has_request_context():
        g.pop(_G_INSTALLATION, None)


def select_locale() -> str:
    """Return the language of this request: the reader's, the installation's, the browser's, English."""
    if not has_request_context():
        return DEFAULT_LANGUAGE
    if current_user.is_authenticated:
        own = languages.language_or_none(getattr(current_user, "language", None))
        if own is not None:
            return own
    room = installation().language
    if room is not None:
        return room
    return browser_language() or DEFAULT_LANGUAGE


def browser_language() -> str | None:
    """Return the browser's most preferred supported language, if it names one."""
    if not has_request_context():
        return None
    found = request.accept_languages.best_match(LANGUAGES)
    return found if isinstance(found, str) else None


def language() -> str:
    """Return this page's language code ("pt"), whatever locale object Babel holds."""
    locale = get_locale()
    code = locale.language if locale is not None else DEFAULT_LANGUAGE
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


def language_choices() -> list[tuple[str, str]]:
    """Return (code, name in its own language) for every language, for a select."""
    return [(code, languages.LANGUAGE_NAMES[code]) for code in LANGUAGES]


@dataclass(frozen=True)
class MoneyFormat:
    """How one locale writes amounts of one currency: templates around the number, the signs."""

    positive: str   # "%(n)s US$"
    negative: str   # "-%(n)s US$"
    decimal: str    # ","
    group: str      # "."

    def number(self, cents: int, short: bool = False) -> str:
        """Write a non-negative amount's number: groups of three, two decimals (none if short and whole)."""
        whole, part = divmod(cents, 100)
        digits = str(whole)
        groups = [digits[max(0, i - 3):i] for i in range(len(digits), 0, -3)][::-1]
        text = self.group.join(groups)
        return text if short and part == 0 else f"{text}{self.decimal}{part:02d}"

    def format(self, cents: int, short: bool = False, signed: bool = False) -> str:
        """Write integer cents as money; ``short`` drops ",00"; ``signed`` adds "+" to a gain."""
        template = self.negative if cents < 0 else self.positive
        text = template.replace(NUMBER, self.number(abs(cents), short))
        return "+" + text if signed and cents > 0 else text

    def as_dict(self) -> dict[str, str]:
        """Return the fields for the page's scripts (``<body data-money>``)."""
        return {"positive": self.positive, "negative": self.negative,
                "decimal": self.decimal, "group": self.group}


@cache
def money_format(locale_code: str, currency: str) -> MoneyFormat:
    """Work out, once per locale and currency, how Babel writes its amounts."""
    locale = Locale.parse(locale_code)
    decimal = locale.number_symbols["latn"]["decimal"]
    group = locale.number_symbols["latn"]["group"]
    number = f"1{group}234{group}567{decimal}89"
    templates = []
    for value in ("1234567.89", "-1234567.89"):
        written = format_currency(Decimal(value), currency, locale=locale)
        if written.count(number) != 1:  # pragma: no cover - a locale Babel writes otherwise
            raise ValueError(f"Cannot read Babel's money format of {locale_code} {currency}: {written}")
        templates.append(written.replace(number, NUMBER))
    return MoneyFormat(templates[0], templates[1], decimal, group)


def page_money_format() -> MoneyFormat:
    """Return the money format of this page: its language, the installation's currency."""
    return money_format(language(), installation().currency)


def money(cents: Any, short: bool = False, signed: bool = False) -> str:
    """Write integer cents in the page's locale and currency ("47,50 US$"); a dash for no amount."""
    if isinstance(cents, bool) or not isinstance(cents, int):
        return "—"
    return page_money_format().format(cents, short=short, signed=signed)


_G_CARDS = "_trainer_card_setting"


def card_setting() -> tuple[str, bool]:
    """Return (language, local letters?) for drawing cards, worked out once per request and locale.

    Kept on ``g`` beside flask_babel's cached locale object and used again while it is
    the same one (``force_locale`` changes it), as ``web/i18n.translations()`` does.
    """
    if not has_request_context():
        return language(), installation().card_letters == "local"
    real_g: _AppCtxGlobals = g._get_current_object()
    locale = i18n.babel_locale(real_g)
    cached: tuple[Locale | None, tuple[str, bool]] | None = real_g.__dict__.get(_G_CARDS)
    if cached is not None and cached[0] is not None and cached[0] is locale:
        return cached[1]
    found = (language(), installation().card_letters == "local")
    setattr(real_g, _G_CARDS, (i18n.babel_locale(real_g), found))
    return found


@cache
def _currency_sign(locale_code: str, currency: str) -> str:
    return str(get_currency_symbol(currency, locale=locale_code))


def currency_sign() -> str:
    """Return the installation currency's sign as this page's language writes it ("US$", "$")."""
    return _currency_sign(language(), installation().currency)


def amount_placeholder() -> str:
    """Return an empty amount as the reader types one ("0,00"), for amount fields."""
    return page_money_format().number(0)


def number(value: Any, digits: int | None = None, grouped: bool = True) -> str:
    """Write a number in the reader's language: "1,000,000" in English, "1.000.000" in
    Spanish, "1 000 000" in Russian; ``digits`` fixes the decimals ("2.678", "2,678");
    ``grouped=False`` (with ``digits``) writes no thousands sign ("1234,5")."""
    if value is None:
        return "—"
    if digits is None:
        return format_decimal(value, locale=language())
    if not grouped:
        return _ungrouped(round(float(value), digits), digits, language())
    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
    return format_decimal(round(float(value), digits), format=pattern, locale=language())


@cache
def _signs(locale_code: str) -> tuple[str, str]:
    return str(get_decimal_symbol(locale_code)), str(get_minus_sign_symbol(locale_code))


def _ungrouped(value: float, digits: int, locale_code: str) -> str:
    """Write ``value`` (already rounded) with ``digits`` decimals and no thousands sign, as
    Babel's "0.0" pattern would in ``locale_code`` (the five languages write Latin digits),
    without Babel's pattern machinery: an answer's time is written this way on every answer."""
    point, minus = _signs(locale_code)
    text = f"{abs(value):.{digits}f}".replace(".", point)
    return minus + text if math.copysign(1.0, value) < 0 else text
