"""Table-rules profiles: the settings the rule book leaves to the table (docs/rules.md §11)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from enum import StrEnum
from typing import Any

from .hands import Wheel


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

    def with_settings(self, **changes: Any) -> TableProfile:
        """Return a copy with some settings changed."""
        return replace(self, **changes)

    def describe(self) -> str:
        """Describe the commission in one line for a sheet or chart."""
        if self.no_commission:
            return ("No commission; when the banker holds a queen-high pai gow, "
                    "every bet pushes")
        if self.fee_cents is not None:
            return f"Flat fee of ${self.fee_cents / 100:.2f} per hand, win or lose"
        pct = (self.commission_rate * 100).normalize()
        return f"{pct}% commission on wins, rounded {self.commission_rounding.value}"


PROFILES: dict[str, TableProfile] = {
    "nevada": TableProfile("nevada"),
    "california": TableProfile("california", wheel=Wheel.LOWEST, fee_cents=100),
    "no-commission": TableProfile("no-commission", no_commission=True),
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
