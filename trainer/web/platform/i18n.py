"""The current language's translations, for the web's words drawn in Python.

``translations()`` is what every words module translates with (``engine_words``,
``data_words``, ``names``, the cards' names...): flask_babel's translations of the
page's locale. With the speed tweak ``translations`` on (``fast_paths.py``) the app's
``g`` keeps them for the request instead of asking flask_babel for each string; the
templates translate through Flask-Babel's own ``_``/``gettext``/``ngettext``/``pgettext``.
"""
from __future__ import annotations

from collections.abc import Callable

from babel import Locale
from babel.support import NullTranslations
from flask import g
from flask.ctx import _AppCtxGlobals
from flask_babel import get_translations


def babel_locale(real_g: _AppCtxGlobals | None = None) -> Locale | None:
    """Return the locale object flask_babel cached for this context, or None."""
    found: Locale | None = getattr(getattr(g if real_g is None else real_g, "_flask_babel", None),
                                   "babel_locale", None)
    return found


def translations() -> NullTranslations:
    """Return the translations of the current locale (flask_babel's): those ``g`` keeps for
    the request when the app's ``g`` keeps them (``fast_paths``), else flask_babel's answer."""
    try:
        real_g: _AppCtxGlobals = g._get_current_object()
    except RuntimeError:  # outside an app context: flask_babel's own answer
        return get_translations()
    kept: Callable[[_AppCtxGlobals], NullTranslations] | None = getattr(
        type(real_g), "kept_translations", None)
    return kept(real_g) if kept is not None else get_translations()
