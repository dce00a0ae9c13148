"""The table-games manager's pages: the installation's house ways and table rules.

A manager owns the house ways and the table-rules profiles. Today this page lists
them in words with their printable sheets, PDFs, look-up and commission charts;
the house-way editor (issue 18) makes it its home. Admins, who outrank managers,
may open it too.
"""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from trainer.models import Role
from trainer.services import house_ways as catalogue
from trainer.services import profiles as profile_service
from trainer.web.manager.profile_form import ProfileForm, build_form, profile_from, side_tables
from trainer.web.platform import languages
from trainer.web.platform.access import role_required
from trainer.web.platform.sheets import PAPER_SIZES
from trainer.web.words.engine_words import message_words
from trainer.web.words.names import profile_name

bp = Blueprint("manager", __name__, url_prefix="/manager")


@bp.route("/house-ways")
@role_required(Role.MANAGER, Role.ADMIN)
def house_ways() -> str:
    """List every house way and table-rules profile, with links to print each."""
    return render_template("manager/house_ways.html", ways=catalogue.house_ways(),
                           profiles=catalogue.profiles(), papers=PAPER_SIZES, money=languages.money)


# --- Table-rules profiles by form (issue 18, item 2; services/profiles.py owns the list) ---


@bp.route("/profiles")
@role_required(Role.MANAGER, Role.ADMIN)
def profiles() -> str:
    """List every table-rules profile, preset and custom, with whether supervisors may pick it."""
    return render_template("manager/profiles.html", profiles=profile_service.entries(),
                           money=languages.money, form=FlaskForm())


def _save_profile(form: ProfileForm, name: str | None) -> str | None:
    """Validate the form and store it (new or edited); return the name, or None on errors."""
    valid = form.validate_on_submit()
    if not form.is_submitted():
        return None
    profile = profile_from(form)
    if not valid or profile is None:
        return None
    problem = profile_service.title_problem(profile.title, name)
    if problem:
        form.title.errors = [*form.title.errors, message_words(problem)]
        return None
    try:
        if name is None:
            return profile_service.create(current_user.id, profile)
        profile_service.update(current_user.id, name, profile)
        return name
    except profile_service.ProfileError as error:
        form.title.errors = [*form.title.errors, message_words(error)]
        return None


@bp.route("/profiles/new", methods=["GET", "POST"])
@role_required(Role.MANAGER, Role.ADMIN)
def new_profile() -> str | Response:
    """Make a table-rules profile from the engine's settings; it starts not offered."""
    copy = request.args.get("from", "")
    start = None
    if copy and profile_service.known(copy):
        start = profile_service.table_profile(copy)
        start = start.with_settings(title=_("Copy of %(title)s", title=start.title or copy))
    form = build_form(start, request.form if request.method == "POST" else None)
    name = _save_profile(form, None)
    if name is not None:
        flash(_("Table rules %(title)s saved. Offer them to let supervisors choose them.",
                title=profile_name(name)), "success")
        return redirect(url_for("manager.profiles"))
    return render_template("manager/profile_form.html", form=form, name=None,
                           tables=side_table_fields(form))


@bp.route("/profiles/<name>/edit", methods=["GET", "POST"])
@role_required(Role.MANAGER, Role.ADMIN)
def edit_profile(name: str) -> str | Response:
    """Change a custom profile; groups on it train by the change from their next session."""
    try:
        record = profile_service.get_custom(name)
    except profile_service.ProfileError:
        abort(404)
    form = build_form(profile_service.to_table_profile(record),
                      request.form if request.method == "POST" else None)
    if _save_profile(form, name) is not None:
        flash(_("Table rules %(title)s saved. Sessions started from now use them.",
                title=profile_name(name)), "success")
        return redirect(url_for("manager.profiles"))
    return render_template("manager/profile_form.html", form=form, name=name,
                           tables=side_table_fields(form))


@bp.route("/profiles/<name>/offer", methods=["POST"])
@role_required(Role.MANAGER, Role.ADMIN)
def offer_profile(name: str) -> Response:
    """Offer a profile to supervisors (offer=1) or withdraw it (offer=0)."""
    form = FlaskForm()
    if not form.validate_on_submit():
        abort(400)
    if not profile_service.known(name):
        abort(404)
    offer = request.form.get("offer") == "1"
    try:
        profile_service.set_offered(current_user.id, name, offer)
    except profile_service.ProfileError as error:
        flash(message_words(error), "error")
        return redirect(url_for("manager.profiles"))
    if offer:
        flash(_("Supervisors may now choose %(title)s.", title=profile_name(name)), "success")
    else:
        flash(_("%(title)s withdrawn: supervisors can no longer choose it; groups on it keep it.",
                title=profile_name(name)), "success")
    return redirect(url_for("manager.profiles"))


def side_table_fields(form: ProfileForm) -> list[dict[str, object]]:
    """Return each side bet's fields for the template, in the form's order."""
    rows = []
    for table in side_tables():
        rows.append({"offer": form[f"side-{table}"], "min": form[f"side-{table}-min"],
                     "max": form[f"side-{table}-max"],
                     "envy": getattr(form, f"side-{table}-envy", None),
                     "commission": form[f"side-{table}-commission"]})
    return rows
