"""Rule kinds, conditions and S/F pools shared by every house-way sheet.

A sheet (one TOML file per casino) is an ordered list of rules. Each rule names
a *rule kind* (docs/rules.md §20), which says which cards go in
front, and a *condition* built from the condition kinds below. The interpreter
(``interpreter/``) applies them; adding a casino whose rules use these kinds
is a new data file and no code.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..cards import RANK_CHARS, RANK_NAMES, RANK_PLURALS
from ..hands import Category
from ..messages import N_

ACE = 14
KING = 13
FACE_RANKS = frozenset((11, 12, 13))

# --- shapes (docs/rules.md §13) -------------------------------------------------

SHAPE_NAMES: dict[str, str] = {
    "1111111": "no-pair",
    "211111": "one-pair",
    "22111": "two-pair",
    "2221": "three-pair",
    "31111": "trips",
    "3211": "full-house",
    "322": "trips-two-pair",
    "331": "two-trips",
    "4111": "quads",
    "421": "quads-pair",
    "43": "quads-trips",
    "511": "five-aces",
    "52": "five-aces",
}
SHAPES = tuple(dict.fromkeys(SHAPE_NAMES.values()))


@dataclass(frozen=True, slots=True)
class Shape:
    """The rank structure of seven cards, counting the joker as an ace."""

    code: str                       # "22111"
    name: str                       # "two-pair"
    quads: tuple[int, ...]          # ranks held four (or five) times, high to low
    trips: tuple[int, ...]
    pairs: tuple[int, ...]
    singletons: tuple[int, ...]

    @property
    def ace(self) -> bool:
        """Tell whether the hand has an ace singleton (an unused joker counts)."""
        return ACE in self.singletons

    @property
    def king_or_ace(self) -> bool:
        """Tell whether the hand has a king or an ace singleton."""
        return ACE in self.singletons or KING in self.singletons

    @property
    def ace_and_face(self) -> bool:
        """Tell whether the hand has an ace singleton and a J, Q or K singleton."""
        return ACE in self.singletons and any(r in FACE_RANKS for r in self.singletons)


def shape_of(ranks: Sequence[int]) -> Shape:
    """Return the shape of seven ranks (the joker given as 14)."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    by_count: dict[int, list[int]] = {1: [], 2: [], 3: [], 4: []}
    for r, n in counts.items():
        by_count[min(n, 4)].append(r)
    for group in by_count.values():
        group.sort(reverse=True)
    code = "".join(str(n) for n in sorted(counts.values(), reverse=True))
    return Shape(code, SHAPE_NAMES[code], tuple(by_count[4]), tuple(by_count[3]),
                 tuple(by_count[2]), tuple(by_count[1]))


# --- rule kinds (docs/rules.md §20) ---------------------------------------------

@dataclass(frozen=True, slots=True)
class Kind:
    """A rule kind: how the cards are placed, the same on every sheet."""

    name: str
    shapes: frozenset[str]
    front: Callable[[Shape], tuple[int, int]] | None
    # Where the cards go, in words (``N_``-marked: the editor's form, a drill's hint).
    front_text: str
    back_text: str


def _pair_of(rank: int) -> tuple[int, int]:
    return (rank, rank)


