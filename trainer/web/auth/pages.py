"""Signing in and out, changing one's own password, and one's own time zone and language."""
from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext, refresh
from flask_login import current_user, login_required
from werkzeug.security import check_password_hash, generate_password_hash
from werkzeug.wrappers import Response

from trainer.extensions import db
from trainer.models import User, normalize_login
from trainer.models.user import PasswordRefused
from trainer.services import accounts, audit, throttle, time_zones
from trainer.web.auth import devices
from trainer.web.auth.forms import ChangePasswordForm, LanguageForm, LoginForm
from trainer.web.platform import languages as page_languages
from trainer.web.platform import sessions
from trainer.web.platform.access import safe_next
from trainer.web.platform.forms import TimeZoneForm, add_error, password_words
from trainer.web.platform.time_zones import browser_zone
from trainer.web.words.engine_words import message_words

bp = Blueprint("auth", __name__, url_prefix="/auth")

_DUMMY_HASHES: dict[str, str] = {}


def _dummy_hash() -> str:
    """Return a hash to check against when the login is unknown.

    A wrong login then costs as much time as a wrong password (same scrypt
    cost as real hashes) and does not reveal which logins exist.
    """
    method = current_app.config.get("PASSWORD_HASH_METHOD", "scrypt")
    if method not in _DUMMY_HASHES:
        _DUMMY_HASHES[method] = generate_password_hash("not a real password", method=method)
    return _DUMMY_HASHES[method]


@bp.route("/login", methods=["GET", "POST"])
def login() -> str | Response | tuple[str, int] | tuple[str, int, dict[str, str]]:
    """Sign a user in and send them on to a page of this site."""
    next_url = safe_next(request.args.get("next"))
    if current_user.is_authenticated:
        return redirect(next_url or url_for("main.index"))
    form = LoginForm()
    status = 401 if request.method == "POST" else 200
    if form.validate_on_submit():
        login_name = normalize_login(form.login.data or "")
        address = request.remote_addr or "unknown"
        # Reserve the check (counted as a failure) before looking at the password;
        # a remembered device is counted apart from every other device.
        device = devices.device_for(login_name)
        reservation = throttle.reserve(login_name, address,
                                       throttle.Limits.from_config(current_app.config), device)
        if reservation.refused:
            return _refused(form, next_url, reservation)
        user = db.session.execute(
            db.select(User).filter_by(login=login_name)
        ).scalar_one_or_none()
        if user is None:
            check_password_hash(_dummy_hash(), form.password.data or "")
        elif user.check_password(form.password.data or "") and user.active:
            throttle.succeeded(reservation)
            accounts.note_password_at_sign_in(user, form.password.data or "")
            sessions.start(user, address)
            # The password page says why (templates/auth/password.html).
            target = (url_for("auth.change_password") if user.password_change_due
                      else next_url or url_for("main.index"))
            response = redirect(target)
            devices.remember(response, login_name, device)
            return response
        else:
            # A wrong password for a real account is kept in the audit log too.
            audit.record(None, "sign-in.failed", "user", user.id,
                         new={"address": address, "active": bool(user.active)})
            db.session.commit()
        flash(_("Wrong login or password."), "error")
    return render_template("auth/login.html", form=form, next_url=next_url), status


def _refused(form: LoginForm, next_url: str | None,
             reservation: throttle.Reservation) -> tuple[str, int, dict[str, str]]:
    """Answer a try the throttle does not allow now: 429, when to try again, ``Retry-After``."""
    if reservation.refusal is throttle.Refusal.SLOWED:
        flash(ngettext("Many wrong passwords were tried for this login: "
                       "it may be tried again in %(num)d second.",
                       "Many wrong passwords were tried for this login: "
                       "it may be tried again in %(num)d seconds.",
                       reservation.retry_after), "error")
    else:
        flash(ngettext("Too many failed sign-ins. Try again in %(num)d minute.",
                       "Too many failed sign-ins. Try again in %(num)d minutes.",
                       reservation.wait_minutes), "error")
    if reservation.device is None:
        flash(_("On a device where you have signed in before, other people's wrong "
                "passwords do not hold you up."), "info")
    page = render_template("auth/login.html", form=form, next_url=next_url)
    return page, 429, {"Retry-After": str(reservation.retry_after)}


