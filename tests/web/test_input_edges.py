"""Input at the edges (issue 24, part 5): bytes no field may hold, TOML past the parser's
limits, and a body of the wrong kind. Each is refused with 400 or 415 and a readable
message, before the CSRF check and the view, and changes nothing.

Findings, each named below:
- ``GET /static/%00`` answered 500 (a NUL reached the file system);
- an import of 25,000 nested ``[`` or a 50,000-digit integer answered 500 (web) or a
  traceback (CLI): tomllib's recursion and Python's int-string limit;
- a ``text/plain`` POST with a valid CSRF header to a group's edit page cleared its
  settings and criteria (an empty form read as "everything blank").
"""
from __future__ import annotations

import io
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.cli import cli
from trainer.engine.house_way import editing, preset_names
from trainer.extensions import db
from trainer.models import CustomHouseWay, GameHand, Group, Role
from web.helpers import csrf_token, login

IMPORT = "/manager/house-ways/import"
DEEP_TOML = "name = " + "[" * 25_000 + "]" * 25_000 + "\n"
HUGE_TOML = "name = " + "1" * 50_000 + "\n"
NOT_ALLOWED = "not allowed"


def _snapshot(app: Flask) -> dict[str, int]:
    """Count the rows of every table."""
    with app.app_context():
        return {table.name: db.session.execute(
                    db.select(db.func.count()).select_from(table)).scalar()
                for table in db.metadata.sorted_tables}


def _page_says(response: Any, words: str) -> bool:
    """An HTML error page (not a bare Werkzeug one) that says ``words``."""
    page = response.get_data(as_text=True)
    return "<html" in page.lower() and 'name="csrf-token"' in page and words in page


@pytest.fixture
def people(make_user: Any, make_group: Any) -> dict[str, Any]:
    sup = make_user(Role.SUPERVISOR, login="sup-e")
    group = make_group(sup.id, name="Edges group")
    trainee = make_user(Role.TRAINEE, login="t-e", group_id=group)
    manager = make_user(Role.MANAGER, login="mgr-e")
    return {"supervisor": sup, "trainee": trainee, "manager": manager, "group": group}


def _signed_in(app: Flask, account: Any) -> tuple[FlaskClient, str]:
    client = app.test_client()
    login(client, account)
    return client, csrf_token(client, "/")


# --- NUL and other bytes no path, query or field may hold ---------------------------------------

BAD_PATHS = [
    "/static/%00", "/static/css/app%00.css", "/drills/%00", "/house-way/%00", "/%00",
    "/drills/%01", "/drills/%0a", "/house-way/%ff", "/drills/%c3%28",
    "/house-way/%ed%a0%80",  # a lone surrogate (U+D800) written as UTF-8 bytes
]


@pytest.mark.parametrize("path", BAD_PATHS)
def test_static_nul_and_other_bad_bytes_in_a_path_answer_400_with_a_page(app, people, path):
    for client in (app.test_client(), _signed_in(app, people["trainee"])[0]):
        response = client.get(path)
        assert response.status_code == 400, (path, response.status_code)
        assert _page_says(response, "The page address holds a character that is " + NOT_ALLOWED)


def test_bad_bytes_in_the_path_of_a_json_endpoint_answer_json(app, people):
    client, token = _signed_in(app, people["trainee"])
    response = client.post("/play/deal%00", json={"bet_cents": 500},
                           headers={"X-CSRFToken": token, "Accept": "application/json"})
    assert response.status_code == 400
    assert NOT_ALLOWED in response.get_json()["message"]


@pytest.mark.parametrize("query", ["cards=%00", "cards=As%01Kd", "cards=%ff", "x%00=1",
                                   "cards=%ed%a0%80", "cards=%7f"])
def test_nul_and_other_bad_bytes_in_a_query_answer_400(app, people, query):
    client, _token = _signed_in(app, people["trainee"])
    response = client.get(f"/house-way/look-up?{query}")
    assert response.status_code == 400, query
    assert _page_says(response, "query holds a character that is " + NOT_ALLOWED)


def test_good_paths_and_queries_still_answer(app, people):
    client, _token = _signed_in(app, people["trainee"])
    assert client.get("/static/css/app.css").status_code == 200
    # Text with tab, CR and LF, and non-ASCII letters, is text.
    response = client.get("/house-way/look-up?cards=As%09Kd%0D%0AQh+Jc+Tc+9s+2d&note=%C3%A9t%C3%A9")
    assert response.status_code == 200


