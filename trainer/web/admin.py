"""Admin pages: the list of accounts and creating supervisors."""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user
from werkzeug.wrappers import Response

from trainer.extensions import db
from trainer.models import AuditLog, Role, User, normalize_login
from trainer.models.types import ID_MAX, bounded_int
from trainer.services import audit
from trainer.web.access import role_required
from trainer.web.forms import NewAccountForm, add_error

AUDIT_PAGE_SIZE = 100

bp = Blueprint("admin", __name__, url_prefix="/admin")


@bp.route("/users")
@role_required(Role.ADMIN)
def users() -> str:
    """List every account."""
    accounts = db.session.execute(db.select(User).order_by(User.role, User.login)).scalars()
    return render_template("admin/users.html", users=list(accounts))


@bp.route("/supervisors/new", methods=["GET", "POST"])
@role_required(Role.ADMIN)
def new_supervisor() -> str | Response:
    """Create a supervisor account."""
    form = NewAccountForm()
    if form.validate_on_submit():
        login = normalize_login(form.login.data or "")
        if db.session.execute(db.select(User.id).filter_by(login=login)).first():
            add_error(form.login, _("That login is taken."))
        else:
            user = User(name=(form.name.data or "").strip(), login=login, role=Role.SUPERVISOR)
            user.set_password(form.password.data or "")
            db.session.add(user)
            db.session.flush()
            audit.record(current_user.id, "account.create", "user", user.id,
                         new=audit.account_fields(user))
            db.session.commit()
            flash(_("Supervisor %(name)s created.", name=user.name), "success")
            return redirect(url_for("admin.users"))
    return render_template("admin/new_supervisor.html", form=form)


@bp.route("/users/<id:user_id>/active", methods=["POST"])
@role_required(Role.ADMIN)
def set_active(user_id: int) -> Response:
    """Deactivate an account (ending its sessions) or reactivate it."""
    user = db.session.get(User, user_id)
    if user is None:
        abort(404)
    wanted = request.form.get("active")
    if wanted not in ("0", "1"):
        abort(400)
    if user.id == current_user.id:
        flash(_("You cannot deactivate your own account."), "error")
        return redirect(url_for("admin.users"))
    try:
        audit.change_active(current_user.id, current_user.role, user, wanted == "1")
    except audit.ReactivationRefused as error:
        flash(str(error), "error")
        return redirect(url_for("admin.users"))
    db.session.commit()
    flash(_("%(name)s is now %(state)s.", name=user.name,
            state=_("active") if user.active else _("inactive")), "success")
    return redirect(url_for("admin.users"))


@bp.route("/audit")
@role_required(Role.ADMIN)
def audit_log() -> str:
    """Show the audit log, newest first, a page at a time."""
    # An out-of-range page number (or 2**70) shows the first page, never a query error.
    page = bounded_int(request.args.get("page", ""), 1, ID_MAX) or 1
    action = request.args.get("action", "").strip()
    query = db.select(AuditLog).order_by(AuditLog.at.desc(), AuditLog.id.desc())
    if action:
        query = query.where(AuditLog.action.startswith(action, autoescape=True))
    rows = db.session.execute(
        query.limit(AUDIT_PAGE_SIZE + 1).offset((page - 1) * AUDIT_PAGE_SIZE)
    ).scalars().all()
    users = {u.id: u for u in db.session.execute(db.select(User)).scalars()}
    return render_template("admin/audit.html", rows=rows[:AUDIT_PAGE_SIZE], users=users,
                           page=page, more=len(rows) > AUDIT_PAGE_SIZE, action=action)
