"""The supervisor's forms: a new trainee, and a group's name and casino settings."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import SelectField, StringField, SubmitField
from wtforms.validators import DataRequired, Length

from trainer.web.platform.forms import NewAccountForm


class NewTraineeForm(NewAccountForm):
    """Create a trainee in one of the supervisor's groups."""

    group_id = SelectField(_l("Group"), coerce=int)


class GroupForm(FlaskForm):
    """Name a group and choose the casino settings it trains on."""

    name = StringField(_l("Group name"), validators=[DataRequired(), Length(max=120)])
    house_way = SelectField(_l("House way"))
    profile = SelectField(_l("Table rules"))
    submit = SubmitField(_l("Save group"))
