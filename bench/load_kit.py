"""What the load benches share (``load_test.py``, ``classroom_load.py``, ``two_servers.py``).

A device's browser (a cookie-keeping HTTP client on one keep-alive connection, which
sends the CSRF token as the pages do), a free port, the server's processes as /proc
tells them (children, CPU seconds), the load average, a nearest-rank percentile, and
stopping a process a bench started. Imported by its neighbours with the bench folder
on ``sys.path`` (as ``two_servers.py`` imports ``load_test``); not a test helper.
"""
from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')


class Browser:
    """A cookie-keeping HTTP client on one keep-alive connection (a device's browser)."""

    def __init__(self, port: int, host: str = "127.0.0.1") -> None:
        self.host, self.port = host, port
        self.conn = http.client.HTTPConnection(host, port, timeout=30)
        self.cookies: dict[str, str] = {}
        self.csrf = ""

    @classmethod
    def at(cls, url: str) -> Browser:
        """A browser for the server at ``url`` (``http://host:port``)."""
        parts = urlsplit(url)
        return cls(parts.port or 80, parts.hostname or "127.0.0.1")

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        """Send one request; return (status, headers, body). A dropped connection is opened
        again once (a worker restarted, the keep-alive timed out)."""
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=body, headers=sent)
                response = self.conn.getresponse()
                data = response.read()
                break
            except (http.client.HTTPException, ConnectionError, TimeoutError):
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
                if attempt:
                    raise
        for key, value in response.getheaders():
            if key.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        return response.status, dict(response.getheaders()), data

    def page(self, path: str) -> str:
        """GET a page and keep its CSRF token; return its text."""
        _, _, data = self.request("GET", path)
        text = data.decode()
        match = CSRF_META.search(text)
        if match:
            self.csrf = match.group(1)
        return text

    def post_form(self, path: str, fields: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        """POST a form with the CSRF token."""
        return self.request("POST", path, urlencode({"csrf_token": self.csrf, **(fields or {})}).encode(),
                            {"Content-Type": "application/x-www-form-urlencoded"})

    def post_json(self, path: str, payload: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
        """POST JSON as the pages' scripts do, the CSRF token in the header."""
        return self.request("POST", path, json.dumps(payload).encode(),
                            {"Content-Type": "application/json", "X-CSRFToken": self.csrf})

    def sign_in(self, login: str, password: str) -> int:
        """Sign in through the form; return the status (302: signed in)."""
        self.page("/auth/login")
        status, _, _ = self.post_form("/auth/login", {"login": login, "password": password})
        return status


def free_port() -> int:
    """Return a free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def stop(process: subprocess.Popen[Any]) -> None:
    """Stop a process this bench started: SIGTERM, and SIGKILL if it has not ended in 30 s."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def children(pid: int) -> list[int]:
    """Return the child process ids of ``pid`` (gunicorn's workers)."""
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """Return utime + stime of each live process, in seconds (/proc/<pid>/stat)."""
    tick = os.sysconf("SC_CLK_TCK")
    times = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        times[pid] = (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return times


def loadavg() -> tuple[float, float, float]:
    """Return the 1, 5 and 15 minute load averages."""
    one, five, fifteen = Path("/proc/loadavg").read_text().split()[:3]
    return float(one), float(five), float(fifteen)


def percentile(values: list[float], p: float, empty: float = 0.0) -> float:
    """Return the p-th percentile of ``values`` by the nearest rank (``empty`` when none)."""
    if not values:
        return empty
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]