_KIND_LIST = (
    Kind("pai-gow.standard", frozenset({"no-pair"}),
         lambda s: (s.singletons[1], s.singletons[2]),
         N_("2nd and 3rd highest cards"), N_("highest card + the four lowest")),
    Kind("one-pair.standard", frozenset({"one-pair"}),
         lambda s: (s.singletons[0], s.singletons[1]),
         N_("two highest singletons"), N_("pair + the other three")),
    Kind("two-pair.split", frozenset({"two-pair"}),
         lambda s: _pair_of(s.pairs[-1]),
         N_("lower pair"), N_("higher pair + the three singletons")),
    Kind("two-pair.together", frozenset({"two-pair"}),
         lambda s: (s.singletons[0], s.singletons[1]),
         N_("two highest singletons"), N_("both pairs + lowest singleton")),
    Kind("three-pair.high-front", frozenset({"three-pair"}),
         lambda s: _pair_of(s.pairs[0]),
         N_("highest pair"), N_("the two lower pairs + the singleton")),
    Kind("three-pair.low-front", frozenset({"three-pair"}),
         lambda s: _pair_of(s.pairs[-1]),
         N_("lowest pair"), N_("the two higher pairs + the singleton")),
    Kind("trips.standard", frozenset({"trips"}),
         lambda s: (s.singletons[0], s.singletons[1]),
         N_("two highest singletons"), N_("trips + the other two")),
    Kind("trips.aces-split", frozenset({"trips"}),
         lambda s: (s.trips[0], s.singletons[0]),
         N_("one ace + highest singleton"), N_("two aces + the other three")),
    Kind("two-trips.high-pair-front", frozenset({"two-trips"}),
         lambda s: _pair_of(s.trips[0]),
         N_("two cards of the higher trips"),
         N_("lower trips + the third card + the singleton")),
    Kind("two-trips.low-pair-front", frozenset({"two-trips"}),
         lambda s: _pair_of(s.trips[-1]),
         N_("two cards of the lower trips"),
         N_("higher trips + the third card + the singleton")),
    Kind("full-house.split", frozenset({"full-house"}),
         lambda s: _pair_of(s.pairs[0]),
         N_("the pair"), N_("trips + the two singletons")),
    Kind("full-house.together", frozenset({"full-house"}),
         lambda s: (s.singletons[0], s.singletons[1]),
         N_("the two singletons"), N_("trips + pair")),
    Kind("trips-two-pair.high-pair-front", frozenset({"trips-two-pair"}),
         lambda s: _pair_of(s.pairs[0]),
         N_("higher pair"), N_("trips + lower pair")),
    Kind("trips-two-pair.low-pair-front", frozenset({"trips-two-pair"}),
         lambda s: _pair_of(s.pairs[-1]),
         N_("lower pair"), N_("trips + higher pair")),
    Kind("quads.together", frozenset({"quads"}),
         lambda s: (s.singletons[0], s.singletons[1]),
         N_("two highest singletons"), N_("quads + lowest singleton")),
    Kind("quads.split", frozenset({"quads"}),
         lambda s: _pair_of(s.quads[0]),
         N_("two of the four"), N_("the other two + the three singletons")),
    Kind("quads-pair.pair-front", frozenset({"quads-pair"}),
         lambda s: _pair_of(s.pairs[0]),
         N_("the pair"), N_("quads + the singleton")),
    Kind("quads-pair.split", frozenset({"quads-pair"}),
         lambda s: _pair_of(s.quads[0]),
         N_("two of the four"), N_("the other two + the pair + the singleton")),
    Kind("quads-trips.pair-front", frozenset({"quads-trips"}),
         lambda s: _pair_of(s.trips[0]),
         N_("two cards of the trips"), N_("quads + the third card")),
    Kind("quads-trips.split", frozenset({"quads-trips"}),
         lambda s: _pair_of(s.quads[0]),
         N_("two of the four"), N_("the other two + the trips")),
    Kind("five-aces.split", frozenset({"five-aces"}),
         lambda s: (ACE, ACE),
         N_("two aces"), N_("three aces + the other two cards")),
    Kind("five-aces.kings-front", frozenset({"five-aces"}),
         lambda s: _pair_of(s.pairs[0]),
         N_("the two kings"), N_("the five aces")),
    Kind("sf.best-front", frozenset(SHAPES), None,
         N_("best S/F setting of the clause's pool (docs/rules.md §17)"), ""),
)
RULE_KINDS: dict[str, Kind] = {k.name: k for k in _KIND_LIST}


