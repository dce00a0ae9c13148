"""Words for the machine's names: rule ids, rule families, house ways, profiles, outcomes.

Pages show these words; the ids themselves appear only in ``title=`` tooltips and
in exports (docs/house-ways.md, "Names people read"). A name the tables here do not
know is turned into words from its parts, never shown as the bare id.

A drill kind's rules are named by its home (``trainer/engine/drills/kinds/<pkg>/``): each
skill it declares has a name and a short name (``Skill.name``, ``Skill.short``, English
marked with ``N_``, translated here), and the rule family of its skills is named by the
home's ``family_names``, else by the kind's title; a kind's name is its title
(``drill_kinds``). So nothing here is per kind: a new kind's rules read as words as it is
registered. A house way's rules are named by the way (its sheet's short names).
"""
from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from flask import has_app_context, has_request_context
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from markupsafe import Markup

from trainer.engine.drills import DRILLS
from trainer.engine.drills.skills import Words
from trainer.engine.drills.skills import skill as declared_skill
from trainer.engine.hands import Category
from trainer.engine.house_way import (
    HouseWay,
    HouseWayError,
    load,
    preset_names,
    rule_family,
)
from trainer.engine.house_way.interpreter import Rule
from trainer.engine.profiles import PROFILES
from trainer.engine.side_bets import TableKind, load_table
from trainer.engine.side_bets.paytables import RULE_FAMILY as PAY_LINE_FAMILY
from trainer.services import house_ways, profiles
from trainer.web.platform import drill_kinds, languages
from trainer.web.words import data_words, engine_words

# The house ways' rule families (a house-way rule id's first part: ``two-pair.split.always``).
FAMILIES = {
    "pai-gow": _l("No pair"),
    "one-pair": _l("One pair"),
    "two-pair": _l("Two pair"),
    "three-pair": _l("Three pair"),
    "trips": _l("Trips"),
    "two-trips": _l("Two sets of trips"),
    "full-house": _l("Full house"),
    "trips-two-pair": _l("Trips and two pair"),
    "quads": _l("Four of a kind"),
    "quads-pair": _l("Four of a kind and a pair"),
    "quads-trips": _l("Four of a kind and trips"),
    "five-aces": _l("Five aces"),
    "sf": _l("Straights and flushes"),
}

OUTCOMES = {
    "win": _l("Win"), "lose": _l("Lose"), "push": _l("Push"), "foul": _l("Foul"),
    "legal": _l("Legal"), "fouled": _l("Fouled"), "copy": _l("Copy"),
    "a": _l("Hand A"), "b": _l("Hand B"), "correct": _l("Right"), "wrong": _l("Wrong"),
    "timed_out": _l("Timed out"), "passed": _l("Passed"), "failed": _l("Not passed"),
}

# The hand categories in words (the hand-reading drill, every page's attempts).
CATEGORY_NAMES = {
    Category.FIVE_ACES.slug: _l("Five aces"),
    Category.ROYAL_FLUSH.slug: _l("Royal flush"),
    Category.STRAIGHT_FLUSH.slug: _l("Straight flush"),
    Category.FOUR_OF_A_KIND.slug: _l("Four of a kind"),
    Category.FULL_HOUSE.slug: _l("Full house"),
    Category.FLUSH.slug: _l("Flush"),
    Category.STRAIGHT.slug: _l("Straight"),
    Category.THREE_OF_A_KIND.slug: _l("Three of a kind"),
    Category.TWO_PAIR.slug: _l("Two pair"),
    Category.ONE_PAIR.slug: _l("One pair"),
    Category.HIGH_CARD.slug: _l("High card (pai gow)"),
}
MODE_NAMES = {"practice": _l("Practice"), "timed": _l("Timed"), "exam": _l("Exam")}
# A session not dealt by the balanced generator is practice only, timed or not
# (services/drills/sessions.py, DEALT): it is never labelled plain "Practice" or "Timed".
PRACTICE_ONLY_NAMES = {
    ("mistakes", "practice"): _l("My mistakes (practice)"),
    ("mistakes", "timed"): _l("My mistakes, timed (practice only)"),
    ("focused", "practice"): _l("Focused practice"),
    ("focused", "timed"): _l("Focused, timed (practice only)"),
    # A trainee's answers in a live class (issue 31, services/classroom/): class work.
    ("class", "practice"): _l("Class"),
    ("class", "timed"): _l("Class"),
    # Practice that adapts (issue 30, services/drills/targeting.py): untimed only.
    ("targeted", "practice"): _l("Targeted practice"),
}


def session_mode_name(mode: str, dealt: str | None = None) -> str:
    """Name a session's mode and how it was dealt: "Timed", "My mistakes (practice)"..."""
    if dealt and dealt != "balanced":
        # Any other pair (none is made) still reads as practice only, never as counted.
        return str(PRACTICE_ONLY_NAMES.get((dealt, mode),
                                           PRACTICE_ONLY_NAMES[("focused", "practice")]))
    return str(MODE_NAMES.get(mode, mode))


