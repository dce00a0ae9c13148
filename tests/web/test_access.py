"""Who sees what: anonymous users, trainees, supervisors and admins."""
from __future__ import annotations

import pytest
from flask import Flask

from trainer.extensions import db
from trainer.models import Group, Role, User
from trainer.web.platform.limits import JSON_ENDPOINTS
from web.helpers import csrf_token, login, post_form

PUBLIC_ENDPOINTS = {"static", "auth.login", "health.healthz"}


def login_pages(app: Flask) -> list[str]:
    """Return a URL for every GET page except the public ones, ids filled with 1."""
    urls = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint in PUBLIC_ENDPOINTS or "GET" not in rule.methods:
            continue
        urls.append(rule.build(dict.fromkeys(rule.arguments, 1))[1])
    return sorted(urls)


def test_every_page_but_login_needs_a_login(app, client) -> None:
    urls = login_pages(app)
    assert "/" in urls and "/supervisor/groups/1" in urls and "/admin/users" in urls
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response.headers["Location"].startswith("/auth/login?next="), url


def test_every_post_needs_a_login(app, client) -> None:
    for rule in app.url_map.iter_rules():
        if "POST" in rule.methods and rule.endpoint not in PUBLIC_ENDPOINTS | {"auth.logout"}:
            url = rule.build(dict.fromkeys(rule.arguments, 1))[1]
            if rule.endpoint in JSON_ENDPOINTS:
                # A script's request (JSON, with the page's token) is told to sign in, in JSON.
                response = client.post(url, json={},
                                       headers={"X-CSRFToken": csrf_token(client)})
                assert response.status_code == 401, url
                assert response.get_json()["login_url"].startswith("/auth/login"), url
            else:
                response = post_form(client, url)
                assert response.headers["Location"].startswith("/auth/login"), url


@pytest.mark.parametrize("url", [
    "/supervisor/",
    "/supervisor/groups/new",
    "/supervisor/trainees/new",
    "/admin/users",
    "/admin/supervisors/new",
])
def test_trainee_gets_403_on_supervisor_and_admin_pages(client, trainee, url) -> None:
    login(client, trainee)
    assert client.get(url).status_code == 403


def test_trainee_pages_of_the_group_are_403_for_the_trainee(client, trainee, group) -> None:
    login(client, trainee)
    assert client.get(f"/supervisor/groups/{group}").status_code == 403
    assert client.get(f"/supervisor/trainees/{trainee.id}").status_code == 403


def test_supervisor_gets_403_on_admin_pages(client, supervisor) -> None:
    login(client, supervisor)
    assert client.get("/admin/users").status_code == 403
    assert client.get("/admin/supervisors/new").status_code == 403


def test_trainee_sees_own_results(client, trainee, make_attempt) -> None:
    attempt_id = make_attempt(trainee.id, rule_id="hw.two-pair.split")
    login(client, trainee)
    assert "hw.two-pair.split" in client.get("/").get_data(as_text=True)
    assert "hw.two-pair.split" in client.get("/results").get_data(as_text=True)
    assert client.get(f"/results/{attempt_id}").status_code == 200


def test_trainee_gets_404_on_another_trainees_records(client, trainee, make_user, group,
                                                      make_attempt) -> None:
    other = make_user(Role.TRAINEE, group_id=group)
    theirs = make_attempt(other.id, rule_id="hw.theirs")
    login(client, trainee)
    assert client.get(f"/results/{theirs}").status_code == 404
    assert client.get("/results/999999").status_code == 404
    assert "hw.theirs" not in client.get("/results").get_data(as_text=True)


def test_supervisor_sees_only_their_own_groups(client, supervisor, group, make_user, make_group) -> None:
    rival = make_user(Role.SUPERVISOR, login="rival")
    rival_group = make_group(rival.id, name="Night shift")
    rival_trainee = make_user(Role.TRAINEE, group_id=rival_group)
    login(client, supervisor)

    home = client.get("/").get_data(as_text=True)
    assert "Day shift" in home and "Night shift" not in home
    assert client.get(f"/supervisor/groups/{group}").status_code == 200
    assert client.get(f"/supervisor/groups/{rival_group}").status_code == 404
    assert client.get(f"/supervisor/groups/{rival_group}/edit").status_code == 404
    assert client.get(f"/supervisor/trainees/{rival_trainee.id}").status_code == 404
    reset = post_form(client, f"/supervisor/trainees/{rival_trainee.id}/password",
                      {"password": "taken-over-1"})
    assert reset.status_code == 404
    form = client.get("/supervisor/trainees/new").get_data(as_text=True)
    assert "Night shift" not in form


