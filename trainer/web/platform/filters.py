"""App-wide template helpers: every filter and global the templates use, registered once.

Card names for screen readers and the letter a card shows, stored attempts read through
one function, percentages and seconds, drill titles and chance levels, the current
locale. (The cards and the front picker drawn in Python instead of their macros are a
speed tweak, ``fast_paths.py``, which adds its own globals.)
"""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from babel.numbers import format_percent
from flask import Flask
from flask_babel import get_locale

from trainer.engine.cards import SUIT_SYMBOLS
from trainer.engine.drills import DRILLS, get_drill
from trainer.services.languages import LANGUAGE_NAMES
from trainer.services.stored_answers import attempt_feedback, shown_attempt
from trainer.web.platform import drill_kinds, languages, pay_tables, shortcuts, time_zones
from trainer.web.words import card_names, data_words, engine_words, names, way_words


def card_label(card: str) -> str:
    """Return a card's accessible name in the page's language, starting with what the card
    shows: "Q\u2665, queen of hearts", "Q\u2665, dama de copas", "JK\u2605, joker" (so a
    spoken command "click Q\u2665" finds it); junk as written (``web/words/card_names.py``)."""
    if not isinstance(card, str):
        return str(card)
    language, local = languages.card_setting()
    # A stored row may hold junk: name it as it is rather than fail the page.
    return card_names.labels(language, local).get(card, card)


def card_face(card: str) -> str:
    """Return what a card's corner shows for its rank in the page's card letters ("10",
    "A", or the market's own letter); junk as its first character (the ``card`` macro)."""
    return card_names.faces(*languages.card_setting()).get(card[:1], card[:1])


def listed(value: Any) -> list[Any]:
    """Return a stored value if it is a list, else an empty one (a loop over old rows never fails)."""
    return value if isinstance(value, list) else []


def drill_title(kind: str) -> str:
    """Return a drill kind's title, or the slug of a kind no longer registered."""
    return drill_kinds.title(kind)


def chance_level(kind: str) -> float | None:
    """Return what always giving one answer scores in a drill kind (None: free-form answers)."""
    return get_drill(kind).chance_level if kind in DRILLS else None


def kind_steps(kind: str) -> tuple[str, ...]:
    """Return the names of a drill kind's steps, in order (a round's: its first step is the
    action drill's, named by that kind's home), or () for a kind of single questions."""
    return get_drill(kind).steps if kind in DRILLS else ()


def percent(value: float | None) -> str:
    """Format a share as a whole percentage in the reader's language ("50%", "50\u00a0%"
    in Russian and Spanish), or a dash. Rounded as before (half to even on the share's
    exact value), then written by Babel."""
    if value is None:
        return "—"
    return format_percent(Decimal(round(value * 100)) / 100, locale=languages.language())


def seconds(ms: float | None) -> str:
    """Format milliseconds as seconds with one decimal in the reader's language ("2.5",
    "2,5"; no thousands sign, as before), or a dash."""
    return "—" if ms is None else languages.number(ms / 1000, 1, grouped=False)


def register(app: Flask) -> None:
    """Make the helpers available to every template."""
    app.jinja_env.globals.update(
        card_label=card_label, card_face=card_face, suit_symbols=SUIT_SYMBOLS,
        shown_attempt=shown_attempt, attempt_feedback=attempt_feedback, listed=listed,
        drill_title=drill_title, chance_level=chance_level, kind_steps=kind_steps,
        drill_kind=drill_kinds.get_kind, kind_template=drill_kinds.template,
        get_locale=get_locale,
        time_zone_label=time_zones.time_zone_label, rule_tag=names.rule_tag,
        side_bet_table=pay_tables.side_bet_table, pay_charts=pay_tables.pay_charts,
        # A house way's own words in the reader's language (issue 19, web/words/way_words.py).
        sheet_sentence_words=way_words.sheet_sentence_words,
        explanation_words=way_words.explanation_words, worked_out_words=way_words.worked_out_words,
        # The engine's fixed sentences (the rule book's lines) likewise (web/words/engine_words.py).
        sentence_words=engine_words.sentence_words,
        # The engine's composed sentences (a feedback's Messages) in the reader's language.
        message_words=engine_words.message_words,
        # Money in the page's locale and the installation's currency (web/platform/languages.py).
        format_money=languages.money, money_format=languages.page_money_format,
        currency_sign=languages.currency_sign, amount_placeholder=languages.amount_placeholder,
        language_name=lambda code: LANGUAGE_NAMES.get(code, code),
        # The engine's data texts and a profile's description in words (web/words/data_words.py).
        data_text_words=data_words.data_text_words, profile_description=data_words.profile_description,
        # The hand categories in words for every page's attempts (the supervisor's too).
        category_names=names.CATEGORY_NAMES,
        # A session's mode with how it was dealt ("My mistakes (practice)"; issue 24).
        session_mode_name=names.session_mode_name,
        # Shortcut letters from the buttons' own words (issue 26, web/platform/shortcuts.py).
        shortcut_keys=shortcuts.shortcut_keys,
    )
    app.add_template_filter(languages.money, "money")
    app.add_template_filter(engine_words.message_words, "message_words")
    app.add_template_filter(percent, "percent")
    app.add_template_filter(languages.number, "number")
    app.add_template_filter(time_zones.local_date, "local_date")
    app.add_template_filter(seconds, "seconds")
    # Words for ids (trainer/web/words/names.py): ids appear only in title= tooltips and exports.
    app.add_template_filter(names.rule_name, "rule_name")
    app.add_template_filter(names.rule_tag, "rule_tag")
    app.add_template_filter(names.rule_short, "rule_short")
    app.add_template_filter(names.family_name, "family_name")
    app.add_template_filter(names.kind_name, "kind_name")
    app.add_template_filter(names.house_way_name, "house_way_name")
    app.add_template_filter(names.house_way_title, "house_way_title")
    app.add_template_filter(names.way_title, "way_title")
    app.add_template_filter(names.profile_name, "profile_name")
    app.add_template_filter(names.outcome_name, "outcome_name")
