"""Throttling across worker processes: 20 parallel wrong guesses against gunicorn -w 4;
the refused ones are answered at once with ``Retry-After`` (issue 24).

The server runs on 127.0.0.1 with its own instance folder and a fresh database
(SQLite, or the TEST_DATABASE_URL PostgreSQL database emptied first), set up
with ``trainer db upgrade`` and ``trainer create-user`` as an operator would.
Every password check is preceded by its ``LoginFailure`` reservation and a
refused try writes none, so the rows for the login count the checks.
"""
from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
LOGIN = "victim"
GUESSES = 20
_CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _run(env: dict[str, str], *args: str) -> None:
    subprocess.run([str(BIN / "trainer"), *args], env=env, cwd=ROOT, check=True,
                   capture_output=True, timeout=120)


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Start gunicorn with 4 workers on a free port; yield (base URL, database URL)."""
    env = {**os.environ, "TRAINER_INSTANCE_PATH": str(tmp_path / "instance"),
           "DATABASE_URL": database_url, "SECRET_KEY": "gunicorn-test-key",
           "FLASK_PASSWORD_HASH_METHOD": "scrypt:1024:8:1"}
    _run(env, "db", "upgrade")
    _run(env, "create-user", "--role", "trainee", "--login", LOGIN,
         "--password", "right-horse-battery-9")
    port = _free_port()
    process = subprocess.Popen(
        [str(BIN / "gunicorn"), "-w", "4", "-b", f"127.0.0.1:{port}", "trainer:create_app()"],
        env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(base + "/healthz", timeout=2).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("gunicorn did not start") from None
                time.sleep(0.2)
        yield base, database_url
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None


def test_twenty_parallel_wrong_guesses_against_four_workers_check_at_most_five_passwords(
        server: tuple[str, str]) -> None:
    base, database_url = server
    statuses: list[int] = []
    retry_after: list[str] = []
    ready = threading.Barrier(GUESSES)

    def guess(n: int) -> None:
        opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), _NoRedirect())
        page = opener.open(base + "/auth/login", timeout=30).read().decode()
        token = _CSRF_META.search(page).group(1)
        body = urllib.parse.urlencode({"csrf_token": token, "login": LOGIN,
                                       "password": f"wrong-guess-{n}"}).encode()
        ready.wait(timeout=60)
        try:
            opener.open(base + "/auth/login", data=body, timeout=60)
            statuses.append(200)
        except urllib.error.HTTPError as error:
            statuses.append(error.code)
            if error.code == 429:  # answered at once, saying when to try again (issue 24)
                retry_after.append(error.headers.get("Retry-After", ""))

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(GUESSES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    engine = sa.create_engine(database_url)
    try:
        with engine.connect() as connection:
            checks = connection.execute(
                sa.text("SELECT count(*) FROM login_failures WHERE login = :login"),
                {"login": LOGIN},
            ).scalar_one()
    finally:
        engine.dispose()
    assert len(statuses) == GUESSES
    assert set(statuses) <= {401, 429}, statuses
    assert checks == 5  # at most five, and the lock lets exactly five through
    assert statuses.count(401) == checks  # every check answered "wrong", every other try refused
    assert statuses.count(429) == GUESSES - checks
    assert len(retry_after) == GUESSES - checks
    assert all(value.isdigit() and 840 < int(value) <= 900 for value in retry_after), retry_after
