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
from collections.abc import Callable, Sequence
from multiprocessing import get_context
from typing import TYPE_CHECKING, Any

from ..hands import CARD_PRIME, rank2, rank5_function, rank_tables
from .classes import MASK_BITS, ClassTable, class_keys
from .interpreter import HouseWay, load
from .interpreter.splits import BACK_IDX, FRONT_IDX

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
    back_idx = np.array(BACK_IDX, dtype=np.int64)[split]
    front_idx = np.array(FRONT_IDX, dtype=np.int64)[split]
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
# House ways given as objects (a file's, a stored version's), by the key the work carries:
# put here before the workers fork (``simulate``), so each worker finds the same object.
_GIVEN: dict[str, HouseWay] = {}


def _given(way: str | HouseWay) -> str:
    """Return the key a house way travels under: a preset's name, or a given way's key."""
    if isinstance(way, str):
        return way
    key = f"{way.name}#{way.digest}"
    _GIVEN[key] = way
    return key


def _way_of(name: str, table: bool) -> HouseWay:
    given = _GIVEN.get(name)
    return given if given is not None else load(name, table)


def _sides(player_way: str, banker_way: str, wheel: str, table: bool) -> tuple[_Side, _Side]:
    got = _SIDES.get((player_way, banker_way, wheel, table))
    if got is None:
        player = _Side(_way_of(player_way, table), wheel)
        banker = (player if banker_way == player_way else
                  _Side(_way_of(banker_way, table), wheel))
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


def simulate(player_way: str | HouseWay, banker_way: str | HouseWay, hands: int, seed: int,
             wheel: str = "second_highest", workers: int = 2, table: bool = True
             ) -> dict[str, Any]:
    """Deal ``hands`` random deals; count player wins, pushes and losses.

    Each way is a preset's name or a house way itself (a file's, a stored version's:
    used as it is, by its class table when it has one, else by ``HouseWay.set``).

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
    player_way, banker_way = _given(player_way), _given(banker_way)
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


# --- paired: the banker by an old way, then by a new one, on the same deals (issue 18) ---

PAIRED_OUTCOMES = ("win", "push", "lose")
# The three sides of a paired run (reference, old, new), put here before the workers fork.
_PAIRED: list[tuple[_Side, _Side, _Side]] = []


def _outcome(p_back: NDArray[np.int64], p_front: NDArray[np.int64], b_back: NDArray[np.int64],
             b_front: NDArray[np.int64]) -> NDArray[np.int64]:
    """0 the player wins, 1 a push, 2 the player loses (copies to the banker)."""
    import numpy as np

    out: NDArray[np.int64] = 2 - (p_back > b_back).astype(np.int64) \
        - (p_front > b_front).astype(np.int64)
    return out


def paired_block(sides: tuple[_Side, _Side, _Side], seed: int, block: int, deals: int
                 ) -> list[int]:
    """Deal and play one block twice; return the 18 joint counts.

    Cell ``old * 6 + new * 2 + queen_high``: the player's outcome against the banker
    set by the old way and by the new (0 win, 1 push, 2 lose), and whether the
    banker's seven cards are a queen-high pai gow.
    """
    import numpy as np

    reference, old, new = sides
    keys = np.frombuffer(class_keys().keys, dtype=np.uint64)
    queen_high = np.frombuffer(class_keys().queen_high, dtype=np.uint8)
    cards = deal_block(seed, block, deals)
    p_hands, b_hands = cards[:, :7], cards[:, 7:]
    p_index = np.searchsorted(keys, hand_keys(p_hands)).astype(np.int64)
    b_index = np.searchsorted(keys, hand_keys(b_hands)).astype(np.int64)
    p_back, p_front = reference.values(p_hands, p_index)
    old_out = _outcome(p_back, p_front, *old.values(b_hands, b_index))
    new_out = old_out if new is old else _outcome(p_back, p_front,
                                                  *new.values(b_hands, b_index))
    cell = old_out * 6 + new_out * 2 + queen_high[b_index].astype(np.int64)
    return [int(k) for k in np.bincount(cell, minlength=18)]


def _paired_play(args: tuple[int, int, int]) -> list[int]:
    seed, block, deals = args
    return paired_block(_PAIRED[0], seed, block, deals)


def paired_simulate(reference: HouseWay, old: HouseWay, new: HouseWay, wheel: str,
                    hands: int, seed: int, workers: int = 1,
                    progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Deal ``hands`` deals; the player sets by ``reference``, the banker by ``old``, then
    by ``new``, on the same deals; count the joint outcomes (issue 18).

    Returns ``joint``: 18 rows {old, new, queen_high, deals} (outcomes "win", "push",
    "lose" for the player, before any table rule; ``house_way_edge.edge_change`` turns
    them into money), ``old_counts`` and ``new_counts`` (as ``simulate`` counts them),
    ``hands``, ``seed``, ``wheel``, the three ways' names and rules digests and
    ``seconds``. The deals are ``simulate``'s for the same seed (block by block), so
    the counts are the same whatever ``workers``. Each way is played from its class
    table (shipped or attached), else by ``HouseWay.set`` (the same counts, slower).
    ``progress(done, total)`` is called in this process after each block of deals.
    """
    if hands <= 0:
        raise ValueError("The number of hands must be more than zero.")
    if seed < 0:
        raise ValueError("The seed must be zero or more.")
    start = time.perf_counter()
    made: dict[int, _Side] = {}

    def side(way: HouseWay) -> _Side:
        if id(way) not in made:
            made[id(way)] = _Side(way, wheel)
        return made[id(way)]

    sides = (side(reference), side(old), side(new))
    class_keys()
    blocks = [(seed, b, min(BLOCK, hands - b * BLOCK)) for b in range(-(-hands // BLOCK))]
    workers = max(1, min(workers, len(blocks)))
    total = [0] * 18
    done = 0
    _PAIRED[:] = [sides]
    try:
        if workers > 1:
            with get_context("fork").Pool(workers) as pool:
                parts = pool.imap(_paired_play, blocks)
                for (_, _, deals), part in zip(blocks, parts, strict=True):
                    total = [a + b for a, b in zip(total, part, strict=True)]
                    done += deals
                    if progress is not None:
                        progress(done, hands)
        else:
            for _, block, deals in blocks:
                part = paired_block(sides, seed, block, deals)
                total = [a + b for a, b in zip(total, part, strict=True)]
                done += deals
                if progress is not None:
                    progress(done, hands)
    finally:
        _PAIRED.clear()
    joint = [{"old": PAIRED_OUTCOMES[o], "new": PAIRED_OUTCOMES[n], "queen_high": bool(q),
              "deals": total[o * 6 + n * 2 + q]}
             for o in range(3) for n in range(3) for q in range(2)]

    def marginal(side: int) -> dict[str, int]:
        out = dict.fromkeys(COUNT_KEYS, 0)
        for o in range(3):
            for n in range(3):
                for q in range(2):
                    outcome = PAIRED_OUTCOMES[(o, n)[side]]
                    deals = total[o * 6 + n * 2 + q]
                    out[outcome] += deals
                    if q:
                        out[f"{outcome}_vs_queen_high"] += deals
        return out

    return {
        "hands": hands, "seed": seed, "wheel": str(wheel),
        "reference": {"name": reference.name, "rules_digest": reference.rules_digest},
        "old": {"name": old.name, "rules_digest": old.rules_digest},
        "new": {"name": new.name, "rules_digest": new.rules_digest},
        "joint": joint,
        "old_counts": marginal(0),
        "new_counts": marginal(1),
        "seconds": time.perf_counter() - start,
    }
