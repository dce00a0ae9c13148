"""The installation's house ways and table-rules profiles: what a manager owns.

The one owner of "the presets plus the published custom versions" (issue 18, item 6):
every page, drill, exam and command that offers or loads a house way asks this package.
The engine owns the presets (``engine/house_way``); a manager's own ways are stored
here (``models/house_way.py``).

A house way is named by a *ref*: a preset's name (``trump-plaza``) or a published
version of a custom way, ``<slug>@<n>`` (``riverside@2``). Decisions
(docs/house-ways.md, "Versions"):

- A custom way has one draft, which only its editors see; publishing freezes the
  draft as the next version number (who, when, a note, the check report). Drafts
  never reach trainees: only presets and published versions are refs.
- Publishing is refused unless the newest check job of the draft's exact rule data
  (``check:<rules digest>``, ``services/jobs``) finished with 0 fouled and 0
  undecided hands.
- Every published version stays offered and readable; a later version *supersedes*
  an earlier one (shown so), but a group on version 1 stays on it until a
  supervisor switches it.
- A session, exam or game hand records the ref and ``pin(ref)``, the rules digest it
  grades by. For a preset the rule data is stored once (a *snapshot*, keyed by
  ref and digest), so its attempts re-grade exactly after the preset file changes;
  a version is frozen, so its digest finds it.
- The engine knows the presets only and never calls up (issue 28): this package resolves
  a ref (``get_way``, ``exact``: a preset, a preset's snapshot, a published version) and
  hands the house way itself down, in a drill's context or a game's hand. What it finds
  is kept for the process per (ref, rules digest); the app factory empties that memory
  (``forget``) for a new app, as a new app may have a new database.

This package, one job each (import the names from here):

* ``refs``: ``parse_ref``, ``is_preset``, ``SLUG`` and ``REF``: what a ref names;
* ``resolving``: ``exact``, ``get_way``, ``title_of``, ``pin``, ``is_offered``,
  ``check_choice``, ``resolve`` and ``forget``: a ref found (and kept for the process);
* ``listing``: ``choices`` (what a group may choose), ``latest_ref``, and the manager's
  lists, ``house_ways`` and ``profiles``;
* ``drafts``: ``create_draft``, ``get_draft``, ``save_draft``, ``slug_problem`` and
  ``without_provenance``: a custom way's draft;
* ``publishing``: ``publish``, ``publish_refusal``, ``check_report``, ``versions``:
  a draft frozen as the next version once its check is clean;
* ``tables``: ``store_tables``, ``load_tables``: the class tables of a checked way;
* ``entries``: ``WayError``, ``PublishRefused``, ``HouseWayEntry``, ``HouseWayChoice``.
"""
from __future__ import annotations

from .drafts import (
    PROVENANCE_FIELDS,
    READING_NOTES,
    create_draft,
    get_draft,
    save_draft,
    slug_problem,
    without_provenance,
)
from .entries import HouseWayChoice, HouseWayEntry, PublishRefused, WayError
from .listing import choices, house_ways, latest_ref, profiles
from .publishing import NOTE_LENGTH, check_report, publish, publish_refusal, versions
from .refs import REF, SLUG, is_preset, parse_ref
from .resolving import check_choice, exact, forget, get_way, is_offered, pin, resolve, title_of
from .tables import load_tables, store_tables

__all__ = [
    "NOTE_LENGTH", "PROVENANCE_FIELDS", "READING_NOTES", "REF", "SLUG", "HouseWayChoice",
    "HouseWayEntry", "PublishRefused", "WayError", "check_choice", "check_report", "choices",
    "create_draft", "exact", "forget", "get_draft", "get_way", "house_ways", "is_offered",
    "is_preset", "latest_ref", "load_tables", "parse_ref", "pin", "profiles", "publish",
    "publish_refusal", "resolve", "save_draft", "slug_problem", "store_tables", "title_of",
    "versions", "without_provenance",
]
