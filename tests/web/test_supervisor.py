"""The supervisor pages: overview, trainee page, settings with their audit, exams, exports."""
from __future__ import annotations

import csv
import io
import re
from itertools import combinations
from typing import Any

from trainer.engine.drills import DrillContext, get_drill
from trainer.extensions import db
from trainer.models import AuditLog, CertificationExam, DrillSession, Group, Role
from trainer.services import drills as drill_service
from trainer.services.certification import exams as certification
from web.helpers import login, post_form


def _logout(client: Any) -> None:
    post_form(client, "/auth/logout")


def _answer_exam(trainee_id: int, session_id: int, right: bool) -> None:
    """Answer every question of a house-way session, right or wrong."""
    while (view := drill_service.issue_question(trainee_id, session_id)) is not None:
        drill = get_drill("house-way")
        context = DrillContext.from_dict(view.context)
        question = drill.read_question(view.question)
        cards = question.cards
        key = drill.grade(question, drill.probe(question), context).correct_answer
        # Wrong: the first front the grader marks wrong (another front of the same value,
        # such as a pair in other suits, would be right).
        front = list(key.front) if right else next(
            list(pair) for pair in combinations(cards, 2)
            if not drill.grade(question, drill.read_answer(question, {"front": list(pair)}, context),
                               context).correct)
        drill_service.answer_question(trainee_id, session_id, view.position, {"front": front})


def test_overview_shows_trainees_badges_and_sparklines(app, client, supervisor, group, trainee,
                                                       make_attempt) -> None:
    for _ in range(5):
        make_attempt(trainee.id, rule_id="two-pair.split.aces", correct=False)
    login(client, supervisor)
    page = client.get(f"/supervisor/groups/{group}?period=all&sort=accuracy:set-hand&dir=desc")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert 'id="overview-table"' in html and 'data-readiness="no-data"' in html
    # One day of answers: its figure in words, not a one-dot trend (issue 26).
    assert html.count('class="chart sparkline"') == 0 and html.count('class="spark-single"') == 1
    assert "two-pair" in html  # weakest families
    for period in ("7d", "30d", "all"):
        for sort in ("name", "readiness", "last", "attempts", "median:house-way"):
            assert client.get(f"/supervisor/groups/{group}?period={period}&sort={sort}").status_code == 200


def test_trainee_page_shows_charts_rules_mistakes_and_replay(app, client, supervisor, trainee) -> None:
    with app.app_context():
        session_id = drill_service.start_session(trainee.id, "house-way", "timed", length=3)
        _answer_exam(trainee.id, session_id, right=False)
        attempt_id = db.session.execute(
            db.select(db.func.min(db.text("id"))).select_from(db.table("attempts"))
        ).scalar()
    login(client, supervisor)
    html = client.get(f"/supervisor/trainees/{trainee.id}").get_data(as_text=True)
    assert html.count('class="chart line-chart"') == 2 and 'class="chart bar-chart"' in html
    assert 'id="rule-table"' in html and 'id="mistakes"' in html and 'id="sessions"' in html
    assert f"/supervisor/attempts/{attempt_id}/replay" in html
    replay = client.get(f"/supervisor/attempts/{attempt_id}/replay").get_data(as_text=True)
    assert "Show the answers" in replay and 'class="card' in replay


def test_the_replay_hides_the_raw_seed_and_its_disclosures_show_their_marker(
        app, client, supervisor, trainee) -> None:
    # QA: a 19-digit seed was on the page's first line; "Show the answers" had no marker.
    with app.app_context():
        session_id = drill_service.start_session(trainee.id, "house-way", "timed", length=3)
        _answer_exam(trainee.id, session_id, right=False)
        attempt = db.session.execute(
            db.select(db.text("id, seed")).select_from(db.table("attempts")).order_by(db.text("id"))
        ).first()
    login(client, supervisor)
    replay = client.get(f"/supervisor/attempts/{attempt.id}/replay").get_data(as_text=True)
    opening = replay.split('<p class="muted">', 1)[1].split("</p>", 1)[0]
    assert str(attempt.seed) not in opening and "seed" not in opening
    technical = replay.split('<details class="reveal technical">', 1)[1].split("</details>", 1)[0]
    assert "<summary>Technical details</summary>" in technical and str(attempt.seed) in technical
    assert replay.count(str(attempt.seed)) == 1
    assert "<details" in replay and "<summary>Show the answers</summary>" in replay
    # The marker stays: no summary rule of the page's stylesheets takes away its list item.
    for sheet in ("app.css", "supervisor.css"):
        css = client.get(f"/static/css/{sheet}").get_data(as_text=True)
        for rule in css.split("}"):
            if re.search(r"(^|[\s>,])summary(?![-\w])", rule.split("{")[0]) and ".rule-form" not in rule:
                body = rule.split("{", 1)[1] if "{" in rule else ""
                assert "display:flex" not in body.replace(" ", "") and "list-style:none" not in \
                    body.replace(" ", ""), rule


