"""The supervisor dashboards' figures: aggregated queries returning plain dataclasses.

Every figure is computed in SQL (GROUP BY and window functions that run on both
SQLite and PostgreSQL); Python only loops over aggregated rows, never over a
trainee's attempts. Two exceptions, both bounded: settlement positions are
counted from the JSON of the last ``window`` settlement attempts of each trainee
(at most ``window`` rows each), and a trainee's recent mistakes are read whole
(at most ``MISTAKES`` rows).

The group overview has two SQLite-only paths, because SQLite sorts every row of
the period for a window function or a GROUP BY on a computed bucket (most of the
all-time overview's time went there): per-kind medians walk an index to each
trainee's middle answers (``_middle_elapsed``), and the sparklines count each
bucket with an index range (``accuracy_trends``). PostgreSQL keeps the plain
queries (``percentile_cont`` medians, a GROUP BY per bucket); both give the same
figures, which the tests check.

Rules the figures follow:

- An attempt is right when it is correct and not timed out; a timed-out attempt
  counts as wrong, with its elapsed time.
- Figures follow the trainee: they are computed from the trainee's own attempts,
  whichever group they were in when answering. A group's pages show its current
  members, each with all their attempts in the period.
- Readiness is a pure function of figures, criteria and exam records
  (``readiness``), so it is tested without a database.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone
from enum import StrEnum
from functools import cached_property
from typing import Any

from sqlalchemy import Integer, and_, bindparam, case, func, literal_column, or_, select, text
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import aliased
from sqlalchemy.sql import ColumnElement
from sqlalchemy.sql.expression import FunctionElement

from trainer.extensions import db
from trainer.models import (
    Attempt,
    CertificationExam,
    DrillSession,
    ExamStatus,
    Group,
    IssuedQuestion,
    Membership,
    Role,
    User,
    utcnow,
)

PERIODS: dict[str, int | None] = {"7d": 7, "30d": 30, "all": None}
DEFAULT_PERIOD = "30d"
# Sessions whose questions count towards certification: the clock was running.
TIMED_MODES = ("timed", "exam")
# A chart has about this many points, whatever the period.
CHART_POINTS = 30
MISTAKES = 20
RECENT_SESSIONS = 30
WEAKEST_FAMILIES = 5
# A rule family needs this many answers in the period before it can be called weak.
MIN_FAMILY_ANSWERS = 5
# The SQLite-only paths work per (trainee, drill) pair, this many pairs to a
# statement: under SQLite's 500 UNION ALL arms and, with a chart's bucket bounds,
# under the 999 bound parameters of older SQLite builds.
PAIRS_PER_STATEMENT = 100
# Before every answer: a cutoff that keeps them all.
EARLIEST = datetime(1, 1, 1, tzinfo=timezone.utc)

DEFAULT_CRITERIA: tuple[dict[str, Any], ...] = (
    {"kind": "house-way", "min_accuracy": 98.0, "window": 100, "max_median_s": 8.0,
     "exam_length": 50, "exam_time_limit_s": 10},
    {"kind": "settlement", "min_accuracy": 99.0, "window": 50, "max_median_s": None,
     "exam_length": 20, "exam_time_limit_s": 30},
)


# --------------------------------------------------------------------------- SQL helpers


class _day_number(FunctionElement[int]):
    """Whole UTC days since 1970-01-01 of a stored time (a portable date bucket)."""

    type = Integer()
    inherit_cache = True


@compiles(_day_number)
def _day_number_sqlite(element: Any, compiler: Any, **kw: Any) -> str:
    # SQLite stores the naive UTC text; julianday() reads it; values are positive,
    # so the cast's truncation is a floor.
    return "CAST(julianday(%s) - 2440587.5 AS INTEGER)" % compiler.process(element.clauses, **kw)


@compiles(_day_number, "postgresql")
def _day_number_postgresql(element: Any, compiler: Any, **kw: Any) -> str:
    # Date arithmetic: the same day as floor(extract(epoch ...) / 86400), without
    # the numeric division per row that took half the trend query's time.
    return "(CAST((%s AT TIME ZONE 'UTC') AS DATE) - DATE '1970-01-01')" % compiler.process(
        element.clauses, **kw
    )


def _right() -> ColumnElement[int]:
    """1 for a right answer (correct and in time), else 0."""
    return case((and_(Attempt.correct, ~Attempt.timed_out), 1), else_=0)


def _median_rows(source: Any, keys: Sequence[str]) -> Any:
    """Select ``keys``, count, right and median elapsed_ms from ``source`` grouped by ``keys``.

    The median is the mean of the middle one or two rows by elapsed time: with n
    rows numbered 1..n, those are exactly the rows with n <= 2*rn <= n + 2.
    """
    partition = [source.c[key] for key in keys]
    if db.session.get_bind().dialect.name == "postgresql":
        # PostgreSQL has the ordered-set aggregate: the same median (the mean of the
        # middle two for an even count), without ranking every row first.
        return (
            select(
                *partition,
                func.count().label("answered"),
                func.sum(source.c.right).label("right"),
                func.percentile_cont(0.5).within_group(source.c.elapsed_ms).label("median_ms"),
            )
            .group_by(*partition)
        )
    ranked = select(
        *partition,
        source.c.elapsed_ms,
        source.c.right,
        func.row_number().over(partition_by=partition, order_by=source.c.elapsed_ms).label("rn"),
        func.count().over(partition_by=partition).label("n"),
    ).subquery()
    middle = and_(2 * ranked.c.rn >= ranked.c.n, 2 * ranked.c.rn <= ranked.c.n + 2)
    return (
        select(
            *[ranked.c[key] for key in keys],
            func.count().label("answered"),
            func.sum(ranked.c.right).label("right"),
            func.avg(case((middle, ranked.c.elapsed_ms))).label("median_ms"),
        )
        .group_by(*[ranked.c[key] for key in keys])
    )


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


# --------------------------------------------------------------------------- periods


@dataclass(frozen=True)
class Period:
    """A dashboard period: the last 7 or 30 days, or all time."""

    key: str
    days: int | None

    @classmethod
    def parse(cls, key: str | None) -> Period:
        """Return the period named ``key``, or the default one."""
        key = key if key in PERIODS else DEFAULT_PERIOD
        return cls(key, PERIODS[key])

    def since(self, now: datetime) -> datetime | None:
        """Return the period's first instant, or None for all time."""
        return None if self.days is None else now - timedelta(days=self.days)


