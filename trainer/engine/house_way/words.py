"""House-way words in the reader's language (issue 19): a sheet's translations, and the
words an explanation fills in.

A house-way file may carry, beside each English original, its translations
(docs/house-ways.md, "Translations of a sheet"): ``[translations.<lang>]`` at the top
(title, thresholds, notes, source), ``[sections.translations.<lang>]`` per section (title,
text, resolved, decided) and ``[sections.rules.translations.<lang>]`` per rule (text, short,
explain, resolved, decided).
``check_translations`` is what loading checks of them; the interpreter keeps them on
its ``HouseWay``, ``Section`` and ``Rule`` objects (``text_in(lang)`` and so on).

An explanation template is filled with rank words (``{pair}`` = "kings"), and its
``{front}`` and ``{back}`` describe the two hands ("a pair of sixes", "jack-high
straight"). English keeps the words of ``cards.py``/``hands.py`` (byte for byte); the
other languages have their tables here, as plain data (no I/O). Template fields are
nominative (Russian: "пара: короли"); the phrases built here ("пара шестёрок", "стрит до
валета") use each language's own forms. The casino terms follow docs/glossary-<lang>.md.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..cards import RANK_CHARS
from ..hands import WHEEL_RANKS, Category
from . import explanations as E

# The languages a sheet may be translated into (the app's, English apart: services/languages.py).
LANGUAGES = ("pt", "es", "it", "ru")
ENGLISH = "en"

# What each level of a sheet may translate.
# The source and the resolved/decided lines are printed on the sheet, so they are translated
# too; they are words, so a translation never enters the rules digest (``interpreter/digest.py``).
TOP_FIELDS = ("title", "thresholds", "notes", "source")
SECTION_FIELDS = ("title", "text", "resolved", "decided")
RULE_FIELDS = ("text", "short", "explain", "resolved", "decided")


@dataclass(frozen=True, slots=True)
class Words:
    """One language's words for explanations: rank names and hand descriptions."""

    names: Mapping[int, str]     # a rank, singular ("rey")
    plurals: Mapping[int, str]   # a rank, plural ("reyes"): the template fields
    of: Mapping[int, str]        # the plural after "pair of" (Russian: genitive, "королей")
    high: Mapping[int, str]      # "X-high" ("al rey", "до короля")
    # Hand descriptions; fields: {of}, {of2}, {pl}, {pl2}, {high}, {kicker}, {ranks}.
    front_pair: str
    five_aces: str
    royal_flush: str
    straight_flush: str
    straight: str
    wheel: str
    quads: str
    full_house: str
    flush: str
    trips: str
    two_pair: str
    pair: str
    pai_gow: str
    # The §19 fallback, after the rule's explanation: {text}, {front}, {back}.
    fallback: str
    # The generated sentence, said instead of an explanation that cannot be used (issue 24):
    # {front}, {back}. A valid template, the same as ``GENERATED`` in English.
    generated: str = ""


def _ranks(*words: str) -> dict[int, str]:
    return dict(zip(range(2, 15), words, strict=True))


