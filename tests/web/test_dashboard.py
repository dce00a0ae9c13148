"""The dashboards' figures, computed from known attempt rows, and readiness under given criteria."""
from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from trainer.engine.drills.kinds.settlement import position_results
from trainer.extensions import db
from trainer.models import Attempt, DrillSession, Membership, Role
from trainer.services.reports import pages as dashboard
from trainer.services.reports import sql as report_queries
from trainer.services.reports.pages import (
    Criterion,
    ExamRecord,
    Figures,
    Period,
    Readiness,
    RuleFigures,
    readiness,
)

NOW = datetime(2025, 3, 20, 12, 0, tzinfo=UTC)
HOUSE_WAY = Criterion("house-way", 98.0, 4, 8.0)
SETTLEMENT = Criterion("settlement", 99.0, 5)


@pytest.fixture
def record(app: Any) -> Any:
    """Return a builder that records one session of attempts and hands back the session id.

    Each row is (correct, timed_out, elapsed_ms, rule_id, days_ago) or a dict of
    Attempt fields on top of those.
    """

    def build(user_id: int, rows: list[Any], kind: str = "house-way", mode: str = "timed") -> int:
        with app.app_context():
            session = DrillSession(
                user_id=user_id, kind=kind, mode=mode, length=len(rows), time_limit_ms=10_000,
                house_way="trump-plaza", profile="nevada", started_at=NOW - timedelta(days=400),
            )
            db.session.add(session)
            for position, row in enumerate(rows, start=1):
                extra: dict[str, Any] = {}
                if isinstance(row, dict):
                    extra = dict(row)
                    row = extra.pop("row")
                correct, timed_out, elapsed_ms, rule_id, days_ago = row
                answered = NOW - timedelta(days=days_ago, seconds=len(rows) - position)
                values = {
                    "question": {"cards": ["As", "Ad", "7c", "7d", "2h", "3s", "JK"]},
                    "answer": {"front": ["7c", "7d"]},
                    "correct_answer": {"front": ["7c", "7d"]},
                    **extra,
                }
                db.session.add(Attempt(
                    session=session, position=position, user_id=user_id, kind=kind, seed=position,
                    correct=correct, timed_out=timed_out, rule_id=rule_id,
                    issued_at=answered - timedelta(milliseconds=elapsed_ms), answered_at=answered,
                    elapsed_ms=elapsed_ms, **values,
                ))
            db.session.commit()
            return session.id

    return build


def test_no_attempts_gives_empty_figures_and_no_data(app, trainee, group) -> None:
    with app.app_context():
        overview = dashboard.group_overview(group, Period.parse("30d"), now=NOW)
        report = dashboard.trainee_report(trainee.id, Period.parse("all"), now=NOW)
    (row,) = overview.rows
    assert row.kinds == {} and row.total == Figures() and row.total.accuracy is None
    assert row.trend == [] and row.last_activity is None
    assert row.verdict.status is Readiness.NO_DATA
    assert overview.weakest_families == []
    assert report.kinds == {} and report.rules == [] and report.mistakes == [] and report.sessions == []


def test_accuracy_and_median_per_kind_odd_and_even_counts(app, trainee, group, record) -> None:
    record(trainee.id, [(True, False, 1000, "a.x", 1), (False, False, 3000, "a.y", 1),
                        (True, False, 8000, "a.x", 1)])
    record(trainee.id, [(True, False, 2000, "settlement.push", 1), (True, False, 4000, "settlement.push", 1),
                        (True, False, 6000, "settlement.win", 1), (False, False, 9000, "settlement.win", 1)],
           kind="settlement")
    with app.app_context():
        figures = dashboard.kind_figures([trainee.id], None)[trainee.id]
    assert figures["house-way"] == Figures(3, 2, 3000.0)
    assert figures["house-way"].accuracy == pytest.approx(2 / 3)
    assert figures["settlement"] == Figures(4, 3, 5000.0)


def test_timed_out_attempts_count_as_wrong_with_their_time(app, trainee, record) -> None:
    # A timed-out answer flagged correct (it cannot happen, but the rule must hold) is wrong.
    record(trainee.id, [(True, True, 12000, "a.x", 1), (True, False, 1000, "a.x", 1),
                        (False, True, 11000, "a.x", 1)])
    with app.app_context():
        figures = dashboard.kind_figures([trainee.id], None)[trainee.id]["house-way"]
        rules = dashboard.rule_figures([trainee.id], None)
    assert figures == Figures(3, 1, 11000.0)
    assert rules == [RuleFigures("a.x", Figures(3, 1))]