@dataclass(frozen=True)
class Buckets:
    """Equal runs of days that a chart's points stand for."""

    first_day: int
    size: int
    count: int

    @classmethod
    def for_span(cls, first: date, last: date, points: int = CHART_POINTS) -> Buckets:
        """Cut the days from ``first`` to ``last`` into at most ``points`` equal buckets."""
        first_day = (first - date(1970, 1, 1)).days
        days = (last - first).days + 1
        size = max(1, math.ceil(days / points))
        return cls(first_day, size, math.ceil(days / size))

    def index(self, day_number: int) -> int:
        """Return the bucket of a day number."""
        return (day_number - self.first_day) // self.size

    def start(self, index: int) -> date:
        """Return the first day of bucket ``index``."""
        return date(1970, 1, 1) + timedelta(days=self.first_day + index * self.size)


def _buckets(period: Period, now: datetime, first_seen: datetime | None) -> Buckets:
    since = period.since(now)
    first = (since or first_seen or now).date()
    return Buckets.for_span(first, now.date())


# --------------------------------------------------------------------------- figures


@dataclass(frozen=True)
class Figures:
    """Answers, right answers and median time of a set of attempts (or positions)."""

    answered: int = 0
    right: int = 0
    median_ms: float | None = None

    @property
    def accuracy(self) -> float | None:
        """Return the share answered right, or None with no answers."""
        return self.right / self.answered if self.answered else None

    @property
    def wrong(self) -> int:
        """Return how many were wrong or timed out."""
        return self.answered - self.right


@dataclass(frozen=True)
class Point:
    """One chart point: a bucket's first day and its figures."""

    day: date
    figures: Figures


@dataclass(frozen=True)
class RuleFigures:
    """How a trainee (or group) does on one rule id or rule family."""

    rule: str
    figures: Figures


@dataclass(frozen=True)
class AnswerCounts:
    """Answers and right answers per (user, kind, rule id) over a period.

    ``rows`` hold ``user_id, kind, rule_id, answered, right``, counted from the
    attempts numbered up to ``top`` (the highest id when they were counted; None
    when there were no attempts at all). The overview and the trainee page count
    once and derive the per-kind and per-rule figures from the same rows.
    """

    top: int | None
    rows: Sequence[Any]

    @cached_property
    def per_kind(self) -> dict[tuple[int, str], tuple[int, int]]:
        """(answered, right) per (user, kind)."""
        return _add_up(((row.user_id, row.kind), row.answered, int(row.right or 0))
                       for row in self.rows)


def _add_up(items: Iterable[tuple[Any, int, int]]) -> dict[Any, tuple[int, int]]:
    """Add ``(key, answered, right)`` items up into (answered, right) per key."""
    totals: dict[Any, tuple[int, int]] = {}
    for key, answered, right in items:
        answered_so_far, right_so_far = totals.get(key, (0, 0))
        totals[key] = (answered_so_far + answered, right_so_far + right)
    return totals


