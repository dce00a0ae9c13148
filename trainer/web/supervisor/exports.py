"""CSV downloads of a group's attempts and overview."""
from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from flask import abort, request
from flask_babel import gettext as _
from flask_babel import pgettext
from sqlalchemy import select
from werkzeug.wrappers import Response

from trainer.engine.house_way import rule_family
from trainer.extensions import db
from trainer.models import Attempt, DrillSession, Membership, User, utcnow
from trainer.models.types import parse_id
from trainer.services.certification import exams as certification
from trainer.services.reports import pages as reports
from trainer.services.reports.figures import Figures
from trainer.web.platform.csv_export import csv_response
from trainer.web.platform.filters import drill_title
from trainer.web.supervisor.base import (
    PERIOD_NAMES,
    READINESS_NAMES,
    bp,
    drill_kinds,
    get_group_or_404,
    request_period,
)
from trainer.web.words.names import rule_name, session_mode_name


def _result(correct: bool, timed_out: bool) -> str:
    if timed_out:
        return _("Timed out")
    return _("Right") if correct else _("Wrong")


def _utc(moment: datetime | None) -> str:
    return "" if moment is None else moment.strftime("%Y-%m-%d %H:%M:%S")


def safe_filename_part(text: str) -> str:
    """Return text with only letters, digits, dot, dash and underscore (others become a dash)."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip(".-")
    return safe[:64] or "trainee"


@bp.route("/groups/<id:group_id>/export/attempts.csv")
def export_attempts(group_id: int) -> Response:
    """Download the attempts of the group's trainees as CSV, filtered by trainee, drill and period."""
    group = get_group_or_404(group_id)
    period = request_period()
    certification.bring_up_to_date([m.user_id for m in group.memberships])
    members = select(Membership.user_id).where(Membership.group_id == group.id)
    query = (
        select(User.name, User.login, Attempt.kind, DrillSession.mode, DrillSession.dealt,
               DrillSession.house_way,
               Attempt.session_id, Attempt.position, Attempt.answered_at, Attempt.correct,
               Attempt.timed_out, Attempt.rule_id, Attempt.elapsed_ms, Attempt.seed)
        .join(User, User.id == Attempt.user_id)
        .join(DrillSession, DrillSession.id == Attempt.session_id)
        .where(Attempt.user_id.in_(members))
        .order_by(User.name, Attempt.answered_at, Attempt.id)
    )
    filename = f"attempts-group-{group.id}-{period.key}.csv"
    if request.args.get("trainee"):
        trainee_id = parse_id(request.args["trainee"])
        if trainee_id is None:
            abort(404)
        query = query.where(Attempt.user_id == trainee_id)
        trainee = db.session.get(User, trainee_id)
        if trainee is not None and trainee.group is group:
            filename = f"attempts-{safe_filename_part(trainee.login)}-{period.key}.csv"
    kind = request.args.get("kind")
    if kind:
        query = query.where(Attempt.kind == kind)
    since = period.since(utcnow())
    if since is not None:
        query = query.where(Attempt.answered_at >= since)

    def rows() -> Iterator[list[Any]]:
        yield [_("Trainee"), _("Login"), _("Drill"), _("Mode"), _("House way"), _("Session"),
               _("Question no."), _("Answered (UTC)"), _("Result"), _("Rule"), _("Rule id"),
               _("Rule family"),
               _("Time (s)"), _("Seed")]
        for r in db.session.execute(query.execution_options(yield_per=1000)):
            yield [r.name, r.login, drill_title(r.kind), session_mode_name(r.mode, r.dealt),
                   r.house_way, r.session_id, r.position, _utc(r.answered_at),
                   # The rule in words (issue 26) beside its id, for a spreadsheet's filters.
                   _result(r.correct, r.timed_out), rule_name(r.rule_id, r.house_way) if r.rule_id else "",
                   r.rule_id or "", rule_family(r.rule_id or ""), f"{r.elapsed_ms / 1000:.1f}", r.seed]

    return csv_response(rows(), filename)


@bp.route("/groups/<id:group_id>/export/summary.csv")
def export_summary(group_id: int) -> Response:
    """Download the group overview as CSV: one row per trainee and drill."""
    group = get_group_or_404(group_id)
    period = request_period()
    member_ids = [m.user_id for m in group.memberships]
    certification.bring_up_to_date(member_ids)
    overview = reports.group_overview(group.id, period)

    def rows() -> Iterator[list[Any]]:
        yield [_("Trainee"), _("Login"), _("Period"), _("Drill"), _("Questions answered"),
               pgettext("a column: how many answers were right", "Right"), _("Accuracy (%)"),
               _("Median time (s)"), _("Last activity (UTC)"),
               _("Readiness")]
        for row in sorted(overview.rows, key=lambda r: r.name.lower()):
            kinds: list[str | None] = [k for k in drill_kinds() if k in row.kinds] or [None]
            for kind in kinds:
                f = row.kinds.get(kind, Figures()) if kind else Figures()
                yield [row.name, row.login, str(PERIOD_NAMES[period.key]),
                       drill_title(kind) if kind else "", f.answered, f.right,
                       "" if f.accuracy is None else f"{f.accuracy * 100:.1f}",
                       "" if f.median_ms is None else f"{f.median_ms / 1000:.1f}",
                       _utc(row.last_activity), str(READINESS_NAMES[row.verdict.status])]

    return csv_response(rows(), f"summary-group-{group.id}-{period.key}.csv")
