"""Each role's home page and a user's own drill records."""
from __future__ import annotations

from flask import Blueprint, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required
from sqlalchemy import func
from werkzeug.routing import BuildError
from werkzeug.wrappers import Response

from trainer.extensions import db
from trainer.models import Attempt, Role, User
from trainer.services import drills as drill_service
from trainer.services import groups as group_service
from trainer.services import progress
from trainer.services.certification import exams as certification
from trainer.services.certification.criteria import Readiness
from trainer.web.platform import drill_kinds
from trainer.web.platform.access import get_owned_or_404, role_required
from trainer.web.platform.exam_lock import exam_locked
from trainer.web.trainee import learning as learning_pages

bp = Blueprint("main", __name__)

# A trainee's own readiness, said to them (the supervisor's pages name it in the third person).
MY_READINESS = {
    Readiness.CERTIFIED: _l("You are certified: ready to deal"),
    Readiness.REFRESHER: _l(
        "You are certified: ready to deal, but a criterion has slipped: time for a refresher"),
    Readiness.EXAM_SCHEDULED: _l("Your exam is scheduled"),
    Readiness.EXAM_DUE: _l("You meet the criteria: ready for the exam"),
    Readiness.TRAINING: _l("In training"),
    Readiness.NO_DATA: _l("No timed practice yet: timed sessions count toward certification"),
    Readiness.NO_CRITERIA: _l("Your group has no certification criteria"),
}


def get_own_attempt_or_404(attempt_id: int) -> Attempt:
    """Return one of the signed-in user's attempts, or 404 for anyone else's."""
    return get_owned_or_404(Attempt, attempt_id, lambda a: a.user_id == current_user.id)


def drills_url() -> str | None:
    """Return the drills page once a drills blueprint exists, else None."""
    try:
        return url_for("drills.index")
    except BuildError:
        return None


@bp.route("/")
@login_required
def index() -> str:
    """Show the signed-in user's home page for their role."""
    if current_user.role == Role.SUPERVISOR:
        return render_template(
            "main/supervisor_home.html", groups=group_service.supervised_groups(current_user.id)
        )
    if current_user.role == Role.MANAGER:
        # Every group, read-only, and the house ways the manager owns.
        return render_template("main/manager_home.html", groups=group_service.supervised_groups(None))
    if current_user.role == Role.ADMIN:
        counts = dict(
            db.session.execute(db.select(User.role, func.count()).group_by(User.role)).all()
        )
        return render_template("main/admin_home.html", counts=counts)
    drill_service.settle_overdue(user_ids=[current_user.id])
    kinds = drill_kinds.drill_kinds()
    return render_template(
        "main/trainee_home.html",
        progress=progress.trainee_progress(current_user.id, current_user.group,
                                           [kind.slug for kind in kinds]),
        attempts=progress.recent_attempts(current_user.id),
        exam_running=certification.exam_in_progress(current_user.id),
        group=current_user.group,
        drills_url=drills_url(),
        drills=[(kind.slug, kind.title) for kind in kinds],
        readiness_names=MY_READINESS,
        # Practice that adapts (issue 30): one drill's rule families, today's practice and
        # the forecast, the drill chosen by ``?learn=`` (web/trainee/learning.py).
        learning=learning_pages.home_panel(current_user.id, request.args.get("learn")),
    )


@bp.route("/results")
@role_required(Role.TRAINEE)
def my_results() -> str:
    """List the signed-in trainee's attempts."""
    drill_service.settle_overdue(user_ids=[current_user.id])
    return render_template("main/results.html", attempts=progress.recent_attempts(current_user.id, 200),
                           exam_running=certification.exam_in_progress(current_user.id))


@bp.route("/results/<id:attempt_id>")
@login_required
def show_attempt(attempt_id: int) -> str | tuple[str | Response, int]:
    """Show one of the signed-in user's attempts; one of a running exam stays sealed."""
    attempt = get_own_attempt_or_404(attempt_id)
    if certification.attempt_sealed(attempt):
        return exam_locked(_("This answer is part of your certification exam. Its result "
                             "is shown when the exam ends."))
    return render_template("main/attempt.html", attempt=attempt)
