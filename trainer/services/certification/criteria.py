"""Certification criteria and readiness: what a trainee must show, judged from figures.

Pure: no database and no request. The criteria kept in a group's settings are read
and written by ``trainer.services.group_settings``; the figures they judge come from
``trainer.services.reports``. Readiness is a function of figures, criteria and
exam records (``readiness``), so it is tested without a database.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from trainer.engine.drills import DRILLS
from trainer.models.exam import ExamStatus
from trainer.services.reports.figures import Figures


def _declared_criteria() -> tuple[dict[str, Any], ...]:
    """Return the criterion each kind's home declares (``Drill.criterion``), in the kinds'
    order (``Drill.order``); a kind that declares none is not certified until a group sets
    a criterion for it."""
    return tuple(
        {"kind": drill.slug, **asdict(drill.criterion)}
        for drill in sorted(DRILLS.values(), key=lambda d: d.order)
        if drill.criterion is not None
    )


# The criteria a group has until its supervisor sets its own, in the JSON form kept.
DEFAULT_CRITERIA: tuple[dict[str, Any], ...] = _declared_criteria()


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
        """Tell whether this criterion counts a drill's scored parts (settled positions), not questions."""
        drill = DRILLS.get(self.kind)
        return drill is not None and drill.counts_parts

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


def default_criteria() -> list[Criterion]:
    """Return the criteria a group has until its supervisor sets its own."""
    return [Criterion.from_dict(c) for c in DEFAULT_CRITERIA]


def read_criteria(items: Iterable[Any]) -> list[Criterion]:
    """Read stored criteria, skipping any entry that makes no sense."""
    criteria = []
    for data in items:
        try:
            criteria.append(Criterion.from_dict(data))
        except (KeyError, TypeError, ValueError):
            continue
    return criteria


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
    # The table rules kept at scheduling (``CertificationExam.table_rules``); None: unknown.
    table_rules: Mapping[str, Any] | None = None

    @property
    def open(self) -> bool:
        """Tell whether the exam is still to be taken or under way."""
        return self.status != ExamStatus.FINISHED


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
