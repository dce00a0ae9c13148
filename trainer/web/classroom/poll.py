"""A trainee device's quiet poll, answered before Flask (issue 31, docs/classroom.md).

Every device of a live class asks ``GET /class/<id>/state`` every ``POLL_MS`` with its
change token, and nearly every answer is 304: forty tablets make about 53 of them a
second. Through Flask a 304 costs the request's machinery, Flask-Login's sign-in read
(an ORM user) and the poll's own statement. Here it costs one statement and no Flask:

- the session cookie is read as Flask reads it (the app's own signing serializer, the
  same lifetime), and the session id in it split as ``web/platform/sessions`` splits it;
- one SELECT (``_statement``) reads the sign-in (the session row and its account) with
  the poll's read (``services/classroom/rows.poll_statement``), and the sign-in is
  checked as ``web/platform/sessions.load`` checks it: the row not revoked, the account active
  with the same session version, within the lifetime, and used so lately that no
  last-use write is due; the account a trainee with no password change due;
- the device's place as ``state`` checks it: a member of the class's group, joined, the
  class running, no presence write due, no timer run out (a lock is due);
- and the device's token (``If-None-Match``) the one Flask would send.

Then the answer is 304 with the headers Flask's own last 304 to a poll carried (the
security headers, ``Cache-Control: no-store``, ``Vary``), which this process keeps from
the first poll Flask answered 304; until then, and whenever anything above does not
hold or cannot be read, the request goes to Flask unchanged, which answers as always.
A 304 has no body: it tells a device only that nothing changed.
"""
from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from itsdangerous import BadData
from sqlalchemy import and_, bindparam
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.http import parse_cookie, parse_etags

from trainer.extensions import db
from trainer.models import Role, User, UserSession, utcnow
from trainer.models.types import parse_id
from trainer.services import classroom
from trainer.services.classroom.rows import POLL_COLUMNS, TOUCH_EVERY, poll_row_of, poll_statement
from trainer.web.platform import sessions

log = logging.getLogger(__name__)

# The trainee's poll (web/classroom/pages.py ``state``; tests/web/test_classroom_security.py
# checks that its URL matches).
POLL_PATH = re.compile(r"^/class/([0-9]{1,12})/state$")
Environ = dict[str, Any]
StartResponse = Callable[..., Any]
WsgiApp = Callable[[Environ, StartResponse], Iterable[bytes]]


@functools.cache
def _statement() -> Any:
    """Build, once a process, the poll's read with the sign-in's: one SELECT."""
    users, rows = User.__table__, UserSession.__table__
    user: Any = bindparam("user_id")
    return (poll_statement()
            .add_columns(rows.c.revoked_at, rows.c.created_at, rows.c.last_seen_at,
                         users.c.active, users.c.session_version, users.c.role,
                         users.c.password_change_due)
            .join(users, users.c.id == user)
            .join(rows, and_(rows.c.user_id == users.c.id,
                             rows.c.token_hash == bindparam("token_hash"))))


class QuietPoll:
    """The WSGI step in front of Flask that answers a trainee's unchanged poll 304."""

    def __init__(self, app: Flask, wsgi: WsgiApp) -> None:
        self.app = app
        self.wsgi = wsgi
        self.headers: list[tuple[str, str]] | None = None
        self.engine: Engine | None = None
        self.serializer: Any = None

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if not path.endswith("/state") or environ.get("REQUEST_METHOD") != "GET":
            return self.wsgi(environ, start_response)
        found = POLL_PATH.match(path)
        if found is None:
            return self.wsgi(environ, start_response)
        if self.headers is not None and environ.get("HTTP_IF_NONE_MATCH"):
            token = self.quiet(environ, found.group(1))
            if token is not None:
                start_response("304 NOT MODIFIED", [*self.headers, ("ETag", f'"{token}"')])
                return []
        return self.wsgi(environ, self._keeping_headers(start_response))

    def _keeping_headers(self, start_response: StartResponse) -> StartResponse:
        """Keep the headers of Flask's 304 to a poll (no cookie set), for the quiet ones."""
        def keep(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            if status.startswith("304") and not any(k.lower() == "set-cookie" for k, _ in headers):
                self.headers = [(k, v) for k, v in headers if k.lower() != "etag"]
            return start_response(status, headers, exc_info)
        return keep

    def quiet(self, environ: Environ, class_text: str) -> str | None:
        """Return the device's token when the poll is quiet (answered 304 here), else None."""
        try:
            return self._quiet(environ, class_text)
        except (BadData, SQLAlchemyError, ValueError, TypeError, LookupError) as error:
            log.debug("a poll went to Flask: %r", error)
            return None

    def _quiet(self, environ: Environ, class_text: str) -> str | None:
        app = self.app
        value = parse_cookie(environ).get(app.config["SESSION_COOKIE_NAME"])
        class_id = parse_id(class_text)
        if not value or class_id is None:
            return None
        if self.serializer is None:
            self.serializer = app.session_interface.get_signing_serializer(  # type: ignore[attr-defined]
                app)
        if self.serializer is None:  # no secret key: Flask says so
            return None
        data = self.serializer.loads(value, max_age=int(app.permanent_session_lifetime
                                                        .total_seconds()))
        session_id = data.get("_user_id") if isinstance(data, dict) else None
        parts = sessions.split_id(session_id) if isinstance(session_id, str) else None
        if parts is None:
            return None
        user_id, version, token = parts
        if self.engine is None:
            with app.app_context():
                self.engine = db.engine
        with self.engine.connect() as conn:
            row = conn.execute(_statement(), {"class_id": class_id, "user_id": user_id,
                                              "token_hash": sessions.token_hash(token)}).first()
        if row is None:
            return None
        revoked, created, seen, active, session_version, role, due = row[POLL_COLUMNS:]
        now = utcnow()
        limits: sessions.Lifetimes = app.extensions[sessions.EXTENSION]
        if (revoked is not None or not active or (session_version or 0) != int(version)
                or role != Role.TRAINEE or due or now - created >= limits.lifetime
                or now - seen >= limits.touch_every):
            return None
        poll = poll_row_of(row)
        if (not poll.member or not poll.joined or poll.state != "running" or poll.timer_over(now)
                or poll.last_seen_at is None or poll.last_seen_at <= now - TOUCH_EVERY):
            return None
        wanted = classroom.trainee_token(poll)
        if not parse_etags(environ["HTTP_IF_NONE_MATCH"]).contains(wanted):
            return None
        return wanted


def install(app: Flask) -> None:
    """Put the quiet poll in front of the app (once)."""
    if not isinstance(app.wsgi_app, QuietPoll):
        app.wsgi_app = QuietPoll(app, app.wsgi_app)  # type: ignore[method-assign]
