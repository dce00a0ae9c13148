"""Request cuts that change how, never what (the speed tweaks proper, with their switch,
are tested in tests/web/test_fast_paths.py).

- The protective headers are added in one pass: each once, a view's own kept.
- A sweep's settle (``_settle_one``) of a session's last question finishes the
  session with a Core UPDATE that an ORM read of the session sees afterwards.
"""
from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from trainer.extensions import db
from trainer.models import DrillSession, IssuedQuestion
from trainer.services import drills as drill_service
from trainer.services.drills import timeouts
from web.helpers import login
from web.test_drills import fetch_question, start


def test_protective_headers_are_sent_once_and_a_views_own_is_kept(app: Flask) -> None:
    @app.route("/_framed")
    def framed() -> tuple[str, int, dict[str, str]]:
        return "ok", 200, {"X-Frame-Options": "SAMEORIGIN"}

    client = app.test_client()
    for path in ("/healthz", "/_framed"):
        headers = client.get(path).headers
        for name in ("Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options",
                     "Referrer-Policy", "Permissions-Policy", "Cross-Origin-Opener-Policy"):
            assert len(headers.getlist(name)) == 1, (path, name)
    assert client.get("/_framed").headers["X-Frame-Options"] == "SAMEORIGIN"
    assert client.get("/healthz").headers["X-Frame-Options"] == "DENY"


def test_a_swept_last_question_finishes_the_session_an_orm_read_then_sees(
    app: Flask, client: FlaskClient, trainee: Any
) -> None:
    login(client, trainee)
    session_id = start(client, "action", "timed")
    with app.app_context():
        db.session.get(DrillSession, session_id).length = 1
        db.session.commit()
    fetch_question(client, session_id)
    with app.app_context():
        row = db.session.execute(db.select(IssuedQuestion).filter_by(
            session_id=session_id, position=1)).scalar_one()
        row.issued_at -= timedelta(hours=1)
        db.session.commit()
        session = db.session.get(DrillSession, session_id)
        assert session.finished_at is None
        assert drill_service.settle_overdue(session_id=session_id) == 1
        # The settle's commit expired the ORM row: this reads the Core UPDATE's value.
        assert session.finished_at is not None
        assert timeouts.settle_one(row.id) is False  # once only
