"""A trainee's own progress, for their home page.

Per drill kind: every answer the trainee gave (``overall``, all time, practice
included: the same count the supervisor's overview shows for "All time"), and
accuracy and median time (the certification window's timed answers where the group
has a criterion for the kind, else every answer), set against the group's
certification criteria (``certification/criteria.py``), and what is left to
certify; the exams scheduled; and the rules the trainee missed most, each with the
house way it was missed under, so the page can name it in words. The answers of an
exam not yet ended are never counted here (they would tell which were wrong).
``recent_attempts``: a user's latest answers, for their results and the supervisor's
trainee page (which alone sees a running exam's).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import joinedload

from trainer.engine.drills import DRILLS
from trainer.extensions import db
from trainer.models import Attempt, Group
from trainer.services.certification.criteria import Criterion, CriterionCheck, Verdict
from trainer.services.certification.sealing import exam_in_progress, without_sealed
from trainer.services.reports.figures import Figures
from trainer.services.reports.pages import trainee_verdict
from trainer.services.reports.sql import kind_figures

# How many of the latest wrong answers "the rules I miss most" looks at, and how many it names.
MISSED_LOOKBACK = 200
MISSED_SHOWN = 5
# How many of a user's latest answers their results list shows.
RECENT_RESULTS = 20


@dataclass(frozen=True)
class DrillProgress:
    """One drill kind's figures against its criterion, and what is left to certify it."""

    kind: str
    figures: Figures
    criterion: Criterion | None = None
    check: CriterionCheck | None = None
    certified: bool = False
    exam_open: bool = False
    missed: int = 0
    # Every answer of the kind, all time, practice included (not only the window's).
    overall: Figures = field(default_factory=Figures)

    @property
    def answers_left(self) -> int:
        """Return how many more timed answers fill the criterion's window."""
        if self.criterion is None or self.check is None:
            return 0
        return max(0, self.criterion.window - self.check.figures.answered)

    @property
    def accuracy_short(self) -> bool:
        """Tell whether accuracy is below the criterion's."""
        accuracy = self.figures.accuracy
        return self.criterion is not None and (
            accuracy is None or accuracy * 100 < self.criterion.min_accuracy - 1e-9)

    @property
    def too_slow(self) -> bool:
        """Tell whether the median time is above the criterion's limit."""
        limit = self.criterion.max_median_s if self.criterion is not None else None
        if limit is None:
            return False
        return self.figures.median_ms is None or self.figures.median_ms > limit * 1000

    @property
    def met(self) -> bool:
        """Tell whether the criterion is met (window full, figures passing)."""
        return self.check is not None and self.check.met


@dataclass(frozen=True)
class MissedRule:
    """A rule the trainee missed, how often, in which drill and under which house way."""

    rule_id: str
    count: int
    kind: str
    house_way: str | None


@dataclass(frozen=True)
class Progress:
    """A trainee's own progress: readiness, per-drill figures, exams and rules missed."""

    verdict: Verdict
    drills: list[DrillProgress]
    missed: list[MissedRule]
    sealed: bool
    # "The rules I miss most" ranks the rules of this many latest wrong answers (any mode).
    lookback: int = MISSED_LOOKBACK

    @property
    def left_to_certify(self) -> list[DrillProgress]:
        """Return the drills with a criterion that are not certified yet."""
        return [d for d in self.drills if d.criterion is not None and not d.certified]


def missed_rules(user_id: int, limit: int = MISSED_SHOWN) -> list[MissedRule]:
    """Return the rules a trainee missed most among their latest wrong answers."""
    rows = db.session.execute(
        without_sealed(select(Attempt.rule_id, Attempt.kind, Attempt.question), user_id)
        .filter_by(user_id=user_id, correct=False)
        .filter(Attempt.rule_id.is_not(None))
        .order_by(Attempt.answered_at.desc(), Attempt.id.desc())
        .limit(MISSED_LOOKBACK)
    ).all()
    counts: Counter[tuple[str, str]] = Counter()
    house_ways: dict[tuple[str, str], str | None] = {}
    for rule_id, kind, question in rows:
        counts[(rule_id, kind)] += 1
        context = question.get("context") if isinstance(question, dict) else None
        house_way: Any = context.get("house_way") if isinstance(context, dict) else None
        house_ways.setdefault((rule_id, kind), house_way if isinstance(house_way, str) else None)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [MissedRule(rule, n, kind, house_ways[(rule, kind)])
            for (rule, kind), n in ranked[:limit]]


def trainee_progress(user_id: int, group: Group | None, kinds: list[str]) -> Progress:
    """Return a trainee's progress on ``kinds`` (the drill kinds, in the page's order)."""
    sealed = exam_in_progress(user_id)
    verdict = trainee_verdict(user_id, group)
    checks = {check.criterion.kind: check for check in verdict.checks}
    open_kinds = {exam.kind for exam in verdict.open_exams}
    missed = [] if sealed else missed_rules(user_id)
    misses = Counter[str]()
    for rule in missed:
        misses[rule.kind] += rule.count
    everything = {} if sealed else kind_figures([user_id], None).get(user_id, {})
    drills = []
    for kind in kinds:
        if kind not in DRILLS:
            continue
        check = checks.get(kind)
        figures = check.figures if check is not None else everything.get(kind, Figures())
        drills.append(DrillProgress(
            kind, Figures() if sealed else figures,
            check.criterion if check is not None else None, check,
            kind in verdict.certified_kinds, kind in open_kinds, misses[kind],
            Figures() if sealed else everything.get(kind, Figures())))
    return Progress(verdict, drills, missed, sealed)


def recent_attempts(
    user_id: int, limit: int = RECENT_RESULTS, *, include_sealed: bool = False
) -> list[Attempt]:
    """Return a user's latest attempts, newest first.

    Those of an exam not yet ended are left out unless ``include_sealed`` (the
    supervisor's pages): the trainee sees them when the exam ends.
    """
    # Each row names its session's kind of dealing ("My mistakes (practice)"): the
    # sessions come in the same statement, not one query per row.
    query = db.select(Attempt).options(joinedload(Attempt.session)).filter_by(user_id=user_id)
    if not include_sealed:
        query = without_sealed(query, user_id)
    return list(
        db.session.execute(
            query.order_by(Attempt.answered_at.desc(), Attempt.id.desc()).limit(limit)
        ).scalars()
    )
