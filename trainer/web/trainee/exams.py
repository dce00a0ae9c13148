"""A trainee's certification exams: see the one scheduled, start it once, read the result.

The exam itself is played on the drills pages as a sealed session; this module
only starts it (``trainer.services.certification``) and shows what is kept afterwards.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user
from werkzeug.wrappers import Response

from trainer.extensions import db
from trainer.models import CertificationExam, ExamStatus, Role
from trainer.services.certification import exams as certification
from trainer.services.certification import outcome as exam_outcome
from trainer.services.certification.criteria import Criterion
from trainer.web.platform.access import get_owned_or_404, role_required
from trainer.web.words.data_words import kept_rules_words
from trainer.web.words.engine_words import message_words

bp = Blueprint("exams", __name__, url_prefix="/exams")

RECENT_RESULTS = 3


def get_own_exam_or_404(exam_id: int) -> CertificationExam:
    """Return one of the signed-in trainee's exams, or 404 for anyone else's."""
    return get_owned_or_404(CertificationExam, exam_id, lambda e: e.trainee_id == current_user.id)


@bp.app_context_processor
def exam_helpers() -> dict[str, Any]:
    """Let the trainee's home page list their exams without the main blueprint knowing of them."""

    def my_exams() -> list[CertificationExam]:
        """Return the signed-in trainee's open exams and latest results, judging ended ones first."""
        if not current_user.is_authenticated or current_user.role != Role.TRAINEE:
            return []
        certification.record_results([current_user.id])
        open_exams = certification.open_exams(current_user.id)
        finished = db.session.execute(
            db.select(CertificationExam)
            .filter_by(trainee_id=current_user.id, status=ExamStatus.FINISHED)
            .order_by(CertificationExam.finished_at.desc())
            .limit(RECENT_RESULTS)
        ).scalars().all()
        return [*open_exams, *finished]

    def exam_rules_words(exam: Any) -> str:
        """Say the table rules an exam (or its record) keeps from its scheduling, in words."""
        return kept_rules_words(exam.table_rules, exam.profile)

    return {"my_exams": my_exams, "exam_rules_words": exam_rules_words}


@bp.route("/<id:exam_id>")
@role_required(Role.TRAINEE)
def show_exam(exam_id: int) -> str:
    """Show an exam: what it asks before it starts, the result once it is over."""
    exam = get_own_exam_or_404(exam_id)
    certification.bring_up_to_date([current_user.id])
    return render_template(
        "exams/show.html", exam=exam, criterion=Criterion.from_dict(exam.criteria),
        outcome=exam_outcome.outcomes([exam.id]).get(exam.id),
    )


@bp.route("/<id:exam_id>/start", methods=["POST"])
@role_required(Role.TRAINEE)
def start_exam(exam_id: int) -> Response:
    """Start a scheduled exam, once, and go to its first question."""
    exam = get_own_exam_or_404(exam_id)
    if exam.status == ExamStatus.STARTED and exam.session_id:
        return redirect(url_for("drills.play", session_id=exam.session_id))
    try:
        session_id = certification.start_exam(exam.id, current_user.id)
    except certification.ExamError as error:
        flash(message_words(error), "error")
        return redirect(url_for("exams.show_exam", exam_id=exam.id))
    flash(_("Exam started. No answers are shown until the end."), "info")
    return redirect(url_for("drills.play", session_id=session_id))
