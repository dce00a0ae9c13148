"""The printed house-way sheet: drawn from the same house-way data the grader uses, so
the two can never disagree, and printed to PDF by headless Chromium from that same HTML.

The reference pages show it and serve its PDF (``reference/pages.py``); the PDF job
(``pdf_jobs.py``) prints it, for a reader or for the system when a supervisor changes a
group's settings or a manager publishes a version. So it lies here, beneath the three
areas. A house way is a *ref*: a preset or a manager's published custom version
(``slug@n``), both found through ``services/house_ways.py``. Also here: what changes a
sheet's PDF (its key, ``sheet_pdf_key``) and its file name.
"""
from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from flask import abort, current_app, render_template, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from trainer.engine.hands import Wheel
from trainer.engine.house_way import HouseWay, HouseWayError
from trainer.engine.house_way.kinds import rank_char
from trainer.services import house_ways, pdf_cache, processes, reference_examples
from trainer.services.house_ways import HouseWayChoice
from trainer.services.reference_examples import EXAMPLE_WHEEL, way_examples
from trainer.web.platform import languages, pay_tables
from trainer.web.platform.practice import Practisable
from trainer.web.words.names import house_way_name, way_label

CHROMIUM = "/usr/bin/chromium"
PDF_TIMEOUT_SECONDS = 60
PAPER_SIZES = {"letter": "letter", "a4": "A4"}
WHEEL_WORDS = {
    Wheel.SECOND_HIGHEST: _l("A-2-3-4-5 is the second-highest straight"),
    Wheel.LOWEST: _l("A-2-3-4-5 is the lowest straight"),
}


class PdfUnavailable(RuntimeError):
    """Chromium is missing or failed to print the page."""


def way_or_none(ref: str) -> HouseWay | None:
    """Return a preset or published custom version by ref (superseded ones too), else None."""
    try:
        return house_ways.get_way(ref)
    except (ValueError, HouseWayError):
        return None


def get_house_way_or_404(ref: str) -> HouseWay:
    """Return a preset or published custom version by ref, or 404 (a draft has no ref)."""
    way = way_or_none(ref)
    if way is None:
        abort(404)
    return way


def offered_ways(current: str | None = None) -> list[HouseWayChoice]:
    """Return the house ways a page offers: presets and current versions, and ``current``.

    A superseded version is offered only when it is the one in use (still readable).
    """
    return [c for c in house_ways.choices() if not c.superseded or c.ref == current]


def choice_of(ref: str) -> HouseWayChoice | None:
    """Return the published facts of a house way: version, date, note (None: unknown)."""
    return next((c for c in house_ways.choices() if c.ref == ref), None)


def rank_groups_text(way: HouseWay) -> str:
    """Describe a sheet's rank groups in one line ("Low 2-6 · Medium 7-T · ...")."""
    def word(rank: int) -> str:
        return "10" if rank == 10 else rank_char(rank)

    # The usual groups' names in words (a custom way's own names are shown as written).
    names = {"low": _("Low"), "medium": _("Medium"), "high": _("High"), "aces": _("Aces")}
    parts = []
    for name, (low, high) in way.rank_groups.items():
        span = word(low) if low == high else f"{word(low)}-{word(high)}"
        parts.append(_("%(group)s %(ranks)s", group=names.get(name, name.title()), ranks=span))
    return " · ".join(parts)


def _static_url(filename: str) -> str:
    """Return the URL of a static file for a page served to a browser."""
    return url_for("static", filename=filename)


def _static_dir() -> Path:
    """Return the app's folder of static files (Flask's default, which create_app keeps)."""
    folder = current_app.static_folder
    if folder is None:
        raise RuntimeError("The app has no folder of static files.")
    return Path(folder)


def _static_file_url(filename: str) -> str:
    """Return the file:// URL of a static file, for a page Chromium prints from disk."""
    return (_static_dir() / filename).as_uri()


