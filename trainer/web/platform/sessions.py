"""Signed-in sessions kept on the server: one row per sign-in, revoked at sign-out, ended by time.

The id Flask-Login keeps in the session cookie (and would keep in a
remember-me cookie) is ``<user id>.<session version>.<token>``. The database
keeps only the SHA-256 of the token (``user_sessions.token_hash``), so neither a
backup nor a read of the table gives a cookie that signs in (issue 24).

A session is valid while its row is not revoked, the user's session version is
unchanged, it was opened less than ``SESSION_LIFETIME`` ago (12 hours by default)
and it was last used less than ``SESSION_IDLE_TIMEOUT`` ago (2 hours by default).
Signing out revokes one row (the person's other devices stay signed in); a
password change or a deactivation bumps the version (every session ends); a
session past either time is signed out at its next request, with a sentence
saying why (a script asking for JSON gets a 401 with that sentence).

Both times are checked on the one sign-in read every signed-in request already
makes; ``last_seen_at`` is written only when it is more than a minute old (one
UPDATE a minute per session, never on the other requests), so the question and
answer requests keep their 4 statements (docs/operations.md, "Sessions end").
"""
from __future__ import annotations

import functools
import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from flask import Flask, current_app, flash, g, jsonify, redirect, request, session
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import current_user, login_url, logout_user
from flask_login import login_user as flask_login_user
from sqlalchemy import bindparam
from werkzeug.wrappers import Response

from trainer.extensions import commit_keeping_state, db, login_manager
from trainer.models import User, UserSession, utcnow
from trainer.models.types import parse_id
from trainer.services import audit, languages
from trainer.web.platform import languages as web_languages
from trainer.web.platform import signed_in
from trainer.web.platform.errors import wants_json

_NUMBER = re.compile(r"^[0-9]{1,12}$")
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")
# Revoked and expired rows are kept this long (for an admin reading the database), then dropped.
KEEP_REVOKED = timedelta(days=30)
# The defaults of the two limits (app config SESSION_LIFETIME, SESSION_IDLE_TIMEOUT).
DEFAULT_LIFETIME = timedelta(hours=12)
DEFAULT_IDLE_TIMEOUT = timedelta(hours=2)
# last_seen_at is written when it is older than this (or a tenth of the idle timeout).
TOUCH_EVERY = timedelta(minutes=1)
EXTENSION = "trainer.sessions"
# The sign-in page's endpoint, where a request that needs a sign-in is sent.
SIGN_IN_VIEW = "auth.login"
# Where the reason a session just ended waits (which limit, how long), and whether it was said.
_ENDED = "session_ended"
_SAID = "session_ended_said"


def token_hash(token: str) -> str:
    """Return what the database keeps of a session token: its SHA-256, 64 hex digits."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def _duration(value: Any, name: str) -> timedelta:
    """Read one limit of the config: a ``timedelta`` or a number of seconds, more than zero."""
    if isinstance(value, timedelta):
        duration = value
    elif isinstance(value, int | float) and not isinstance(value, bool):
        duration = timedelta(seconds=value)
    else:
        raise ValueError(f"{name} must be a number of seconds or a timedelta, not {value!r}.")
    if duration <= timedelta(0):
        raise ValueError(f"{name} must be more than zero seconds, not {value!r}.")
    return duration


@dataclass(frozen=True)
class Lifetimes:
    """How long a sign-in lasts at most, and how long it may sit unused."""

    lifetime: timedelta = DEFAULT_LIFETIME
    idle: timedelta = DEFAULT_IDLE_TIMEOUT

    @property
    def touch_every(self) -> timedelta:
        """How stale ``last_seen_at`` may get before a request writes it again."""
        return min(TOUCH_EVERY, self.idle / 10)

    @classmethod
    def from_config(cls, config: Any) -> Lifetimes:
        """Read ``SESSION_LIFETIME`` and ``SESSION_IDLE_TIMEOUT``; ValueError, in words, if wrong."""
        return cls(_duration(config.get("SESSION_LIFETIME", DEFAULT_LIFETIME), "SESSION_LIFETIME"),
                   _duration(config.get("SESSION_IDLE_TIMEOUT", DEFAULT_IDLE_TIMEOUT),
                             "SESSION_IDLE_TIMEOUT"))


def register(app: Flask) -> None:
    """Read the session limits once (a wrong value stops the app starting) and answer sign-in requests."""
    app.extensions[EXTENSION] = Lifetimes.from_config(app.config)
    login_manager.unauthorized_handler(unauthorized)
    app.after_request(_say_why_signed_out)


def _lifetimes() -> Lifetimes:
    lifetimes: Lifetimes = current_app.extensions[EXTENSION]
    return lifetimes


@functools.cache
def _load_statement() -> Any:
    """Build, once per process, the sign-in read: the account and its session row's state.

    Every signed-in request runs it; the token's hash and the user id are bound
    parameters, so a request only executes it. The account comes as columns (a
    ``SignedIn``, not an ORM object: web/platform/signed_in.py); the row's revocation,
    opening and last use come with it, so the lifetime and idle checks cost no
    statement; and the installation's language, currency and card letters (scalar
    subqueries), so choosing the page's language costs no statement of its own.
    """
    users, rows = User.__table__, UserSession.__table__
    return (
        db.select(*signed_in.COLUMNS, rows.c.id, rows.c.revoked_at, rows.c.created_at,
                  rows.c.last_seen_at, *languages.installation_columns())
        .select_from(users)
        .join(rows, rows.c.user_id == users.c.id)
        .where(rows.c.token_hash == bindparam("token_hash"), users.c.id == bindparam("user_id"))
    )


@functools.cache
def _touch_statement() -> Any:
    """Build, once per process, the write of a session's last use (only forward in time)."""
    table: Any = UserSession.__table__
    return (table.update()
            .where(table.c.id == bindparam("row_id"), table.c.last_seen_at < bindparam("before"))
            .values(last_seen_at=bindparam("now")))


