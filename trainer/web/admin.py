"""Admin pages: the list of accounts and creating supervisors."""
from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from trainer.extensions import db
from trainer.models import Role, User, normalize_login
from trainer.web.access import role_required
from trainer.web.forms import NewAccountForm

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
        login = normalize_login(form.login.data)
        if db.session.execute(db.select(User.id).filter_by(login=login)).first():
            form.login.errors.append(_("That login is taken."))
        else:
            user = User(name=form.name.data.strip(), login=login, role=Role.SUPERVISOR)
            user.set_password(form.password.data)
            db.session.add(user)
            db.session.commit()
            flash(_("Supervisor %(name)s created.", name=user.name), "success")
            return redirect(url_for("admin.users"))
    return render_template("admin/new_supervisor.html", form=form)
