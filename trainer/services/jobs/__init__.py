"""Background jobs: long work runs off the request, its progress and result in the database.

A *job kind* is a function registered by name and lane (``register``; ``short`` for
PDFs, ``long`` for the rest); it receives a ``JobContext`` (its parameters, a database
session of its own and a ``Progress`` to report to) and returns a JSON-able result.
``house_way_jobs.py`` registers the house-way kinds (check, diff, simulate,
class_table), the web's ``pdf_jobs`` the ``pdf`` kind.

Starting (``submit``) is exactly once per piece of work: the row's ``active_key``
is unique and holds the job's key while it is queued or running, so two managers
pressing Check at the same moment get the same job (the second insert fails on the
constraint and is answered with the first's row). A finished ``done`` job of the
same key run on the same parameters is answered as it is, never run again. A person's
jobs are limited (``JobRefused``, in words): four long jobs running or waiting, one
PDF waiting; the system's own jobs (``user_id`` None) count against no one.

The runner (``Runner``, built by the app factory from the config and kept in
``app.extensions[EXTENSION]``) is either

- ``worker`` (the default): ``submit`` only queues the row; a ``trainer worker``
  process (``services/job_worker.py``) claims it, runs ``execute`` with a heartbeat
  thread writing the progress (at most once a ``beat_seconds``) and the heartbeat (its
  lease, at least every ``HEARTBEAT_EVERY`` seconds), then writes the result and
  ``done`` (or the error and ``failed``) in one transaction, together with whatever
  the kind added to its session (the class tables of a check, a PDF);
- ``inline`` (tests): the same claim and ``execute`` in the calling thread before
  ``submit`` returns.

A running job whose heartbeat is older than ``JOB_STALE_SECONDS`` (30) lost its
worker: a worker reaps it (queued again once, then failed "the worker stopped"), and
until then ``state`` shows it failed and ``restart`` (or a new ``submit`` of its key)
marks it so, releases its key and starts it again on a new row. A worker that finds
its row taken from it discards its work and writes nothing. A queued job has no
heartbeat of its own: it is shown stopped only when it is older than the limit and no
running job anywhere heartbeats (no worker alive).

This package, one job each (import the names from here):

* ``kinds``: ``register`` a kind and its lane; ``JobContext``, ``Progress`` (what a
  kind receives and reports to) and ``JobFailed`` (its refusal in words);
* ``starting``: ``submit``, ``restart``, ``get``, ``latest``, ``state``: the app's side;
* ``running``: ``Runner``, ``run_job``, ``execute`` and the heartbeat: one job run;
* ``rows``: the statuses and ``mark_failed``, written by both sides.
"""
from __future__ import annotations

from .kinds import (
    LONG,
    MESSAGE_LENGTH,
    QUEUES,
    SHORT,
    JobCancelled,
    JobContext,
    JobFailed,
    JobFunction,
    JobRefused,
    Pace,
    Progress,
    UnknownJob,
    kind_function,
    kind_queue,
    register,
    said_json,
    said_message,
    unregister,
)
from .rows import ACTIVE, DONE, FAILED, QUEUED, RUNNING, WORKER_STOPPED, mark_failed
from .running import (
    DEFAULT_STALE_SECONDS,
    EXTENSION,
    HEARTBEAT_EVERY,
    MAX_ATTEMPTS,
    RUNNERS,
    Runner,
    execute,
    process_engine,
    run_job,
    worker_name,
)
from .starting import (
    KEY_LENGTH,
    LONG_ACTIVE_PER_USER,
    SHORT_QUEUED_PER_USER,
    JobState,
    get,
    is_stale,
    latest,
    restart,
    state,
    submit,
)

__all__ = [
    "ACTIVE", "DEFAULT_STALE_SECONDS", "DONE", "EXTENSION", "FAILED", "HEARTBEAT_EVERY",
    "KEY_LENGTH", "LONG", "LONG_ACTIVE_PER_USER", "MAX_ATTEMPTS", "MESSAGE_LENGTH", "QUEUED",
    "QUEUES", "RUNNERS", "RUNNING", "SHORT", "SHORT_QUEUED_PER_USER", "WORKER_STOPPED",
    "JobCancelled", "JobContext", "JobFailed", "JobFunction", "JobRefused", "JobState", "Pace",
    "Progress", "Runner", "UnknownJob", "execute", "get", "is_stale", "kind_function",
    "kind_queue", "latest", "mark_failed", "process_engine", "register", "restart", "run_job",
    "said_json", "said_message", "state", "submit", "unregister", "worker_name",
]
