"""The supervisor dashboards' pages: the group overview and the trainee page, assembled.

Each page takes its figures from the queries (``reports.sql``, ``readiness_sql``,
``history_sql``), computes what is derived from them (``reports.figures``) and judges
readiness against the group's criteria (``certification.criteria``); the group's
settings come from ``group_settings``. Figures follow the trainee: they are computed
from the trainee's own attempts, whichever group they were in when answering; a
group's pages show its current members, each with all their attempts in the period.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select

from trainer.engine.house_way import HouseWay, Rule
from trainer.extensions import db
from trainer.models import Group, Membership, Role, User, utcnow
from trainer.services import house_ways
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
from trainer.services.reports.history_sql import (
    Mistake,
    SessionRow,
    recent_mistakes,
    recent_sessions,
)
from trainer.services.reports.readiness_sql import exam_records, window_figures
from trainer.services.reports.sql import (
    accuracy_trends,
    answer_counts,
    first_activity,
    kind_figures,
    last_activity,
    rule_figures,
    trends,
    way_rule_counts,
)

# Names the web layer and the tests read from here, beside the page builders.
__all__ = [
    "READINESS_ORDER", "Buckets", "ClassByRule", "Criterion", "Erring", "ExamRecord", "Figures",
    "GroupOverview", "Period", "Point", "Readiness", "RuleFigures", "RuleRow", "TraineeReport",
    "TraineeRow", "Verdict", "class_by_rule",
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
    # The drill the weakest families are counted in (the page's drill filter); None: all.
    drill: str | None = None


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


def _members(group_id: int) -> Sequence[Any]:
    """Return the group's current trainees: (id, name, login) rows."""
    return db.session.execute(
        select(User.id, User.name, User.login)
        .join(Membership, Membership.user_id == User.id)
        .where(Membership.group_id == group_id, User.role == Role.TRAINEE)
    ).all()


def group_overview(group_id: int, period: Period, now: datetime | None = None,
                   drill: str | None = None) -> GroupOverview:
    """Compute the group overview's figures over ``period``.

    ``drill`` is the page's drill filter: the weakest families are then counted from that
    drill's answers only (a kind nobody answered in the period is no filter: all drills).
    """
    now = now or utcnow()
    group = db.session.get(Group, group_id)
    if group is None:
        raise LookupError(f"No group {group_id}.")
    members = _members(group_id)
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
    drill = drill if drill in kinds else None
    families = [
        f for f in family_figures(rule_figures(ids, since, counts, kind=drill))
        if f.figures.answered >= MIN_FAMILY_ANSWERS and f.figures.wrong
    ][:WEAKEST_FAMILIES]
    return GroupOverview(group_id, period, buckets, kinds, rows, families, criteria, drill)


@dataclass(frozen=True)
class Erring:
    """A trainee who missed a rule: their wrong (or timed-out) answers of their answers."""

    user_id: int
    name: str
    wrong: int
    answered: int


@dataclass(frozen=True)
class RuleRow:
    """One rule of the group's house way on the class-by-rule page."""

    rule: Rule
    figures: Figures
    # Who errs on it, the most misses first (then by name).
    erring: list[Erring]

    @property
    def met(self) -> bool:
        """Tell whether the class answered on this rule in the period (and drill)."""
        return self.figures.answered > 0


@dataclass(frozen=True)
class ClassByRule:
    """The class by house-way rule: every rule of the group's way in sheet order, with the
    class's answers on it, its accuracy and who errs (docs/dashboards.md)."""

    group_id: int
    period: Period
    house_way: str
    way: HouseWay | None
    # The drill kinds with answers on the way's rules in the period (the drill filter's
    # choices), and the one chosen (None: all of them).
    kinds: list[str]
    drill: str | None
    rules: list[RuleRow]
    # Answers on these rule ids given under another house way or version: not counted.
    other_way_answers: int

    @property
    def unmet(self) -> list[RuleRow]:
        """Return the rules nobody in the class answered on, in sheet order."""
        return [row for row in self.rules if not row.met]

    def weakest_first(self) -> list[RuleRow]:
        """Return the rules met, lowest accuracy first (then the most missed, then sheet
        order), followed by the rules never met, in sheet order."""
        met = [(i, row) for i, row in enumerate(self.rules) if row.met]
        met.sort(key=lambda pair: (pair[1].figures.accuracy or 0.0, -pair[1].figures.wrong,
                                   pair[0]))
        return [row for _, row in met] + self.unmet


def class_by_rule(group_id: int, period: Period, drill: str | None = None,
                  now: datetime | None = None) -> ClassByRule:
    """Compute the class-by-rule page over ``period``: the group's current trainees' answers
    on each rule of the group's house way (a preset or its published custom version),
    in the house-way drill and the rounds' banker steps, or in ``drill`` alone.

    Only answers given in sessions on the group's way (its ref) count: a rule id of a
    preset is also a copy's, whose sentence may differ. Two statements: the members,
    then the answers grouped by rule, trainee and drill (``way_rule_counts``).
    """
    now = now or utcnow()
    group = db.session.get(Group, group_id)
    if group is None:
        raise LookupError(f"No group {group_id}.")
    try:
        ref = GroupSettings.of(group).house_way
    except ValueError:
        # Settings no longer valid (a way the installation stopped offering): the stored
        # ref as it is; the page then says the way cannot be read, instead of failing.
        ref = group.house_way
    try:
        way: HouseWay | None = house_ways.get_way(ref)
    except (house_ways.WayError, RuntimeError):
        way = None
    members = {m.id: m.name for m in _members(group_id)}
    counts = way_rule_counts(list(members), period.since(now), ref,
                             way.rule_ids if way is not None else ())
    kinds = sorted({c.kind for c in counts if c.same_way})
    drill = drill if drill in kinds else None
    chosen = [c for c in counts if drill is None or c.kind == drill]
    per_rule: dict[str, dict[int, tuple[int, int]]] = {}
    for c in chosen:
        if c.same_way:
            users = per_rule.setdefault(c.rule_id, {})
            answered, right = users.get(c.user_id, (0, 0))
            users[c.user_id] = (answered + c.answered, right + c.right)
    rows = []
    for rule in way.rules if way is not None else ():
        users = per_rule.get(rule.id, {})
        erring = sorted(
            (Erring(user_id, members[user_id], answered - right, answered)
             for user_id, (answered, right) in users.items() if answered > right),
            key=lambda e: (-e.wrong, e.name.lower(), e.user_id))
        rows.append(RuleRow(rule, total(Figures(a, r) for a, r in users.values()), erring))
    other = sum(c.answered for c in chosen if not c.same_way)
    return ClassByRule(group_id, period, ref, way, kinds, drill, rows, other)


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
