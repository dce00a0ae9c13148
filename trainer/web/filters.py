"""App-wide template helpers: every filter and global the templates use, registered once.

Card names for screen readers, stored attempts read through one function,
percentages and seconds, drill titles and chance levels, the current locale.
"""
from __future__ import annotations

from typing import Any

from flask import Flask
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from trainer.engine.drills import DRILLS, get_drill
from trainer.services.stored_answers import shown_attempt
from trainer.web import drill_kinds

RANK_NAMES = {
    "A": _l("ace"), "K": _l("king"), "Q": _l("queen"), "J": _l("jack"), "T": _l("ten"),
    "9": _l("nine"), "8": _l("eight"), "7": _l("seven"), "6": _l("six"), "5": _l("five"),
    "4": _l("four"), "3": _l("three"), "2": _l("two"),
}
SUIT_NAMES = {"s": _l("spades"), "h": _l("hearts"), "d": _l("diamonds"), "c": _l("clubs")}
SUIT_SYMBOLS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}


def card_label(card: str) -> str:
    """Return a card's accessible name ("ace of spades", "joker"); anything else as written."""
    if card == "JK":
        return _("joker")
    if not isinstance(card, str) or len(card) != 2 or card[0] not in RANK_NAMES \
            or card[1] not in SUIT_NAMES:
        # A stored row may hold junk: name it as it is rather than fail the page.
        return str(card)
    return _("%(rank)s of %(suit)s", rank=str(RANK_NAMES[card[0]]),
             suit=str(SUIT_NAMES[card[1]]))


def listed(value: Any) -> list[Any]:
    """Return a stored value if it is a list, else an empty one (a loop over old rows never fails)."""
    return value if isinstance(value, list) else []


def drill_title(kind: str) -> str:
    """Return a drill kind's title, or the slug of a kind no longer registered."""
    return drill_kinds.title(kind)


def chance_level(kind: str) -> float | None:
    """Return what always giving one answer scores in a drill kind (None: free-form answers)."""
    return get_drill(kind).chance_level if kind in DRILLS else None


def percent(value: float | None) -> str:
    """Format a share as a whole percentage, or a dash."""
    return "—" if value is None else f"{value * 100:.0f}%"


def seconds(ms: float | None) -> str:
    """Format milliseconds as seconds with one decimal, or a dash."""
    return "—" if ms is None else f"{ms / 1000:.1f}"


def register(app: Flask) -> None:
    """Make the helpers available to every template."""
    app.jinja_env.globals.update(
        card_label=card_label, suit_symbols=SUIT_SYMBOLS,
        shown_attempt=shown_attempt, listed=listed,
        drill_title=drill_title, chance_level=chance_level,
        drill_kind=drill_kinds.get_kind, kind_template=drill_kinds.template,
        get_locale=get_locale,
    )
    app.add_template_filter(percent, "percent")
    app.add_template_filter(seconds, "seconds")
