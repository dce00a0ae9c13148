"""Play the house way against the house way on random deals (``house-way simulate``).

Counts only outcomes: the player's hand against the banker's, back with back and
front with front, every copy to the banker (docs/rules.md §7). Turning the
counts into money (commission, fee) is the caller's job, so that this module
stays below settlement in the engine's layers.

A batch loop over blocks of deals, with numpy (imported here only, so that the app
and the other commands never load it): each block of ``BLOCK`` deals is dealt by its
own generator, seeded from (seed, block number), so a seed gives the same deals and
the same counts whatever the number of workers. A hand is never set card by card:
its class key (``classes``) is computed for the whole block at once and looked up in
the sorted class keys, and the strengths of each class's back and front under the
house way were derived once from its class table (the split of the class's cards).
A house way without a class table (none shipped, or made from other rules) has each
hand set by ``HouseWay.set`` instead: the same deals, the same counts, slower.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from multiprocessing import get_context
from typing import TYPE_CHECKING, Any

from ..hands import CARD_PRIME, rank2, rank5_function, rank_tables
from .classes import MASK_BITS, ClassTable, class_keys
from .interpreter import _BACK_IDX, _FRONT_IDX, HouseWay, load

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

BLOCK = 1 << 15          # deals per block: the unit of seeding and of work
COUNT_KEYS = ("win", "push", "lose", "win_vs_queen_high", "push_vs_queen_high",
              "lose_vs_queen_high")


# --- strengths of every class under a table --------------------------------------------

def class_strengths(table: ClassTable) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Return the back and front strength of every class as the table sets it.

    Each class's cards in class order are rebuilt from its key (the rank counts from
    the prime product, the flush-suit ranks from the mask), the table's split picks
    five for the back and two for the front, and ``hands.rank5`` / ``rank2`` value them
    (as array look-ups).
    """
    import numpy as np

    keys = np.frombuffer(table.keys.keys, dtype=np.uint64)
    n = len(keys)
    product = (keys >> np.uint64(MASK_BITS)).astype(np.int64)
    mask = (keys & np.uint64((1 << MASK_BITS) - 1)).astype(np.int64)
    primes = [CARD_PRIME[r * 4] for r in range(13)] + [CARD_PRIME[52]]
    # Factor each rank multiset once (about 68,000 of them), not each class.
    products, inverse = np.unique(product, return_inverse=True)
    counts = np.zeros((len(products), 14), dtype=np.int64)
    for r, p in enumerate(primes):
        for power in (p, p * p, p ** 3, p ** 4):
            counts[:, r] += products % power == 0
    prime_of = np.array(primes, dtype=np.int64)
    if not (counts.sum(axis=1) == 7).all() or \
            not (np.prod(prime_of[None, :] ** counts, axis=1) == products).all():
        raise ValueError("A class key that is not seven cards.")
    counts = counts[inverse.ravel()]
    # Ranks in class order (0..12, 13 the joker), seven a class.
    ranks = np.repeat(np.tile(np.arange(14), n), counts.ravel()).reshape(n, 7)
    first = np.ones((n, 7), dtype=bool)
    first[:, 1:] = ranks[:, 1:] != ranks[:, :-1]
    in_flush = first & (ranks < 13) & (((mask[:, None] >> np.minimum(ranks, 12)) & 1) == 1)
    split = np.frombuffer(table.split, dtype=np.uint8)
    back_idx = np.array(_BACK_IDX, dtype=np.int64)[split]
    front_idx = np.array(_FRONT_IDX, dtype=np.int64)[split]
    back_ranks = np.take_along_axis(ranks, back_idx, axis=1)
    back_key = prime_of[back_ranks].prod(axis=1)
    back_flush = (np.take_along_axis(in_flush, back_idx, axis=1) | (back_ranks == 13)).all(axis=1)
    plain, flush = rank_tables(table.wheel)
    back = np.where(back_flush, _lookup(flush, back_key, back_flush),
                    _lookup(plain, back_key, ~back_flush))
    fr = np.minimum(np.take_along_axis(ranks, front_idx, axis=1), 12) + 2   # joker: an ace
    hi, lo = fr.max(axis=1), fr.min(axis=1)
    front = np.where(hi == lo, (1 << 20) | (hi << 16), (hi << 16) | (lo << 12))
    return back.astype(np.int64), front.astype(np.int64)


def _lookup(table: dict[int, int], keys: NDArray[np.int64], where: NDArray[np.bool_]
            ) -> NDArray[np.int64]:
    import numpy as np

    known = np.array(sorted(table), dtype=np.int64)
    values = np.array([table[k] for k in known.tolist()], dtype=np.int64)
    i = np.minimum(np.searchsorted(known, keys), len(known) - 1)
    if not (known[i] == keys)[where].all():
        raise ValueError("A back that is not in the five-card rank table.")
    out: NDArray[np.int64] = values[i]
    return out


# --- dealing and keys ------------------------------------------------------------------

def deal_block(seed: int, block: int, deals: int) -> NDArray[np.int8]:
    """Deal ``deals`` times 14 cards of the 53 (a partial shuffle), seeded by (seed, block)."""
    import numpy as np

    rng = np.random.default_rng([seed, block])
    deck = np.tile(np.arange(53, dtype=np.int8), (deals, 1))
    rows = np.arange(deals)
    for i in range(14):
        j = rng.integers(i, 53, size=deals)
        top = deck[:, i].copy()
        deck[:, i] = deck[rows, j]
        deck[rows, j] = top
    out: NDArray[np.int8] = deck[:, :14]
    return out


_PRIME_LUT: list[Any] = []


