"""The demo class ``trainer seed-demo`` adds to an empty database (issue 27).

A fresh install showed empty dashboards: a supervisor's pages say something only
after a few hundred answers. Into an empty database (no accounts, groups, sessions or
custom house ways before the command ran) ``seed_class`` adds four weeks of a real
class to the demo group, every question dealt and graded by the engine:

- the questions are dealt from seeds by the drill (``drills.deal_question``: a round's
  steps share a seed), under the context the drills service builds for a new session
  (``drills.build``: house way pinned to its rules digest, table rules, foul policy; an
  exam's from the rules kept at scheduling, ``exams.exam_context``);
- each answer is sent as a browser sends one: the drill's own answer key, or a wrong
  answer of the shape the drill takes, as JSON, read by the drill (``read_answer``:
  its answer schema) and graded as ``answer_question`` grades (``drills.grade_answer``;
  a timed-out question: no answer, wrong);
- the rows are the service's rows (``drills.store``: ``IssuedQuestion`` and ``Attempt``
  with the seed, the question and its context), so ``drills.regrade`` re-grades every one to its
  stored grade and the replay page deals it again;
- exams are scheduled with ``exams.schedule_exam``, taken as sealed exam sessions
  under the rules kept at scheduling, and judged by ``exams.record_results``.

Only the times are chosen here: sessions start between 08:00 and 16:00 UTC on weekdays
of the 28 days before today, one at a time per trainee, exams at 07:00 UTC; answer
times are drawn around each trainee's pace (never past a timed question's limit,
except the few questions left to time out). The random generator has a fixed seed, so
every demo deals the same questions.

The class (docs/operations.md, "The demo class"): demo-trainee1 is certified in both
criteria (ready to deal); demo-trainee2 misses the house way's two-pair and trips rules
and failed a house-way exam; demo-trainee3 trains steadily and has a house-way exam
scheduled. demo-manager copied Trump Plaza as "Riverside Casino (demo)" and published
two versions; both drafts' checks are queued as house-way check jobs and run to
completion here by worker processes (``job_worker.Worker``) before either is published.
"""
from __future__ import annotations

import copy
import math
import multiprocessing
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, insert, select

from trainer.engine.drills import Drill, DrillContext, get_drill
from trainer.engine.drills.kinds.action import SLUG as ACTION
from trainer.engine.drills.kinds.house_way import SLUG as HOUSE_WAY
from trainer.engine.drills.kinds.settlement import SLUG as SETTLEMENT
from trainer.engine.drills.schema import Each, Fields, ListOf, Maybe, Schema
from trainer.engine.house_way import DEFAULT_HOUSE_WAY, editing
from trainer.extensions import db
from trainer.models import (
    Attempt,
    CertificationExam,
    CustomHouseWay,
    DrillSession,
    ExamStatus,
    Group,
    IssuedQuestion,
    User,
    utcnow,
)
from trainer.services import house_way_jobs, house_ways, jobs
from trainer.services.certification import exams
from trainer.services.drills import (
    build,
    deal_question,
    grade_answer,
    group_of,
    session_length,
    settings_for,
    store,
)
from trainer.services.group_settings import GroupSettings
from trainer.services.job_worker import Worker
from trainer.services.timing import GRACE_MS

# The demo's custom house way: a copy of Trump Plaza by the demo manager.
WAY_SLUG = "riverside"
WAY_CASINO = "Riverside Casino (demo)"
WAY_BASE = DEFAULT_HOUSE_WAY  # the preset the demo copies (Trump Plaza)
# The fixed seed of the demo: the same class every time (its question seeds come from it).
DEMO_SEED = 2027
DAYS = 28
TWO_PAIR_AND_TRIPS = ("two-pair.", "trips.", "trips-two-pair.", "two-trips.")

Skill = Callable[[str | None], float]


class DemoError(RuntimeError):
    """The demo could not be seeded (a check job failed); nothing of the class is kept."""