def answer_counts(user_ids: Sequence[int], since: datetime | None) -> AnswerCounts:
    """Count each user's answers and right answers per kind and rule id over the period."""
    top = db.session.execute(select(func.max(Attempt.id))).scalar()
    if top is None:
        return AnswerCounts(None, [])
    # Grouped in the order of the covering (user_id, kind, rule_id, answered_at,
    # correct, timed_out) index, so it is read in order, without a sort.
    query = (
        select(Attempt.user_id, Attempt.kind, Attempt.rule_id,
               func.count().label("answered"), func.sum(_right()).label("right"))
        .where(Attempt.user_id.in_(user_ids))
        .group_by(Attempt.user_id, Attempt.kind, Attempt.rule_id)
    )
    if since is not None:
        query = query.where(Attempt.answered_at >= since)
    if db.session.get_bind().dialect.name == "sqlite":
        # Attempts are append-only and numbered in insertion order: bounding every
        # statement that works from these counts by the highest id seen first makes
        # them all read the same rows, even if answers are recorded in between
        # (SQLite's medians and sparklines take more statements). Every SQLite
        # index holds the row id, so the bound costs nothing; PostgreSQL's do not
        # (it would read the table), and there each figure is one statement.
        query = query.where(Attempt.id <= top)
    return AnswerCounts(top, db.session.execute(query).all())


def kind_figures(
    user_ids: Sequence[int], since: datetime | None, counts: AnswerCounts | None = None
) -> dict[int, dict[str, Figures]]:
    """Return each user's figures per drill kind over the period.

    ``counts``, if given, must be ``answer_counts(user_ids, since)``.
    """
    if db.session.get_bind().dialect.name == "postgresql":
        # One statement: counts and the ordered-set median together.
        source = select(
            Attempt.user_id, Attempt.kind, Attempt.elapsed_ms, _right().label("right")
        ).where(Attempt.user_id.in_(user_ids))
        if since is not None:
            source = source.where(Attempt.answered_at >= since)
        rows = db.session.execute(_median_rows(source.subquery(), ["user_id", "kind"])).all()
        totals = {(row.user_id, row.kind): (row.answered, int(row.right or 0)) for row in rows}
        medians = {(row.user_id, row.kind): row.median_ms for row in rows}
    else:
        counts = counts if counts is not None else answer_counts(user_ids, since)
        totals = counts.per_kind
        medians = _middle_elapsed(totals, since, counts.top)
    result: dict[int, dict[str, Figures]] = {}
    for (user_id, kind), (answered, right) in sorted(totals.items()):
        result.setdefault(user_id, {})[kind] = Figures(
            answered, right, _float(medians.get((user_id, kind)))
        )
    return result