def kind_of(rule_id: str) -> str:
    """Return the rule kind of a rule id: its first two parts (``two-pair.split``)."""
    parts = rule_id.split(".")
    return ".".join(parts[:2])


def rule_family(rule_id: str) -> str:
    """Return a rule id's family, its first part (``two-pair``)."""
    return rule_id.split(".", 1)[0]


# --- S/F pools (docs/rules.md §17) ---------------------------------------------

SF_CATEGORIES = frozenset((Category.STRAIGHT, Category.FLUSH,
                           Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH))
HOLD_NAMES: dict[str, int] = {
    "straight": Category.STRAIGHT,
    "flush": Category.FLUSH,
    "straight-flush": Category.STRAIGHT_FLUSH,
    "royal": Category.ROYAL_FLUSH,
}


class PoolView:
    """What a pool filter may look at for one S/F setting."""

    __slots__ = ("ace_high", "ace_singleton_card", "back_cards", "category")

    def __init__(self, category: int, ace_high: bool, back_cards: Sequence[int],
                 ace_singleton_card: int | None) -> None:
        self.category = category
        self.ace_high = ace_high
        self.back_cards = back_cards
        self.ace_singleton_card = ace_singleton_card


def _no_joker_ace_broadway(v: PoolView) -> bool:
    # Bally's joker exception: an A-K-Q-J-T straight, straight flush or royal
    # that holds both a real ace and the joker is left out.
    if not v.ace_high or v.category == Category.FLUSH:
        return True
    has_joker = 52 in v.back_cards
    has_ace = any(48 <= c <= 51 for c in v.back_cards)
    return not (has_joker and has_ace)


def _ace_out_of_back(v: PoolView) -> bool:
    return v.ace_singleton_card is not None and v.ace_singleton_card not in v.back_cards


_STRAIGHT, _FLUSH = Category.STRAIGHT, Category.FLUSH
_SF, _ROYAL = Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH

# name -> (description, the back categories it takes, or a test on each setting)
POOLS: dict[str, tuple[str, frozenset[int] | Callable[[PoolView], bool]]] = {
    "all": ("every S/F setting", SF_CATEGORIES),
    "no-joker-ace-broadway": (
        "every S/F setting except an A-K-Q-J-T straight, straight flush or royal "
        "flush holding both a real ace and the joker", _no_joker_ace_broadway),
    "ace-out-of-back": ("the S/F settings that leave the ace singleton out of the back",
                        _ace_out_of_back),
    "royal": ("the royal-flush settings", frozenset({_ROYAL})),
    "not-royal": ("the S/F settings whose back is not a royal flush",
                  frozenset({_STRAIGHT, _FLUSH, _SF})),
    "straight-flush": ("the straight-flush settings", frozenset({_SF})),
    "plain": ("the plain straight and flush settings", frozenset({_STRAIGHT, _FLUSH})),
    "flush": ("the flush settings", frozenset({_FLUSH})),
}


# --- conditions (docs/rules.md §20) --------------------------------------------

def parse_rank(text: str | int) -> int:
    """Parse a rank written as 2-9, T/10, J, Q, K or A."""
    if isinstance(text, int) and 2 <= text <= 14:
        return text
    t = str(text).strip().upper()
    if t == "10":
        t = "T"
    if len(t) != 1 or t not in RANK_CHARS:
        raise ValueError(f"{text!r} is not a rank.")
    return RANK_CHARS.index(t) + 2


def parse_range(text: str) -> tuple[int, int]:
    """Parse a rank range such as ``"2-6"``, ``"T-K"`` or ``"A"``."""
    parts = str(text).split("-")
    if len(parts) == 1:
        r = parse_rank(parts[0])
        return r, r
    if len(parts) != 2:
        raise ValueError(f"{text!r} is not a rank range.")
    lo, hi = parse_rank(parts[0]), parse_rank(parts[1])
    if lo > hi:
        raise ValueError(f"{text!r} runs high to low; write it low to high.")
    return lo, hi


