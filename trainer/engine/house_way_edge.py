"""What a house way change costs the house: the edge from a paired simulation (issue 18).

``house_way.simulate.paired_simulate`` deals the same deals twice: the player sets by a
reference way, the banker by the old way and then by the new one, and counts the joint
outcomes (old outcome x new outcome x banker's queen-high pai gow). This module, above
``settlement``, turns those counts into money under a table-rules profile:

* each outcome is settled as ``settle`` would (the no-commission queen-high push, the
  commission on a win of ``bet_cents`` with the profile's rounding, the flat fee), in
  integer cents;
* the house edge under each way is the player's average loss per unit bet (a
  ``Fraction``, exact over the counts);
* the change is the new edge less the old, and its 95% interval comes from the paired
  differences (each deal's new net less its old net, in cents): their sample variance
  is exact from the joint counts, the interval is the change +- 1.96 standard errors.
  Same deals on both sides, so the interval is far narrower than the difference of two
  separate runs' intervals, and it is exactly zero wide when the two ways never differ.

The profile's foul policy does not enter: a house way's setting never fouls (a rule
that would plays the fallback). Floats appear only in the reported figures.
"""
from __future__ import annotations

from fractions import Fraction
from math import sqrt
from typing import Any

from .profiles import TableProfile, get_profile
from .settlement import Result, commission_cents, fee_cents, table_result, verify_bet

__all__ = ["Z95", "edge_change"]

Z95 = 1.96
_RESULTS = {"win": Result.WIN, "push": Result.PUSH, "lose": Result.LOSE}


def _net_cents(outcome: str, queen_high: bool, profile: TableProfile, bet_cents: int) -> int:
    """The player's net on one deal, in cents, after the table's rules."""
    try:
        result = table_result(_RESULTS[outcome], queen_high, profile)
    except KeyError:
        raise ValueError(f"{outcome!r} is not an outcome (win, push or lose).") from None
    fee = fee_cents(profile)
    if result is Result.WIN:
        return bet_cents - commission_cents(bet_cents, profile) - fee
    if result is Result.PUSH:
        return -fee
    return -bet_cents - fee


def edge_change(counts: dict[str, Any], profile: TableProfile | str,
                bet_cents: int = 10_000) -> dict[str, Any]:
    """Return the house edge under the old and the new way, and the change with its 95% interval.

    ``counts`` is ``paired_simulate``'s result; the profile's wheel setting must be the
    one the deals were played under. Edges are per unit bet from the player's side
    (0.0273 = the house keeps 2.73% of every bet); ``*_points`` are percentage points.
    ``bet_cents`` is the bet each deal settles (the commission's rounding and a flat fee
    depend on it; 10,000 = $100, as ``trainer house-way simulate``).
    """
    profile = get_profile(profile)
    verify_bet(bet_cents)
    wheel = counts.get("wheel")
    if wheel is not None and wheel != profile.wheel.value:
        raise ValueError(f"These deals were played with the {wheel} wheel setting; the "
                         f"{profile.title or profile.name} table plays {profile.wheel.value}.")
    n = counts.get("hands")
    rows = counts.get("joint")
    if not isinstance(n, int) or isinstance(n, bool) or n <= 0 or not isinstance(rows, list):
        raise ValueError("Not the counts of a paired simulation.")
    total_old = total_new = total_diff = total_square = changed = seen = 0
    for row in rows:
        deals = int(row["deals"])
        if deals < 0:
            raise ValueError("A negative count of deals.")
        queen_high = bool(row["queen_high"])
        old = _net_cents(row["old"], queen_high, profile, bet_cents)
        new = _net_cents(row["new"], queen_high, profile, bet_cents)
        diff = new - old
        seen += deals
        total_old += deals * old
        total_new += deals * new
        total_diff += deals * diff
        total_square += deals * diff * diff
        changed += deals if diff else 0
    if seen != n:
        raise ValueError(f"The joint counts add up to {seen:,} deals, not {n:,}.")
    unit = n * bet_cents
    old_edge = Fraction(-total_old, unit)
    new_edge = Fraction(-total_new, unit)
    change = new_edge - old_edge                      # = -mean difference per unit bet
    # Sample variance of the per-deal differences (cents squared), exact.
    variance = (Fraction(total_square) - Fraction(total_diff * total_diff, n)) / (n - 1) \
        if n > 1 else Fraction(0)
    half = Z95 * sqrt(variance / n) / bet_cents       # per unit bet; the one float step
    change_points = float(change * 100)
    return {
        "profile": profile.name,
        "bet_cents": bet_cents,
        "hands": n,
        "old_edge": float(old_edge),
        "new_edge": float(new_edge),
        "old_edge_points": float(old_edge * 100),
        "new_edge_points": float(new_edge * 100),
        "change_points": change_points,
        "change_ci95_points": [change_points - half * 100, change_points + half * 100],
        # The exact change per unit bet, and the deals whose net differs.
        "change_exact": f"{change.numerator}/{change.denominator}",
        "changed_deals": changed,
        "direction": "more" if change > 0 else "less" if change < 0 else "same",
    }