def slug_words(slug: object) -> str:
    """Return an unknown slug as words: ``two-pair.split`` -> ``Two pair split``."""
    text = str(slug or "").replace(".", " ").replace("-", " ").replace("_", " ").strip()
    return text[:1].upper() + text[1:] if text else "—"


def _said(words: Words) -> str:
    """Return a home's words (an ``N_`` msgid, a composed ``Message``, a house way's own) in
    the reader's language."""
    return engine_words.sentence_words(words) if isinstance(words, str) else engine_words.message_words(words)


def _kind_families() -> dict[str, Words]:
    """Return the rule families of the registered kinds' skills, each with its name: what
    the kind's home calls it (``family_names``), else the kind's title."""
    return _families_of(tuple(DRILLS))


@cache
def _families_of(slugs: tuple[str, ...]) -> dict[str, Words]:
    """``_kind_families`` worked out once for the registered kinds ``slugs``."""
    found: dict[str, Words] = {}
    for drill in sorted((DRILLS[slug] for slug in slugs), key=lambda d: d.order):
        for family in sorted({rule_family(s.id) for s in drill.skills} | set(drill.family_names)):
            found.setdefault(family, drill.family_names.get(family, drill.title))
    return found


def family_name(family: object) -> str:
    """Return a rule family in words (``two-pair`` -> ``Two pair``, ``foul`` -> ``Fouls``)."""
    key = str(family or "")
    if key in FAMILIES:
        return str(FAMILIES[key])
    words = _kind_families().get(key)
    return _said(words) if words is not None else slug_words(key)


@cache
def _house_rules(house_way: str) -> dict[str, Rule]:
    return {r.id: r for r in load(house_way).rules}


def _custom_way(ref: str | None) -> HouseWay | None:
    """Return a published custom version by ref (services/house_ways), None for anything else."""
    if not ref or ref in preset_names() or house_ways.parse_ref(ref) is None \
            or not has_app_context():
        return None
    try:
        return house_ways.get_way(ref)
    except (ValueError, HouseWayError):
        return None


def house_rule(rule_id: str, house_way: str | None = None) -> Rule | None:
    """Return a house-way rule by id: from ``house_way`` if given (a preset or a published
    custom version), else the first preset that has it."""
    custom = _custom_way(house_way)
    if custom is not None:
        try:
            return custom.rule(rule_id)
        except ValueError:
            pass
    order = preset_names()
    if house_way in order:
        order = [house_way, *(n for n in order if n != house_way)]
    for name in order:
        rule = _house_rules(name).get(rule_id)
        if rule is not None:
            return rule
    return None


def _language() -> str:
    """Return the page's language for a house way's own words ("en" outside a request)."""
    return languages.language() if has_request_context() else "en"


def _pay_line_name(rule_id: str) -> str | None:
    """Name a side bet's pay line no drill kind declares (a Queen's Dragon line, the
    player's game): "Queen's Dragon: four of a kind"; None for an id that is not one."""
    parts = rule_id.split(".")
    if len(parts) != 3 or parts[0] != PAY_LINE_FAMILY:
        return None
    try:
        table = load_table(parts[1])
    except (ValueError, TypeError):
        return None
    line = table.line_by_slug(parts[2])
    if line is not None:
        what = data_words.data_text_words(line.name)  # the pay table's own words, a catalogue entry
    elif parts[2] == "nothing":
        what = str(_l("no qualifying hand") if table.kind is TableKind.ENVY
                   else _l("no queen-high pai gow") if table.kind is TableKind.QUEENS_DRAGON
                   else _l("no bonus hand"))
    else:
        return None
    return str(_l("%(table)s: %(line)s", table=data_words.data_text_words(table.title),
                  line=what[:1].lower() + what[1:]))


def rule_name(rule_id: object, house_way: str | None = None) -> str:
    """Return a rule in words: a drill kind's skill by its name, a house-way rule by its short
    name and number on the sheet, a side bet's pay line by its table and line."""
    if not rule_id:
        return "—"
    rid = str(rule_id)
    declared = declared_skill(rid)
    if declared is not None:
        return _said(declared.name)
    pay_line = _pay_line_name(rid)
    if pay_line is not None:
        return pay_line
    rule = house_rule(rid, house_way)
    if rule is not None:
        return str(_l("%(short)s (rule %(number)s)", short=rule.short_in(_language()),
                      number=rule.number))
    family = rule_family(rid)
    return family_name(family) if family in FAMILIES or family in _kind_families() \
        else slug_words(rid)


def rule_short(rule_id: object, house_way: str | None = None) -> str:
    """Return a rule's short name: a drill kind's skill's, a house-way rule's alone (its
    number shown beside it), else its words."""
    declared = declared_skill(str(rule_id)) if rule_id else None
    if declared is not None:
        return _said(declared.short)
    rule = house_rule(str(rule_id), house_way) if rule_id else None
    return rule.short_in(_language()) if rule is not None else rule_name(rule_id, house_way)


