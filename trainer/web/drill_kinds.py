"""The web's drill kinds: one entry per kind, the one place a page asks about a drill.

The engine's drill class (``trainer.engine.drills``) knows how to generate and grade;
an entry here knows how the kind is offered and drawn: its title, its blurb on the
drills page, its place in every list of drills, its templates in
``templates/drills/kinds/<slug>/`` (``question.html``, ``answer.html``,
``feedback.html``, ``attempt.html``) and its script ``static/js/kinds/<slug>.js``.
``tests/web/test_drill_kinds.py`` checks that every engine kind has an entry, the
four templates and the script, and that nothing else names a kind's slug.
"""
from __future__ import annotations

from dataclasses import dataclass

from flask_babel import lazy_gettext as _l

from trainer.engine.drills import DRILLS

# The parts a kind's template folder holds, each drawn by name from the shared templates.
TEMPLATE_PARTS = ("question", "answer", "feedback", "attempt")
# What draws a kind no longer registered (its stored attempts named in words, never dumped).
UNKNOWN_KIND_TEMPLATE = "drills/_unknown_kind.html"


@dataclass(frozen=True)
class DrillKind:
    """How one drill kind is offered and drawn on the web pages."""

    slug: str
    title: str
    blurb: str
    order: int

    @property
    def template_folder(self) -> str:
        """Return the folder of the kind's templates, under ``templates/``."""
        return f"drills/kinds/{self.slug}/"

    def template(self, part: str) -> str:
        """Return the template of one part (question, answer, feedback, attempt)."""
        if part not in TEMPLATE_PARTS:
            raise ValueError(f"A drill kind has no {part!r} template.")
        return f"{self.template_folder}{part}.html"

    @property
    def script(self) -> str:
        """Return the kind's script, under ``static/``."""
        return f"js/kinds/{self.slug}.js"


KINDS: dict[str, DrillKind] = {
    kind.slug: kind
    for kind in (
        DrillKind("house-way", _l("Set the banker's hand"),
                  _l("Pick the two front cards of the banker's seven, the house way."), 10),
        DrillKind("settlement", _l("Settle the table"),
                  _l("Mark each position win, push or lose and pay winners after commission."), 20),
        DrillKind("action", _l("Call the action"),
                  _l("Count the dice from the banker and find who gets the first pile."), 30),
        DrillKind("hand-reading", _l("Read the hand"),
                  _l("Name a five-card hand, or say which of two hands wins."), 40),
        DrillKind("foul-check", _l("Spot the foul"),
                  _l("Say whether a player's set hand is legal or fouled."), 50),
        DrillKind("round", _l("Run a round"),
                  _l("A whole round in order: call the action, set the banker's hand, "
                     "settle every seat."), 60),
        DrillKind("bonus", _l("Pay the bonus"),
                  _l("Name the bonus hand of seven cards, answer \"does this qualify?\" "
                     "and pay the bonus bet by the pay table."), 70),
    )
}


def drill_kinds() -> list[DrillKind]:
    """Return the kinds the engine can run, in the order the pages list them."""
    return sorted((k for k in KINDS.values() if k.slug in DRILLS), key=lambda k: k.order)


def slugs() -> list[str]:
    """Return the slugs of ``drill_kinds()``, in order."""
    return [k.slug for k in drill_kinds()]


def get_kind(slug: str) -> DrillKind | None:
    """Return the entry of a kind the engine can run, or None (an unknown or retired kind)."""
    kind = KINDS.get(slug)
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
