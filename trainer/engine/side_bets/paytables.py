"""Side-bet pay tables as data: one TOML file per table in ``tables/`` (docs/side-bets.md).

``load_table(name)`` reads a shipped table (once) through ``importlib.resources``;
``table_names()`` lists them. Every pay line has a rule id ``bonus.<table>.<slug>``
(a tooltip and an export key), a name in words and a sentence for the sheet.

How a table pays is its ``payment``: "to 1" (the stake stays with the player and the
win is paid beside it) or "for 1" (the progressive: the dealer collects every wager
when the cards are dealt, and a winner is paid the amount with no stake returned).
The side-bet rules changed once (``SIDE_BET_RULES``): under rules 1 the progressive
was paid "to 1"; ``load_table(name, rules)`` gives a table as it paid under those
rules, so an attempt graded then replays with the same payment (docs/side-bets.md).
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

# The side-bet rules the engine grades by now, and every version it still grades by:
# 1, the progressive paid "to 1" (the $1 wager returned to a winner); 2, the
# progressive paid "for 1" (every wager collected at the deal, none returned). A drill
# context records the version it was started under (``DrillContext.side_bet_rules``).
SIDE_BET_RULES = 2
RULES_VERSIONS = (1, 2)
# The first version whose tables pay as their data says (a "for 1" payment included).
FOR_ONE_SINCE = 2


class Payment(StrEnum):
    """How a winning side bet is paid: beside the stake it keeps, or instead of it."""

    TO_ONE = "to-one"      # the stake stays with the player; the win is paid beside it
    FOR_ONE = "for-one"    # the stake is collected at the deal; the win is all that is paid


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
        """Return what the dealer pays on ``bet_cents`` (a "to 1" stake is kept beside it;
        a "for 1" stake was collected at the deal: ``PayTable.net_cents``)."""
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
    payment: Payment = Payment.TO_ONE

    @property
    def for_one(self) -> bool:
        """Tell whether the table pays "for 1" (wagers collected at the deal, none returned)."""
        return self.payment is Payment.FOR_ONE

    def net_cents(self, paid_cents: int, bet_cents: int) -> int:
        """Return the player's result on a bet paid ``paid_cents`` (0: the bet lost).

        "To 1": a winner keeps the stake, so the result is what is paid; "for 1": the
        stake was collected at the deal, so a winner is up what is paid less the stake.
        A losing bet is down its stake either way.
        """
        if not paid_cents:
            return -bet_cents
        return paid_cents - bet_cents if self.for_one else paid_cents

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
            payment = Payment(data.get("payment", Payment.TO_ONE))
            lines = tuple(_line(name, match, kind, entry, payment) for entry in data["line"])
        except (KeyError, ValueError, TypeError) as error:
            raise ValueError(f"Pay table {name} is not valid: {error}") from None
        categories = [line.category for line in lines if line.category is not None]
        if categories != sorted(categories, reverse=True) or len(set(categories)) != len(categories):
            raise ValueError(f"Pay table {name}: lines must be in pay order, each category once.")
        if payment is Payment.FOR_ONE and kind is not TableKind.PROGRESSIVE:
            raise ValueError(f"Pay table {name}: only a progressive is paid 'for-one'.")
        return cls(name, str(data["title"]), kind, match, str(data.get("sheet", "")), lines,
                   _cents(data.get("fixed_bet_cents")), _cents(data.get("min_bonus_bet_cents")),
                   bool(data.get("dealer_pays", False)), payment)


def _cents(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{value!r} is not a whole number of cents.")
    return value


def _line(table: str, match: Match, kind: TableKind, entry: dict[str, Any],
          payment: Payment = Payment.TO_ONE) -> PayLine:
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
    for_one = " for 1" if payment is Payment.FOR_ONE else ""
    sheet = entry.get("sheet") or f"{name}: {explain}; {verb} {line.pays}{for_one}."
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


def verify_rules(rules: int) -> int:
    """Return ``rules`` if it is a side-bet rules version the engine grades by (else ValueError)."""
    if isinstance(rules, bool) or rules not in RULES_VERSIONS:
        raise ValueError(f"There are no side-bet rules {rules!r}; the versions are "
                         f"{', '.join(map(str, RULES_VERSIONS))}.")
    return rules


@cache
def load_table(name: str, rules: int = SIDE_BET_RULES) -> PayTable:
    """Return a shipped pay table by name (read once), as it paid under side-bet ``rules``.

    Before ``FOR_ONE_SINCE`` every table paid "to 1", the progressive included (its
    lines' sentences then say no "for 1"; the amounts are the same data).
    """
    verify_rules(rules)
    if name not in _names():
        raise ValueError(f"There is no side-bet pay table called {name!r}; "
                         f"the tables are {', '.join(_names())}.")
    text = _table_dir().joinpath(f"{name}.toml").read_text(encoding="utf-8")
    if rules < FOR_ONE_SINCE:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise ValueError(f"Pay table {name}: {error}") from None
        return PayTable.from_dict(name, {**data, "payment": Payment.TO_ONE.value})
    return PayTable.from_toml(name, text)


def question_payment(name: str, rules: int) -> dict[str, str]:
    """Return what a question dealt under side-bet ``rules`` records of table ``name``'s payment.

    ``{"payment": "for-one"}`` when the table pays "for 1" under those rules, else
    nothing, so a question dealt under rules 1 (or on a "to 1" table) is unchanged.
    """
    return {"payment": Payment.FOR_ONE.value} if load_table(name, rules).for_one else {}


def question_rules(side: dict[str, Any]) -> int:
    """Return the side-bet rules a question's side bet (its ``table``) is settled by.

    A "for 1" table pays "for 1" only in a question that records it
    (``question_payment``); one dealt before, under rules 1, pays "to 1" as it did.
    """
    if load_table(side["table"]).for_one and side.get("payment") != Payment.FOR_ONE.value:
        return 1
    return SIDE_BET_RULES


def question_table(side: dict[str, Any]) -> PayTable:
    """Return the pay table a question's side bet is settled by (``question_rules``)."""
    return load_table(side["table"], question_rules(side))