def database_is_empty() -> bool:
    """Tell whether the database holds no account, group, session, exam or custom house way."""
    for model in (User, Group, DrillSession, CertificationExam, CustomHouseWay):
        if db.session.execute(select(func.count()).select_from(model)).scalar_one():
            return False
    return True


# --- answers ------------------------------------------------------------------------


def _shaped(schema: Schema, value: Any) -> Any:
    """Return ``value`` (an answer key's JSON) with only what ``schema`` takes: the key in the
    answer's own shape (the key's seat numbers and reasons dropped, its answer kept)."""
    if isinstance(schema, Maybe):
        return None if value is None else _shaped(schema.inner, value)
    if isinstance(schema, Fields) and isinstance(value, dict):
        takes = {**schema.required, **schema.optional}
        return {name: _shaped(takes[name], v) for name, v in value.items() if name in takes}
    if isinstance(schema, ListOf) and isinstance(value, list):
        return [_shaped(schema.item, v) for v in value]
    if isinstance(schema, Each) and isinstance(value, list):
        return [_shaped(item, v) for item, v in zip(schema.items, value, strict=False)]
    return value


def _right_answer(drill: Drill, question: Any, key: dict[str, Any],
                  context: DrillContext) -> dict[str, Any]:
    """The answer a dealer who knows the rule gives, as the browser sends it: the key, in
    the shape the drill's answer schema takes."""
    answer: dict[str, Any] = _shaped(drill.answer_schema(question, context), key)
    return answer


def _wrong_answer(drill: Drill, question: Any, context: DrillContext,
                  rng: random.Random) -> dict[str, Any]:
    """A mistake dealers make, as the drill's home draws one (``wrong_answer``: another
    front, a winner overpaid or another result marked, the wrong seat), as sent."""
    return drill.answer_json(drill.wrong_answer(question, context, rng))


# --- sessions -------------------------------------------------------------------------


@dataclass(frozen=True)
class Pace:
    """How a trainee answers one drill at some point: the chance of being right (by rule),
    the median answer time, and the share of timed questions left to run out."""

    skill: Skill
    median_s: float
    timeouts: float = 0.0


def flat(p: float) -> Skill:
    """The same chance of being right whatever the rule."""
    return lambda _rule: p


def weak_on(prefixes: Sequence[str], weak: float, otherwise: float) -> Skill:
    """A lower chance of being right on the rules whose ids start with ``prefixes``."""
    return lambda rule: weak if rule and rule.startswith(tuple(prefixes)) else otherwise