def parse_threshold(text: str) -> int:
    """Turn "K" ("a king or better") or "A-J" into the lowest front strength that meets it."""
    parts = str(text).split("-")
    hi = parse_rank(parts[0])
    lo = parse_rank(parts[1]) if len(parts) == 2 else 0
    return (hi << 16) | (lo << 12)


class HandFacts:
    """What a condition may ask about a hand; the interpreter provides it."""

    shape: Shape
    sf: bool

    def holds(self, category: int) -> bool:  # pragma: no cover - interface
        """Tell whether some five cards make a hand of this S/F category."""
        raise NotImplementedError

    def pool_best(self, pool: str) -> int | None:  # pragma: no cover - interface
        """Return the split index of the best setting of a pool, or None."""
        raise NotImplementedError

    def front_strength(self, split: int) -> int:  # pragma: no cover - interface
        """Return the strength of a split's front."""
        raise NotImplementedError


Pre = Callable[[HandFacts], bool]
Post = Callable[[HandFacts, int], bool]

# Keys that need the rule's own setting (its front) to be decided first.
POST_KEYS = frozenset({"beats_pool", "front_at_least"})
CONDITION_KEYS = frozenset({
    "shapes", "sf", "pair", "high_pair", "low_pair", "pair_groups", "trips",
    "quads", "singletons", "ace", "king_or_ace", "ace_and_face", "holds",
    "pool_empty", "any", "not",
}) | POST_KEYS


def _in(rank_range: tuple[int, int]) -> Callable[[int], bool]:
    lo, hi = rank_range
    return lambda r: lo <= r <= hi


def _group_of(rank: int, groups: Mapping[str, tuple[int, int]]) -> str:
    for name, (lo, hi) in groups.items():
        if lo <= rank <= hi:
            return name
    raise ValueError(f"Rank {RANK_CHARS[rank - 2]} is in no rank group of this sheet.")


def compile_condition(spec: Mapping[str, Any], groups: Mapping[str, tuple[int, int]],
                      where: str) -> tuple[list[Pre], list[Post]]:
    """Compile a condition table into checks on the hand and on the rule's front."""
    unknown = set(spec) - CONDITION_KEYS
    if unknown:
        raise ValueError(f"{where}: unknown condition {sorted(unknown)[0]!r}.")
    pre: list[Pre] = []
    post: list[Post] = []
    for key, value in spec.items():
        if key in POST_KEYS:
            post.append(_compile_post(key, value, where))
        else:
            pre.append(_compile_pre(key, value, groups, where))
    return pre, post


