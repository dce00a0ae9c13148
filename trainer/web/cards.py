"""Card names for screen readers, translated once per card (used by _cards.html)."""
from __future__ import annotations

from flask import Flask
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

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


def register(app: Flask) -> None:
    """Make the card helpers available to every template."""
    app.jinja_env.globals.update(card_label=card_label, suit_symbols=SUIT_SYMBOLS)