def _group_row(app: Flask, group_id: int) -> tuple[Any, ...]:
    with app.app_context():
        group = db.session.get(Group, group_id)
        assert group is not None
        return group.name, group.house_way, group.profile, group.settings


SETTINGS = {"drills": {"house-way": {"length": 7, "time_limit_s": 20}},
            "certification": {"criteria": [{"kind": "house-way", "min_accuracy": 97.5,
                                            "window": 60}]}}


@pytest.fixture
def set_group(app: Flask, people: dict[str, Any]) -> int:
    """The supervisor's group with a house way, a profile, drill lengths and criteria."""
    with app.app_context():
        group = db.session.get(Group, people["group"])
        assert group is not None
        group.house_way, group.settings = "foxwoods", SETTINGS
        db.session.commit()
    return int(people["group"])


@pytest.mark.parametrize("bad", ["Day\x00shift", "Day\x01shift", "Day\x1bshift", "Day\x7fshift"])
def test_nul_in_a_form_field_answers_400_and_changes_nothing(app, people, set_group, bad):
    client, token = _signed_in(app, people["supervisor"])
    before, rows = _group_row(app, set_group), _snapshot(app)
    response = client.post(f"/supervisor/groups/{set_group}/edit", data={
        "csrf_token": token, "name": bad, "house_way": "trump-plaza", "profile": "nevada"})
    assert response.status_code == 400, repr(bad)
    assert _page_says(response, "A form field holds a character that is " + NOT_ALLOWED)
    assert _group_row(app, set_group) == before
    assert _snapshot(app) == rows


@pytest.mark.parametrize("raw", [b"Day%FFshift", b"Day%C3%28shift", b"Day%ED%A0%80shift",
                                 b"Day\xffshift", b"Day%00shift"])
