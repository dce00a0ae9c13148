"""A group's settings page: casino settings, drill lengths and time limits, criteria, history."""
from __future__ import annotations

import dataclasses
import re
from decimal import Decimal
from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from werkzeug.wrappers import Response
from wtforms import BooleanField, DecimalField, IntegerField
from wtforms.validators import NumberRange, Optional, StopValidation
from wtforms.widgets import TextInput

from trainer.engine.drills import get_drill
from trainer.extensions import db
from trainer.models import Group
from trainer.services import drills as drill_service
from trainer.services import groups
from trainer.services.accounts import Actor
from trainer.services.certification.criteria import Criterion
from trainer.services.group_settings import (
    DEFAULT_LENGTH,
    MAX_LENGTH,
    MAX_TIME_LIMIT_S,
    MIN_TIME_LIMIT_S,
    DrillLimits,
    GroupSettings,
)
from trainer.web.platform import pdf_jobs
from trainer.web.platform.forms import add_error
from trainer.web.platform.languages import language, number
from trainer.web.platform.money_input import DECIMAL
from trainer.web.supervisor.base import (
    bp,
    check_house_way,
    drill_kinds,
    get_group_or_404,
    group_form,
)
from trainer.web.supervisor.forms import GroupForm
from trainer.web.words.change_history import history_rows
from trainer.web.words.engine_words import message_words


class ReaderDecimalField(DecimalField):
    """A decimal typed and shown in the reader's format (issue 26): "97,5" in Portuguese,
    "97.5" in English, a whole value without decimals ("98", never "98.0"). A text input
    (inputmode decimal): a number input's value must be machine-readable, so it would show
    "97.5" to a Portuguese reader. The other mark is refused in words, never guessed
    (as typed amounts are, web/platform/money_input.py); docs/languages.md, "Typed amounts"."""

    widget = TextInput()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("render_kw", {"inputmode": "decimal", "autocomplete": "off"})
        super().__init__(*args, **kwargs)

    def _value(self) -> str:
        if self.raw_data:
            return str(self.raw_data[0])
        if self.data is None:
            return ""
        value = Decimal(self.data)
        if value == value.to_integral_value():
            return str(int(value))
        return number(value, self.places if isinstance(self.places, int) else 1, grouped=False)

    def pre_validate(self, form: Any) -> None:
        if self.process_errors:  # one message: how to write it, not also "between 0 and 100"
            raise StopValidation()

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist:
            return
        text = str(valuelist[0]).strip().replace("\u00a0", "").replace(" ", "")
        if not text:
            self.data = None
            return
        mark = DECIMAL.get(language(), ".")
        other = "," if mark == "." else "."
        if other in text:
            self.data = None
            raise ValueError(_("Write the number with “%(mark)s” before its decimals, like %(example)s.",
                               mark=mark, example=f"97{mark}5"))
        if not re.fullmatch(r"\d{1,6}(?:" + re.escape(mark) + r"\d{1,3})?", text):
            self.data = None
            raise ValueError(_("Not a number: write it like %(example)s.", example=f"97{mark}5"))
        self.data = Decimal(text.replace(mark, "."))


def _settings_form(group: Group) -> Any:
    """Build the group settings form: casino settings, drill lengths and time limits, criteria."""

    class GroupSettingsForm(GroupForm):
        pass

    for kind in drill_kinds():
        setattr(GroupSettingsForm, f"length-{kind}", IntegerField(
            _l("Questions per session"), validators=[Optional(), NumberRange(1, MAX_LENGTH)]))
        setattr(GroupSettingsForm, f"time-{kind}", IntegerField(
            _l("Seconds per question (timed)"),
            validators=[Optional(), NumberRange(MIN_TIME_LIMIT_S, MAX_TIME_LIMIT_S)]))
        setattr(GroupSettingsForm, f"certify-{kind}", BooleanField(_l("Required for certification")))
        setattr(GroupSettingsForm, f"accuracy-{kind}", ReaderDecimalField(
            _l("Minimum accuracy (%)"), places=1, validators=[Optional(), NumberRange(0, 100)]))
        setattr(GroupSettingsForm, f"window-{kind}", IntegerField(
            _l("Over the last N timed questions (settlement: positions)"),
            validators=[Optional(), NumberRange(1, 5000)]))
        setattr(GroupSettingsForm, f"median-{kind}", ReaderDecimalField(
            _l("Median time at most (s)"), places=1, validators=[Optional(), NumberRange(0.5, 600)]))
        setattr(GroupSettingsForm, f"examlength-{kind}", IntegerField(
            _l("Exam questions"), validators=[Optional(), NumberRange(1, MAX_LENGTH)]))
        setattr(GroupSettingsForm, f"examtime-{kind}", IntegerField(
            _l("Exam seconds per question"), validators=[Optional(), NumberRange(1, 600)]))

    form = GroupSettingsForm(obj=group)
    form.house_way.choices = group_form(group).house_way.choices
    form.house_way.validate_choice = False  # checked in words by check_house_way
    form.profile.choices = group_form(group).profile.choices
    form.profile.validate_choice = False  # checked in words by GroupSettings.check_profile_choice
    if request.method == "GET":
        settings = GroupSettings.of(group)
        criteria = {c.kind: c for c in settings.certification_criteria}
        for kind in drill_kinds():
            form[f"length-{kind}"].data = settings.limits(kind).length
            form[f"time-{kind}"].data = settings.limits(kind).time_limit_s
            criterion = criteria.get(kind)
            form[f"certify-{kind}"].data = criterion is not None
            if criterion is not None:
                form[f"accuracy-{kind}"].data = criterion.min_accuracy
                form[f"window-{kind}"].data = criterion.window
                form[f"median-{kind}"].data = criterion.max_median_s
                form[f"examlength-{kind}"].data = criterion.exam_length
                form[f"examtime-{kind}"].data = criterion.exam_time_limit_s
    return form


