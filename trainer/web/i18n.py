"""The current language's translations, looked up once per request instead of once per string.

``flask_babel.get_translations()`` costs about 12 µs a call (it walks ``g`` and the
locale each time), and a question's or an answer's fragment translates a dozen
strings and seven card names (issue 15: a question and an answer in at most 2 ms).
``translations()`` keeps the answer on ``g`` next to flask_babel's own cached
locale, and uses it again while that locale object is the same one (a
``flask_babel.refresh()`` or ``force_locale`` changes it, so the cache follows);
without flask_babel's cache it simply asks flask_babel every time.
``install(app)`` points the templates' ``_``/``gettext``/``ngettext``/``pgettext``/
``npgettext`` at it (the same calls flask_babel installs, faster).
"""
from __future__ import annotations

from typing import Any

from babel import Locale
from babel.support import NullTranslations
from flask import Flask, g
from flask.ctx import _AppCtxGlobals
from flask_babel import get_translations
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

_KEY = "_trainer_translations"


def babel_locale(real_g: _AppCtxGlobals | None = None) -> Locale | None:
    """Return the locale object flask_babel cached for this context, or None."""
    found: Locale | None = getattr(getattr(g if real_g is None else real_g, "_flask_babel", None),
                                   "babel_locale", None)
    return found


def translations() -> NullTranslations:
    """Return the translations of the current locale (flask_babel's), cached for the context.

    ``g`` is resolved once (each use of the proxy looks the context up again: three
    lookups a string were a tenth of the feedback's rendering, issue 15).
    """
    try:
        real_g: _AppCtxGlobals = g._get_current_object()
    except RuntimeError:  # outside an app context: flask_babel's own answer
        return get_translations()
    cached: tuple[Locale | None, NullTranslations] | None = real_g.__dict__.get(_KEY)
    if cached is not None and cached[0] is not None and cached[0] is babel_locale(real_g):
        return cached[1]
    found = get_translations()
    setattr(real_g, _KEY, (babel_locale(real_g), found))
    return found


@pass_context
def _gettext(context: Context, string: str, **variables: Any) -> str:
    """The templates' ``_``: what Jinja's newstyle ``gettext`` does, called directly.

    Jinja's ``_`` is an alias that looks ``gettext`` up in the context and calls it
    through ``Context.call``, which calls the translation through ``Context.call``
    again: three template calls a string, a tenth of a question's rendering (issue
    15). The result is the same: the translation, marked safe when autoescaping,
    always formatted with the values (escaped), as newstyle gettext does.
    """
    found = translations().ugettext(string)
    if context.eval_ctx.autoescape:
        return Markup(found) % variables
    return found % variables


def install(app: Flask) -> None:
    """Make the templates' translation calls use ``translations()`` (after Babel's init_app)."""
    # Added to the environment by Jinja's i18n extension (which Flask-Babel loads), so
    # not in Jinja's type of an Environment.
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: translations().ugettext(s),
        ngettext=lambda s, p, n: translations().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: translations().unpgettext(c, s, p, n),
    )
    app.jinja_env.globals["_"] = _gettext