WORDS: dict[str, Words] = {
    "es": Words(
        names=_ranks("dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve",
                     "diez", "jota", "reina", "rey", "as"),
        plurals=_ranks("doses", "treses", "cuatros", "cincos", "seises", "sietes", "ochos",
                       "nueves", "dieces", "jotas", "reinas", "reyes", "ases"),
        of=_ranks("doses", "treses", "cuatros", "cincos", "seises", "sietes", "ochos",
                  "nueves", "dieces", "jotas", "reinas", "reyes", "ases"),
        high=_ranks("al dos", "al tres", "al cuatro", "al cinco", "al seis", "al siete",
                    "al ocho", "al nueve", "al diez", "a la jota", "a la reina", "al rey",
                    "al as"),
        front_pair="una pareja de {of}",
        five_aces="cinco ases",
        royal_flush="escalera real",
        straight_flush="escalera de color {high}",
        straight="escalera {high}",
        wheel=" (la rueda)",
        quads="póquer de {of}, kicker {kicker}",
        full_house="full de {of} y {of2}",
        flush="color {high}, {ranks}",
        trips="trío de {of}",
        two_pair="doble pareja, {of} y {of2}, kicker {kicker}",
        pair="pareja de {of}",
        pai_gow="pai gow {high}, {ranks}",
        fallback=("{text}; así sería una mano mal armada, de modo que se juega {front} en la "
                  "mano baja y {back} en la mano alta"),
        generated="El método de la casa juega {front} en la mano baja y {back} en la mano alta",
    ),
    "pt": Words(
        names=_ranks("dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove",
                     "dez", "valete", "dama", "rei", "ás"),
        plurals=_ranks("dois", "três", "quatros", "cincos", "seis", "setes", "oitos",
                       "noves", "dez", "valetes", "damas", "reis", "ases"),
        of=_ranks("dois", "três", "quatros", "cincos", "seis", "setes", "oitos", "noves",
                  "dez", "valetes", "damas", "reis", "ases"),
        high=_ranks("de dois", "de três", "de quatro", "de cinco", "de seis", "de sete",
                    "de oito", "de nove", "de dez", "de valete", "de dama", "de rei",
                    "de ás"),
        front_pair="um par de {of}",
        five_aces="cinco ases",
        royal_flush="royal flush",
        straight_flush="straight flush {high}",
        straight="sequência {high}",
        wheel=" (a roda)",
        quads="quadra de {of}, kicker {kicker}",
        full_house="full house de {of} com {of2}",
        flush="flush {high}, {ranks}",
        trips="trinca de {of}",
        two_pair="dois pares, {of} e {of2}, kicker {kicker}",
        pair="par de {of}",
        pai_gow="pai gow {high}, {ranks}",
        fallback=("{text}; assim seria uma mão inválida, então joga-se {front} na mão baixa "
                  "e {back} na mão alta"),
        generated="O método da casa joga {front} na mão baixa e {back} na mão alta",
    ),
    "it": Words(
        names=_ranks("due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove",
                     "dieci", "fante", "regina", "re", "asso"),
        plurals=_ranks("due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove",
                       "dieci", "fanti", "regine", "re", "assi"),
        of=_ranks("due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove",
                  "dieci", "fanti", "regine", "re", "assi"),
        high=_ranks("al due", "al tre", "al quattro", "al cinque", "al sei", "al sette",
                    "all'otto", "al nove", "al dieci", "al fante", "alla regina", "al re",
                    "all'asso"),
        front_pair="una coppia di {of}",
        five_aces="cinque assi",
        royal_flush="scala reale",
        straight_flush="scala colore {high}",
        straight="scala {high}",
        wheel=" (la ruota)",
        quads="poker di {of}, kicker {kicker}",
        full_house="full di {of} e {of2}",
        flush="colore {high}, {ranks}",
        trips="tris di {of}",
        two_pair="doppia coppia, {of} e {of2}, kicker {kicker}",
        pair="coppia di {of}",
        pai_gow="pai gow {high}, {ranks}",
        fallback=("{text}; così la mano non sarebbe valida, quindi si gioca {front} nella "
                  "mano bassa e {back} nella mano alta"),
        generated="Il metodo della casa gioca {front} nella mano bassa e {back} nella mano alta",
    ),
    "ru": Words(
        names=_ranks("двойка", "тройка", "четвёрка", "пятёрка", "шестёрка", "семёрка",
                     "восьмёрка", "девятка", "десятка", "валет", "дама", "король", "туз"),
        plurals=_ranks("двойки", "тройки", "четвёрки", "пятёрки", "шестёрки", "семёрки",
                       "восьмёрки", "девятки", "десятки", "валеты", "дамы", "короли", "тузы"),
        of=_ranks("двоек", "троек", "четвёрок", "пятёрок", "шестёрок", "семёрок", "восьмёрок",
                  "девяток", "десяток", "валетов", "дам", "королей", "тузов"),
        high=_ranks("до двойки", "до тройки", "до четвёрки", "до пятёрки", "до шестёрки",
                    "до семёрки", "до восьмёрки", "до девятки", "до десятки", "до валета",
                    "до дамы", "до короля", "до туза"),
        front_pair="пара {of}",
        five_aces="пять тузов",
        royal_flush="роял-флеш",
        straight_flush="стрит-флеш {high}",
        straight="стрит {high}",
        wheel=" (колесо)",
        quads="каре {of}, кикер {kicker}",
        full_house="фулл-хаус: {pl} и {pl2}",
        flush="флеш {high}, {ranks}",
        trips="тройка {of}",
        two_pair="две пары: {pl} и {pl2}, кикер {kicker}",
        pair="пара {of}",
        pai_gow="пай гоу {high}, {ranks}",
        fallback=("{text}; это был бы фол, поэтому по запасному правилу {front} идёт в "
                  "младшую руку, {back} в старшую руку"),
        generated="По методу казино {front} идёт в младшую руку, {back} в старшую руку",
    ),
}


# The generated sentence in English (``Words.generated``): what a trainee reads instead of a
# stored explanation that cannot be used, worded from the rule's own setting (issue 24).
GENERATED = "The house way plays {front} in front and {back} in back"


def generated_template(lang: str | None) -> str:
    """Return the generated sentence's template in a language (English for None, "en" or
    a language without words)."""
    found = WORDS.get(lang or "")
    return found.generated if found is not None and found.generated else GENERATED


def words(lang: str) -> Words:
    """Return a language's words (KeyError for English or an unknown language)."""
    return WORDS[lang]


def _r(rank: int) -> str:
    """A rank in a sentence: ten written 10, as the cards show it (``hands._r``)."""
    return "10" if rank == 10 else RANK_CHARS[rank - 2]


