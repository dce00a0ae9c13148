"""The translation catalogues: extract, update, compile, the pseudo-locale and the completeness check.

Run it after marking or changing a message (docs/languages.md, "Catalogues"):

    .venv/bin/python tools/catalogues.py            # extract, merge into each language, compile
    .venv/bin/python tools/catalogues.py --check    # only report what is missing (exit 1 if any)
    .venv/bin/python tools/catalogues.py --pot      # only write translations/messages.pot

It extracts every message of the code, the templates and the page scripts (``babel.cfg``)
into ``translations/messages.pot``, merges it into ``translations/<lang>/LC_MESSAGES/
messages.po`` for each of ``LANGUAGES`` (pt, es, it, ru; creating a missing catalogue, with empty
translations and the header flag ``# X-Trainer-Complete: no``), compiles each ``.mo``
(committed beside its ``.po``), and writes the pseudo-locale's catalogue
(``PSEUDO_LOCALE``, never committed: ``translations/en_001`` is ignored by git).

The same functions serve the tests: ``tests/test_catalogues.py`` (every message translated,
no fuzzy entry, placeholders kept) and ``tests/e2e/test_pseudo_locale_browser.py`` (every
visible text on every page went through a catalogue). Nothing here is imported by the app.
"""
from __future__ import annotations

import io
import re
import sys
import tomllib
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from trainer.services.languages import DEFAULT_LANGUAGE as SOURCE_LANGUAGE
from trainer.services.languages import LANGUAGES as ALL_LANGUAGES

ROOT = Path(__file__).resolve().parents[1]
TRANSLATIONS = ROOT / "translations"
HOUSE_WAYS = ROOT / "trainer" / "engine" / "house_way" / "presets"
# The languages whose catalogues must be complete: the trainer's (services/languages.py)
# but English, the source language.
LANGUAGES = tuple(code for code in ALL_LANGUAGES if code != SOURCE_LANGUAGE)
# The pseudo-locale: every translation is the English wrapped in OPEN/CLOSE with its
# letters accented. Babel's locale data has no en_XA, so the code is en_001 ("English
# (world)"): a locale Babel knows, that no reader is offered, with English numbers.
PSEUDO_LOCALE = "en_001"
OPEN, CLOSE = "\u27e6", "\u27e7"  # ⟦ ⟧
# A catalogue whose header comment holds this line is not checked yet (being written).
INCOMPLETE_FLAG = "# X-Trainer-Complete: no"
KEYWORDS: dict[str, Any] = {
    **DEFAULT_KEYWORDS, "_l": None, "lazy_gettext": None, "lazy_ngettext": (1, 2),
    "upgettext": ((1, "c"), 2),
    # The front picker drawn in Python, a speed tweak (web/platform/fast_paths.py).
    "_translated": None,
    "lazy_pgettext": ((1, "c"), 2),
    # The engine's and services' counted sentences (trainer/engine/messages.py, Plural).
    "Nn_": (1, 2),
}
PROJECT = "Pai Gow Trainer"
# Placeholders a translation must keep: %(name)s and {name} (and bare %s, %d).
PLACEHOLDER = re.compile(r"%\(\w+\)[-#0 +]*\d*(?:\.\d+)?[sdifr]|%[sdifr]|\{\w*\}")
# What the pseudo-locale leaves as it is: placeholders, HTML tags and entities.
_KEEP = re.compile(PLACEHOLDER.pattern + r"|<[^>]*>|&#?\w+;")
_ACCENTS = dict(zip("aceinouyAEIOUCNY", "àçéîñöûýÀÉÎÖÜÇÑÝ", strict=True))


