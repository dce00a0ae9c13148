"""The one password rule, used wherever a password is set or checked at sign-in (issue 24).

A password is first *normalised*: Unicode NFKC (so a full-width ``Ａ`` or a
ligature counts as the letters it stands for), then every invisible character
removed (format and control characters such as the zero-width space, the
variation selectors and the other default-ignorable code points). On that
text it must

- have at least ``MIN_PASSWORD_LENGTH`` characters (surrounding spaces not
  counted) and at least ``MIN_DIFFERENT_CHARACTERS`` different ones;
- not be the login (ignoring case);
- not be one of the published demo passwords (``DEMO_PASSWORDS``);
- not be on the shipped common-password list, also once its usual variants are
  undone: case folded, trailing digits, years and symbols stripped
  (``Dealer2026!`` -> ``dealer``), separators dropped (``pai-gow`` -> ``paigow``)
  and common letter swaps read back (``d3al3r`` -> ``dealer``).

"Not the current password" needs the stored hash, so ``User.set_password``
checks it. The stored hash is of the normalised text, and signing in
normalises what is typed the same way.
"""
from __future__ import annotations

import re
import unicodedata
from enum import StrEnum
from functools import lru_cache
from pathlib import Path

MIN_PASSWORD_LENGTH = 10
MIN_DIFFERENT_CHARACTERS = 5
MAX_PASSWORD_LENGTH = 128

COMMON_PASSWORDS_FILE = Path(__file__).resolve().parent.parent / "data" / "common-passwords.txt"

# The published passwords of the `trainer seed-demo` accounts (README.md). Only
# seed-demo may set them, and only on those accounts.
DEMO_PASSWORDS = frozenset({"demo-manager-pw", "demo-supervisor-pw", "demo-trainee-pw"})

# Default-ignorable code points outside the format/control categories (Unicode
# DerivedCoreProperties: Default_Ignorable_Code_Point): fillers and selectors
# that show nothing.
_IGNORABLE = frozenset([
    0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0, 0x2800,
    *range(0x180B, 0x1810), *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0),
])
# Categories that never show a glyph of their own: format (Cf: zero-width space,
# joiners, bidi marks, soft hyphen), control (Cc), surrogates, private use, unassigned.
_INVISIBLE_CATEGORIES = frozenset({"Cf", "Cc", "Cs", "Co", "Cn"})

# The usual decorations people add to a word: trailing digits (years included) and
# symbols, in any mix ("dealer123", "Dealer2026!", "casino2026!", "blackjack!").
_TRAILING_DECORATION = re.compile(r"[\W\d_]+$")
_LEADING_DECORATION = re.compile(r"^[\W\d_]+")
_SEPARATORS = re.compile(r"[\s\W_]+")
# Letter swaps read back ("p@ssw0rd" -> "password").
_UNSWAP = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t",
                         "8": "b", "9": "g", "@": "a", "$": "s", "!": "i", "|": "l", "+": "t"})


class PasswordProblem(StrEnum):
    """Why a password is refused; the web layer words each one (web/platform/forms.py)."""

    TOO_SHORT = "too-short"
    TOO_FEW_DIFFERENT = "too-few-different"
    SAME_AS_LOGIN = "same-as-login"
    DEMO = "demo"
    COMMON = "common"
    CURRENT = "current"

    @property
    def english(self) -> str:
        """Say the refusal in English (the command line's and ``ValueError``'s words)."""
        return _ENGLISH[self]


_ENGLISH = {
    PasswordProblem.TOO_SHORT:
        f"A password needs at least {MIN_PASSWORD_LENGTH} characters "
        "(invisible characters and surrounding spaces not counted).",
    PasswordProblem.TOO_FEW_DIFFERENT:
        f"A password needs at least {MIN_DIFFERENT_CHARACTERS} different characters.",
    PasswordProblem.SAME_AS_LOGIN: "A password may not be the same as the login.",
    PasswordProblem.DEMO: "That is a published demo password; choose another.",
    PasswordProblem.COMMON: "That password is on a list of common passwords; choose another.",
    PasswordProblem.CURRENT: "The new password must differ from the current one.",
}


def normalize_password(password: str) -> str:
    """Return the password as compared and hashed: NFKC, invisible characters removed."""
    text = unicodedata.normalize("NFKC", password)
    return "".join(char for char in text if not _invisible(char))


def _invisible(char: str) -> bool:
    return ord(char) in _IGNORABLE or unicodedata.category(char) in _INVISIBLE_CATEGORIES


@lru_cache(maxsize=1)
def common_passwords() -> frozenset[str]:
    """Return the shipped list of common passwords and words, case-folded (read once per process)."""
    with COMMON_PASSWORDS_FILE.open(encoding="utf-8") as handle:
        return frozenset(
            line.strip().casefold() for line in handle if line.strip() and not line.startswith("#")
        )


def _variants(folded: str) -> set[str]:
    """Return the words ``folded`` may be a decorated form of (itself included)."""
    stems = {folded}
    bare = _TRAILING_DECORATION.sub("", folded)
    stems.add(bare)
    stems.add(_LEADING_DECORATION.sub("", bare))
    stems |= {_SEPARATORS.sub("", stem) for stem in list(stems)}
    stems |= {stem.translate(_UNSWAP) for stem in stems}
    return {stem for stem in stems if stem}


def is_common(password: str) -> bool:
    """Tell whether the (normalised) password is a common password or a decorated common word."""
    folded = password.strip().casefold()
    return not _variants(folded).isdisjoint(common_passwords())


def _is_login(folded: str, login: str) -> bool:
    """Tell whether the password is the login, or the login decorated (``ann.dealer2026!``)."""
    return folded == login or (len(login) >= 4 and login in _variants(folded))


def is_demo_pair(login: str, password: str) -> bool:
    """Tell whether ``password`` is the published password of the demo account ``login``.

    ``trainer seed-demo`` gives demo-manager ``demo-manager-pw``, demo-supervisor
    ``demo-supervisor-pw`` and demo-trainee1..3 ``demo-trainee-pw``.
    """
    text = normalize_password(password)
    return text in DEMO_PASSWORDS and login.rstrip("0123456789") + "-pw" == text


def password_problem(password: str, login: str | None) -> PasswordProblem | None:
    """Return why ``password`` may not be used by ``login``, or None when it may.

    The current password is not known here; ``User.set_password`` checks it.
    """
    text = normalize_password(password).strip()
    if len(text) < MIN_PASSWORD_LENGTH:
        return PasswordProblem.TOO_SHORT
    folded = text.casefold()
    if login and _is_login(folded, normalize_password(login).strip().casefold()):
        return PasswordProblem.SAME_AS_LOGIN
    if folded in DEMO_PASSWORDS:
        return PasswordProblem.DEMO
    if len(set(folded)) < MIN_DIFFERENT_CHARACTERS:
        return PasswordProblem.TOO_FEW_DIFFERENT
    if is_common(text):
        return PasswordProblem.COMMON
    return None
