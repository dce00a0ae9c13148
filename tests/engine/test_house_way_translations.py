"""Issue 19, item 2: a house-way sheet's translations beside its English original
(docs/house-ways.md, "Translations of a sheet"), and explanations in the reader's language.

Expected words are written out by hand from the casino vocabulary of docs/glossary-*.md,
never taken from the code under test.
"""
from __future__ import annotations

import copy
import random
import re
import string
import tomllib
from importlib import resources
from typing import Any

import pytest

from trainer.engine.cards import RANK_NAMES, RANK_PLURALS
from trainer.engine.hands import Wheel
from trainer.engine.house_way import HouseWay, load, preset_names
from trainer.engine.house_way import words as W
from trainer.engine.house_way.interpreter import rules_digest

LANGS = ("pt", "es", "it", "ru")
PRESETS = preset_names()
# Presets translated so far (all six, once issue 19's sheets are done).
TRANSLATED = [n for n in PRESETS if "translations" in tomllib.loads(
    resources.files("trainer.engine.house_way").joinpath("presets", f"{n}.toml").read_text(
        encoding="utf-8"))]
ENGLISH_RANK_WORDS = re.compile(
    r"\b(" + "|".join(sorted({*RANK_NAMES.values(), *RANK_PLURALS.values()}, key=len,
                             reverse=True)) + r")\b")


def _data(name: str) -> dict[str, Any]:
    text = resources.files("trainer.engine.house_way").joinpath(
        "presets", f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}


def _without_translations(data: dict[str, Any]) -> dict[str, Any]:
    d = copy.deepcopy(data)
    d.pop("translations", None)
    for s in d["sections"]:
        s.pop("translations", None)
        for r in s["rules"]:
            r.pop("translations", None)
    return d


# --- the data: complete, faithful to the English's placeholders --------------------------

def test_trump_plaza_the_default_is_translated() -> None:
    assert "trump-plaza" in TRANSLATED


@pytest.mark.parametrize("name", TRANSLATED)
def test_every_section_and_rule_of_a_translated_sheet_has_all_four_languages(name: str) -> None:
    data = _data(name)
    top = data["translations"]
    assert sorted(top) == sorted(LANGS)
    for lang in LANGS:
        assert top[lang]["title"].strip() and top[lang]["title"] != data["title"]
        if data.get("thresholds"):
            assert top[lang]["thresholds"].strip()
    for section in data["sections"]:
        tr = section["translations"]
        assert sorted(tr) == sorted(LANGS), f"section {section['number']}"
        for lang in LANGS:
            assert tr[lang]["title"].strip(), f"section {section['number']} {lang}"
            assert bool(tr[lang].get("text")) == bool(section.get("text")), \
                f"section {section['number']} {lang}: text"
        for rule in section["rules"]:
            tr = rule["translations"]
            assert sorted(tr) == sorted(LANGS), rule["id"]
            for lang in LANGS:
                for key in ("text", "short", "explain"):
                    assert tr[lang][key].strip(), f"{rule['id']} {lang} {key}"
                # A translation is not the English left in place.
                assert tr[lang]["text"] != rule["text"], f"{rule['id']} {lang}"


@pytest.mark.parametrize("name", TRANSLATED)
def test_no_placeholder_is_dropped_or_added_versus_the_english(name: str) -> None:
    for section in _data(name)["sections"]:
        for rule in section["rules"]:
            for lang, tr in rule["translations"].items():
                assert _fields(tr["explain"]) == _fields(rule["explain"]), \
                    f"{name} {rule['id']} {lang}: {tr['explain']}"
                # The sheet's text and short name carry no template fields.
                assert not _fields(tr["text"]) and not _fields(tr["short"])


@pytest.mark.parametrize("name", TRANSLATED)
def test_the_rule_numbers_in_a_translated_text_are_the_englishs(name: str) -> None:
    """A rule that cites another ("as 9.1") cites the same number in every language."""
    number = re.compile(r"\b\d+\.\d+\b")
    for section in _data(name)["sections"]:
        for rule in section["rules"]:
            for lang, tr in rule["translations"].items():
                assert set(number.findall(tr["text"])) == set(number.findall(rule["text"])), \
                    f"{rule['id']} {lang}"


# --- the digests --------------------------------------------------------------------------

