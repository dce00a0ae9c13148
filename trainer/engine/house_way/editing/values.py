"""Reading a house way's values: ranks, rank ranges, texts and the names' patterns.

Each reader returns the value and None, or None and the problem as a ``Message``.
"""
from __future__ import annotations

import re
from typing import Any

from ...cards import RANK_CHARS, RANK_PLURALS
from ...messages import N_, Message

SLUG = re.compile(r"[a-z][a-z0-9-]{2,39}")
RULE_ID = re.compile(r"[a-z0-9-]+(\.[a-z0-9-]+)+")
GROUP_NAME = re.compile(r"[a-z][a-z0-9_-]{0,29}")
MAX_TEXT = 2000


def quote(value: Any) -> str | Message:
    return f"'{value}'" if isinstance(value, str) else Message(N_("this value"))


def parse_rank(text: Any) -> tuple[int | None, Message | None]:
    if isinstance(text, bool) or not isinstance(text, str | int):
        return None, Message(N_("A rank is written as text: use 2-9, T, J, Q, K or A."))
    t = str(text).strip().upper()
    if t == "10":
        t = "T"
    if len(t) != 1 or t not in RANK_CHARS:
        return None, Message(N_("'%(text)s' is not a rank: use 2-9, T, J, Q, K or A."),
                             text=str(text).strip())
    return RANK_CHARS.index(t) + 2, None


def parse_range(text: Any) -> tuple[tuple[int, int] | None, Message | None]:
    if isinstance(text, bool) or not isinstance(text, str | int):
        return None, Message(N_("Write a rank or a range of ranks such as 2-6 or J-K "
                                "(use 2-9, T, J, Q, K or A)."))
    parts = str(text).strip().split("-")
    if len(parts) > 2 or not str(text).strip():
        return None, Message(N_("'%(text)s' is not a rank or a range of ranks such as 2-6 or "
                                "J-K."), text=str(text))
    ranks = []
    for p in parts:
        r, err = parse_rank(p)
        if err:
            return None, err
        assert r is not None
        ranks.append(r)
    lo, hi = ranks[0], ranks[-1]
    if lo > hi:
        return None, Message(N_("'%(text)s' runs high to low: write it low to high, as "
                                "%(low)s-%(high)s."), text=str(text),
                             low=RANK_CHARS[hi - 2], high=RANK_CHARS[lo - 2])
    return (lo, hi), None


def range_words(lo: int, hi: int) -> str:
    if lo == hi:
        return RANK_PLURALS[lo]
    return f"{RANK_PLURALS[lo]} to {RANK_PLURALS[hi]}"


def text_error(value: Any, what: str | Message, required: bool) -> Message | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return Message(N_("%(what)s is empty: write it."), what=what) if required else None
    if not isinstance(value, str):
        return Message(N_("%(what)s must be text."), what=what)
    if len(value) > MAX_TEXT:
        # (the limit written as it always was, without a thousands comma)
        return Message(N_("%(what)s is too long: at most %(most)s characters."), what=what,
                       most=str(MAX_TEXT))
    return None
