"""Every route of the app against every role: the expected status, nothing more.

A route added to the app without a row here fails ``test_every_route_is_in_the_matrix``.
Roles: anonymous; the trainee who owns the records; another trainee of the same
group; the supervisor of another group; the trainee's supervisor; a table-games
manager (every group's dashboards, read-only); an admin.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest

from trainer.extensions import db
from trainer.models import Attempt, CertificationExam, DrillSession, Role
from trainer.services.certification import exams as certification
from web.helpers import csrf_token, login, post_form

ROLES = ("anonymous", "trainee", "other_trainee", "other_supervisor", "supervisor", "manager",
         "admin")
LOGIN = "login"   # a redirect to the sign-in page


@dataclass(frozen=True)
class Case:
    """How to call a route and what each role gets."""

    method: str
    path: str
    expect: dict[str, Any]
    data: dict[str, Any] | None = None
    json: Any = None


def every(status: Any, anonymous: Any = LOGIN, **overrides: Any) -> dict[str, Any]:
    """Return an expectation for all roles, anonymous sent to sign in unless said."""
    table = dict.fromkeys(ROLES, status)
    table["anonymous"] = anonymous
    table.update(overrides)
    return table


def staff_only(status: Any = 200, other_supervisor: Any = None) -> dict[str, Any]:
    """Supervisor pages: 403 for trainees, the status for staff (a manager reads them)."""
    return every(status, trainee=403, other_trainee=403,
                 other_supervisor=status if other_supervisor is None else other_supervisor)


def staff_changes(status: Any = 200, other_supervisor: Any = None) -> dict[str, Any]:
    """Supervisor pages that change something: closed to managers too (403)."""
    return staff_only(status, other_supervisor) | {"manager": 403}


def matrix(w: dict[str, int]) -> dict[str, Case]:
    """Build the matrix for the ids of this test's world."""
    s, a, e, g, t, h = (w["session"], w["attempt"], w["exam"], w["group"], w["trainee"],
                        w["hand"])
    own_only = every(404, trainee=200)
    return {
        "health.healthz": Case("GET", "/healthz", every(200, anonymous=200)),
        "static": Case("GET", "/static/css/app.css", every(200, anonymous=200)),
        "auth.login": Case("GET", "/auth/login", every(302, anonymous=200)),
        "auth.logout": Case("POST", "/auth/logout", every(302, anonymous=302)),
        "auth.change_password": Case("GET", "/auth/password", every(200)),
        "auth.account": Case("GET", "/auth/account", every(200)),
        # A language the trainer does not speak: the form again, nothing changed (issue 19).
        "auth.account_language": Case("POST", "/auth/account/language", every(200),
                                      data={"language": "xx"}),
        "main.index": Case("GET", "/", every(200)),
        "main.my_results": Case("GET", "/results", every(403, trainee=200,
                                                         other_trainee=200)),
        "main.show_attempt": Case("GET", f"/results/{a}", own_only),
        "drills.index": Case("GET", "/drills/", every(200)),
        "drills.start": Case("POST", "/drills/house-way/start", every(302),
                             data={"mode": "practice"}),
        "drills.play": Case("GET", f"/drills/sessions/{s}", own_only),
        "drills.question": Case("POST", f"/drills/sessions/{s}/question", own_only,
                                json={}),
        "drills.answer": Case("POST", f"/drills/sessions/{s}/answer",
                              every(404, trainee=400), json={"position": 2, "answer": {}}),
        "drills.show_summary": Case("GET", f"/drills/sessions/{s}/summary", own_only),
        "exams.show_exam": Case("GET", f"/exams/{e}", every(403, trainee=200,
                                                            other_trainee=404)),
        "exams.start_exam": Case("POST", f"/exams/{e}/start",
                                 every(403, trainee=302, other_trainee=404)),
        # A practice session of what the user needs, or of one rule (issue 30): anyone's own.
        "learning.start_targeted": Case("POST", "/learning/house-way/targeted", every(302)),
        "learning.practise_rule": Case("POST", "/learning/practise", every(400),
                                       data={"rule": "no-such.rule"}),
        "play.table": Case("GET", "/play/", every(200)),
        "play.state": Case("GET", "/play/state", every(200)),
        "play.new_game": Case("POST", "/play/new", every(302)),  # a form (415 to JSON)
        "play.deal": Case("POST", "/play/deal", every(400), json={"bet_cents": "x"}),
        "play.rebet": Case("POST", "/play/rebet", every(400, trainee=409), json={}),
        "play.done": Case("POST", f"/play/hands/{h}/done", every(404, trainee=400),
                          json={"front": []}),
        "play.house_way": Case("POST", f"/play/hands/{h}/house-way",
                               every(404, trainee=200), json={}),
        "reference.house_way_index": Case("GET", "/house-way", every(302)),
        "reference.sheet": Case("GET", "/house-way/trump-plaza", every(200)),
        "reference.sheet_pdf": Case("GET", "/house-way/no-such-casino/pdf", every(404)),
        "reference.commission_chart_page": Case("GET", "/commission-chart", every(200)),
        "reference.look_up": Case("GET", "/house-way/look-up?cards=As+Kd", every(200)),
        "supervisor.groups": Case("GET", "/supervisor/",   # supervisors: their home page
                                  staff_only(302) | {"manager": 200, "admin": 200}),
        "supervisor.new_group": Case("GET", "/supervisor/groups/new", staff_changes()),
        "supervisor.show_group": Case("GET", f"/supervisor/groups/{g}",
                                      staff_only(other_supervisor=404)),
        # The class by house-way rule (issue 27): read-only, the group's staff.
        "supervisor.group_rules": Case("GET", f"/supervisor/groups/{g}/rules",
                                       staff_only(other_supervisor=404)),
        # Practice that adapts (issue 30): the class heat map (read-only for a manager) and
        # the assignments (the group's staff; a bad form answers 400 and changes nothing).
        "supervisor.group_knowledge": Case("GET", f"/supervisor/groups/{g}/knowledge",
                                           staff_only(other_supervisor=404)),
        "supervisor.assign": Case("POST", f"/supervisor/groups/{g}/assignments",
                                  staff_changes(400, other_supervisor=404),
                                  data={"drill": "house-way", "who": "group",
                                        "target": "family:no-such-family"}),
        "supervisor.end_assignment": Case("POST", f"/supervisor/groups/{g}/assignments/4242/end",
                                          staff_changes(400, other_supervisor=404), data={}),
        "supervisor.edit_group": Case("GET", f"/supervisor/groups/{g}/edit",
                                      staff_changes(other_supervisor=404)),
        "supervisor.export_attempts": Case(
            "GET", f"/supervisor/groups/{g}/export/attempts.csv",
            staff_only(other_supervisor=404)),
        "supervisor.export_summary": Case(
            "GET", f"/supervisor/groups/{g}/export/summary.csv",
            staff_only(other_supervisor=404)),
        "supervisor.new_trainee": Case("GET", "/supervisor/trainees/new",
                                       staff_changes(other_supervisor=200, status=200)
                                       | {"admin": 302}),
        "supervisor.show_trainee": Case("GET", f"/supervisor/trainees/{t}",
                                        staff_only(other_supervisor=404)),
        "supervisor.trainee_report": Case("GET", f"/supervisor/trainees/{t}/report",
                                          staff_only(other_supervisor=404)),
        "supervisor.reset_password": Case("GET", f"/supervisor/trainees/{t}/password",
                                          staff_changes(other_supervisor=404)),
        "supervisor.set_trainee_active": Case(
            "POST", f"/supervisor/trainees/{t}/active", staff_changes(400, other_supervisor=404),
            data={"active": "neither"}),
        "supervisor.schedule_exam": Case("POST", f"/supervisor/trainees/{t}/exams",
                                         staff_changes(302, other_supervisor=404),
                                         data={"kind": "no-such-drill"}),
        "supervisor.replay_attempt": Case("GET", f"/supervisor/attempts/{a}/replay",
                                          staff_only(other_supervisor=404)),
        "admin.users": Case("GET", "/admin/users", every(403, admin=200)),
        "admin.new_supervisor": Case("GET", "/admin/supervisors/new", every(403, admin=200)),
        "admin.new_manager": Case("GET", "/admin/managers/new", every(403, admin=200)),
        "admin.set_active": Case("POST", f"/admin/users/{t}/active", every(403, admin=400),
                                 data={"active": "neither"}),
        "admin.audit_log": Case("GET", "/admin/audit", every(403, admin=200)),
        "admin.settings": Case("GET", "/admin/settings", every(403, admin=200)),
        "admin.settings_language": Case("POST", "/admin/settings/language", every(403, admin=200),
                                        data={"language": "", "currency": "XYZ",
                                              "card_letters": "international"}),
        "admin.reset_password": Case("GET", f"/admin/users/{t}/password", every(403, admin=200)),
        "manager.house_ways": Case("GET", "/manager/house-ways",
                                   every(403, manager=200, admin=200)),
        # Table rules by form (issue 18): managers and admins; nobody else, not even to read.
        "manager.profiles": Case("GET", "/manager/profiles", every(403, manager=200, admin=200)),
        "manager.new_profile": Case("GET", "/manager/profiles/new",
                                    every(403, manager=200, admin=200)),
        "manager.edit_profile": Case("GET", "/manager/profiles/custom-none/edit",
                                     every(403, manager=404, admin=404)),
        "manager.offer_profile": Case("POST", "/manager/profiles/california/offer",
                                      every(403, manager=302, admin=302), data={"offer": "1"}),
        # The house-way editor (issue 18): managers and admins; this world has no custom
        # way and no job, so theirs are 404 (a missing draft), everyone else's 403.
        # Classroom mode (issue 31): the group's supervisor, or a manager or an admin for any
        # group, runs a class; the group's trainees join it. Class 4242 does not exist.
        "classroom.group_class": Case("GET", f"/class/groups/{g}", instructs(200)),
        "classroom.start": Case("POST", f"/class/groups/{g}/start", instructs(302), data={}),
        **{f"classroom.{endpoint}": Case(method, f"/class/4242{path}", instructs(404), json=body)
           for endpoint, method, path, body in (
               ("projector", "GET", "", None), ("live_state", "GET", "/live", None),
               ("summary", "GET", "/summary", None), ("summary_csv", "GET", "/summary.csv", None),
               ("deal", "POST", "/deal", {"kind": "x"}), ("next_hand", "POST", "/next", {}),
               ("lock", "POST", "/lock", {}), ("reveal", "POST", "/reveal", {}),
               ("timer", "POST", "/timer", {"seconds": 0}))},
        "classroom.end": Case("POST", "/class/4242/end", instructs(404), data={}),
        "classroom.offer": Case("GET", "/class/offer", joins(200)),
        "classroom.trainee_page": Case("GET", "/class/", joins(200)),
        "classroom.join": Case("POST", "/class/4242/join", joins(302), data={}),
        "classroom.state": Case("GET", "/class/4242/state", joins(404)),
        "classroom.answer": Case("POST", "/class/4242/answer", joins(404),
                                 json={"hand": 1, "answer": {}}),
        **{f"manager_ways.{endpoint}": Case(method, f"/manager/house-ways{path}", expect)
           for endpoint, method, path, expect in (
               ("copy_way", "GET", "/copy?from=trump-plaza", way_page(200)),
               ("import_way", "GET", "/import", way_page(200)),
               ("edit_way", "GET", "/1", way_page(404)),
               ("save_details", "POST", "/1/details", way_page(404)),
               ("move_rule", "POST", "/1/sections/1/rules/1/move", way_page(404)),
               ("delete_rule", "GET", "/1/sections/1/rules/1/delete", way_page(404)),
               ("new_rule", "GET", "/1/sections/1/rules/new", way_page(404)),
               ("edit_rule", "GET", "/1/sections/1/rules/1/edit", way_page(404)),
               ("repair_explanations", "POST", "/1/repair-explanations", way_page(404)),
               ("export_way", "GET", "/1/export", way_page(404)),
               ("check_way", "GET", "/1/check", way_page(404)),
               ("diff_way", "GET", "/1/changes", way_page(404)),
               ("edge_way", "GET", "/1/edge", way_page(404)),
               ("publish_way", "POST", "/1/publish", way_page(404)),
               ("show_version", "GET", "/1/versions/1", way_page(404)),
               ("roll_out", "POST", "/1/versions/1/roll-out", way_page(404)),
               ("job_state", "GET", "/jobs/1", way_page(404)),
               ("restart_job", "POST", "/jobs/1/restart", way_page(404)))},
    }