@dataclass
class Seeder:
    """Deals and answers the demo's sessions; keeps the random generator and the clock."""

    rng: random.Random
    sessions: int = 0
    attempts: int = 0

    def _elapsed_ms(self, pace: Pace, limit_ms: int | None) -> int:
        ms = int(pace.median_s * 1000 * math.exp(self.rng.gauss(0.0, 0.35)))
        ms = max(1200, ms)
        if limit_ms is not None:
            ms = min(ms, limit_ms - self.rng.randrange(100, 900))
        return ms

    def session(self, user_id: int, kind: str, mode: str, start: datetime, pace: Pace,
                settings: GroupSettings, *, group_id: int | None,
                context: DrillContext | None = None, length: int | None = None,
                time_limit_ms: int | None = None) -> DrillSession:
        """Deal, answer and store one finished session of ``kind`` starting at ``start``.

        Under ``context`` (an exam's), else the one the drills service builds from the
        group's ``settings`` for a new session (``drills.build``).
        """
        drill = get_drill(kind)
        length = session_length(kind, length if length is not None else settings.length(kind))
        limit_ms = None if mode == "practice" else (
            time_limit_ms if time_limit_ms is not None else settings.time_limit_s(kind) * 1000)
        ctx = context if context is not None else build(settings)
        context_json = ctx.as_dict()
        record = DrillSession(
            user_id=user_id, group_id=group_id, kind=kind, mode=mode, dealt="balanced",
            length=length, time_limit_ms=limit_ms, house_way=ctx.house_way,
            house_way_digest=ctx.house_way_digest, profile=ctx.profile, started_at=start)
        db.session.add(record)
        db.session.flush()
        issued_rows: list[dict[str, Any]] = []
        attempt_rows: list[dict[str, Any]] = []
        clock = start + timedelta(seconds=self.rng.randrange(3, 15))
        seed = 0
        for position in range(1, length + 1):
            if (position - 1) % drill.unit_length() == 0:
                seed = self.rng.getrandbits(63)
            question = deal_question(kind, seed, ctx, position)
            question_json = drill.question_json(question)
            rule_id = drill.rule_of(question, ctx)
            # The dealer's browser: the question as shown, an answer sent as JSON.
            key = drill.key_json(drill.answer_key(question, ctx).correct_answer)
            timed_out = limit_ms is not None and self.rng.random() < pace.timeouts
            answer: Any = None
            if timed_out:
                elapsed = limit_ms + GRACE_MS + self.rng.randrange(500, 20_000) \
                    if limit_ms is not None else 0
            else:
                sent = _right_answer(drill, question, key, ctx) \
                    if self.rng.random() < pace.skill(rule_id) \
                    else _wrong_answer(drill, question, ctx, self.rng)
                answer = drill.read_answer(question, sent, ctx)
                elapsed = self._elapsed_ms(pace, limit_ms)
            # Graded as answer_question grades it (a question left to time out: wrong).
            grade = grade_answer(kind, question, answer, ctx, timed_out)
            answered = clock + timedelta(milliseconds=elapsed)
            issued_rows.append(store.issued_values(record.id, position, seed, question_json,
                                                   context_json, rule_id, clock))
            attempt_rows.append(store.attempt_values(
                session_id=record.id, position=position, user_id=user_id, kind=kind,
                seed=seed, question=question_json, context=context_json,
                answer=None if answer is None else drill.answer_json(answer),
                correct_answer=drill.key_json(grade.correct_answer), correct=grade.correct,
                timed_out=timed_out, rule_id=grade.rule_id, issued_at=clock,
                answered_at=answered, elapsed_ms=elapsed))
            # The feedback read, "Next" pressed: a second or a few before the next question.
            clock = answered + timedelta(milliseconds=self.rng.randrange(800, 4000 if mode != "exam"
                                                                         else 1500))
        db.session.execute(insert(IssuedQuestion), issued_rows)
        db.session.execute(insert(Attempt), attempt_rows)
        record.finished_at = attempt_rows[-1]["answered_at"]
        self.sessions += 1
        self.attempts += len(attempt_rows)
        return record


# --- the class --------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """One trainee's four weeks: per week, (drill, mode, sessions, pace)."""

    weeks: tuple[tuple[tuple[str, str, int, Pace], ...], ...]


