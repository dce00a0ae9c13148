"""The action: which position receives the first pile (docs/rules.md §2)."""
from __future__ import annotations

import random
from collections.abc import Collection

from .messages import N_, refusal

POSITIONS = 7


def verify_total(total: int) -> None:
    """Raise ValueError unless ``total`` is a dice total of three dice (3-18) or 1-7."""
    if isinstance(total, bool) or not isinstance(total, int) or not 1 <= total <= 18:
        raise refusal(N_("A dice total is a whole number from 3 to 18 (or 1 to 7 "
                         "from a random number generator)."))


def action_position(total: int) -> int:
    """Return the position (1 = banker, counting counter-clockwise) of the first pile."""
    verify_total(total)
    return (total - 1) % POSITIONS + 1


def pile_order(total: int) -> list[int]:
    """Return the positions in the order they receive piles, starting from the action."""
    first = action_position(total)
    return [(first - 1 + i) % POSITIONS + 1 for i in range(POSITIONS)]


def deal_order(total: int, occupied: Collection[int]) -> list[tuple[int, int | None]]:
    """Pair each pile (0-6, in dealing order) with its position, or None when dead.

    ``occupied`` holds the positions with a hand (the banker's position 1 always
    plays). A pile landing on an empty seat is dead and goes to the discards.
    """
    for seat in occupied:
        if seat not in range(1, POSITIONS + 1):
            raise refusal(N_("Position %(seat)s is not at this table (1-7)."), seat=seat)
    seated = set(occupied) | {1}
    return [(pile, seat if seat in seated else None)
            for pile, seat in enumerate(pile_order(total))]


def roll_dice(rng: random.Random) -> tuple[int, int, int]:
    """Roll three dice from the injected generator."""
    return rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)


def table_position(banker_seat: int, position: int) -> int:
    """Return the seat (1-7 around the table) of a position counted from the banker."""
    return (banker_seat - 1 + position - 1) % POSITIONS + 1