def test_period_keeps_only_recent_attempts(app, trainee, group, record) -> None:
    record(trainee.id, [(True, False, 1000, "a.x", 2), (False, False, 1000, "a.x", 20),
                        (False, False, 1000, "a.x", 100)])
    with app.app_context():
        figures = {key: dashboard.kind_figures([trainee.id], Period.parse(key).since(NOW))
                   for key in ("7d", "30d", "all")}
        counts = {key: by_id[trainee.id]["house-way"].answered for key, by_id in figures.items()}
        overview = dashboard.group_overview(group, Period.parse("7d"), now=NOW)
    assert counts == {"7d": 1, "30d": 2, "all": 3}
    # Last activity is all-time, whatever the period.
    assert overview.rows[0].last_activity == NOW - timedelta(days=2, seconds=2)


def test_rule_table_runs_weakest_first_and_families_add_up(app, trainee, group, record) -> None:
    record(trainee.id, [
        (True, False, 1000, "two-pair.split.aces", 1), (False, False, 1000, "two-pair.split.aces", 1),
        (False, False, 1000, "two-pair.keep", 1), (True, False, 1000, "flush.keep", 1),
        (True, False, 1000, "flush.keep", 1), (False, False, 1000, "two-pair.keep", 1),
        (False, True, 1000, "two-pair.keep", 1), (True, False, 1000, "two-pair.split.aces", 1),
        (False, False, 1000, "flush.keep", 1),
    ])
    with app.app_context():
        rules = dashboard.rule_figures([trainee.id], None)
        overview = dashboard.group_overview(group, Period.parse("all"), now=NOW)
    assert [(r.rule, r.figures.answered, r.figures.wrong) for r in rules] == [
        ("two-pair.keep", 3, 3), ("flush.keep", 3, 1), ("two-pair.split.aces", 3, 1),
    ]
    assert [(f.rule, f.figures.answered, f.figures.right) for f in dashboard.family_figures(rules)] == [
        ("two-pair", 6, 2), ("flush", 3, 2),
    ]
    assert [f.rule for f in overview.weakest_families] == ["two-pair"]  # flush has 3 < 5 answers


def test_trend_buckets_accuracy_per_day(app, trainee, group, record) -> None:
    record(trainee.id, [(True, False, 1000, "a.x", 3), (False, False, 1000, "a.x", 3),
                        (True, False, 1000, "a.x", 1)])
    with app.app_context():
        overview = dashboard.group_overview(group, Period.parse("7d"), now=NOW)
    trend = overview.rows[0].trend
    assert [(p.day, p.figures.answered, p.figures.right) for p in trend] == [
        ((NOW - timedelta(days=3)).date(), 2, 1), ((NOW - timedelta(days=1)).date(), 1, 1),
    ]
    assert overview.buckets.count == 8 and overview.buckets.size == 1


def test_window_counts_the_last_timed_questions_only(app, trainee, record) -> None:
    record(trainee.id, [(False, False, 1000, "a.x", 1)] * 3, mode="practice")
    record(trainee.id, [(False, False, 9000, "a.x", 5), (True, False, 4000, "a.x", 4),
                        (True, False, 6000, "a.x", 3), (True, False, 2000, "a.x", 2),
                        (True, False, 7000, "a.x", 1)])
    with app.app_context():
        window = dashboard.window_figures([trainee.id], HOUSE_WAY)[trainee.id]
    # The last four timed answers: 4000, 6000, 2000, 7000, all right; practice ignored.
    assert window == Figures(4, 4, 5000.0)


def _table(outcomes: list[tuple[str, str, int | None, int | None]]) -> dict[str, Any]:
    """A settlement answer and key: (right outcome, given outcome, right paid, given paid)."""
    return {
        "answer": {"positions": [{"outcome": given, "paid_cents": paid} for _r, given, _p, paid in outcomes]},
        "correct_answer": {"positions": [{"seat": i + 2, "outcome": right, "paid_cents": paid}
                                         for i, (right, _g, paid, _gp) in enumerate(outcomes)]},
    }


