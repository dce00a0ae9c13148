"""The side bets' pay tables as pages draw them: names in pay order, and pay charts.

The tables are the engine's data (``trainer.engine.side_bets``); this module only
arranges them for templates (``side_bet_table`` and ``pay_charts`` are template
globals): the twelve bonus categories in pay order with the table's own words, and
what each line pays on the common bet sizes, for the reference sheet, the
commission chart, the player's table and the bonus drill.
"""
from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from typing import Any

from trainer.engine.side_bets import PAY_ORDER, TableKind, load_table
from trainer.services.profiles import table_profile

# The bet sizes a chart shows (cents): $1, $5, $10, $25.
CHART_BETS = (100, 500, 1000, 2500)


@dataclass(frozen=True)
class TableView:
    """One pay table for a page: its title and the twelve categories in its words."""

    name: str
    title: str
    kind: str
    categories: tuple[tuple[str, str], ...]

    @property
    def names(self) -> dict[str, str]:
        """Return each category's name by slug."""
        return dict(self.categories)


@functools.cache
def side_bet_table(name: str) -> TableView:
    """Return a pay table's title and its categories' names (a table not shipped: its name only)."""
    try:
        table = load_table(name)
    except (ValueError, TypeError):
        return TableView(str(name), str(name), "", tuple((c.slug, c.title) for c in PAY_ORDER))
    names = []
    for category in PAY_ORDER:
        line = table.line_for(category)
        names.append((category.slug, line.name if line is not None else category.title))
    return TableView(table.name, table.title, table.kind.value, tuple(names))


@dataclass(frozen=True)
class ChartRow:
    """One pay line: its name, how it pays in words, the amount per bet size, its rule id."""

    name: str
    pays: str
    amounts: tuple[int | None, ...]
    rule_id: str


@dataclass(frozen=True)
class Chart:
    """One pay table's chart: what each line pays on each bet size."""

    name: str
    title: str
    sheet: str
    bets: tuple[int, ...]
    rows: tuple[ChartRow, ...]
    note: str


def _pays(line: Any) -> str:
    if line.odds is not None:
        return f"{line.odds:,} to 1"
    if line.meter_percent is not None:
        return f"{line.meter_percent}% of the meter"
    return f"${line.amount_cents // 100:,}" if line.amount_cents % 100 == 0 else \
        f"${line.amount_cents / 100:,.2f}"


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
        rows.append(ChartRow(line.name, _pays(line), amounts, line.rule_id))
    note = ""
    if table.kind is TableKind.ENVY and table.min_bonus_bet_cents:
        note = (f"Paid to every bonus bet of at least ${table.min_bonus_bet_cents // 100} "
                "for each other player's qualifying hand"
                + (" and the dealer's." if table.dealer_pays else "; the dealer's hand pays none."))
    elif table.kind is TableKind.PROGRESSIVE:
        note = "A fixed $1 bet; the top lines pay their share of the meter."
    elif table.kind is TableKind.BONUS:
        note = "Amounts are the win; the bet stays. A hand below the table's lowest line loses."
    return Chart(table.name, table.title, table.sheet, tuple(bets), tuple(rows), note)


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

    Part of the printed sheet's cache key (``reference.sheet_pdf_key``): a pay table
    edited in its data file, or a profile offering other tables, prints anew.
    """
    charts = pay_charts(profile_name)
    if not charts:
        return None
    data = repr([(c.name, load_table(c.name)) for c in charts])
    return hashlib.sha256(data.encode()).hexdigest()[:24]
