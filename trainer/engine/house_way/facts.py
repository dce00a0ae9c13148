"""What a condition can ask about a hand, for every rank multiset: the editor's exact
"this condition can never hold" check (``editing``).

A rule's condition asks about a hand's rank structure (its ``Shape``: pairs, trips,
singletons, the joker counting as an ace) and about its straights and flushes: the
``sf`` screen, the S/F categories it ``holds`` and which S/F pools are empty. The
second part depends on the suits, so it is read from every class of hands
(``classes.classes_of``: one representative per rank multiset and flush-suit ranks)
and summed up per rank structure (a rank multiset, the joker counted as an ace) as the
set of *fact vectors* its classes show:

    bits 0-3   holds straight, flush, straight flush, royal (``kinds.HOLD_NAMES`` order)
    bits 4-11  the pool is not empty (``kinds.POOLS`` order)
    bit 12     the ``sf`` screen (``interpreter.may_hold_sf``)

None of these depends on the wheel setting (it only orders straights: whether a hand
holds one, and which settings a pool takes, is the same under both; a test checks).
Building it sets every one of the 228,130 S/F classes through the interpreter
(about 10 s, or 6 s on two processes), so it ships as package data, ``tables/condition-facts.bin``, written by
``tools/build_house_way_facts.py``; a test rebuilds it and compares. When the file is
missing, the engine builds it on first use.
"""
from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator, Sequence
from importlib import resources
from itertools import combinations
from multiprocessing import get_context

from ..cards import Card
from ..hands import Wheel
from . import kinds as K
from .classes import classes_of, rank_multisets
from .interpreter import may_hold_sf
from .interpreter.hand import SevenCards

FACTS_FILE = "condition-facts.bin"
_MAGIC = b"PGHF"
_FORMAT = 1
HOLD_ORDER: tuple[str, ...] = tuple(K.HOLD_NAMES)
POOL_ORDER: tuple[str, ...] = tuple(K.POOLS)
HOLD_BIT: dict[int, int] = {K.HOLD_NAMES[n]: 1 << i for i, n in enumerate(HOLD_ORDER)}
POOL_BIT: dict[str, int] = {p: 1 << (4 + i) for i, p in enumerate(POOL_ORDER)}
SF_BIT = 1 << 12

_FACTS: list[tuple[frozenset[int], ...]] = []


def class_vector(cards: Sequence[Card], wheel: str = Wheel.SECOND_HIGHEST) -> int:
    """Return the fact vector of one hand (seven cards)."""
    ordered = sorted(cards)
    if not may_hold_sf(ordered):
        return 0
    hand = SevenCards(ordered, wheel, None)
    held = hand.held()
    v = SF_BIT
    for category, bit in HOLD_BIT.items():
        if category in held:
            v |= bit
    for pool, bit in POOL_BIT.items():
        if hand.pool_best(pool) is not None:
            v |= bit
    return v


def shapes() -> list[K.Shape]:
    """Return every rank structure of seven cards (the joker as an ace), in a fixed order:
    by shape code, then the ranks high to low (the order of the facts file)."""
    out: list[K.Shape] = []
    for code, name in K.SHAPE_NAMES.items():
        sizes = [int(c) for c in code]
        out.extend(K.Shape(code, name, q, t, p, s)
                   for q, t, p, s in _fill_shape(sizes.count(4) + sizes.count(5),
                                                 sizes.count(3), sizes.count(2),
                                                 sizes.count(1), 5 in sizes))
    return out


def _fill_shape(nq: int, nt: int, np_: int, ns: int, five: bool
                ) -> Iterator[tuple[tuple[int, ...], ...]]:
    ranks = tuple(range(14, 1, -1))
    quad_pool = (14,) if five else ranks
    for q in combinations(quad_pool, nq):
        left_q = [r for r in ranks if r not in q]
        for t in combinations(left_q, nt):
            left_t = [r for r in left_q if r not in t]
            for p in combinations(left_t, np_):
                left_p = [r for r in left_t if r not in p]
                for s in combinations(left_p, ns):
                    yield q, t, p, s


def _counts_key(shape: K.Shape) -> tuple[int, ...]:
    counts = [0] * 13
    n = len(shape.code) and int(shape.code[0])
    for r in shape.quads:
        counts[r - 2] = 5 if n == 5 else 4
    for size, ranks in ((3, shape.trips), (2, shape.pairs), (1, shape.singletons)):
        for r in ranks:
            counts[r - 2] = size
    return tuple(counts)


def _facts_of(jobs: list[tuple[tuple[int, ...], int]]) -> dict[tuple[int, ...], set[int]]:
    merged: dict[tuple[int, ...], set[int]] = {}
    for counts, joker in jobs:
        key = (*counts[:12], counts[12] + joker)
        merged.setdefault(key, set()).update(
            class_vector(cards) for cards, _ in classes_of(counts, joker))
    return merged


def build_facts(workers: int = 1) -> tuple[frozenset[int], ...]:
    """Return, per rank structure (``shapes()`` order), the fact vectors of its hands."""
    jobs = list(rank_multisets())
    chunks = [jobs[i::workers * 4] for i in range(workers * 4)] if workers > 1 else [jobs]
    if workers > 1:
        with get_context("fork").Pool(workers) as pool:
            parts = pool.map(_facts_of, chunks)
    else:
        parts = [_facts_of(jobs)]
    merged: dict[tuple[int, ...], set[int]] = {}
    for part in parts:
        for key, vectors in part.items():
            merged.setdefault(key, set()).update(vectors)
    return tuple(frozenset(merged[_counts_key(shape)]) for shape in shapes())


def facts_to_bytes(facts: Sequence[frozenset[int]]) -> bytes:
    """Write the facts compactly: a palette of vector sets and one index per multiset."""
    palette: dict[tuple[int, ...], int] = {}
    index = []
    for vectors in facts:
        key = tuple(sorted(vectors))
        index.append(palette.setdefault(key, len(palette)))
    body = bytearray(struct.pack("<HI", len(palette), len(index)))
    for key in palette:
        body += struct.pack(f"<B{len(key)}H", len(key), *key)
    body += struct.pack(f"<{len(index)}H", *index)
    return _MAGIC + bytes([_FORMAT]) + zlib.compress(bytes(body), 9)


def facts_from_bytes(data: bytes) -> tuple[frozenset[int], ...]:
    """Read what ``facts_to_bytes`` wrote (ValueError when it is not such a file)."""
    if data[:4] != _MAGIC or data[4:5] != bytes([_FORMAT]):
        raise ValueError("not a condition-facts file of this format")
    # (a file of another length than ``shapes()`` is refused by the caller's zip)
    body = zlib.decompress(data[5:])
    n_palette, n_index = struct.unpack_from("<HI", body, 0)
    at = 6
    sets = []
    for _ in range(n_palette):
        (size,) = struct.unpack_from("<B", body, at)
        sets.append(frozenset(struct.unpack_from(f"<{size}H", body, at + 1)))
        at += 1 + 2 * size
    index = struct.unpack_from(f"<{n_index}H", body, at)
    return tuple(sets[i] for i in index)


def shape_facts() -> tuple[frozenset[int], ...]:
    """Return the shipped facts, per rank structure in ``shapes()`` order (read once), or
    build them when the file is missing."""
    if not _FACTS:
        try:
            data = resources.files(__package__).joinpath("tables", FACTS_FILE).read_bytes()
            facts = facts_from_bytes(data)
        except (FileNotFoundError, OSError, ValueError, zlib.error, struct.error):
            facts = build_facts()
        _FACTS.append(facts)
    return _FACTS[0]