def test_position_results_follow_the_settlement_rule() -> None:
    table = _table([("win", "win", 950, 950), ("win", "win", 950, 1000), ("lose", "push", None, None),
                    ("push", "push", None, None)])
    assert position_results(table["answer"], table["correct_answer"], False) == [True, False, False, True]
    assert position_results(table["answer"], table["correct_answer"], True) == [False] * 4
    assert position_results(None, table["correct_answer"], False) == [False] * 4


def test_settlement_window_counts_positions(app, trainee, record) -> None:
    two_right = _table([("win", "win", 950, 950), ("lose", "lose", None, None)])
    one_wrong = _table([("push", "push", None, None), ("lose", "win", None, 500), ("win", "win", 1900, 1900)])
    old = _table([("lose", "win", None, 100)] * 4)
    record(trainee.id, [
        {"row": (False, False, 9000, "settlement.lose", 5), **old},
        {"row": (False, False, 3000, "settlement.lose", 2), **one_wrong},
        {"row": (True, False, 5000, "settlement.win", 1), **two_right},
    ], kind="settlement")
    with app.app_context():
        window = dashboard.window_figures([trainee.id], SETTLEMENT)[trainee.id]
    # Newest first until five positions: 2 + 3 positions, one of them wrong.
    assert window == Figures(5, 4, 4000.0)


def test_settlement_window_never_counts_more_positions_than_the_window(app, trainee, record) -> None:
    # QA found "Counted 53 / 50": the oldest question straddling the window's edge
    # was counted whole. Only the positions still needed count, in seat order.
    three_right = _table([("win", "win", 950, 950), ("lose", "lose", None, None),
                          ("push", "push", None, None)])
    right_then_wrong = _table([("push", "push", None, None), ("push", "push", None, None),
                               ("lose", "win", None, 500), ("win", "push", 950, None)])
    record(trainee.id, [
        {"row": (False, False, 7000, "settlement.lose", 2), **right_then_wrong},
        {"row": (True, False, 5000, "settlement.win", 1), **three_right},
    ], kind="settlement")
    with app.app_context():
        window = dashboard.window_figures([trainee.id], SETTLEMENT)[trainee.id]
    # 3 newest positions + the first 2 (both right) of the 4 in the straddling question.
    assert window == Figures(5, 5, 6000.0)
    assert window.answered <= SETTLEMENT.window


# --------------------------------------------------------------------------- readiness, pure


def _exam(kind: str, passed: bool | None, status: str = "finished",
          house_way: str = "trump-plaza") -> ExamRecord:
    return ExamRecord(1, 1, kind, status, NOW, NOW if status == "finished" else None, passed,
                      house_way, "nevada", Criterion(kind, 98.0, 10), Figures())


GOOD = {"house-way": Figures(4, 4, 5000.0), "settlement": Figures(5, 5, None)}
CRITERIA = [HOUSE_WAY, SETTLEMENT]


def test_readiness_without_criteria_is_unset() -> None:
    assert readiness(GOOD, [], [], "trump-plaza", "nevada").status is Readiness.NO_CRITERIA


def test_readiness_without_timed_answers_is_no_data() -> None:
    assert readiness({}, CRITERIA, [], "trump-plaza", "nevada").status is Readiness.NO_DATA


def test_readiness_in_training_until_every_window_is_full_and_passes() -> None:
    short = {**GOOD, "settlement": Figures(4, 4, None)}
    slow = {**GOOD, "house-way": Figures(4, 4, 8001.0)}
    inaccurate = {**GOOD, "house-way": Figures(4, 3, 1000.0)}
    for windows in (short, slow, inaccurate):
        assert readiness(windows, CRITERIA, [], "trump-plaza", "nevada").status is Readiness.TRAINING


def test_readiness_at_the_exact_thresholds_is_met() -> None:
    exact = Criterion("house-way", 75.0, 4, 8.0)
    verdict = readiness({"house-way": Figures(4, 3, 8000.0)}, [exact], [], "trump-plaza", "nevada")
    assert verdict.status is Readiness.EXAM_DUE and verdict.checks[0].met


