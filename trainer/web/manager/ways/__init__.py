"""The manager's house-way editor (issue 18, items 3 to 6): copy, import, edit, prove, publish.

A draft is a custom house way's data dict (``services.house_ways`` stores it; it is
saved only when the engine's ``editing.validate`` finds nothing wrong). Every change
is an engine draft operation (``editing.move_rule``, ``insert_rule``...) on a copy;
errors come back as ``FieldError`` paths, shown beside the field they name, and the
stored draft is left as it was. The check, what it changes and the edge change are
background jobs (``services.jobs``, kinds in ``services.house_way_jobs``): their pages
show the latest job for exactly this draft's rules, with a progress bar that polls
``job_state`` (``static/js/job.js``) and, without script, a Refresh link.

Only managers and admins reach these pages (403 for everyone else, as the manager's
other pages). A draft that does not exist answers 404.

One blueprint, ``manager_ways`` (``blueprint.py``), its views by job: ``new_ways`` (copy,
import), ``editor`` (the way's words, moving and deleting rules, export), ``rule_page``
(a rule's form), ``proof_pages`` (check, what it changes, edge, a job's progress) and
``versions`` (publish, a version, roll-out); ``drafts`` and ``job_views`` are what they
share. Importing this package registers every view on ``bp``.
"""
from __future__ import annotations

from . import editor, new_ways, proof_pages, rule_page, versions
from .blueprint import bp

__all__ = ["bp", "editor", "new_ways", "proof_pages", "rule_page", "versions"]
