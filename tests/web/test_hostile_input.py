"""Hostile input at every form and JSON endpoint: never a 500, never a write on a
rejected request, always a readable error.

Failed sign-ins are recorded on purpose (throttling), so ``login_failures`` is the
one table a rejected request may write to.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trainer.engine.drills import DRILLS
from trainer.extensions import db
from trainer.models import Role
from web.helpers import csrf_token, login

HOSTILE = settings(max_examples=40, deadline=None,
                   suppress_health_check=[HealthCheck.function_scoped_fixture])
IGNORED_TABLES = {"login_failures"}

texts = st.one_of(
    st.text(max_size=80),
    st.sampled_from(["", " ", "0", "-1", "1e309", "NaN", "null", "<script>alert(1)</script>",
                     "' OR 1=1 --", "\x00", "A" * 5000, "As Kd", "JK JK", "../../etc/passwd",
                     "=HYPERLINK(\"x\")", "trump-plaza", "nevada", "99999999999999999999"]),
)
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
              texts),
    lambda inner: st.one_of(st.lists(inner, max_size=5),
                            st.dictionaries(texts, inner, max_size=5)),
    max_leaves=15,
)


def _snapshot(app) -> dict[str, int]:
    with app.app_context():
        return {table.name: db.session.execute(db.select(db.func.count()).select_from(table)
                                               ).scalar()
                for table in db.metadata.sorted_tables if table.name not in IGNORED_TABLES}


def _readable(response) -> bool:
    """A rejected request explains itself: JSON with a message, or an HTML page."""
    body = response.get_data(as_text=True)
    if response.is_json:
        data = response.get_json()
        return isinstance(data, dict) and bool(data.get("message") or data.get("error"))
    return "<html" in body.lower() and len(body) > 100


@pytest.fixture
def people(make_user, make_group):
    sup = make_user(Role.SUPERVISOR, login="sup-h")
    group = make_group(sup.id, name="Hostile group")
    trainee = make_user(Role.TRAINEE, login="t-h", group_id=group)
    admin = make_user(Role.ADMIN, login="admin-h")
    return {"supervisor": sup, "trainee": trainee, "admin": admin, "group": group}


FORMS = [
    ("anonymous", "/auth/login", ["login", "password"]),
    ("trainee", "/auth/password", ["current", "new", "confirm"]),
    ("supervisor", "/supervisor/groups/new", ["name", "house_way", "profile"]),
    ("supervisor", "/supervisor/trainees/new", ["name", "login", "password", "confirm",
                                               "group_id"]),
    ("supervisor", "/supervisor/trainees/{trainee}/password", ["password", "confirm"]),
    ("supervisor", "/supervisor/trainees/{trainee}/exams", ["kind"]),
    ("supervisor", "/supervisor/trainees/{trainee}/active", ["active"]),
    ("supervisor", "/supervisor/groups/{group}/edit",
     ["name", "house_way", "profile", "length-house-way", "time-house-way",
      "accuracy-house-way", "window-house-way", "median-house-way", "certify-house-way"]),
    ("admin", "/admin/supervisors/new", ["name", "login", "password", "confirm"]),
    ("admin", "/admin/managers/new", ["name", "login", "password", "confirm"]),
    ("admin", "/admin/users/{trainee}/active", ["active"]),
    ("trainee", "/drills/house-way/start", ["mode", "focus"]),
]


@pytest.mark.parametrize("role, path, fields", FORMS, ids=[f[1] for f in FORMS])
def test_forms_survive_hostile_fields(app, people, role, path, fields):
    client = app.test_client()
    if role != "anonymous":
        login(client, people[role])
    url = path.format(trainee=people["trainee"].id, group=people["group"])
    token = csrf_token(client, "/auth/login" if role == "anonymous" else "/")

    @HOSTILE
    @given(st.dictionaries(st.sampled_from(fields), texts, max_size=len(fields)))
    def check(form):
        before = _snapshot(app)
        response = client.post(url, data={"csrf_token": token, **form})
        assert response.status_code < 500, (url, form)
        if response.status_code not in (302, 303):
            assert _snapshot(app) == before, (url, form)
            assert _readable(response)

    check()


JSON_ENDPOINTS = [
    "/drills/sessions/{session}/answer", "/drills/sessions/{session}/question",
    "/play/deal", "/play/hands/{hand}/done", "/play/rebet",
]


@pytest.mark.parametrize("path", JSON_ENDPOINTS)
def test_json_endpoints_survive_hostile_bodies(app, people, path):
    client = app.test_client()
    login(client, people["trainee"])
    token = csrf_token(client, "/drills/")
    start = client.post("/drills/house-way/start",
                        data={"csrf_token": token, "mode": "timed"})
    session = int(start.headers["Location"].rsplit("/", 1)[1])
    client.post(f"/drills/sessions/{session}/question", json={},
                headers={"X-CSRFToken": token})
    hand = client.post("/play/deal", json={"bet_cents": 500},
                       headers={"X-CSRFToken": token}).get_json()["hand"]["id"]
    url = path.format(session=session, hand=hand)

    @HOSTILE
    @given(st.one_of(json_values.map(json.dumps), st.binary(max_size=200)))
    def check(body):
        before = _snapshot(app)
        response = client.post(url, data=body, content_type="application/json",
                               headers={"X-CSRFToken": token})
        assert response.status_code < 500, (url, body)
        if response.status_code >= 400:
            assert _snapshot(app) == before, (url, body)
            assert _readable(response), (url, body, response.get_data(as_text=True)[:200])

    check()


def test_every_drill_answer_shape_is_safe(app, people):
    client = app.test_client()
    login(client, people["trainee"])
    token = csrf_token(client, "/drills/")
    for kind in sorted(DRILLS):
        start = client.post(f"/drills/{kind}/start",
                            data={"csrf_token": token, "mode": "practice"})
        session = int(start.headers["Location"].rsplit("/", 1)[1])
        position = client.post(f"/drills/sessions/{session}/question", json={},
                               headers={"X-CSRFToken": token}).get_json()["position"]
        _check_hostile_answers(app, client, token, kind, session, position)


def _check_hostile_answers(app, client, token, kind, session, position):
    """Post hostile answers to one question: none may crash or change the database."""
    @HOSTILE
    @given(json_values)
    def check(answer):
        before = _snapshot(app)
        response = client.post(f"/drills/sessions/{session}/answer",
                               json={"position": position, "answer": answer},
                               headers={"X-CSRFToken": token})
        assert response.status_code < 500, (kind, answer)
        if response.status_code >= 400:
            assert _snapshot(app) == before
            assert _readable(response)

    check()


@HOSTILE
@given(texts, st.sampled_from(["", "trump-plaza", "nope", "<b>"]), st.booleans())
def test_look_up_survives_hostile_cards(app, people, cards, preset, compare):
    client = app.test_client()
    login(client, people["trainee"])
    response = client.get("/house-way/look-up",
                          query_string={"cards": cards, "preset": preset,
                                        "compare": "1" if compare else ""})
    assert response.status_code < 500
    assert "<script>alert" not in response.get_data(as_text=True)
