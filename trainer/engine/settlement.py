"""Settlement of a player's bet against the banker (docs/rules.md §7)."""
from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal
from enum import StrEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from .cards import Card, verify_distinct
from .hands import Outcome, compare_strengths, is_queen_high_pai_gow, rank2, rank5
from .messages import N_, Money, refusal
from .profiles import DEFAULT_PROFILE, FoulPolicy, Rounding, TableProfile, get_profile
from .setting import verify_set_hand

if TYPE_CHECKING:
    from .house_way import HouseWay


class Result(StrEnum):
    """What happens to the bet."""

    WIN = "win"
    PUSH = "push"
    LOSE = "lose"


# The settlement truth table (docs/rules.md §7): (back, front) -> result;
# every copy goes to the banker.
SETTLEMENT_TABLE: dict[tuple[Outcome, Outcome], Result] = {
    (Outcome.WIN, Outcome.WIN): Result.WIN,
    (Outcome.WIN, Outcome.LOSS): Result.PUSH,
    (Outcome.LOSS, Outcome.WIN): Result.PUSH,
    (Outcome.WIN, Outcome.COPY): Result.PUSH,
    (Outcome.COPY, Outcome.WIN): Result.PUSH,
    (Outcome.LOSS, Outcome.LOSS): Result.LOSE,
    (Outcome.LOSS, Outcome.COPY): Result.LOSE,
    (Outcome.COPY, Outcome.LOSS): Result.LOSE,
    (Outcome.COPY, Outcome.COPY): Result.LOSE,
}


