"""Amounts a person types, read in the page's language: the one parser (issue 19, item 3).

Money is integer cents; people type it the way their language writes it: "47.50" in
English, "47,50" in Portuguese, Spanish, Italian and Russian. ``parse_cents(text,
language)`` returns the cents or raises ``AmountError`` with a sentence in the reader's
language. The rules (docs/languages.md, "Typed amounts"):

- The language's decimal sign (``.`` in English, ``,`` in the others), at most once,
  then one or two digits: "47,5" is 47,50. Three decimals are refused.
- The other of ``.`` and ``,`` is refused when it stands where it cannot group
  thousands: "47.50" in Spanish (and "47,50" in English) is refused with the right
  way to write it, never guessed.
- Thousands: written with the language's group sign in groups of three. In Russian
  that is a space, which no language uses as a decimal sign, so "1 234,50" and
  "1 234" are read. A "." or "," group sign is only read when the decimal part follows
  ("1.234,50" in Spanish, "1,234.50" in English): alone, "1.234" in Spanish could be
  1234 or a decimal amount written the English way, and "1,234" in English could be
  1234 or 1,234 written the continental way, so both are refused as ambiguous, with
  the two ways to write it clearly. Plain digits ("1234") always work.
- A currency sign or code before or after the number is allowed ("$47.50", "47,50 €",
  "US$ 47,50"); a minus sign is refused (amounts paid are never negative); anything
  else is not an amount.

The drill answers carry typed text in their ``*_cents`` fields; ``read_amounts``
turns every such text into cents before the answer reaches the drill service
(``web/trainee/drills.py``), so an ambiguous amount is refused and nothing is recorded.
"""
from __future__ import annotations

import re
from typing import Any

from babel.numbers import is_currency
from flask_babel import gettext as _

# Longest whole part read (digits): far above any table's money (the engine's MAX_CENTS).
MAX_DIGITS = 9
# The decimal and the thousands signs of each language (Babel's, for these five).
DECIMAL = {"en": ".", "pt": ",", "es": ",", "it": ",", "ru": ","}
GROUP = {"en": ",", "pt": ".", "es": ".", "it": ".", "ru": " "}
# Spaces people type between thousands (Russian): space, no-break and narrow no-break.
SPACES = " \u00a0\u202f"
MINUS = "-\u2212\u2013"
# A currency sign or code a person may type before or after the number ("US$", "€", "EUR").
_SIGN = r"(?:[A-Za-z]{0,2}\$|[€£₽¥]|[A-Z]{3}|руб\.?|р\.)"
LEADING = re.compile(r"^(" + _SIGN + r")\s*")
TRAILING = re.compile(r"\s*(" + _SIGN + r")$")


class AmountError(ValueError):
    """A typed amount that is not one, or not clearly one; the message says how to write it."""


def _example(language: str) -> str:
    return "47" + DECIMAL.get(language, ".") + "50"


