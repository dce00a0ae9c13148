"""The house-way PDF is printed once per key and then served from instance/pdf-cache/.

``print_to_pdf`` is the one function that starts Chromium; the tests count its
calls (and, with a real Chromium, the processes started).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from trainer import create_app
from trainer.engine.house_way import load
from trainer.extensions import db
from trainer.web.platform import sheets
from web.helpers import login

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture
def printed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Replace Chromium with a fake printer; return the list of pages it was asked to print."""
    pages: list[str] = []
    lock = threading.Lock()

    def fake_print(html: str) -> bytes:
        with lock:
            pages.append(html)
            number = len(pages)
        # Long enough that parallel requests overlap; the result does not depend on it.
        time.sleep(0.2)
        return b"%PDF-1.4 fake " + str(number).encode()

    monkeypatch.setattr(sheets, "print_to_pdf", fake_print)
    return pages


@pytest.fixture
def signed_in(client: Any, trainee: Any) -> Any:
    login(client, trainee)
    return client


def _cache_dir(app: Any) -> Path:
    return Path(app.instance_path) / "pdf-cache"


def _pdfs(app: Any) -> list[str]:
    return sorted(p.name for p in _cache_dir(app).glob("*.pdf"))


def test_the_second_request_is_served_from_the_cache_without_a_browser(app, signed_in, printed):
    first = signed_in.get("/house-way/trump-plaza/pdf")
    second = signed_in.get("/house-way/trump-plaza/pdf")
    assert first.status_code == second.status_code == 200
    assert len(printed) == 1
    assert second.data == first.data
    assert second.mimetype == "application/pdf"
    assert "trump-plaza-house-way-letter.pdf" in second.headers["Content-Disposition"]
    [name] = _pdfs(app)
    assert name.startswith("trump-plaza-letter-en-")
    assert (_cache_dir(app) / name).read_bytes() == first.data


def test_another_worker_with_the_same_instance_reads_the_cached_file(app, app_config, signed_in,
                                                                      trainee, printed):
    signed_in.get("/house-way/trump-plaza/pdf")
    other = create_app(app_config)  # same TRAINER_INSTANCE_PATH: another gunicorn worker
    client = other.test_client()
    login(client, trainee)
    assert client.get("/house-way/trump-plaza/pdf").status_code == 200
    assert len(printed) == 1
    with other.app_context():
        db.engine.dispose()


def test_each_paper_size_and_house_way_is_its_own_file(app, signed_in, printed):
    for url in ("/house-way/trump-plaza/pdf?paper=letter", "/house-way/trump-plaza/pdf?paper=a4",
                "/house-way/foxwoods/pdf", "/house-way/trump-plaza/pdf?paper=a4"):
        assert signed_in.get(url).status_code == 200
    assert len(printed) == 3
    assert "size: A4" in printed[1] and "size: letter" in printed[0]
    assert [n.rsplit("-", 1)[0] for n in _pdfs(app)] == [
        "foxwoods-letter-en", "trump-plaza-a4-en", "trump-plaza-letter-en"]


def test_changed_house_way_data_prints_anew_and_drops_the_old_file(app, signed_in, printed,
                                                                   monkeypatch):
    signed_in.get("/house-way/trump-plaza/pdf")
    old = _pdfs(app)
    monkeypatch.setattr(load("trump-plaza"), "digest", "edited-sheet-data")
    again = signed_in.get("/house-way/trump-plaza/pdf")
    assert again.status_code == 200 and again.data.endswith(b" 2")
    assert len(printed) == 2
    assert len(_pdfs(app)) == 1 and _pdfs(app) != old


def test_a_changed_template_prints_anew(app, signed_in, printed, monkeypatch):
    signed_in.get("/house-way/trump-plaza/pdf")
    monkeypatch.setattr(sheets, "sheet_template_version", lambda: "a-new-layout")
    signed_in.get("/house-way/trump-plaza/pdf")
    signed_in.get("/house-way/trump-plaza/pdf")
    assert len(printed) == 2


def test_the_template_version_follows_the_templates_and_stylesheets(app, tmp_path):
    from trainer.services.pdf_cache import template_version

    with app.app_context():
        env = app.jinja_env
        static = Path(app.static_folder)
        base = template_version(env, "reference/sheet.html", static)
        assert base == template_version(env, "reference/sheet.html", static)
        shutil.copytree(static, tmp_path / "static")
        assert template_version(env, "reference/sheet.html", tmp_path / "static") == base
        (tmp_path / "static" / "css" / "print.css").write_text("/* changed */", encoding="utf-8")
        assert template_version(env, "reference/sheet.html", tmp_path / "static") != base


def test_parallel_first_requests_print_once(app, trainee, printed):
    clients = [app.test_client() for _ in range(6)]
    for client in clients:
        login(client, trainee)
    barrier = threading.Barrier(len(clients))
    results: list[Any] = []

    def fetch(client: Any) -> None:
        barrier.wait(timeout=30)
        response = client.get("/house-way/trump-plaza/pdf")
        results.append((response.status_code, response.data))

    threads = [threading.Thread(target=fetch, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert len(printed) == 1
    assert len(results) == len(clients)
    # One job prints it (issue 25): the others are told it is being prepared, then read it.
    assert {status for status, _ in results} <= {200, 202}
    again = [client.get("/house-way/trump-plaza/pdf") for client in clients]
    assert {r.status_code for r in again} == {200}
    assert len({r.data for r in again}) == 1 and len(printed) == 1
    assert len(_pdfs(app)) == 1
    assert not [p for p in _cache_dir(app).iterdir() if p.name.startswith(".partial-")]


def test_a_failed_print_is_not_cached_and_the_next_success_is(app, signed_in, printed,
                                                               monkeypatch):
    working = sheets.print_to_pdf
    calls = []

    def broken(html: str) -> bytes:
        calls.append(html)
        raise sheets.PdfUnavailable("Chromium crashed.")

    monkeypatch.setattr(sheets, "print_to_pdf", broken)
    assert signed_in.get("/house-way/trump-plaza/pdf").status_code == 503
    assert signed_in.get("/house-way/trump-plaza/pdf").status_code == 503
    assert len(calls) == 2
    assert list(_cache_dir(app).glob("*.pdf")) == []
    monkeypatch.setattr(sheets, "print_to_pdf", working)
    assert signed_in.get("/house-way/trump-plaza/pdf").status_code == 200
    assert signed_in.get("/house-way/trump-plaza/pdf").status_code == 200
    assert len(printed) == 1
    assert [p.name for p in _cache_dir(app).iterdir() if p.name.startswith(".partial-")] == []


@pytest.mark.skipif(not os.path.exists(CHROMIUM) and not os.environ.get("CI"),
                    reason="no Chromium here")
def test_real_chromium_starts_once_for_two_requests(app, signed_in, monkeypatch):
    started: list[Any] = []
    real_run = subprocess.run

    def counting_run(*args: Any, **kwargs: Any) -> Any:
        started.append(args[0][0])
        return real_run(*args, **kwargs)

    monkeypatch.setattr(subprocess, "run", counting_run)
    first = signed_in.get("/house-way/golden-nugget/pdf?paper=a4")
    second = signed_in.get("/house-way/golden-nugget/pdf?paper=a4")
    assert first.status_code == second.status_code == 200
    assert first.data.startswith(b"%PDF") and second.data == first.data
    assert len(started) == 1
