"""App-wide template helpers: every filter and global the templates use, registered once.

Card names for screen readers, stored attempts read through one function,
percentages and seconds, drill titles and chance levels, the current locale.
"""
from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from babel.numbers import format_percent
from flask import Flask
from flask_babel import get_locale
from jinja2 import Undefined
from markupsafe import Markup, escape

from trainer.engine.cards import RANK_CHARS, SUIT_CHARS, SUIT_SYMBOLS
from trainer.engine.drills import DRILLS, get_drill
from trainer.services.languages import LANGUAGE_NAMES
from trainer.services.stored_answers import attempt_feedback, shown_attempt
from trainer.web import (
    card_names,
    data_words,
    drill_kinds,
    drills,
    engine_words,
    i18n,
    languages,
    names,
    pay_tables,
    shortcuts,
    time_zones,
    way_words,
)
from trainer.web.verdict import verdict_html


def card_label(card: str) -> str:
    """Return a card's accessible name in the page's language, starting with what the card
    shows: "Q\u2665, queen of hearts", "Q\u2665, dama de copas", "JK\u2605, joker" (so a
    spoken command "click Q\u2665" finds it); junk as written (``web/card_names.py``)."""
    if not isinstance(card, str):
        return str(card)
    language, local = languages.card_setting()
    # A stored row may hold junk: name it as it is rather than fail the page.
    return card_names.labels(language, local).get(card, card)


# The drawn cards, per language and letters: (language, local, card, size, button, attrs) -> HTML.
# Only well-formed cards are kept (53 cards, a few sizes and attribute strings the
# templates write), so it stays small; anything else is drawn each time.
_CARD_HTML: dict[tuple[Any, ...], Markup] = {}


def _draw_card(c: str, size: str, button: bool, attrs: str) -> Markup:
    joker = c == "JK"
    faces = card_names.faces(*languages.card_setting())
    rank = "" if joker else faces.get(c[:1], c[:1])
    suit = "" if joker else c[1:2]
    kind = suit or "joker"
    label = escape(card_label(c))
    if button:
        opening = (f'<button type="button" class="card card-{escape(kind)} {escape(size)}" '
                   f'data-card="{escape(c)}" aria-label="{label}" {attrs}>')
    else:
        opening = (f'<span class="card card-{escape(kind)} {escape(size)}" data-card="{escape(c)}" '
                   f'role="img" aria-label="{label}">')
    if joker:
        face = ('<span class="card-rank" aria-hidden="true">JK</span>'
                '<span class="card-suit" aria-hidden="true">&#9733;</span>')
    else:
        face = (f'<span class="card-rank" aria-hidden="true">{escape(rank)}</span>'
                f'<span class="card-suit" aria-hidden="true">{escape(SUIT_SYMBOLS.get(suit, ""))}</span>')
    return Markup(opening + face + ("</button>" if button else "</span>"))


def card_html(c: Any, size: str = "", button: bool = False, attrs: str = "") -> Markup:
    """Draw one playing card (the ``card`` macro of ``_cards.html``), from a per-process cache.

    A question draws seven cards; drawing each through the macro (and translating
    its name) was most of the question's rendering time (issue 15).
    """
    c = c if isinstance(c, str) else str(c)
    size, attrs = str(size), str(attrs)
    if c != "JK" and (len(c) != 2 or c[0] not in RANK_CHARS or c[1] not in SUIT_CHARS):
        return _draw_card(c, size, bool(button), attrs)
    key = (*languages.card_setting(), c, size, bool(button), attrs)
    html = _CARD_HTML.get(key)
    if html is None:
        html = _CARD_HTML[key] = _draw_card(c, size, bool(button), attrs)
    return html


def hand_html(cards: Any, size: Any = "", label: Any = "") -> Markup:
    """Draw a hand of cards (the ``hand`` macro of ``_cards.html``): the same HTML the macro drew.

    The macro called the ``card`` macro once per card, a Jinja macro call each
    (issue 15: a question and an answer each draw seven cards). As in the macro, a
    value that is not iterable, or a mapping, draws an empty hand, and junk cards
    are drawn escaped.
    """
    try:
        shown = iter(cards) if not isinstance(cards, Mapping) else iter(())
    except TypeError:
        shown = iter(())
    opening = f'<span class="hand" aria-label="{escape(label)}" role="group">' if label \
        else '<span class="hand" >'
    return Markup(opening + "".join(card_html(c, size) for c in shown) + "</span>")


