"""The "Your PDF is being prepared" page in a browser (QA walk after issue 27): no timed
refresh; its script asks every few seconds, and once a worker has printed the PDF the page
says "Your PDF is ready" with its link and the download starts once."""
from __future__ import annotations

import threading
from typing import Any

from flask import Flask

from tests.e2e.conftest import sign_in
from trainer.services import jobs
from trainer.services.job_worker import Worker
from trainer.services.jobs import Runner
from trainer.web.platform import sheets


def test_the_waiting_page_says_ready_and_downloads_once(app: Flask, live_server: str, page: Any,
                                                        monkeypatch: Any) -> None:
    app.extensions[jobs.EXTENSION] = Runner(str(app.config["SQLALCHEMY_DATABASE_URI"]),
                                            mode="worker")
    monkeypatch.setattr(sheets, "print_to_pdf", lambda html: b"%PDF-1.4 fake")
    worker = Worker(str(app.config["SQLALCHEMY_DATABASE_URI"]), beat_seconds=0.05,
                    poll_seconds=0.05, around=app.app_context)
    sign_in(page, live_server)
    downloads: list[Any] = []
    page.on("download", lambda download: downloads.append(download))
    response = page.goto(f"{live_server}/house-way/golden-nugget/pdf?paper=a4")
    assert response is not None and response.status == 202
    assert page.locator("meta[http-equiv=refresh]").count() == 0
    assert page.is_visible("text=Your PDF is being prepared")
    assert not page.is_visible(".pdf-ready")
    printer = threading.Thread(target=worker.run_once)
    printer.start()
    printer.join(timeout=60)
    page.wait_for_selector(".pdf-ready h1", state="visible", timeout=15_000)
    assert page.is_visible("text=Your PDF is ready") and not page.is_visible(".pdf-waiting")
    assert page.get_attribute(".pdf-ready a[download]", "href") == \
        "/house-way/golden-nugget/pdf?paper=a4"
    page.wait_for_timeout(7_000)  # two more polling periods: nothing asks or downloads again
    assert len(downloads) == 1
    assert page.title().startswith("Your PDF is ready")
