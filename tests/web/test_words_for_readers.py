"""Issue 26, words: seats named as the question names them, rule names rather than ids
(the CSV keeps the id in a column of its own), the Envy cue saying what it asks, drill
lengths that match the session, defaults shown in the settings fields, ranks written as
cards write them, and one day of answers said as a figure rather than a one-dot trend."""
from __future__ import annotations

import csv
import io
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.drills import DRILLS
from trainer.extensions import db
from trainer.models import Attempt, DrillSession
from trainer.web.words import names
from web.helpers import login
from web.test_drills import fetch_question, issued, send_answer, start


def _push_everything(app: Flask, client: FlaskClient) -> tuple[int, dict[str, Any]]:
    """Answer one settlement table by pushing every seat; return the attempt's id and question."""
    session_id = start(client, "settlement", mode="practice")
    fetch_question(client, session_id)
    question, _context = issued(app, session_id, 1)
    answer = {"positions": [{"outcome": "push", "paid_cents": None} for _ in question["positions"]]}
    assert send_answer(client, session_id, 1, answer).status_code == 200
    with app.app_context():
        attempt_id = db.session.execute(db.select(Attempt.id).filter_by(session_id=session_id)).scalar_one()
    return attempt_id, question


def test_a_settlement_answer_names_each_seat_as_the_question_does(
        app: Flask, client: FlaskClient, trainee: Any) -> None:
    login(client, trainee)
    attempt_id, question = _push_everything(app, client)
    page = client.get(f"/results/{attempt_id}").get_data(as_text=True)
    given = page.split('class="plain settle-given"', 1)[1].split("</ul>", 1)[0]
    seats = [p["seat"] for p in question["positions"]]
    assert re.findall(r"Seat (\d+): Push", given) == [str(s) for s in seats]
    assert "Position" not in given


def test_a_rule_s_id_is_no_tooltip_and_the_csv_has_the_rule_in_words_beside_it(
        app: Flask, client: FlaskClient, supervisor: Any, group: int, trainee: Any,
        make_attempt: Any) -> None:
    with app.test_request_context():
        tag = str(names.rule_tag("action.count"))
        words = names.rule_name("action.count")
    assert 'data-rule="action.count"' in tag and "title=" not in tag and words in tag
    make_attempt(trainee.id, rule_id="two-pair.split.aces", correct=False)
    login(client, supervisor)
    page = client.get(f"/supervisor/trainees/{trainee.id}?period=all").get_data(as_text=True)
    assert 'title="two-pair.split.aces"' not in page and 'title="pai-gow.standard"' not in page
    text = client.get(f"/supervisor/groups/{group}/export/attempts.csv?period=all").get_data(as_text=True)
    header, row = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    with app.test_request_context():
        readable = names.rule_name("two-pair.split.aces", "trump-plaza")
    assert row[header.index("Rule id")] == "two-pair.split.aces"
    assert row[header.index("Rule")] == readable != "two-pair.split.aces"


def test_the_envy_cue_asks_whether_the_hand_qualifies_for_envy(
        app: Flask, client: FlaskClient, trainee: Any) -> None:
    login(client, trainee)
    session_id = start(client, "bonus", mode="practice")
    page = fetch_question(client, session_id).get_json()["html"]
    assert "Does it qualify for Envy?" in page and "Does this qualify?" not in page


def test_the_drills_page_lists_a_round_by_the_questions_its_session_counts(
        app: Flask, client: FlaskClient, trainee: Any, group: int) -> None:
    """20 questions make 6 2/3 rounds: the session asks 7 whole rounds, 21 questions."""
    login(client, trainee)
    page = client.get("/drills/").get_data(as_text=True)
    listed = page.split('id="drill-round"', 1)[1].split("</li>", 1)[0]
    session_id = start(client, "round", mode="practice")
    with app.app_context():
        length = db.session.get(DrillSession, session_id).length
    assert length == 21 and len(DRILLS["round"].steps) == 3
    assert f"{length} questions" in listed, listed


def test_settings_fields_show_the_defaults_they_stand_for(
        client: FlaskClient, supervisor: Any, group: int) -> None:
    login(client, supervisor)
    page = client.get(f"/supervisor/groups/{group}/edit").get_data(as_text=True)
    field = re.search(r'<input[^>]*name="length-round"[^>]*>', page)
    assert field and 'placeholder="21"' in field.group(0), field
    field = re.search(r'<input[^>]*name="time-settlement"[^>]*>', page)
    assert field and f'placeholder="{DRILLS["settlement"].default_time_limit_s}"' in field.group(0)
    assert "default 21" in re.search(r'<input[^>]*name="length-round"[^>]*>', page).group(0)


def test_ranks_in_the_editor_read_as_cards_write_them() -> None:
    from trainer.web.words.house_way_words import choice_words

    assert choice_words("2-6") == "2-6"
    assert choice_words("a-k-q-j-t") == "A-K-Q-J-10"
    assert choice_words("no-pair") == "no pair"


def test_one_day_of_answers_is_a_figure_not_a_one_dot_trend(
        app: Flask, client: FlaskClient, supervisor: Any, group: int, trainee: Any,
        make_attempt: Any) -> None:
    for correct in (True, True, False):
        make_attempt(trainee.id, correct=correct)
    login(client, supervisor)
    page = client.get(f"/supervisor/groups/{group}?period=all").get_data(as_text=True)
    row = page.split(f'data-trainee="{trainee.id}"', 1)[1].split("</tr>", 1)[0]
    assert 'class="chart sparkline"' not in row
    assert re.search(r'class="spark-single">67%[^<]*one day', row), row