def extract(root: Path = ROOT) -> Catalog:
    """Return the catalogue of every message now in the code, templates, scripts and house-way data."""
    with open(root / "babel.cfg", encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    catalog = Catalog(project=PROJECT, fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
            str(root), method_map, options_map, keywords=KEYWORDS,
            comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


# --- the house ways' own translations (issue 19, item 2) -------------------------------

@dataclass(frozen=True)
class DataText:
    """One translatable text of a house-way file and its translations by language."""

    where: str                   # "foxwoods.toml sections[1].rules[0].text"
    original: str
    translations: dict[str, str]


def _walk(node: Any, where: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield (path, table) for every table of a TOML document."""
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            if key != "translations":
                yield from _walk(value, f"{where}.{key}" if where else key)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, f"{where}[{i}]")


def _level_fields(where: str) -> tuple[str, ...]:
    """Return what a table of a house-way file translates, by where it is (engine/house_way/words.py)."""
    from trainer.engine.house_way import words

    if where == "":
        return tuple(words.TOP_FIELDS)
    if re.fullmatch(r"sections\[\d+\]", where):
        return tuple(words.SECTION_FIELDS)
    if re.fullmatch(r"sections\[\d+\]\.rules\[\d+\]", where):
        return tuple(words.RULE_FIELDS)
    return ()


def house_way_texts(folder: Path = HOUSE_WAYS) -> list[DataText]:
    """Return every house-way text that must be translated, with the translations it has.

    Beside its English fields a table carries ``translations.<lang>`` (docs/house-ways.md,
    "Translations of a sheet"): the file's top (title, thresholds, notes), each section
    (title, text) and each rule (text, short, explain), as the engine's
    ``house_way/words.py`` lists them. A list (``notes``) is checked item by item.
    """
    found: list[DataText] = []
    for path in sorted(folder.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for where, table in _walk(data, ""):
            given = table.get("translations") or {}
            for field in _level_fields(where):
                original = table.get(field)
                items = [(field, original, None)] if isinstance(original, str) else \
                    [(f"{field}[{i}]", text, i) for i, text in enumerate(original)
                     if isinstance(text, str)] if isinstance(original, list) else []
                for name, text, index in items:
                    if not text.strip():
                        continue
                    translated: dict[str, str] = {}
                    for lang, entry in given.items():
                        value = entry.get(field) if isinstance(entry, dict) else None
                        if index is not None:
                            value = value[index] if isinstance(value, list) and \
                                index < len(value) else None
                        if isinstance(value, str):
                            translated[lang] = value
                    found.append(DataText(f"{path.name} {where + '.' if where else ''}{name}",
                                          text, translated))
    return found


# --- the completeness check ------------------------------------------------------------

def placeholders(text: str) -> set[str]:
    """Return the placeholders of a message: {"%(name)s", "{seat}"}."""
    return set(PLACEHOLDER.findall(text))


def _strings(value: Any) -> tuple[str, ...]:
    if isinstance(value, (tuple, list)):
        return tuple(value)
    return (value,) if value else ()


def problems(template: Catalog, catalog: Catalog, language: str) -> list[str]:
    """Return a sentence for each message of ``template`` that ``catalog`` leaves untranslated,
    fuzzy, or translated with a placeholder dropped or added."""
    found: list[str] = []
    for message in template:
        if not message.id:
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        own: Message | None = catalog.get(message.id, message.context)
        strings = _strings(own.string) if own is not None else ()
        if own is None or not strings or not all(strings):
            found.append(f"{language}: no translation of {msgid!r}")
            continue
        if own.fuzzy:
            found.append(f"{language}: fuzzy translation of {msgid!r}")
            continue
        ids = _strings(message.id)
        expected = placeholders(ids[-1])  # the plural's (a singular may spell out "one")
        for form in strings:
            given = placeholders(form)
            allowed = expected | placeholders(ids[0])
            missing, extra = expected - given, given - allowed
            if len(ids) > 1:
                missing = set()  # a plural form may write "one" for %(num)d
            if missing or extra:
                found.append(f"{language}: translation of {msgid!r} "
                             + ", ".join(filter(None, [
                                 f"drops {', '.join(sorted(missing))}" if missing else "",
                                 f"adds {', '.join(sorted(extra))}" if extra else ""]))
                             + f": {form!r}")
    return found


def data_problems(texts: Iterable[DataText], language: str) -> list[str]:
    """Return a sentence for each house-way text without a translation, or with its placeholders changed."""
    found: list[str] = []
    for text in texts:
        given = text.translations.get(language)
        if not given:
            found.append(f"{language}: no translation of {text.where} {text.original!r}")
        elif placeholders(given) != placeholders(text.original):
            found.append(f"{language}: translation of {text.where} {text.original!r} changes "
                         f"its placeholders: {given!r}")
    return found


def is_incomplete(po_path: Path) -> bool:
    """True when the catalogue's header comment holds ``INCOMPLETE_FLAG`` (not checked yet)."""
    for line in po_path.read_text(encoding="utf-8").splitlines():
        if line.startswith("msgid"):
            return False
        if line.strip() == INCOMPLETE_FLAG:
            return True
    return False


def po_path(language: str, folder: Path = TRANSLATIONS) -> Path:
    return folder / language / "LC_MESSAGES" / "messages.po"


def read(path: Path, language: str) -> Catalog:
    with open(path, "rb") as file:
        return read_po(file, locale=language)


# --- the pseudo-locale -------------------------------------------------------------------

def pseudo(text: str) -> str:
    """Return ``text`` wrapped in ⟦ ⟧ with its letters accented, placeholders and tags kept."""
    out, last = [], 0
    for match in _KEEP.finditer(text):
        out.append("".join(_ACCENTS.get(c, c) for c in text[last:match.start()]))
        out.append(match.group())
        last = match.end()
    out.append("".join(_ACCENTS.get(c, c) for c in text[last:]))
    return OPEN + "".join(out) + CLOSE


def unaccent(text: str) -> str:
    """Undo ``pseudo``'s accents (to read a pseudo page's words back)."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def pseudo_catalog(template: Catalog) -> Catalog:
    """Return the pseudo-locale's catalogue of ``template``: every message ``pseudo``-translated."""
    catalog = Catalog(locale=PSEUDO_LOCALE, project=PROJECT, fuzzy=False)
    for message in template:
        if not message.id:
            continue
        ids = _strings(message.id)
        string: Any = tuple(pseudo(i) for i in ids) if len(ids) > 1 else pseudo(ids[0])
        catalog.add(message.id, string, context=message.context)
    return catalog


def write_pseudo(template: Catalog, folder: Path) -> Path:
    """Write the pseudo-locale's compiled catalogue under ``folder`` (a translations directory)."""
    target = folder / PSEUDO_LOCALE / "LC_MESSAGES"
    target.mkdir(parents=True, exist_ok=True)
    catalog = pseudo_catalog(template)
    with open(target / "messages.mo", "wb") as mo:
        write_mo(mo, catalog)
    return target / "messages.mo"


# --- update ------------------------------------------------------------------------------

def _po_bytes(catalog: Catalog, **options: Any) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, **options)
    return out.getvalue()


def write_template(root: Path = ROOT) -> Catalog:
    """Extract every message into translations/messages.pot; return the catalogue."""
    template = extract(root)
    (root / "translations" / "messages.pot").write_bytes(
        _po_bytes(template, omit_header=False, sort_output=True, include_lineno=False))
    return template


def update(root: Path = ROOT) -> Catalog:
    """Extract to messages.pot, merge into each language's .po (create if missing), compile."""
    folder = root / "translations"
    template = write_template(root)
    for language in LANGUAGES:
        path = po_path(language, folder)
        if path.exists():
            catalog = read(path, language)
            catalog.update(template, no_fuzzy_matching=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=language, project=PROJECT, fuzzy=False)
            catalog.header_comment = (f"# {PROJECT}: {language} translations.\n"
                                      f"{INCOMPLETE_FLAG}")
            catalog.update(template)
        # An obsolete entry is dropped (the template no longer has it).
        catalog.obsolete.clear()
        path.write_bytes(_po_bytes(catalog, sort_output=True, include_lineno=False))
        compiled = read(path, language)  # what ``pybabel compile`` reads
        with open(path.with_suffix(".mo"), "wb") as mo:
            write_mo(mo, compiled)
    write_pseudo(template, folder)
    return template


def check(root: Path = ROOT) -> list[str]:
    """Return every problem of the catalogues not flagged incomplete."""
    template = extract(root)
    texts = house_way_texts(root / "trainer" / "engine" / "house_way" / "presets")
    found: list[str] = []
    for language in LANGUAGES:
        path = po_path(language, root / "translations")
        if not path.exists():
            found.append(f"{language}: {path.relative_to(root)} is missing")
        elif not is_incomplete(path):
            found += problems(template, read(path, language), language)
            found += data_problems(texts, language)
    return found


def main(argv: list[str]) -> int:
    if "--pot" in argv:  # the template only: the languages' files are left as they are
        print(f"{len(write_template())} messages in translations/messages.pot.")
        return 0
    if "--check" in argv:
        found = check()
        print("\n".join(found) or "Every catalogue is complete.")
        return 1 if found else 0
    template = update()
    print(f"{len(template)} messages in translations/messages.pot; "
          f"{', '.join(LANGUAGES)} merged and compiled; pseudo-locale {PSEUDO_LOCALE} written.")
    for language in LANGUAGES:
        if is_incomplete(po_path(language)):
            print(f"{language}: flagged incomplete ({INCOMPLETE_FLAG!r} in its header comment)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
