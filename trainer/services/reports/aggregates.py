"""The SQL pieces the report queries share: a right answer, the median rows, the day number.

``median_rows`` is the median elapsed time with the counts, grouped: PostgreSQL's
``percentile_cont``, elsewhere the mean of the middle one or two rows by a window
function. ``day_number`` buckets a stored time by whole UTC days on either database.
Also which sessions count towards certification (``TIMED_MODES``, ``COUNTED_DEALT``).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Integer, and_, case, func, select
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql import ColumnElement
from sqlalchemy.sql.expression import FunctionElement

from trainer.extensions import db
from trainer.models import (
    Attempt,
)

# Sessions whose questions count towards certification: the clock was running, and
# the questions were dealt by the normal, balanced generator. "My mistakes" and other
# focused sessions are practice only, timed or not (issue 24; docs/dashboards.md).
TIMED_MODES = ("timed", "exam")
COUNTED_DEALT = "balanced"


class day_number(FunctionElement[int]):
    """Whole UTC days since 1970-01-01 of a stored time (a portable date bucket)."""

    type = Integer()
    inherit_cache = True


@compiles(day_number)
def _day_number_sqlite(element: Any, compiler: Any, **kw: Any) -> str:
    # SQLite stores the naive UTC text; julianday() reads it; values are positive,
    # so the cast's truncation is a floor.
    clauses = compiler.process(element.clauses, **kw)
    return f"CAST(julianday({clauses}) - 2440587.5 AS INTEGER)"


@compiles(day_number, "postgresql")
def _day_number_postgresql(element: Any, compiler: Any, **kw: Any) -> str:
    # Date arithmetic: the same day as floor(extract(epoch ...) / 86400), without
    # the numeric division per row that took half the trend query's time.
    clauses = compiler.process(element.clauses, **kw)
    return f"(CAST(({clauses} AT TIME ZONE 'UTC') AS DATE) - DATE '1970-01-01')"


def right_answer() -> ColumnElement[int]:
    """1 for a right answer (correct and in time), else 0."""
    return case((and_(Attempt.correct, ~Attempt.timed_out), 1), else_=0)


def median_rows(source: Any, keys: Sequence[str]) -> Any:
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


def as_float(value: Any) -> float | None:
    return None if value is None else float(value)
