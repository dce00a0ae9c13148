"""The quick S/F screen: can some five of seven cards make a straight or a flush?

Two tables built once, at import: for each 13-bit rank mask, whether it holds five
(four, with the joker) ranks of a straight; and the packed suit counts (four bits a
suit) that hold five (four) of a suit. ``may_hold_sf`` reads them; ``HouseWay.set``
reads them inline (``RANK_BIT``, ``SUIT_ADD``: a card's bit and its suit count; the
joker, card 52, adds neither).
"""
from __future__ import annotations

from collections.abc import Sequence


def _straight_tables() -> tuple[bytes, bytes]:
    windows = [sum(1 << (r - 2) for r in range(top - 4, top + 1)) for top in range(6, 15)]
    windows.append((1 << 12) | 0b1111)  # A-2-3-4-5
    full = bytearray(1 << 13)
    near = bytearray(1 << 13)
    for mask in range(1 << 13):
        best = max((mask & w).bit_count() for w in windows)
        full[mask] = best >= 5
        near[mask] = best >= 4
    return bytes(full), bytes(near)


def _flush_sets() -> tuple[frozenset[int], frozenset[int]]:
    five, four = set(), set()
    for a in range(8):
        for b in range(8 - a):
            for c in range(8 - a - b):
                for d in range(8 - a - b - c):
                    packed = a | b << 4 | c << 8 | d << 12
                    if max(a, b, c, d) >= 5:
                        five.add(packed)
                    if max(a, b, c, d) >= 4:
                        four.add(packed)
    return frozenset(five), frozenset(four)


STRAIGHT5, STRAIGHT4 = _straight_tables()
FLUSH5, FLUSH4 = _flush_sets()
RANK_BIT = (*(1 << (c // 4) for c in range(52)), 0)
SUIT_ADD = (*(1 << (4 * (c % 4)) for c in range(52)), 0)


def may_hold_sf(cards: Sequence[int]) -> bool:
    """Tell whether some five of seven cards make a straight or flush."""
    mask = suits = 0
    for c in cards:
        mask |= RANK_BIT[c]
        suits += SUIT_ADD[c]
    if 52 in cards:
        return bool(STRAIGHT4[mask]) or suits in FLUSH4
    return bool(STRAIGHT5[mask]) or suits in FLUSH5
