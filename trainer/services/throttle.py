"""Sign-in throttling, counted in the database so every worker sees the same counts.

No sign-in ever waits in a worker: a try the limits do not allow yet is
answered at once (HTTP 429 with ``Retry-After``), so slowed or refused tries
hold no gunicorn worker (issue 24; the sleep it replaced let 8 slowed sign-ins
hold all 4 workers).

Every password check is reserved first: a ``LoginFailure`` row is written, in
one short transaction that also counts the earlier ones, before the password is
looked at. Only when the password is right is the row deleted again. Parallel
guesses therefore cannot all pass the count before any of them is recorded:

- PostgreSQL: transaction-scoped advisory locks, on the address and then on the
  login, serialise the count-and-insert of one address and of one login;
- SQLite: the reservation's first statement is the insert, which takes the
  database's single write lock until the commit.

Limits (config, defaults), for a try from a device that is not remembered:
5 checks per (login, address) and 50 per address in 15 minutes, then refused
with "try again in N minutes"; beyond 20 failures of a login from such devices
in an hour, that login may be tried again only once a growing spacing
(0.25 s doubling, at most 10 s) has passed since its last failure: a try before
that is refused with "may be tried again in N seconds", never slept on, and is
not counted.

A *remembered device* (a browser with the signed device cookie of that login,
``web/auth/devices.py``) is counted apart: only its own failures count against it
(5 in 15 minutes, then refused), and no other device's failures, from any
address, slow or refuse it. An address alone earns no exemption: a training
room behind one address shares the per-address and per-pair counts of every
browser that is not a remembered device of the login tried.
"""
from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from trainer.extensions import db
from trainer.models import LoginFailure, utcnow

# Advisory-lock classes of the sign-in throttle, by address and by login (the
# two-int key space of pg_advisory_xact_lock, apart from any single-bigint lock).
_ADDRESS_LOCK = 0x5447
_LOGIN_LOCK = 0x5448


class Refusal(StrEnum):
    """Why a try is refused: a count over its limit, or a much-guessed login's spacing."""

    LIMIT = "limit"
    SLOWED = "slowed"


@dataclass(frozen=True)
class Reservation:
    """The outcome of asking to check a password: refused (for how long), or a reserved check."""

    login: str
    address: str
    device: str | None = None
    retry_after: int = 0
    refusal: Refusal | None = None
    failure_id: int | None = None

    @property
    def refused(self) -> bool:
        """Tell whether the password must not be checked now."""
        return self.refusal is not None

    @property
    def wait_minutes(self) -> int:
        """Return the wait in whole minutes, rounded up (at least 1)."""
        return max(1, math.ceil(self.retry_after / 60))


@dataclass(frozen=True)
class Limits:
    """The throttle's limits: the app's config (``LOGIN_THROTTLE_*``, ``LOGIN_SLOWDOWN_*``)."""

    minutes: int = 15
    per_pair: int = 5
    per_address: int = 50
    slowdown_after: int = 20
    slowdown_max_seconds: int = 10

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Limits:
        """Read the limits from an app's config, each missing one at its default."""
        default = cls()

        def get(name: str, fallback: int) -> int:
            return int(config.get(name, fallback))

        return cls(get("LOGIN_THROTTLE_MINUTES", default.minutes),
                   get("LOGIN_THROTTLE_PER_PAIR", default.per_pair),
                   get("LOGIN_THROTTLE_PER_ADDRESS", default.per_address),
                   get("LOGIN_SLOWDOWN_AFTER", default.slowdown_after),
                   get("LOGIN_SLOWDOWN_MAX_SECONDS", default.slowdown_max_seconds))


def _lock(kind: int, key_text: str) -> None:
    """Serialise the reservations of one address or one login until the transaction ends (PostgreSQL)."""
    if db.session.get_bind().dialect.name != "postgresql":
        return  # SQLite: the insert that follows takes the write lock.
    digest = hashlib.blake2b(key_text.encode(), digest_size=4).digest()
    key = int.from_bytes(digest, "big", signed=True)
    db.session.execute(db.text("SELECT pg_advisory_xact_lock(:cls, :key)"),
                       {"cls": kind, "key": key})


def _count(*conditions: object) -> int:
    count: int = db.session.execute(
        db.select(db.func.count(LoginFailure.id)).where(*conditions)
    ).scalar_one()
    return count


