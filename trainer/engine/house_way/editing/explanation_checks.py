"""A rule's explanation template checked, and the ones that cannot be used found and repaired.

``validate_explain`` is the editor's check of one template (``explanations``: plain
``{fields}`` only); ``explanation_problems`` and ``repair_explanations`` (issue 24) find
and replace, in a stored draft or version, every template that cannot be used.
"""
from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from ...messages import N_, Message
from .. import explanations as X
from .. import words as W
from .errors import Errors, FieldError
from .values import text_error


def validate_explain(text: Any, path: str, errors: Errors, rule: str, lang: str) -> list[str]:
    """Check an explanation template (``explanations``: plain ``{fields}`` only, at most 300
    characters and 20 of them); return the fields it uses. ``rule`` (its number) and
    ``lang`` name it in the problems issue 24 added."""
    if not isinstance(text, str) or not text.strip():
        err = text_error(text, Message(N_("The explanation")), True)
        if err:
            errors.add(path, err)
        return []
    problem = X.problem(text)
    if problem is not None:
        # Unknown fields and unpaired braces were refused before issue 24, in these words.
        errors.add(path, problem.said if problem.code in (X.UNKNOWN, X.BRACES)
                   else X.named(problem, rule, lang))
        return []
    return list(X.parse(text).fields)


def rule_number(rule: Any, r: int) -> str:
    """Return a rule's number as its problems name it (its place in the section without one)."""
    number = rule.get("number") if isinstance(rule, Mapping) else None
    return number.strip() if isinstance(number, str) and number.strip() else str(r + 1)


def explanation_problems(data: Any) -> list[FieldError]:
    """Return every explanation of a way's data that cannot be used (issue 24), English and
    translations, each naming its rule and language: what a stored draft or version made
    before the rule (or written past the editor) may hold, shown to its manager as needing
    repair. Never raises."""
    errors = Errors()
    sections = data.get("sections") if isinstance(data, Mapping) else None
    for s, section in enumerate(sections if isinstance(sections, list) else []):
        rules = section.get("rules") if isinstance(section, Mapping) else None
        for r, rule in enumerate(rules if isinstance(rules, list) else []):
            if not isinstance(rule, Mapping):
                continue
            number = rule_number(rule, r)
            path = f"sections[{s}].rules[{r}]"
            texts = [(f"{path}.explain", "en", rule.get("explain"))]
            translations = rule.get("translations")
            for lang, words in (translations.items() if isinstance(translations, Mapping)
                                else ()):
                if isinstance(words, Mapping) and "explain" in words:
                    texts.append((f"{path}.translations.{lang}.explain", str(lang),
                                  words["explain"]))
            for where, lang, text in texts:
                problem = X.problem(text)
                if problem is not None:
                    errors.add(where, X.named(problem, number, lang))
    return list(errors)


def repair_explanations(data: Mapping[str, Any]) -> dict[str, Any]:
    """Return a copy of a way's data with every explanation that cannot be used replaced by
    the generated sentence's template in its language (what its readers are shown instead),
    for the manager to reword; the rest unchanged."""
    new = copy.deepcopy(dict(data))
    for problem in explanation_problems(new):
        place = _EXPLAIN_PATH.fullmatch(problem.path)
        if place is None:
            continue
        rule = new["sections"][int(place[1])]["rules"][int(place[2])]
        if place[3]:
            rule["translations"][place[3]]["explain"] = W.generated_template(place[3])
        else:
            rule["explain"] = W.generated_template(None)
    return new


_EXPLAIN_PATH = re.compile(
    r"sections\[(\d+)\]\.rules\[(\d+)\]\.(?:translations\.([a-z]+)\.)?explain")