def test_readiness_exam_scheduled_then_certified_per_kind() -> None:
    scheduled = [_exam("house-way", None, status="scheduled")]
    assert readiness(GOOD, CRITERIA, scheduled, "trump-plaza", "nevada").status is Readiness.EXAM_SCHEDULED
    one_kind = [_exam("house-way", True)]
    assert readiness(GOOD, CRITERIA, one_kind, "trump-plaza", "nevada").status is Readiness.EXAM_DUE
    both = [_exam("house-way", True), _exam("settlement", True)]
    verdict = readiness(GOOD, CRITERIA, both, "trump-plaza", "nevada")
    assert verdict.status is Readiness.CERTIFIED and verdict.ready_to_deal
    failed = [_exam("house-way", False), _exam("settlement", True)]
    assert readiness(GOOD, CRITERIA, failed, "trump-plaza", "nevada").status is Readiness.EXAM_DUE


def test_certification_under_another_house_way_does_not_count() -> None:
    both = [_exam("house-way", True, house_way="foxwoods"), _exam("settlement", True, house_way="foxwoods")]
    assert readiness(GOOD, CRITERIA, both, "trump-plaza", "nevada").status is Readiness.EXAM_DUE


def test_certified_trainee_slipping_below_criteria_needs_a_refresher() -> None:
    both = [_exam("house-way", True), _exam("settlement", True)]
    slipping = {**GOOD, "house-way": Figures(4, 2, 5000.0)}
    verdict = readiness(slipping, CRITERIA, both, "trump-plaza", "nevada")
    assert verdict.status is Readiness.REFRESHER and verdict.ready_to_deal
    # Too few recent timed answers to judge: still certified.
    quiet = {"house-way": Figures(1, 0, 5000.0)}
    assert readiness(quiet, CRITERIA, both, "trump-plaza", "nevada").status is Readiness.CERTIFIED


def test_group_criteria_default_and_skip_broken_entries() -> None:
    assert [c.kind for c in dashboard.group_criteria({})] == ["house-way", "settlement"]
    settings = {"certification": {"criteria": [{"kind": "action", "min_accuracy": 95, "window": 20},
                                               {"kind": "broken"},
                                               {"kind": "x", "min_accuracy": 120, "window": 5}]}}
    assert dashboard.group_criteria(settings) == [Criterion("action", 95.0, 20)]
    assert dashboard.group_criteria({"certification": {"criteria": []}}) == []


# --------------------------------------------------------------------------- moved trainee


def test_moved_trainee_takes_their_figures_to_the_new_group(
    app, trainee, group, supervisor, make_group, record
) -> None:
    record(trainee.id, [(True, False, 1000, "a.x", 1), (False, False, 3000, "a.x", 1)])
    other = make_group(supervisor.id, name="Night shift", house_way="foxwoods")
    with app.app_context():
        membership = db.session.get(Membership, trainee.id)
        membership.group_id = other
        db.session.commit()
        old = dashboard.group_overview(group, Period.parse("all"), now=NOW)
        new = dashboard.group_overview(other, Period.parse("all"), now=NOW)
    assert old.rows == [] and old.weakest_families == []
    (row,) = new.rows
    assert row.id == trainee.id and row.kinds["house-way"] == Figures(2, 1, 2000.0)


def test_overview_lists_only_current_trainees(app, group, make_user, supervisor) -> None:
    make_user(Role.TRAINEE, login="t1", name="Zoe", group_id=group)
    make_user(Role.TRAINEE, login="t2", name="adam", group_id=group)
    make_user(Role.TRAINEE, login="t3", name="Elsewhere")
    with app.app_context():
        overview = dashboard.group_overview(group, Period.parse("all"), now=NOW)
    assert [r.name for r in overview.rows] == ["adam", "Zoe"]


# --------------------------------------------------------------------------- exact figures, many rows