def rule_tag(rule_id: object, house_way: str | None = None) -> Markup:
    """Return a rule's words in a span that keeps its id in ``data-rule`` (for scripts and
    tests; never a tooltip people read, issue 26); a dash for none."""
    if not rule_id:
        return Markup("—")
    return Markup('<span class="rule-name" data-rule="{}">{}</span>').format(
        str(rule_id), rule_name(rule_id, house_way))


def house_way_title(ref: object, english: str | None = None) -> str:
    """Return a house way's full title in the reader's language ("Método de la casa del
    Trump Plaza (Atlantic City)"): a preset's from the translations beside its English
    title in its data file; a manager's version as written (``english``, else the ref's)."""
    key = str(ref or "")
    if key in preset_names():
        return load(key).title_in(_language())
    custom = _custom_way(key)
    if custom is not None:
        return way_title(custom)
    return english if english is not None else house_ways.title_of(key)


def way_title(way: HouseWay | Mapping[str, Any] | Any) -> str:
    """Return a house way's title in the reader's language, from the way (a preset or a
    manager's version) or its data (a draft's, a version's).

    Its own translation when it has one (a preset's, or a copy's kept ``[translations]``);
    else a title of the copy's form ("Riverside Casino house way", or the casino named in
    a title written in another language) in the reader's words, from the catalogue
    ("%(casino)s house way"); a title of the manager's own that does not name the
    casino stays as written, as does any title for an English reader.
    """
    if isinstance(way, Mapping):
        title, casino = str(way.get("title") or ""), str(way.get("casino") or "")
        translations = way.get("translations")
    else:  # a HouseWay, or a row of the manager's list (title, casino)
        title = str(getattr(way, "title", "") or "")
        casino = str(getattr(way, "casino", "") or "")
        translations = getattr(way, "translations", None)
    lang = _language()
    own = translations.get(lang) if isinstance(translations, Mapping) else None
    if isinstance(own, Mapping) and isinstance(own.get("title"), str) and own["title"].strip():
        return str(own["title"])
    if lang == "en" or not title.strip():
        return title or casino
    name = _custom_way_title(title, casino)
    if name == title.strip():
        return title  # the manager's own words: not the copy's form
    return str(_l("%(casino)s house way", casino=name))


def house_way_name(name: object) -> str:
    """Return a house way as its casino's name, from the house way's own data.

    A manager's published version adds its number: "Riverside (version 2)".
    """
    key = str(name or "")
    if key in preset_names():
        way = load(key)
        title = way.title.removesuffix(" house way").strip()
        return title or way.casino
    custom = _custom_way(key)
    if custom is not None:
        title = _custom_way_title(custom.title, custom.casino)
        parsed = house_ways.parse_ref(key)
        return str(_l("%(title)s (version %(number)s)", title=title,
                      number=parsed[1] if parsed else "?"))
    return slug_words(key) if key else "—"


def _custom_way_title(title: str, casino: str) -> str:
    """Name a manager's house way by its casino, whatever language its title is in.

    A copy's title is "<casino> house way" in the manager's language at copy time
    (docs/languages.md), and the manager may reword it: an English title loses its
    " house way" as a preset's does; any other title naming the casino reads as the
    casino; a title that does not name it stays whole.
    """
    title, casino = title.strip(), casino.strip()
    if title.endswith(" house way"):
        return title.removesuffix(" house way").strip() or casino
    if casino and casino.casefold() in title.casefold():
        return casino
    return title or casino


def profile_name(name: object) -> str:
    """Return a table-rules profile in words (its ``title``)."""
    key = str(name or "")
    profile = PROFILES.get(key)
    if profile is not None and profile.title:
        return data_words.data_text_words(profile.title)  # a preset's title is a catalogue entry
    if key.startswith(profiles.PREFIX) and has_app_context():
        return profiles.title_of(key)  # a manager's custom profile, by its title
    return slug_words(key)


def outcome_name(value: object) -> str:
    """Return an outcome (win, push, lose, legal, fouled...) in words."""
    key = str(value) if value is not None else ""
    return str(OUTCOMES[key]) if key in OUTCOMES else slug_words(key)


def kind_name(kind: object) -> str:
    """Return a drill kind's title; an unregistered kind in words, not its slug."""
    key = str(kind or "")
    if drill_kinds.get_kind(key) is not None:
        return drill_kinds.title(key)
    return slug_words(key)


def way_label(choice: house_ways.HouseWayChoice) -> str:
    """Name a house way in a list: a preset by its title, a custom way with its version."""
    title = house_way_title(choice.ref, choice.title)
    if choice.version is None:
        return title
    return _("%(title)s, version %(number)s", title=title, number=choice.version)
