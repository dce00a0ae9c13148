"""The side bets' pay tables as pages draw them: names in pay order, and pay charts.

The tables are the engine's data (``trainer.engine.side_bets``); this module only
arranges them for templates (``side_bet_table`` and ``pay_charts`` are template
globals): the twelve bonus categories in pay order with the table's own words, and
what each line pays on the common bet sizes, for the reference sheet, the
commission chart, the player's table and the bonus drill.

The views are cached once for every language, so their words are lazy: a title, a
line's name, how it pays and the chart's note are worked out in the page's language
when drawn (``data_words.lazy_data_text_words`` for the engine's names, ``lazy_gettext`` here).
"""
from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from typing import Any

from flask_babel import format_decimal
from flask_babel import gettext as _

from trainer.engine.side_bets import PAY_ORDER, TableKind, load_table
from trainer.services.profiles import table_profile
from trainer.web.platform import languages
from trainer.web.words.data_words import Lazy, lazy_data_text_words

# The bet sizes a chart shows (cents): $1, $5, $10, $25.
CHART_BETS = (100, 500, 1000, 2500)


@dataclass(frozen=True)
class TableView:
    """One pay table for a page: its title and the twelve categories in its words."""

    name: str
    title: Any  # str, or a LazyString in the page's language
    kind: str
    categories: tuple[tuple[str, Any], ...]
    # An Envy table's smallest bonus bet that it pays (cents), else None.
    min_bonus_bet_cents: int | None = None

    @property
    def names(self) -> dict[str, Any]:
        """Return each category's name by slug."""
        return dict(self.categories)


@functools.cache
def side_bet_table(name: str) -> TableView:
    """Return a pay table's title and its categories' names (a table not shipped: its name only)."""
    try:
        table = load_table(name)
    except (ValueError, TypeError):
        return TableView(str(name), str(name), "",
                         tuple((c.slug, lazy_data_text_words(c.title)) for c in PAY_ORDER))
    names = []
    for category in PAY_ORDER:
        line = table.line_for(category)
        names.append((category.slug, lazy_data_text_words(line.name if line is not None else category.title)))
    return TableView(table.name, lazy_data_text_words(table.title), table.kind.value, tuple(names),
                     table.min_bonus_bet_cents)


@dataclass(frozen=True)
class ChartRow:
    """One pay line: its name, how it pays in words, the amount per bet size, its rule id."""

    name: Any  # a LazyString: the line's name in the page's language
    pays: Any  # a LazyString: "25 to 1", "10% of the meter", an amount
    amounts: tuple[int | None, ...]
    rule_id: str


@dataclass(frozen=True)
class Chart:
    """One pay table's chart: what each line pays on each bet size."""

    name: str
    title: Any  # a LazyString
    sheet: Any  # a LazyString ("" for none)
    bets: tuple[int, ...]
    rows: tuple[ChartRow, ...]
    note: Any  # a LazyString ("" for none)


def _pays_now(odds: int | None, meter_percent: Any, amount_cents: int,
              for_one: bool = False) -> str:
    if odds is not None:
        return _("%(odds)s to 1", odds=format_decimal(odds))
    if meter_percent is not None and for_one:
        return _("%(percent)s%% of the meter, for 1", percent=meter_percent)
    if meter_percent is not None:
        return _("%(percent)s%% of the meter", percent=meter_percent)
    if for_one:
        return _("%(amount)s for 1", amount=languages.money(amount_cents, short=True))
    return languages.money(amount_cents, short=True)


def _pays(line: Any, for_one: bool = False) -> Lazy:
    return Lazy(_pays_now, line.odds, line.meter_percent, line.amount_cents, for_one)


def _envy_note(min_cents: int, dealer_pays: bool) -> str:
    if dealer_pays:
        return _("Paid to every bonus bet of at least %(amount)s for each other player's "
                 "qualifying hand and the dealer's.", amount=languages.money(min_cents, short=True))
    return _("Paid to every bonus bet of at least %(amount)s for each other player's "
             "qualifying hand; the dealer's hand pays none.",
             amount=languages.money(min_cents, short=True))


def _bonus_note() -> str:
    return _("Amounts are the win; the bet stays. A hand below the table's lowest line loses.")


def _progressive_note(bet_cents: int, for_one: bool) -> str:
    if for_one:
        return _("A fixed %(amount)s bet, collected when the cards are dealt; a winning hand "
                 "is paid its amount for 1 (the bet is not returned), the top lines their "
                 "share of the meter.", amount=languages.money(bet_cents, short=True))
    return _("A fixed %(amount)s bet; the top lines pay their share of the meter.",
             amount=languages.money(bet_cents, short=True))


@functools.cache
def chart(name: str) -> Chart:
    """Return what each line of a table pays on $1, $5, $10 and $25 (a fixed bet: that bet only)."""
    table = load_table(name)
    if table.fixed_bet_cents is not None:
        bets: tuple[int, ...] = (table.fixed_bet_cents,)
    elif table.kind is TableKind.ENVY:
        # Envy pays a fixed amount to each qualifying bonus bet, whatever its size.
        bets = (table.min_bonus_bet_cents or CHART_BETS[1],)
    else:
        bets = CHART_BETS
    rows = []
    for line in table.lines:
        if line.meter_percent is not None:
            amounts: tuple[int | None, ...] = tuple(None for _ in bets)
        elif table.kind is TableKind.ENVY:
            amounts = tuple(line.amount_cents for _ in bets)
        else:
            amounts = tuple(line.win_cents(bet) for bet in bets)
        rows.append(ChartRow(lazy_data_text_words(line.name), _pays(line, table.for_one), amounts,
                             line.rule_id))
    note: Any = ""
    if table.kind is TableKind.ENVY and table.min_bonus_bet_cents:
        note = Lazy(_envy_note, table.min_bonus_bet_cents, bool(table.dealer_pays))
    elif table.kind is TableKind.PROGRESSIVE:
        note = Lazy(_progressive_note, table.fixed_bet_cents or CHART_BETS[0], table.for_one)
    elif table.kind is TableKind.BONUS:
        note = Lazy(_bonus_note)
    sheet = lazy_data_text_words(table.sheet) if table.sheet else ""
    return Chart(table.name, lazy_data_text_words(table.title), sheet, tuple(bets), tuple(rows), note)


def pay_charts(profile_name: str) -> list[Chart]:
    """Return a chart per side-bet table a profile offers (each bet's table, then its Envy)."""
    try:
        profile = table_profile(profile_name)  # a preset or a custom profile
    except ValueError:
        return []
    names: list[str] = []
    for offer in profile.side_bets:
        for name in (offer.table, offer.envy):
            if name and name not in names:
                names.append(name)
    return [chart(name) for name in names]


def tables_digest(profile_name: str) -> str | None:
    """Hash the pay tables a profile's sheet prints (their data), or None when it prints none.

    Part of the printed sheet's cache key (``sheets.sheet_pdf_key``): a pay table
    edited in its data file, or a profile offering other tables, prints anew.
    """
    charts = pay_charts(profile_name)
    if not charts:
        return None
    data = repr([(c.name, load_table(c.name)) for c in charts])
    return hashlib.sha256(data.encode()).hexdigest()[:24]
