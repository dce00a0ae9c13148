"""What people see of practice that adapts (issue 30 step 5), as journeys through the pages.

A trainee's home shows each rule family of a drill in words, with a bar and the number, and
the forecast with how it is worked out; "Practise this rule" from the house-way sheet, the
look-up and a practice answer's feedback starts a session whose every question is that
rule's; the supervisor's heat map shows each trainee by each family with its number; an
assignment made by the supervisor's form changes what targeted practice deals; another
group's supervisor is refused; bad form input gets a 400 with its reason and changes
nothing. The expected numbers come from the learning service (``trainer.services.learning``)
and the attempts recorded, never from the pages' own code.
"""
from __future__ import annotations

import html
import random
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.drills import get_drill
from trainer.engine.house_way import rule_family
from trainer.engine.learning.keys import skill_id
from trainer.extensions import db
from trainer.models import (
    Attempt,
    AuditLog,
    DrillSession,
    Group,
    IssuedQuestion,
    LearningAssignment,
    Role,
)
from trainer.services import drills as drill_service
from trainer.services import learning
from trainer.services.certification import exams as certification
from trainer.services.group_settings import GroupSettings
from trainer.web.words.names import family_name
from web.helpers import csrf_token, login, post_form

HOUSE_WAY = "house-way"   # the drill of house-way hands (a test may name a slug)
LENGTH = 8                # the group's practice sessions, short so the journeys are quick
PERCENT = re.compile(r"(\d+)%")
FORM = re.compile(r'<form method="post" action="(/learning/practise)" class="practise-rule">(.*?)</form>',
                  re.S)


# --- helpers -------------------------------------------------------------------------------


@pytest.fixture
def short_sessions(app: Flask, group: int) -> int:
    """Give the group's house-way practice sessions LENGTH questions."""
    with app.app_context():
        row = db.session.get(Group, group)
        assert row is not None
        row.settings = {"drills": {HOUSE_WAY: {"length": LENGTH}}}
        db.session.commit()
    return group


def visible(page: str) -> str:
    """Return a page's visible text (no tags, no attributes)."""
    body = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", page)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"(?s)<[^>]+>", " ", body)))


def section(page: str, element_id: str) -> str:
    """Return the HTML of the element with ``element_id`` up to its section's end."""
    start = page.index(f'id="{element_id}"')
    return page[start:page.index("</section>", start)]


def _question(client: FlaskClient, session_id: int) -> Any:
    token = csrf_token(client, "/drills/")
    return client.post(f"/drills/sessions/{session_id}/question", json={},
                       headers={"X-CSRFToken": token})


def _answer(app: Flask, session_id: int, position: int, right: bool) -> dict[str, Any]:
    """Return a right (the key's front) or wrong (the kind's own) answer to an issued hand."""
    with app.app_context():
        row = db.session.execute(db.select(IssuedQuestion).filter_by(
            session_id=session_id, position=position)).scalar_one()
        context = drill_service.context_from_json(row.context)
        question = dict(row.question)
        drill = get_drill(question["kind"])
        if right:
            return {"front": drill_service.answer_key(question, context)["front"]}
        typed = drill.read_question(question)
        wrong: dict[str, Any] = drill.answer_json(
            drill.wrong_answer(typed, context, random.Random(position)))
        return wrong


def play(app: Flask, client: FlaskClient, session_id: int, count: int = 99,
         right: Any = lambda position: True) -> list[dict[str, Any]]:
    """Answer up to ``count`` questions of a session as drills.js does; return the replies."""
    replies = []
    for _ in range(count):
        shown = _question(client, session_id).get_json()
        if shown["finished"]:
            break
        position = shown["position"]
        token = csrf_token(client, "/drills/")
        reply = client.post(f"/drills/sessions/{session_id}/answer",
                            json={"position": position,
                                  "answer": _answer(app, session_id, position, right(position))},
                            headers={"X-CSRFToken": token})
        assert reply.status_code == 200, reply.get_data(as_text=True)
        replies.append(reply.get_json())
    return replies


def rules_dealt(app: Flask, session_id: int) -> list[str]:
    """Return the skill of each answered question of a session, in order."""
    with app.app_context():
        return [skill_id(r) for r in db.session.execute(
            db.select(Attempt.rule_id).filter_by(session_id=session_id)
            .order_by(Attempt.position)).scalars()]