# Pages a user whose password must change may still open.
_OPEN_WHILE_PASSWORD_DUE = frozenset({"auth.change_password", "auth.logout", "static",
                                      "health.healthz"})


@bp.before_app_request
def password_change_first() -> Response | None:
    """Send a user whose password must change to the password page, whatever they ask for."""
    remember = current_app.config.get("REMEMBER_COOKIE_NAME", "remember_token")
    if request.endpoint in _OPEN_WHILE_PASSWORD_DUE or (
            "_user_id" not in session and remember not in request.cookies):
        return None  # no SQL for static files, /healthz or anonymous requests
    if current_user.is_authenticated and current_user.password_change_due:
        return redirect(url_for("auth.change_password"), 303)
    return None


@bp.route("/logout", methods=["POST"])
def logout() -> Response:
    """Sign this session out (revoked on the server); the user's other sessions go on."""
    sessions.end()
    flash(_("You are signed out."), "info")
    return redirect(url_for("auth.login"))


@bp.route("/password", methods=["GET", "POST"])
@login_required
def change_password() -> str | Response:
    """Change the signed-in user's own password."""
    form = ChangePasswordForm()
    form.account_login = current_user.login
    if form.validate_on_submit():
        user = db.session.get_one(User, current_user.id)
        try:
            accounts.change_own_password(user, form.current.data or "", form.new.data or "")
        except PasswordRefused as refused:  # the current password (the form checked the rest)
            add_error(form.new, password_words(refused.problem))
        except accounts.AccountError as error:  # not the current password
            add_error(form.current, message_words(error))
        else:
            db.session.commit()
            # The new session version ends every other session; keep this one.
            sessions.keep(user)
            flash(_("Your password is changed."), "success")
            return redirect(url_for("main.index"))
    return render_template("auth/password.html", form=form)


@bp.route("/account", methods=["GET", "POST"])
@login_required
def account() -> str | Response:
    """Choose the time zone the signed-in user reads times in (empty: the room's or the browser's)."""
    form = TimeZoneForm()
    if request.method == "GET":
        form.time_zone.data = current_user.time_zone or ""
    if form.validate_on_submit():
        try:
            accounts.set_time_zone(current_user.id, form.time_zone.data or "")
        except ValueError as error:
            add_error(form.time_zone, str(error))
        else:
            db.session.commit()
            flash(_("Your time zone is saved."), "success")
            return redirect(url_for("auth.account"))
    return _account_page(form, _language_form())


def _language_form() -> LanguageForm:
    form = LanguageForm()
    form.language.choices = [("", _l("The default (the training room's, else your browser's)")),
                             *page_languages.language_choices()]
    if request.method == "GET" or form.language.data is None:
        form.language.data = current_user.language or ""
    return form


def _account_page(form: TimeZoneForm, language_form: LanguageForm) -> str:
    return render_template("auth/account.html", form=form, language_form=language_form,
                           browser_zone=browser_zone(),
                           room_zone=time_zones.installation_zone())


@bp.route("/account/language", methods=["POST"])
@login_required
def account_language() -> str | Response:
    """Choose the language the signed-in user reads pages in (empty: the room's or the browser's)."""
    form = _language_form()
    if form.validate_on_submit():
        try:
            chosen = accounts.set_language(current_user.id, form.language.data or "")
        except ValueError as error:
            add_error(form.language, str(error))
        else:
            db.session.commit()
            # The request's signed-in account (read before the change) and Babel's locale
            # take the saved language: it speaks from this message on.
            current_user.speak(chosen)
            refresh()
            flash(_("Your language is saved."), "success")
            return redirect(url_for("auth.account"))
    time_zone_form = TimeZoneForm(formdata=None)
    time_zone_form.time_zone.data = current_user.time_zone or ""
    return _account_page(time_zone_form, form)