def parse_cents(text: Any, language: str) -> int:
    """Return the cents a person typed in ``language``'s format, or raise AmountError in words."""
    decimal, group = DECIMAL.get(language, "."), GROUP.get(language, ",")
    foreign = "," if decimal == "." else "."
    if not isinstance(text, str):
        raise AmountError(_("Write an amount, such as %(example)s.", example=_example(language)))
    shown = text.strip()[:24]
    value = _without_currency(text.strip())
    if not value:
        raise AmountError(_("Write an amount, such as %(example)s.", example=_example(language)))
    if any(m in value for m in MINUS):
        raise AmountError(_("“%(text)s”: an amount paid is never negative.", text=shown))
    if group == " ":
        value = re.sub(f"[{SPACES}]", " ", value)
    whole, sep, part = value.partition(decimal)
    if not re.fullmatch(r"[0-9., \u00a0\u202f]+", value) or (sep and decimal in part):
        raise AmountError(_("“%(text)s” is not an amount: write one such as %(example)s.",
                            text=shown, example=_example(language)))
    if sep and part and not part.isdigit():
        # "1,234.50" in Spanish: both signs, the English way round.
        raise AmountError(_("“%(text)s” is not written as amounts are in this language: "
                            "write it with a %(sign)s, such as %(example)s.", text=shown,
                            sign=_sign_name(decimal), example=_example(language)))
    if sep and len(part) == 3 and re.fullmatch(r"[0-9]{1,3}", whole):
        # "1.234" in English, "1,234" in Spanish: a thousand written the other way?
        raise _unclear(shown, whole + part, decimal, language)
    if sep and not re.fullmatch(r"[0-9]{1,2}", part):
        raise AmountError(_("“%(text)s”: write at most two digits after the %(sign)s, such as "
                            "%(example)s.", text=shown, sign=_sign_name(decimal),
                            example=_example(language)))
    if foreign in whole and foreign != group:
        # "47.50" in Spanish or Russian: the English decimal point, never guessed.
        raise AmountError(_("“%(text)s” is not written as amounts are in this language: "
                            "write it with a %(sign)s, such as %(example)s.", text=shown,
                            sign=_sign_name(decimal), example=_example(language)))
    if group in whole or (group == " " and " " in whole):
        grouped = re.fullmatch(r"[0-9]{1,3}(?:" + re.escape(group) + r"[0-9]{3})+", whole)
        if grouped is None:
            if group in ".,":
                # "47.50" in Spanish, "47,50" in English: the other decimal sign.
                raise AmountError(_("“%(text)s” is not written as amounts are in this language: "
                                    "write it with a %(sign)s, such as %(example)s.", text=shown,
                                    sign=_sign_name(decimal), example=_example(language)))
            raise AmountError(_("“%(text)s” is not an amount: write one such as %(example)s.",
                                text=shown, example=_example(language)))
        if not sep and group in ".,":
            # "1.234" in Spanish, "1,234" in English: a thousand, or cents written the other way?
            raise _unclear(shown, whole.replace(group, ""), decimal, language)
        whole = whole.replace(group, "")
    if sep and not whole:
        whole = "0"  # ",50": fifty cents
    if not re.fullmatch(r"[0-9]+", whole):
        raise AmountError(_("“%(text)s” is not an amount: write one such as %(example)s.",
                            text=shown, example=_example(language)))
    if len(whole.lstrip("0")) > MAX_DIGITS:
        raise AmountError(_("“%(text)s” is far too large an amount.", text=shown))
    return int(whole) * 100 + (int((part + "0")[:2]) if sep else 0)


def _unclear(shown: str, plain: str, decimal: str, language: str) -> AmountError:
    return AmountError(_("“%(text)s” is not clear: it could be thousands or cents. Write "
                         "%(plain)s without a separator for whole units, or at most two digits "
                         "after the %(sign)s for cents, such as %(example)s.", text=shown,
                         plain=plain, sign=_sign_name(decimal), example=_example(language)))


def _without_currency(text: str) -> str:
    """Drop one currency sign or ISO code before or after the number (not both)."""
    for pattern in (LEADING, TRAILING):
        found = pattern.search(text)
        sign = found.group(1) if found else ""
        if found and (not (len(sign) == 3 and sign.isalpha() and sign.isupper())
                      or is_currency(sign)):
            return (text[:found.start()] + text[found.end():]).strip()
    return text


def _sign_name(sign: str) -> str:
    return _("decimal point") if sign == "." else _("decimal comma")


def read_amounts(answer: Any, language: str, depth: int = 0) -> Any:
    """Return a drill answer with every typed amount (text in a ``*_cents`` field) as cents.

    Numbers, None and every other field pass through unchanged (the drill's schema
    checks them); raises AmountError for the first text that is not clearly an amount.
    """
    if depth > 8:  # the request limits bound JSON depth far below this
        return answer
    if isinstance(answer, dict):
        return {key: (parse_cents(value, language)
                      if isinstance(key, str) and key.endswith("_cents") and isinstance(value, str)
                      else read_amounts(value, language, depth + 1))
                for key, value in answer.items()}
    if isinstance(answer, list):
        return [read_amounts(item, language, depth + 1) for item in answer]
    return answer
