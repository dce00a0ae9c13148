"""The ``pdf`` job kind (issue 25): a house-way sheet printed by a job worker, never in a request.

A request for a PDF not printed yet queues a ``pdf`` job (``queue_sheet``) in the
workers' *short* lane, so it never waits behind a check or a simulation; the key is
``pdf:<digest of everything printed>``, so one PDF is printed once however many ask
(the unique ``active_key``), and a person has at most one PDF waiting
(``jobs.SHORT_QUEUED_PER_USER``). The worker renders the sheet with the app (its
context entered by ``trainer worker``) in the asker's language, time zone and group's
table rules, prints it with Chromium and stores it in the database
(``services/pdf_cache.py``) in the transaction that marks the job done.

The system queues PDFs too (``prepare_group``, ``prepare_way``; config ``PDF_PREPARE``,
on by default, off in the tests, whose inline runner would print them in the request):
a group's house way in the group's languages when its settings change, and a newly
published version in the languages of the groups on that way. Those jobs belong to no one: they count against
no one's limit, and a second request for the same PDF gets the same job.

This module is in the web layer: the kind renders a page (templates, translations),
the printed sheet of ``platform/sheets.py``. The reference pages queue a reader's PDF
(``queue_sheet``), the supervisor's settings and the manager's publishing the system's.
"""
from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from flask import current_app, g
from flask_babel import force_locale
from sqlalchemy import select

from trainer.engine.profiles import DEFAULT_PROFILE
from trainer.extensions import db
from trainer.models import Group, Membership, User
from trainer.services import jobs, pdf_cache, profiles
from trainer.services import languages as language_settings
from trainer.services import time_zones as zone_settings
from trainer.services.jobs import JobContext, Runner
from trainer.web.platform import sheets

PDF = "pdf"


def pdf_key(digest: str) -> str:
    """Return the job key of the PDF whose key hashes to ``digest``."""
    return f"{PDF}:{digest}"


def _runner() -> Runner:
    runner: Runner = current_app.extensions[jobs.EXTENSION]
    return runner


def queue_sheet(ref: str, paper: str, profile: str, key: dict[str, Any], stem: str,
                user_id: int | None) -> Any:
    """Queue (or find) the job printing the sheet of ``ref`` whose PDF key is ``key``.

    ``jobs.JobRefused`` when ``user_id`` already has a PDF waiting. A job done whose
    PDF is no longer stored (a newer one of the same stem replaced it) runs again.
    """
    digest = pdf_cache.key_digest(key)
    params: dict[str, Any] = {
        "ref": ref, "paper": paper, "profile": profile, "language": key["language"],
        "zone": key["version"][3] if key.get("version") else "UTC",
        "stem": stem, "digest": digest}
    job = jobs.submit(PDF, pdf_key(digest), params, user_id, runner=_runner())
    if job.status == jobs.DONE and pdf_cache.stored(db.session, digest) is None:
        params["reprint_of"] = job.id  # the inputs changed: what it printed is gone
        job = jobs.submit(PDF, pdf_key(digest), params, user_id, runner=_runner())
    return job


def run_pdf(ctx: JobContext) -> dict[str, Any]:
    """The ``pdf`` kind: render the sheet as its asker reads it, print it, store it."""
    p = ctx.params
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    # A context of its own (its own ``g`` and session), whether a worker or a request runs it.
    with app.app_context(), app.test_request_context("/"), force_locale(str(p["language"])):
        g.reader_zone = ZoneInfo(str(p["zone"])) if p.get("zone") not in (None, "UTC") else None
        way = sheets.get_house_way_or_404(str(p["ref"]))
        paper = str(p["paper"])
        html = sheets.render_sheet(way, str(p["profile"]), pdf_paper=sheets.PAPER_SIZES[paper],
                                   choice=sheets.choice_of(str(p["ref"])))
        try:
            data = sheets.print_to_pdf(html)
        except sheets.PdfUnavailable as exc:
            raise jobs.JobFailed(str(exc)) from None
    pdf_cache.store(ctx.session, str(p["stem"]), str(p["digest"]), data)
    return {"stem": p["stem"], "digest": p["digest"], "bytes": len(data)}


def register_kinds() -> None:
    """Register the ``pdf`` kind in the short lane (the app factory does, at start)."""
    jobs.register(PDF, run_pdf, jobs.SHORT)


# -- the PDFs the system prepares -----------------------------------------------------------


def group_languages(group: Group) -> list[str]:
    """Return the languages a group reads: the installation's (or English) and its members' own."""
    room = language_settings.installation().language or language_settings.DEFAULT_LANGUAGE
    own = db.session.execute(
        select(User.language).join(Membership, Membership.user_id == User.id).where(
            Membership.group_id == group.id, User.language.is_not(None))).scalars().all()
    found = [room, *(language_settings.language_or_none(code) for code in own)]
    return list(dict.fromkeys(code for code in found if code))


def _queue_system(ref: str, profile: str, languages: list[str]) -> list[Any]:
    """Queue the PDFs of ``ref`` in ``languages``, on every paper, as the system's jobs."""
    way = sheets.way_or_none(ref)
    if way is None:
        return []
    choice = sheets.choice_of(ref)
    zone = zone_settings.installation_zone() or "UTC"
    queued = []
    for language in languages:
        for paper in sheets.PAPER_SIZES:
            key = sheets.sheet_pdf_key(way, paper, choice, profile=profile, language=language,
                                          zone=zone)
            stem = sheets.sheet_pdf_stem(way, paper, key, profile)
            if pdf_cache.stored(db.session, pdf_cache.key_digest(key)) is None:
                queued.append(queue_sheet(way.name, paper, profile, key, stem, user_id=None))
    return queued


def prepare_group(group: Group) -> list[Any]:
    """Queue the PDFs of a group's house way in the group's languages (after a settings change)."""
    if not current_app.config.get("PDF_PREPARE", True):
        return []
    profile = group.profile if profiles.known(group.profile) else DEFAULT_PROFILE
    return _queue_system(group.house_way, profile, group_languages(group))


def prepare_way(ref: str, slug: str) -> list[Any]:
    """Queue the PDFs of a newly published version ``ref`` for the groups on any version of
    ``slug`` (in their languages and table rules), or in the installation's language."""
    if not current_app.config.get("PDF_PREPARE", True):
        return []
    groups = db.session.execute(
        select(Group).where((Group.house_way == slug) | Group.house_way.startswith(f"{slug}@"))
    ).scalars().all()
    if not groups:
        room = language_settings.installation().language or language_settings.DEFAULT_LANGUAGE
        return _queue_system(ref, DEFAULT_PROFILE, [room])
    queued = []
    for group in groups:
        profile = group.profile if profiles.known(group.profile) else DEFAULT_PROFILE
        queued += _queue_system(ref, profile, group_languages(group))
    return queued