def _blocked_until(limit: int, since: datetime, window: timedelta, *conditions: object) -> datetime | None:
    """Return when the failures matching ``conditions`` drop under ``limit``, or None if they are under it."""
    times = db.session.execute(
        db.select(LoginFailure.at).where(LoginFailure.at >= since, *conditions)
        .order_by(LoginFailure.at.desc()).limit(limit)
    ).scalars().all()
    return times[-1] + window if len(times) >= limit else None


def _seconds_until(moment: datetime, now: datetime) -> int:
    return max(1, math.ceil((moment - now).total_seconds()))


def reserve(login: str, address: str, limits: Limits = Limits(), device: str | None = None) -> Reservation:
    """Count earlier failures and, when the limits allow a check now, record it as a failure.

    ``device`` is the remembered device the try comes from (None: any other).
    Both happen in one transaction under a lock, so two guesses at the same
    moment are counted one after the other. A refused try is rolled back: it
    checks no password and is not counted.
    """
    login, address = login[:64], address[:64]
    db.session.commit()  # start a fresh transaction: the lock and the insert come first
    if device is None:
        _lock(_ADDRESS_LOCK, address)
    _lock(_LOGIN_LOCK, login)
    now = utcnow()
    window = timedelta(minutes=limits.minutes)
    since = now - window
    hour_ago = now - timedelta(hours=1)
    reservation = LoginFailure(login=login, address=address, device=device, at=now)
    db.session.add(reservation)
    db.session.flush()
    earlier = LoginFailure.id != reservation.id
    if device is not None:
        # A remembered device: its own failures only.
        blocks = [_blocked_until(limits.per_pair, since, window, earlier,
                                 LoginFailure.login == login, LoginFailure.device == device)]
    else:
        unknown = LoginFailure.device.is_(None)
        blocks = [
            _blocked_until(limits.per_pair, since, window, earlier, unknown,
                           LoginFailure.login == login, LoginFailure.address == address),
            _blocked_until(limits.per_address, since, window, earlier, unknown,
                           LoginFailure.address == address),
        ]
    until = max((moment for moment in blocks if moment is not None), default=None)
    if until is not None:
        db.session.rollback()  # not checked, so not counted
        return Reservation(login, address, device, retry_after=_seconds_until(until, now),
                           refusal=Refusal.LIMIT)
    if device is None:
        next_try = _slowed_until(login, hour_ago, limits, earlier)
        if next_try is not None and next_try > now:
            db.session.rollback()
            return Reservation(login, address, device, retry_after=_seconds_until(next_try, now),
                               refusal=Refusal.SLOWED)
    # Rows older than every window are no longer needed.
    db.session.execute(db.delete(LoginFailure).where(
        LoginFailure.login == login, LoginFailure.at < min(since, hour_ago)))
    failure_id = reservation.id
    db.session.commit()
    return Reservation(login, address, device, failure_id=failure_id)


def _slowed_until(login: str, hour_ago: datetime, limits: Limits, *conditions: object) -> datetime | None:
    """Return when a much-guessed login may next be checked from a device not remembered.

    The last hour's failures of the login from such devices, and the latest of
    them, in one statement; None while they are fewer than the slowdown's start.
    """
    count: int
    latest: datetime | None
    count, latest = db.session.execute(
        db.select(db.func.count(LoginFailure.id), db.func.max(LoginFailure.at)).where(
            LoginFailure.login == login, LoginFailure.device.is_(None),
            LoginFailure.at >= hour_ago, *conditions)
    ).one()
    spacing = slowdown(count, limits)
    if latest is None or spacing <= 0:
        return None
    return latest + timedelta(seconds=spacing)


def slowdown(failures: int, limits: Limits = Limits()) -> float:
    """Return the spacing in seconds after a login's last failure, given its failures in the last hour."""
    free = limits.slowdown_after
    if failures < free:
        return 0.0
    return min(0.25 * 2.0 ** (failures - free), float(limits.slowdown_max_seconds))


def succeeded(reservation: Reservation) -> None:
    """Forget the failures this sign-in answers for, this reservation included (committed with the sign-in).

    From a remembered device: that device's failures of the login; from any
    other device: the (login, address) pair's.
    """
    if reservation.device is not None:
        where = LoginFailure.device == reservation.device
    else:
        where = db.and_(LoginFailure.address == reservation.address, LoginFailure.device.is_(None))
    db.session.execute(db.delete(LoginFailure).where(LoginFailure.login == reservation.login, where))
    if reservation.failure_id is not None:
        db.session.execute(db.delete(LoginFailure).where(LoginFailure.id == reservation.failure_id))