def instructs(status: int) -> dict[str, Any]:
    """A live class's instructor pages: the group's supervisor, any manager or admin; another
    supervisor finds no such group or class (404); trainees are refused (403)."""
    return every(403, supervisor=status, manager=status, admin=status, other_supervisor=404)


def joins(status: int) -> dict[str, Any]:
    """A trainee's class pages: trainees only (403 for staff)."""
    return every(403, trainee=status, other_trainee=status)


def way_page(status: int) -> dict[str, Any]:
    """The house-way editor's pages: ``status`` for managers and admins, 403 for the rest."""
    return every(403, manager=status, admin=status)


@pytest.fixture
def world(app, make_user, make_group) -> dict[str, Any]:
    """Two groups, their supervisors, trainees, an admin, and the trainee's records."""
    sup = make_user(Role.SUPERVISOR, login="sup-a")
    other_sup = make_user(Role.SUPERVISOR, login="sup-b")
    group = make_group(sup.id, name="Group A")
    make_group(other_sup.id, name="Group B")
    trainee = make_user(Role.TRAINEE, login="t-one", group_id=group)
    peer = make_user(Role.TRAINEE, login="t-two", group_id=group)
    admin = make_user(Role.ADMIN, login="root")
    manager = make_user(Role.MANAGER, login="boss")
    client = app.test_client()
    login(client, trainee)
    start = post_form(client, "/drills/action/start", {"mode": "practice"})
    session_id = int(start.headers["Location"].rsplit("/", 1)[1])
    token = csrf_token(client, "/drills/")
    client.post(f"/drills/sessions/{session_id}/question", json={},
                headers={"X-CSRFToken": token})
    client.post(f"/drills/sessions/{session_id}/answer",
                json={"position": 1, "answer": {"seat": 1}}, headers={"X-CSRFToken": token})
    client.post(f"/drills/sessions/{session_id}/question", json={},
                headers={"X-CSRFToken": token})
    deal = client.post("/play/deal", json={"bet_cents": 500}, headers={"X-CSRFToken": token})
    hand_id = deal.get_json()["hand"]["id"]
    staff = app.test_client()
    login(staff, sup)
    post_form(staff, f"/supervisor/trainees/{trainee.id}/exams", {"kind": "house-way"})
    with app.app_context():
        attempt_id = db.session.execute(db.select(Attempt.id)).scalar_one()
        exam_id = db.session.execute(db.select(CertificationExam.id)).scalar_one()
        assert db.session.get(DrillSession, session_id).user_id == trainee.id
        # The exam has been taken and its time is over: a running exam would close the
        # reference and the game to the trainee (tests/web/test_exam_sealed.py).
        certification.start_exam(exam_id, trainee.id)
        exam = db.session.get(CertificationExam, exam_id)
        exam.started_at = exam.started_at - timedelta(days=1)
        db.session.commit()
        assert certification.record_results([trainee.id]) == 1
    return {
        "accounts": {"trainee": trainee, "other_trainee": peer, "supervisor": sup,
                     "other_supervisor": other_sup, "manager": manager, "admin": admin},
        "ids": {"session": session_id, "attempt": attempt_id, "exam": exam_id,
                "group": group, "trainee": trainee.id, "hand": hand_id},
    }