def test_bytes_that_are_not_utf8_in_a_form_field_answer_400_and_change_nothing(
        app, people, set_group, raw):
    client, token = _signed_in(app, people["supervisor"])
    before = _group_row(app, set_group)
    body = b"csrf_token=" + token.encode() + b"&house_way=trump-plaza&profile=nevada&name=" + raw
    response = client.post(f"/supervisor/groups/{set_group}/edit", data=body,
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400, raw
    assert _group_row(app, set_group) == before


def test_nul_in_a_multipart_form_field_answers_400_and_stores_nothing(app, people):
    client, token = _signed_in(app, people["manager"])
    exported = editing.to_toml(editing.preset_data("foxwoods"))
    before = _snapshot(app)
    response = client.post(IMPORT, data={
        "csrf_token": token, "file": (io.BytesIO(exported.encode()), "way.toml"),
        "slug": "nul-sands", "casino": "Nul\x00Sands, Reno"}, content_type="multipart/form-data")
    assert response.status_code == 400
    assert _page_says(response, "A form field holds a character that is " + NOT_ALLOWED)
    assert _snapshot(app) == before


def test_tab_and_new_lines_in_a_form_field_are_text(app, people, set_group):
    client, token = _signed_in(app, people["supervisor"])
    response = client.post(f"/supervisor/groups/{set_group}/edit", data={
        "csrf_token": token, "name": "Night\tshift\r\n été", "house_way": "trump-plaza",
        "profile": "nevada"})
    assert response.status_code != 400


# --- TOML past the parser's limits: refused in words before parsing ------------------------------


def _import(client: FlaskClient, token: str, text: str, slug: str = "edge-sands") -> Any:
    return client.post(IMPORT, data={
        "csrf_token": token, "file": (io.BytesIO(text.encode()), "way.toml"), "slug": slug,
        "casino": "Edge Sands, Reno"}, content_type="multipart/form-data")


@pytest.mark.parametrize("text, words", [
    (DEEP_TOML, "Line 1 nests more than 10 levels deep."),
    (HUGE_TOML, "Line 1 holds a number longer than 20 characters."),
    ("[" + ".".join(["a"] * 20_000) + "]\n", "Line 1 nests more than 10 levels deep."),
    ("name = -0x" + "f" * 30_000 + "\n", "Line 1 holds a number longer than 20 characters."),
], ids=["deep", "huge", "dotted", "hex"])
def test_deep_and_huge_toml_import_is_refused_in_words_on_the_web(app, people, text, words):
    client, token = _signed_in(app, people["manager"])
    before = _snapshot(app)
    response = _import(client, token, text)
    assert response.status_code == 200
    assert words in response.get_data(as_text=True)
    assert _snapshot(app) == before
    with app.app_context():
        assert db.session.query(CustomHouseWay).count() == 0


def test_an_exported_preset_still_imports(app, people):
    client, token = _signed_in(app, people["manager"])
    exported = editing.to_toml(editing.preset_data("foxwoods"))
    response = _import(client, token, exported, slug="fox-copy")
    assert response.status_code == 302, response.get_data(as_text=True)[-800:]
    with app.app_context():
        assert db.session.query(CustomHouseWay).count() == 1


@pytest.mark.parametrize("text, words", [
    (DEEP_TOML, "Line 1 nests more than 10 levels deep."),
    (HUGE_TOML, "Line 1 holds a number longer than 20 characters."),
    ("# " + "x" * (256 * 1024 + 10) + "\n", "the file is larger than 256 KB."),
], ids=["deep", "huge", "large"])
@pytest.mark.parametrize("command", [["verify"], ["simulate", "--hands", "10"]])
def test_deep_and_huge_toml_import_is_refused_in_words_by_the_cli(tmp_path: Path, text, words,
                                                                  command):
    path = tmp_path / "way.toml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["house-way", *command, "--file", str(path)])
    assert result.exit_code == 2, (result.output, result.exception)
    assert words in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("name", preset_names())
def test_every_preset_file_is_within_the_toml_limits(name):
    from trainer.engine import toml_limits

    text = editing.to_toml(editing.preset_data(name))
    assert toml_limits.check(text) is None
    shipped = resources.files("trainer.engine.house_way").joinpath(
        "presets", f"{name}.toml").read_text(encoding="utf-8")
    assert toml_limits.check(shipped) is None


@pytest.mark.parametrize("text", [
    'a = "' + "[" * 50 + '"\n', "a = '" + "{" * 50 + "'\n", 'a = """\n' + "[" * 50 + '\n"""\n',
    "a = '''" + "[" * 50 + "'''\n", "# " + "[" * 50 + "\n", 'a = "' + "9" * 50 + '"\n',
    "a = [[1, 2], [3, [4]]]\nb = 1979-05-27T07:32:00Z\nc = -1.5e-300\n[x.y]\nz.w = 2\n",
])
def test_brackets_and_digits_inside_strings_and_comments_do_not_count(text):
    from trainer.engine import toml_limits

    assert toml_limits.check(text) is None


TOML_PIECES = st.one_of(
    st.sampled_from(["[", "]", "{", "}", "=", ".", ",", "\n", '"', "'", '"""', "'''", "#",
                     "\\", " ", "a", "-", "+", "0x", "1e5", "name", "[[", "]]"]),
    st.integers(0, 6000).map(lambda n: "9" * n),   # past Python's 4,300 digits
    st.integers(0, 3000).map(lambda n: "[" * n),   # past the recursion limit
)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["", "name = ", "x = [", "[t]\nk = { a = ", "n = -"]),
       st.lists(TOML_PIECES, max_size=60))
def test_any_text_is_read_or_refused_in_words_never_a_crash(start, pieces):
    try:
        editing.from_toml(start + "".join(pieces))
    except editing.EditError as error:
        assert error.errors and all(e.message for e in error.errors)


def test_a_toml_bomb_after_a_closed_string_still_counts():
    from trainer.engine import toml_limits

    assert toml_limits.check('a = """x""""\nb = ' + "[" * 30 + "]" * 30) is not None
    assert toml_limits.check('a = "unclosed\nb = ' + "[" * 30 + "]" * 30) is not None


# --- a body of the wrong kind ---------------------------------------------------------------------


def test_a_text_plain_post_to_a_group_edit_page_changes_nothing(app, people, set_group):
    client, token = _signed_in(app, people["supervisor"])
    before, rows = _group_row(app, set_group), _snapshot(app)
    response = client.post(f"/supervisor/groups/{set_group}/edit", data="name=Emptied",
                           content_type="text/plain", headers={"X-CSRFToken": token})
    assert response.status_code == 415
    assert _page_says(response, "This address takes a form")
    assert _group_row(app, set_group) == before
    assert _snapshot(app) == rows
    # No body and no type at all is refused the same way.
    response = client.post(f"/supervisor/groups/{set_group}/edit",
                           headers={"X-CSRFToken": token})
    assert response.status_code == 415
    assert _group_row(app, set_group) == before


