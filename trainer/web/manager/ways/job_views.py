"""The check, what it changes and the edge as background jobs: their keys, starting one,
and what a page shows of the latest (``job_view``); the ways and table rules to compare with."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import (
    current_app,
    flash,
)
from flask_babel import gettext as _

from trainer.engine.house_way.interpreter import rules_digest
from trainer.engine.profiles import profile_names
from trainer.services import house_way_jobs, jobs
from trainer.services import house_ways as catalogue
from trainer.services import profiles as profile_service
from trainer.web.words.engine_words import message_words
from trainer.web.words.names import profile_name, way_label

from .blueprint import SEED


def job_runner() -> jobs.Runner:
    runner: jobs.Runner = current_app.extensions[jobs.EXTENSION]
    return runner


def start_job(start: Callable[[], Any]) -> None:
    """Queue a job for a worker; a person's limit reached is said on the page (issue 25)."""
    try:
        start()
    except jobs.JobRefused as refused:
        flash(message_words(refused.message), "error")


def check_key(data: Mapping[str, Any]) -> str:
    return house_way_jobs.check_key(rules_digest(data))


def diff_key(data: Mapping[str, Any], reference: str) -> str:
    return house_way_jobs.diff_key(rules_digest(data), reference)


def edge_key(data: Mapping[str, Any], reference: str, profile: str, hands: int) -> str:
    return house_way_jobs.simulate_key(rules_digest(data), reference, reference, profile, hands,
                                       SEED)


def job_view(job: Any) -> dict[str, Any] | None:
    """Return what a page shows of a job: status, percent, message, result, error."""
    if job is None:
        return None
    state = jobs.state(job, job_runner().stale_seconds)
    error = state.error or ""
    if state.stale or error == jobs.WORKER_STOPPED:
        error = _("The worker stopped before it finished.")
    elif state.said is not None:  # a kind's refusal, in the reader's language
        error = message_words(state.said)
    return {"id": job.id, "status": state.status, "percent": int(state.progress * 100),
            "message": stage_words(state.message or ""), "result": state.result, "error": error,
            "done": not state.active}


def stage_words(message: str) -> str:
    """Say a running job's stage (``house_way_jobs.STAGE_*``, stored as a bare name) in words."""
    words = {house_way_jobs.STAGE_CHECKING: _("Setting every hand by the draft"),
             house_way_jobs.STAGE_TABLES: _("Preparing the tables of every hand"),
             house_way_jobs.STAGE_COMPARING: _("Comparing the two ways"),
             house_way_jobs.STAGE_DEALING: _("Dealing the hands")}
    return words.get(message, message)


def check_summary(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """Return the latest check of exactly this draft's rules (a job view), or None."""
    return job_view(jobs.latest(check_key(data)))


def reference_choices(row: Any) -> list[tuple[str, str]]:
    """Return every way a draft may be compared with: the base first, then the rest on offer."""
    choices = []
    for choice in catalogue.choices():
        choices.append((str(choice.ref), way_label(choice)))
    base = str(getattr(row, "base_ref", "") or "")
    choices.sort(key=lambda c: c[0] != base)
    return choices


def profile_choices() -> list[tuple[str, str]]:
    names = list(profile_names())
    names += [n for n in profile_service.offered_names() if n not in names]
    return [(n, profile_name(n)) for n in names]
