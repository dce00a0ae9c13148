"""What a job kind is: a function registered by name and lane, what it receives, how it
reports its progress, and how it refuses in words.

A kind's function receives a ``JobContext`` (its parameters, a database session of its
own and a ``Progress``) and returns a JSON-able result; ``JobFailed`` is its refusal,
in a sentence for people (``said_json`` keeps the sentence as a ``Message``).
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from trainer.engine.messages import Message
from trainer.models.job import PROGRESS_FULL

SHORT, LONG = "short", "long"
QUEUES = (SHORT, LONG)
MESSAGE_LENGTH = 200


class JobCancelled(Exception):
    """The job was taken from this worker (shown stopped, or started again elsewhere)."""


class JobFailed(Exception):
    """A job kind's refusal, in a sentence for people: stored as the job's error as it is.

    Raised with a ``Message`` (``JobFailed(Message(N_("..."), ...))``), the error column
    keeps its English and the job's ``result`` keeps the template and its values
    (``{"said": ...}``, ``said_json``), so a page says it in the reader's language.
    """


def said_json(message: Any) -> Any:
    """Return a ``Message`` as JSON (template and values; a value that is not a whole
    number or a message is kept as its English text), or None for anything else."""
    if not isinstance(message, Message):
        return None
    params = {key: said_json(value) if isinstance(value, Message)
              else value if type(value) is int else str(value)
              for key, value in message.params.items()}
    return {"template": message.template, "params": params}


def said_message(data: Any) -> Message | None:
    """Return the ``Message`` ``said_json`` wrote (None for anything else)."""
    if not isinstance(data, Mapping) or not isinstance(data.get("template"), str):
        return None
    params = data.get("params")
    values = {str(key): said_message(value) if isinstance(value, Mapping) else value
              for key, value in (params.items() if isinstance(params, Mapping) else ())}
    return Message(data["template"], **values)


class JobRefused(Exception):
    """A job not started because of a limit: ``message`` (a ``Message``) says why in words."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


class UnknownJob(LookupError):
    """No job has that id, or no kind has that name."""


# A job's pace (``job_worker.CpuShare``): called at each progress report with a
# ``wait(seconds)``, it waits when the job used more than its share of the CPU.
Pace = Callable[[Callable[[float], object]], None]


class Progress:
    """What a running job reports: the engine's ``progress(done, total)`` and a message.

    Calling it only records the figure (cheap, so the engine may call it often); the
    worker's heartbeat thread writes it to the row. Once the row was taken from this
    worker, the next call raises ``JobCancelled`` so the work stops. With a ``pace``,
    each report is also where the job waits to keep to its CPU share (the wait ends
    at once when the row is taken from this worker).
    """

    def __init__(self, pace: Pace | None = None) -> None:
        self.value = 0  # thousandths
        self.text: str | None = None
        self.lost = threading.Event()
        self.pace = pace

    def _step(self) -> None:
        if self.pace is not None and not self.lost.is_set():
            self.pace(self.lost.wait)
        if self.lost.is_set():
            raise JobCancelled

    def __call__(self, done: int, total: int) -> None:
        """Record ``done`` of ``total`` (the engine's progress callback)."""
        self._step()
        if total > 0:
            self.value = max(0, min(PROGRESS_FULL, done * PROGRESS_FULL // total))

    def say(self, message: str) -> None:
        """Record a short message shown beside the progress bar."""
        self._step()
        self.text = message[:MESSAGE_LENGTH]

    def span(self, start: float, end: float) -> Callable[[int, int], None]:
        """Return a callback mapping one step's ``(done, total)`` onto ``start..end`` (0..1) of the job."""
        def report(done: int, total: int) -> None:
            share = done / total if total > 0 else 0.0
            self(round((start + (end - start) * share) * PROGRESS_FULL), PROGRESS_FULL)
        return report


@dataclass(frozen=True)
class JobContext:
    """What a job kind's function receives."""

    job_id: int
    params: dict[str, Any]
    session: Session  # the worker's own session: what the kind adds commits with the result
    progress: Progress


JobFunction = Callable[[JobContext], Any]

_KINDS: dict[str, JobFunction] = {}
_QUEUES: dict[str, str] = {}


def register(kind: str, fn: JobFunction, queue: str = LONG) -> None:
    """Register ``fn`` as job ``kind``, run in the ``queue`` lane (``short`` or ``long``)."""
    if queue not in QUEUES:
        raise ValueError(f"A job queue is one of {', '.join(QUEUES)}, not {queue!r}.")
    _KINDS[kind] = fn
    _QUEUES[kind] = queue


def kind_queue(kind: str) -> str:
    """Return the lane a registered kind runs in."""
    return _QUEUES.get(kind, LONG)


def unregister(kind: str) -> None:
    """Forget a kind (tests register kinds of their own)."""
    _KINDS.pop(kind, None)
    _QUEUES.pop(kind, None)


def kind_function(kind: str) -> JobFunction:
    """Return the function of a registered kind (``UnknownJob`` when none)."""
    try:
        return _KINDS[kind]
    except KeyError:
        raise UnknownJob(f"No job kind is called {kind!r}.") from None
