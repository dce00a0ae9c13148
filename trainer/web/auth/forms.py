"""The forms of signing in and of one's own account: password, language."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import PasswordField, SelectField, StringField, SubmitField
from wtforms.validators import DataRequired, EqualTo, Length

from trainer.web.platform.forms import new_password


class LoginForm(FlaskForm):
    """Sign in with a login and password."""

    login = StringField(_l("Login"), validators=[DataRequired(), Length(max=64)])
    password = PasswordField(_l("Password"), validators=[DataRequired()])
    submit = SubmitField(_l("Sign in"))


class ChangePasswordForm(FlaskForm):
    """Change one's own password."""

    current = PasswordField(_l("Current password"), validators=[DataRequired()])
    new = new_password(_l("New password"))
    confirm = PasswordField(
        _l("Repeat the new password"),
        validators=[DataRequired(), EqualTo("new", message=_l("The two new passwords differ."))],
    )
    submit = SubmitField(_l("Change password"))
    # The account whose password changes, set by the view (platform/forms.py reads it).
    account_login: str | None = None


class LanguageForm(FlaskForm):
    """Choose the language one reads the pages in; empty: the installation's or the browser's."""

    language = SelectField(_l("Language"), validators=[Length(max=8)])
    submit = SubmitField(_l("Save language"))
