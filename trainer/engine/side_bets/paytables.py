"""Side-bet pay tables as data: one TOML file per table in ``tables/`` (docs/side-bets.md).

``load_table(name)`` reads a shipped table (once) through ``importlib.resources``;
``table_names()`` lists them. Every pay line has a rule id ``bonus.<table>.<slug>``
(a tooltip and an export key), a name in words and a sentence for the sheet.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from .categories import BonusCategory, Match

RULE_FAMILY = "bonus"


class TableKind(StrEnum):
    """How a table pays: odds on the bet, a meter, a fixed envy, or the banker's hand."""

    BONUS = "bonus"
    PROGRESSIVE = "progressive"
    ENVY = "envy"
    QUEENS_DRAGON = "queens-dragon"


# What each category is, for the sheet (a line may say it in its own words).
EXPLAIN = {
    BonusCategory.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH:
        "all seven cards of one suit in sequence, without the joker (A-2-3-4-5-6-7 counts)",
    BonusCategory.ROYAL_PLUS_MATCH:
        "a royal flush (the joker may fill it) and the other two cards a natural {match} "
        "of one suit",
    BonusCategory.SEVEN_CARD_STRAIGHT_FLUSH_JOKER:
        "all seven cards in one suit in sequence, the joker filling one place",
    BonusCategory.FIVE_ACES: "four aces and the joker",
    BonusCategory.ROYAL_FLUSH: "A-K-Q-J-10 of one suit, the joker may fill it",
    BonusCategory.STRAIGHT_FLUSH: "five cards of one suit in sequence, the joker may fill it",
    BonusCategory.FOUR_OF_A_KIND: "four cards of one rank (three aces and the joker count)",
    BonusCategory.FULL_HOUSE: "three of one rank and two of another",
    BonusCategory.FLUSH: "five cards of one suit",
    BonusCategory.THREE_OF_A_KIND: "three cards of one rank (it pays more than a straight)",
    BonusCategory.STRAIGHT: "five ranks in sequence",
}


def _money(cents: int) -> str:
    return f"${cents // 100:,}" if cents % 100 == 0 else f"${cents / 100:,.2f}"


@dataclass(frozen=True)
class PayLine:
    """One paying line of a table."""

    rule_id: str
    slug: str
    category: BonusCategory | None
    name: str
    sheet: str
    odds: int | None = None
    amount_cents: int | None = None
    meter_percent: int | None = None

    def win_cents(self, bet_cents: int, meter_cents: int | None = None) -> int:
        """Return the win on ``bet_cents`` (the stake is kept and not included)."""
        if self.odds is not None:
            return bet_cents * self.odds
        if self.amount_cents is not None:
            return self.amount_cents
        if meter_cents is None:
            raise ValueError("A progressive table pays from the meter: give the meter's value.")
        return meter_cents * (self.meter_percent or 0) // 100

    @property
    def pays(self) -> str:
        """Return the payout in words ("25 to 1", "$500", "100% of the meter")."""
        if self.odds is not None:
            return f"{self.odds:,} to 1"
        if self.amount_cents is not None:
            return _money(self.amount_cents)
        return f"{self.meter_percent}% of the meter"


