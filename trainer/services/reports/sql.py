"""The dashboards' queries over a period: answers, figures, trends and rules per trainee.

The report queries are four modules, by job: this one (a period's counts, figures per
kind and per rule, trends and sparklines, activity, a way's rules), ``readiness_sql``
(the criteria's windows of recent counted answers, a session's figures, exam records),
``history_sql`` (a trainee's recent mistakes and sessions) and ``aggregates`` (the SQL
pieces they share: a right answer, the median rows, the day number).

Every figure is computed in SQL (GROUP BY and window functions that run on both
SQLite and PostgreSQL); Python only loops over aggregated rows, never over a
trainee's attempts. Two exceptions, both bounded: settlement positions are
counted from the JSON of the last ``window`` settlement attempts of each trainee
(at most ``window`` rows each, ``readiness_sql``), and a trainee's recent mistakes
are read whole (at most ``history_sql.MISTAKES`` rows).

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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time
from functools import cached_property
from typing import Any

from sqlalchemy import bindparam, case, func, literal_column, or_, select, text

from trainer.extensions import db
from trainer.models import (
    Attempt,
    DrillSession,
    IssuedQuestion,
    User,
)
from trainer.services.reports.aggregates import as_float, day_number, median_rows, right_answer
from trainer.services.reports.figures import (
    Buckets,
    Figures,
    Point,
    RuleFigures,
    add_up,
    weakest_first,
)

# The SQLite-only paths work per (trainee, drill) pair, this many pairs to a
# statement: under SQLite's 500 UNION ALL arms and, with a chart's bucket bounds,
# under the 999 bound parameters of older SQLite builds.
PAIRS_PER_STATEMENT = 100


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
        return add_up(((row.user_id, row.kind), row.answered, int(row.right or 0))
                       for row in self.rows)


def answer_counts(user_ids: Sequence[int], since: datetime | None) -> AnswerCounts:
    """Count each user's answers and right answers per kind and rule id over the period."""
    top = db.session.execute(select(func.max(Attempt.id))).scalar()
    if top is None:
        return AnswerCounts(None, [])
    # Grouped in the order of the covering (user_id, kind, rule_id, answered_at,
    # correct, timed_out) index, so it is read in order, without a sort.
    query = (
        select(Attempt.user_id, Attempt.kind, Attempt.rule_id,
               func.count().label("answered"), func.sum(right_answer()).label("right"))
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
            Attempt.user_id, Attempt.kind, Attempt.elapsed_ms, right_answer().label("right")
        ).where(Attempt.user_id.in_(user_ids))
        if since is not None:
            source = source.where(Attempt.answered_at >= since)
        rows = db.session.execute(median_rows(source.subquery(), ["user_id", "kind"])).all()
        totals = {(row.user_id, row.kind): (row.answered, int(row.right or 0)) for row in rows}
        medians = {(row.user_id, row.kind): row.median_ms for row in rows}
    else:
        counts = counts if counts is not None else answer_counts(user_ids, since)
        totals = counts.per_kind
        medians = _middle_elapsed(totals, since, counts.top)
    result: dict[int, dict[str, Figures]] = {}
    for (user_id, kind), (answered, right) in sorted(totals.items()):
        result.setdefault(user_id, {})[kind] = Figures(
            answered, right, as_float(medians.get((user_id, kind)))
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
    return dict(db.session.execute(query).all())


def trends(
    user_ids: Sequence[int], since: datetime | None, buckets: Buckets, by_kind: bool = False,
    with_median: bool = True,
) -> dict[tuple[int, str | None], list[Point]]:
    """Return each user's (and with ``by_kind`` each kind's) figures per bucket, oldest first.

    Without ``with_median`` (a sparkline needs accuracy only) it is a plain GROUP BY.
    """
    day = day_number(Attempt.answered_at)
    bucket = ((day - buckets.first_day) // buckets.size).label("bucket")
    columns = [Attempt.user_id, Attempt.kind] if by_kind else [Attempt.user_id]
    source = select(*columns, bucket, Attempt.elapsed_ms, right_answer().label("right")).where(
        Attempt.user_id.in_(user_ids), day >= buckets.first_day
    )
    if since is not None:
        source = source.where(Attempt.answered_at >= since)
    keys = ["user_id", "kind", "bucket"] if by_kind else ["user_id", "bucket"]
    if with_median:
        query = median_rows(source.subquery(), keys)
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
                  Figures(row.answered, int(row.right or 0), as_float(row.median_ms)))
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
        lo = datetime.combine(buckets.start(index), time.min, UTC)
        if index == 0 and since is not None:
            lo = max(lo, since)
        hi = datetime.combine(buckets.start(index + 1), time.min, UTC)
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
    for (user_id, bucket), (answered, right) in sorted(add_up(cells_counted).items()):
        point = Point(buckets.start(bucket), Figures(answered, right))
        result.setdefault(user_id, []).append(point)
    return result


def rule_figures(
    user_ids: Sequence[int], since: datetime | None, counts: AnswerCounts | None = None,
    kind: str | None = None,
) -> list[RuleFigures]:
    """Return figures per rule id over the period, weakest first; with ``kind``, of that
    drill's answers only (the overview's drill filter).

    ``counts``, if given, must be ``answer_counts(user_ids, since)``.
    """
    counts = counts if counts is not None else answer_counts(user_ids, since)
    totals = add_up((row.rule_id, row.answered, int(row.right or 0))
                     for row in counts.rows
                     if row.rule_id is not None and (kind is None or row.kind == kind))
    return weakest_first(
        RuleFigures(rule, Figures(answered, right)) for rule, (answered, right) in totals.items()
    )


# A round's banker step records the house-way family as its rule id ("round.banker.<family>",
# engine/drills/kinds/round/kind.py ``rule_of``) and the way's deciding rule in its answer key
# (``HouseWaySetting.as_dict``: "rule"); every other answer on a house-way rule records the
# way's rule id itself (a ``.fallback`` id when the rule's own split would foul).
BANKER_STEP_RULES = "round.banker.%"


@dataclass(frozen=True)
class WayRuleCount:
    """One user's answers on one rule of a house way, in one drill kind.

    ``same_way`` is False for answers on a rule id of the way given in a session of
    another house way or version (shown as a note, never in the figures).
    """

    rule_id: str
    user_id: int
    kind: str
    same_way: bool
    answered: int
    right: int


def way_rule_counts(
    user_ids: Sequence[int], since: datetime | None, house_way: str, rule_ids: Sequence[str],
) -> list[WayRuleCount]:
    """Count each user's answers on each rule of a house way over the period, in one statement.

    Grouped by rule, user and drill kind (and whether the session trained on
    ``house_way``, the ref of the way's preset or published version): the answers
    whose rule id is one of ``rule_ids`` (or its ``.fallback``), and the rounds'
    banker steps by the rule their key names. A ``.fallback`` id is counted as its rule.
    """
    if not user_ids or not rule_ids:
        return []
    ids = [*rule_ids, *(f"{rule}.fallback" for rule in rule_ids)]
    banker = Attempt.rule_id.like(BANKER_STEP_RULES)
    rule = case((banker, Attempt.correct_answer["rule"].as_string()),
                else_=Attempt.rule_id).label("rule")
    same_way = case((DrillSession.house_way == house_way, 1), else_=0).label("same_way")
    source = (
        select(rule, Attempt.user_id, Attempt.kind, same_way, right_answer().label("right"))
        .join(DrillSession, DrillSession.id == Attempt.session_id)
        .where(Attempt.user_id.in_(list(user_ids)), or_(Attempt.rule_id.in_(ids), banker))
    )
    if since is not None:
        source = source.where(Attempt.answered_at >= since)
    # Grouped outside: PostgreSQL would not match a GROUP BY on the computed columns,
    # whose bound values are parameters of their own, with the same expressions selected.
    rows = source.subquery()
    keys = (rows.c.rule, rows.c.user_id, rows.c.kind, rows.c.same_way)
    query = select(*keys, func.count().label("answered"),
                   func.sum(rows.c.right).label("right")).group_by(*keys)
    known = set(rule_ids)
    counted: dict[tuple[str, int, str, bool], tuple[int, int]] = {}
    for row in db.session.execute(query):
        rule_id = str(row.rule or "").removesuffix(".fallback")
        if rule_id not in known:
            continue  # a banker step decided by a rule of another way
        key = (rule_id, row.user_id, row.kind, bool(row.same_way))
        answered, right = counted.get(key, (0, 0))
        counted[key] = (answered + row.answered, right + int(row.right or 0))
    return [WayRuleCount(rule_id, user_id, kind, same, answered, right)
            for (rule_id, user_id, kind, same), (answered, right) in sorted(counted.items())]