def session_of(response: Any) -> int:
    """Return the session a start redirected to."""
    assert response.status_code == 302, response.get_data(as_text=True)
    location = response.headers["Location"]
    assert "/drills/sessions/" in location, location
    return int(location.rsplit("/", 1)[1])


def practise_forms(page: str) -> list[dict[str, str]]:
    """Return the fields of every "Practise this rule" form on a page."""
    found = []
    for _action, body in FORM.findall(page):
        found.append(dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', body)))
    return found


def submit_practise(client: FlaskClient, fields: dict[str, str]) -> Any:
    """Submit a "Practise this rule" form as the browser does (its own CSRF token)."""
    return client.post("/learning/practise", data=fields)


def practised(app: Flask, client: FlaskClient, trainee: Any, answers: int = 12) -> None:
    """Give the trainee memories: a targeted session, a third of its answers wrong."""
    started = post_form(client, f"/learning/{HOUSE_WAY}/targeted")
    session_id = session_of(started)
    play(app, client, session_id, answers, right=lambda p: p % 3 != 0)
    assert rules_dealt(app, session_id)


# --- the trainee's home ----------------------------------------------------------------------


def test_a_trainee_with_memories_sees_each_family_in_words_with_a_bar_and_its_number(
        app: Flask, client: FlaskClient, trainee: Any, short_sessions: int) -> None:
    login(client, trainee)
    practised(app, client, trainee)
    page = client.get("/").get_data(as_text=True)
    with app.app_context(), app.test_request_context():
        known = learning.knowledge(trainee.id, HOUSE_WAY)
        names = {f.family: family_name(f.family) for f in known.families}
    table = section(page, "what-i-know")
    assert known.families and any(f.seen for f in known.families)
    for family in known.families:
        row = re.search(rf'<tr data-family="{re.escape(family.family)}">(.*?)</tr>', table, re.S)
        assert row, family.family
        cells = row.group(1)
        text = visible(cells)
        assert names[family.family] in text            # the family in words
        assert family.family not in text                # never its id
        assert 'class="known-bar"' in cells             # a bar ...
        shown = PERCENT.search(text)                    # ... and the number
        assert shown and int(shown.group(1)) == round(family.known_now * 100), (family, text)
        assert f"{family.seen} of {family.skills}" in text


def test_the_forecast_gives_sessions_and_hands_and_says_how_it_is_worked_out(
        app: Flask, client: FlaskClient, trainee: Any, short_sessions: int) -> None:
    login(client, trainee)
    practised(app, client, trainee)
    page = client.get("/").get_data(as_text=True)
    with app.app_context():
        outcome = learning.forecast(trainee.id, HOUSE_WAY)
    assert outcome is not None and not outcome.forecast.ready
    sentence = visible(section(page, "what-i-know"))
    said = re.search(r"At your pace, ready for the exam in about ([\d,]+) sessions? "
                     r"\(([\d,]+) hands\)", sentence)
    assert said, sentence
    assert int(said.group(1).replace(",", "")) == outcome.forecast.sessions
    assert int(said.group(2).replace(",", "")) == outcome.forecast.hands
    worked = re.search(r'<details class="worked-out">(.*?)</details>', page, re.S)
    assert worked and "How it is worked out" in worked.group(1)
    words = visible(worked.group(1))
    assert f"{outcome.criterion.min_accuracy:g}%" in words
    assert f"{outcome.forecast.reviews:,} more answers" in words
    assert "Practise what I need" in page


def test_practise_what_i_need_starts_targeted_practice(
        app: Flask, client: FlaskClient, trainee: Any, short_sessions: int) -> None:
    login(client, trainee)
    page = client.get("/").get_data(as_text=True)
    action = re.search(r'<form method="post" action="([^"]+)" class="learn-start">', page)
    assert action
    session_id = session_of(post_form(client, action.group(1)))
    assert len(play(app, client, session_id, 3)) == 3
    with app.app_context():
        row = db.session.get(DrillSession, session_id)
        assert row is not None and (row.dealt, row.mode, row.user_id) == (
            "targeted", "practice", trainee.id)


def test_during_a_running_exam_the_home_shows_nothing_that_changed_with_its_answers(
        app: Flask, client: FlaskClient, trainee: Any, supervisor: Any,
        short_sessions: int) -> None:
    login(client, trainee)
    practised(app, client, trainee)

    def shown() -> tuple[str, str]:
        panel = section(client.get("/").get_data(as_text=True), "what-i-know")
        table = panel[panel.index('<table class="table known-table"'):panel.index("</table>")]
        return visible(table), visible(panel[:panel.index("</details>")])

    before = shown()
    with app.app_context():
        exam_id = certification.schedule_exam(short_sessions, trainee.id, HOUSE_WAY,
                                              supervisor.id)
    exam_session = session_of(post_form(client, f"/exams/{exam_id}/start"))
    replies = play(app, client, exam_session, 6, right=lambda p: p % 2 == 0)
    assert len(replies) == 6 and all(r["status"] == "recorded" for r in replies)
    page = client.get("/").get_data(as_text=True)
    assert shown() == before
    # Nothing more is shown, and nothing starts practice while the exam runs.
    assert 'id="practise-what-i-need"' not in page and practise_forms(page) == []
    assert post_form(client, "/learning/practise", {"rule": "one-pair.standard"}).status_code \
        == 423
    assert post_form(client, f"/learning/{HOUSE_WAY}/targeted").status_code == 423


# --- "Practise this rule" -------------------------------------------------------------------


def _rule_session_is_all_that_rule(app: Flask, client: FlaskClient, fields: dict[str, str]) -> None:
    session_id = session_of(submit_practise(client, fields))
    play(app, client, session_id)
    dealt = rules_dealt(app, session_id)
    assert len(dealt) == LENGTH
    assert set(dealt) == {skill_id(fields["rule"])}, dealt


def test_practise_this_rule_from_the_sheet_deals_only_that_rules_hands(
        app: Flask, client: FlaskClient, trainee: Any, short_sessions: int) -> None:
    login(client, trainee)
    page = client.get("/house-way/trump-plaza").get_data(as_text=True)
    forms = practise_forms(page)
    with app.app_context():
        context = drill_service.build(GroupSettings())
        rules = {r.id for r in context.way.rules}
    assert len(forms) >= 10 and {f["rule"] for f in forms} <= rules
    # A rare rule, not the commonest: a session of it is nothing like normal practice.
    wanted = next(f for f in forms if rule_family(f["rule"]) == "trips")
    _rule_session_is_all_that_rule(app, client, wanted)


def test_another_casinos_sheet_offers_no_practice_of_its_rules(
        app: Flask, client: FlaskClient, trainee: Any, short_sessions: int) -> None:
    login(client, trainee)
    page = client.get("/house-way/foxwoods").get_data(as_text=True)
    assert 'id="house-way-sheet"' in page
    assert practise_forms(page) == []


def test_practise_this_rule_from_the_look_up_deals_only_that_rules_hands(
        app: Flask, client: FlaskClient, trainee: Any, short_sessions: int) -> None:
    login(client, trainee)
    page = client.get("/house-way/look-up?cards=8h+8s+3d+3c+Ks+Td+5h").get_data(as_text=True)
    forms = practise_forms(page)
    rule = re.search(r'id="lookup-rule-id" data-rule="([^"]+)"', page)
    assert rule and len(forms) == 1 and forms[0]["rule"] == rule.group(1)
    _rule_session_is_all_that_rule(app, client, forms[0])


def test_practise_this_rule_from_a_practice_answers_feedback_deals_only_that_rules_hands(
        app: Flask, client: FlaskClient, trainee: Any, short_sessions: int) -> None:
    login(client, trainee)
    session_id = session_of(post_form(client, f"/drills/{HOUSE_WAY}/start", {"mode": "practice"}))
    reply = play(app, client, session_id, 1, right=lambda p: False)[0]
    forms = practise_forms(reply["html"])
    assert len(forms) == 1
    assert skill_id(forms[0]["rule"]) == rules_dealt(app, session_id)[0]
    _rule_session_is_all_that_rule(app, client, forms[0])


def test_a_timed_answers_feedback_offers_no_practice_of_a_rule(
        app: Flask, client: FlaskClient, trainee: Any, short_sessions: int) -> None:
    login(client, trainee)
    session_id = session_of(post_form(client, f"/drills/{HOUSE_WAY}/start", {"mode": "timed"}))
    reply = play(app, client, session_id, 1)[0]
    assert "Right answer" in reply["html"] and practise_forms(reply["html"]) == []


@pytest.mark.parametrize("fields, words", [
    ({}, "Choose a rule to practise."),
    ({"rule": "x" * 65}, "Choose a rule to practise."),
    ({"rule": "no-such.rule"}, "That rule is not one your group"),
])
def test_practise_this_rule_refuses_a_missing_or_unknown_rule_with_400_and_why(
        app: Flask, client: FlaskClient, trainee: Any, fields: dict[str, str], words: str) -> None:
    login(client, trainee)
    response = post_form(client, "/learning/practise", fields)
    assert response.status_code == 400
    assert words in html.unescape(response.get_data(as_text=True))
    with app.app_context():
        assert db.session.execute(db.select(Attempt.id)).first() is None


# --- the supervisor: the heat map, forecasts and assignments --------------------------------


@pytest.fixture
def class_of_two(app: Flask, client: FlaskClient, trainee: Any, make_user: Any,
                 short_sessions: int) -> list[Any]:
    """Two trainees of the group with memories of the house-way drill."""
    second = make_user(Role.TRAINEE, login="second", name="Second Trainee", group_id=short_sessions)
    for person in (trainee, second):
        other = app.test_client()
        login(other, person)
        practised(app, other, person, answers=8)
    return [trainee, second]


def test_the_heat_map_shows_each_trainee_by_each_family_with_its_number(
        app: Flask, client: FlaskClient, supervisor: Any, group: int, class_of_two: list[Any]
) -> None:
    login(client, supervisor)
    page = client.get(f"/supervisor/groups/{group}/knowledge").get_data(as_text=True)
    with app.app_context():
        row = db.session.get(Group, group)
        assert row is not None
        heat = learning.group_knowledge(group, HOUSE_WAY, GroupSettings.of(row))
    table = page[page.index('<table class="table heat-map" id="heat-map"'):page.index("</table>")]
    headers = re.findall(r'<th scope="col" class="family-col" data-family="([^"]+)">', table)
    assert headers == list(heat.families)
    assert len(heat.rows) == 2
    for trainee_row in heat.rows:
        row_html = re.search(rf'<tr data-trainee="{trainee_row.trainee_id}">(.*?)</tr>', table, re.S)
        assert row_html, trainee_row.trainee_id
        assert re.search(r'<th scope="row" class="name-col">', row_html.group(1))
        cells = re.findall(r'<td class="heat-cell heat-(\w+)" data-family="([^"]+)"[^>]*>(.*?)</td>',
                           row_html.group(1), re.S)
        assert [c[1] for c in cells] == list(heat.families)
        for (band, _family, text), standing in zip(cells, trainee_row.families, strict=True):
            words = visible(text).strip()
            if standing.seen:
                assert words == f"{round(standing.known_now * 100)}%", (standing, words)
                assert band != "none"
            else:
                assert band == "none" and "not practised" in words
    assert "Second Trainee" in visible(table)


def test_the_trainees_page_shows_their_forecast(
        app: Flask, client: FlaskClient, supervisor: Any, trainee: Any, class_of_two: list[Any]
) -> None:
    login(client, supervisor)
    page = client.get(f"/supervisor/trainees/{trainee.id}").get_data(as_text=True)
    with app.app_context():
        outcome = learning.forecast(trainee.id, HOUSE_WAY)
    assert outcome is not None
    text = visible(section(page, "trainee-forecast"))
    assert (f"At their pace, ready for the exam in about {outcome.forecast.sessions:,} "
            f"session") in text
    assert f"({outcome.forecast.hands:,} hands)" in text


def _targeted_families(app: Flask, client: FlaskClient, questions: int) -> list[str]:
    session_id = session_of(post_form(client, f"/learning/{HOUSE_WAY}/targeted"))
    play(app, client, session_id, questions)
    return [rule_family(r) for r in rules_dealt(app, session_id)]


@pytest.mark.parametrize("to_whom", ["trainee", "group"])
def test_assigning_a_family_changes_what_targeted_practice_deals(
        app: Flask, client: FlaskClient, supervisor: Any, trainee: Any, group: int,
        make_user: Any, short_sessions: int, to_whom: str) -> None:
    # Four of a kind decides about 1 hand in 600: targeted practice brings in the frequent
    # rules first, so a new trainee meets it only by the unbiased fifth's chance.
    family = "quads"
    learner = app.test_client()
    login(learner, trainee)
    before = _targeted_families(app, learner, LENGTH)
    assert before.count(family) <= 1, before
    login(client, supervisor)
    who = "group" if to_whom == "group" else str(trainee.id)
    done = post_form(client, f"/supervisor/groups/{group}/assignments",
                     {"drill": HOUSE_WAY, "who": who, "target": f"family:{family}"})
    assert done.status_code == 302
    with app.app_context():
        made = db.session.execute(db.select(LearningAssignment)).scalar_one()
        assert (made.target_type, made.target, made.kind) == ("family", family, HOUSE_WAY)
        assert made.trainee_id == (None if to_whom == "group" else trainee.id)
        assert made.assigned_by_id == supervisor.id
        assert db.session.execute(db.select(AuditLog).filter_by(
            action="learning.assign")).scalar_one()
    after = _targeted_families(app, learner, LENGTH)
    # Four questions in five are the policy's; each goes to the assigned family first.
    assert after.count(family) >= 4, after
    shown = client.get(f"/supervisor/groups/{group}/knowledge").get_data(as_text=True)
    assert "Four of a kind" in visible(section(shown, "assignments"))


def test_ending_an_assignment_takes_it_out_of_force(
        app: Flask, client: FlaskClient, supervisor: Any, group: int, trainee: Any) -> None:
    login(client, supervisor)
    post_form(client, f"/supervisor/groups/{group}/assignments",
              {"drill": HOUSE_WAY, "who": "group", "target": "family:quads"})
    with app.app_context():
        made = db.session.execute(db.select(LearningAssignment.id)).scalar_one()
    ended = post_form(client, f"/supervisor/groups/{group}/assignments/{made}/end",
                      {"drill": HOUSE_WAY})
    assert ended.status_code == 302
    with app.app_context():
        assert learning.of_group(group) == []


def test_another_groups_supervisor_is_refused_the_heat_map_and_the_assignment(
        app: Flask, client: FlaskClient, make_user: Any, make_group: Any, group: int,
        trainee: Any) -> None:
    other = make_user(Role.SUPERVISOR, login="other-sup")
    make_group(other.id, name="Night shift")
    login(client, other)
    assert client.get(f"/supervisor/groups/{group}/knowledge").status_code == 404
    refused = post_form(client, f"/supervisor/groups/{group}/assignments",
                        {"drill": HOUSE_WAY, "who": "group", "target": "family:quads"})
    assert refused.status_code == 404
    learner = app.test_client()
    login(learner, trainee)
    assert learner.get(f"/supervisor/groups/{group}/knowledge").status_code == 403
    with app.app_context():
        assert db.session.execute(db.select(LearningAssignment.id)).first() is None


@pytest.mark.parametrize("form, words", [
    ({"drill": "no-such-drill", "who": "group", "target": "family:quads"}, "Choose a drill."),
    ({"drill": HOUSE_WAY, "who": "99999", "target": "family:quads"},
     "Choose a trainee of this group, or the whole group."),
    ({"drill": HOUSE_WAY, "who": "<script>", "target": "family:quads"},
     "Choose a trainee of this group, or the whole group."),
    ({"drill": HOUSE_WAY, "who": "group", "target": "quads"},
     "Choose a rule or a rule family to assign."),
    ({"drill": HOUSE_WAY, "who": "group", "target": "family:no-such-family"},
     "That is not a rule of this drill under the group's rules."),
    ({"drill": HOUSE_WAY, "who": "group", "target": "rule:two-pair.no-such-rule"},
     "That is not a rule of this drill under the group's rules."),
])
def test_bad_assignment_input_gets_400_with_its_reason_and_changes_nothing(
        app: Flask, client: FlaskClient, supervisor: Any, group: int, trainee: Any,
        form: dict[str, str], words: str) -> None:
    login(client, supervisor)
    response = post_form(client, f"/supervisor/groups/{group}/assignments", form)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    error = re.search(r'id="assign-error">(.*?)</p>', page, re.S)
    assert error and html.unescape(error.group(1)) == words
    assert "<script>" not in page.split('id="assign-error"')[1][:200]
    with app.app_context():
        assert db.session.execute(db.select(LearningAssignment.id)).first() is None
        assert db.session.execute(db.select(AuditLog).filter_by(
            action="learning.assign")).first() is None
