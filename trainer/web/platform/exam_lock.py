"""Sealed exams on the web: what a trainee cannot open while their exam runs.

``trainer.services.certification`` decides whether an exam is running
(``exam_in_progress``) and which attempts stay sealed (``sealed_session_ids``);
this module turns that into one answer: a page (or, to a script, JSON) saying
the page is not available during the exam, with HTTP 423 (Locked). Blueprints
whose pages set or explain hands (the reference pages, the player's game)
register ``refuse_during_exam`` as a ``before_request``, so every route they
have, now or later, is closed while the exam runs.
"""
from __future__ import annotations

from flask_babel import gettext as _
from flask_login import current_user
from werkzeug.wrappers import Response

from trainer.models import Role
from trainer.services.certification import exams as certification
from trainer.web.platform.errors import render_error

LOCKED = 423


def exam_locked(message: str | None = None) -> tuple[str | Response, int]:
    """Answer that this is not available while the trainee's exam runs."""
    return render_error(
        LOCKED,
        _("Not available during your exam"),
        message or _("This page shows how hands are set or scored, so it is closed while "
                     "your certification exam is running. It opens again when the exam ends."),
    )


def refuse_during_exam() -> tuple[str | Response, int] | None:
    """Refuse a trainee whose exam is running; let everyone else through."""
    if not current_user.is_authenticated or current_user.role != Role.TRAINEE:
        return None
    if certification.exam_in_progress(current_user.id):
        return exam_locked()
    return None