def _median(values: list[int]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return float(ordered[middle]) if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def _answered_at(rows: list[Any], position: int) -> datetime:
    """When ``record`` dates the row at ``position`` (1-based) of a session of ``rows``."""
    return NOW - timedelta(days=rows[position - 1][4], seconds=len(rows) - position)


def test_figures_match_the_rows_for_several_trainees_drills_and_periods(
    app, group, make_user, record, monkeypatch
) -> None:
    rng = random.Random(11)
    trainees = [make_user(Role.TRAINEE, login=f"many{i}", group_id=group) for i in range(3)]
    answers: list[tuple[int, str, datetime, bool, int, str]] = []
    for trainee in trainees:
        sizes = rng.sample(range(1, 40), 3)
        for kind, count in zip(("house-way", "settlement", "action"), sizes, strict=True):
            # Odd and even counts, repeated times (2500 ms often), some timed out;
            # answered at any hour, the last of a session on the hour (midnight too).
            rows = [(rng.random() < 0.8, rng.random() < 0.1,
                     rng.choice([2500, 2500, 1000, rng.randrange(400, 20_000)]),
                     f"{kind}.r{rng.randrange(3)}", rng.randrange(0, 60 * 24) / 24)
                    for _ in range(count)]
            record(trainee.id, rows, kind=kind)
            answers += [(trainee.id, kind, _answered_at(rows, p), row[0] and not row[1], row[2], row[3])
                        for p, row in enumerate(rows, start=1)]
    # Nine (trainee, drill) pairs, two to a statement: the SQLite paths take five.
    monkeypatch.setattr(report_queries, "PAIRS_PER_STATEMENT", 2)
    ids = [t.id for t in trainees]
    for key in ("7d", "30d", "all"):
        period = Period.parse(key)
        since = period.since(NOW)
        kept = [a for a in answers if since is None or a[2] >= since]
        expected: dict[int, dict[str, Figures]] = {}
        for user_id, kind in {(a[0], a[1]) for a in kept}:
            mine = [a for a in kept if (a[0], a[1]) == (user_id, kind)]
            expected.setdefault(user_id, {})[kind] = Figures(
                len(mine), sum(a[3] for a in mine), _median([a[4] for a in mine]))
        rules: dict[str, tuple[int, int]] = {}
        for a in kept:
            answered, right = rules.get(a[5], (0, 0))
            rules[a[5]] = (answered + 1, right + a[3])
        with app.app_context():
            figures = dashboard.kind_figures(ids, since)
            rule_rows = dashboard.rule_figures(ids, since)
            overview = dashboard.group_overview(group, period, now=NOW)
            report = dashboard.trainee_report(ids[0], period, now=NOW)
            counts = dashboard.answer_counts(ids, since)
            sparklines = dashboard.accuracy_trends(ids, since, overview.buckets, counts)
            grouped = dashboard.trends(ids, since, overview.buckets, with_median=False)
        assert figures == expected, key
        assert {r.rule: (r.figures.answered, r.figures.right) for r in rule_rows} == rules, key
        assert {row.id: row.kinds for row in overview.rows} == {i: expected.get(i, {}) for i in ids}, key
        assert report.kinds == expected.get(ids[0], {}), key
        buckets = overview.buckets
        trend: dict[int, dict[date, list[int]]] = {}
        for a in kept:
            day = buckets.start(buckets.index((a[2].date() - date(1970, 1, 1)).days))
            cell = trend.setdefault(a[0], {}).setdefault(day, [0, 0])
            cell[0] += 1
            cell[1] += a[3]
        expected_trend = {
            user_id: [(day, answered, right) for day, (answered, right) in sorted(days.items())]
            for user_id, days in trend.items()
        }
        assert {row.id: [(p.day, p.figures.answered, p.figures.right) for p in row.trend]
                for row in overview.rows if row.trend} == expected_trend, key
        assert sparklines == {user_id: points for (user_id, _), points in grouped.items()}, key


def test_answers_recorded_while_counting_do_not_shift_the_median(app, trainee, record, monkeypatch) -> None:
    record(trainee.id, [(True, False, 1000, "a.x", 1), (True, False, 2000, "a.x", 1),
                        (True, False, 9000, "a.x", 1)])
    counted = dashboard.answer_counts

    def count_then_answer(user_ids: Any, since: Any) -> Any:
        counts = counted(user_ids, since)
        # Two quick answers land after the counting, before the middle is read:
        # had they been read, the middle of five would be 1000, not 2000.
        record(trainee.id, [(True, False, 100, "a.x", 1), (True, False, 200, "a.x", 1)])
        return counts

    monkeypatch.setattr(report_queries, "answer_counts", count_then_answer)
    with app.app_context():
        figures = dashboard.kind_figures([trainee.id], None)[trainee.id]["house-way"]
    assert figures == Figures(3, 3, 2000.0)