def _plans() -> dict[str, Plan]:
    hw, st, act = HOUSE_WAY, SETTLEMENT, ACTION
    struggling = TWO_PAIR_AND_TRIPS
    return {
        # Certified: sure and quick by the third week.
        "ready": Plan((
            ((hw, "practice", 3, Pace(flat(0.84), 11)), (st, "practice", 2, Pace(flat(0.88), 16)),
             (act, "practice", 1, Pace(flat(0.9), 5))),
            ((hw, "timed", 3, Pace(flat(0.93), 8, 0.01)), (st, "timed", 2, Pace(flat(0.95), 14))),
            ((hw, "timed", 3, Pace(flat(0.995), 5.5)), (st, "timed", 3, Pace(flat(1.0), 11))),
            ((hw, "timed", 3, Pace(flat(1.0), 4.8)), (st, "timed", 2, Pace(flat(1.0), 10)),
             (act, "timed", 1, Pace(flat(1.0), 3))),
        )),
        # Misses the two-pair and trips rules of the way, week after week.
        "struggling": Plan((
            ((hw, "practice", 3, Pace(weak_on(struggling, 0.45, 0.85), 13)),
             (st, "practice", 1, Pace(flat(0.85), 18))),
            ((hw, "timed", 3, Pace(weak_on(struggling, 0.5, 0.92), 9.5, 0.03)),
             (st, "timed", 1, Pace(flat(0.9), 17))),
            ((hw, "timed", 3, Pace(weak_on(struggling, 0.55, 0.95), 8.5, 0.02)),
             (st, "timed", 2, Pace(flat(0.93), 15))),
            ((hw, "practice", 2, Pace(weak_on(struggling, 0.6, 0.96), 9)),
             (hw, "timed", 2, Pace(weak_on(struggling, 0.6, 0.96), 8, 0.02)),
             (st, "timed", 1, Pace(flat(0.94), 15))),
        )),
        # Steady: nearly there, an exam scheduled.
        "steady": Plan((
            ((hw, "practice", 2, Pace(flat(0.86), 12)), (st, "practice", 2, Pace(flat(0.9), 16))),
            ((hw, "timed", 2, Pace(flat(0.92), 9, 0.01)), (st, "timed", 2, Pace(flat(0.95), 14))),
            ((hw, "timed", 3, Pace(flat(0.96), 7.5)), (st, "timed", 2, Pace(flat(0.97), 13))),
            ((hw, "timed", 3, Pace(flat(0.98), 6.5)), (st, "timed", 2, Pace(flat(0.99), 12))),
        )),
    }


def _training_days(first: datetime, week: int, count: int, rng: random.Random) -> list[datetime]:
    """``count`` session starts on weekdays of ``week`` (0-3), 08:00-16:00 UTC, in order."""
    days = [first + timedelta(days=7 * week + d) for d in range(7)]
    weekdays = [d for d in days if d.weekday() < 5]
    chosen = sorted(rng.sample(weekdays, count)) if count <= len(weekdays) \
        else [weekdays[i % len(weekdays)] for i in range(count)]
    starts = [day.replace(hour=rng.randrange(8, 16), minute=rng.randrange(0, 60),
                          second=rng.randrange(0, 60)) for day in chosen]
    return sorted(starts)


def _take_exam(seeder: Seeder, group: Group, trainee: User, supervisor: User, kind: str,
               scheduled: datetime, taken: datetime | None, pace: Pace) -> None:
    """Schedule an exam (the service), then take it as a sealed session at ``taken``."""
    exam_id = exams.schedule_exam(group.id, trainee.id, kind, supervisor.id)
    exam = db.session.get(CertificationExam, exam_id)
    assert exam is not None
    exam.scheduled_at = scheduled
    if taken is not None:
        # Under the rules kept at scheduling, as ``exams.start_exam`` starts its session.
        settings = settings_for(trainee.id)
        session = seeder.session(trainee.id, kind, "exam", taken, pace, settings,
                                 group_id=exam.group_id,
                                 context=exams.exam_context(exam, settings),
                                 length=exam.length, time_limit_ms=exam.time_limit_ms)
        exam.status, exam.started_at, exam.session_id = ExamStatus.STARTED, taken, session.id
    db.session.commit()


