"""The house-way interpreter: set any seven cards by a sheet's ordered rules.

A house way is data: one TOML file per casino in ``presets/``, holding the
sheet's sections and rules in the order written, each rule with its id, its
sheet text, its condition and an explanation template. This module reads a
file and applies it (docs/rules.md §18 and §19).

Speed: most decisions depend only on the rank multiset, once the hand is known
to hold no straight or flush. Those are decided once per rank multiset and
cached as a split index; only hands that may hold an S/F look at the 21 splits.
"""
from __future__ import annotations

import copy
import hashlib
import json
import logging
import tomllib
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import FrozenInstanceError, dataclass, field
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from operator import itemgetter
from typing import Any

from ..cards import DECK, Card, format_cards, parse_card, parse_cards, verify_distinct
from ..hands import (
    CARD_PRIME,
    CARD_RANK,
    CATEGORY_SHIFT,
    Category,
    Wheel,
    evaluate5,
    rank2,
    rank5_function,
    straight_key,
)
from ..setting import SPLITS
from . import explanations as E
from . import kinds as K
from . import words as W
from .classes import MASK_BITS, ClassTable, shipped_table

log = logging.getLogger(__name__)

DEFAULT_HOUSE_WAY = "trump-plaza"
_PRESETS = "presets"

# Splits as item getters over the seven cards sorted low to high; each hand is
# returned high card first.
_BACK_IDX: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(b, reverse=True))
                                               for b, _ in SPLITS)
_FRONT_IDX: tuple[tuple[int, int], ...] = tuple((f[1], f[0]) for _, f in SPLITS)
_BACK_GET = tuple(itemgetter(*b) for b in _BACK_IDX)
_FRONT_GET = tuple(itemgetter(*f) for f in _FRONT_IDX)
_WHEELS = tuple(w.value for w in Wheel)


class _Rankers(dict[str, Callable[[Sequence[int]], int]]):
    """The five-card ranking function of each wheel setting, made on first use."""

    def __missing__(self, wheel: str) -> Callable[[Sequence[int]], int]:
        rank = self[wheel] = rank5_function(wheel)
        return rank


_RANKERS = _Rankers()
_ACE_HIGH_KEY = {w.value: straight_key(14, w.value) for w in Wheel}
_SF_CATS = K.SF_CATEGORIES
_SHAPES: dict[tuple[int, ...], K.Shape] = {}


# --- quick S/F screen: can some five of these seven make a straight or flush? ------

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


