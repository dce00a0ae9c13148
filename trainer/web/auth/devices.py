"""Remembered devices: a signed cookie, set at a successful sign-in, that names the browser.

A browser where someone has signed in keeps, for each login signed in there,
a random device id, signed with the app's secret key (``itsdangerous``, salt
``sign-in-device``) together with the login and the time it was given. When
that login is tried again from that browser, the throttle counts the check
against the device alone (``services/throttle.py``): other devices' wrong
passwords, even from the same address, neither slow nor refuse it, while its
own wrong passwords still do. The cookie holds the newest ``MAX_ENTRIES``
logins (a shared training-room browser), lives ``DEVICE_COOKIE_DAYS`` days
(365 by default) and is HttpOnly, SameSite=Lax, and Secure when the app is on
HTTPS. Nothing about the device is stored on the server but its failures.
"""
from __future__ import annotations

import secrets
import time
from typing import Any

from flask import current_app, request
from itsdangerous import BadSignature, URLSafeTimedSerializer
from werkzeug.wrappers import Response

COOKIE_NAME = "trainer_device"
DEFAULT_DAYS = 365
MAX_ENTRIES = 8
_SALT = "sign-in-device"


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=_SALT)


def _days() -> int:
    return int(current_app.config.get("DEVICE_COOKIE_DAYS", DEFAULT_DAYS))


def _entries() -> list[tuple[str, str, int]]:
    """Return the cookie's (login, device id, given at) entries still valid, newest first."""
    raw = request.cookies.get(COOKIE_NAME)
    if not raw or len(raw) > 4000:
        return []
    max_age = _days() * 86400
    try:
        data: Any = _serializer().loads(raw, max_age=max_age)
    except BadSignature:
        return []
    if not isinstance(data, list):
        return []
    now = int(time.time())
    entries = []
    for item in data:
        if (isinstance(item, list) and len(item) == 3 and isinstance(item[0], str)
                and isinstance(item[1], str) and len(item[1]) == 32
                and isinstance(item[2], int) and now - item[2] < max_age):
            entries.append((item[0], item[1], item[2]))
    return entries[:MAX_ENTRIES]


def device_for(login: str) -> str | None:
    """Return the id of this browser as a remembered device of ``login``, or None."""
    for entry_login, device, _given in _entries():
        if entry_login == login:
            return device
    return None


def remember(response: Response, login: str, device: str | None) -> None:
    """Set the cookie so this browser is a remembered device of ``login`` (renewed at each sign-in)."""
    entries = [[entry_login, entry_device, given] for entry_login, entry_device, given in _entries()
               if entry_login != login]
    entries.insert(0, [login, device or secrets.token_hex(16), int(time.time())])
    secure = bool(request.is_secure or current_app.config.get("SESSION_COOKIE_SECURE"))
    response.set_cookie(COOKIE_NAME, _serializer().dumps(entries[:MAX_ENTRIES]),
                        max_age=_days() * 86400, httponly=True, secure=secure,
                        samesite="Lax", path="/")