def split_id(session_id: str) -> tuple[int, str, str] | None:
    """Return (user id, session version, token) of a session id, or None when malformed
    (the classroom's quiet poll reads a session with it too: web/classroom/poll.py)."""
    parts = session_id.split(".")
    if len(parts) != 3:
        return None
    user_id, version, token = parts
    if not (_NUMBER.match(user_id) and _NUMBER.match(version) and _TOKEN.match(token)):
        return None
    uid = parse_id(user_id)
    if uid is None:  # no such row; PostgreSQL would refuse the query
        return None
    return uid, version, token


def load(session_id: str) -> signed_in.SignedIn | None:
    """Return the account of a session id, or None once it is revoked, stale, expired or malformed."""
    found = split_id(session_id)
    if found is None:
        return None
    uid, version, token = found
    # Nothing ran in this request's transaction yet: a last-use write may commit at once.
    fresh_transaction = not db.session().in_transaction()
    row = db.session.connection().execute(
        _load_statement(), {"token_hash": token_hash(token), "user_id": uid}).first()
    if row is None:
        return None
    width = len(signed_in.COLUMNS)
    user = signed_in.SignedIn(row[:width], token)
    row_id, revoked_at, created_at, last_seen_at, *installation = row[width:]
    if revoked_at is not None or not user.active or (user.session_version or 0) != int(version):
        return None
    now = utcnow()
    limits = _lifetimes()
    if now - created_at >= limits.lifetime:
        _signed_out("lifetime", limits.lifetime)
        return None
    if now - last_seen_at >= limits.idle:
        _signed_out("idle", limits.idle)
        return None
    if now - last_seen_at >= limits.touch_every:
        _touch(row_id, now, commit=fresh_transaction)
    web_languages.keep_installation(languages.Installation.from_values(*installation))
    return user


def _touch(row_id: int, now: datetime, commit: bool) -> None:
    """Write the session's last use: one UPDATE, committed now unless the request has work pending.

    The commit keeps what the session holds (the user just read), as the drill
    requests do, so nothing is read again. When the request had already begun its
    transaction (a page that asked who is signed in only after reading or writing
    something), the UPDATE joins it and is committed with the request's own work,
    never on its own; a request that commits nothing leaves it for the next one.
    """
    db.session.connection().execute(_touch_statement(),
                                    {"row_id": row_id, "before": now, "now": now})
    if commit:
        commit_keeping_state()


def _hours_or_minutes(limit: timedelta) -> tuple[int, bool]:
    """Return a limit as whole hours (True) when it is, else as minutes, at least one (False)."""
    seconds = int(limit.total_seconds())
    if seconds % 3600 == 0:
        return seconds // 3600, True
    return max(1, round(seconds / 60)), False


def _lifetime_message(limit: timedelta) -> str:
    number, hours = _hours_or_minutes(limit)
    if hours:
        return ngettext("You were signed out: a sign-in lasts at most %(num)d hour. "
                        "Please sign in again.",
                        "You were signed out: a sign-in lasts at most %(num)d hours. "
                        "Please sign in again.", number)
    return ngettext("You were signed out: a sign-in lasts at most %(num)d minute. "
                    "Please sign in again.",
                    "You were signed out: a sign-in lasts at most %(num)d minutes. "
                    "Please sign in again.", number)


