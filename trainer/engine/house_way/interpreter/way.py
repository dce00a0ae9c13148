"""``HouseWay``: one casino's sheet, loaded, and the setting of seven cards by it.

A house way is data (a preset file, or a manager's version the services hand down):
``HouseWay(data)`` compiles its sections and rules (``sheet``) and indexes them by
shape. ``set`` answers from the way's class table when it has one for the wheel
setting, else by ``decide``, which applies the rules in the sheet's order to the
seven cards (``hand.SevenCards``) and words the deciding rule's explanation
(``wording``); a rule whose split fouls gives way to the fallback (docs/rules.md §19).

Speed: most decisions depend only on the rank multiset, once the hand is known to hold
no straight or flush. Those are decided once per rank multiset and cached as a split
index; only hands that may hold an S/F look at the 21 splits.
"""
from __future__ import annotations

import copy
import hashlib
import json
import logging
import tomllib
from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...cards import Card, format_cards, parse_card
from ...hands import CARD_PRIME, Wheel
from .. import explanations as E
from .. import kinds as K
from .. import words as W
from ..classes import MASK_BITS, ClassTable, shipped_table
from .digest import rules_digest
from .hand import SevenCards, fallback, sorted_cards
from .results import HouseWayError, HouseWaySetting
from .sf_screen import FLUSH4, FLUSH5, RANK_BIT, STRAIGHT4, STRAIGHT5, SUIT_ADD
from .sheet import Example, Rule, Section, compile_section
from .splits import BACK_GET, FRONT_GET, FRONT_IDX
from .wording import ExplanationFields, ExplanationFieldsIn, worded

# The interpreter's logger (a fouling rule is a sheet error), named as before the split.
log = logging.getLogger("trainer.engine.house_way.interpreter")

WHEELS = tuple(w.value for w in Wheel)


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
            compile_section(s, self.rank_groups, self.name) for s in data["sections"])
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
        self._straights: dict[str, dict[int, tuple[int, str, str]]] = {w: {} for w in WHEELS}
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
        seven = sorted_cards([*front, *back])
        two = {c if isinstance(c, int) else parse_card(c) for c in front}
        split = next((k for k, idx in enumerate(FRONT_IDX)
                      if {seven[i] for i in idx} == two), None) if len(two) == 2 else None
        if split is None:
            raise ValueError("A setting is a front of 2 of the 7 cards.")
        rule = self.rule(rule_id)
        if not lang or lang not in rule.words:  # English, or no translation: the original
            return self._explain(seven, split, rule_id, wheel)
        hand = SevenCards(seven, wheel, None)
        if not rule_id.endswith(".fallback"):
            return worded(rule.explain_in(lang), ExplanationFieldsIn(hand, split, lang), lang)
        # The rule's own split fouled (rules.md §19): word it, then the fallback played.
        if rule.pool is not None:
            first = hand.pool_best(rule.pool)
        else:
            place = K.RULE_KINDS[rule.kind].front
            first = hand.choose(place(hand.shape)) if place is not None else None
        text = worded(rule.explain_in(lang),
                       ExplanationFieldsIn(hand, split if first is None else first, lang), lang)
        fields = ExplanationFieldsIn(hand, split, lang)
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
        for w in WHEELS:
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
        cards = sorted_cards(seven)
        if wheel not in WHEELS:
            raise ValueError(f"Unknown wheel setting {wheel!r}; use "
                             f"{' or '.join(WHEELS)}.")
        a, b, c, d, e, f, g = cards
        sa = SUIT_ADD
        suits = sa[a] + sa[b] + sa[c] + sa[d] + sa[e] + sa[f] + sa[g]
        flush = suits in FLUSH4 if g == 52 else suits in FLUSH5
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
            return HouseWaySetting(BACK_GET[split](cards), FRONT_GET[split](cards), rule,
                                   None, (self, cards, split, wheel))
        if flush:
            split, rule, text = self.decide(cards, wheel, True)
        else:
            rb = RANK_BIT
            mask = rb[a] | rb[b] | rb[c] | rb[d] | rb[e] | rb[f] | rb[g]
            sf = STRAIGHT4[mask] if g == 52 else STRAIGHT5[mask]
            # No flush possible: every back's value depends on ranks alone (the
            # joker apart), so one decision serves every hand with these ranks.
            p = CARD_PRIME
            key = p[a] * p[b] * p[c] * p[d] * p[e] * p[f] * p[g]
            cache = self._straights[wheel] if sf else self._plain
            entry = cache.get(key)
            if entry is None:
                entry = cache[key] = self.decide(cards, wheel, bool(sf))
            split, rule, text = entry
        return HouseWaySetting(BACK_GET[split](cards), FRONT_GET[split](cards), rule, text)

    def _explain(self, cards: Sequence[Card], split: int, rule_id: str, wheel: str) -> str:
        """Word the explanation of a table's answer: cards in class order, its split."""
        if rule_id.endswith(".fallback"):
            return self.decide(cards, wheel)[2]
        hand = SevenCards(cards, wheel, None)
        return worded(self._by_id[rule_id].explain, ExplanationFields(hand, split), None)

    def decide(self, cards: Sequence[Card], wheel: str = Wheel.SECOND_HIGHEST,
               sf: bool | None = None) -> tuple[int, str, str]:
        """Apply the rules to seven sorted cards: (split index, rule id, explanation).

        This is the reference path: no cache. ``sf`` may be given when known.
        """
        hand = SevenCards(cards, wheel, sf)
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

    def _finish(self, hand: SevenCards, rule: Rule, split: int) -> tuple[int, str, str]:
        text = worded(rule.explain, ExplanationFields(hand, split), None)
        if hand.back_strength(split) >= hand.front_strength(split):
            return split, rule.id, text
        log.error("House way %s, rule %s fouls %s; using the fallback (sheet error).",
                  self.name, rule.id, format_cards(hand.cards))
        split = fallback(hand, split)
        fields = ExplanationFields(hand, split)
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


def _holds_all(checks: tuple[K.Pre, ...], hand: SevenCards) -> bool:
    # A plain loop, not all(...) over a generator: this runs for every rule of every hand.
    for check in checks:  # noqa: SIM110
        if not check(hand):
            return False
    return True
