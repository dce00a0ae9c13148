"""Can a condition hold? Decided exactly over every hand of the shapes it is for.

Per rank structure (the joker as an ace) a condition's rank tests are decided once,
and its straight/flush tests against the fact vectors the structure's hands show
(``facts``, shipped package data). ``find_conflict`` words the smallest set of tests
that cannot hold together; ``find_hand`` answers one question and keeps the answer.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from itertools import combinations
from typing import Any

from ...hands import rank2
from .. import kinds as K
from ..facts import HOLD_BIT, POOL_BIT, SF_BIT, shape_facts, shapes
from .form import BOOL_KEYS, HOLD_LABELS, RANGE_KEYS, RANK_KEYS, SHAPE_LABELS, group_label
from .values import parse_range, range_words


class _Facts(K.HandFacts):
    """One point of the search: a rank structure and one fact vector of its hands."""

    __slots__ = ("front", "sf", "shape", "v")

    def __init__(self) -> None:
        self.front = 0
        self.v = 0

    def holds(self, category: int) -> bool:
        return bool(self.v & HOLD_BIT[category])

    def pool_best(self, pool: str) -> int | None:
        return 0 if self.v & POOL_BIT[pool] else None

    def front_strength(self, split: int) -> int:
        return self.front


@cache
def _points() -> dict[str, tuple[tuple[K.Shape, tuple[int, ...]], ...]]:
    """Every rank structure (the joker as an ace) with the fact vectors of its hands, by
    shape code. Built once from the shipped facts."""
    by_code: dict[str, list[tuple[K.Shape, tuple[int, ...]]]] = {}
    for shape, vectors in zip(shapes(), shape_facts(), strict=True):
        by_code.setdefault(shape.code, []).append((shape, tuple(sorted(vectors))))
    return {code: tuple(v) for code, v in by_code.items()}


def shape_codes(shapes: Iterable[str]) -> list[str]:
    names = set(shapes)
    return [code for code, name in K.SHAPE_NAMES.items() if name in names]


@cache
def code_fields(code: str) -> frozenset[str]:
    shape = _points()[code][0][0]
    return frozenset(K.shape_fields(shape)) | {"front", "back"}


@cache
def front_fails(kind: K.Kind, code: str) -> bool:
    assert kind.front is not None
    try:
        kind.front(_points()[code][0][0])
    except IndexError:
        return True
    return False


def _front_of(kind: K.Kind, shape: K.Shape) -> int:
    assert kind.front is not None
    a, b = kind.front(shape)
    return rank2(((a - 2) * 4, (b - 2) * 4))


def _rank_only(key: str, value: Any) -> bool:
    if key in RANK_KEYS:
        return True
    if key == "any":
        return all(_rank_only(k, v) for sub in value for k, v in sub.items())
    if key == "not":
        return all(_rank_only(k, v) for k, v in value.items())
    return False


_FOUND: dict[str, bool] = {}


def clear_cache() -> None:
    """Forget every answer ``find_hand`` keeps (a benchmark's cold start)."""
    _FOUND.clear()


def find_hand(codes: Sequence[str], atoms: Sequence[tuple[str, Any]],
          groups: Mapping[str, tuple[int, int]], kind: K.Kind | None) -> bool | None:
    """Tell whether some hand of these shape codes meets every atom: True, or None.

    Exact for every test on the hand; a rule's front is tested only where it follows
    from the hand's ranks (``front_at_least`` on a kind that places the cards itself),
    and ``beats_pool`` is taken to hold (the proof decides it).
    """
    use = [(k, v) for k, v in atoms if k not in K.POST_KEYS or (
        k == "front_at_least" and kind is not None and kind.front is not None)]
    key = json.dumps([sorted(codes), use, sorted(groups.items()),
                      kind.name if kind is not None and any(
                          k in K.POST_KEYS for k, _ in use) else None],
                     sort_keys=True, default=str)
    if key in _FOUND:
        return True if _FOUND[key] else None
    rank_pre: list[K.Pre] = []
    suit_pre: list[K.Pre] = []
    post: list[K.Post] = []
    for k, v in use:
        pre, post_part = K.compile_condition({k: v}, groups, "editor")
        (rank_pre if _rank_only(k, v) else suit_pre).extend(pre)
        post.extend(post_part)
    found = _search(codes, rank_pre, suit_pre, post, kind if post else None)
    if len(_FOUND) > 50_000:
        _FOUND.clear()
    _FOUND[key] = found
    return True if found else None


def _search(codes: Sequence[str], rank_pre: list[K.Pre], suit_pre: list[K.Pre],
            post: list[K.Post], kind: K.Kind | None) -> bool:
    points = _points()
    h = _Facts()
    for code in codes:
        if kind is not None and front_fails(kind, code):
            continue
        for shape, vectors in points.get(code, ()):
            h.shape = shape
            if not all(p(h) for p in rank_pre):
                continue
            if kind is not None:
                h.front = _front_of(kind, shape)
            for v in vectors:
                h.v = v
                h.sf = bool(v & SF_BIT)
                if all(p(h) for p in suit_pre) and all(p(h, 0) for p in post):
                    return True
    return False


def find_conflict(shapes: frozenset[str], atoms: Sequence[tuple[str, Any]],
              groups: Mapping[str, tuple[int, int]], kind: K.Kind | None,
              first_own: int = 0) -> tuple[list[str], str] | None:
    """Return None when some hand of these shapes meets every atom; otherwise the keys
    of the smallest conflicting set found (the rule's own, from ``first_own``) and words."""
    codes = shape_codes(shapes)
    if find_hand(codes, atoms, groups, kind):
        return None
    gl = {g: group_label(g) for g in groups}
    where = f"no {_shape_words(shapes)} hand has"
    for size in (1, 2):
        if len(atoms) > 7 and size == 2:
            break
        for combo in combinations(range(len(atoms)), size):
            picked = [atoms[i] for i in combo]
            if not find_hand(codes, picked, groups, kind):
                own = [atoms[i][0] for i in combo if i >= first_own]
                words = " and ".join(_describe(k, v, gl) for k, v in picked)
                return own, f"{where} {words}"
    own = [k for k, _ in atoms[first_own:]]
    words = " and ".join(_describe(k, v, gl) for k, v in atoms)
    return own, f"{where} {words}" if atoms else f"no hand is {_shape_words(shapes)}"


def _shape_words(shapes: Iterable[str]) -> str:
    names = [SHAPE_LABELS[s] for s in K.SHAPES if s in set(shapes)]
    if len(names) <= 1:
        return names[0] if names else "such"
    return ", ".join(names[:-1]) + " or " + names[-1]


def _describe(key: str, value: Any, groups: Mapping[str, str]) -> str:
    """Word one condition for a manager ("a higher pair of deuces to sixes")."""
    if key in RANGE_KEYS:
        parsed, _ = parse_range(value)
        assert parsed is not None
        words = range_words(*parsed)
        return {"pair": f"one pair of {words}", "high_pair": f"a higher pair of {words}",
                "low_pair": f"a lower pair of {words}", "trips": f"trips of {words}",
                "quads": f"four {words}"}[key]
    if key in BOOL_KEYS:
        yes = {"sf": "a straight or flush", "ace": "an ace singleton",
               "king_or_ace": "a king or ace singleton",
               "ace_and_face": "an ace and a J, Q or K singleton"}[key]
        if value:
            return yes
        return {"sf": "no straight or flush", "ace": "no ace singleton",
                "king_or_ace": "no king or ace singleton",
                "ace_and_face": "not both an ace and a J, Q or K singleton"}[key]
    if key == "pair_groups":
        combos = [" + ".join(groups.get(p.strip(), p.strip()) for p in t.split("+"))
                  for t in value]
        return "pairs " + " or ".join(combos)
    if key == "singletons":
        return "exactly the singletons " + ", ".join(str(v).upper() for v in value)
    if key == "holds":
        items = [value] if isinstance(value, str) else value
        return " and ".join(HOLD_LABELS[i] for i in items)
    if key == "pool_empty":
        return f"nothing among {K.POOLS[value][0]}"
    if key == "beats_pool":
        return f"a front better than the best among {K.POOLS[value][0]}"
    if key == "front_at_least":
        return f"a front of {value} or better"
    if key == "shapes":
        return f"a {_shape_words(value)} hand"
    if key == "any":
        alts = [" and ".join(_describe(k, v, groups) for k, v in sub.items()) for sub in value]
        return "either " + " or ".join(alts) if len(alts) > 1 else alts[0]
    if key == "not":
        return "not " + " and ".join(_describe(k, v, groups) for k, v in value.items())
    return key