@dataclass(frozen=True)
class PayTable:
    """A side bet's pay table, best line first."""

    name: str
    title: str
    kind: TableKind
    match: Match
    sheet: str
    lines: tuple[PayLine, ...]
    fixed_bet_cents: int | None = None
    min_bonus_bet_cents: int | None = None
    dealer_pays: bool = False

    @property
    def losing_rule_id(self) -> str:
        """Return the rule id of a losing bet (or of a hand that pays no envy)."""
        return f"{RULE_FAMILY}.{self.name}.nothing"

    def line_for(self, category: BonusCategory) -> PayLine | None:
        """Return the line paying ``category``, or None when it pays nothing."""
        for line in self.lines:
            if line.category is category:
                return line
        return None

    def line_by_slug(self, slug: str) -> PayLine | None:
        """Return the line with this slug, or None."""
        return next((line for line in self.lines if line.slug == slug), None)

    @classmethod
    def from_toml(cls, name: str, text: str) -> PayTable:
        """Read a table from its TOML text (ValueError naming what is wrong)."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise ValueError(f"Pay table {name}: {error}") from None
        return cls.from_dict(name, data)

    @classmethod
    def from_dict(cls, name: str, data: dict[str, Any]) -> PayTable:
        """Build a table from its data (ValueError naming what is wrong)."""
        try:
            kind = TableKind(data["kind"])
            match = Match(data.get("match", Match.KING_QUEEN))
            lines = tuple(_line(name, match, kind, entry) for entry in data["line"])
        except (KeyError, ValueError, TypeError) as error:
            raise ValueError(f"Pay table {name} is not valid: {error}") from None
        categories = [line.category for line in lines if line.category is not None]
        if categories != sorted(categories, reverse=True) or len(set(categories)) != len(categories):
            raise ValueError(f"Pay table {name}: lines must be in pay order, each category once.")
        return cls(name, str(data["title"]), kind, match, str(data.get("sheet", "")), lines,
                   _cents(data.get("fixed_bet_cents")), _cents(data.get("min_bonus_bet_cents")),
                   bool(data.get("dealer_pays", False)))


def _cents(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{value!r} is not a whole number of cents.")
    return value


def _line(table: str, match: Match, kind: TableKind, entry: dict[str, Any]) -> PayLine:
    category = BonusCategory.from_slug(entry["category"]) if "category" in entry else None
    if category is BonusCategory.NOTHING:
        raise ValueError("'nothing' is not a paying line.")
    slug = category.slug if category is not None else str(entry["slug"])
    if category is BonusCategory.ROYAL_PLUS_MATCH and "name" not in entry:
        name = ("Royal flush plus royal match" if match is Match.KING_QUEEN
                else "Royal flush plus suited ace-king")
    else:
        name = str(entry.get("name") or (category.title if category is not None else slug))
    paid = [key for key in ("odds", "amount_cents", "meter_percent") if key in entry]
    if len(paid) != 1:
        raise ValueError(f"line {slug} needs exactly one of odds, amount_cents, meter_percent.")
    values = {key: _cents(entry.get(key)) for key in ("odds", "amount_cents", "meter_percent")}
    if kind is TableKind.ENVY and values["amount_cents"] is None:
        raise ValueError(f"envy line {slug} pays a fixed amount_cents.")
    line = PayLine(f"{RULE_FAMILY}.{table}.{slug}", slug, category, name, "", **values)
    explain = entry.get("explain") or (
        EXPLAIN[category].format(match=match.words) if category is not None else "")
    verb = "each other hand with one pays" if kind is TableKind.ENVY else "pays"
    sheet = entry.get("sheet") or f"{name}: {explain}; {verb} {line.pays}."
    return PayLine(line.rule_id, slug, category, name, str(sheet), line.odds, line.amount_cents,
                   line.meter_percent)


def _table_dir() -> Traversable:
    return resources.files(__package__).joinpath("tables")


@cache
def _names() -> tuple[str, ...]:
    return tuple(sorted(p.name.removesuffix(".toml") for p in _table_dir().iterdir()
                        if p.name.endswith(".toml")))


def table_names() -> list[str]:
    """Return the shipped pay tables' names."""
    return list(_names())


@cache
def load_table(name: str) -> PayTable:
    """Return a shipped pay table by name (read once)."""
    if name not in _names():
        raise ValueError(f"There is no side-bet pay table called {name!r}; "
                         f"the tables are {', '.join(_names())}.")
    text = _table_dir().joinpath(f"{name}.toml").read_text(encoding="utf-8")
    return PayTable.from_toml(name, text)