def seed_class(group: Group, supervisor: User, trainees: Sequence[User],
               now: datetime | None = None) -> tuple[int, int, int]:
    """Add the demo class's sessions, answers and exams to ``group``; return the counts
    (sessions, attempts, exams). ``trainees``: the ready, the struggling and the steady one."""
    rng = random.Random(DEMO_SEED)
    seeder = Seeder(rng)
    now = now or utcnow()
    first = (now - timedelta(days=DAYS)).replace(hour=0, minute=0, second=0, microsecond=0)
    plans = _plans()
    ready, struggling, steady = trainees
    for trainee, plan in ((ready, plans["ready"]), (struggling, plans["struggling"]),
                          (steady, plans["steady"])):
        settings, group_id = group_of(trainee.id)
        planned = sorted(
            (start, kind, mode, pace)
            for week, items in enumerate(plan.weeks)
            for kind, mode, count, pace in items
            for start in _training_days(first, week, count, rng))
        busy_until = first
        for start, kind, mode, pace in planned:
            # One session at a time: a later one that day starts after a short break.
            start = max(start, busy_until + timedelta(minutes=rng.randrange(5, 40)))
            if start < now - timedelta(hours=2):
                finished = seeder.session(trainee.id, kind, mode, start, pace, settings,
                                          group_id=group_id).finished_at
                busy_until = finished or start
    db.session.commit()
    # The exams, at the times a supervisor would have scheduled them: taken at 07:00 UTC,
    # before the day's training (which starts at 08:00).
    day, seven = timedelta(days=1), timedelta(hours=7)
    _take_exam(seeder, group, ready, supervisor, HOUSE_WAY, first + 17 * day + 2 * seven,
               first + 18 * day + seven, Pace(flat(1.0), 4.5))
    _take_exam(seeder, group, ready, supervisor, SETTLEMENT, first + 17 * day + 2 * seven,
               first + 18 * day + seven + timedelta(minutes=20), Pace(flat(1.0), 9))
    _take_exam(seeder, group, struggling, supervisor, HOUSE_WAY,
               first + 19 * day + 2 * seven, first + 20 * day + seven,
               Pace(weak_on(TWO_PAIR_AND_TRIPS, 0.55, 0.97), 7.5))
    _take_exam(seeder, group, steady, supervisor, HOUSE_WAY, now - day, None, Pace(flat(1.0), 5))
    exams.record_results([ready.id, struggling.id, steady.id])
    db.session.commit()
    return seeder.sessions, seeder.attempts, 4


# --- the custom house way ----------------------------------------------------------------


def _rule_index(data: dict[str, Any], rule_id: str) -> tuple[int, int]:
    for s, section in enumerate(data["sections"]):
        for r, rule in enumerate(section.get("rules") or []):
            if rule.get("id") == rule_id:
                return s, r
    raise DemoError(f"The demo's base way has no rule {rule_id!r}.")


def _version_1(data: dict[str, Any]) -> dict[str, Any]:
    """Riverside splits two pair Low + High or Medium + Medium with an ace (Trump Plaza
    keeps them together, rule 3.3)."""
    s, r = _rule_index(data, "two-pair.together.ace")
    old = data["sections"][s]["rules"][r]
    rule = {"number": old.get("number", "3.3"), "id": "two-pair.split.ace",
            "short": "Two pair, Low + High or Medium + Medium, ace: split",
            "text": "Low + High, or Medium + Medium, with an ace singleton: split.",
            "when": copy.deepcopy(old["when"]),
            "explain": "Two pair, {high_pair} and {low_pair}, with an ace: split, "
                       "{low_pair} in front",
            # The manager's own words in the sheet's other languages (as the preset's
            # rules 3.3 and 3.4 say them).
            "translations": {
                "pt": {"short": "Dois pares, Baixo + Alto ou Médio + Médio, com ás: separar",
                       "text": "Baixo + Alto, ou Médio + Médio, com um ás avulso: separar.",
                       "explain": "Dois pares, {high_pair} e {low_pair}, com um ás: separar, "
                                  "{low_pair} na mão baixa"},
                "es": {"short": "Doble pareja, Baja + Alta o Media + Media, con as: separar",
                       "text": "Baja + Alta, o Media + Media, con un as suelto: separar.",
                       "explain": "Doble pareja, {high_pair} y {low_pair}, con un as: separar, "
                                  "{low_pair} en la mano baja"},
                "it": {"short": "Doppia coppia, Bassa + Alta o Media + Media, con asso: dividere",
                       "text": "Bassa + Alta, o Media + Media, con un asso spaiato: dividere.",
                       "explain": "Doppia coppia, {high_pair} e {low_pair}, con un asso: "
                                  "dividere, {low_pair} nella mano bassa"},
                "ru": {"short": "Две пары, Низкая + Высокая или Средняя + Средняя, с тузом: "
                                "разделить",
                       "text": "Низкая + Высокая или Средняя + Средняя с одиночным тузом: "
                               "разделить.",
                       "explain": "Две пары, {high_pair} и {low_pair}, с тузом: разделить, "
                                  "{low_pair} в младшую руку"},
            }}
    changed = editing.replace_rule(data, s, r, rule)
    changed["examples"] = [e for e in changed.get("examples") or []
                           if not (isinstance(e, dict) and e.get("rule") == old.get("id"))]
    return changed


