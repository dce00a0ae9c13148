"""Supervisors' group pages: the list, a new group, a group's overview."""
from __future__ import annotations

from operator import attrgetter
from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user
from markupsafe import Markup
from werkzeug.wrappers import Response

from trainer.extensions import db
from trainer.models import Group, Role, User, utcnow
from trainer.services import groups as group_service
from trainer.services.accounts import Actor
from trainer.services.certification import exams as certification
from trainer.services.group_settings import GroupSettings
from trainer.services.reports import pages as reports
from trainer.services.reports import sql as report_queries
from trainer.services.reports.figures import Figures
from trainer.web.platform.filters import percent
from trainer.web.platform.forms import add_error
from trainer.web.supervisor import charts
from trainer.web.supervisor.base import (
    PERIOD_NAMES,
    READINESS_NAMES,
    bp,
    check_house_way,
    drill_kinds,
    get_group_or_404,
    group_form,
    request_period,
)
from trainer.web.words.engine_words import message_words


@bp.route("/")
def groups() -> str | Response:
    """List every group (for managers and admins); supervisors find theirs on their home page."""
    if current_user.role == Role.SUPERVISOR:
        return redirect(url_for("main.index"))
    all_groups = db.session.execute(db.select(Group).order_by(Group.name)).scalars().all()
    return render_template("supervisor/groups.html", groups=all_groups)


@bp.route("/groups/new", methods=["GET", "POST"])
def new_group() -> str | Response:
    """Create a group led by the signed-in supervisor."""
    form = group_form()
    settings = None
    if form.validate_on_submit() and check_house_way(form):
        try:
            settings = GroupSettings(house_way=form.house_way.data, profile=form.profile.data)
            settings.check_profile_choice()
        except ValueError as error:
            form.profile.errors = [*form.profile.errors, message_words(error)]
            settings = None
    if settings is not None:
        supervisor = db.session.get_one(User, current_user.id)
        try:
            group = group_service.create(Actor.account(current_user), name=form.name.data or "",
                                         supervisor=supervisor, settings=settings)
        except group_service.GroupError as error:
            add_error(form.name, message_words(error))
        else:
            db.session.commit()
            flash(_("Group %(name)s created.", name=group.name), "success")
            return redirect(url_for("supervisor.show_group", group_id=group.id))
    return render_template("supervisor/group_form.html", form=form, group=None)


def _sort_rows(rows: list[reports.TraineeRow], key: str, descending: bool) -> list[reports.TraineeRow]:
    """Sort the overview's rows by a column; trainees without figures go last."""
    kind = None
    if ":" in key:
        key, kind = key.split(":", 1)

    def figures(row: reports.TraineeRow) -> Figures:
        return row.kinds.get(kind, Figures()) if kind else row.total

    keyed: dict[str, Any] = {
        "name": lambda r: r.name.lower(),
        "readiness": lambda r: reports.READINESS_ORDER.index(r.verdict.status),
        "attempts": lambda r: figures(r).answered,
        "accuracy": lambda r: -1.0 if figures(r).accuracy is None else figures(r).accuracy,
        "median": lambda r: figures(r).median_ms if figures(r).median_ms is not None else float("inf"),
    }
    if key == "last":
        present = sorted((r for r in rows if r.last_activity), key=attrgetter("last_activity"),
                         reverse=descending)
        return present + [r for r in rows if not r.last_activity]
    return sorted(rows, key=keyed.get(key, keyed["name"]), reverse=descending)


def _sparkline(points: list[reports.Point], buckets: reports.Buckets, name: str) -> Any:
    values: list[float | None] = [None] * buckets.count
    for point in points:
        index = (point.day - buckets.start(0)).days // buckets.size
        if 0 <= index < buckets.count:
            values[index] = point.figures.accuracy
    known = [v for v in values if v is not None]
    if len(known) < 2:
        # One day is no trend: its figure in words, not a dot between "100%" and "0%" (issue 26).
        if not known:
            return Markup('<span class="muted">—</span>')
        return Markup('<span class="spark-single">{}</span>').format(
            _("%(accuracy)s on one day", accuracy=percent(known[0])))
    return charts.sparkline(values, _("Accuracy trend of %(name)s", name=name), scale=percent)


@bp.route("/groups/<id:group_id>")
def show_group(group_id: int) -> str:
    """Show the group overview: each trainee's figures, trend and readiness, and weak rules."""
    group = get_group_or_404(group_id)
    period = request_period()
    member_ids = [m.user_id for m in group.memberships]
    certification.bring_up_to_date(member_ids)
    # The drill selector: one drill's three columns, or (None) one column per drill; the
    # weakest families are counted in the chosen drill too (the overview checks the choice).
    wanted = request.args.get("drill")
    overview = reports.group_overview(group.id, period,
                                      drill=wanted if wanted in drill_kinds() else None)
    sort = request.args.get("sort", "name")
    descending = request.args.get("dir") == "desc"
    rows = _sort_rows(overview.rows, sort, descending)
    sparklines = {row.id: _sparkline(row.trend, overview.buckets, row.name) for row in rows}
    kinds = [k for k in drill_kinds() if k in overview.kinds]
    drill = overview.drill
    return render_template(
        "supervisor/group.html", group=group, overview=overview, rows=rows, kinds=kinds, drill=drill,
        sparklines=sparklines, sort=sort, descending=descending, period_names=PERIOD_NAMES,
        readiness_names=READINESS_NAMES,
        unanswered=report_queries.unanswered_practice(member_ids, period.since(utcnow())),
    )
