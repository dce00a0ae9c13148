"""Password rules beyond length: not the login, not a common password."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

COMMON_PASSWORDS_FILE = Path(__file__).resolve().parent.parent / "data" / "common-passwords.txt"


@lru_cache(maxsize=1)
def common_passwords() -> frozenset[str]:
    """Return the shipped list of common passwords, lower case (read once per process)."""
    with COMMON_PASSWORDS_FILE.open(encoding="utf-8") as handle:
        return frozenset(
            line.strip().casefold() for line in handle if line.strip() and not line.startswith("#")
        )


def password_problem(password: str, login: str | None) -> str | None:
    """Return why ``password`` may not be used by ``login``, or None when it may."""
    folded = password.strip().casefold()
    if login and folded == login.strip().casefold():
        return "A password may not be the same as the login."
    if folded in common_passwords():
        return "That password is on a list of common passwords; choose another."
    return None
