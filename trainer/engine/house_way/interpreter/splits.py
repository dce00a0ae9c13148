"""The 21 splits of seven cards as item getters, for the interpreter's hot path.

Each getter reads seven cards sorted low to high and returns its hand high card first:
``BACK_GET[k](cards)`` the five-card back of split ``k``, ``FRONT_GET[k](cards)`` its
two-card front (the order of ``setting.SPLITS``). Built once, at import.
"""
from __future__ import annotations

from operator import itemgetter

from ...setting import SPLITS

BACK_IDX: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(b, reverse=True))
                                              for b, _ in SPLITS)
FRONT_IDX: tuple[tuple[int, int], ...] = tuple((f[1], f[0]) for _, f in SPLITS)
BACK_GET = tuple(itemgetter(*b) for b in BACK_IDX)
FRONT_GET = tuple(itemgetter(*f) for f in FRONT_IDX)
