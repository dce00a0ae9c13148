"""Limits on a request: body size (413), JSON depth and size (400), ids out of range (404).

Every id column is a 32-bit ``integer`` on PostgreSQL (2**31 - 1 at most); a larger
number names no row and must answer 404 before any query, on both databases.
"""
from __future__ import annotations

import json
import re
from typing import Any

import pytest

from trainer.extensions import db
from trainer.models import Role
from trainer.models.types import ID_MAX, bounded_int, parse_id
from trainer.web.platform.limits import JSON_MAX_DEPTH, JSON_MAX_ITEMS, IdConverter
from web.helpers import csrf_token, login

HUGE_IDS = [2**31, 2**40, 2**63, 2**70]
FIVE_MB = 5 * 1024 * 1024


@pytest.fixture
def people(make_user, make_group) -> dict[str, Any]:
    sup = make_user(Role.SUPERVISOR, login="sup-l")
    group = make_group(sup.id, name="Limits group")
    trainee = make_user(Role.TRAINEE, login="t-l", group_id=group)
    admin = make_user(Role.ADMIN, login="admin-l")
    return {"supervisor": sup, "trainee": trainee, "admin": admin, "group": group}


def _signed_in(app, account) -> tuple[Any, str]:
    client = app.test_client()
    login(client, account)
    return client, csrf_token(client, "/")


def _snapshot(app) -> dict[str, int]:
    """Count the rows of every table (failed sign-ins are not made here)."""
    with app.app_context():
        return {table.name: db.session.execute(
                    db.select(db.func.count()).select_from(table)).scalar()
                for table in db.metadata.sorted_tables}


def _timed_session(client, token) -> tuple[int, int]:
    """Start a timed house-way session, issue its first question; return (session, position)."""
    start = client.post("/drills/house-way/start", data={"csrf_token": token, "mode": "timed"})
    session = int(start.headers["Location"].rsplit("/", 1)[1])
    question = client.post(f"/drills/sessions/{session}/question", json={},
                           headers={"X-CSRFToken": token}).get_json()
    return session, question["position"]


# --- body size -----------------------------------------------------------------------------


def test_a_5_mb_json_body_is_refused_with_413_and_a_message(app, people):
    client, token = _signed_in(app, people["trainee"])
    session, position = _timed_session(client, token)
    before = _snapshot(app)
    body = json.dumps({"position": position, "answer": {"front": ["As", "Kd"]},
                       "padding": "x" * FIVE_MB})
    response = client.post(f"/drills/sessions/{session}/answer", data=body,
                           content_type="application/json", headers={"X-CSRFToken": token})
    assert response.status_code == 413
    assert "KiB" in response.get_json()["message"]
    assert _snapshot(app) == before


def test_a_5_mb_form_is_refused_with_a_readable_413_page(app, people):
    client, token = _signed_in(app, people["supervisor"])
    before = _snapshot(app)
    response = client.post("/supervisor/trainees/new", data={
        "csrf_token": token, "name": "N" * FIVE_MB, "login": "big", "password": "long-enough-pw",
        "confirm": "long-enough-pw", "group_id": str(people["group"])})
    assert response.status_code == 413
    page = response.get_data(as_text=True)
    assert "<html" in page and "Request too large" in page and "64 KiB" in page
    assert _snapshot(app) == before


def test_a_body_just_over_64_kib_is_refused_before_the_csrf_check(app, people):
    client = app.test_client()
    response = client.post("/auth/login", data={"login": "x" * (64 * 1024), "password": "y"})
    assert response.status_code == 413


# --- JSON shape ----------------------------------------------------------------------------


def _nested(depth: int) -> str:
    """Write ``depth`` nested arrays as JSON text (json.dumps would recurse too deep)."""
    return "[" * depth + '"leaf"' + "]" * depth


@pytest.mark.parametrize("depth", [JSON_MAX_DEPTH + 1, 5_000])
def test_json_nested_deeper_than_the_limit_is_refused_with_400(app, people, depth):
    client, token = _signed_in(app, people["trainee"])
    session, position = _timed_session(client, token)
    before = _snapshot(app)
    # The answer object is two levels deep already: {"answer": {"front": [...]}}.
    body = f'{{"position": {position}, "answer": {{"front": {_nested(depth)}}}}}'
    for url in (f"/drills/sessions/{session}/answer", "/play/deal"):
        response = client.post(url, data=body, content_type="application/json",
                               headers={"X-CSRFToken": token})
        assert response.status_code == 400, url
        assert f"more than {JSON_MAX_DEPTH} levels" in response.get_json()["message"], url
    assert _snapshot(app) == before