def _version_2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 drops the three-aces rule: three aces play as any trips, in back."""
    s, r = _rule_index(data, "trips.aces-split")
    return editing.delete_rule(data, s, r)


def _drain(database_url: str) -> None:
    """A forked child: run queued long jobs until none is left, on connections of its own."""
    # Connections inherited from the parent are left to it (SQLAlchemy's advice for forks).
    jobs.process_engine(database_url).dispose(close=False)
    Worker(database_url, lanes=(jobs.LONG,)).run_all()


def run_queued_checks(database_url: str, count: int) -> None:
    """Run the queued check jobs to completion here: in up to ``count`` forked worker
    processes at once where the system forks and has the cores, else one after another
    in this process (``Worker.run_all``, the worker module's drain)."""
    db.session.commit()
    processes = min(count, os.cpu_count() or 1)
    if processes < 2 or "fork" not in multiprocessing.get_all_start_methods():
        Worker(database_url, lanes=(jobs.LONG,)).run_all()
        return
    fork = multiprocessing.get_context("fork")
    children = [fork.Process(target=_drain, args=(database_url,), name=f"demo-check-{i}")
                for i in range(processes)]
    for child in children:
        child.start()
    for child in children:
        child.join()
    # A child that could not claim (SQLite busy) left its job queued: run it here.
    Worker(database_url, lanes=(jobs.LONG,)).run_all()


def seed_house_way(manager: User, database_url: str,
                   now: datetime | None = None) -> tuple[str, ...]:
    """The demo manager copies Trump Plaza, changes a rule and publishes two versions,
    each checked first by the house-way check job; return the versions' refs.

    Both drafts' checks are queued at once (the system's jobs, ``user_id`` None, so
    that the one-running-long-job-per-person rule lets them run side by side) and run
    to completion by worker processes here, before anything is published.
    """
    now = now or utcnow()
    record = house_ways.create_draft(WAY_SLUG, WAY_CASINO, base_ref=WAY_BASE, user_id=manager.id)
    first = _version_1(copy.deepcopy(record.draft))
    second = _version_2(copy.deepcopy(first))
    queue = jobs.Runner(database_url, mode="worker")  # queue only; run below
    checks = [house_way_jobs.start_check(data, None, runner=queue).id for data in (first, second)]
    run_queued_checks(database_url, len(checks))
    db.session.commit()  # read what the workers wrote
    for job_id in checks:
        job = jobs.get(job_id)
        if job is None or job.status != jobs.DONE:
            raise DemoError("The check of the demo house way did not finish: "
                            f"{job.error if job is not None else 'the job is gone'}")
    refs = []
    for data, note, days_ago in (
            (first, "Two pair with an ace singleton: split (Low + High, Medium + Medium).", 25),
            (second, "Three aces play as any trips: the trips in back.", 9)):
        house_ways.save_draft(record.id, data, manager.id)
        version = house_ways.publish(record.id, note, manager.id)
        version.published_at = now - timedelta(days=days_ago)
        refs.append(version.ref)
        db.session.commit()
    record.created_at = now - timedelta(days=26)
    db.session.commit()
    return tuple(refs)