_STRAIGHT5, _STRAIGHT4 = _straight_tables()
_FLUSH5, _FLUSH4 = _flush_sets()
_RANK_BIT = (*(1 << (c // 4) for c in range(52)), 0)
_SUIT_ADD = (*(1 << (4 * (c % 4)) for c in range(52)), 0)


def may_hold_sf(cards: Sequence[int]) -> bool:
    """Tell whether some five of seven cards make a straight or flush."""
    mask = suits = 0
    for c in cards:
        mask |= _RANK_BIT[c]
        suits += _SUIT_ADD[c]
    if 52 in cards:
        return bool(_STRAIGHT4[mask]) or suits in _FLUSH4
    return bool(_STRAIGHT5[mask]) or suits in _FLUSH5


# --- results -----------------------------------------------------------------------

class HouseWayError(RuntimeError):
    """A house-way file is wrong, or leaves a hand undecided."""


class HouseWaySetting:
    """Seven cards set the house way: back, front, the deciding rule and why.

    Immutable. The explanation is worded on first access (from the rule and the
    cards), so that setting a hand from a class table does no wording at all.
    Two settings are equal when back, front, rule and explanation are.
    """

    __slots__ = ("_text", "_why", "back", "front", "rule")
    back: tuple[Card, ...]
    front: tuple[Card, ...]
    rule: str
    _text: str | None
    # (house way, cards in class order, split, wheel): what words the explanation.
    _why: tuple[HouseWay, Sequence[Card], int, str] | None

    def __init__(self, back: tuple[Card, ...], front: tuple[Card, ...], rule: str,
                 explanation: str | None = None,
                 why: tuple[HouseWay, Sequence[Card], int, str] | None = None) -> None:
        if explanation is None and why is None:
            raise TypeError("A house-way setting needs an explanation or a way to word one.")
        put = object.__setattr__
        put(self, "back", back)
        put(self, "front", front)
        put(self, "rule", rule)
        put(self, "_text", explanation)
        put(self, "_why", why)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    @property
    def explanation(self) -> str:
        """Return why the rule sets the hand so (worded on first access)."""
        text: str | None = self._text
        if text is None:
            assert self._why is not None
            way, cards, split, wheel = self._why
            text = way._explain(cards, split, self.rule, wheel)
            object.__setattr__(self, "_text", text)
            object.__setattr__(self, "_why", None)
        return text

    def _key(self) -> tuple[tuple[Card, ...], tuple[Card, ...], str, str]:
        return self.back, self.front, self.rule, self.explanation

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HouseWaySetting):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.back, self.front, self.rule))

    def __repr__(self) -> str:
        return (f"HouseWaySetting(back={self.back!r}, front={self.front!r}, "
                f"rule={self.rule!r}, explanation={self.explanation!r})")

    def __reduce__(self) -> tuple[type[HouseWaySetting], tuple[Any, ...]]:
        return HouseWaySetting, (self.back, self.front, self.rule, self.explanation)

    @property
    def family(self) -> str:
        """Return the deciding rule's family (``two-pair``)."""
        return K.rule_family(self.rule)

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON form used by the command line."""
        return {"back": [str(c) for c in self.back], "front": [str(c) for c in self.front],
                "rule": self.rule, "explanation": self.explanation}


# --- the sheet as data -------------------------------------------------------------

class _Notes:
    """The resolved and decided lines of a rule or a section, in the reader's language."""

    __slots__ = ()
    resolved: str | None
    decided: str | None
    notes_words: Mapping[str, tuple[str | None, str | None]]

    def resolved_in(self, lang: str | None) -> str | None:
        """Return the resolved line in a language, the English original when untranslated."""
        found = self.notes_words.get(lang) if lang else None
        return found[0] if found is not None else self.resolved

    def decided_in(self, lang: str | None) -> str | None:
        """Return the decided line in a language, the English original when untranslated."""
        found = self.notes_words.get(lang) if lang else None
        return found[1] if found is not None else self.decided



@dataclass(frozen=True, slots=True)
class Rule(_Notes):
    """One rule (clause) of a sheet: its id, kind, condition and sheet text."""

    id: str
    number: str
    text: str
    explain: str
    pool: str | None = None
    when: Mapping[str, Any] = field(default_factory=dict)
    resolved: str | None = None
    decided: str | None = None
    section: str = ""
    pre: tuple[K.Pre, ...] = ()
    post: tuple[K.Post, ...] = ()
    shapes: frozenset[str] = frozenset(K.SHAPES)
    # A few words for people (docs/house-ways.md); a custom way without one shows its
    # section's title. Words only: no decision depends on it.
    short: str = ""
    # Per language (issue 19): (text, short, explain), each the translation or else the
    # English original (short: else the section's translated title when the rule has no
    # short of its own). Resolved once at load.
    words: Mapping[str, tuple[str, str, str]] = field(default_factory=dict)
    # Per language: (resolved, decided), each the translation or else the English original.
    notes_words: Mapping[str, tuple[str | None, str | None]] = field(default_factory=dict)

    def text_in(self, lang: str | None) -> str:
        """Return the sheet sentence in a language, the English original when untranslated."""
        found = self.words.get(lang) if lang else None
        return found[0] if found is not None else self.text

    def short_in(self, lang: str | None) -> str:
        """Return the short name in a language, the English original when untranslated."""
        found = self.words.get(lang) if lang else None
        return found[1] if found is not None else self.short

    def explain_in(self, lang: str | None) -> str:
        """Return the explanation template in a language, the English one when untranslated."""
        found = self.words.get(lang) if lang else None
        return found[2] if found is not None else self.explain

    @property
    def kind(self) -> str:
        """Return the rule kind (``two-pair.split``), which places the cards."""
        return K.kind_of(self.id)

    @property
    def family(self) -> str:
        """Return the rule's family (``two-pair``)."""
        return K.rule_family(self.id)