@pytest.mark.parametrize("body, kind", [
    ("", "application/x-www-form-urlencoded"), ("--x--\r\n", "multipart/form-data; boundary=x"),
    ("garbage", "multipart/form-data"), ("junk\r\n", "multipart/form-data; boundary=zz"),
], ids=["empty", "no-parts", "no-boundary", "unreadable"])
def test_an_empty_or_unreadable_form_to_a_group_edit_page_changes_nothing(
        app, people, set_group, body, kind):
    client, token = _signed_in(app, people["supervisor"])
    before = _group_row(app, set_group)
    response = client.post(f"/supervisor/groups/{set_group}/edit", data=body, content_type=kind,
                           headers={"X-CSRFToken": token})
    assert response.status_code == 400
    assert _page_says(response, "The form arrived empty or could not be read.")
    assert _group_row(app, set_group) == before


def test_a_body_of_the_wrong_kind_without_a_token_is_told_about_the_token_first(
        app, people, set_group):
    client, _token = _signed_in(app, people["supervisor"])
    before = _group_row(app, set_group)
    response = client.post(f"/supervisor/groups/{set_group}/edit", data="name=Emptied",
                           content_type="text/plain")
    assert response.status_code == 400
    assert _page_says(response, "This form has expired")
    assert _group_row(app, set_group) == before


def test_sign_out_by_script_needs_no_body(app, people):
    client, token = _signed_in(app, people["trainee"])
    response = client.post("/auth/logout", headers={"X-CSRFToken": token})
    assert response.status_code == 302
    assert client.get("/").headers["Location"].startswith("/auth/login")


@pytest.mark.parametrize("kind", ["application/x-www-form-urlencoded", "multipart/form-data",
                                  "text/plain"])
def test_a_json_endpoint_receiving_form_data_changes_nothing(app, people, kind):
    client, token = _signed_in(app, people["trainee"])
    before = _snapshot(app)
    response = client.post("/play/deal", data={"bet_cents": "500"}, content_type=kind,
                           headers={"X-CSRFToken": token})
    assert response.status_code == 415
    assert "This address takes a JSON request" in response.get_json()["message"]
    assert _snapshot(app) == before
    with app.app_context():
        assert db.session.query(GameHand).count() == 0


_PART = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")


@pytest.mark.parametrize("role", ["supervisor", "manager", "trainee"])
def test_every_post_refuses_a_body_of_the_wrong_kind(app, people, role):
    from trainer.web.platform.limits import JSON_ENDPOINTS

    client, token = _signed_in(app, people[role])
    before = _snapshot(app)
    failures = []
    for rule in app.url_map.iter_rules():
        if "POST" not in rule.methods or rule.endpoint == "static":
            continue
        path = _PART.sub(lambda m: "1" if m.group(1) == "id" else "x", rule.rule)
        json_endpoint = rule.endpoint in JSON_ENDPOINTS
        wrong = ({"data": {"csrf_token": token}} if json_endpoint
                 else {"data": '{"name": "x"}', "content_type": "application/json"})
        for body in (wrong, {"data": "a=b", "content_type": "text/plain"}):
            response = client.post(path, headers={"X-CSRFToken": token}, **body)
            if response.status_code != 415:
                failures.append((rule.endpoint, response.status_code))
    assert not failures
    assert _snapshot(app) == before


def test_json_endpoints_named_in_the_list_exist(app):
    from trainer.web.platform.limits import JSON_ENDPOINTS

    posts = {rule.endpoint for rule in app.url_map.iter_rules() if "POST" in rule.methods}
    assert posts >= JSON_ENDPOINTS


# --- CSRF still checked; uploads still work ------------------------------------------------------


def test_the_csrf_check_still_runs_for_a_body_of_the_right_kind(app, people, set_group):
    client, _token = _signed_in(app, people["supervisor"])
    before = _group_row(app, set_group)
    response = client.post(f"/supervisor/groups/{set_group}/edit", data={"name": "No token"})
    assert response.status_code == 400
    assert _page_says(response, "This form has expired")
    trainee, _token = _signed_in(app, people["trainee"])
    response = trainee.post("/play/deal", json={"bet_cents": 500})
    assert response.status_code == 400
    assert response.get_json()["error"] == "This form has expired"
    assert _group_row(app, set_group) == before


def test_a_json_request_with_its_token_still_reaches_its_endpoint(app, people):
    client, token = _signed_in(app, people["trainee"])
    response = client.post("/play/deal", json={"bet_cents": 500}, headers={"X-CSRFToken": token})
    assert response.status_code == 200
    assert response.get_json()["hand"] is not None
