"""A house way's own words in the reader's language (issue 19, item 2).

A sheet's file may carry translations of its section titles, rule sentences, short
names and explanations (docs/house-ways.md, "Translations of a sheet"). The engine
resolves them once per way and language (``Rule.text_in(lang)`` and so on); this
module picks the page's language and puts them where the English original was: the
answer's feedback (the sheet's sentence and the explanation) and the rule names.
The rule number is always kept, so a trainee finds the line on the casino's paper sheet.
Where a sheet has no translation, the English original shows, as before.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trainer.engine.hands import Wheel
from trainer.engine.house_way import HouseWay, HouseWayError, load, preset_names
from trainer.engine.messages import Joined, Message
from trainer.web.platform import languages
from trainer.web.words import engine_words, names


def language() -> str:
    """Return the page's language code ("en" outside a request)."""
    try:
        return languages.language()
    except RuntimeError:  # no app or request context: the original words
        return "en"


def way_of(ref: object) -> HouseWay | None:
    """Return a preset or published custom version by ref (loaded once a process), or None."""
    key = str(ref or "")
    if key in preset_names():
        return load(key)
    return names._custom_way(key)


def _get(fb: Any, key: str) -> Any:
    """Read a feedback's field: a ``Feedback``, or a stored one as a dict."""
    return fb.get(key) if isinstance(fb, Mapping) else getattr(fb, key, None)


def sheet_sentence_words(fb: Any, lang: str | None = None) -> str:
    """Return the feedback's sheet sentence ("Trump Plaza (Atlantic City) 3.2: ...") with the
    rule's sentence in the reader's language; the casino's name and the number stay."""
    why = str(_get(fb, "why") or "")
    lang = lang or language()
    sheet_rule, house_way = _get(fb, "sheet_rule"), _get(fb, "house_way")
    if lang == "en" or not sheet_rule or not house_way:
        return why
    rule = names.house_rule(str(sheet_rule), str(house_way))
    if rule is None or not why.endswith(rule.text):
        return why
    return why[:len(why) - len(rule.text)] + rule.text_in(lang)


def explanation_words(grade: Mapping[str, Any], fb: Any, lang: str | None = None) -> str:
    """Return a graded setting's explanation in the reader's language.

    Only a house way's setting (``grade.correct_answer`` is a setting's ``as_dict``:
    back, front, rule, explanation) is reworded: its English explanation, which the
    grade's explanation starts with, is replaced by the translation; anything after it
    (a note) stays. Everything else, or a sheet without that translation, is unchanged.
    """
    text = str(grade.get("explanation", "") or "")
    lang = lang or language()
    key = grade.get("correct_answer")
    if lang == "en" or fb is None or not _get(fb, "house_way") or not isinstance(key, Mapping):
        return text
    english = str(key.get("explanation") or "")
    rule_id = str(key.get("rule") or "")
    if not english or not rule_id or not text.startswith(english):
        return text
    way = way_of(_get(fb, "house_way"))
    if way is None:
        return text
    try:
        if lang not in way.rule(rule_id).words:
            return text
        back, front = list(key["back"]), list(key["front"])
        # The wheel setting only words a joker's straight: find the one that graded it.
        for wheel in (Wheel.SECOND_HIGHEST, Wheel.LOWEST):
            if way.explanation_in("en", back, front, rule_id, wheel) == english:
                return way.explanation_in(lang, back, front, rule_id, wheel) \
                    + text[len(english):]
    except (KeyError, TypeError, ValueError, HouseWayError):
        pass
    return text


def worked_out_words(grade: Mapping[str, Any], fb: Any, worked: Any) -> str:
    """Return "How it is worked out" in the reader's language.

    English text is reworded by ``explanation_words``; the engine's sentences (a ``Message`` or a
    ``Joined`` of them) are said by ``engine_words.message_words``, with a house way's explanation
    inside them (the sheet's own text, ``grade.correct_answer["explanation"]``, or its
    ``["reset"]["explanation"]``) put in the reader's language from the sheet's data first.
    """
    if isinstance(worked, str):
        return explanation_words(grade, fb)
    key = grade.get("correct_answer")
    # The setting's own (house-way drill, round's banker step), or the foul check's reset.
    for setting in (key, key.get("reset")) if isinstance(key, Mapping) else ():
        english = str(setting.get("explanation") or "") if isinstance(setting, Mapping) else ""
        if english:
            translated = explanation_words({"explanation": english, "correct_answer": setting}, fb)
            if translated != english:
                worked = _put_in(worked, english, translated)
    return engine_words.message_words(worked)


def _put_in(value: Any, english: str, translated: str) -> Any:
    """Return ``value`` with each value equal to ``english`` inside its messages replaced."""
    if isinstance(value, Message):
        return Message(value.template, **{name: translated if inner == english
                                          else _put_in(inner, english, translated)
                                          for name, inner in value.params.items()})
    if isinstance(value, Joined):
        return Joined((_put_in(item, english, translated) for item in value.items),
                      value.separator)
    return value