@dataclass(frozen=True, slots=True)
class Section(_Notes):
    """A numbered section of a sheet: when it applies and its rules, in order."""

    number: str
    title: str
    text: str
    when: Mapping[str, Any]
    rules: tuple[Rule, ...]
    resolved: str | None = None
    decided: str | None = None
    pre: tuple[K.Pre, ...] = ()
    shapes: frozenset[str] = frozenset(K.SHAPES)
    # Per language (issue 19): (title, text), translated or else the English original.
    words: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    # Per language: (resolved, decided), each the translation or else the English original.
    notes_words: Mapping[str, tuple[str | None, str | None]] = field(default_factory=dict)

    def title_in(self, lang: str | None) -> str:
        """Return the section's title in a language, the English original when untranslated."""
        found = self.words.get(lang) if lang else None
        return found[0] if found is not None else self.title

    def text_in(self, lang: str | None) -> str:
        """Return the section's text in a language, the English original when untranslated."""
        found = self.words.get(lang) if lang else None
        return found[1] if found is not None else self.text


@dataclass(frozen=True, slots=True)
class Example:
    """One of the sheet's own examples."""

    cards: str
    front: str
    back: str
    value: str
    rule: str
    note: str = ""


def _compile_section(raw: Mapping[str, Any], groups: Mapping[str, tuple[int, int]],
                     sheet: str) -> Section:
    number = str(raw["number"])
    where = f"{sheet} section {number}"
    when = dict(raw.get("when", {}))
    # Shapes are matched by an index (HouseWay._dispatch), not by a check.
    pre, post = K.compile_condition({k: v for k, v in when.items() if k != "shapes"},
                                    groups, where)
    if post:
        raise ValueError(f"{where}: a section cannot test a rule's front.")
    K.compile_condition({"shapes": when.get("shapes", [])}, groups, where)
    shapes = set(when.get("shapes", K.SHAPES))
    title, text = raw.get("title", ""), raw.get("text", "")
    section_translations = W.check_translations(raw.get("translations"), W.SECTION_FIELDS, where)
    section_words = {lang: (t.get("title", title), t.get("text", text))
                     for lang, t in section_translations.items()}
    rules = []
    for r in raw.get("rules", []):
        rid = r["id"]
        rwhere = f"{sheet} rule {rid}"
        kind = K.RULE_KINDS.get(K.kind_of(rid))
        if kind is None:
            raise ValueError(f"{rwhere}: unknown rule kind {K.kind_of(rid)!r}.")
        rwhen = dict(r.get("when", {}))
        rshapes = set(rwhen.get("shapes", shapes)) & shapes
        if not rshapes <= kind.shapes:
            bad = sorted(rshapes - kind.shapes)
            raise ValueError(f"{rwhere}: kind {kind.name} cannot set a {bad[0]} hand; "
                             "narrow the rule with 'shapes'.")
        pool = r.get("pool")
        if kind.front is None:
            pool = pool or "all"
            if pool not in K.POOLS:
                raise ValueError(f"{rwhere}: unknown pool {pool!r}.")
        elif pool is not None:
            raise ValueError(f"{rwhere}: only sf.best-front rules take a pool.")
        rpre, rpost = K.compile_condition(
            {k: v for k, v in rwhen.items() if k != "shapes"}, groups, rwhere)
        K.compile_condition({"shapes": rwhen.get("shapes", [])}, groups, rwhere)
        explain = r["explain"]
        # A template the editor refuses since issue 24 (a format spec, over 300 characters...)
        # loads: it is never used (``explanations.fill`` refuses it; the generated sentence
        # is said) and ``HouseWay.explanation_problems`` lists it for the manager's pages.
        problem = E.problem(explain)
        if problem is not None and problem.code not in E.LOADABLE:
            raise ValueError(f"{rwhere}: bad explanation template ({problem}).")
        short = str(r.get("short") or title or rid).strip()
        rule_words = {}
        rule_notes = {}
        for lang, t in W.check_translations(r.get("translations"), W.RULE_FIELDS, rwhere,
                                            K.TEMPLATE_FIELDS).items():
            own = t.get("short") or (None if r.get("short") else
                                     section_words.get(lang, (None,))[0])
            rule_words[lang] = (t.get("text", r["text"]), str(own or short).strip(),
                                t.get("explain", explain))
            rule_notes[lang] = (t.get("resolved", r.get("resolved")),
                                t.get("decided", r.get("decided")))
        rules.append(Rule(rid, str(r.get("number", number)), r["text"], explain, pool,
                          rwhen, r.get("resolved"), r.get("decided"), number,
                          tuple(rpre), tuple(rpost), frozenset(rshapes), short, rule_words,
                          rule_notes))
    return Section(number, title, text, when, tuple(rules),
                   raw.get("resolved"), raw.get("decided"), tuple(pre), frozenset(shapes),
                   section_words,
                   {lang: (t.get("resolved", raw.get("resolved")),
                           t.get("decided", raw.get("decided")))
                    for lang, t in section_translations.items()})


