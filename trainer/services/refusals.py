"""A request a service refuses, and the HTTP status the web answers the refusal with.

A service's own refusals subclass ``Refused`` (the drill sessions' ``DrillError``, the
classroom's ``ClassError``); one that is a not-found, a not-allowed or a not-now also
subclasses ``NotFound``, ``Forbidden`` or ``Conflict``, which carry the status, so each
status is written here once. The message is the engine's ``Message`` or a plain sentence;
the web words it (services never use flask_babel).
"""
from __future__ import annotations


class Refused(Exception):
    """A request a service refuses; ``status`` is the HTTP code to answer with."""

    status = 400


class NotFound(Refused):
    """What was asked for does not exist, or belongs to someone else."""

    status = 404


class Forbidden(Refused):
    """The asker may not do this."""

    status = 403


class Conflict(Refused):
    """Not now: the thing is no longer in the state the request needs."""

    status = 409
