"""Table-rules profiles: the settings the rule book leaves to the table (docs/rules.md §11).

A profile also names the side bets its table offers (docs/side-bets.md): each offer is a
pay table of ``side_bets/tables/`` with its limits.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from enum import StrEnum
from typing import Any

from .hands import Wheel
from .side_bets import TableKind, load_table


class Rounding(StrEnum):
    """How the commission is rounded (docs/rules.md §9)."""

    CENT = "cent"
    QUARTER_UP = "quarter_up"
    DOLLAR_UP = "dollar_up"


class FoulPolicy(StrEnum):
    """What happens to a fouled player hand."""

    LOSE = "lose"
    HOUSE_WAY = "house_way"


@dataclass(frozen=True, slots=True)
class SideBetOffer:
    """One side bet a table offers: its pay table, limits, envy and commission."""

    table: str
    min_cents: int = 100
    max_cents: int = 2500
    # The envy table paid to holders of this bet (at or above its minimum), or None.
    envy: str | None = None
    # True: the profile's commission is taken on this bet's wins (casinos mostly take none).
    commission: bool = False

    @property
    def title(self) -> str:
        """Return the bet in words ("Fortune bonus (standard table) with Envy")."""
        title = load_table(self.table).title
        return f"{title} with Envy" if self.envy else title

    def describe(self) -> str:
        """Describe the bet and its limits in one line."""
        if self.min_cents == self.max_cents:
            limits = f"a fixed ${self.min_cents / 100:.2f} bet"
        else:
            limits = f"${self.min_cents / 100:.2f} to ${self.max_cents / 100:.2f}"
        text = f"{self.title}, {limits}"
        if self.envy:
            envy = load_table(self.envy)
            text += f" (Envy needs ${(envy.min_bonus_bet_cents or 0) / 100:.2f} or more)"
        return text + (", commission on wins" if self.commission else "")


@dataclass(frozen=True, slots=True)
class TableProfile:
    """One table's rules: wheel, commission, foul policy and bet limits."""

    name: str
    wheel: Wheel = Wheel.SECOND_HIGHEST
    commission_rate: Decimal = Decimal("0.05")
    commission_rounding: Rounding = Rounding.CENT
    fee_cents: int | None = None
    foul_policy: FoulPolicy = FoulPolicy.LOSE
    no_commission: bool = False
    min_bet_cents: int = 200
    max_bet_cents: int = 10_000
    # The profile's name in words for people (docs/house-ways.md); the name is the id.
    title: str = ""
    # The side bets the table offers (docs/side-bets.md); none at the plain tables.
    side_bets: tuple[SideBetOffer, ...] = ()

    def __post_init__(self) -> None:
        for offer in self.side_bets:
            table = load_table(offer.table)
            if table.kind is TableKind.ENVY:
                raise ValueError(f"{table.title} is paid with a bonus bet, not offered alone.")
            if offer.envy is not None and load_table(offer.envy).kind is not TableKind.ENVY:
                raise ValueError(f"{offer.envy!r} is not an envy table.")
            if not 0 < offer.min_cents <= offer.max_cents:
                raise ValueError(f"The limits of {table.title} are not a range of bets.")
            if table.fixed_bet_cents is not None and not (
                    offer.min_cents == offer.max_cents == table.fixed_bet_cents):
                raise ValueError(f"{table.title} is a fixed bet of "
                                 f"${table.fixed_bet_cents / 100:.2f}.")

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON form of every setting (a custom profile's stored form, issue 18)."""
        return {"name": self.name, "title": self.title, "wheel": self.wheel.value,
                "commission_rate": str(self.commission_rate),
                "commission_rounding": self.commission_rounding.value,
                "fee_cents": self.fee_cents, "foul_policy": self.foul_policy.value,
                "no_commission": self.no_commission, "min_bet_cents": self.min_bet_cents,
                "max_bet_cents": self.max_bet_cents,
                "side_bets": [{"table": o.table, "min_cents": o.min_cents,
                               "max_cents": o.max_cents, "envy": o.envy,
                               "commission": o.commission} for o in self.side_bets]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableProfile:
        """Rebuild a profile from ``as_dict``'s form; ValueError when it is not one."""
        try:
            fee = data.get("fee_cents")
            return cls(
                name=str(data["name"]), title=str(data.get("title") or ""),
                wheel=Wheel(data.get("wheel", Wheel.SECOND_HIGHEST.value)),
                commission_rate=Decimal(str(data.get("commission_rate", "0.05"))),
                commission_rounding=Rounding(data.get("commission_rounding", "cent")),
                fee_cents=None if fee is None else int(fee),
                foul_policy=FoulPolicy(data.get("foul_policy", "lose")),
                no_commission=bool(data.get("no_commission", False)),
                min_bet_cents=int(data.get("min_bet_cents", 200)),
                max_bet_cents=int(data.get("max_bet_cents", 10_000)),
                side_bets=tuple(SideBetOffer(
                    str(o["table"]), int(o.get("min_cents", 100)), int(o.get("max_cents", 2500)),
                    o.get("envy") or None, bool(o.get("commission", False)))
                    for o in data.get("side_bets") or ()))
        except (KeyError, TypeError, AttributeError, ArithmeticError) as error:
            raise ValueError(f"Not a table-rules profile: {error}.") from None

    def with_settings(self, **changes: Any) -> TableProfile:
        """Return a copy with some settings changed."""
        return replace(self, **changes)

    def describe(self) -> str:
        """Describe the commission in one line for a sheet or chart."""
        if self.no_commission:
            return ("No commission; when the banker holds a queen-high pai gow, "
                    "every bet pushes" + self._side_bet_words())
        if self.fee_cents is not None:
            return (f"Flat fee of ${self.fee_cents / 100:.2f} per hand, win or lose"
                    + self._side_bet_words())
        pct = (self.commission_rate * 100).normalize()
        return (f"{pct}% commission on wins, rounded {self.commission_rounding.value}"
                + self._side_bet_words())

    def _side_bet_words(self) -> str:
        return f"; side bets: {self.describe_side_bets()}" if self.side_bets else ""

    def describe_side_bets(self) -> str:
        """Describe the side bets offered, in words ("" when none)."""
        return "; ".join(offer.describe() for offer in self.side_bets)

    def side_bet(self, table: str | None = None) -> SideBetOffer:
        """Return the offer of pay table ``table`` (None: the first), ValueError if none."""
        for offer in self.side_bets:
            if table is None or offer.table == table:
                return offer
        if table is None:
            raise ValueError("This table offers no side bet.")
        raise ValueError(f"This table does not offer the {load_table(table).title} side bet.")


PROFILES: dict[str, TableProfile] = {
    "nevada": TableProfile("nevada", title="Nevada (5% commission)"),
    "california": TableProfile("california", wheel=Wheel.LOWEST, fee_cents=100,
                               title="California ($1 fee a hand)"),
    "no-commission": TableProfile("no-commission", no_commission=True,
                                  title="No commission"),
    "nevada-fortune": TableProfile(
        "nevada-fortune", title="Nevada with the Fortune bonus and Envy",
        side_bets=(SideBetOffer("fortune-standard", envy="envy"),)),
    "nevada-emperors": TableProfile(
        "nevada-emperors", title="Nevada with Emperor's Treasure",
        side_bets=(SideBetOffer("emperors-treasure"),)),
    "nevada-progressive": TableProfile(
        "nevada-progressive", title="Nevada with the progressive jackpot",
        side_bets=(SideBetOffer("progressive", 100, 100),)),
    "ez": TableProfile("ez", no_commission=True, title="EZ Pai Gow (no commission, Queen's Dragon)",
                       side_bets=(SideBetOffer("queens-dragon"),)),
}
DEFAULT_PROFILE = "nevada"


def profile_names() -> list[str]:
    """Return the table-rules profiles a group may choose, the default first."""
    return [DEFAULT_PROFILE, *(name for name in PROFILES if name != DEFAULT_PROFILE)]


def get_profile(name: str | TableProfile = DEFAULT_PROFILE) -> TableProfile:
    """Return a named table-rules profile."""
    if isinstance(name, TableProfile):
        return name
    try:
        return PROFILES[name]
    except KeyError:
        known = ", ".join(PROFILES)
        raise ValueError(f"Unknown table-rules profile {name!r}; known: {known}.") from None
