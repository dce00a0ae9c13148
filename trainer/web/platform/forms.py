"""The forms several areas share, and what every form uses: a refusal added after
validation, the password rule in words and a new password's field; Flask-WTF adds the
CSRF token to each. An area's own forms are in its package (``auth/forms.py``,
``admin/forms.py``, ``supervisor/forms.py``, the manager's ``profile_form.py`` and
``ways/forms.py``)."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_babel import lazy_ngettext
from flask_wtf import FlaskForm
from wtforms import Field, Form, PasswordField, StringField, SubmitField
from wtforms.validators import DataRequired, Length, Regexp, ValidationError

from trainer.models import MIN_PASSWORD_LENGTH
from trainer.models.passwords import (
    MAX_PASSWORD_LENGTH,
    MIN_DIFFERENT_CHARACTERS,
    PasswordProblem,
    password_problem,
)
from trainer.services.accounts import LOGIN_PATTERN, MAX_LOGIN_LENGTH, MAX_NAME_LENGTH


def add_error(field: Field, message: str) -> None:
    """Refuse a field after the form validated (a login already taken, a wrong password)."""
    field.errors = [*field.errors, message]


def password_words(problem: PasswordProblem) -> str:
    """Say why the password rule (models/passwords.py) refuses a password."""
    words = {
        PasswordProblem.TOO_SHORT: lazy_ngettext(
            "A password needs at least %(num)d character.",
            "A password needs at least %(num)d characters.", MIN_PASSWORD_LENGTH),
        PasswordProblem.TOO_FEW_DIFFERENT: lazy_ngettext(
            "A password needs at least %(num)d different character.",
            "A password needs at least %(num)d different characters.", MIN_DIFFERENT_CHARACTERS),
        PasswordProblem.SAME_AS_LOGIN: _l("A password may not be the same as the login."),
        PasswordProblem.DEMO: _l("That is a published demo password; choose another."),
        PasswordProblem.COMMON: _l("That password is on a list of common passwords; choose another."),
        PasswordProblem.CURRENT: _l("The new password must differ from the current one."),
    }
    return str(words[problem])


def _password_rules(form: Form, field: Field) -> None:
    """Refuse a password the rule refuses (models/passwords.py): too short once normalised,
    the account's login, a demo password, a common password or a decorated one.

    The login is the form's ``login`` field when it has one, else the
    ``account_login`` the view set (the account whose password changes). The
    current password is checked by the view (it needs the stored hash).
    """
    if field.errors:
        return  # already refused (too long)
    login_field = getattr(form, "login", None)
    login = login_field.data if login_field is not None else getattr(form, "account_login", None)
    problem = password_problem(field.data or "", login if isinstance(login, str) else None)
    if problem:
        raise ValidationError(password_words(problem))


def new_password(label: str) -> PasswordField:
    """A new password's field: required, at most the longest length, and the password rule."""
    return PasswordField(
        label,
        validators=[
            DataRequired(),
            Length(max=MAX_PASSWORD_LENGTH),
            _password_rules,
        ],
    )


class NewAccountForm(FlaskForm):
    """Create an account with a first password."""

    name = StringField(_l("Full name"), validators=[DataRequired(), Length(max=MAX_NAME_LENGTH)])
    login = StringField(
        _l("Login"),
        validators=[
            DataRequired(),
            Length(max=MAX_LOGIN_LENGTH),
            Regexp(LOGIN_PATTERN, message=_l("Use letters, digits, dots, dashes and underscores.")),
        ],
    )
    password = new_password(_l("First password"))
    submit = SubmitField(_l("Create account"))


class ResetPasswordForm(FlaskForm):
    """Give a trainee a new password."""

    password = new_password(_l("New password"))
    submit = SubmitField(_l("Reset password"))
    # The account whose password changes, set by the view (``_password_rules`` reads it).
    account_login: str | None = None


class TimeZoneForm(FlaskForm):
    """Choose a time zone by its name (``Europe/London``); empty: the default."""

    time_zone = StringField(_l("Time zone"), validators=[Length(max=64)])
    submit = SubmitField(_l("Save time zone"))
