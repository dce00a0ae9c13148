"""The engine's own words in the reader's language: pay tables, bonus categories, table rules.

The engine names its data in English (a pay table's title and lines, the twelve bonus
categories, a preset profile's title) and stays free of Flask. These texts are catalogue
entries all the same: ``extract`` is a Babel extractor (``babel.cfg`` runs it over the
engine modules that hold them) that asks the engine for every such text, so
``tools/catalogues.py`` puts them in ``messages.pot`` and the completeness test asks a
translation of each. Pages translate them when drawn, with ``data_text_words`` (or ``lazy_data_text_words``
in cached values). A profile's description is written here from its settings
(``describe_profile``), never taken from the engine's English ``describe()``.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from decimal import Decimal
from typing import Any

from flask_babel import LazyString
from flask_babel import gettext as _
from markupsafe import Markup, escape

from trainer.engine.profiles import Rounding
from trainer.web.platform import i18n, languages


def data_text_words(text: object) -> str:
    """Return an engine text in the page's language (itself when the catalogue has none)."""
    value = str(text or "")
    return str(i18n.translations().ugettext(value)) if value else ""


class Lazy(LazyString):
    """A text worked out when shown (in the page's language), escaped in templates.

    (Flask-Babel's own LazyString hands its text to templates unescaped.)
    """

    def __html__(self) -> Markup:
        return escape(str(self))


def lazy_data_text_words(text: str) -> Lazy:
    """Return ``data_text_words(text)`` worked out when shown: for values cached across languages."""
    return Lazy(data_text_words, text)


# A commission rounded up to a step of the installation's currency, in cents, by the
# engine's ``Rounding`` value: said as an amount ("up to the next $1"), never "a dollar".
ROUNDING_STEP_CENTS = {Rounding.QUARTER_UP.value: 25, Rounding.DOLLAR_UP.value: 100}


def rounding_choice_words() -> list[tuple[str, str]]:
    """Return the commission's roundings as (value, words), a step as the installation's
    money ("up to the next $1"): the profile form's choices and the change history's values."""
    return [(Rounding.CENT.value, _("to the cent")),
            *((value, _("up to the next %(amount)s", amount=languages.money(cents, short=True)))
              for value, cents in ROUNDING_STEP_CENTS.items())]


def describe_profile(profile: Any) -> str:
    """Describe a table-rules profile's commission (and its side bets) in one line."""
    if profile.no_commission:
        text = _("No commission; when the banker holds a queen-high pai gow, every bet pushes")
    elif profile.fee_cents is not None:
        text = _("Flat fee of %(amount)s per hand, win or lose",
                 amount=languages.money(profile.fee_cents))
    else:
        rounding = {Rounding.CENT.value: _("rounded to the cent"),
                    **{value: _("rounded up to the next %(amount)s", amount=languages.money(step))
                       for value, step in ROUNDING_STEP_CENTS.items()}}
        percent = (Decimal(profile.commission_rate) * 100).normalize()
        text = _("%(percent)s%% commission on wins, %(rounding)s", percent=languages.number(percent),
                 rounding=rounding.get(str(profile.commission_rounding.value),
                                       str(profile.commission_rounding.value)))
    if profile.side_bets:
        text = _("%(commission)s; side bets: %(side_bets)s", commission=text,
                 side_bets="; ".join(describe_side_bet(offer) for offer in profile.side_bets))
    return text


def profile_description(name: str) -> str:
    """Describe a table-rules profile (preset or custom) by name; "" for an unknown one."""
    from trainer.services.profiles import table_profile

    try:
        return describe_profile(table_profile(name))
    except ValueError:
        return ""


def kept_rules_words(data: Mapping[str, Any] | None, name: str) -> str:
    """Describe the table rules an exam keeps (``CertificationExam.table_rules``) in words.

    The title and description as the group settings page words a profile, then the
    bet limits: "Riverside: 5% commission on wins, rounded to the cent; bets $50.00 to
    $100.00". Drawn from the kept data, so a later edit of the profile changes nothing
    here; an exam that kept none (unknown profile) is described by the name, if known.
    """
    from trainer.engine.profiles import PROFILES, TableProfile
    from trainer.services.profiles import table_profile

    try:
        profile = TableProfile.from_dict(dict(data)) if data else table_profile(name)
    except ValueError:
        return ""
    title = data_text_words(profile.title) if name in PROFILES else profile.title
    return _("%(title)s: %(rules)s; bets %(low)s to %(high)s", title=title or name,
             rules=describe_profile(profile), low=languages.money(profile.min_bet_cents),
             high=languages.money(profile.max_bet_cents))


def describe_side_bet(offer: Any) -> str:
    """Describe one side bet a profile offers: its table and limits, Envy, commission."""
    from trainer.engine.side_bets import load_table

    title = data_text_words(load_table(offer.table).title) if offer.table else ""
    if offer.min_cents == offer.max_cents:
        text = _("%(table)s, a fixed %(amount)s bet", table=title,
                 amount=languages.money(offer.min_cents))
    else:
        text = _("%(table)s, %(low)s to %(high)s", table=title,
                 low=languages.money(offer.min_cents), high=languages.money(offer.max_cents))
    if offer.envy:
        envy = load_table(offer.envy)
        text = _("%(bet)s (Envy needs %(amount)s or more)", bet=text,
                 amount=languages.money(envy.min_bonus_bet_cents or 0))
    if offer.commission:
        text = _("%(bet)s, commission on wins", bet=text)
    return text


# --- extraction (Babel) ----------------------------------------------------------------

def engine_texts(filename: str) -> list[str]:
    """Return the texts people read that the engine module ``filename`` holds as data."""
    texts: list[str] = []
    name = filename.replace("\\", "/")
    if name.endswith("engine/side_bets/paytables.py"):
        from trainer.engine.side_bets import load_table, table_names

        for table_name in table_names():
            table = load_table(table_name)
            texts += [table.title, table.sheet, *(line.name for line in table.lines)]
    elif name.endswith("engine/side_bets/categories.py"):
        from trainer.engine.side_bets import PAY_ORDER
        from trainer.engine.side_bets.categories import NOTHING_WORDS

        texts += [category.title for category in PAY_ORDER]
        texts.append(NOTHING_WORDS)  # the module's one sentence (seven cards with no bonus hand)
    elif name.endswith("engine/profiles.py"):
        from trainer.engine.profiles import PROFILES

        texts += [profile.title for profile in PROFILES.values() if profile.title]
    return list(dict.fromkeys(t for t in texts if t))


def extract(fileobj: Any, keywords: Any, comment_tags: Any,
            options: Any) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel extractor: the data texts of an engine module (``engine_texts``), as messages."""
    for text in engine_texts(str(getattr(fileobj, "name", ""))):
        yield 1, None, text, ["engine data (trainer/web/words/data_words.py)"]