def test_supervisor_reads_their_trainees_attempts(client, supervisor, trainee, make_attempt) -> None:
    make_attempt(trainee.id, rule_id="hw.full-house.split")
    login(client, supervisor)
    page = client.get(f"/supervisor/trainees/{trainee.id}").get_data(as_text=True)
    assert "hw.full-house.split" in page


def test_supervisor_creates_a_trainee_in_their_group(app, client, supervisor, group) -> None:
    login(client, supervisor)
    response = post_form(client, "/supervisor/trainees/new", {
        "name": "New Dealer", "login": "New.Dealer", "password": "first-pass-1", "group_id": group,
    })
    assert response.headers["Location"] == f"/supervisor/groups/{group}"
    with app.app_context():
        user = db.session.execute(db.select(User).filter_by(login="new.dealer")).scalar_one()
        assert (user.role, user.group.id) == (Role.TRAINEE, group)


def test_supervisor_cannot_put_a_trainee_in_another_group(client, supervisor, group, make_user,
                                                          make_group) -> None:
    rival_group = make_group(make_user(Role.SUPERVISOR).id, name="Night shift")
    login(client, supervisor)
    response = post_form(client, "/supervisor/trainees/new", {
        "name": "Sneaky", "login": "sneaky", "password": "first-pass-1", "group_id": rival_group,
    })
    assert response.status_code == 200
    assert "Not a valid choice" in response.get_data(as_text=True)


def test_supervisor_cannot_reuse_a_login(client, supervisor, group, trainee) -> None:
    login(client, supervisor)
    response = post_form(client, "/supervisor/trainees/new", {
        "name": "Twin", "login": "TRAINEE", "password": "first-pass-1", "group_id": group,
    })
    assert "That login is taken." in response.get_data(as_text=True)


def test_supervisor_resets_a_trainees_password(client, supervisor, trainee) -> None:
    login(client, supervisor)
    response = post_form(client, f"/supervisor/trainees/{trainee.id}/password", {"password": "fresh-pass-1"})
    assert response.headers["Location"] == f"/supervisor/trainees/{trainee.id}"
    post_form(client, "/auth/logout")
    assert login(client, trainee).status_code == 401
    renamed = trainee.__class__(trainee.id, trainee.login, "fresh-pass-1", trainee.role)
    assert login(client, renamed).status_code == 302


def test_supervisor_creates_and_edits_a_group(app, client, supervisor) -> None:
    login(client, supervisor)
    response = post_form(client, "/supervisor/groups/new", {
        "name": "Weekend", "house_way": "trump-plaza", "profile": "nevada",
    })
    assert response.status_code == 302
    with app.app_context():
        group_id = db.session.execute(db.select(Group.id).filter_by(name="Weekend")).scalar_one()
    post_form(client, f"/supervisor/groups/{group_id}/edit", {
        "name": "Weekend crew", "house_way": "trump-plaza", "profile": "nevada",
    })
    with app.app_context():
        assert db.session.get(Group, group_id).name == "Weekend crew"


def test_admin_creates_a_supervisor(app, client, admin) -> None:
    login(client, admin)
    response = post_form(client, "/admin/supervisors/new", {
        "name": "Pit Boss", "login": "pitboss", "password": "first-pass-1",
    })
    assert response.headers["Location"] == "/admin/users"
    with app.app_context():
        user = db.session.execute(db.select(User).filter_by(login="pitboss")).scalar_one()
        assert user.role == Role.SUPERVISOR


def test_supervisor_cannot_create_a_supervisor(client, supervisor) -> None:
    login(client, supervisor)
    response = post_form(client, "/admin/supervisors/new", {
        "name": "Pit Boss", "login": "pitboss", "password": "first-pass-1",
    })
    assert response.status_code == 403


@pytest.mark.parametrize("role, heading", [
    (Role.TRAINEE, "Start a drill"),
    (Role.SUPERVISOR, "My groups"),
    (Role.ADMIN, "Administration"),
])
def test_each_role_has_its_home_page(client, make_user, role, heading) -> None:
    login(client, make_user(role))
    assert heading in client.get("/").get_data(as_text=True)