def hand_keys(hands: NDArray[np.int8]) -> NDArray[np.uint64]:
    """Return the class key of each row of seven cards (``classes.class_order``)."""
    import numpy as np

    if not _PRIME_LUT:
        _PRIME_LUT.append(np.array(CARD_PRIME, dtype=np.uint64))
    cards = hands.astype(np.int64)
    product = _PRIME_LUT[0][cards].prod(axis=1, dtype=np.uint64)
    natural = cards < 52
    suit = cards & 3
    per_suit = np.stack([((suit == s) & natural).sum(axis=1) for s in range(4)], axis=1)
    joker = (~natural).any(axis=1)
    fs = per_suit.argmax(axis=1)
    flush = per_suit.max(axis=1) + joker >= 5
    held = natural & (suit == fs[:, None]) & flush[:, None]
    mask = (held.astype(np.int64) << np.minimum(cards >> 2, 12)).sum(axis=1)
    keys: NDArray[np.uint64] = (product << np.uint64(MASK_BITS)) | mask.astype(np.uint64)
    return keys


# --- one side's strengths --------------------------------------------------------------

class _Side:
    """One seat's house way: class strengths from its table, or the interpreter."""

    def __init__(self, way: HouseWay, wheel: str) -> None:
        self.way, self.wheel = way, wheel
        table = way.class_table(wheel)
        self.strengths = None if table is None else class_strengths(table)

    def values(self, hands: NDArray[np.int8], index: NDArray[np.int64]
               ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        import numpy as np

        if self.strengths is not None:
            back, front = self.strengths
            return back[index], front[index]
        rank5 = rank5_function(self.wheel)
        sets = [self.way.set(h, self.wheel) for h in hands.tolist()]
        return (np.array([rank5(s.back) for s in sets], dtype=np.int64),
                np.array([rank2(s.front) for s in sets], dtype=np.int64))


_SIDES: dict[tuple[str, str, str, bool], tuple[_Side, _Side]] = {}


def _sides(player_way: str, banker_way: str, wheel: str, table: bool) -> tuple[_Side, _Side]:
    got = _SIDES.get((player_way, banker_way, wheel, table))
    if got is None:
        player = _Side(load(player_way, table), wheel)
        banker = (player if banker_way == player_way else
                  _Side(load(banker_way, table), wheel))
        got = _SIDES[(player_way, banker_way, wheel, table)] = (player, banker)
    return got


def play_block(player_way: str, banker_way: str, wheel: str, seed: int, block: int,
               deals: int, table: bool = True) -> tuple[int, ...]:
    """Deal and play one block; return the counts in ``COUNT_KEYS`` order."""
    import numpy as np

    player, banker = _sides(player_way, banker_way, wheel, table)
    keys = np.frombuffer(class_keys().keys, dtype=np.uint64)
    queen_high = np.frombuffer(class_keys().queen_high, dtype=np.uint8)
    cards = deal_block(seed, block, deals)
    p_hands, b_hands = cards[:, :7], cards[:, 7:]
    p_index = np.searchsorted(keys, hand_keys(p_hands)).astype(np.int64)
    b_index = np.searchsorted(keys, hand_keys(b_hands)).astype(np.int64)
    p_back, p_front = player.values(p_hands, p_index)
    b_back, b_front = banker.values(b_hands, b_index)
    back_wins = p_back > b_back
    front_wins = p_front > b_front
    win = back_wins & front_wins
    lose = ~(back_wins | front_wins)
    push = ~(win | lose)
    queen = queen_high[b_index] == 1
    return (int(win.sum()), int(push.sum()), int(lose.sum()), int((win & queen).sum()),
            int((push & queen).sum()), int((lose & queen).sum()))


def _play(args: tuple[str, str, str, int, Sequence[tuple[int, int]], bool]) -> list[int]:
    player_way, banker_way, wheel, seed, blocks, table = args
    total = [0] * len(COUNT_KEYS)
    for block, deals in blocks:
        for i, k in enumerate(play_block(player_way, banker_way, wheel, seed, block, deals,
                                         table)):
            total[i] += k
    return total


def simulate(player_way: str, banker_way: str, hands: int, seed: int,
             wheel: str = "second_highest", workers: int = 2, table: bool = True
             ) -> dict[str, Any]:
    """Deal ``hands`` random deals; count player wins, pushes and losses.

    The counts are before any table rule: ``*_vs_queen_high`` repeat them for the
    deals where the banker holds a queen-high pai gow (``summarize`` applies
    ``settlement.table_result`` to them). The deals depend on the seed only, never
    on ``workers``. ``table=False`` sets every hand by the interpreter (the same
    deals and counts, for comparison).
    """
    if hands <= 0:
        raise ValueError("The number of hands must be more than zero.")
    if seed < 0:
        raise ValueError("The seed must be zero or more.")
    start = time.perf_counter()
    _sides(player_way, banker_way, wheel, table)   # tables and strengths before any fork
    class_keys()
    blocks = [(b, min(BLOCK, hands - b * BLOCK)) for b in range(-(-hands // BLOCK))]
    workers = max(1, min(workers, len(blocks)))
    jobs = [(player_way, banker_way, wheel, seed, blocks[i::workers], table)
            for i in range(workers)]
    if workers > 1:
        with get_context("fork").Pool(workers) as pool:
            parts = pool.map(_play, jobs)
    else:
        parts = [_play(jobs[0])]
    seconds = time.perf_counter() - start
    counts: dict[str, Any] = {k: sum(p[i] for p in parts) for i, k in enumerate(COUNT_KEYS)}
    counts["hands"] = hands
    counts["seconds"] = seconds
    return counts
