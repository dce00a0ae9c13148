"""The speed tweaks: the few places the app departs from plain Flask and Jinja to stay
within the standing limit on a question and an answer (docs/operations.md, "Speed tweaks
(issue 29)", has what each is worth, measured with ``bench/request_cost_bench.py``).

``install(app)`` is the app factory's own step (``configure_fast_paths``), the last one:
every tweak unless the config says otherwise. ``FAST_PATHS = False`` leaves the app on
plain Flask, Jinja and Flask-Babel and the templates alone; a list of names keeps only
those (to measure one: ``bench/request_cost_bench.py --fast-paths cards``). None changes
what a page says: ``tests/web/test_fast_paths.py`` draws a question and an answer of every
drill kind both ways and compares them byte for byte, and each drawing here with the
template it stands for.

- ``translations``: the page's translations looked up once a request for the web's
  words in Python (``i18n.translations()``), not once a string;
- ``template_gettext``: the templates' ``_``, ``gettext``, ``ngettext``, ``pgettext`` and
  ``npgettext`` translate through ``i18n.translations()``, and ``_`` directly, not as
  Jinja's alias (two template calls less a string);
- ``cards``: a card and a hand drawn in Python (the ``card`` and ``hand`` macros of
  ``_cards.html`` call ``card_html``/``hand_html`` when they are defined), each card
  kept per language, letters, size and attributes;
- ``front_picker``: the house-way drill's front picker drawn in Python
  (``drills/_picker.html`` calls ``front_picker_html`` when it is defined);
- ``template_globals``: each template's globals a ``ChainMap`` whose key set compares in C.
"""
from __future__ import annotations

from collections import ChainMap
from collections.abc import Callable, KeysView, Mapping, MutableMapping
from typing import Any

from babel import Locale
from babel.support import NullTranslations
from flask import Flask
from flask.ctx import _AppCtxGlobals
from flask_babel import get_translations
from jinja2 import Undefined, pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape

from trainer.engine.cards import RANK_CHARS, SUIT_CHARS, SUIT_SYMBOLS
from trainer.web.platform import filters, i18n, languages
from trainer.web.words import card_names

TWEAKS = ("translations", "template_gettext", "cards", "front_picker", "template_globals")


def install(app: Flask) -> None:
    """Install the tweaks ``app.config["FAST_PATHS"]`` asks for: every one when it is True
    or missing, none when False, else the names listed, in a list or a comma-separated
    string (``TRAINER_FAST_PATHS=cards,translations``); a ValueError on an unknown one."""
    wanted = app.config.get("FAST_PATHS", True)
    if isinstance(wanted, str):
        wanted = [name.strip() for name in wanted.split(",") if name.strip()]
    names = TWEAKS if wanted is True else () if wanted is False else tuple(wanted)
    unknown = sorted(set(names) - set(TWEAKS))
    if unknown:
        raise ValueError(f"FAST_PATHS names unknown tweaks: {', '.join(unknown)} "
                         f"(known: {', '.join(TWEAKS)}).")
    installers: dict[str, Callable[[Flask], None]] = {
        "translations": _keep_translations, "cards": _draw_cards,
        "front_picker": _draw_front_picker, "template_globals": _compare_globals_in_c,
        "template_gettext": _translate_directly,
    }
    for name in TWEAKS:
        if name in names:
            installers[name](app)
    app.extensions["fast_paths"] = tuple(name for name in TWEAKS if name in names)


# -- translations -------------------------------------------------------------------------------

_KEY = "_trainer_translations"


class _TranslationsKept(_AppCtxGlobals):
    """The app's ``g``, with the page's translations kept on it for the request."""

    def kept_translations(self) -> NullTranslations:
        """Return flask_babel's translations of the current locale, asked once while that
        locale object is the same one (``flask_babel.refresh()`` and ``force_locale``
        change it, so the kept ones follow)."""
        locale: Locale | None = i18n.babel_locale(self)
        cached: tuple[Locale | None, NullTranslations] | None = self.__dict__.get(_KEY)
        if cached is not None and cached[0] is not None and cached[0] is locale:
            return cached[1]
        found = get_translations()
        setattr(self, _KEY, (i18n.babel_locale(self), found))
        return found


