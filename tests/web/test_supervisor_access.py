"""Who may use the supervisor blueprint: its own supervisor and admins; never trainees."""
from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from trainer.models import Role
from web.helpers import csrf_token, login, post_form


def supervisor_urls(app: Flask) -> list[tuple[str, str]]:
    """Return (method, url) for every route of the blueprint, ids filled with 1."""
    routes = []
    for rule in app.url_map.iter_rules():
        if not rule.endpoint.startswith("supervisor."):
            continue
        url = rule.build(dict.fromkeys(rule.arguments, 1))[1]
        for method in ("GET", "POST"):
            if method in rule.methods:
                routes.append((method, url))
    return routes


def test_blueprint_has_the_dashboard_routes(app) -> None:
    urls = {url for _method, url in supervisor_urls(app)}
    assert {"/supervisor/groups/1", "/supervisor/trainees/1", "/supervisor/trainees/1/report",
            "/supervisor/groups/1/export/attempts.csv", "/supervisor/groups/1/export/summary.csv",
            "/supervisor/groups/1/edit", "/supervisor/trainees/1/exams",
            "/supervisor/attempts/1/replay"} <= urls


def test_trainee_gets_403_everywhere_in_the_blueprint(app, client, trainee, group, make_attempt) -> None:
    make_attempt(trainee.id)
    login(client, trainee)
    token = csrf_token(client, "/")
    routes = supervisor_urls(app)
    assert len(routes) > 15
    for method, url in routes:
        if method == "GET":
            response = client.get(url)
        else:
            response = client.post(url, data={"csrf_token": token, "kind": "house-way"})
        assert response.status_code == 403, (method, url)


def test_anonymous_is_sent_to_sign_in(app, client) -> None:
    for method, url in supervisor_urls(app):
        if method == "GET":
            response = client.get(url)
            assert response.headers["Location"].startswith("/auth/login?next="), url


@pytest.fixture
def rival(make_user: Any, make_group: Any) -> dict[str, Any]:
    """Another supervisor with a group, a trainee and an attempt."""
    boss = make_user(Role.SUPERVISOR, login="rival")
    group = make_group(boss.id, name="Rival shift")
    trainee = make_user(Role.TRAINEE, login="rival-trainee", group_id=group)
    return {"supervisor": boss, "group": group, "trainee": trainee}


def test_supervisor_cannot_see_or_export_another_supervisors_group(
    app, client, supervisor, group, rival, make_attempt
) -> None:
    attempt = make_attempt(rival["trainee"].id)
    login(client, supervisor)
    g, t = rival["group"], rival["trainee"].id
    for url in (f"/supervisor/groups/{g}", f"/supervisor/groups/{g}?period=all",
                f"/supervisor/groups/{g}/edit", f"/supervisor/groups/{g}/export/attempts.csv",
                f"/supervisor/groups/{g}/export/summary.csv", f"/supervisor/trainees/{t}",
                f"/supervisor/trainees/{t}/report", f"/supervisor/attempts/{attempt}/replay"):
        assert client.get(url).status_code == 404, url
    assert post_form(client, f"/supervisor/trainees/{t}/exams", {"kind": "house-way"}).status_code == 404
    assert post_form(client, f"/supervisor/groups/{g}/edit", {"name": "Mine now"}).status_code == 404
    # Their own group's export does not leak the rival's trainee either.
    csv = client.get(f"/supervisor/groups/{group}/export/attempts.csv?period=all&trainee={t}")
    assert csv.status_code == 200 and "rival-trainee" not in csv.get_data(as_text=True)


def test_previous_supervisor_loses_a_moved_trainee(app, client, supervisor, trainee, rival) -> None:
    from trainer.extensions import db
    from trainer.models import Membership

    with app.app_context():
        db.session.get(Membership, trainee.id).group_id = rival["group"]
        db.session.commit()
    login(client, supervisor)
    assert client.get(f"/supervisor/trainees/{trainee.id}").status_code == 404
    client.post("/auth/logout", data={"csrf_token": csrf_token(client, "/")})
    login(client, rival["supervisor"])
    assert client.get(f"/supervisor/trainees/{trainee.id}").status_code == 200


def test_admin_sees_every_group(client, admin, group, trainee) -> None:
    login(client, admin)
    assert client.get("/supervisor/").status_code == 200
    assert client.get(f"/supervisor/groups/{group}").status_code == 200
    assert client.get(f"/supervisor/trainees/{trainee.id}").status_code == 200


def test_schedule_exam_needs_a_csrf_token(client, supervisor, trainee) -> None:
    login(client, supervisor)
    response = client.post(f"/supervisor/trainees/{trainee.id}/exams", data={"kind": "house-way"})
    assert response.status_code == 400
