"""The sheet as data: its sections and rules, compiled once when a house way loads.

``compile_section`` reads one section of a house-way mapping (a preset file's) into a
``Section`` of ``Rule``s: each condition compiled to checks (``kinds.compile_condition``),
each rule's kind, shapes and pool checked against what the kind can set, the sheet's
translations resolved per language. ``Example`` is one of the sheet's own examples.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import explanations as E
from .. import kinds as K
from .. import words as W


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


def compile_section(raw: Mapping[str, Any], groups: Mapping[str, tuple[int, int]],
                    sheet: str) -> Section:
    """Return one section of a sheet's mapping as a ``Section`` (ValueError, with where, when
    it is wrong)."""
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
