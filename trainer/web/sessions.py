"""Signed-in sessions kept on the server: one row per sign-in, revoked at sign-out.

The id Flask-Login keeps in the session cookie (and would keep in a
remember-me cookie) is ``<user id>.<session version>.<token>``. A session is
valid while its token's row is not revoked and the user's session version is
unchanged: signing out revokes one row (the person's other devices stay signed
in); a password change or a deactivation bumps the version (every session ends).
"""
from __future__ import annotations

import functools
import re
import secrets
from datetime import timedelta
from typing import Any

from flask_login import current_user, login_user, logout_user
from sqlalchemy import bindparam

from trainer.extensions import db
from trainer.models import User, UserSession, utcnow
from trainer.models.types import parse_id
from trainer.services import audit, languages

_NUMBER = re.compile(r"^[0-9]{1,12}$")
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")
# Revoked rows are kept this long (for an admin reading the database), then dropped.
KEEP_REVOKED = timedelta(days=30)


@functools.cache
def _load_statement() -> Any:
    """Build, once per process, the sign-in read: the user and their session row's revocation.

    Every signed-in request runs it; token and user id are bound parameters, so a
    request only executes it (building the select cost about as much as running it).
    The installation's language, currency and card letters come with it (scalar
    subqueries), so choosing the page's language costs no statement of its own.
    """
    return (
        db.select(User, UserSession.revoked_at, *languages.installation_columns())
        .join(UserSession, UserSession.user_id == User.id)
        .where(UserSession.token == bindparam("token"), User.id == bindparam("user_id"))
    )


def load(session_id: str) -> User | None:
    """Return the user of a session id, or None once it is revoked, stale or malformed."""
    parts = session_id.split(".")
    if len(parts) != 3:
        return None
    user_id, version, token = parts
    if not (_NUMBER.match(user_id) and _NUMBER.match(version) and _TOKEN.match(token)):
        return None
    uid = parse_id(user_id)
    if uid is None:  # no such row; PostgreSQL would refuse the query
        return None
    row = db.session.execute(_load_statement(), {"token": token, "user_id": uid}).first()
    if row is None:
        return None
    user, revoked_at, *installation = row
    if revoked_at is not None or not user.active or (user.session_version or 0) != int(version):
        return None
    user.session_token = token
    user.installation = languages.Installation.from_values(*installation)
    return user


def start(user: User, address: str) -> None:
    """Open a new session for ``user``, log the sign-in and commit, then sign them in."""
    now = utcnow()
    db.session.execute(db.delete(UserSession).where(
        UserSession.user_id == user.id, UserSession.revoked_at < now - KEEP_REVOKED))
    token = secrets.token_urlsafe(32)
    row = UserSession(user_id=user.id, token=token, created_at=now)
    db.session.add(row)
    db.session.flush()
    audit.record(user.id, "sign-in", "user", user.id, new={"address": address, "session": row.id})
    db.session.commit()
    user.session_token = token
    login_user(user)


def end() -> None:
    """Revoke the current session (only this one) and sign out."""
    token = getattr(current_user, "session_token", "") if current_user.is_authenticated else ""
    if token:
        row = db.session.execute(
            db.select(UserSession).where(UserSession.token == token)
        ).scalar_one_or_none()
        if row is not None and row.revoked_at is None:
            row.revoked_at = utcnow()
            audit.record(row.user_id, "sign-out", "user", row.user_id, new={"session": row.id})
            db.session.commit()
    logout_user()
