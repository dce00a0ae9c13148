"""The supervisor dashboards' pages: the group overview and the trainee page, assembled.

Each page takes its figures from the queries (``reports.sql``), computes what is
derived from them (``reports.figures``) and judges readiness against the group's
criteria (``certification.criteria``); the group's settings come from
``group_settings``. Figures follow the trainee: they are computed from the
trainee's own attempts, whichever group they were in when answering; a group's
pages show its current members, each with all their attempts in the period.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from trainer.extensions import db
from trainer.models import Group, Membership, Role, User, utcnow
from trainer.services.certification.criteria import (
    READINESS_ORDER,
    Criterion,
    ExamRecord,
    Readiness,
    Verdict,
    readiness,
)
from trainer.services.group_settings import GroupSettings, group_criteria
from trainer.services.reports.figures import (
    Buckets,
    Figures,
    Period,
    Point,
    RuleFigures,
    buckets_for,
    family_figures,
    total,
)
from trainer.services.reports.sql import (
    Mistake,
    SessionRow,
    accuracy_trends,
    answer_counts,
    exam_records,
    first_activity,
    kind_figures,
    last_activity,
    recent_mistakes,
    recent_sessions,
    rule_figures,
    trends,
    window_figures,
)

# Names the web layer and the tests read from here, beside the page builders.
__all__ = [
    "READINESS_ORDER", "Buckets", "Criterion", "ExamRecord", "Figures", "GroupOverview",
    "Period", "Point", "Readiness", "RuleFigures", "TraineeReport", "TraineeRow", "Verdict",
    "group_criteria", "group_overview", "kind_figures", "readiness", "rule_figures",
    "trainee_report", "trainee_verdict", "verdicts", "window_figures",
]

WEAKEST_FAMILIES = 5
# A rule family needs this many answers in the period before it can be called weak.
MIN_FAMILY_ANSWERS = 5


@dataclass(frozen=True)
class TraineeRow:
    """One trainee's line on the group overview."""

    id: int
    name: str
    login: str
    kinds: dict[str, Figures]
    total: Figures
    trend: list[Point]
    last_activity: datetime | None
    verdict: Verdict


@dataclass(frozen=True)
class GroupOverview:
    """The group overview: one row per current trainee and the group's weakest families."""

    group_id: int
    period: Period
    buckets: Buckets
    kinds: list[str]
    rows: list[TraineeRow]
    weakest_families: list[RuleFigures]
    criteria: list[Criterion]


def verdicts(
    user_ids: Sequence[int], criteria: Sequence[Criterion], house_way: str, profile: str,
    exams: Mapping[int, list[ExamRecord]],
) -> dict[int, Verdict]:
    """Return the readiness of each listed user under the criteria."""
    windows: dict[int, dict[str, Figures]] = {}
    for criterion in criteria:
        for user_id, figures in window_figures(user_ids, criterion).items():
            windows.setdefault(user_id, {})[criterion.kind] = figures
    return {
        user_id: readiness(windows.get(user_id, {}), criteria, exams.get(user_id, []),
                           house_way, profile)
        for user_id in user_ids
    }


def group_overview(group_id: int, period: Period, now: datetime | None = None) -> GroupOverview:
    """Compute the group overview's figures over ``period``."""
    now = now or utcnow()
    group = db.session.get(Group, group_id)
    if group is None:
        raise LookupError(f"No group {group_id}.")
    members = db.session.execute(
        select(User.id, User.name, User.login)
        .join(Membership, Membership.user_id == User.id)
        .where(Membership.group_id == group_id, User.role == Role.TRAINEE)
    ).all()
    ids = [m.id for m in members]
    since = period.since(now)
    criteria = GroupSettings.of(group).certification_criteria
    counts = answer_counts(ids, since)
    per_kind = kind_figures(ids, since, counts)
    last = last_activity(ids)
    first = None if since is not None else first_activity(ids)
    buckets = buckets_for(period, now, first)
    trend = accuracy_trends(ids, since, buckets, counts)
    exams = exam_records(ids)
    verdict = verdicts(ids, criteria, group.house_way, group.profile, exams)
    rows = [
        TraineeRow(
            id=m.id, name=m.name, login=m.login,
            kinds=per_kind.get(m.id, {}),
            total=total(per_kind.get(m.id, {}).values()),
            trend=trend.get(m.id, []),
            last_activity=last.get(m.id),
            verdict=verdict[m.id],
        )
        for m in members
    ]
    rows.sort(key=lambda r: r.name.lower())
    kinds = sorted({kind for r in rows for kind in r.kinds})
    families = [
        f for f in family_figures(rule_figures(ids, since, counts))
        if f.figures.answered >= MIN_FAMILY_ANSWERS and f.figures.wrong
    ][:WEAKEST_FAMILIES]
    return GroupOverview(group_id, period, buckets, kinds, rows, families, criteria)


@dataclass(frozen=True)
class TraineeReport:
    """A trainee's page: figures per kind, over time, per rule, mistakes and sessions."""

    user_id: int
    period: Period
    buckets: Buckets
    kinds: dict[str, Figures]
    timeline: dict[str, list[Point]]
    rules: list[RuleFigures]
    mistakes: list[Mistake]
    sessions: list[SessionRow]
    exams: list[ExamRecord]
    last_activity: datetime | None


def trainee_report(user_id: int, period: Period, now: datetime | None = None) -> TraineeReport:
    """Compute a trainee page's figures over ``period``."""
    now = now or utcnow()
    since = period.since(now)
    ids = [user_id]
    counts = answer_counts(ids, since)
    first = None if since is not None else first_activity(ids)
    buckets = buckets_for(period, now, first)
    timeline = {
        kind: points for (_user, kind), points in trends(ids, since, buckets, by_kind=True).items()
        if kind is not None
    }
    return TraineeReport(
        user_id=user_id,
        period=period,
        buckets=buckets,
        kinds=kind_figures(ids, since, counts).get(user_id, {}),
        timeline=dict(sorted(timeline.items())),
        rules=rule_figures(ids, since, counts),
        mistakes=recent_mistakes(user_id),
        sessions=recent_sessions(user_id),
        exams=exam_records(ids).get(user_id, []),
        last_activity=last_activity(ids).get(user_id),
    )


def trainee_verdict(user_id: int, group: Group | None) -> Verdict:
    """Return a trainee's readiness under their current group's criteria."""
    if group is None:
        return Verdict(Readiness.NO_CRITERIA)
    criteria = GroupSettings.of(group).certification_criteria
    exams = exam_records([user_id])
    return verdicts([user_id], criteria, group.house_way, group.profile, exams)[user_id]