def _settings_from(form: Any, group: Group) -> GroupSettings | None:
    """Return the settings the form describes, or None after marking the fields in error."""
    drills: dict[str, DrillLimits] = {}
    criteria: list[Criterion] = []
    ok = True
    for kind in drill_kinds():
        limits = DrillLimits(form[f"length-{kind}"].data or None, form[f"time-{kind}"].data or None)
        if limits.as_dict():
            drills[kind] = limits
        if form[f"certify-{kind}"].data:
            accuracy, window = form[f"accuracy-{kind}"].data, form[f"window-{kind}"].data
            for field, value in ((form[f"accuracy-{kind}"], accuracy), (form[f"window-{kind}"], window)):
                if value is None:
                    field.errors = [*field.errors, _("Needed when the drill is required for certification.")]
                    ok = False
            if accuracy is None or window is None:
                continue
            median = form[f"median-{kind}"].data
            criteria.append(Criterion(
                kind, float(accuracy), int(window), None if median is None else float(median),
                form[f"examlength-{kind}"].data or 50,
                form[f"examtime-{kind}"].data or get_drill(kind).default_time_limit_s,
            ))
    if not ok or not check_house_way(form, group.house_way):
        return None
    try:
        settings = dataclasses.replace(
            GroupSettings.of(group), house_way=form.house_way.data, profile=form.profile.data,
            drills=drills, criteria=tuple(criteria),
        )
        # A new profile must be on offer; the group's own stays even if withdrawn.
        settings.check_profile_choice(group.profile)
    except ValueError as error:
        form.profile.errors = [*form.profile.errors, message_words(error)]
        return None
    return settings


def _save(form: Any, group: Group, settings: GroupSettings) -> Response | None:
    """Save the group's name and settings (logged by services/groups.py), then go to the
    group; None after marking the name in error."""
    try:
        changed = groups.change(Actor.account(current_user), group, name=form.name.data or "",
                                settings=settings)
    except groups.GroupError as error:
        add_error(form.name, message_words(error))
        return None
    if changed:
        db.session.commit()
        # The group's printed sheets, made now by a job worker (issue 25).
        pdf_jobs.prepare_group(group)
        flash(_("Group %(name)s saved. New sessions use these settings.", name=group.name),
              "success")
    else:
        flash(_("Nothing changed."), "info")
    return redirect(url_for("supervisor.show_group", group_id=group.id))


@bp.route("/groups/<id:group_id>/edit", methods=["GET", "POST"])
def edit_group(group_id: int) -> str | Response:
    """Change a group's name, casino settings, drill lengths, time limits and criteria."""
    group = get_group_or_404(group_id)
    form = _settings_form(group)
    if form.validate_on_submit():
        settings = _settings_from(form, group)
        saved = None if settings is None else _save(form, group, settings)
        if saved is not None:
            return saved
    history = history_rows(groups.history(group))
    # What an empty field means, shown in it (issue 26): the drill's own length and limits.
    defaults = {kind: {"length": drill_service.session_length(kind, DEFAULT_LENGTH),
                       "time": get_drill(kind).default_time_limit_s, "examlength": 50,
                       "examtime": get_drill(kind).default_time_limit_s}
                for kind in drill_kinds()}
    return render_template("supervisor/group_settings.html", form=form, group=group,
                           kinds=drill_kinds(), history=history, defaults=defaults)