def _idle_message(limit: timedelta) -> str:
    number, hours = _hours_or_minutes(limit)
    if hours:
        return ngettext("You were signed out after %(num)d hour without activity. "
                        "Please sign in again.",
                        "You were signed out after %(num)d hours without activity. "
                        "Please sign in again.", number)
    return ngettext("You were signed out after %(num)d minute without activity. "
                    "Please sign in again.",
                    "You were signed out after %(num)d minutes without activity. "
                    "Please sign in again.", number)


def _forget_csrf_token() -> None:
    """Drop the form token kept in the cookie session, so the next page mints a new one.

    A token issued before this point is refused from now on: Flask-WTF compares
    the signed token a form sends with the raw one kept in the session.
    """
    field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    session.pop(field, None)
    g.pop(field, None)


def _signed_out(limit: str, length: timedelta) -> None:
    """Sign an expired session out of this cookie and note why, for this request's answer.

    The row needs no write: its times keep it expired. The cookie loses the
    sign-in (and a remember-me cookie is cleared) and the form token is renewed.
    The sentence is worded later (``_ended_message``): wording it here, inside the
    user loader, would ask the page's language, which asks who is signed in.
    """
    for key in ("_user_id", "_fresh", "_id"):
        session.pop(key, None)
    cookie = current_app.config.get("REMEMBER_COOKIE_NAME", "remember_token")
    if cookie in request.cookies:
        session["_remember"] = "clear"
    _forget_csrf_token()
    setattr(g, _ENDED, (limit, length))


def _ended_message() -> str | None:
    """Return the sentence saying why this request's session just ended, or None."""
    ended: tuple[str, timedelta] | None = g.get(_ENDED)
    if ended is None:
        return None
    limit, length = ended
    return _lifetime_message(length) if limit == "lifetime" else _idle_message(length)


def _flash_ended(message: str) -> None:
    """Flash the sentence once a request, for the next page (the sign-in page)."""
    if not g.get(_SAID):
        setattr(g, _SAID, True)
        flash(message, "info")


def _say_why_signed_out(response: Response) -> Response:
    """After a page that needed no sign-in found its session expired, say why on the next page.

    Not when the request signed the person in again (an old sign-in form sent with
    the expired cookie): the new session needs no word about the old one.
    """
    if g.get(_ENDED) is None or current_user.is_authenticated:
        return response
    message = _ended_message()
    if message is not None:
        _flash_ended(message)
    return response


def unauthorized() -> Response | tuple[Response, int]:
    """Answer a request that needs a sign-in: a script gets a 401 in JSON, a browser the sign-in page.

    When the request's session has just ended by time, the sentence says why (in
    the JSON, and flashed for the sign-in page, once, instead of the usual one).
    """
    ended = _ended_message()
    message = ended or str(login_manager.login_message)
    target = login_url(SIGN_IN_VIEW, next_url=request.url)
    if ended is not None:
        _flash_ended(ended)
    if wants_json():
        title = _("Signed out") if ended else _("Sign in")
        return jsonify(error=title, message=message, login_url=target), 401
    if ended is None:
        flash(message, login_manager.login_message_category)
    return redirect(target)


def start(user: User, address: str) -> None:
    """Open a new session for ``user``, log the sign-in and commit, then sign them in.

    The form token of the page before is refused from now on (a new one is minted
    with the next page): a token learnt before sign-in is no use after it.
    """
    now = utcnow()
    expired_before = now - _lifetimes().lifetime - KEEP_REVOKED
    db.session.execute(db.delete(UserSession).where(
        UserSession.user_id == user.id,
        (UserSession.revoked_at < now - KEEP_REVOKED) | (UserSession.created_at < expired_before)))
    token = secrets.token_urlsafe(32)
    row = UserSession(user_id=user.id, token_hash=token_hash(token), created_at=now,
                      last_seen_at=now)
    db.session.add(row)
    db.session.flush()
    audit.record(user.id, "sign-in", "user", user.id, new={"address": address, "session": row.id})
    db.session.commit()
    user.session_token = token
    _forget_csrf_token()
    flask_login_user(user)


def keep(user: User) -> None:
    """Keep this request's session signed in as ``user`` after a change that bumped the
    account's session version (its own password change): the same session row and token,
    the new version (every other session ended)."""
    user.session_token = getattr(current_user, "session_token", "")
    flask_login_user(user)


def end() -> None:
    """Revoke the current session (only this one) and sign out."""
    token = getattr(current_user, "session_token", "") if current_user.is_authenticated else ""
    if token:
        row = db.session.execute(
            db.select(UserSession).where(UserSession.token_hash == token_hash(token))
        ).scalar_one_or_none()
        if row is not None and row.revoked_at is None:
            row.revoked_at = utcnow()
            audit.record(row.user_id, "sign-out", "user", row.user_id, new={"session": row.id})
            db.session.commit()
    logout_user()
    _forget_csrf_token()
