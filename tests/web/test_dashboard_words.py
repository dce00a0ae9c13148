"""The dashboards say what each figure counts, so the trainee's home and the supervisor's
pages agree in words (QA walk of the demo class, docs/dashboards.md "What each figure
counts"): all answers against the certification window, the window never over-counted,
one set of "ready to deal" states for the headline and its chips, the report's mistakes
drawn as spaced cards, one entry apart from the next, and the phone's progress cards
without a stray "drill my mistakes" label."""
from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.house_way import DEFAULT_HOUSE_WAY
from trainer.engine.profiles import DEFAULT_PROFILE
from trainer.extensions import db
from trainer.models import Attempt, CertificationExam, DrillSession, User
from trainer.models.exam import ExamStatus
from trainer.services.certification.criteria import Readiness, Verdict, default_criteria
from trainer.services.progress import MISSED_LOOKBACK
from trainer.web.supervisor.base import READINESS_NAMES
from trainer.web.trainee.home import MY_READINESS
from web.helpers import csrf_token, login

START = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
CARDS = ["JK", "Kd", "2s", "4s", "3c", "5c", "6d"]


def _text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"(?s)<[^>]+>", " ", page)).split())


def _answers(app: Flask, user_id: int, mode: str, wrong: set[int], count: int, minutes: int) -> None:
    """Record ``count`` house-way answers in one session of ``mode``; ``wrong`` by index."""
    with app.app_context():
        session = DrillSession(user_id=user_id, kind="house-way", mode=mode, length=count,
                               house_way="trump-plaza", profile="nevada")
        db.session.add(session)
        for i in range(count):
            at = START + timedelta(minutes=minutes + i)
            db.session.add(Attempt(
                session=session, user_id=user_id, kind="house-way", seed=i, position=i + 1,
                question={"cards": CARDS, "context": {"house_way": "trump-plaza"}},
                answer={"back": ["JK", "Kd", "2s", "4s", "3c"], "front": ["5c", "6d"]},
                correct_answer={"back": ["5c", "6d", "2s", "4s", "3c"], "front": ["JK", "Kd"]},
                correct=i not in wrong, timed_out=False,
                rule_id="two-pair.split.always" if i in wrong else "one-pair.standard",
                issued_at=at, answered_at=at + timedelta(seconds=4), elapsed_ms=4000))
        db.session.commit()


def test_the_trainee_home_counts_all_answers_and_names_the_criterion_window(
        app: Flask, client: FlaskClient, trainee: Any, supervisor: Any) -> None:
    # 10 timed answers (the window's, all right) and 5 practice answers (2 wrong).
    _answers(app, trainee.id, "practice", {0, 1}, 5, minutes=0)
    _answers(app, trainee.id, "timed", set(), 10, minutes=30)
    login(client, trainee)
    page = client.get("/").get_data(as_text=True)
    progress = re.search(r'id="my-progress".*?</section>', page, re.S).group(0)
    head = _text(re.search(r"<thead>.*?</thead>", progress, re.S).group(0))
    assert "All answers" in head
    row = re.search(r'<tr data-kind="house-way">.*?</tr>', progress, re.S).group(0)
    assert 'data-all-answers="15"' in row
    text = _text(row)
    assert "100% / 98%" in text and "over the last 10 timed answers" in text, text
    # The settlement window counts positions, and says so in what is still needed.
    table = _text(re.search(r'<tr data-kind="settlement">.*?</tr>', progress, re.S).group(0))
    assert "50 more timed positions" in table, table
    # A drill without a criterion says its accuracy is over all answers.
    other = re.search(r'<tr data-kind="action">.*?</tr>', progress, re.S).group(0)
    assert "over all answers" in _text(other)
    words = _text(progress)
    assert "All answers: every answer you gave in the drill, practice included." in words
    assert f"Among your latest {MISSED_LOOKBACK} wrong answers, practice included." in words

    # The supervisor's overview counts the same 15 answers for all time, in the same word.
    client.post("/auth/logout", headers={"X-CSRFToken": csrf_token(client, "/")})
    login(client, supervisor)
    with app.app_context():
        group_id = db.session.get(User, trainee.id).group.id
    overview = client.get(f"/supervisor/groups/{group_id}?period=all").get_data(as_text=True)
    cell = re.search(rf'<tr data-trainee="{trainee.id}">.*?data-kind="house-way">(.*?)</td>',
                     overview, re.S).group(1)
    assert "15 answers" in _text(cell)


