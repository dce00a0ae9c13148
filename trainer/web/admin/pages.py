"""Admin pages: accounts (create, reset a password, deactivate), the audit log, the room's time
zone, and the installation's language, currency and cards' letters."""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import refresh
from flask_login import current_user
from werkzeug.wrappers import Response

from trainer.extensions import db
from trainer.models import AuditLog, Role, User
from trainer.models.types import ID_MAX, bounded_int
from trainer.services import accounts, languages, time_zones
from trainer.web.admin.forms import InstallationLanguageForm
from trainer.web.platform import languages as page_languages
from trainer.web.platform.access import role_required
from trainer.web.platform.accounts import account_from_form, password_reset_page
from trainer.web.platform.forms import NewAccountForm, TimeZoneForm, add_error
from trainer.web.words.change_history import audit_rows
from trainer.web.words.engine_words import message_words

AUDIT_PAGE_SIZE = 100
ROLE_NAMES = {Role.TRAINEE: _l("trainee"), Role.SUPERVISOR: _l("supervisor"),
              Role.MANAGER: _l("table-games manager"), Role.ADMIN: _l("admin")}

bp = Blueprint("admin", __name__, url_prefix="/admin")


@bp.route("/users")
@role_required(Role.ADMIN)
def users() -> str:
    """List every account."""
    accounts = db.session.execute(db.select(User).order_by(User.role, User.login)).scalars()
    return render_template("admin/users.html", users=list(accounts), role_names=ROLE_NAMES)


@bp.route("/supervisors/new", methods=["GET", "POST"])
@role_required(Role.ADMIN)
def new_supervisor() -> str | Response:
    """Create a supervisor account."""
    return _new_account(Role.SUPERVISOR)


@bp.route("/managers/new", methods=["GET", "POST"])
@role_required(Role.ADMIN)
def new_manager() -> str | Response:
    """Create a table-games manager account."""
    return _new_account(Role.MANAGER)


def _new_account(role: Role) -> str | Response:
    """Show and take the new-account form for a supervisor or a manager."""
    form = NewAccountForm()
    if form.validate_on_submit():
        user = account_from_form(form, role)
        if user is not None:
            db.session.commit()
            if role == Role.MANAGER:
                flash(_("Table-games manager %(name)s created.", name=user.name), "success")
            else:
                flash(_("Supervisor %(name)s created.", name=user.name), "success")
            return redirect(url_for("admin.users"))
    heading = _("New table-games manager") if role == Role.MANAGER else _("New supervisor")
    return render_template("admin/new_supervisor.html", form=form, heading=heading)


@bp.route("/users/<id:user_id>/active", methods=["POST"])
@role_required(Role.ADMIN)
def set_active(user_id: int) -> str | Response:
    """Deactivate an account (ending its sessions, after a confirmation page) or reactivate it."""
    user = db.session.get(User, user_id)
    if user is None:
        abort(404)
    wanted = request.form.get("active")
    if wanted not in ("0", "1"):
        abort(400)
    actor = accounts.Actor.account(current_user)
    try:
        accounts.check_active_change(actor, user, wanted == "1")
        if wanted == "0" and user.active and request.form.get("confirm") != "1":
            # A deactivation ends the user's sessions: ask first, with a plain form (no script).
            return render_template("admin/confirm_deactivate.html", user=user)
        accounts.set_active(actor, user, wanted == "1")
    except accounts.AccountError as error:
        flash(message_words(error), "error")
        return redirect(url_for("admin.users"))
    db.session.commit()
    flash(_("%(name)s is now active.", name=user.name) if user.active
          else _("%(name)s is now inactive.", name=user.name), "success")
    return redirect(url_for("admin.users"))


@bp.route("/users/<id:user_id>/password", methods=["GET", "POST"])
@role_required(Role.ADMIN)
def reset_password(user_id: int) -> str | Response:
    """Give a supervisor, a manager (or a trainee) a new password, as supervisors do for trainees."""
    user = db.session.get(User, user_id)
    if user is None or user.role == Role.ADMIN:
        abort(404)
    return password_reset_page(user, url_for("admin.users"))


@bp.route("/settings", methods=["GET", "POST"])
@role_required(Role.ADMIN)
def settings() -> str | Response:
    """Set the training room's time zone, the one every page shows times in by default."""
    form = TimeZoneForm()
    if request.method == "GET":
        form.time_zone.data = time_zones.installation_zone() or ""
    if form.validate_on_submit():
        try:
            time_zones.set_installation_zone(current_user.id, form.time_zone.data or "")
        except ValueError as error:
            add_error(form.time_zone, str(error))
        else:
            db.session.commit()
            flash(_("The training room's time zone is saved."), "success")
            return redirect(url_for("admin.settings"))
    return render_template("admin/settings.html", form=form, language_form=_language_form())


CARD_LETTER_NAMES = {"international": _l("International: A K Q J 10 (every casino deck)"),
                     "local": _l("Local: the letters of the language's own decks (such as R D V)")}


def _language_form() -> InstallationLanguageForm:
    form = InstallationLanguageForm()
    form.language.choices = [("", _l("Each browser's language")), *page_languages.language_choices()]
    form.card_letters.choices = list(CARD_LETTER_NAMES.items())
    if request.method == "GET" or form.currency.data is None:
        current = languages.installation()
        form.language.data = current.language or ""
        form.currency.data = current.currency
        form.card_letters.data = current.card_letters
    return form


@bp.route("/settings/language", methods=["POST"])
@role_required(Role.ADMIN)
def settings_language() -> str | Response:
    """Set the installation's default language, its currency and the cards' letters."""
    form = _language_form()
    if form.validate_on_submit():
        try:
            languages.set_installation(current_user.id, form.language.data, form.currency.data,
                                       form.card_letters.data)
        except ValueError as error:
            add_error(form.currency, str(error))
        else:
            db.session.commit()
            page_languages.forget_installation()
            refresh()
            flash(_("The installation's language and currency are saved."), "success")
            return redirect(url_for("admin.settings"))
    zone_form = TimeZoneForm(formdata=None)
    zone_form.time_zone.data = time_zones.installation_zone() or ""
    return render_template("admin/settings.html", form=zone_form, language_form=form)


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
    shown = rows[:AUDIT_PAGE_SIZE]
    return render_template("admin/audit.html", rows=audit_rows(shown, users), entries=shown,
                           page=page, more=len(rows) > AUDIT_PAGE_SIZE, action=action)
