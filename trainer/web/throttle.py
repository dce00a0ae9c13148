"""Login throttling: after repeated failures for a login or an address, wait."""
from __future__ import annotations

import math
from datetime import datetime, timedelta

from flask import current_app

from trainer.extensions import db
from trainer.models import LoginFailure, utcnow


def _window() -> timedelta:
    return timedelta(minutes=current_app.config.get("LOGIN_THROTTLE_MINUTES", 15))


def _oldest_blocking(column, value: str, limit: int, since: datetime) -> datetime | None:
    """Return the failure that keeps ``value`` locked, or None when under the limit."""
    rows = db.session.execute(
        db.select(LoginFailure.at).where(column == value, LoginFailure.at >= since)
        .order_by(LoginFailure.at.desc()).limit(limit)
    ).scalars().all()
    return rows[-1] if len(rows) >= limit else None


def minutes_locked(login: str, address: str) -> int:
    """Return how many minutes the login or the address must wait (0 when free)."""
    now = utcnow()
    window = _window()
    since = now - window
    config = current_app.config
    blocking = [
        _oldest_blocking(LoginFailure.login, login,
                         config.get("LOGIN_THROTTLE_PER_LOGIN", 5), since),
        _oldest_blocking(LoginFailure.address, address,
                         config.get("LOGIN_THROTTLE_PER_ADDRESS", 20), since),
    ]
    until = max((at + window for at in blocking if at is not None), default=None)
    if until is None:
        return 0
    return max(1, math.ceil((until - now).total_seconds() / 60))


def record_failure(login: str, address: str) -> None:
    """Remember a failed sign-in."""
    db.session.add(LoginFailure(login=login[:64], address=address[:64]))
    db.session.commit()


def clear_failures(login: str) -> None:
    """Forget a login's failures after it signs in."""
    db.session.execute(db.delete(LoginFailure).where(LoginFailure.login == login))
    db.session.commit()
