"""Time the house-way sheet PDFs: printed cold, served from the cache, and after a restart.

An app is made on a fresh temporary instance folder (its own SQLite file), the
demo accounts are seeded with ``trainer seed-demo`` through the app's CLI, and
the demo trainee signs in through the test client. For every preset,
``GET /house-way/<preset>/pdf`` is timed: the first request (cold: the cache is
empty, so real Chromium at /usr/bin/chromium prints it), then ``CACHED``
requests served from ``instance/pdf-cache/`` (median and worst). Then a second
app is made on the same instance folder (a restart: new process state, same
disk) and its first request per preset is timed; it must be served from the
cache, checked two ways: ``print_to_pdf`` is not called, and every cached file's
name and mtime are unchanged. Server time is wall time around ``client.get``
and reading the body (the WSGI app, the database, the cache; no network).
Prints a table and the load average before and after each phase.
Figures go in docs/operations.md ("PDF timings (issue 15)").

    .venv/bin/python bench/pdf_bench.py            # launches Chromium once per preset
"""
from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from trainer import create_app
from trainer.cli.accounts import DEMO_TRAINEE_PASSWORD, DEMO_TRAINEES, seed_demo
from trainer.engine.house_way import preset_names
from trainer.extensions import db
from trainer.web.platform import sheets

CACHED = 20
BUDGET_MS = 50