@pytest.mark.parametrize("name", TRANSLATED)
def test_translations_leave_the_rules_digest_and_change_the_full_digest(name: str) -> None:
    data = _data(name)
    bare = _without_translations(data)
    assert rules_digest(data) == rules_digest(bare)
    with_words, without = HouseWay(data, table=False), HouseWay(bare, table=False)
    assert with_words.rules_digest == without.rules_digest
    assert with_words.digest != without.digest  # a cached sheet PDF is printed anew
    # The shipped class tables (keyed by the rules digest) still serve the way.
    assert load(name).class_table(Wheel.SECOND_HIGHEST) is not None


def test_changing_one_translated_word_keeps_the_rules_digest_only() -> None:
    data = _data("trump-plaza")
    changed = copy.deepcopy(data)
    changed["sections"][2]["rules"][0]["translations"]["es"]["text"] = "Otra frase."
    assert rules_digest(changed) == rules_digest(data)
    assert HouseWay(changed, table=False).digest != HouseWay(data, table=False).digest


# --- loading checks the translations ------------------------------------------------------

def _sheet(**rule_extra: Any) -> dict[str, Any]:
    data = _without_translations(_data("trump-plaza"))
    data["sections"][0]["rules"][0].update(rule_extra)
    return data


@pytest.mark.parametrize("lang", ["fr", "en", "de", "ES", "pt-BR"])
def test_an_unknown_language_is_refused_at_load(lang: str) -> None:
    with pytest.raises(ValueError, match="unknown language"):
        HouseWay(_sheet(translations={lang: {"text": "x"}}), table=False)
    data = _without_translations(_data("trump-plaza"))
    data["translations"] = {lang: {"title": "x"}}
    with pytest.raises(ValueError, match="unknown language"):
        HouseWay(data, table=False)
    data = _without_translations(_data("trump-plaza"))
    data["sections"][1]["translations"] = {lang: {"title": "x"}}
    with pytest.raises(ValueError, match="unknown language"):
        HouseWay(data, table=False)


def test_a_translated_explanation_may_use_only_known_fields() -> None:
    with pytest.raises(ValueError, match=r"unknown field \{pareja\}"):
        HouseWay(_sheet(translations={"es": {"explain": "Sin pareja: {pareja}"}}), table=False)
    with pytest.raises(ValueError, match="bad explanation template"):
        HouseWay(_sheet(translations={"es": {"explain": "Sin pareja: {front"}}), table=False)
    HouseWay(_sheet(translations={"es": {"explain": "Sin pareja: {high_card}, {front}"}}),
             table=False)


def test_a_key_a_level_cannot_translate_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot translate 'when'"):
        HouseWay(_sheet(translations={"es": {"when": "x"}}), table=False)
    with pytest.raises(ValueError, match="must be text"):
        HouseWay(_sheet(translations={"es": {"text": 3}}), table=False)


# --- the accessors: the reader's language, else the original ------------------------------

def test_the_words_of_a_sheet_in_spanish_and_the_english_fallback() -> None:
    way = load("trump-plaza")
    rule = way.rule("two-pair.split.always")
    assert rule.number == "3.2"
    assert rule.text_in("es") == "Alta + Alta, o Media + Alta: separar."
    assert rule.short_in("es") == "Doble pareja, Alta + Alta o Media + Alta: separar"
    assert rule.text_in("en") == rule.text_in(None) == "High + High, or Medium + High: split."
    assert rule.text_in("fr") == rule.text  # no translation: the original
    section = way.sections[2]
    assert section.title_in("ru") == "Две пары (также когда в руке есть стрит или флеш)."
    assert section.title_in("en") == "Two pair (also when the hand has an S/F)."
    assert way.title_in("it") == "Metodo della casa del Trump Plaza (Atlantic City)"
    assert way.title_in("de") == way.title
    assert way.thresholds_in("pt").startswith("Grupos de valores")


def test_a_rule_without_a_short_name_falls_back_to_its_sections_translated_title() -> None:
    data = _data("trump-plaza")
    rule = data["sections"][0]["rules"][0]
    del rule["short"]
    for tr in rule["translations"].values():
        del tr["short"]
    way = HouseWay(data, table=False)
    assert way.rules[0].short == "No pair, no S/F."
    assert way.rules[0].short_in("es") == "Sin pareja, sin escalera ni color."