class _Hand(K.HandFacts):
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
            s = self._backs[split] = self.rank(_BACK_GET[split](self.cards))
        return s

    def front_strength(self, split: int) -> int:
        s = self._fronts[split]
        if s is None:
            s = self._fronts[split] = rank2(_FRONT_GET[split](self.cards))
        return s

    def _all_backs(self) -> list[int]:
        backs = self._backs
        if None in backs:
            rank, cards = self.rank, self.cards
            backs = self._backs = [rank(get(cards)) for get in _BACK_GET]
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
                if not by_view(K.PoolView(cat, ace_high, _BACK_GET[k](self.cards), ace_card)):
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
        for k, (i, j) in enumerate(_FRONT_IDX):
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


def _front_text(cards: Sequence[int]) -> str:
    hi, lo = sorted((CARD_RANK[c] for c in cards), reverse=True)
    if hi == lo:
        return f"a pair of {K.plural(hi)}"
    return f"{_rank_word(hi)}-{_rank_word(lo)}"


def _rank_word(rank: int) -> str:
    """A rank in an explanation: ten written 10, as the cards show it ("A-10 in front")."""
    return "10" if rank == 10 else K.rank_char(rank)


_BACK_WORDS: dict[tuple[str, int], str] = {}


def _back_text(cards: Sequence[int], strength: int, wheel: str) -> str:
    words = _BACK_WORDS.get((wheel, strength))
    if words is None:
        text = evaluate5(cards, wheel).description.split(", joker as")[0]
        words = _BACK_WORDS[(wheel, strength)] = text[0].lower() + text[1:]
    return words


class _Fields(dict[str, str]):
    """Explanation words, the front and back described only when asked for."""

    def __init__(self, hand: _Hand, split: int) -> None:
        super().__init__(K.shape_fields(hand.shape))
        self.hand = hand
        self.split = split

    def __missing__(self, key: str) -> str:
        h, k = self.hand, self.split
        if key == "front":
            return _front_text(_FRONT_GET[k](h.cards))
        if key == "back":
            return _back_text(_BACK_GET[k](h.cards), h.back_strength(k), h.wheel)
        raise KeyError(key)


class _FieldsIn(dict[str, str]):
    """Explanation words in another language (``words.py``), front and back when asked for."""

    def __init__(self, hand: _Hand, split: int, lang: str) -> None:
        super().__init__(W.shape_fields(hand.shape, lang))
        self.hand = hand
        self.split = split
        self.lang = lang

    def __missing__(self, key: str) -> str:
        h, k = self.hand, self.split
        if key == "front":
            hi, lo = sorted((CARD_RANK[c] for c in _FRONT_GET[k](h.cards)), reverse=True)
            return W.front_words(hi, lo, self.lang)
        if key == "back":
            value = evaluate5(_BACK_GET[k](h.cards), h.wheel)
            return W.describe(value.category, value.ranks, self.lang)
        raise KeyError(key)


def _worded(template: str, fields: Mapping[str, str], lang: str | None) -> str:
    """Word a rule's explanation (``explanations.fill``, which refuses anything but plain
    fields and caps the length); when it cannot be used (a stored template the editor
    refuses, or a field this hand lacks), the generated sentence of the rule's setting."""
    try:
        return E.fill(template, fields)
    except E.TemplateError:
        return E.fill(W.generated_template(lang), fields)


