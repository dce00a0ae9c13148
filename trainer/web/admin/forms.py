"""The admin's own forms: the installation's language, currency and cards' letters."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import SelectField, StringField, SubmitField
from wtforms.validators import Length


class InstallationLanguageForm(FlaskForm):
    """The installation's language (empty: each browser's), currency and cards' letters."""

    language = SelectField(_l("Default language"), validators=[Length(max=8)])
    currency = StringField(_l("Currency"), validators=[Length(max=8)])
    card_letters = SelectField(_l("Letters on the cards"))
    submit = SubmitField(_l("Save language and currency"))