def test_settings_change_is_audited_and_applies_to_new_sessions(app, client, supervisor, group,
                                                                trainee) -> None:
    login(client, supervisor)
    form = {"name": "Day shift", "house_way": "foxwoods", "profile": "nevada",
            "length-house-way": "7", "time-house-way": "12",
            "certify-house-way": "y", "accuracy-house-way": "97.5", "window-house-way": "60",
            "median-house-way": "6", "examlength-house-way": "30", "examtime-house-way": "9"}
    with app.app_context():
        started_before = drill_service.start_session(trainee.id, "house-way", "timed")
    response = post_form(client, f"/supervisor/groups/{group}/edit", form)
    assert response.headers["Location"] == f"/supervisor/groups/{group}"
    with app.app_context():
        saved = db.session.get(Group, group)
        assert saved.house_way == "foxwoods"
        assert saved.settings["drills"] == {"house-way": {"length": 7, "time_limit_s": 12}}
        assert saved.settings["certification"]["criteria"] == [{
            "kind": "house-way", "min_accuracy": 97.5, "window": 60, "max_median_s": 6.0,
            "exam_length": 30, "exam_time_limit_s": 9}]
        (entry,) = db.session.execute(
            db.select(AuditLog).filter_by(target_type="group")).scalars().all()
        assert (entry.actor_id, entry.action, entry.target_type, entry.target_id) == (
            supervisor.id, "group.settings", "group", group)
        assert entry.old["house_way"] == "trump-plaza" and entry.new["house_way"] == "foxwoods"
        assert "name" not in entry.new  # unchanged values are not logged
        old_session = db.session.get(DrillSession, started_before)
        started_after = drill_service.start_session(trainee.id, "house-way", "timed")
        new_session = db.session.get(DrillSession, started_after)
        assert old_session.house_way == "trump-plaza" and old_session.time_limit_ms != 12_000
        assert (new_session.house_way, new_session.length,
                new_session.time_limit_ms) == ("foxwoods", 7, 12_000)
    history = client.get(f"/supervisor/groups/{group}/edit").get_data(as_text=True)
    assert 'id="history"' in history and "foxwoods" in history
    # Saving the same values again records nothing.
    post_form(client, f"/supervisor/groups/{group}/edit", form)
    with app.app_context():
        assert db.session.execute(db.select(db.func.count()).select_from(AuditLog)
                                  .filter_by(target_type="group")).scalar() == 1


def test_settings_need_accuracy_and_window_for_a_required_drill(client, supervisor, group) -> None:
    login(client, supervisor)
    response = post_form(client, f"/supervisor/groups/{group}/edit", {
        "name": "Day shift", "house_way": "trump-plaza", "profile": "nevada", "certify-action": "y"})
    assert response.status_code == 200
    assert "Needed when the drill is required for certification." in response.get_data(as_text=True)


def _shorten_exams(app: Any, group: int) -> None:
    with app.app_context():
        g = db.session.get(Group, group)
        g.settings = {"certification": {"criteria": [
            {"kind": "house-way", "min_accuracy": 90, "window": 3, "max_median_s": None,
             "exam_length": 3, "exam_time_limit_s": 60}]}}
        db.session.commit()


def test_exam_flow_schedule_start_once_and_record(app, client, supervisor, group, trainee) -> None:
    _shorten_exams(app, group)
    login(client, supervisor)
    scheduled = post_form(client, f"/supervisor/trainees/{trainee.id}/exams", {"kind": "house-way"})
    assert scheduled.status_code == 302
    again = post_form(client, f"/supervisor/trainees/{trainee.id}/exams", {"kind": "house-way"},
                      follow_redirects=True)
    assert "already scheduled" in again.get_data(as_text=True)
    with app.app_context():
        exam = db.session.execute(db.select(CertificationExam)).scalar_one()
        exam_id = exam.id
        assert (exam.status, exam.length, exam.time_limit_ms,
                exam.house_way) == ("scheduled", 3, 60_000, "trump-plaza")

    _logout(client)
    login(client, trainee)
    home = client.get("/").get_data(as_text=True)
    assert 'id="my-exams"' in home and f"/exams/{exam_id}" in home
    start = post_form(client, f"/exams/{exam_id}/start")
    with app.app_context():
        exam = db.session.get(CertificationExam, exam_id)
        session_id = exam.session_id
        session = db.session.get(DrillSession, session_id)
        assert exam.status == "started" and (session.mode, session.length) == ("exam", 3)
    assert start.headers["Location"] == f"/drills/sessions/{session_id}"
    # A second start goes back to the same session, never a new one.
    second = post_form(client, f"/exams/{exam_id}/start")
    assert second.headers["Location"] == f"/drills/sessions/{session_id}"
    with app.app_context():
        try:
            certification.start_exam(exam_id, trainee.id)
        except certification.ExamError as error:
            assert "once" in str(error)
        else:
            raise AssertionError("an exam started twice")
        _answer_exam(trainee.id, session_id, right=True)
    result = client.get(f"/exams/{exam_id}").get_data(as_text=True)
    assert "Passed" in result
    with app.app_context():
        exam = db.session.get(CertificationExam, exam_id)
        assert (exam.status, exam.passed, exam.counted, exam.right) == ("finished", True, 3, 3)


