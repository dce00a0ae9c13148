"""A group's settings page: casino settings, drill lengths and time limits, criteria, history."""
from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from sqlalchemy import select
from werkzeug.wrappers import Response
from wtforms import BooleanField, DecimalField, IntegerField
from wtforms.validators import NumberRange, Optional

from trainer.engine.drills import get_drill
from trainer.extensions import db
from trainer.models import AuditLog, Group
from trainer.services.drills import MAX_LENGTH
from trainer.services.reports import pages as reports
from trainer.services.reports.pages import Criterion
from trainer.web.change_history import history_rows
from trainer.web.forms import GroupForm
from trainer.web.supervisor.base import bp, drill_kinds, get_group_or_404, group_form


def _settings_form(group: Group) -> Any:
    """Build the group settings form: casino settings, drill lengths and time limits, criteria."""

    class GroupSettingsForm(GroupForm):
        pass

    for kind in drill_kinds():
        setattr(GroupSettingsForm, f"length-{kind}", IntegerField(
            _l("Questions per session"), validators=[Optional(), NumberRange(1, MAX_LENGTH)]))
        setattr(GroupSettingsForm, f"time-{kind}", IntegerField(
            _l("Seconds per question (timed)"), validators=[Optional(), NumberRange(1, 600)]))
        setattr(GroupSettingsForm, f"certify-{kind}", BooleanField(_l("Required for certification")))
        setattr(GroupSettingsForm, f"accuracy-{kind}", DecimalField(
            _l("Minimum accuracy (%)"), places=1, validators=[Optional(), NumberRange(0, 100)]))
        setattr(GroupSettingsForm, f"window-{kind}", IntegerField(
            _l("Over the last N timed questions (settlement: positions)"),
            validators=[Optional(), NumberRange(1, 5000)]))
        setattr(GroupSettingsForm, f"median-{kind}", DecimalField(
            _l("Median time at most (s)"), places=1, validators=[Optional(), NumberRange(0.5, 600)]))
        setattr(GroupSettingsForm, f"examlength-{kind}", IntegerField(
            _l("Exam questions"), validators=[Optional(), NumberRange(1, MAX_LENGTH)]))
        setattr(GroupSettingsForm, f"examtime-{kind}", IntegerField(
            _l("Exam seconds per question"), validators=[Optional(), NumberRange(1, 600)]))

    form = GroupSettingsForm(obj=group)
    form.house_way.choices = group_form(group).house_way.choices
    form.profile.choices = group_form(group).profile.choices
    if request.method == "GET":
        drills = (group.settings or {}).get("drills") or {}
        criteria = {c.kind: c for c in reports.group_criteria(group.settings)}
        for kind in drill_kinds():
            form[f"length-{kind}"].data = (drills.get(kind) or {}).get("length")
            form[f"time-{kind}"].data = (drills.get(kind) or {}).get("time_limit_s")
            criterion = criteria.get(kind)
            form[f"certify-{kind}"].data = criterion is not None
            if criterion is not None:
                form[f"accuracy-{kind}"].data = criterion.min_accuracy
                form[f"window-{kind}"].data = criterion.window
                form[f"median-{kind}"].data = criterion.max_median_s
                form[f"examlength-{kind}"].data = criterion.exam_length
                form[f"examtime-{kind}"].data = criterion.exam_time_limit_s
    return form


def _settings_from(form: Any, group: Group) -> dict[str, Any] | None:
    """Return the settings the form describes, or None after marking the fields in error."""
    settings = dict(group.settings or {})
    drills: dict[str, Any] = {}
    criteria: list[dict[str, Any]] = []
    ok = True
    for kind in drill_kinds():
        entry = {key: form[f"{name}-{kind}"].data for key, name in
                 (("length", "length"), ("time_limit_s", "time")) if form[f"{name}-{kind}"].data}
        if entry:
            drills[kind] = entry
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
            ).as_dict())
    if not ok:
        return None
    settings["drills"] = drills
    settings["certification"] = {**(settings.get("certification") or {}), "criteria": criteria}
    return settings


def _snapshot(group: Group) -> dict[str, Any]:
    return {"name": group.name, "house_way": group.house_way, "profile": group.profile,
            "settings": group.settings or {}}


def _record_change(group: Group, old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Write an audit entry with the values that changed; return whether any did."""
    changed = [key for key in new if old.get(key) != new.get(key)]
    if not changed:
        return False
    db.session.add(AuditLog(
        actor_id=current_user.id, action="group.settings", target_type="group",
        target_id=group.id, old={k: old.get(k) for k in changed}, new={k: new[k] for k in changed},
    ))
    return True


@bp.route("/groups/<id:group_id>/edit", methods=["GET", "POST"])
def edit_group(group_id: int) -> str | Response:
    """Change a group's name, casino settings, drill lengths, time limits and criteria."""
    group = get_group_or_404(group_id)
    form = _settings_form(group)
    if form.validate_on_submit():
        settings = _settings_from(form, group)
        if settings is not None:
            old = _snapshot(group)
            new = {"name": form.name.data.strip(), "house_way": form.house_way.data,
                   "profile": form.profile.data, "settings": settings}
            if _record_change(group, old, new):
                group.name, group.house_way, group.profile = new["name"], new["house_way"], new["profile"]
                group.settings = settings
                db.session.commit()
                flash(_("Group %(name)s saved. New sessions use these settings.", name=group.name),
                      "success")
            else:
                flash(_("Nothing changed."), "info")
            return redirect(url_for("supervisor.show_group", group_id=group.id))
    entries = db.session.execute(
        select(AuditLog).where(AuditLog.target_type == "group", AuditLog.target_id == group.id)
        .order_by(AuditLog.at.desc(), AuditLog.id.desc()).limit(50)
    ).scalars().all()
    history = history_rows(entries)
    return render_template("supervisor/group_settings.html", form=form, group=group,
                           kinds=drill_kinds(), history=history)