def _compile_pre(key: str, value: Any, groups: Mapping[str, tuple[int, int]],
                 where: str) -> Pre:
    """Compile one condition on the hand alone."""
    if key == "shapes":
        names = frozenset(value)
        bad = names - set(SHAPES)
        if bad:
            raise ValueError(f"{where}: unknown shape {sorted(bad)[0]!r}.")
        return lambda h: h.shape.name in names
    if key == "sf":
        sf = bool(value)
        return lambda h: h.sf is sf
    if key in ("pair", "high_pair", "low_pair", "trips", "quads"):
        ok = _in(parse_range(value))
        if key == "pair":
            return lambda h: len(h.shape.pairs) == 1 and ok(h.shape.pairs[0])
        if key == "high_pair":
            return lambda h: len(h.shape.pairs) >= 2 and ok(h.shape.pairs[0])
        if key == "low_pair":
            return lambda h: len(h.shape.pairs) >= 2 and ok(h.shape.pairs[-1])
        if key == "trips":
            return lambda h: bool(h.shape.trips) and ok(h.shape.trips[0])
        return lambda h: bool(h.shape.quads) and ok(h.shape.quads[0])
    if key == "pair_groups":
        combos = set()
        for text in value:
            pair = tuple(p.strip() for p in text.split("+"))
            if len(pair) != 2 or any(n not in groups for n in pair):
                raise ValueError(f"{where}: {text!r} is not two of this sheet's "
                                 f"rank groups ({', '.join(groups)}).")
            combos.add(frozenset(pair))
        allowed = frozenset(combos)
        return lambda h: (len(h.shape.pairs) >= 2
                          and frozenset((_group_of(h.shape.pairs[0], groups),
                                         _group_of(h.shape.pairs[-1], groups))) in allowed)
    if key == "singletons":
        want = tuple(sorted((parse_rank(r) for r in value), reverse=True))
        return lambda h: h.shape.singletons == want
    if key in ("ace", "king_or_ace", "ace_and_face"):
        wanted = bool(value)
        return lambda h: getattr(h.shape, key) is wanted
    if key == "holds":
        cats = [value] if isinstance(value, str) else list(value)
        if any(c not in HOLD_NAMES for c in cats):
            raise ValueError(f"{where}: holds takes {', '.join(HOLD_NAMES)}.")
        ids = tuple(HOLD_NAMES[c] for c in cats)
        return lambda h: all(h.holds(c) for c in ids)
    if key == "pool_empty":
        if value not in POOLS:
            raise ValueError(f"{where}: unknown pool {value!r}.")
        pool: str = value
        return lambda h: h.pool_best(pool) is None
    if key == "any":
        branches = []
        for i, sub in enumerate(value):
            sub_pre, sub_post = compile_condition(sub, groups, f"{where} any[{i}]")
            if sub_post:
                raise ValueError(f"{where}: 'any' cannot test the rule's front.")
            branches.append(tuple(sub_pre))
        alternatives = tuple(branches)
        return lambda h: any(all(p(h) for p in br) for br in alternatives)
    if key == "not":
        sub_pre, sub_post = compile_condition(value, groups, f"{where} not")
        if sub_post:
            raise ValueError(f"{where}: 'not' cannot test the rule's front.")
        negated = tuple(sub_pre)
        return lambda h: not all(p(h) for p in negated)
    raise ValueError(f"{where}: unknown condition {key!r}.")


def _compile_post(key: str, value: Any, where: str) -> Post:
    """Compile one condition on the rule's own front (``split``)."""
    if key == "beats_pool":
        if value not in POOLS:
            raise ValueError(f"{where}: unknown pool {value!r}.")
        pool: str = value

        def beats(h: HandFacts, split: int) -> bool:
            other = h.pool_best(pool)
            return other is None or h.front_strength(split) > h.front_strength(other)
        return beats
    floor = parse_threshold(value)
    return lambda h, split: h.front_strength(split) >= floor


# --- words for explanations -----------------------------------------------------

def rank_char(rank: int) -> str:
    """Return a rank's notation character."""
    return RANK_CHARS[rank - 2]


def plural(rank: int) -> str:
    """Return a rank's plural name ("sixes")."""
    return RANK_PLURALS[rank]


def singular(rank: int) -> str:
    """Return a rank's name ("king")."""
    return RANK_NAMES[rank]


@cache
def shape_fields(shape: Shape) -> dict[str, str]:
    """Return the words a rule's explanation may use for a hand's ranks (do not modify)."""
    f: dict[str, str] = {}
    p = shape.pairs
    if p:
        f["pair"] = f["high_pair"] = plural(p[0])
        f["low_pair"] = plural(p[-1])
        f["mid_pair"] = plural(p[1]) if len(p) == 3 else plural(p[-1])
    t = shape.trips
    if t:
        f["trips"] = f["high_trips"] = plural(t[0])
        f["low_trips"] = plural(t[-1])
    if shape.quads:
        f["quads"] = plural(shape.quads[0])
    s = shape.singletons
    if s:
        f["high_card"] = singular(s[0])
    return f


TEMPLATE_FIELDS = ("pair", "high_pair", "low_pair", "mid_pair", "trips", "high_trips",
                   "low_trips", "quads", "high_card", "front", "back")
