"""Seven cards under a house way's rules: what a condition asks of them, found lazily.

``SevenCards`` holds seven sorted cards while a house way decides them: their shape
(kept per rank pattern for the process), each split's back and front strength, the
S/F categories some back holds, each pool's best split, and the split a rule's kind
places (``choose``) or the foul fallback plays (``fallback``, docs/rules.md §19).
``sorted_cards`` reads seven cards (numbers, text or ``Card``s) for it.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ...cards import DECK, Card, format_cards, parse_card, parse_cards, verify_distinct
from ...hands import CARD_RANK, CATEGORY_SHIFT, Category, Wheel, rank2, rank5_function, straight_key
from .. import kinds as K
from .results import HouseWayError
from .splits import BACK_GET, FRONT_GET, FRONT_IDX


class _Rankers(dict[str, Callable[[Sequence[int]], int]]):
    """The five-card ranking function of each wheel setting, made on first use."""

    def __missing__(self, wheel: str) -> Callable[[Sequence[int]], int]:
        rank = self[wheel] = rank5_function(wheel)
        return rank


_RANKERS = _Rankers()
_ACE_HIGH_KEY = {w.value: straight_key(14, w.value) for w in Wheel}
_SF_CATS = K.SF_CATEGORIES
_SHAPES: dict[tuple[int, ...], K.Shape] = {}


class SevenCards(K.HandFacts):
    """Seven sorted cards under evaluation: shape, splits, pools (lazy)."""

    __slots__ = ("_backs", "_fronts", "_held", "_pools", "_sf", "cards", "rank", "ranks",
                 "shape", "wheel")

    def __init__(self, cards: Sequence[Card], wheel: str, sf: bool | None) -> None:
        self.cards = cards
        self.ranks = ranks = tuple([CARD_RANK[c] for c in cards])
        shape = _SHAPES.get(ranks)
        if shape is None:
            shape = _SHAPES[ranks] = K.shape_of(ranks)
        self.shape = shape
        self.wheel = wheel
        self.rank = _RANKERS[wheel]
        self._sf = None if sf is None else bool(sf)
        self._backs: list[int | None] = [None] * 21
        self._fronts: list[int | None] = [None] * 21
        self._pools: dict[str, int | None] = {}
        self._held: set[int] | None = None

    # strengths
    def back_strength(self, split: int) -> int:
        s = self._backs[split]
        if s is None:
            s = self._backs[split] = self.rank(BACK_GET[split](self.cards))
        return s

    def front_strength(self, split: int) -> int:
        s = self._fronts[split]
        if s is None:
            s = self._fronts[split] = rank2(FRONT_GET[split](self.cards))
        return s

    def _all_backs(self) -> list[int]:
        backs = self._backs
        if None in backs:
            rank, cards = self.rank, self.cards
            backs = self._backs = [rank(get(cards)) for get in BACK_GET]
        return backs  # type: ignore[return-value]

    # facts
    @property
    def sf(self) -> bool:  # type: ignore[override]
        if self._sf is None:
            self._sf = bool(self.held())
        return self._sf

    def held(self) -> set[int]:
        if self._held is None:
            self._held = {s >> CATEGORY_SHIFT for s in self._all_backs()} & _SF_CATS
        return self._held

    def holds(self, category: int) -> bool:
        return category in self.held()

    def ace_singleton_card(self) -> int | None:
        if not self.shape.ace:
            return None
        return next(c for c, r in zip(self.cards, self.ranks, strict=True) if r == 14)

    def pool_best(self, pool: str) -> int | None:
        if pool in self._pools:
            return self._pools[pool]
        accept = K.POOLS[pool][1]
        categories = accept if isinstance(accept, frozenset) else _SF_CATS
        by_view = None if isinstance(accept, frozenset) else accept
        ace_key = _ACE_HIGH_KEY[self.wheel]
        ace_card = self.ace_singleton_card()
        best, best_front, best_back = None, -1, -1
        front_strength = self.front_strength
        for k, back in enumerate(self._all_backs()):
            cat = back >> CATEGORY_SHIFT
            if cat not in categories:
                continue
            if by_view is not None:
                ace_high = cat == Category.ROYAL_FLUSH or (
                    cat != Category.FLUSH and (back >> 16) & 0xF == ace_key)
                if not by_view(K.PoolView(cat, ace_high, BACK_GET[k](self.cards), ace_card)):
                    continue
            front = front_strength(k)
            if front > best_front or (front == best_front and back > best_back):
                best, best_front, best_back = k, front, back
        self._pools[pool] = best
        return best

    def choose(self, front_ranks: tuple[int, int]) -> int:
        """Return the split with these front ranks and the strongest back (card choice)."""
        want = tuple(sorted(front_ranks))
        ranks = self.ranks
        best, best_back = None, -1
        for k, (i, j) in enumerate(FRONT_IDX):
            pair = (ranks[j], ranks[i])
            if pair != want:
                continue
            back = self.back_strength(k)
            if back > best_back:
                best, best_back = k, back
        if best is None:
            raise HouseWayError(f"No split puts ranks {want} in front of "
                                f"{format_cards(self.cards)}.")
        return best



def fallback(hand: SevenCards, failed: int) -> int:
    """docs/rules.md §19: the best legal front no better than the failed one."""
    ceiling = hand.front_strength(failed)
    best, best_key = None, None
    for k in range(21):
        front, back = hand.front_strength(k), hand.back_strength(k)
        if back < front or front > ceiling:
            continue
        if best_key is None or (front, back) > best_key:
            best, best_key = k, (front, back)
    if best is None:
        best = max(range(21), key=lambda k: (hand.back_strength(k), hand.front_strength(k)))
    return best


def sorted_cards(seven: Iterable[int | str] | str) -> list[Card]:
    """Return seven distinct cards sorted low to high, or raise ValueError."""
    try:
        # The fast path, for card numbers; text or anything else falls through below.
        vals: list[Any] = sorted(seven)
        if (len(vals) == 7 and 0 <= vals[0] < vals[1] < vals[2] < vals[3] < vals[4]
                < vals[5] < vals[6] <= 52):
            return [DECK[v] for v in vals]
    except TypeError:
        pass
    cards: list[Card]
    if isinstance(seven, str):
        cards = list(parse_cards(seven, 7))
    else:
        cards = []
        for x in seven:
            if isinstance(x, str):
                cards.append(parse_card(x))
            elif isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 52:
                cards.append(DECK[x])
            else:
                raise ValueError(f"{x!r} is not a card: write a rank and a suit, "
                                 "or JK for the joker.")
        verify_distinct(cards)
        if len(cards) != 7:
            raise ValueError(f"A Pai Gow hand has 7 cards; {len(cards)} were given.")
    return sorted(cards)