def front_picker_html(cards: Any, label: Any) -> Markup:
    """Draw the two-card front picker over a banker's cards (the ``front_picker`` macro of
    ``drills/_picker.html``): the same HTML the macro's own template drew.

    The macro's loop made a template call per card and two translations through
    Jinja's gettext wrappers (issue 15: a question in 2 ms). ``label`` is escaped
    unless it is markup (a translated string), as ``{{ label }}`` did.
    """
    try:
        shown = list(cards) if not isinstance(cards, Undefined) else []
    except TypeError:
        shown = []
    picks = "".join(
        f'\n      <span class="pick" data-index="{index}">'
        f'{card_html(c, "large", True, _PRESSED)}<kbd>{index}</kbd></span>\n      '
        for index, c in enumerate(shown, 1)
    )
    # Outside the f-strings, where the catalogue's extraction finds them.
    front_label, set_hand = _translated("Front (2 cards)"), _translated("Set the hand")
    return Markup(
        '<div class="zone">\n'
        f'    <h2 class="zone-label" id="front-label">{front_label}</h2>\n'
        '    <div class="picker-front" role="group" aria-labelledby="front-label" data-front></div>\n'
        '  </div>\n'
        '  <div class="zone">\n'
        f'    <h2 class="zone-label" id="back-label">{escape(label)}</h2>\n'
        '    <div class="picker-hand" role="group" aria-labelledby="back-label" data-hand>\n'
        f'      {picks}\n'
        '    </div>\n'
        '  </div>\n'
        '  <p class="actions"><button type="button" class="button button-big" data-submit disabled>'
        f'{set_hand} <kbd>{escape(_enter_key())}</kbd></button></p>'
    )


def _enter_key() -> str:
    """Return the Enter key's name on the keyboard in the page's language."""
    return str(i18n.translations().upgettext("key", "Enter"))


_PRESSED = 'aria-pressed="false"'


def _translated(text: str) -> Markup:
    """Translate as the templates' ``_`` does with no values (newstyle: always formatted)."""
    return Markup(i18n.translations().ugettext(text)) % {}


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
        card_label=card_label, card_html=card_html, hand_html=hand_html, suit_symbols=SUIT_SYMBOLS,
        front_picker_html=front_picker_html,
        shown_attempt=shown_attempt, attempt_feedback=attempt_feedback, listed=listed,
        drill_title=drill_title, chance_level=chance_level, kind_steps=kind_steps,
        drill_kind=drill_kinds.get_kind, kind_template=drill_kinds.template,
        get_locale=get_locale,
        time_zone_label=time_zones.time_zone_label, rule_tag=names.rule_tag,
        side_bet_table=pay_tables.side_bet_table, pay_charts=pay_tables.pay_charts,
        verdict_html=verdict_html,
        # A house way's own words in the reader's language (issue 19, web/way_words.py).
        sheet_sentence_words=way_words.sheet_sentence_words,
        explanation_words=way_words.explanation_words, worked_out_words=way_words.worked_out_words,
        # The engine's fixed sentences (the rule book's lines) likewise (web/engine_words.py).
        sentence_words=engine_words.sentence_words,
        # The engine's composed sentences (a feedback's Messages) in the reader's language.
        message_words=engine_words.message_words,
        # Money in the page's locale and the installation's currency (web/languages.py).
        format_money=languages.money, money_format=languages.page_money_format,
        currency_sign=languages.currency_sign, amount_placeholder=languages.amount_placeholder,
        language_name=lambda code: LANGUAGE_NAMES.get(code, code),
        # The engine's data texts and a profile's description in words (web/data_words.py).
        data_text_words=data_words.data_text_words, profile_description=data_words.profile_description,
        # The hand categories in words for every page's attempts (the supervisor's too).
        category_names=drills.CATEGORY_NAMES,
        # A session's mode with how it was dealt ("My mistakes (practice)"; issue 24).
        session_mode_name=drills.session_mode_name,
        # Shortcut letters from the buttons' own words (issue 26, web/shortcuts.py).
        shortcut_keys=shortcuts.shortcut_keys,
    )
    app.add_template_filter(languages.money, "money")
    app.add_template_filter(engine_words.message_words, "message_words")
    app.add_template_filter(percent, "percent")
    app.add_template_filter(languages.number, "number")
    app.add_template_filter(time_zones.local_date, "local_date")
    app.add_template_filter(seconds, "seconds")
    # Translations looked up once per request, not per string (trainer/web/i18n.py).
    i18n.install(app)
    # Words for ids (trainer/web/names.py): ids appear only in title= tooltips and exports.
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
