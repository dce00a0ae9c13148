"""A supervisor's groups, their trainees and the trainees' passwords."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from trainer.extensions import db
from trainer.models import (
    DEFAULT_HOUSE_WAY,
    DEFAULT_PROFILE,
    Group,
    Membership,
    Role,
    User,
    normalize_login,
)
from trainer.web.forms import GroupForm, NewTraineeForm, ResetPasswordForm
from trainer.web.main import recent_attempts, supervised_groups

bp = Blueprint("supervisor", __name__, url_prefix="/supervisor")

HOUSE_WAY_PRESETS = Path(__file__).resolve().parent.parent / "engine" / "house_way" / "presets"
PROFILES = (DEFAULT_PROFILE,)


@bp.before_request
@login_required
def require_supervisor() -> None:
    """Keep every page of this blueprint to supervisors."""
    if current_user.role != Role.SUPERVISOR:
        abort(403)


def house_way_choices() -> list[str]:
    """Return the house way presets the engine ships, one data file each."""
    names = {path.stem for path in HOUSE_WAY_PRESETS.glob("*.toml")}
    return sorted(names | {DEFAULT_HOUSE_WAY})


def get_group_or_404(group_id: int) -> Group:
    """Return one of the signed-in supervisor's groups, or 404."""
    group = db.session.get(Group, group_id)
    if group is None or group.supervisor_id != current_user.id:
        abort(404)
    return group


def get_trainee_or_404(user_id: int) -> User:
    """Return a trainee in one of the signed-in supervisor's groups, or 404."""
    user = db.session.get(User, user_id)
    if (
        user is None
        or user.role != Role.TRAINEE
        or user.group is None
        or user.group.supervisor_id != current_user.id
    ):
        abort(404)
    return user


def _group_form(group: Group | None = None) -> GroupForm:
    form = GroupForm(obj=group)
    form.house_way.choices = house_way_choices()
    form.profile.choices = list(PROFILES)
    if group is not None:
        # Keep a setting the engine no longer ships selectable, not silently changed.
        for field, value in ((form.house_way, group.house_way), (form.profile, group.profile)):
            if value not in field.choices:
                field.choices.append(value)
    return form


def _login_taken(login: str) -> bool:
    return db.session.execute(
        db.select(User.id).filter_by(login=login)
    ).first() is not None


@bp.route("/")
def groups() -> Response:
    """Send supervisors to their home page, which lists their groups."""
    return redirect(url_for("main.index"))


@bp.route("/groups/new", methods=["GET", "POST"])
def new_group() -> str | Response:
    """Create a group led by the signed-in supervisor."""
    form = _group_form()
    if form.validate_on_submit():
        group = Group(
            name=form.name.data.strip(),
            supervisor_id=current_user.id,
            house_way=form.house_way.data,
            profile=form.profile.data,
            settings={},
        )
        db.session.add(group)
        db.session.commit()
        flash(_("Group %(name)s created.", name=group.name), "success")
        return redirect(url_for("supervisor.show_group", group_id=group.id))
    return render_template("supervisor/group_form.html", form=form, group=None)


@bp.route("/groups/<int:group_id>")
def show_group(group_id: int) -> str:
    """Show a group's trainees and settings."""
    group = get_group_or_404(group_id)
    trainees = sorted((m.user for m in group.memberships), key=lambda user: user.name.lower())
    return render_template("supervisor/group.html", group=group, trainees=trainees)


@bp.route("/groups/<int:group_id>/edit", methods=["GET", "POST"])
def edit_group(group_id: int) -> str | Response:
    """Rename a group or change the casino settings it trains on."""
    group = get_group_or_404(group_id)
    form = _group_form(group)
    if form.validate_on_submit():
        group.name = form.name.data.strip()
        group.house_way = form.house_way.data
        group.profile = form.profile.data
        db.session.commit()
        flash(_("Group %(name)s saved.", name=group.name), "success")
        return redirect(url_for("supervisor.show_group", group_id=group.id))
    return render_template("supervisor/group_form.html", form=form, group=group)


@bp.route("/trainees/new", methods=["GET", "POST"])
def new_trainee() -> str | Response:
    """Create a trainee in one of the signed-in supervisor's groups."""
    groups = [group for group, _count in supervised_groups(current_user.id)]
    if not groups:
        flash(_("Create a group first; every trainee belongs to one."), "info")
        return redirect(url_for("supervisor.new_group"))
    form = NewTraineeForm()
    form.group_id.choices = [(group.id, group.name) for group in groups]
    if form.validate_on_submit():
        login = normalize_login(form.login.data)
        if _login_taken(login):
            form.login.errors.append(_("That login is taken."))
        else:
            group = get_group_or_404(form.group_id.data)
            trainee = User(name=form.name.data.strip(), login=login, role=Role.TRAINEE)
            trainee.set_password(form.password.data)
            trainee.membership = Membership(group_id=group.id)
            db.session.add(trainee)
            db.session.commit()
            flash(_("Trainee %(name)s created.", name=trainee.name), "success")
            return redirect(url_for("supervisor.show_group", group_id=group.id))
    return render_template("supervisor/new_trainee.html", form=form)


@bp.route("/trainees/<int:user_id>")
def show_trainee(user_id: int) -> str:
    """Show a trainee's recent attempts."""
    trainee = get_trainee_or_404(user_id)
    return render_template(
        "supervisor/trainee.html", trainee=trainee, attempts=recent_attempts(trainee.id, 100)
    )


@bp.route("/trainees/<int:user_id>/password", methods=["GET", "POST"])
def reset_password(user_id: int) -> str | Response:
    """Give one of the supervisor's trainees a new password."""
    trainee = get_trainee_or_404(user_id)
    form = ResetPasswordForm()
    if form.validate_on_submit():
        trainee.set_password(form.password.data)
        db.session.commit()
        flash(_("New password set for %(name)s.", name=trainee.name), "success")
        return redirect(url_for("supervisor.show_trainee", user_id=trainee.id))
    return render_template("supervisor/reset_password.html", form=form, trainee=trainee)
