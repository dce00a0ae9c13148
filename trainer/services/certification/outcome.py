"""An exam's outcome as the trainee and the supervisor read it: verdict, criterion, figures, next step.

``exams._judge`` stores a finished exam's verdict and figures; this module reads them back
with what the pages need to close the loop (issue 27): which part of the criterion was
met (accuracy, median time, every question answered), and the rules the trainee missed
most in that exam, the next thing to practise. No Flask: the words are the web's
(``templates/exams/_outcome.html``; docs/dashboards.md, "Exam verdicts").
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import func, select

from trainer.extensions import db
from trainer.models import Attempt, CertificationExam, ExamStatus
from trainer.services.certification.criteria import Criterion
from trainer.services.reports.figures import Figures

# The rules an outcome names as the next thing to practise, most missed first.
WEAKEST_RULES = 3


@dataclass(frozen=True)
class RuleMissed:
    """A rule the trainee missed in the exam, and how many times."""

    rule: str
    missed: int


@dataclass(frozen=True)
class ExamOutcome:
    """A finished exam: passed or not, the criterion it was judged on and the trainee's figures."""

    exam_id: int
    kind: str
    passed: bool
    criterion: Criterion
    # The counted questions (settlement: positions), right ones and median time, as judged.
    figures: Figures
    # Questions asked and questions answered (an exam not answered to the end fails).
    length: int
    answered: int
    house_way: str
    weakest: tuple[RuleMissed, ...] = ()

    @property
    def accuracy_met(self) -> bool:
        """Tell whether the accuracy reached the criterion's minimum."""
        accuracy = self.figures.accuracy
        return accuracy is not None and accuracy * 100 >= self.criterion.min_accuracy - 1e-9

    @property
    def time_met(self) -> bool | None:
        """Tell whether the median time was within the criterion's limit; None: no limit."""
        if self.criterion.max_median_s is None:
            return None
        median = self.figures.median_ms
        return median is not None and median <= self.criterion.max_median_s * 1000

    @property
    def finished_all(self) -> bool:
        """Tell whether every question of the exam was answered (timed out counts as answered)."""
        return self.answered >= self.length


def outcomes(exam_ids: Iterable[int]) -> dict[int, ExamOutcome]:
    """Return the outcome of each finished exam among ``exam_ids`` (others are left out).

    Two queries whatever the number of exams: the exams, then their sessions' answers
    and misses per rule.
    """
    ids = sorted(set(exam_ids))
    if not ids:
        return {}
    exams = db.session.execute(select(CertificationExam).where(
        CertificationExam.id.in_(ids), CertificationExam.status == ExamStatus.FINISHED)
    ).scalars().all()
    sessions = [e.session_id for e in exams if e.session_id is not None]
    answered: dict[int, int] = {}
    missed: dict[int, list[RuleMissed]] = {}
    if sessions:
        rows = db.session.execute(
            select(Attempt.session_id, Attempt.rule_id, Attempt.correct, func.count())
            .where(Attempt.session_id.in_(sessions))
            .group_by(Attempt.session_id, Attempt.rule_id, Attempt.correct)
        ).all()
        for session_id, rule_id, correct, count in rows:
            answered[session_id] = answered.get(session_id, 0) + int(count)
            if not correct and rule_id:
                missed.setdefault(session_id, []).append(RuleMissed(str(rule_id), int(count)))
    result = {}
    for exam in exams:
        rules = sorted(missed.get(exam.session_id or 0, []), key=lambda r: (-r.missed, r.rule))
        result[exam.id] = ExamOutcome(
            exam_id=exam.id, kind=exam.kind, passed=bool(exam.passed),
            criterion=Criterion.from_dict(exam.criteria),
            figures=Figures(exam.counted or 0, exam.right or 0,
                            None if exam.median_ms is None else float(exam.median_ms)),
            length=exam.length, answered=answered.get(exam.session_id or 0, 0),
            house_way=exam.house_way, weakest=tuple(rules[:WEAKEST_RULES]),
        )
    return result


def session_outcome(session_id: int) -> ExamOutcome | None:
    """Return the outcome of the exam played in this drill session, once it is judged."""
    exam_id = db.session.execute(select(CertificationExam.id).where(
        CertificationExam.session_id == session_id)).scalar_one_or_none()
    return None if exam_id is None else outcomes([exam_id]).get(exam_id)
