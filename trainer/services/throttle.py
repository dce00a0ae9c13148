"""Sign-in throttling, counted in the database so every worker sees the same counts.

Every password check is reserved first: a ``LoginFailure`` row is written, in
one short transaction that also counts the earlier ones, before the password is
looked at. Only when the password is right is the row deleted again. Parallel
guesses therefore cannot all pass the count before any of them is recorded:

- PostgreSQL: a transaction-scoped advisory lock per address serialises the
  count-and-insert of one address (which covers both the per-pair and the
  per-address limits);
- SQLite: the reservation's first statement is the insert, which takes the
  database's single write lock until the commit.

Limits (config, defaults): 5 checks per (login, address) and 50 per address in
15 minutes, then refused with "try again in N minutes"; beyond 20 failures for
a login from all addresses in an hour, each further check of that login first
waits a growing delay (0.25 s doubling, at most 10 s), never a lock-out.
"""
from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from trainer.extensions import db
from trainer.models import LoginFailure, utcnow

# Advisory-lock class of the sign-in throttle (the two-int key space of
# pg_advisory_xact_lock, apart from any single-bigint lock).
_LOCK_CLASS = 0x5447

# Tests replace this to see the delay without waiting for it.
sleep: Callable[[float], None] = time.sleep


@dataclass(frozen=True)
class Reservation:
    """The outcome of asking to check a password: refused, or a reserved check."""

    login: str
    address: str
    wait_minutes: int = 0
    failure_id: int | None = None
    delay_seconds: float = 0.0

    @property
    def refused(self) -> bool:
        """Tell whether the password must not be checked now."""
        return self.wait_minutes > 0


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


def _lock(address: str) -> None:
    """Serialise the reservations of one address until the transaction ends (PostgreSQL)."""
    if db.session.get_bind().dialect.name != "postgresql":
        return  # SQLite: the insert that follows takes the write lock.
    digest = hashlib.blake2b(address.encode(), digest_size=4).digest()
    key = int.from_bytes(digest, "big", signed=True)
    db.session.execute(db.text("SELECT pg_advisory_xact_lock(:cls, :key)"),
                       {"cls": _LOCK_CLASS, "key": key})


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


def reserve(login: str, address: str, limits: Limits = Limits()) -> Reservation:
    """Count earlier failures and, when under the limits, record this check as a failure.

    Both happen in one transaction under a lock, so two guesses at the same
    moment are counted one after the other.
    """
    login, address = login[:64], address[:64]
    db.session.commit()  # start a fresh transaction: the lock and the insert come first
    _lock(address)
    now = utcnow()
    window = timedelta(minutes=limits.minutes)
    since = now - window
    reservation = LoginFailure(login=login, address=address, at=now)
    db.session.add(reservation)
    db.session.flush()
    earlier = LoginFailure.id != reservation.id
    until = max(
        (moment for moment in (
            _blocked_until(limits.per_pair, since, window, earlier,
                           LoginFailure.login == login, LoginFailure.address == address),
            _blocked_until(limits.per_address, since, window, earlier,
                           LoginFailure.address == address),
        ) if moment is not None),
        default=None,
    )
    if until is not None:
        db.session.rollback()  # not checked, so not counted
        return Reservation(login, address,
                           wait_minutes=max(1, math.ceil((until - now).total_seconds() / 60)))
    hour_ago = now - timedelta(hours=1)
    failures_for_login = _count(earlier, LoginFailure.login == login, LoginFailure.at >= hour_ago)
    # Rows older than every window are no longer needed.
    db.session.execute(db.delete(LoginFailure).where(
        LoginFailure.login == login, LoginFailure.at < min(since, hour_ago)))
    failure_id = reservation.id
    db.session.commit()
    return Reservation(login, address, failure_id=failure_id,
                       delay_seconds=slowdown(failures_for_login, limits))


def slowdown(failures: int, limits: Limits = Limits()) -> float:
    """Return the seconds to wait before checking a login with this many failures in the last hour."""
    free = limits.slowdown_after
    if failures < free:
        return 0.0
    return min(0.25 * 2.0 ** (failures - free), float(limits.slowdown_max_seconds))


def wait(reservation: Reservation) -> None:
    """Sleep the login's slowdown, if any, before its password is checked."""
    if reservation.delay_seconds > 0:
        sleep(reservation.delay_seconds)


def succeeded(reservation: Reservation) -> None:
    """Forget the pair's failures, this reservation included (committed with the sign-in)."""
    db.session.execute(db.delete(LoginFailure).where(
        LoginFailure.login == reservation.login, LoginFailure.address == reservation.address))
