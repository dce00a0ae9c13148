"""The web's drill kinds: the one place a page asks how a kind is offered and drawn.

Every kind is the engine's (``trainer.engine.drills.DRILLS``): its home
``trainer/engine/drills/kinds/<pkg>/`` declares its ``title`` and ``blurb`` (English,
marked with ``N_``: translated here, when a page shows them, with the same msgids) and
its ``order`` in every list of drills. Its web half is one folder,
``templates/drills/kinds/<slug>/``: its templates (``question.html``, ``answer.html``,
``feedback.html``, ``attempt.html``, optionally ``summary.html``) and its script
``kind.js``, which the app serves like a static file at ``/static/kinds/<slug>.js``
(``scripts``: versioned, minified and gzipped when the app is built,
``web/platform/static_files.py``). So this module holds no kind of its own and no slug: an
entry is made from each registered kind. ``tests/web/test_drill_kinds.py`` checks
that every kind has both halves of its home and that nothing else names a slug.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from flask import Flask
from flask_babel import lazy_gettext as _l

from trainer.engine.drills import DRILLS, Drill

# The parts a kind's template folder holds, each drawn by name from the shared templates.
TEMPLATE_PARTS = ("question", "answer", "feedback", "attempt")
# What draws a kind no longer registered (its stored attempts named in words, never dumped).
UNKNOWN_KIND_TEMPLATE = "drills/_unknown_kind.html"
# The kinds' folders under ``templates/``, the script each holds, and its URL under /static/.
FOLDER = "drills/kinds"
SCRIPT = "kind.js"
SCRIPT_URL_FOLDER = "kinds"


@dataclass(frozen=True)
class DrillKind:
    """How one drill kind is offered and drawn on the web pages."""

    slug: str
    # The home's English, translated whenever it is shown (a lazy string).
    title: str
    blurb: str
    order: int

    @classmethod
    def of(cls, drill: Drill) -> DrillKind:
        """Return the entry of a registered kind, from what its home declares."""
        return cls(drill.slug, _l(drill.title), _l(drill.blurb), drill.order)

    @property
    def template_folder(self) -> str:
        """Return the folder of the kind's templates and script, under ``templates/``."""
        return f"{FOLDER}/{self.slug}/"

    def template(self, part: str) -> str:
        """Return the template of one part (question, answer, feedback, attempt)."""
        if part not in TEMPLATE_PARTS:
            raise ValueError(f"A drill kind has no {part!r} template.")
        return f"{self.template_folder}{part}.html"

    @property
    def script(self) -> str:
        """Return the kind's script as a static filename (``url_for('static', filename=...)``)."""
        return f"{SCRIPT_URL_FOLDER}/{self.slug}.js"

    @property
    def script_file(self) -> str:
        """Return the kind's script file, under ``templates/`` (its web folder's ``kind.js``)."""
        return f"{self.template_folder}{SCRIPT}"


DRILL_KINDS: dict[str, DrillKind] = {slug: DrillKind.of(drill) for slug, drill in DRILLS.items()}


def drill_kinds() -> list[DrillKind]:
    """Return the kinds the engine can run, in the order the pages list them."""
    return sorted((k for k in DRILL_KINDS.values() if k.slug in DRILLS), key=lambda k: k.order)


def slugs() -> list[str]:
    """Return the slugs of ``drill_kinds()``, in order."""
    return [k.slug for k in drill_kinds()]


def get_kind(slug: str) -> DrillKind | None:
    """Return the entry of a kind the engine can run, or None (an unknown or retired kind)."""
    kind = DRILL_KINDS.get(slug)
    return kind if kind is not None and slug in DRILLS else None


def title(slug: str) -> str:
    """Return a kind's title, or the slug itself for a kind no longer registered."""
    kind = get_kind(slug)
    return str(kind.title) if kind is not None else slug


def template(slug: str, part: str) -> str:
    """Return the template drawing ``part`` of a kind.

    A kind no longer registered (old rows keep their slug) is drawn by one fallback
    template: its stored question and answers named in words, the stored text only in
    a tooltip.
    """
    kind = get_kind(slug)
    if kind is None:
        if part not in TEMPLATE_PARTS:
            raise ValueError(f"A drill kind has no {part!r} template.")
        return UNKNOWN_KIND_TEMPLATE
    return kind.template(part)


def scripts(app: Flask) -> dict[str, Path]:
    """Return every kind's script by its static filename (``kinds/<slug>.js``): the file
    ``kind.js`` in the kind's web folder, served by ``static_files`` like the static folder's."""
    root = Path(app.root_path, app.template_folder or "templates")
    return {kind.script: root / kind.script_file for kind in drill_kinds()}