def describe(category: Category, ranks: Sequence[int], lang: str) -> str:
    """Describe a five-card hand in a language, as ``hands._describe`` does in English.

    The joker's role is left out (the explanation's back never says it).
    """
    w = WORDS[lang]
    top = ranks[0]
    kick = "-".join(_r(r) for r in ranks[1:])
    f = {"of": w.of[top], "pl": w.plurals[top], "high": w.high[top], "kicker": "",
         "ranks": "-".join(_r(r) for r in ranks), "of2": "", "pl2": ""}
    if category is Category.FIVE_ACES:
        return w.five_aces
    if category is Category.ROYAL_FLUSH:
        return w.royal_flush
    if category in (Category.STRAIGHT_FLUSH, Category.STRAIGHT):
        text = (w.straight_flush if category is Category.STRAIGHT_FLUSH else w.straight
                ).format_map(f)
        return text + (w.wheel if tuple(ranks) == WHEEL_RANKS else "")
    if category is Category.FOUR_OF_A_KIND:
        return w.quads.format_map(f | {"kicker": _r(ranks[1])})
    if category is Category.FULL_HOUSE:
        return w.full_house.format_map(f | {"of2": w.of[ranks[1]], "pl2": w.plurals[ranks[1]]})
    if category is Category.FLUSH:
        return w.flush.format_map(f)
    if category is Category.THREE_OF_A_KIND:
        return w.trips.format_map(f) + f", {kick}"
    if category is Category.TWO_PAIR:
        return w.two_pair.format_map(f | {"of2": w.of[ranks[1]], "pl2": w.plurals[ranks[1]],
                                          "kicker": _r(ranks[2])})
    if category is Category.ONE_PAIR:
        return w.pair.format_map(f) + (f", {kick}" if kick else "")
    return w.pai_gow.format_map(f)


@cache
def shape_fields(shape: Any, lang: str) -> dict[str, str]:
    """Return the template fields of a hand's shape in a language (``kinds.shape_fields``'s
    twin; nominative plurals, the high card singular). Do not modify the result."""
    w = WORDS[lang]
    f: dict[str, str] = {}
    p = shape.pairs
    if p:
        f["pair"] = f["high_pair"] = w.plurals[p[0]]
        f["low_pair"] = w.plurals[p[-1]]
        f["mid_pair"] = w.plurals[p[1]] if len(p) == 3 else w.plurals[p[-1]]
    t = shape.trips
    if t:
        f["trips"] = f["high_trips"] = w.plurals[t[0]]
        f["low_trips"] = w.plurals[t[-1]]
    if shape.quads:
        f["quads"] = w.plurals[shape.quads[0]]
    s = shape.singletons
    if s:
        f["high_card"] = w.names[s[0]]
    return f


def front_words(high: int, low: int, lang: str) -> str:
    """Describe a two-card front in a language: a pair in words, else its ranks ("K-7")."""
    if high == low:
        return WORDS[lang].front_pair.format(of=WORDS[lang].of[high])
    return f"{_r(high)}-{_r(low)}"


# --- checking a sheet's translations (at load) ---------------------------------------------

def check_translations(raw: Any, allowed: Sequence[str], where: str,
                       template_keys: Sequence[str] = ()) -> dict[str, dict[str, Any]]:
    """Check one level's ``translations`` table and return it as plain dicts.

    Refused (ValueError naming ``where``): a language other than pt, es, it, ru; a key
    this level does not translate; a value that is not text (``notes``: a list of text);
    an explanation template with a field the trainer cannot fill in or bad braces.
    """
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise ValueError(f"{where}: translations must be a table of languages.")
    out: dict[str, dict[str, Any]] = {}
    for lang, entry in raw.items():
        if lang not in LANGUAGES:
            raise ValueError(f"{where}: unknown language {lang!r} in translations; "
                             f"use {', '.join(LANGUAGES)}.")
        if not isinstance(entry, Mapping):
            raise ValueError(f"{where}: translations.{lang} must be a table.")
        for key, value in entry.items():
            if key not in allowed:
                raise ValueError(f"{where}: translations.{lang} cannot translate {key!r}; "
                                 f"use {', '.join(allowed)}.")
            if key == "notes":
                if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                    raise ValueError(f"{where}: translations.{lang}.notes must be a list of text.")
            elif not isinstance(value, str):
                raise ValueError(f"{where}: translations.{lang}.{key} must be text.")
            if key == "explain":
                # A template the editor refuses since issue 24 (a format spec, too long...)
                # loads: it is not used (``explanations.fill`` refuses it, the generated
                # sentence is said) and the manager's pages flag it.
                problem = E.problem(value, template_keys)
                if problem is not None and problem.code == E.UNKNOWN:
                    raise ValueError(f"{where}: translations.{lang}.explain uses an unknown "
                                     f"field {problem.said.params['field']}.")
                if problem is not None and problem.code not in E.LOADABLE:
                    raise ValueError(f"{where}: bad explanation template in translations."
                                     f"{lang} ({problem}).")
        out[lang] = dict(entry)
    return out