def render_sheet(way: HouseWay, profile: str, pdf_paper: str | None = None,
                 choice: HouseWayChoice | None = None,
                 group_version: HouseWayChoice | None = None,
                 practise: Practisable | None = None) -> str:
    """Render a house-way sheet: the web page, or with ``pdf_paper`` the page Chromium prints.

    ``choice`` carries a custom way's version and publication date, printed on it;
    ``profile`` the table rules whose side-bet charts it prints (the reader's group's);
    ``group_version`` the other version of this way the reader's group trains on (a note
    on the web page links to it). A casino's own way prints only what the casino wrote,
    its name, version and date: never a source or a note (docs/house-ways.md, "Sheets").
    ``practise``: the reader's rules to practise one by one ("Practise this rule" beside
    each rule of their group's way; issue 30), never on paper.
    """
    return render_template(
        "reference/sheet.html",
        way=way,
        choice=choice,
        custom=not house_ways.is_preset(way.name),
        group_version=group_version,
        rule_examples=way_examples(way),
        rank_groups=rank_groups_text(way),
        # The sheet's own words in the reader's language where it has them (issue 19).
        lang=languages.language(),
        # The sheets to switch to, in words: a preset by its casino, a custom way with its
        # version (never a preset's file name such as trump-plaza). A casino's own sheet
        # offers the casinos' own ways only: no other casino's name is printed on it.
        presets=[(c.ref, house_way_name(c.ref) if c.preset else way_label(c))
                 for c in offered_ways(way.name)
                 if not (c.preset and not house_ways.is_preset(way.name))],
        wheel_words=WHEEL_WORDS[Wheel(EXAMPLE_WHEEL)],
        pdf_paper=pdf_paper,
        static_url=_static_file_url if pdf_paper else _static_url,
        # The group's side bets' pay charts (none for a profile without side bets).
        charts=pay_tables.pay_charts(profile),
        practise=None if pdf_paper else practise,
    )


def print_to_pdf(html: str) -> bytes:
    """Print an HTML page to PDF with headless Chromium; raise PdfUnavailable if it cannot."""
    chromium = current_app.config.get("CHROMIUM_PATH", CHROMIUM)
    if not Path(chromium).is_file():
        raise PdfUnavailable(f"Chromium is not installed at {chromium}.")
    with tempfile.TemporaryDirectory(prefix="paigow-pdf-") as tmp:
        page = Path(tmp) / "sheet.html"
        page.write_text(html, encoding="utf-8")
        out = Path(tmp) / "sheet.pdf"
        command = [
            chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--no-first-run", "--no-pdf-header-footer", f"--user-data-dir={Path(tmp) / 'profile'}",
            f"--print-to-pdf={out}", page.as_uri(),
        ]
        try:
            # Chromium dies with the process starting it (a job worker: issue 25).
            subprocess.run(command, capture_output=True, timeout=PDF_TIMEOUT_SECONDS,
                           check=False, stdin=subprocess.DEVNULL,
                           preexec_fn=processes.child_preexec())
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise PdfUnavailable(f"Chromium could not print the sheet ({exc}).") from None
        if not out.is_file() or out.stat().st_size == 0:
            raise PdfUnavailable("Chromium did not produce a PDF.")
        return out.read_bytes()


def sheet_template_version() -> str:
    """Hash what prints a sheet besides its data: the templates, their stylesheets, this code.

    Worked out once per process: the files do not change under a running app, except
    in debug mode, where templates reload and it is worked out on every request.
    """
    version: str | None = current_app.extensions.get("sheet_template_version")
    if version is None or current_app.debug:
        version = pdf_cache.template_version(
            current_app.jinja_env, "reference/sheet.html",
            _static_dir(),
            sources=(Path(__file__), Path(reference_examples.__file__)))
        current_app.extensions["sheet_template_version"] = version
    return version


def sheet_pdf_key(way: HouseWay, paper: str, choice: HouseWayChoice | None = None, *,
                  profile: str, language: str, zone: str) -> dict[str, object]:
    """Return everything that changes a sheet's PDF, the key of its stored PDF.

    The way's data digest (a custom version's data, or a preset's file) and, for a
    custom way, the version and publication date printed on it (in ``zone``); the
    paper, ``language``, the installation's currency and card letters, and the pay
    tables of ``profile``.
    """
    return {
        "preset": way.name,
        "data": way.digest,
        # A custom way's version line: its number, date (in the reader's time zone), state.
        "version": None if choice is None or choice.version is None else
        [choice.version, str(choice.published_at), choice.superseded, zone],
        "paper": paper,
        "language": language,
        # The installation's currency (the pay charts' amounts) and the cards' letters.
        "currency": languages.installation().currency,
        "card_letters": languages.installation().card_letters,
        # The group's pay tables it prints (their data, so an edited table prints anew).
        "pay_tables": pay_tables.tables_digest(profile),
        "templates": sheet_template_version(),
    }


def file_stem(ref: str) -> str:
    """Return a house way's ref as a file-name part (``riverside@2`` -> ``riverside-v2``)."""
    return ref.replace("@", "-v")


def sheet_pdf_stem(way: HouseWay, paper: str, key: dict[str, object], profile: str) -> str:
    """Name a sheet's PDF: way, paper, language, and the profile when it prints side bets
    (kept apart per profile, so groups do not evict each other's)."""
    return (f"{file_stem(way.name)}-{paper}-{key['language']}"
            + (f"-{profile}" if key["pay_tables"] else ""))
