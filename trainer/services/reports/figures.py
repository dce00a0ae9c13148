"""The dashboards' figures as plain values, and the pure computations on them.

Periods and chart buckets, figures (answers, right answers, median time), adding
counted rows up per key, rule families, weakest first. No database: the queries
that produce the rows are in ``trainer.services.reports.sql`` (and its
``readiness_sql`` and ``history_sql``).
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from trainer.engine.house_way import rule_family

PERIODS: dict[str, int | None] = {"7d": 7, "30d": 30, "all": None}
DEFAULT_PERIOD = "30d"
# A chart has about this many points, whatever the period.
CHART_POINTS = 30


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


def buckets_for(period: Period, now: datetime, first_seen: datetime | None) -> Buckets:
    """Return the chart buckets of ``period`` up to ``now`` (all time: from ``first_seen``)."""
    since = period.since(now)
    first = (since or first_seen or now).date()
    return Buckets.for_span(first, now.date())


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


def add_up(items: Iterable[tuple[Any, int, int]]) -> dict[Any, tuple[int, int]]:
    """Add ``(key, answered, right)`` items up into (answered, right) per key."""
    totals: dict[Any, tuple[int, int]] = {}
    for key, answered, right in items:
        answered_so_far, right_so_far = totals.get(key, (0, 0))
        totals[key] = (answered_so_far + answered, right_so_far + right)
    return totals


def total(figures: Iterable[Figures]) -> Figures:
    """Add figures up (answers and right answers; no median)."""
    answered = right = 0
    for f in figures:
        answered += f.answered
        right += f.right
    return Figures(answered, right)


def median(values: Sequence[int]) -> float | None:
    """Return the median of ``values`` (the mean of the middle two for an even count), or None."""
    ordered = sorted(values)
    if not ordered:
        return None
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return float(ordered[middle])
    return (ordered[middle - 1] + ordered[middle]) / 2


def weakest_first(rules: Iterable[RuleFigures]) -> list[RuleFigures]:
    """Sort rules by accuracy, lowest first; among equals, the most missed first."""
    return sorted(rules, key=lambda r: (r.figures.accuracy or 0.0, -r.figures.wrong, r.rule))


def family_figures(rules: Iterable[RuleFigures]) -> list[RuleFigures]:
    """Add rule ids up into their families (``rule_family``), weakest first."""
    totals = add_up((rule_family(rule.rule), rule.figures.answered, rule.figures.right)
                     for rule in rules)
    return weakest_first(
        RuleFigures(family, Figures(answered, right)) for family, (answered, right) in totals.items()
    )