# --- explanations in the reader's language ------------------------------------------------

def test_the_english_explanation_is_unchanged_byte_for_byte() -> None:
    way = load("trump-plaza")
    rng = random.Random(19)
    for _ in range(3000):
        setting = way.set(rng.sample(range(53), 7))
        for lang in (None, "en"):
            assert way.explanation_in(lang, setting.back, setting.front, setting.rule) == \
                setting.explanation


@pytest.mark.parametrize(("cards", "lang", "expected"), [
    ("Jh Js 6c 6d 9h 4c 2s", "es", "Doble pareja, jotas y seises, sin as: separar, seises en la mano baja"),
    ("Jh Js 6c 6d 9h 4c 2s", "pt", "Dois pares, valetes e seis, sem ás: separar, seis na mão baixa"),
    ("Jh Js 6c 6d 9h 4c 2s", "it", "Doppia coppia, fanti e sei, senza asso: dividere, sei nella mano bassa"),
    ("Jh Js 6c 6d 9h 4c 2s", "ru",
     "Две пары, валеты и шестёрки, без туза:"
     " разделить, шестёрки в младшую руку"),
    ("Kh 9c 7d 5s 4h 3c 2d", "es",
     "Sin pareja, sin escalera ni color: la carta más alta"
     " (rey) se queda en la mano alta, 9-7 en la mano baja"),
    ("Kh Kc 8d 8s 8h 3c 2d", "ru",
     "Фулл-хаус, восьмёрки и короли: пара (короли) в младшую"
     " руку, тройка (восьмёрки) в старшую руку"),
    ("Ac Ad Ah JK Kc Qs Jd", "es",
     "Cuatro ases: siempre se separan, una pareja de ases"
     " en la mano baja y escalera al as en la mano alta"),
    ("Ac Ad Ah JK Kc Qs Jd", "ru",
     "Четыре туза: всегда разделять, пара тузов в"
     " младшую руку, стрит до туза в старшую руку"),
    ("Qh Qs Qc 5d 5s 2h 2c", "it",
     "Tris e doppia coppia: la coppia più alta, cinque, nella"
     " mano bassa; full di regine e due nella mano alta"),
])
def test_explanations_in_each_language(cards: str, lang: str, expected: str) -> None:
    way = load("trump-plaza")
    setting = way.set(cards)
    assert way.explanation_in(lang, setting.back, setting.front, setting.rule) == expected
    # The setting as its JSON lists gives the same words.
    d = setting.as_dict()
    assert way.explanation_in(lang, d["back"], d["front"], d["rule"]) == expected


@pytest.mark.parametrize("name", TRANSLATED)
@pytest.mark.parametrize("lang", LANGS)
def test_explanations_of_a_sample_of_hands_have_no_english_rank_words(name: str, lang: str) -> None:
    way = load(name)
    rng = random.Random(f"{name}-{lang}")
    rules_seen = set()
    for _ in range(4000):
        setting = way.set(rng.sample(range(53), 7), rng.choice(list(Wheel)))
        text = way.explanation_in(lang, setting.back, setting.front, setting.rule)
        assert text and "{" not in text
        assert not ENGLISH_RANK_WORDS.search(text.lower()), (setting.rule, text)
        rules_seen.add(setting.rule)
    assert len(rules_seen) > 8


@pytest.mark.parametrize("name", TRANSLATED)
def test_every_rule_of_a_translated_sheet_words_its_own_example_hand(name: str) -> None:
    """Each rule's template filled in each language on a hand that rule decides (the
    sheet's examples, plus hands dealt until every reachable rule was seen)."""
    way = load(name)
    rng = random.Random(7)
    by_rule: dict[str, Any] = {}
    for _ in range(60000):
        setting = way.set(rng.sample(range(53), 7))
        by_rule.setdefault(setting.rule, setting)
    for rule_id, setting in by_rule.items():
        for lang in LANGS:
            text = way.explanation_in(lang, setting.back, setting.front, rule_id)
            assert not ENGLISH_RANK_WORDS.search(text.lower()), (rule_id, lang, text)