def _middle_elapsed(
    totals: Mapping[tuple[int, str], tuple[int, int]], since: datetime | None, top: int | None
) -> dict[tuple[int, str], float]:
    """Return the exact median elapsed_ms per (user, kind), knowing each one's count.

    The window-function median ranks every row of the period (SQLite spent most of
    the all-time overview doing that). With each (user, kind)'s count n known, one
    walk down the (user_id, kind, elapsed_ms, answered_at) index per pair skips
    (n - 1) // 2 entries and reads the next 1 (n odd) or 2 (n even): the same
    median, the mean of the middle one or two, found without sorting anything.

    SQLite's LIMIT and OFFSET cannot refer to an outer query, so each pair is an arm
    of a UNION ALL with its own bound LIMIT and OFFSET, ``PAIRS_PER_STATEMENT``
    arms at most to a statement. The arms are SQL text: built as Core subqueries
    they cost more Python time (about 50 ms for a group of 25) than SQLite spends
    running them. ``top`` bounds the walks to the rows that were counted.
    """
    pairs = [(key, answered) for key, (answered, _) in totals.items() if answered]
    in_period = ""
    bounds = [bindparam("top", top, type_=Attempt.id.type)]
    if since is not None:
        in_period = " AND answered_at >= :since"
        bounds.append(bindparam("since", since, type_=Attempt.answered_at.type))
    medians: dict[tuple[int, str], float] = {}
    for start in range(0, len(pairs), PAIRS_PER_STATEMENT):
        chunk = pairs[start:start + PAIRS_PER_STATEMENT]
        arms = " UNION ALL ".join(
            "SELECT * FROM (SELECT user_id, kind, elapsed_ms FROM attempts"
            f" WHERE user_id = :user{i} AND kind = :kind{i} AND id <= :top{in_period}"
            f" ORDER BY elapsed_ms LIMIT :take{i} OFFSET :skip{i})"
            for i in range(len(chunk))
        )
        params: dict[str, Any] = {}
        for i, ((user_id, kind), answered) in enumerate(chunk):
            params.update({f"user{i}": user_id, f"kind{i}": kind,
                           f"take{i}": 2 - answered % 2, f"skip{i}": (answered - 1) // 2})
        query = text(
            f"SELECT user_id, kind, avg(elapsed_ms) FROM ({arms}) GROUP BY user_id, kind"
        ).bindparams(*bounds)
        medians.update(((user_id, kind), median)
                       for user_id, kind, median in db.session.execute(query, params))
    return medians


def last_activity(user_ids: Sequence[int]) -> dict[int, datetime]:
    """Return each user's latest answer time, all time."""
    # One index seek per user on (user_id, answered_at), not a scan of their attempts.
    latest = (
        select(func.max(Attempt.answered_at))
        .where(Attempt.user_id == User.id)
        .correlate(User)
        .scalar_subquery()
    )
    rows = db.session.execute(select(User.id, latest).where(User.id.in_(user_ids))).all()
    return {user_id: at for user_id, at in rows if at is not None}


def first_activity(user_ids: Sequence[int]) -> datetime | None:
    """Return the earliest answer time among the users, all time."""
    # One index seek per user on (user_id, answered_at), as in last_activity.
    earliest = (
        select(func.min(Attempt.answered_at))
        .where(Attempt.user_id == User.id)
        .correlate(User)
        .scalar_subquery()
    )
    return db.session.execute(
        select(func.min(earliest)).select_from(User).where(User.id.in_(user_ids))
    ).scalar()


def unanswered_practice(user_ids: Sequence[int], since: datetime | None) -> dict[int, int]:
    """Return how many practice questions each user was shown in the period and never answered.

    Shown beside the figures, never in them: practice has no clock, so a question
    left there is not a wrong answer (timed and exam questions left unanswered are
    recorded as timed out, ``drill_service.settle_overdue``). A practice question
    still on the trainee's screen counts here until it is answered.
    """
    if not user_ids:
        return {}
    answered = select(Attempt.id).where(
        Attempt.session_id == IssuedQuestion.session_id, Attempt.position == IssuedQuestion.position
    ).exists()
    query = (
        select(DrillSession.user_id, func.count(IssuedQuestion.id))
        .join(IssuedQuestion, IssuedQuestion.session_id == DrillSession.id)
        .where(
            DrillSession.user_id.in_(list(user_ids)),
            DrillSession.mode == "practice",
            # A finished session has every question answered.
            DrillSession.finished_at.is_(None),
            IssuedQuestion.issued_at.is_not(None),
            ~answered,
        )
        .group_by(DrillSession.user_id)
    )
    if since is not None:
        query = query.where(IssuedQuestion.issued_at >= since)
    return {user_id: count for user_id, count in db.session.execute(query).all()}


def trends(
    user_ids: Sequence[int], since: datetime | None, buckets: Buckets, by_kind: bool = False,
    with_median: bool = True,
) -> dict[tuple[int, str | None], list[Point]]:
    """Return each user's (and with ``by_kind`` each kind's) figures per bucket, oldest first.

    Without ``with_median`` (a sparkline needs accuracy only) it is a plain GROUP BY.
    """
    day = _day_number(Attempt.answered_at)
    bucket = ((day - buckets.first_day) // buckets.size).label("bucket")
    columns = [Attempt.user_id, Attempt.kind] if by_kind else [Attempt.user_id]
    source = select(*columns, bucket, Attempt.elapsed_ms, _right().label("right")).where(
        Attempt.user_id.in_(user_ids), day >= buckets.first_day
    )
    if since is not None:
        source = source.where(Attempt.answered_at >= since)
    keys = ["user_id", "kind", "bucket"] if by_kind else ["user_id", "bucket"]
    if with_median:
        query = _median_rows(source.subquery(), keys)
    else:
        rows_ = source.subquery()
        query = select(
            *[rows_.c[key] for key in keys], func.count().label("answered"),
            func.sum(rows_.c.right).label("right"), literal_column("NULL").label("median_ms"),
        ).group_by(*[rows_.c[key] for key in keys])
    rows = db.session.execute(query).all()
    result: dict[tuple[int, str | None], list[Point]] = {}
    for row in sorted(rows, key=lambda r: int(r.bucket)):
        key = (row.user_id, row.kind if by_kind else None)
        result.setdefault(key, []).append(
            Point(buckets.start(int(row.bucket)),
                  Figures(row.answered, int(row.right or 0), _float(row.median_ms)))
        )
    return result


def accuracy_trends(
    user_ids: Sequence[int], since: datetime | None, buckets: Buckets, counts: AnswerCounts
) -> dict[int, list[Point]]:
    """Return each user's answers and right answers per bucket, oldest first (the sparklines).

    ``counts`` must be ``answer_counts(user_ids, since)``. Answers after the last
    bucket (none unless ``now`` was in the past) are left out; a chart drops them.
    """
    if db.session.get_bind().dialect.name != "sqlite":
        return {user_id: points for (user_id, _), points in
                trends(user_ids, since, buckets, with_median=False).items()}
    # On SQLite a GROUP BY on the bucket sorts every answer of the period first.
    # Instead, for each (user, kind) that has answers and each bucket, count the
    # bucket's answers with a range seek on the covering (user_id, kind,
    # answered_at, correct, timed_out, ...) index: nothing is sorted. The figures
    # are then added up per user and bucket here, over those counted cells.
    pairs = sorted(key for key, (answered, _) in counts.per_kind.items() if answered)
    bounds: list[Any] = [bindparam("top", counts.top, type_=Attempt.id.type)]
    cells = []
    for index in range(buckets.count):
        lo = datetime.combine(buckets.start(index), time.min, timezone.utc)
        if index == 0 and since is not None:
            lo = max(lo, since)
        hi = datetime.combine(buckets.start(index + 1), time.min, timezone.utc)
        bounds += [bindparam(f"lo{index}", lo, type_=Attempt.answered_at.type),
                   bindparam(f"hi{index}", hi, type_=Attempt.answered_at.type)]
        cells.append(f"({index}, :lo{index}, :hi{index})")
    in_cell = (
        "FROM attempts WHERE user_id = pairs.user_id AND kind = pairs.kind"
        " AND answered_at >= bounds.lo AND answered_at < bounds.hi AND id <= :top"
    )
    cells_counted: list[tuple[tuple[int, int], int, int]] = []
    for start in range(0, len(pairs), PAIRS_PER_STATEMENT):
        chunk = pairs[start:start + PAIRS_PER_STATEMENT]
        query = text(
            "WITH pairs(user_id, kind) AS (VALUES "
            + ", ".join(f"(:user{i}, :kind{i})" for i in range(len(chunk)))
            + "), bounds(bucket, lo, hi) AS (VALUES " + ", ".join(cells) + ")"
            f" SELECT pairs.user_id, bounds.bucket, (SELECT count(*) {in_cell}),"
            f" (SELECT total(correct = 1 AND timed_out = 0) {in_cell})"
            " FROM pairs CROSS JOIN bounds"
        ).bindparams(*bounds)
        params: dict[str, Any] = {}
        for i, (user_id, kind) in enumerate(chunk):
            params.update({f"user{i}": user_id, f"kind{i}": kind})
        cells_counted += [((user_id, bucket), answered, int(right))
                          for user_id, bucket, answered, right in db.session.execute(query, params)
                          if answered]
    result: dict[int, list[Point]] = {}
    for (user_id, bucket), (answered, right) in sorted(_add_up(cells_counted).items()):
        point = Point(buckets.start(bucket), Figures(answered, right))
        result.setdefault(user_id, []).append(point)
    return result


def rule_figures(
    user_ids: Sequence[int], since: datetime | None, counts: AnswerCounts | None = None
) -> list[RuleFigures]:
    """Return figures per rule id over the period, weakest first.

    ``counts``, if given, must be ``answer_counts(user_ids, since)``.
    """
    counts = counts if counts is not None else answer_counts(user_ids, since)
    totals = _add_up((row.rule_id, row.answered, int(row.right or 0))
                     for row in counts.rows if row.rule_id is not None)
    return weakest_first(
        RuleFigures(rule, Figures(answered, right)) for rule, (answered, right) in totals.items()
    )


def weakest_first(rules: Iterable[RuleFigures]) -> list[RuleFigures]:
    """Sort rules by accuracy, lowest first; among equals, the most missed first."""
    return sorted(rules, key=lambda r: (r.figures.accuracy or 0.0, -r.figures.wrong, r.rule))


def family_figures(rules: Iterable[RuleFigures]) -> list[RuleFigures]:
    """Add rule ids up into their families (the part before the first dot), weakest first."""
    totals = _add_up((rule.rule.split(".", 1)[0], rule.figures.answered, rule.figures.right)
                     for rule in rules)
    return weakest_first(
        RuleFigures(family, Figures(answered, right)) for family, (answered, right) in totals.items()
    )


# --------------------------------------------------------------------------- criteria


@dataclass(frozen=True)
class Criterion:
    """What a trainee must show in one drill kind to be certified, and the exam for it.

    Accuracy over the last ``window`` timed questions (settlement: positions),
    median answer time at most ``max_median_s`` when set; the exam asks
    ``exam_length`` questions with ``exam_time_limit_s`` each.
    """

    kind: str
    min_accuracy: float
    window: int
    max_median_s: float | None = None
    exam_length: int = 50
    exam_time_limit_s: int = 10

    @property
    def counts_positions(self) -> bool:
        """Tell whether this criterion counts settled positions rather than questions."""
        return self.kind == "settlement"

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON form kept in the group's settings and in exam records."""
        return {"kind": self.kind, "min_accuracy": self.min_accuracy, "window": self.window,
                "max_median_s": self.max_median_s, "exam_length": self.exam_length,
                "exam_time_limit_s": self.exam_time_limit_s}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Criterion:
        """Read a criterion from its JSON form; ValueError if it makes no sense."""
        kind = str(data["kind"])
        min_accuracy = float(data["min_accuracy"])
        window = int(data["window"])
        median = data.get("max_median_s")
        criterion = cls(
            kind, min_accuracy, window, None if median in (None, "") else float(median),
            int(data.get("exam_length", 50)), int(data.get("exam_time_limit_s", 10)),
        )
        if not 0 <= min_accuracy <= 100 or window < 1 or criterion.exam_length < 1:
            raise ValueError(f"The {kind} criterion is out of range.")
        return criterion

    def passes(self, figures: Figures) -> bool:
        """Tell whether accuracy and median time meet this criterion (enough data aside)."""
        accuracy = figures.accuracy
        if accuracy is None or accuracy * 100 < self.min_accuracy - 1e-9:
            return False
        if self.max_median_s is not None:
            return figures.median_ms is not None and figures.median_ms <= self.max_median_s * 1000
        return True


def group_criteria(settings: Mapping[str, Any] | None) -> list[Criterion]:
    """Return the certification criteria in a group's settings, or the defaults."""
    certification = (settings or {}).get("certification")
    if not isinstance(certification, Mapping) or "criteria" not in certification:
        return [Criterion.from_dict(c) for c in DEFAULT_CRITERIA]
    criteria = []
    for data in certification["criteria"]:
        try:
            criteria.append(Criterion.from_dict(data))
        except (KeyError, TypeError, ValueError):
            continue
    return criteria


def position_results(answer: Any, correct_answer: Any, timed_out: bool) -> list[bool]:
    """Return, per settled position, whether the trainee settled it right.

    A position is right when its outcome matches and, for a win, the amount paid
    does too (the settlement drill's own rule); a timed-out table is all wrong.
    Any stored row is read without raising: a position whose key or answer is not
    an object counts as wrong.
    """
    right = correct_answer.get("positions") if isinstance(correct_answer, dict) else None
    right = [key if isinstance(key, dict) else {} for key in right] \
        if isinstance(right, list) else []
    given = answer.get("positions") if isinstance(answer, dict) else None
    if timed_out or not isinstance(given, list):
        return [False] * len(right)
    results = []
    for index, key in enumerate(right):
        mine = given[index] if index < len(given) and isinstance(given[index], dict) else {}
        ok = key.get("outcome") is not None and mine.get("outcome") == key.get("outcome") and (
            key.get("outcome") != "win" or mine.get("paid_cents") == key.get("paid_cents")
        )
        results.append(ok)
    return results


def _median(values: Sequence[int]) -> float | None:
    ordered = sorted(values)
    if not ordered:
        return None
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return float(ordered[middle])
    return (ordered[middle - 1] + ordered[middle]) / 2


def _recent_timed(user_ids: Sequence[int], kind: str, window: int, columns: Sequence[Any]) -> Any:
    """The last ``window`` timed attempts of ``kind`` of each user, ranked newest first.

    First each user's cutoff, the time of their window-th latest timed answer (one
    short walk down the (user_id, kind, answered_at) index per user), then only
    the answers from the cutoff on: the query never ranks a trainee's whole history.
    """
    older, older_session = aliased(Attempt), aliased(DrillSession)
    cutoff = (
        select(older.answered_at)
        .join(older_session, older_session.id == older.session_id)
        .where(older.user_id == User.id, older.kind == kind,
               older_session.mode.in_(TIMED_MODES))
        .order_by(older.answered_at.desc())
        .limit(1)
        .offset(window - 1)
        .correlate(User)
        .scalar_subquery()
    )
    # MATERIALIZED (SQLite 3.35+, PostgreSQL 12+): work each cutoff out once, not per row.
    # Fewer than ``window`` timed answers: no cutoff, every answer counts. The
    # earliest time stands in for it rather than NULL, so the join below stays a
    # plain range on the index (with "cutoff IS NULL OR ..." SQLite walked every
    # answer of the drill, each with its session, and filtered afterwards).
    cutoffs = select(
        User.id.label("user_id"),
        func.coalesce(cutoff, bindparam("earliest", EARLIEST, type_=Attempt.answered_at.type))
        .label("cutoff"),
    ).where(User.id.in_(user_ids)).cte("cutoffs").prefix_with("MATERIALIZED")
    latest = (
        select(
            Attempt.user_id, *columns,
            func.row_number().over(
                partition_by=Attempt.user_id,
                order_by=(Attempt.answered_at.desc(), Attempt.id.desc()),
            ).label("recent"),
        )
        .join(DrillSession, DrillSession.id == Attempt.session_id)
        .join(cutoffs, cutoffs.c.user_id == Attempt.user_id)
        .where(
            Attempt.kind == kind, DrillSession.mode.in_(TIMED_MODES),
            Attempt.answered_at >= cutoffs.c.cutoff,
        )
    )
    if db.session.get_bind().dialect.name == "postgresql":
        # The user ids again, beside the join: PostgreSQL's planner then walks the
        # (user_id, kind, answered_at) index instead of scanning every attempt.
        latest = latest.where(Attempt.user_id.in_(user_ids))
    latest = latest.subquery()
    # Answers sharing the cutoff's instant could overshoot the window: rank and trim.
    return select(latest).where(latest.c.recent <= window).subquery()


def window_figures(user_ids: Sequence[int], criterion: Criterion) -> dict[int, Figures]:
    """Return each user's figures over the criterion's window of recent timed answers."""
    if criterion.counts_positions:
        return _position_window(user_ids, criterion)
    ranked = _recent_timed(
        user_ids, criterion.kind, criterion.window,
        [Attempt.elapsed_ms, _right().label("right")],
    )
    rows = db.session.execute(_median_rows(ranked, ["user_id"])).all()
    return {
        row.user_id: Figures(row.answered, int(row.right or 0), _float(row.median_ms))
        for row in rows
    }


def _position_window(user_ids: Sequence[int], criterion: Criterion) -> dict[int, Figures]:
    # Each settlement question has at least one position, so the last ``window``
    # questions always hold the last ``window`` positions. The ranking reads only
    # the covering index; the JSON is read for the chosen rows alone.
    ranked = _recent_timed(user_ids, criterion.kind, criterion.window, [Attempt.id.label("attempt_id")])
    chosen = select(ranked.c.attempt_id, ranked.c.recent).subquery()
    rows = db.session.execute(
        select(Attempt.user_id, Attempt.elapsed_ms, Attempt.timed_out, Attempt.answer,
               Attempt.correct_answer)
        .join(chosen, chosen.c.attempt_id == Attempt.id)
        .order_by(Attempt.user_id, chosen.c.recent)
    ).all()
    counted: dict[int, list[bool]] = {}
    times: dict[int, list[int]] = {}
    for row in rows:
        positions = counted.setdefault(row.user_id, [])
        if len(positions) >= criterion.window:
            continue
        positions.extend(position_results(row.answer, row.correct_answer, row.timed_out))
        times.setdefault(row.user_id, []).append(row.elapsed_ms)
    return {
        user_id: Figures(len(results), sum(results), _median(times[user_id]))
        for user_id, results in counted.items()
    }


# --------------------------------------------------------------------------- exams


@dataclass(frozen=True)
class ExamRecord:
    """A certification exam as the dashboards show it."""

    id: int
    trainee_id: int
    kind: str
    status: str
    scheduled_at: datetime
    finished_at: datetime | None
    passed: bool | None
    house_way: str
    profile: str
    criterion: Criterion
    figures: Figures

    @property
    def open(self) -> bool:
        """Tell whether the exam is still to be taken or under way."""
        return self.status != ExamStatus.FINISHED


def exam_records(user_ids: Any) -> dict[int, list[ExamRecord]]:
    """Return each user's certification exams, newest first."""
    exams = db.session.execute(
        select(CertificationExam)
        .where(CertificationExam.trainee_id.in_(user_ids))
        .order_by(CertificationExam.scheduled_at.desc(), CertificationExam.id.desc())
    ).scalars()
    result: dict[int, list[ExamRecord]] = {}
    for exam in exams:
        result.setdefault(exam.trainee_id, []).append(as_record(exam))
    return result


def as_record(exam: CertificationExam) -> ExamRecord:
    """Return the plain record of an exam row."""
    return ExamRecord(
        id=exam.id, trainee_id=exam.trainee_id, kind=exam.kind, status=exam.status,
        scheduled_at=exam.scheduled_at, finished_at=exam.finished_at, passed=exam.passed,
        house_way=exam.house_way, profile=exam.profile,
        criterion=Criterion.from_dict(exam.criteria),
        figures=Figures(exam.counted or 0, exam.right or 0,
                        None if exam.median_ms is None else float(exam.median_ms)),
    )


def session_figures(session_id: int, criterion: Criterion) -> Figures:
    """Return a session's figures as the criterion counts them (questions or positions)."""
    if criterion.counts_positions:
        rows = db.session.execute(
            select(Attempt.elapsed_ms, Attempt.timed_out, Attempt.answer, Attempt.correct_answer)
            .where(Attempt.session_id == session_id)
        ).all()
        results = [ok for row in rows
                   for ok in position_results(row.answer, row.correct_answer, row.timed_out)]
        return Figures(len(results), sum(results), _median([row.elapsed_ms for row in rows]))
    source = select(
        Attempt.session_id, Attempt.elapsed_ms, _right().label("right")
    ).where(Attempt.session_id == session_id)
    row = db.session.execute(_median_rows(source.subquery(), ["session_id"])).first()
    if row is None:
        return Figures()
    return Figures(row.answered, int(row.right or 0), _float(row.median_ms))


# --------------------------------------------------------------------------- readiness


class Readiness(StrEnum):
    """Where a trainee stands on the way to a live table."""

    CERTIFIED = "certified"
    REFRESHER = "refresher"
    EXAM_SCHEDULED = "exam-scheduled"
    EXAM_DUE = "exam-due"
    TRAINING = "training"
    NO_DATA = "no-data"
    NO_CRITERIA = "no-criteria"


# The overview sorts by readiness: ready to deal first.
READINESS_ORDER = tuple(Readiness)


@dataclass(frozen=True)
class CriterionCheck:
    """One criterion against a trainee's recent timed figures."""

    criterion: Criterion
    figures: Figures

    @property
    def enough(self) -> bool:
        """Tell whether the window is full."""
        return self.figures.answered >= self.criterion.window

    @property
    def met(self) -> bool:
        """Tell whether the window is full and its figures pass."""
        return self.enough and self.criterion.passes(self.figures)


@dataclass(frozen=True)
class Verdict:
    """A trainee's readiness, with the checks and exams it rests on."""

    status: Readiness
    checks: tuple[CriterionCheck, ...] = ()
    certified_kinds: frozenset[str] = field(default_factory=frozenset)
    open_exams: tuple[ExamRecord, ...] = ()

    @property
    def ready_to_deal(self) -> bool:
        """Tell whether the trainee may go onto a live table."""
        return self.status in (Readiness.CERTIFIED, Readiness.REFRESHER)


def readiness(
    windows: Mapping[str, Figures],
    criteria: Sequence[Criterion],
    exams: Sequence[ExamRecord],
    house_way: str,
    profile: str,
) -> Verdict:
    """Decide a trainee's readiness from figures, the group's criteria and exam records.

    Certified: for every criterion's drill, a passed exam taken under the group's
    current house way and table rules. Certified but now failing a criterion with
    a full window: refresher. Otherwise an open exam shows as scheduled; all
    criteria met means the exam is due; no timed answers at all is no data.
    """
    if not criteria:
        return Verdict(Readiness.NO_CRITERIA)
    checks = tuple(CriterionCheck(c, windows.get(c.kind, Figures())) for c in criteria)
    certified = frozenset(
        exam.kind for exam in exams
        if exam.passed and exam.house_way == house_way and exam.profile == profile
    )
    open_exams = tuple(exam for exam in exams if exam.open)
    kinds = {c.kind for c in criteria}
    if kinds <= certified:
        slipping = any(check.enough and not check.met for check in checks)
        status = Readiness.REFRESHER if slipping else Readiness.CERTIFIED
    elif open_exams:
        status = Readiness.EXAM_SCHEDULED
    elif all(check.met for check in checks):
        status = Readiness.EXAM_DUE
    elif not any(check.figures.answered for check in checks):
        status = Readiness.NO_DATA
    else:
        status = Readiness.TRAINING
    return Verdict(status, checks, certified, open_exams)


# --------------------------------------------------------------------------- pages


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


def _total(figures: Iterable[Figures]) -> Figures:
    answered = right = 0
    for f in figures:
        answered += f.answered
        right += f.right
    return Figures(answered, right)


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
    criteria = group_criteria(group.settings)
    counts = answer_counts(ids, since)
    per_kind = kind_figures(ids, since, counts)
    last = last_activity(ids)
    first = None if since is not None else first_activity(ids)
    buckets = _buckets(period, now, first)
    trend = accuracy_trends(ids, since, buckets, counts)
    exams = exam_records(ids)
    verdict = verdicts(ids, criteria, group.house_way, group.profile, exams)
    rows = [
        TraineeRow(
            id=m.id, name=m.name, login=m.login,
            kinds=per_kind.get(m.id, {}),
            total=_total(per_kind.get(m.id, {}).values()),
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
class Mistake:
    """One recent wrong or timed-out answer, with what is needed to show and replay it."""

    attempt_id: int
    kind: str
    rule_id: str | None
    answered_at: datetime
    elapsed_ms: int
    timed_out: bool
    question: dict[str, Any]
    answer: Any
    correct_answer: Any


@dataclass(frozen=True)
class SessionRow:
    """One drill session and its summary."""

    id: int
    kind: str
    mode: str
    length: int
    started_at: datetime
    finished_at: datetime | None
    house_way: str
    figures: Figures


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


def recent_mistakes(user_id: int, limit: int = MISTAKES) -> list[Mistake]:
    """Return a trainee's latest wrong or timed-out answers, newest first."""
    rows = db.session.execute(
        select(Attempt)
        .where(Attempt.user_id == user_id, or_(~Attempt.correct, Attempt.timed_out))
        .order_by(Attempt.answered_at.desc(), Attempt.id.desc())
        .limit(limit)
    ).scalars()
    return [
        Mistake(a.id, a.kind, a.rule_id, a.answered_at, a.elapsed_ms, a.timed_out,
                a.question, a.answer, a.correct_answer)
        for a in rows
    ]


def recent_sessions(user_id: int, limit: int = RECENT_SESSIONS) -> list[SessionRow]:
    """Return a trainee's latest sessions with their answers, score and median time."""
    sessions = db.session.execute(
        select(DrillSession)
        .where(DrillSession.user_id == user_id)
        .order_by(DrillSession.started_at.desc(), DrillSession.id.desc())
        .limit(limit)
    ).scalars().all()
    ids = [s.id for s in sessions]
    source = select(
        Attempt.session_id, Attempt.elapsed_ms, _right().label("right")
    ).where(Attempt.session_id.in_(ids))
    figures = {
        row.session_id: Figures(row.answered, int(row.right or 0), _float(row.median_ms))
        for row in db.session.execute(_median_rows(source.subquery(), ["session_id"])).all()
    } if ids else {}
    return [
        SessionRow(s.id, s.kind, s.mode, s.length, s.started_at, s.finished_at, s.house_way,
                   figures.get(s.id, Figures()))
        for s in sessions
    ]


def trainee_report(user_id: int, period: Period, now: datetime | None = None) -> TraineeReport:
    """Compute a trainee page's figures over ``period``."""
    now = now or utcnow()
    since = period.since(now)
    ids = [user_id]
    counts = answer_counts(ids, since)
    first = None if since is not None else first_activity(ids)
    buckets = _buckets(period, now, first)
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
    criteria = group_criteria(group.settings)
    exams = exam_records([user_id])
    return verdicts([user_id], criteria, group.house_way, group.profile, exams)[user_id]

