"""Certification exams: schedule one, start it as a sealed drill session, keep its result.

No Flask request objects here: the supervisor pages schedule, the trainee's
exam pages start, and any page that shows exams first calls ``record_results``,
which judges every exam whose session has ended against the criteria copied
when it was scheduled. Until an exam ends, its answers are sealed from the
trainee (``sealed_session_ids``, ``without_sealed``) and the pages that set or
explain hands are closed to them (``exam_in_progress``; docs/operations.md). Those
checks live in ``sealing`` (below the drills, which need them) and are re-exported here.
"""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import select, update
from sqlalchemy.engine import CursorResult

from trainer.engine.drills import DrillContext
from trainer.engine.house_way import HouseWayError
from trainer.engine.messages import N_, EngineError
from trainer.engine.profiles import TableProfile
from trainer.extensions import db
from trainer.models import (
    Attempt,
    CertificationExam,
    DrillSession,
    ExamStatus,
    Group,
    Role,
    User,
    utcnow,
)
from trainer.services import audit, house_ways, profiles
from trainer.services import drills as drill_service
from trainer.services.certification.criteria import Criterion
from trainer.services.certification.sealing import (
    ABANDON_SLACK,
    attempt_sealed,
    exam_deadline,
    exam_in_progress,
    sealed_session_ids,
    without_sealed,
)
from trainer.services.group_settings import GroupSettings, foul_policy
from trainer.services.learning import memory as learning_memory
from trainer.services.reports.readiness_sql import session_figures

# The exam service, with the sealing checks of ``sealing`` re-exported (see above).
__all__ = [
    "ABANDON_SLACK",
    "ExamError",
    "attempt_sealed",
    "bring_up_to_date",
    "exam_deadline",
    "exam_in_progress",
    "exam_rules",
    "get_exam",
    "kept_rules",
    "open_exams",
    "record_results",
    "schedule_exam",
    "sealed_session_ids",
    "start_exam",
    "without_sealed",
]


class ExamError(EngineError):
    """An exam request refused, with a sentence the supervisor or trainee can read."""


def schedule_exam(group_id: int, trainee_id: int, kind: str, scheduled_by_id: int) -> int:
    """Schedule a certification exam in ``kind`` under the group's current settings.

    The exam keeps what it runs under from this moment: house way, table rules, foul
    policy, length, time limit and criteria. A later change to the group's settings
    does not change it (docs/operations.md, "Exams keep their settings"); the exam
    page and the trainee's home page both show the kept values (``exams/_terms.html``).
    """
    group = db.session.get(Group, group_id)
    trainee = db.session.get(User, trainee_id)
    if group is None or trainee is None or trainee.role != Role.TRAINEE or trainee.group is not group:
        raise ExamError(N_("That trainee is not in this group."))
    settings = GroupSettings.of(group)
    criteria = settings.certification_criteria
    criterion = next((c for c in criteria if c.kind == kind), None)
    if criterion is None:
        raise ExamError(N_("This group has no certification criterion for that drill."))
    if open_exams(trainee_id, kind):
        raise ExamError(N_("An exam in this drill is already scheduled for this trainee."))
    exam = CertificationExam(
        group_id=group.id,
        trainee_id=trainee.id,
        scheduled_by_id=scheduled_by_id,
        scheduled_at=utcnow(),
        kind=kind,
        length=criterion.exam_length,
        time_limit_ms=criterion.exam_time_limit_s * 1000,
        criteria=criterion.as_dict(),
        house_way=group.house_way,
        house_way_digest=house_ways.pin(group.house_way),
        profile=group.profile,
        # The rules themselves, not only their name: a manager's later edit of a custom
        # profile changes neither this exam nor its session (issue 24).
        table_rules=kept_rules(group.profile),
        foul_policy=None if settings.foul_policy is None else str(settings.foul_policy),
        status=ExamStatus.SCHEDULED,
    )
    db.session.add(exam)
    db.session.flush()
    audit.record(scheduled_by_id, "exam.schedule", "exam", exam.id, new={
        "trainee_id": trainee.id, "login": trainee.login, "group_id": group.id, "kind": kind,
        "length": exam.length, "time_limit_ms": exam.time_limit_ms,
        "house_way": exam.house_way, "profile": exam.profile, "criteria": exam.criteria,
        "foul_policy": exam.foul_policy, "table_rules": exam.table_rules,
    })
    db.session.commit()
    return exam.id


def kept_rules(profile: str) -> dict[str, Any]:
    """Return a profile's rules as an exam keeps them: its data now, ``TableProfile.as_dict()``."""
    try:
        return profiles.table_profile(profile).as_dict()
    except profiles.ProfileError as error:
        raise ExamError(N_("The group's table rules “%(name)s” are not known; choose the "
                           "group's table rules again first."), name=profile) from error


def exam_rules(exam: CertificationExam) -> TableProfile | None:
    """Return the table rules an exam runs under: those kept at scheduling.

    None when none were kept (the profile was unknown when the migration filled them):
    the session then reads the profile by its name, as exams before issue 24 did.
    """
    if not exam.table_rules:
        return None
    try:
        return TableProfile.from_dict(dict(exam.table_rules))
    except ValueError:
        return None