def test_a_hand_description_in_each_language() -> None:
    from trainer.engine.cards import parse_cards
    from trainer.engine.hands import evaluate5
    cases = {
        "5h 4d 3c 2s Ah": {"es": "escalera al cinco (la rueda)", "ru": "стрит до пятёрки (колесо)",
                           "it": "scala al cinque (la ruota)", "pt": "sequência de cinco (a roda)"},
        "Kh Kd Kc 7s 7h": {"es": "full de reyes y sietes", "ru": "фулл-хаус: короли и семёрки",
                           "it": "full di re e sette", "pt": "full house de reis com setes"},
        "Qh Qd 9c 9s 2h": {"es": "doble pareja, reinas y nueves, kicker 2",
                           "ru": "две пары: дамы и девятки, кикер 2"},
        "Ah Jh 9h 5h 3h": {"it": "colore all'asso, A-J-9-5-3", "ru": "флеш до туза, A-J-9-5-3"},
    }
    for cards, expected in cases.items():
        value = evaluate5(parse_cards(cards, 5))
        for lang, words in expected.items():
            assert W.describe(value.category, value.ranks, lang) == words
    assert W.front_words(6, 6, "ru") == "пара шестёрок"
    assert W.front_words(13, 7, "es") == "K-7"


# --- the house-way editor keeps and checks them (editing/) -------------------------------

@pytest.mark.parametrize("name", TRANSLATED)
def test_the_export_round_trips_the_translations_as_tables(name: str) -> None:
    from trainer.engine.house_way import editing
    data = editing.preset_data(name)
    text = editing.to_toml(data)
    assert tomllib.loads(text) == data
    assert "[translations.es]" in text
    assert text.count("[sections.translations.ru]") == len(data["sections"])
    assert text.count("[sections.rules.translations.pt]") == sum(
        len(s["rules"]) for s in data["sections"])
    assert editing.validate(data) == []


def test_the_editor_refuses_bad_translations_in_words() -> None:
    from trainer.engine.house_way import editing
    data = editing.preset_data("trump-plaza")
    data["translations"]["fr"] = {"title": "Méthode"}
    data["sections"][1]["translations"]["es"]["when"] = "x"
    data["sections"][0]["rules"][0]["translations"]["es"]["explain"] = "Sin pareja: {pareja}"
    data["sections"][1]["rules"][0]["translations"]["ru"]["explain"] = "Пара: {trips}"
    found = {e.path: e.message for e in editing.validate(data)}
    assert "not a language the trainer speaks" in found["translations.fr"]
    assert "Only the title, text, resolved line and decided line" in found["sections[1].translations.es.when"]
    assert "{pareja}" in found["sections[0].rules[0].translations.es.explain"]
    # {trips} is a known field, but the one-pair hands reaching rule 2 have no trips.
    assert "one-pair hands can reach this rule" in found["sections[1].rules[0].translations.ru.explain"]
    assert len(found) == 4
    with pytest.raises(editing.EditError):
        editing.build(data)


def test_a_rule_edited_by_form_keeps_the_translations_of_unchanged_words() -> None:
    from trainer.engine.house_way import editing
    data = editing.preset_data("trump-plaza")
    old = data["sections"][2]["rules"][1]
    form = {k: v for k, v in old.items() if k != "translations"}
    form["text"] = "High + High, or Medium + High: always split."
    new = editing.replace_rule(data, 2, 1, form)["sections"][2]["rules"][1]
    for lang in LANGS:
        assert "text" not in new["translations"][lang]  # the sentence changed: English
        assert new["translations"][lang]["short"] == old["translations"][lang]["short"]
        assert new["translations"][lang]["explain"] == old["translations"][lang]["explain"]
    way = editing.build(editing.replace_rule(data, 2, 1, form), table=False)
    assert way.rule(old["id"]).text_in("es") == "High + High, or Medium + High: always split."
    assert way.rule(old["id"]).short_in("es") == old["translations"]["es"]["short"]


def test_a_changed_title_drops_its_translations() -> None:
    from trainer.engine.house_way import editing
    data = editing.preset_data("trump-plaza")
    same = editing.set_field(data, "title", data["title"])
    assert same["translations"]["es"]["title"] == data["translations"]["es"]["title"]
    changed = editing.set_field(data, "title", "Riverside house way")
    assert all("title" not in words for words in changed["translations"].values())
    assert changed["translations"]["es"]["thresholds"] == data["translations"]["es"]["thresholds"]
    assert editing.build(changed, table=False).title_in("es") == "Riverside house way"