def test_failed_exam_is_kept_as_a_failed_record(app, supervisor, group, trainee) -> None:
    _shorten_exams(app, group)
    with app.app_context():
        exam_id = certification.schedule_exam(group, trainee.id, "house-way", supervisor.id)
        session_id = certification.start_exam(exam_id, trainee.id)
        _answer_exam(trainee.id, session_id, right=False)
        assert certification.record_results([trainee.id]) == 1
        exam = db.session.get(CertificationExam, exam_id)
        assert (exam.passed, exam.right, exam.counted) == (False, 0, 3)


def test_abandoned_exam_fails_after_its_time(app, supervisor, group, trainee) -> None:
    from datetime import timedelta

    _shorten_exams(app, group)
    with app.app_context():
        exam_id = certification.schedule_exam(group, trainee.id, "house-way", supervisor.id)
        certification.start_exam(exam_id, trainee.id)
        exam = db.session.get(CertificationExam, exam_id)
        exam.started_at = exam.started_at - timedelta(hours=1)
        db.session.commit()
        assert certification.record_results([trainee.id]) == 1
        assert db.session.get(CertificationExam, exam_id).passed is False


def test_other_trainee_cannot_start_or_see_an_exam(app, client, supervisor, group, trainee,
                                                   make_user) -> None:
    _shorten_exams(app, group)
    with app.app_context():
        exam_id = certification.schedule_exam(group, trainee.id, "house-way", supervisor.id)
    other = make_user(Role.TRAINEE, login="other", group_id=group)
    login(client, other)
    assert client.get(f"/exams/{exam_id}").status_code == 404
    assert post_form(client, f"/exams/{exam_id}/start").status_code == 404
    _logout(client)
    login(client, supervisor)
    assert client.get(f"/exams/{exam_id}").status_code == 403


def _rows(response: Any) -> list[list[str]]:
    text = response.get_data(as_text=True)
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:])))


def test_attempts_csv_has_plain_headers_and_filters(app, client, supervisor, group, trainee, make_user,
                                                    make_attempt) -> None:
    other = make_user(Role.TRAINEE, login="other", name="=HYPERLINK(evil)", group_id=group)
    make_attempt(trainee.id, rule_id="two-pair.split.aces", kind="house-way")
    make_attempt(trainee.id, rule_id="settlement.push", kind="settlement", correct=False, timed_out=True)
    make_attempt(other.id, rule_id="two-pair.keep", kind="house-way")
    login(client, supervisor)
    response = client.get(f"/supervisor/groups/{group}/export/attempts.csv?period=all")
    assert response.mimetype == "text/csv" and "attachment" in response.headers["Content-Disposition"]
    header, *rows = _rows(response)
    assert header[:3] == ["Trainee", "Login", "Drill"] and "Answered (UTC)" in header and "Time (s)" in header
    assert len(rows) == 3
    assert rows[0][0] == "'=HYPERLINK(evil)"  # not a formula in a spreadsheet
    only = _rows(client.get(f"/supervisor/groups/{group}/export/attempts.csv",
                            query_string={"period": "all", "trainee": trainee.id, "kind": "settlement"}))
    assert len(only) == 2 and only[1][header.index("Result")] == "Timed out"
    assert only[1][header.index("Rule family")] == "settlement"
    assert len(_rows(client.get(f"/supervisor/groups/{group}/export/attempts.csv?period=7d"))) == 1


def test_summary_csv_has_a_row_per_trainee_and_drill(client, supervisor, group, trainee,
                                                     make_attempt) -> None:
    make_attempt(trainee.id, kind="house-way", elapsed_ms=2500)
    login(client, supervisor)
    header, *rows = _rows(client.get(f"/supervisor/groups/{group}/export/summary.csv?period=all"))
    assert header == ["Trainee", "Login", "Period", "Drill", "Questions answered", "Right",
                      "Accuracy (%)", "Median time (s)", "Last activity (UTC)", "Readiness"]
    assert rows == [["Trainee", "trainee", "All time", "Set the banker's hand", "1", "1", "100.0", "2.5",
                     "2024-05-01 12:00:04", "No timed practice yet"]]


def test_printable_report_is_a_standalone_page(client, supervisor, trainee, make_attempt) -> None:
    make_attempt(trainee.id, kind="house-way")
    login(client, supervisor)
    html = client.get(f"/supervisor/trainees/{trainee.id}/report?period=all").get_data(as_text=True)
    assert 'id="trainee-report"' in html and 'class="chart bar-chart"' in html
    assert "<nav" not in html and "<img" not in html
    # One script only: the Print button's (hidden without scripts).
    assert html.count("<script") == 1 and "js/print.js" in html
