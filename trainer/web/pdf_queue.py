"""Queueing a printed house-way sheet: the ``pdf`` job kind's name, its key, and the queueing.

What a request does when a PDF is not printed yet (``reference.sheet_pdf``): queue the
``pdf`` job (``queue_sheet``) in the workers' *short* lane, keyed ``pdf:<digest of
everything printed>`` so one PDF is printed once however many ask. What the worker does
with the job (render the sheet, print it, store it) and the PDFs the system queues are
``web/pdf_jobs.py``, which renders through ``web/reference.py``; this module is below
both, so the reference pages queue a print without importing the job that renders them
(docs/architecture.md: no import cycle, not even inside a function).
"""
from __future__ import annotations

from typing import Any

from flask import current_app

from trainer.extensions import db
from trainer.services import jobs, pdf_cache
from trainer.services.jobs import Runner

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
