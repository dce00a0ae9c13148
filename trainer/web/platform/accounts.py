"""What the admin's and the supervisor's account pages share: a new account made from its
form, and the page that gives an account a new password. Who may act on whom is the
caller's (``role_required``, ``get_*_or_404``); the change itself, audited, is
``services/accounts.py``'s.
"""
from __future__ import annotations

from flask import flash, redirect, render_template
from flask_babel import gettext as _
from flask_login import current_user
from werkzeug.wrappers import Response

from trainer.extensions import db
from trainer.models import Group, User
from trainer.models.user import PasswordRefused
from trainer.services import accounts
from trainer.web.platform.forms import NewAccountForm, ResetPasswordForm, add_error, password_words
from trainer.web.words.engine_words import message_words


def account_from_form(form: NewAccountForm, role: str, group: Group | None = None) -> User | None:
    """Create the account a new-account form describes (``services/accounts.py``, audited);
    None after marking the field a refusal is about. The caller commits.

    The supervisor's new trainee and the admin's new supervisor or manager.
    """
    try:
        return accounts.create(accounts.Actor.account(current_user), login=form.login.data or "",
                               name=form.name.data or "", role=role,
                               password=form.password.data or "", group=group)
    except PasswordRefused as refused:
        add_error(form.password, password_words(refused.problem))
    except accounts.NameRefused as error:
        add_error(form.name, message_words(error))
    except accounts.AccountError as error:  # the login: taken or not of its form
        add_error(form.login, message_words(error))
    return None


def password_reset_page(account: User, done_url: str) -> str | Response:
    """The new-password form for one account, audited; to ``done_url`` once set.

    The supervisor's page for a trainee and the admin's for any account but an
    admin's: the caller decides who may reset whom.
    """
    form = ResetPasswordForm()
    form.account_login = account.login
    if form.validate_on_submit():
        try:
            accounts.reset_password(accounts.Actor.account(current_user), account,
                                    form.password.data or "")
        except PasswordRefused as refused:  # the current password (the form checked the rest)
            add_error(form.password, password_words(refused.problem))
        else:
            db.session.commit()
            flash(_("New password set for %(name)s.", name=account.name), "success")
            return redirect(done_url)
    return render_template("supervisor/reset_password.html", form=form, trainee=account)