def test_json_with_more_values_than_the_limit_is_refused_with_400(app, people):
    client, token = _signed_in(app, people["trainee"])
    session, position = _timed_session(client, token)
    before = _snapshot(app)
    body = {"position": position, "answer": {"front": ["As"] * (JSON_MAX_ITEMS + 1)}}
    response = client.post(f"/drills/sessions/{session}/answer", json=body,
                           headers={"X-CSRFToken": token})
    assert response.status_code == 400
    assert f"more than {JSON_MAX_ITEMS} values" in response.get_json()["message"]
    assert _snapshot(app) == before


def test_json_within_the_limits_still_reaches_the_endpoint(app, people):
    client, token = _signed_in(app, people["trainee"])
    response = client.post("/play/deal", json={"bet_cents": 500},
                           headers={"X-CSRFToken": token})
    assert response.status_code == 200
    assert response.get_json()["hand"] is not None


def test_brackets_inside_json_strings_do_not_count_as_nesting(app, people):
    client, token = _signed_in(app, people["trainee"])
    response = client.post("/play/deal", data=json.dumps({"bet_cents": 500, "note": "[[[[" * 50}),
                           content_type="application/json", headers={"X-CSRFToken": token})
    assert response.status_code == 200


# --- ids out of range ----------------------------------------------------------------------


_PART = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")
NUMBER_CONVERTERS = ("int", "id")


def _id_rules(app) -> list[Any]:
    """Return every rule with a number in its path (an ``int`` or ``id`` part)."""
    return [rule for rule in app.url_map.iter_rules()
            if any(conv in NUMBER_CONVERTERS for conv, _name in _PART.findall(rule.rule))]


def _with_ids(rule: Any, value: int) -> str:
    """Write a rule's path with ``value`` for every number part ("x" for any other)."""
    return _PART.sub(lambda m: str(value) if m.group(1) in NUMBER_CONVERTERS else "x", rule.rule)


def test_every_integer_route_part_is_a_bounded_id(app):
    rules = _id_rules(app)
    assert len(rules) >= 15
    assert app.url_map.converters["id"] is IdConverter
    loose = [rule.rule for rule in rules
             if any(conv == "int" for conv, _name in _PART.findall(rule.rule))]
    assert not loose, f"use <id:...> for these: {loose}"


@pytest.mark.parametrize("role", ["trainee", "supervisor", "admin"])
def test_every_route_answers_404_for_an_id_out_of_range(app, people, role):
    client, token = _signed_in(app, people[role])
    before = _snapshot(app)
    failures = []
    for rule in _id_rules(app):
        # ID_MAX fits the column but names no row: 404 from the view, not the converter.
        for value in [ID_MAX, *HUGE_IDS]:
            path = _with_ids(rule, value)
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                response = client.open(path, method=method, data={"csrf_token": token},
                                       headers={"X-CSRFToken": token})
                # An id in range may be refused first for another reason (403, 400).
                wrong = (response.status_code != 404 if value > ID_MAX
                         else response.status_code >= 500)
                if wrong:
                    failures.append((method, path, response.status_code))
    assert not failures
    assert _snapshot(app) == before


def test_ids_in_query_strings_forms_and_json_bodies_never_reach_a_query(app, people):
    supervisor, sup_token = _signed_in(app, people["supervisor"])
    admin, _admin_token = _signed_in(app, people["admin"])
    trainee, token = _signed_in(app, people["trainee"])
    session, _position = _timed_session(trainee, token)
    group = people["group"]
    for huge in HUGE_IDS:
        export = supervisor.get(f"/supervisor/groups/{group}/export/attempts.csv?trainee={huge}")
        assert export.status_code == 404, huge
        assert admin.get(f"/admin/audit?page={huge}").status_code == 200, huge
        new = supervisor.post("/supervisor/trainees/new", data={
            "csrf_token": sup_token, "name": "N", "login": f"n{huge}", "password": "long-enough-pw",
            "confirm": "long-enough-pw", "group_id": str(huge)})
        assert new.status_code == 200, huge
        answer = trainee.post(f"/drills/sessions/{session}/answer",
                              json={"position": huge, "answer": {"front": ["As", "Kd"]}},
                              headers={"X-CSRFToken": token})
        assert answer.status_code == 404, huge
        assert answer.get_json()["message"]


@pytest.mark.parametrize("value, expected", [
    (1, 1), ("42", 42), (ID_MAX, ID_MAX), (str(ID_MAX), ID_MAX), (0, None), (-1, None),
    (2**31, None), (str(2**70), None), ("1" * 100_000, None), ("12a", None), ("", None),
    (True, None), (1.0, None), (None, None), ("\u0661", None),
])
def test_parse_id_accepts_only_ids_the_column_can_hold(value, expected):
    assert parse_id(value) == expected


def test_bounded_int_keeps_to_its_range():
    assert bounded_int("7", 1, 10) == 7
    assert bounded_int("11", 1, 10) is None
    assert bounded_int(" 3 ", 1, 10) == 3