class HouseWay:
    """One casino's house way, loaded from its data file.

    ``table=False`` keeps the house way off its class tables: every hand is then
    decided by the interpreter (with its rank-pattern cache), the path before tables.
    """

    def __init__(self, data: Mapping[str, Any], table: bool = True) -> None:
        self.name: str = data["name"]
        # The mapping it was built from (a deep copy): "copy and edit" starts from it.
        self.data: dict[str, Any] = copy.deepcopy(dict(data))
        # Names this sheet's data: anything printed from it (a cached PDF) is keyed by it.
        self.digest: str = hashlib.sha256(
            json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()
        self.rules_digest: str = rules_digest(data)
        self.title: str = data.get("title", self.name)
        self.casino: str = data["casino"]
        self.source: str = data.get("source", "")
        self.authority: str = data.get("authority", "")
        self.thresholds: str = data.get("thresholds", "")
        self.notes: tuple[str, ...] = tuple(data.get("notes", ()))
        # The sheet's own words in other languages (issue 19; words.py): title,
        # thresholds, notes per language, each falling back to the English original.
        self.translations: dict[str, dict[str, Any]] = W.check_translations(
            data.get("translations"), W.TOP_FIELDS, self.name)
        self.rank_groups: dict[str, tuple[int, int]] = {
            g: K.parse_range(r) for g, r in data.get("rank_groups", {}).items()}
        self.sections: tuple[Section, ...] = tuple(
            _compile_section(s, self.rank_groups, self.name) for s in data["sections"])
        self.rules: tuple[Rule, ...] = tuple(r for s in self.sections for r in s.rules)
        ids = [r.id for r in self.rules]
        dupes = {i for i in ids if ids.count(i) > 1}
        if dupes:
            raise ValueError(f"{self.name}: rule id {sorted(dupes)[0]!r} is used twice.")
        self._by_id = {r.id: r for r in self.rules}
        # For each shape, the sections and rules that can apply, in the sheet's order.
        self._dispatch: dict[str, tuple[tuple[tuple[K.Pre, ...], tuple[Rule, ...]], ...]] = {
            shape: tuple((sec.pre, tuple(r for r in sec.rules if shape in r.shapes))
                         for sec in self.sections if shape in sec.shapes)
            for shape in K.SHAPES}
        self.examples: tuple[Example, ...] = tuple(
            Example(e["cards"], e["front"], e["back"], e.get("value", ""), e["rule"],
                    e.get("note", "")) for e in data.get("examples", ()))
        for e in self.examples:
            if e.rule not in self._by_id:
                raise ValueError(f"{self.name}: example rule {e.rule!r} is not on the sheet.")
        self.coverage: tuple[dict[str, Any], ...] = tuple(dict(c) for c in data.get("coverage", ()))
        # Decisions by rank multiset (prime product): hands with no S/F, and hands
        # whose only S/F are straights (these depend on the wheel setting).
        self._plain: dict[int, tuple[int, str, str]] = {}
        self._straights: dict[str, dict[int, tuple[int, str, str]]] = {w: {} for w in _WHEELS}
        # Class tables per wheel setting: loaded on first use; None when there is none
        # (or it was made from other rules) and the interpreter decides.
        self.use_tables = table
        self._tables: dict[str, ClassTable | None] = {}
        self._rule_names: dict[str, tuple[str, ...]] = {}

    # --- words in the reader's language (issue 19) ----------------------------------

    def title_in(self, lang: str | None) -> str:
        """Return the sheet's title in a language, the English original when untranslated."""
        return str(self.translations.get(lang or "", {}).get("title", self.title))

    def thresholds_in(self, lang: str | None) -> str:
        """Return the thresholds sentence in a language, the English original when untranslated."""
        return str(self.translations.get(lang or "", {}).get("thresholds", self.thresholds))

    def source_in(self, lang: str | None) -> str:
        """Return where the sheet was read, in a language, the English original when untranslated."""
        return str(self.translations.get(lang or "", {}).get("source", self.source))

    @property
    def explanation_problems(self) -> tuple[tuple[Rule, str, E.Problem], ...]:
        """Return the explanations that cannot be used (issue 24): (rule, language, why),
        in the sheet's order, English ("en") before the translations. Such a way loads and
        sets hands; its readers get the generated sentence instead of the explanation."""
        found = []
        for rule in self.rules:
            for lang, template in (("en", rule.explain),
                                   *((lang, w[2]) for lang, w in rule.words.items())):
                if lang != "en" and template == rule.explain:
                    continue  # no translated explanation: the English one, reported once
                problem = E.problem(template)
                if problem is not None:
                    found.append((rule, lang, problem))
        return tuple(found)

    def explanation_in(self, lang: str | None, back: Sequence[int | str],
                       front: Sequence[int | str], rule_id: str,
                       wheel: str = Wheel.SECOND_HIGHEST) -> str:
        """Word why ``rule_id`` sets these cards so, in a language (None or "en": English).

        ``back`` and ``front`` are the setting (a ``HouseWaySetting``'s, or its
        ``as_dict`` lists); the English is exactly ``HouseWaySetting.explanation``, and so
        is a language the rule has no translation in (the original, words and all).
        ValueError for cards that are not a five/two setting.
        """
        seven = _sorted_cards([*front, *back])
        two = {c if isinstance(c, int) else parse_card(c) for c in front}
        split = next((k for k, idx in enumerate(_FRONT_IDX)
                      if {seven[i] for i in idx} == two), None) if len(two) == 2 else None
        if split is None:
            raise ValueError("A setting is a front of 2 of the 7 cards.")
        rule = self.rule(rule_id)
        if not lang or lang not in rule.words:  # English, or no translation: the original
            return self._explain(seven, split, rule_id, wheel)
        hand = _Hand(seven, wheel, None)
        if not rule_id.endswith(".fallback"):
            return _worded(rule.explain_in(lang), _FieldsIn(hand, split, lang), lang)
        # The rule's own split fouled (rules.md §19): word it, then the fallback played.
        if rule.pool is not None:
            first = hand.pool_best(rule.pool)
        else:
            place = K.RULE_KINDS[rule.kind].front
            first = hand.choose(place(hand.shape)) if place is not None else None
        text = _worded(rule.explain_in(lang),
                       _FieldsIn(hand, split if first is None else first, lang), lang)
        fields = _FieldsIn(hand, split, lang)
        return E.fill(W.WORDS[lang].fallback, {"text": text.rstrip("."), "front": fields["front"],
                                               "back": fields["back"]}, ("text", "front", "back"))

    @classmethod
    def from_toml(cls, text: str, table: bool = True) -> HouseWay:
        """Build a house way from TOML text (a preset file or a test sheet)."""
        return cls(tomllib.loads(text), table)

    # --- class tables ---------------------------------------------------------------

    def class_table(self, wheel: str = Wheel.SECOND_HIGHEST) -> ClassTable | None:
        """Return this way's class table for a wheel setting (loaded once), or None."""
        if wheel in self._tables:
            return self._tables[wheel]
        table = None
        if self.use_tables:
            table = shipped_table(self.name, Wheel(wheel).value, self.rules_digest)
        self._put_table(wheel, table)
        return table

    def attach_table(self, table: ClassTable) -> None:
        """Use a table built for this way (``class_build.build_class_table``)."""
        if table.rules_digest != self.rules_digest or table.rule_ids != self.rule_ids:
            raise ValueError(f"{self.name}: this class table was built from other rules.")
        self._put_table(table.wheel, table)

    def _put_table(self, wheel: str, table: ClassTable | None) -> None:
        self._tables[wheel] = table
        if table is not None:
            self._rule_names[wheel] = table.rule_names

    def warm_tables(self) -> None:
        """Load the class tables of every wheel setting now (the app does, at start-up)."""
        for w in _WHEELS:
            self.class_table(w)

    def __repr__(self) -> str:
        return f"<HouseWay {self.name} ({len(self.rules)} rules)>"

    def rule(self, rule_id: str) -> Rule:
        """Return a rule by id (a ``.fallback`` id answers its rule)."""
        base = rule_id.removesuffix(".fallback")
        try:
            return self._by_id[base]
        except KeyError:
            raise ValueError(f"{self.name} has no rule {rule_id!r}.") from None

    @property
    def rule_ids(self) -> tuple[str, ...]:
        """Return the rule ids in the sheet's order."""
        return tuple(r.id for r in self.rules)

    # --- setting a hand -------------------------------------------------------------

    def set(self, seven: Iterable[int | str] | str,
            wheel: str = Wheel.SECOND_HIGHEST) -> HouseWaySetting:
        """Set seven cards the house way.

        From the class table when the way has one for this wheel setting: the hand's
        class key, a look-up and the cards in class order (``classes``); otherwise
        by the interpreter, which decides each new rank pattern once.
        """
        cards = _sorted_cards(seven)
        if wheel not in _WHEELS:
            raise ValueError(f"Unknown wheel setting {wheel!r}; use "
                             f"{' or '.join(_WHEELS)}.")
        a, b, c, d, e, f, g = cards
        sa = _SUIT_ADD
        suits = sa[a] + sa[b] + sa[c] + sa[d] + sa[e] + sa[f] + sa[g]
        flush = suits in _FLUSH4 if g == 52 else suits in _FLUSH5
        table = self._tables[wheel] if wheel in self._tables else self.class_table(wheel)
        if table is not None:
            p = CARD_PRIME
            key = p[a] * p[b] * p[c] * p[d] * p[e] * p[f] * p[g] << MASK_BITS
            if flush:
                cards, fmask = _flush_order(cards, g == 52)
                key |= fmask
            index = table.keys
            keys = index.keys
            bits = key.bit_length()
            bucket = bits << 8 | (key >> bits - 9) & 255
            i = bisect_left(keys, key, index.starts[bucket], index.starts[bucket + 1])
            if i == len(keys) or keys[i] != key:
                raise HouseWayError(f"{format_cards(cards)} is in no class of the table.")
            split = table.split[i]
            rule = self._rule_names[wheel][table.rule[i]]
            return HouseWaySetting(_BACK_GET[split](cards), _FRONT_GET[split](cards), rule,
                                   None, (self, cards, split, wheel))
        if flush:
            split, rule, text = self.decide(cards, wheel, True)
        else:
            rb = _RANK_BIT
            mask = rb[a] | rb[b] | rb[c] | rb[d] | rb[e] | rb[f] | rb[g]
            sf = _STRAIGHT4[mask] if g == 52 else _STRAIGHT5[mask]
            # No flush possible: every back's value depends on ranks alone (the
            # joker apart), so one decision serves every hand with these ranks.
            p = CARD_PRIME
            key = p[a] * p[b] * p[c] * p[d] * p[e] * p[f] * p[g]
            cache = self._straights[wheel] if sf else self._plain
            entry = cache.get(key)
            if entry is None:
                entry = cache[key] = self.decide(cards, wheel, bool(sf))
            split, rule, text = entry
        return HouseWaySetting(_BACK_GET[split](cards), _FRONT_GET[split](cards), rule, text)

    def _explain(self, cards: Sequence[Card], split: int, rule_id: str, wheel: str) -> str:
        """Word the explanation of a table's answer: cards in class order, its split."""
        if rule_id.endswith(".fallback"):
            return self.decide(cards, wheel)[2]
        hand = _Hand(cards, wheel, None)
        return _worded(self._by_id[rule_id].explain, _Fields(hand, split), None)

    def decide(self, cards: Sequence[Card], wheel: str = Wheel.SECOND_HIGHEST,
               sf: bool | None = None) -> tuple[int, str, str]:
        """Apply the rules to seven sorted cards: (split index, rule id, explanation).

        This is the reference path: no cache. ``sf`` may be given when known.
        """
        hand = _Hand(cards, wheel, sf)
        for section_pre, rules in self._dispatch[hand.shape.name]:
            if not _holds_all(section_pre, hand):
                continue
            for rule in rules:
                if rule.pre and not _holds_all(rule.pre, hand):
                    continue
                if rule.pool is not None:
                    split = hand.pool_best(rule.pool)
                    if split is None:
                        continue
                else:
                    front = K.RULE_KINDS[rule.kind].front
                    assert front is not None  # a rule without a pool has a front (load checks)
                    split = hand.choose(front(hand.shape))
                if rule.post and not all(p(hand, split) for p in rule.post):
                    continue
                return self._finish(hand, rule, split)
        raise HouseWayError(
            f"{self.name}: no rule decides {format_cards(cards)} (shape "
            f"{hand.shape.code}, {'with' if hand.sf else 'no'} S/F).")

    def _finish(self, hand: _Hand, rule: Rule, split: int) -> tuple[int, str, str]:
        text = _worded(rule.explain, _Fields(hand, split), None)
        if hand.back_strength(split) >= hand.front_strength(split):
            return split, rule.id, text
        log.error("House way %s, rule %s fouls %s; using the fallback (sheet error).",
                  self.name, rule.id, format_cards(hand.cards))
        split = _fallback(hand, split)
        fields = _Fields(hand, split)
        text = (f"{text.rstrip('.')}; that would foul, so the fallback plays "
                f"{fields['front']} in front and {fields['back']} in back")
        return split, rule.id + ".fallback", text


def _flush_order(cards: list[Card], joker: bool) -> tuple[list[Card], int]:
    """Return seven sorted cards in class order (flush-suit card first within a rank)
    and the mask of the ranks held in the flush suit."""
    counts = [0, 0, 0, 0]
    for c in cards:
        counts[c & 3] += 1
    if joker:
        counts[0] -= 1          # the joker, card 52, counted as a club
    fs = counts.index(max(counts))
    mask = 0
    for c in cards:
        if c & 3 == fs and c != 52:
            mask |= 1 << (c >> 2)
    return sorted(cards, key=lambda c: (c >> 2, (c & 3) != fs, c)), mask


def _holds_all(checks: tuple[K.Pre, ...], hand: _Hand) -> bool:
    # A plain loop, not all(...) over a generator: this runs for every rule of every hand.
    for check in checks:  # noqa: SIM110
        if not check(hand):
            return False
    return True


def _fallback(hand: _Hand, failed: int) -> int:
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


def _sorted_cards(seven: Iterable[int | str] | str) -> list[Card]:
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


# --- the rule data's digest ------------------------------------------------------------

def rules_digest(data: Mapping[str, Any]) -> str:
    """Return a hash of a house way's rule data: what decides a hand, not its words.

    The rank groups, each section's condition, resolved and decided lines, and each
    rule's id (its kind), pool, condition, resolved and decided lines, in the sheet's
    order. Titles, sheet sentences, explanations, examples and translations are left
    out, so rewording a sheet keeps its class tables.
    """
    rule_data = {
        "rank_groups": data.get("rank_groups", {}),
        "sections": [
            {"when": s.get("when", {}), "resolved": s.get("resolved"),
             "decided": s.get("decided"),
             "rules": [{"id": r["id"], "kind": K.kind_of(r["id"]), "pool": r.get("pool"),
                        "when": r.get("when", {}), "resolved": r.get("resolved"),
                        "decided": r.get("decided")} for r in s.get("rules", [])]}
            for s in data["sections"]],
    }
    return hashlib.sha256(json.dumps(rule_data, sort_keys=True, default=str).encode()
                          ).hexdigest()


# --- presets -------------------------------------------------------------------------

def _preset_dir() -> Traversable:
    return resources.files(__package__).joinpath(_PRESETS)


@cache
def _preset_names() -> tuple[str, ...]:
    names = sorted(p.name.removesuffix(".toml") for p in _preset_dir().iterdir()
                   if p.name.endswith(".toml"))
    if DEFAULT_HOUSE_WAY in names:
        names.remove(DEFAULT_HOUSE_WAY)
        names.insert(0, DEFAULT_HOUSE_WAY)
    return tuple(names)


def preset_names() -> list[str]:
    """Return the shipped presets, the default first."""
    return list(_preset_names())


def load(name: str = DEFAULT_HOUSE_WAY, table: bool = True) -> HouseWay:
    """Return a shipped preset house way by name, loaded once a process.

    Its class tables load on first use; ``table=False`` gives a separate copy that
    never uses them (the interpreter path, for comparison). The engine knows the presets
    only (its own package data): a manager's published version or a preset's earlier
    rules are the services' (``services/house_ways.py``), which hand the house way itself
    down (a drill's ``context.way``). ValueError "Unknown house way" for any other name.
    """
    return _load(name, bool(table))


@cache
def _load(name: str, table: bool) -> HouseWay:
    if name not in _preset_names():
        raise ValueError(f"Unknown house way {name!r}; the presets are "
                         f"{', '.join(preset_names())}.")
    text = _preset_dir().joinpath(f"{name}.toml").read_text(encoding="utf-8")
    way = HouseWay.from_toml(text, table)
    if way.name != name:
        raise HouseWayError(f"Preset file {name}.toml names itself {way.name!r}.")
    return way


def set_hand(seven: Iterable[int | str] | str, house_way: str = DEFAULT_HOUSE_WAY,
             wheel: str = Wheel.SECOND_HIGHEST) -> HouseWaySetting:
    """Set seven cards by a named house way (the dealer's procedure and foul policy)."""
    return load(house_way).set(seven, wheel)
