"""Helpers for web tests: act as a browser would, CSRF token included."""
from __future__ import annotations

import re
import threading
from typing import Any
from urllib.parse import urlencode

from flask.testing import FlaskClient

_CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')


def csrf_token(client: FlaskClient, path: str = "/auth/login") -> str:
    """GET a page and return the CSRF token from its meta tag, as app.js does."""
    response = client.get(path, follow_redirects=True)
    match = _CSRF_META.search(response.get_data(as_text=True))
    assert match, f"no csrf-token meta tag on {path}"
    return match.group(1)


def post_form(client: FlaskClient, path: str, data: dict[str, Any] | None = None, **kwargs: Any) -> Any:
    """POST a form the way a browser does: with a fresh CSRF token."""
    form = {"csrf_token": csrf_token(client), **(data or {})}
    return client.post(path, data=form, **kwargs)


def login(client: FlaskClient, account: Any, next_url: str | None = None) -> Any:
    """Sign ``account`` (anything with ``login`` and ``password``) in through the form."""
    path = "/auth/login" if next_url is None else "/auth/login?" + urlencode({"next": next_url})
    return post_form(client, path, {"login": account.login, "password": account.password})


def run_together(workers: list[Any]) -> list[Any]:
    """Run callables in threads released at the same moment; return their results in order."""
    barrier = threading.Barrier(len(workers))
    results: list[Any] = [None] * len(workers)
    errors: list[BaseException] = []

    def run(i: int, fn: Any) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = fn()
        except BaseException as exc:  # any failure, reported to the test below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i, fn)) for i, fn in enumerate(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    return results