class Settlement(NamedTuple):
    """The settled bet of one player against the banker (immutable)."""

    back: Outcome
    front: Outcome
    fouled: bool
    outcome: Result
    bet_cents: int
    commission_cents: int
    net_cents: int
    reset_back: tuple[Card, ...] | None = None
    reset_front: tuple[Card, ...] | None = None
    reset_rule: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON form used by the command line."""
        out: dict[str, Any] = {
            "back": self.back.value,
            "front": self.front.value,
            "fouled": self.fouled,
            "outcome": self.outcome.value,
            "commission_cents": self.commission_cents,
            "net_cents": self.net_cents,
        }
        if self.reset_back is not None and self.reset_front is not None:
            out["reset"] = {
                "back": [str(c) for c in self.reset_back],
                "front": [str(c) for c in self.reset_front],
                "rule": self.reset_rule,
            }
        return out


def commission_cents(win_cents: int, profile: TableProfile | str = DEFAULT_PROFILE) -> int:
    """Return the commission taken from a win of ``win_cents`` under the profile."""
    return _commission_cents(win_cents, get_profile(profile))


@lru_cache(maxsize=4096)
def _commission_cents(win_cents: int, profile: TableProfile) -> int:
    if profile.no_commission or profile.fee_cents is not None or win_cents <= 0:
        return 0
    exact = Decimal(win_cents) * profile.commission_rate
    if profile.commission_rounding == Rounding.CENT:
        cents = int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))
    else:
        step = 25 if profile.commission_rounding == Rounding.QUARTER_UP else 100
        cents = int((exact / step).to_integral_value(rounding=ROUND_CEILING)) * step
    return min(cents, win_cents)


def fee_cents(profile: TableProfile | str = DEFAULT_PROFILE) -> int:
    """Return the flat fee charged on every hand played, or 0."""
    profile = get_profile(profile)
    if profile.no_commission or profile.fee_cents is None:
        return 0
    return profile.fee_cents


def payout_cents(bet_cents: int, profile: TableProfile | str = DEFAULT_PROFILE) -> int:
    """Return what a winning bet is paid after the commission (the chart's figure)."""
    return bet_cents - commission_cents(bet_cents, profile)


def table_result(result: Result, banker_queen_high: bool,
                 profile: TableProfile | str = DEFAULT_PROFILE) -> Result:
    """Apply the table's rules to an unfouled bet's result (or a reset fouled hand's).

    Under ``no_commission``, when the banker's seven cards are a queen-high pai gow,
    every such bet pushes, whatever it would have been (docs/rules.md
    §11). A fouled hand under the ``lose`` policy never gets here: it loses.
    """
    if banker_queen_high and get_profile(profile).no_commission:
        return Result.PUSH
    return result


def _verify_hands(player_back: Sequence[int], player_front: Sequence[int],
                  banker_back: Sequence[int], banker_front: Sequence[int]) -> None:
    """Raise ValueError for a wrong card count or a card held twice."""
    if (len(player_back) != 5 or len(player_front) != 2 or len(banker_back) != 5
            or len(banker_front) != 2):
        verify_set_hand(player_back, player_front)
        verify_set_hand(banker_back, banker_front)
    cards = (*player_back, *player_front, *banker_back, *banker_front)
    if len(set(cards)) != 14:
        # Player and banker cards come from one deck: none may appear twice.
        verify_distinct(cards)


def settle(player_back: Sequence[int], player_front: Sequence[int],
           banker_back: Sequence[int], banker_front: Sequence[int],
           bet_cents: int, profile: TableProfile | str = DEFAULT_PROFILE,
           house_way: HouseWay | str | None = None) -> Settlement:
    """Settle one player's bet against the banker's set hand.

    ``house_way`` resets a fouled hand under the ``house_way`` foul policy: the way
    itself (a drill's ``context.way``) or a preset's name (None: the default).
    """
    if not isinstance(profile, TableProfile):
        profile = get_profile(profile)
    if type(bet_cents) is not int or bet_cents <= 0:
        verify_bet(bet_cents)
    _verify_hands(player_back, player_front, banker_back, banker_front)
    wheel = profile.wheel
    # fee_cents(profile), inlined: settle is the hot path of the 200,000/s target.
    fee = 0 if profile.no_commission or profile.fee_cents is None else profile.fee_cents
    pb, pf = rank5(player_back, wheel), rank2(player_front)
    fouled = pb < pf
    reset = None
    if fouled and profile.foul_policy == FoulPolicy.LOSE:
        return Settlement(Outcome.LOSS, Outcome.LOSS, True, Result.LOSE, bet_cents,
                          fee, -bet_cents - fee)
    if fouled:
        from .house_way import DEFAULT_HOUSE_WAY, HouseWay, load

        way = house_way if isinstance(house_way, HouseWay) else load(house_way or DEFAULT_HOUSE_WAY)
        reset = way.set(tuple(player_back) + tuple(player_front), wheel=wheel)
        pb, pf = rank5(reset.back, wheel), rank2(reset.front)
    bb, bf = rank5(banker_back, wheel), rank2(banker_front)
    back, front = compare_strengths(pb, bb), compare_strengths(pf, bf)
    result = SETTLEMENT_TABLE[(back, front)]
    if profile.no_commission:
        queen_high = is_queen_high_pai_gow(tuple(banker_back) + tuple(banker_front))
        result = table_result(result, queen_high, profile)
    if result is Result.WIN:
        commission = commission_cents(bet_cents, profile) + fee
        net = bet_cents - commission
    elif result is Result.PUSH:
        commission, net = fee, -fee
    else:
        commission, net = fee, -bet_cents - fee
    if reset is None:
        return Settlement(back, front, fouled, result, bet_cents, commission, net)
    return Settlement(back, front, fouled, result, bet_cents, commission, net,
                      reset.back, reset.front, reset.rule)


def verify_bet(bet_cents: int, profile: TableProfile | None = None) -> None:
    """Raise ValueError unless the bet is a positive whole number of cents in limits."""
    if isinstance(bet_cents, bool) or not isinstance(bet_cents, int):
        raise refusal(N_("The bet must be a whole number of cents."))
    if bet_cents <= 0:
        raise refusal(N_("The bet must be more than zero."))
    if profile is not None and not (profile.min_bet_cents <= bet_cents
                                    <= profile.max_bet_cents):
        raise refusal(N_("The bet must be between %(low)s and %(high)s at this table."),
                      low=Money(profile.min_bet_cents), high=Money(profile.max_bet_cents))


def banker_commission_cents(banker_net_cents: int, profile: TableProfile | str = DEFAULT_PROFILE
                            ) -> int:
    """Return the commission a player-banker pays on the net win of their bank."""
    return commission_cents(banker_net_cents, profile)