def test_every_ready_to_deal_state_is_named_ready_to_deal(app: Flask) -> None:
    # The overview's headline counts Verdict.ready_to_deal; its chips must say the same.
    with app.test_request_context():
        for status in Readiness:
            ready = Verdict(status).ready_to_deal
            assert str(READINESS_NAMES[status]).startswith("Ready to deal") == ready, status
            assert ("ready to deal" in str(MY_READINESS[status])) == ready, status


def test_the_group_headline_counts_the_refresher_as_ready_and_its_chips_say_so(
        app: Flask, client: FlaskClient, trainee: Any, supervisor: Any, group: int,
        make_user: Any) -> None:
    # One trainee in training; one certified in both drills whose full window of 100 timed
    # house-way answers now fails 98% (90%): certified, needs a refresher, still ready.
    _answers(app, trainee.id, "timed", {0}, 10, minutes=0)
    slipped = make_user(group_id=group, name="Slipped")
    _answers(app, slipped.id, "timed", set(range(10)), 100, minutes=0)
    with app.app_context():
        for criterion in default_criteria():
            kind = criterion.kind
            db.session.add(CertificationExam(
                group_id=group, trainee_id=slipped.id, scheduled_by_id=supervisor.id, kind=kind,
                length=20, time_limit_ms=10_000, criteria=criterion.as_dict(), house_way=DEFAULT_HOUSE_WAY,
                profile=DEFAULT_PROFILE, status=ExamStatus.FINISHED, passed=True,
                finished_at=START))
        db.session.commit()
    login(client, supervisor)
    page = client.get(f"/supervisor/groups/{group}?period=all").get_data(as_text=True)
    strip = re.search(r'<section class="sv-panel summary-strip"[^>]*>(.*?)</section>', page, re.S).group(1)
    assert _text(strip) == ("1 of 2 trainees ready to deal Ready to deal, needs a refresher 1 "
                            "Not ready yet: In training 1"), _text(strip)
    ready = re.search(r'data-ready-group="yes">(.*?)</div>', strip, re.S).group(1)
    assert re.findall(r'data-readiness="([\w-]+)"', ready) == [Readiness.REFRESHER]
    row = re.search(rf'<tr data-trainee="{slipped.id}">.*?</tr>', page, re.S).group(0)
    assert 'data-readiness="refresher"' in row and "Ready to deal, needs a refresher" in row


def test_the_report_draws_each_mistake_apart_with_spaced_cards(
        app: Flask, client: FlaskClient, trainee: Any, supervisor: Any) -> None:
    _answers(app, trainee.id, "timed", {0, 1, 2}, 3, minutes=0)
    login(client, supervisor)
    page = client.get(f"/supervisor/trainees/{trainee.id}/report?period=all").get_data(as_text=True)
    assert "css/cards.css" in page  # the cards are drawn as cards, not run-together text
    section = re.search(r'id="report-mistakes".*?</section>', page, re.S).group(0)
    entries = re.findall(r'<li class="report-mistake">(.*?)</li>\s*(?=<li class="report-mistake">|</ul>)',
                         section, re.S)
    assert len(entries) == 3
    for entry in entries:
        assert 'class="mistake-drill"' in entry and 'class="mistake-verdict"' in entry
        question = re.search(r'class="mistake-question">(.*?)</div>', entry, re.S).group(1)
        assert re.findall(r'data-card="(\w+)"', question) == CARDS


def test_the_progress_table_s_mistakes_cell_carries_no_column_label(
        app: Flask, client: FlaskClient, trainee: Any) -> None:
    # lib.js labels every stacked cell with its column's header unless it has a data-label:
    # the "drill my mistakes" cell has an empty one (its button says it, or it is empty).
    _answers(app, trainee.id, "timed", {0}, 3, minutes=0)
    login(client, trainee)
    page = client.get("/").get_data(as_text=True)
    progress = re.search(r'id="progress-table".*?</table>', page, re.S).group(0)
    cells = re.findall(r'<td class="row-action" data-label="">(.*?)</td>', progress, re.S)
    rows = re.findall(r"<tr data-kind=", progress)
    assert len(cells) == len(rows) > 1
    assert sum(1 for cell in cells if "data-drill-mistakes" in cell) == 1
    assert all(cell == "" for cell in cells if "data-drill-mistakes" not in cell)