def _keep_translations(app: Flask) -> None:
    app.app_ctx_globals_class = _TranslationsKept


# -- cards, hands and the front picker ----------------------------------------------------------

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
    label = escape(filters.card_label(c))
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
    """Draw one playing card as the ``card`` macro of ``_cards.html`` does, from a
    per-process cache of the well-formed ones (junk is drawn each time, escaped)."""
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
    """Draw a hand of cards as the ``hand`` macro of ``_cards.html`` does, with one call
    for the hand instead of a macro call per card. As in the macro, a value that is not
    iterable, or a mapping, draws an empty hand, and junk cards are drawn escaped."""
    try:
        shown = iter(cards) if not isinstance(cards, Mapping) else iter(())
    except TypeError:
        shown = iter(())
    opening = f'<span class="hand" aria-label="{escape(label)}" role="group">' if label \
        else '<span class="hand" >'
    return Markup(opening + "".join(card_html(c, size) for c in shown) + "</span>")


def front_picker_html(cards: Any, label: Any) -> Markup:
    """Draw the two-card front picker over a banker's cards as the ``front_picker`` macro
    of ``drills/_picker.html`` does, without a template call per card. ``label`` is
    escaped unless it is markup (a translated string), as ``{{ label }}`` is."""
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


def _draw_cards(app: Flask) -> None:
    app.jinja_env.globals.update(card_html=card_html, hand_html=hand_html)


def _draw_front_picker(app: Flask) -> None:
    app.jinja_env.globals.update(front_picker_html=front_picker_html)


# -- the templates' translation calls ------------------------------------------------------------


@pass_context
def _gettext(context: Context, string: str, **variables: Any) -> str:
    """The templates' ``_``: what Jinja's newstyle ``gettext`` does, called directly (Jinja's
    ``_`` is an alias that looks ``gettext`` up in the context and calls it through
    ``Context.call``, which calls the translation through ``Context.call`` again). The
    result is the same: the translation, marked safe when autoescaping, always formatted
    with the values (escaped), as newstyle gettext does."""
    found = i18n.translations().ugettext(string)
    if context.eval_ctx.autoescape:
        return Markup(found) % variables
    return found % variables


def _translate_directly(app: Flask) -> None:
    # Added to the environment by Jinja's i18n extension (which Flask-Babel loads), so not in
    # Jinja's type of an Environment.
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: i18n.translations().ugettext(s),
        ngettext=lambda s, p, n: i18n.translations().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: i18n.translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: i18n.translations().unpgettext(c, s, p, n),
    )
    app.jinja_env.globals["_"] = _gettext


# -- template globals ---------------------------------------------------------------------------


class _Globals(ChainMap[str, Any]):
    """A template's globals: Jinja's ``ChainMap`` (the template's own over the
    environment's), whose ``keys()`` is a dict view, so that the difference Jinja takes
    at every ``{% import %}`` (``ctx.globals_keys - template.globals.keys()``) is taken in
    C. Lookups, assignment and precedence are ``ChainMap``'s own."""

    def keys(self) -> KeysView[str]:
        merged: dict[str, None] = {}
        for mapping in reversed(self.maps):
            merged.update(dict.fromkeys(mapping))
        return merged.keys()


def _compare_globals_in_c(app: Flask) -> None:
    environment = app.jinja_env

    def make_globals(d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """Jinja's ``Environment.make_globals``, returning a ``_Globals``."""
        return _Globals({} if d is None else d, environment.globals)

    # Before any template is loaded (the factory's last step): each takes its globals here.
    environment.make_globals = make_globals  # type: ignore[method-assign]