def _loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _children_cpu_s() -> float:
    """CPU seconds used so far by finished child processes (Chromium)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _make_app(instance: str) -> Flask:
    return create_app({
        "TESTING": True, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(instance) / 'bench.sqlite3'}",
        # The print timed here runs in the calling thread (as the tests do); a deployment
        # queues it for `trainer worker` and the page says "being prepared" (issue 25).
        "JOB_RUNNER": "inline",
    })


def _signed_in(app: Flask) -> FlaskClient:
    client = app.test_client()
    response = client.post("/auth/login",
                           data={"login": DEMO_TRAINEES[0][0], "password": DEMO_TRAINEE_PASSWORD})
    assert response.status_code == 302, f"sign-in failed: {response.status_code}"
    return client


def _timed_get(client: FlaskClient, url: str) -> tuple[float, int]:
    """Return the server ms of one GET of ``url`` and the body size; fail on anything but a PDF."""
    start = time.perf_counter()
    response = client.get(url)
    body = response.get_data()
    ms = (time.perf_counter() - start) * 1000
    assert response.status_code == 200, (url, response.status_code, body[:300])
    assert response.mimetype == "application/pdf" and body.startswith(b"%PDF"), url
    return ms, len(body)


def _cache_state(cache_dir: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in cache_dir.glob("*.pdf")}


def _first_requests(app: Flask, presets: list[str]) -> dict[str, float]:
    """Sign in on ``app`` and return the server ms of the first PDF request per preset."""
    client = _signed_in(app)
    return {name: _timed_get(client, f"/house-way/{name}/pdf")[0] for name in presets}


def _restarted_process(instance: str) -> int:
    """The fresh-process restart: time the first requests, refuse to print, print JSON."""
    os.environ["TRAINER_INSTANCE_PATH"] = instance

    def refuse(html: str) -> bytes:
        raise AssertionError("the restarted process printed a PDF")

    sheets.print_to_pdf = refuse  # type: ignore[assignment]
    print(json.dumps(_first_requests(_make_app(instance), preset_names())))
    return 0


def main() -> int:
    """Time every preset cold, cached and after a restart; print the table."""
    if sys.argv[1:2] == ["--restart"]:
        return _restarted_process(sys.argv[2])
    instance = tempfile.mkdtemp(prefix="paigow-pdf-bench-")
    os.environ["TRAINER_INSTANCE_PATH"] = instance
    cache_dir = Path(instance) / "pdf-cache"

    printed: list[str] = []
    original: Callable[[str], bytes] = sheets.print_to_pdf

    def counting_print(html: str) -> bytes:
        printed.append(html[:40])
        return original(html)

    sheets.print_to_pdf = counting_print  # type: ignore[assignment]

    app = _make_app(instance)
    with app.app_context():
        db.create_all()
    result = app.test_cli_runner().invoke(seed_demo, ["--accounts-only"])  # `trainer seed-demo`
    assert result.exit_code == 0, result.output
    client = _signed_in(app)
    presets = preset_names()
    print(f"instance {instance}; {len(presets)} presets; {os.cpu_count()} CPUs; "
          f"Chromium {sheets.CHROMIUM}")

    cold: dict[str, float] = {}
    sizes: dict[str, int] = {}
    chromium_cpu: dict[str, float] = {}
    load = {"cold": [_loadavg()]}
    for name in presets:
        before_cpu, before_prints = _children_cpu_s(), len(printed)
        cold[name], sizes[name] = _timed_get(client, f"/house-way/{name}/pdf")
        chromium_cpu[name] = _children_cpu_s() - before_cpu
        assert len(printed) == before_prints + 1, f"{name}: cold request did not print"
    load["cold"].append(_loadavg())

    cached: dict[str, list[float]] = {}
    load["cached"] = [_loadavg()]
    before_prints = len(printed)
    cpu_start = time.process_time()
    for name in presets:
        cached[name] = [_timed_get(client, f"/house-way/{name}/pdf")[0] for _ in range(CACHED)]
    cached_cpu_ms = (time.process_time() - cpu_start) * 1000 / (CACHED * len(presets))
    assert len(printed) == before_prints, "a cached request printed"
    load["cached"].append(_loadavg())

    state = _cache_state(cache_dir)
    assert len(state) == len(presets), state
    del client, app

    # A restart, twice: a new app on the same instance folder in this process (new
    # engine, config and Jinja environment; module state stays), and one in a fresh
    # Python process (nothing in memory; its first request of all is timed too).
    load["restart"] = [_loadavg()]
    restart_start = time.perf_counter()
    second = _make_app(instance)
    restart_app_ms = (time.perf_counter() - restart_start) * 1000
    before_prints = len(printed)
    restarted = _first_requests(second, presets)
    load["restart"].append(_loadavg())
    assert len(printed) == before_prints, "the restarted app printed a PDF"
    assert _cache_state(cache_dir) == state, "the cache changed across the restart"
    load["process"] = [_loadavg()]
    fresh = subprocess.run([sys.executable, __file__, "--restart", instance],
                           capture_output=True, text=True, check=False)
    assert fresh.returncode == 0, fresh.stderr
    new_process: dict[str, float] = json.loads(fresh.stdout)
    load["process"].append(_loadavg())
    assert _cache_state(cache_dir) == state, "the cache changed across the process restart"

    print(f"\n{'preset':<22}{'cold ms':>9}{'Chromium CPU s':>16}{'cached median':>15}"
          f"{'cached max':>12}{'restarted app':>15}{'new process':>13}{'KiB':>6}")
    for name in presets:
        print(f"{name:<22}{cold[name]:>9.0f}{chromium_cpu[name]:>16.2f}"
              f"{statistics.median(cached[name]):>15.2f}{max(cached[name]):>12.2f}"
              f"{restarted[name]:>15.2f}{new_process[name]:>13.2f}{sizes[name] / 1024:>6.0f}")
    every_cached = [ms for values in cached.values() for ms in values]
    worst_served = max(max(every_cached), *restarted.values(), *new_process.values())
    print(f"\ncached: median {statistics.median(every_cached):.2f} ms over {len(every_cached)} "
          f"requests, CPU {cached_cpu_ms:.2f} ms per request; after restart: worst "
          f"{max(restarted.values()):.2f} ms in this process (new app made in {restart_app_ms:.0f} ms, "
          f"not counted), {max(new_process.values()):.2f} ms in a new process")
    print(f"Chromium launches: {len(presets)} (one per preset, cold only); "
          f"after either restart: 0, cache files and mtimes unchanged")
    for phase, (before, after) in load.items():
        print(f"load average, {phase:<8} before {before}   after {after}")
    verdict = "OK" if worst_served < BUDGET_MS else "OVER"
    print(f"slowest served-from-cache request: {worst_served:.2f} ms (budget {BUDGET_MS} ms): {verdict}")
    return 0 if worst_served < BUDGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