def _call(app, role: str, case: Case, world: dict[str, Any]) -> Any:
    client = app.test_client()
    if role != "anonymous":
        login(client, world["accounts"][role])
    if case.method == "GET":
        response = client.get(case.path)
    else:
        token = csrf_token(client)
        if case.json is not None:
            response = client.post(case.path, json=case.json, headers={"X-CSRFToken": token})
        else:
            response = client.post(case.path, data={"csrf_token": token, **(case.data or {})})
    response.get_data()  # run streamed bodies (CSV exports) to the end
    response.close()
    return response


def _matches(response: Any, expected: Any, case: Case) -> bool:
    if expected == LOGIN and case.json is not None:
        # A script's JSON request is told in JSON, 401 with where to sign in (issue 24).
        return (response.status_code == 401
                and response.get_json()["login_url"].startswith("/auth/login"))
    if expected == LOGIN:
        return (response.status_code == 302
                and response.headers["Location"].startswith("/auth/login"))
    return response.status_code == expected


def test_every_route_is_in_the_matrix(app, world):
    routes = {rule.endpoint for rule in app.url_map.iter_rules()}
    cases = matrix(world["ids"])
    assert routes - set(cases) == set(), "add these routes to the authorization matrix"
    assert set(cases) - routes == set(), "these matrix rows name no route"


@pytest.mark.parametrize("role", ROLES)
def test_route_answers_each_role_as_expected(app, world, role):
    failures = []
    for endpoint, case in matrix(world["ids"]).items():
        response = _call(app, role, case, world)
        if not _matches(response, case.expect[role], case):
            failures.append(f"{endpoint} {case.method} {case.path}: expected "
                            f"{case.expect[role]}, got {response.status_code} "
                            f"{response.headers.get('Location', '')}")
    assert not failures, "\n".join(failures)


def test_matrix_paths_build_from_the_url_map(app, world):
    # Each row's path must really be served by the route it is filed under.
    adapter = app.url_map.bind("localhost")
    for endpoint, case in matrix(world["ids"]).items():
        matched, _ = adapter.match(re.sub(r"\?.*", "", case.path), method=case.method)
        assert matched == endpoint, (endpoint, case.path)