def exam_context(exam: CertificationExam, settings: GroupSettings) -> DrillContext:
    """Return the context an exam's session runs under: the rules kept at scheduling.

    Made by the drills' one builder (``drills.build``) from the trainee's group
    ``settings`` with the exam's house way (its rules digest at scheduling; None on exams scheduled
    before it was kept: pinned now), its table rules as kept (whatever the profile holds
    now) and its foul policy (None: the group's now).
    """
    return drill_service.build(
        settings, house_way=exam.house_way, house_way_digest=exam.house_way_digest,
        profile=exam.profile, table=exam_rules(exam),
        foul_policy=foul_policy(exam.foul_policy))


def open_exams(trainee_id: int, kind: str | None = None) -> list[CertificationExam]:
    """Return a trainee's exams not yet finished, oldest first."""
    query = select(CertificationExam).where(
        CertificationExam.trainee_id == trainee_id,
        CertificationExam.status != ExamStatus.FINISHED,
    )
    if kind is not None:
        query = query.where(CertificationExam.kind == kind)
    return list(db.session.execute(query.order_by(CertificationExam.id)).scalars())


def get_exam(exam_id: int, trainee_id: int) -> CertificationExam:
    """Return one of the trainee's exams; ExamError for anyone else's."""
    exam = db.session.get(CertificationExam, exam_id)
    if exam is None or exam.trainee_id != trainee_id:
        raise ExamError(N_("There is no such exam of yours."))
    return exam


def start_exam(exam_id: int, trainee_id: int) -> int:
    """Start a scheduled exam as a sealed drill session and return the session id.

    The status moves from scheduled to started in one conditional UPDATE, so a
    double submit cannot start two sessions: one attempt per scheduling.
    """
    exam = get_exam(exam_id, trainee_id)
    # An UPDATE gives a CursorResult, the Result that has a rowcount.
    claimed = cast("CursorResult[Any]", db.session.execute(
        update(CertificationExam)
        .where(CertificationExam.id == exam.id, CertificationExam.status == ExamStatus.SCHEDULED)
        .values(status=ExamStatus.STARTED, started_at=utcnow())
    )).rowcount
    db.session.commit()
    if claimed != 1:
        raise ExamError(N_("This exam has already been started; it can be taken once."))
    db.session.refresh(exam)
    settings = drill_service.settings_for(trainee_id)
    try:
        context = exam_context(exam, settings)
    except (house_ways.WayError, HouseWayError, ValueError) as error:
        raise drill_service.DrillError(str(error)) from None
    session_id = drill_service.start_session(
        trainee_id, exam.kind, "exam", settings, context=context, group_id=exam.group_id,
        length=exam.length, time_limit_s=max(1, exam.time_limit_ms // 1000),
    )
    exam.session_id = session_id
    db.session.commit()
    return session_id


def bring_up_to_date(user_ids: Sequence[int]) -> None:
    """Record what is due before a page reads these users' records.

    Timed questions shown and left past their limit become timed-out attempts first,
    so an exam abandoned on its last question is then judged with it counted.
    """
    drill_service.settle_overdue(user_ids=list(user_ids))
    record_results(user_ids)


def record_results(trainee_ids: Sequence[int]) -> int:
    """Judge the started exams of these trainees whose sessions have ended; return how many."""
    if not trainee_ids:
        return 0
    started = db.session.execute(
        select(CertificationExam).where(
            CertificationExam.trainee_id.in_(trainee_ids),
            CertificationExam.status == ExamStatus.STARTED,
        )
    ).scalars().all()
    now = utcnow()
    judged = 0
    for exam in started:
        session = db.session.get(DrillSession, exam.session_id) if exam.session_id else None
        deadline = exam_deadline(exam.started_at or now, exam.length, exam.time_limit_ms)
        if session is not None and session.finished_at is not None:
            _judge(exam, session.finished_at)
        elif now > deadline:
            _judge(exam, now)
        else:
            continue
        judged += 1
    if judged:
        db.session.commit()
    return judged


def _judge(exam: CertificationExam, finished_at: datetime) -> None:
    """Store the exam's figures and verdict; an exam not answered to the end fails."""
    criterion = Criterion.from_dict(exam.criteria)
    figures = session_figures(exam.session_id, criterion) if exam.session_id else None
    answered = db.session.execute(
        select(db.func.count()).select_from(Attempt).where(Attempt.session_id == exam.session_id)
    ).scalar_one() if exam.session_id else 0
    exam.status = ExamStatus.FINISHED
    exam.finished_at = finished_at
    if figures is not None:
        exam.counted = figures.answered
        exam.right = figures.right
        exam.median_ms = None if figures.median_ms is None else round(figures.median_ms)
    exam.passed = bool(figures and answered >= exam.length and criterion.passes(figures))
    # Its answers are seen now: the trainee's memories review them (issue 30).
    learning_memory.exam_ended(exam.trainee_id, exam.kind)
