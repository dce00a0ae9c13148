"""Each role's home page and a user's own drill records."""
from __future__ import annotations

from flask import Blueprint, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required
from sqlalchemy import func
from sqlalchemy.orm import joinedload
from werkzeug.routing import BuildError
from werkzeug.wrappers import Response

from trainer.extensions import db
from trainer.models import Attempt, Group, Membership, Role, User
from trainer.services import drills as drill_service
from trainer.services import progress
from trainer.services.certification import exams as certification
from trainer.services.certification.criteria import Readiness
from trainer.web import drill_kinds
from trainer.web import learning as learning_pages
from trainer.web.access import get_owned_or_404, role_required
from trainer.web.exam_lock import exam_locked

bp = Blueprint("main", __name__)

RECENT_RESULTS = 20
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


def recent_attempts(
    user_id: int, limit: int = RECENT_RESULTS, *, include_sealed: bool = False
) -> list[Attempt]:
    """Return a user's latest attempts, newest first.

    Those of an exam not yet ended are left out unless ``include_sealed`` (the
    supervisor's pages): the trainee sees them when the exam ends.
    """
    # Each row names its session's kind of dealing ("My mistakes (practice)"): the
    # sessions come in the same statement, not one query per row.
    query = db.select(Attempt).options(joinedload(Attempt.session)).filter_by(user_id=user_id)
    if not include_sealed:
        query = certification.without_sealed(query, user_id)
    return list(
        db.session.execute(
            query.order_by(Attempt.answered_at.desc(), Attempt.id.desc()).limit(limit)
        ).scalars()
    )


def drills_url() -> str | None:
    """Return the drills page once a drills blueprint exists, else None."""
    try:
        return url_for("drills.index")
    except BuildError:
        return None


def supervised_groups(supervisor_id: int | None) -> list[tuple[Group, int]]:
    """Return a supervisor's groups (every group for None) with the number of trainees in each."""
    query = (db.select(Group, func.count(Membership.user_id))
             .outerjoin(Membership, Membership.group_id == Group.id))
    if supervisor_id is not None:
        query = query.filter(Group.supervisor_id == supervisor_id)
    rows = db.session.execute(query.group_by(Group.id).order_by(Group.name, Group.id)).all()
    return [(group, count) for group, count in rows]


@bp.route("/")
@login_required
def index() -> str:
    """Show the signed-in user's home page for their role."""
    if current_user.role == Role.SUPERVISOR:
        return render_template(
            "main/supervisor_home.html", groups=supervised_groups(current_user.id)
        )
    if current_user.role == Role.MANAGER:
        # Every group, read-only, and the house ways the manager owns.
        return render_template("main/manager_home.html", groups=supervised_groups(None))
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
        attempts=recent_attempts(current_user.id),
        exam_running=certification.exam_in_progress(current_user.id),
        group=current_user.group,
        drills_url=drills_url(),
        drills=[(kind.slug, kind.title) for kind in kinds],
        readiness_names=MY_READINESS,
        # Practice that adapts (issue 30): one drill's rule families, today's practice and
        # the forecast, the drill chosen by ``?learn=`` (web/learning.py).
        learning=learning_pages.home_panel(current_user.id, request.args.get("learn")),
    )


@bp.route("/results")
@role_required(Role.TRAINEE)
def my_results() -> str:
    """List the signed-in trainee's attempts."""
    drill_service.settle_overdue(user_ids=[current_user.id])
    return render_template("main/results.html", attempts=recent_attempts(current_user.id, 200),
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
