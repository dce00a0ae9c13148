"""Issue 18 item 1: the table-games manager.

Ranked above supervisors and below admins; reads every group's dashboards (overview,
trainee pages, reports, exports) but changes nothing there; owns the house ways and
table rules (the "House ways" page, with every sheet to print); created, reset and
deactivated by admins.
"""
from __future__ import annotations

import dataclasses
import re
from html import unescape

import pytest

from trainer.engine.house_way import load, preset_names
from trainer.engine.profiles import profile_names
from trainer.extensions import db
from trainer.models import AuditLog, CertificationExam, Group, Membership, Role, User
from trainer.models.user import ROLE_RANK
from trainer.web.words.data_words import profile_description
from web.helpers import csrf_token, login, post_form

PASSWORD = "floor-boss-passphrase"


@pytest.fixture
def manager(make_user):
    return make_user(Role.MANAGER, login="floor-boss", name="Pat Floor")


@pytest.fixture
def two_groups(make_user, make_group, make_attempt):
    """Two groups of two supervisors, a trainee with an attempt in each."""
    day_sup = make_user(Role.SUPERVISOR, login="day-sup", name="Dana Day")
    night_sup = make_user(Role.SUPERVISOR, login="night-sup", name="Nico Night")
    day = make_group(day_sup.id, name="Day shift", house_way="foxwoods")
    night = make_group(night_sup.id, name="Night shift")
    ann = make_user(Role.TRAINEE, login="ann", name="Ann Able", group_id=day)
    bob = make_user(Role.TRAINEE, login="bob", name="Bob Baker", group_id=night)
    return {"groups": (day, night), "trainees": (ann, bob), "supervisors": (day_sup, night_sup),
            "attempts": (make_attempt(ann.id), make_attempt(bob.id))}


def _text(html: str) -> str:
    """Return what a reader sees: the page without its tags, scripts, styles and attributes."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", " ", html))


def _state(app) -> dict[str, object]:
    """Everything a supervisor's page could change."""
    with app.app_context():
        return {
            "users": sorted(db.session.execute(db.select(
                User.login, User.name, User.active, User.password_hash, User.session_version)).all()),
            "groups": sorted((g.id, g.name, g.house_way, g.profile, repr(g.settings))
                             for g in db.session.execute(db.select(Group)).scalars()),
            "memberships": sorted(db.session.execute(db.select(
                Membership.user_id, Membership.group_id)).all()),
            "exams": db.session.execute(db.select(db.func.count(CertificationExam.id))).scalar_one(),
            # Signing in is logged; nothing else may be.
            "audit": db.session.execute(db.select(db.func.count(AuditLog.id)).where(
                ~AuditLog.action.startswith("sign-"))).scalar_one(),
        }


def test_manager_is_ranked_above_supervisors_and_below_admins() -> None:
    assert ROLE_RANK[Role.SUPERVISOR] < ROLE_RANK[Role.MANAGER] < ROLE_RANK[Role.ADMIN]
    user = User(name="x", login="x", role=Role.MANAGER)
    user.deactivate(by_role=Role.MANAGER)
    assert user.may_be_reactivated_by(Role.MANAGER) and user.may_be_reactivated_by(Role.ADMIN)
    assert not user.may_be_reactivated_by(Role.SUPERVISOR)


def test_manager_home_links_every_group_and_the_house_ways(app, client, manager, two_groups):
    login(client, manager)
    page = client.get("/").get_data(as_text=True)
    for group_id in two_groups["groups"]:
        assert f'href="/supervisor/groups/{group_id}"' in page
    text = _text(page)
    assert "Day shift" in text and "Night shift" in text
    assert "Dana Day" in text and "Nico Night" in text
    assert "Foxwoods" in text and "foxwoods" not in text   # words, not ids
    assert 'href="/manager/house-ways"' in page
    # Nothing that changes a group is offered.
    assert "/supervisor/groups/new" not in page and "/supervisor/trainees/new" not in page


def test_manager_reads_every_groups_dashboards(app, client, manager, two_groups):
    login(client, manager)
    assert client.get("/supervisor/").status_code == 200
    for group_id, trainee, attempt, name in zip(two_groups["groups"], two_groups["trainees"],
                                                two_groups["attempts"], ("Ann Able", "Bob Baker"),
                                                strict=True):
        overview = client.get(f"/supervisor/groups/{group_id}")
        assert overview.status_code == 200
        assert name in overview.get_data(as_text=True)
        assert client.get(f"/supervisor/trainees/{trainee.id}").status_code == 200
        assert client.get(f"/supervisor/trainees/{trainee.id}/report").status_code == 200
        assert client.get(f"/supervisor/attempts/{attempt}/replay").status_code == 200
        for export in ("attempts", "summary"):
            response = client.get(f"/supervisor/groups/{group_id}/export/{export}.csv")
            body = response.get_data(as_text=True)   # run the streamed body to its end
            response.close()
            assert response.status_code == 200 and response.mimetype == "text/csv" and body


def test_manager_pages_leave_out_every_control_that_changes_something(
        app, client, manager, two_groups):
    day, _night = two_groups["groups"]
    ann, _bob = two_groups["trainees"]
    login(client, manager)
    overview = client.get(f"/supervisor/groups/{day}").get_data(as_text=True)
    trainee = client.get(f"/supervisor/trainees/{ann.id}").get_data(as_text=True)
    for page in (overview, trainee):
        assert "/edit" not in page and "/password" not in page.replace("/auth/password", "")
        assert "/supervisor/trainees/new" not in page
        assert 'method="post"' not in page.replace(
            'method="post" action="/auth/logout"', "")   # only the sign-out form


def test_every_supervisor_form_and_post_refuses_a_manager_and_changes_nothing(
        app, client, manager, two_groups):
    day, _night = two_groups["groups"]
    ann, _bob = two_groups["trainees"]
    ids = {"group_id": day, "user_id": ann.id, "attempt_id": two_groups["attempts"][0],
           "assignment_id": 1}
    # What a supervisor would send: valid enough that only the role gate can refuse it.
    data = {"name": "Renamed", "house_way": "foxwoods", "profile": "nevada", "kind": "house-way",
            "active": "0", "confirm": "1", "password": PASSWORD, "login": "newbie",
            "group_id": str(day),
            # An assignment (issue 30): a family of the drill, to the whole group.
            "drill": "house-way", "who": "group", "target": "family:quads"}
    before = _state(app)
    login(client, manager)
    token = csrf_token(client, "/")
    posts = 0
    for rule in app.url_map.iter_rules():
        if rule.endpoint.split(".")[0] != "supervisor":
            continue
        path = rule.build({k: v for k, v in ids.items() if k in rule.arguments})[1]
        if "POST" in rule.methods:
            posts += 1
            response = client.post(path, data={"csrf_token": token, **data})
            assert response.status_code == 403, (rule.endpoint, response.status_code)
    for path in (f"/supervisor/groups/{day}/edit", "/supervisor/groups/new",
                 "/supervisor/trainees/new", f"/supervisor/trainees/{ann.id}/password"):
        assert client.get(path).status_code == 403, path
    assert posts >= 6   # new group, settings, new trainee, password, active, exam
    assert _state(app) == before


def test_a_supervisor_still_changes_their_group_with_the_same_gate(app, client, two_groups):
    # The gate keeps supervisors' own pages open: the refusals above are the manager's.
    day_sup, _night_sup = two_groups["supervisors"]
    ann, _bob = two_groups["trainees"]
    login(client, day_sup)
    assert client.get(f"/supervisor/groups/{two_groups['groups'][0]}/edit").status_code == 200
    response = post_form(client, f"/supervisor/trainees/{ann.id}/active", {"active": "0"})
    assert response.status_code == 302
    with app.app_context():
        assert db.session.get(User, ann.id).active is False


def test_house_ways_page_lists_every_preset_and_profile_in_words_with_sheet_links(
        app, client, manager, two_groups):
    login(client, manager)
    response = client.get("/manager/house-ways")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    text = _text(page)
    for name in preset_names():
        assert load(name).title in text
        for link in (f"/house-way/{name}", f"/house-way/{name}/pdf?paper=letter",
                     f"/house-way/{name}/pdf?paper=a4", f"/house-way/look-up?preset={name}"):
            assert f'href="{link}"' in page, link
    for name in profile_names():
        with app.test_request_context():  # the description in words (web/words/data_words.py)
            assert profile_description(name) in text
        assert f'href="/commission-chart?profile={name}"' in page
    # Ids only in addresses, never in what is read.
    for name in [*preset_names(), *profile_names()]:
        assert not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text), name
    assert "used by 1 group" in text   # Foxwoods, the day shift's way
    # The sheets and charts it links to open for a manager.
    for name in preset_names():
        assert client.get(f"/house-way/{name}").status_code == 200
        assert client.get(f"/house-way/look-up?preset={name}&cards=As+Ks+Qd+Jc+9h+5s+2d"
                          ).status_code == 200
    for name in profile_names():
        assert client.get(f"/commission-chart?profile={name}").status_code == 200


def test_house_ways_page_is_the_managers_and_admins_only(app, client, manager, supervisor,
                                                         trainee, admin):
    for account, status in ((manager, 200), (admin, 200), (supervisor, 403), (trainee, 403)):
        fresh = app.test_client()
        login(fresh, account)
        assert fresh.get("/manager/house-ways").status_code == status, account.role


def test_an_admin_creates_a_manager_who_signs_in_and_opens_a_group_overview(
        app, client, admin, two_groups):
    login(client, admin)
    form = client.get("/admin/managers/new")
    assert form.status_code == 200 and "New table-games manager" in form.get_data(as_text=True)
    created = post_form(client, "/admin/managers/new",
                        {"name": "Morgan Floor", "login": "Morgan", "password": PASSWORD})
    assert created.status_code == 302
    with app.app_context():
        user = db.session.execute(db.select(User).filter_by(login="morgan")).scalar_one()
        assert user.role == Role.MANAGER and user.active
        entry = db.session.execute(db.select(AuditLog).filter_by(
            action="account.create", target_id=user.id)).scalar_one()
        assert entry.new["role"] == "manager"
    accounts = _text(client.get("/admin/users").get_data(as_text=True))
    assert "Morgan Floor" in accounts and "table-games manager" in accounts

    manager_client = app.test_client()
    signed_in = post_form(manager_client, "/auth/login", {"login": "morgan", "password": PASSWORD})
    assert signed_in.status_code == 302
    home = manager_client.get("/").get_data(as_text=True)
    assert "Day shift" in home
    overview = manager_client.get(f"/supervisor/groups/{two_groups['groups'][0]}")
    assert overview.status_code == 200 and "Ann Able" in overview.get_data(as_text=True)


def test_a_taken_login_or_weak_password_creates_no_manager(app, client, admin, manager):
    login(client, admin)
    for fields in ({"login": "floor-boss", "password": PASSWORD}, {"login": "new", "password": "short"}):
        response = post_form(client, "/admin/managers/new", {"name": "Someone", **fields})
        assert response.status_code == 200 and 'class="error"' in response.get_data(as_text=True)
    with app.app_context():
        roles = db.session.execute(db.select(User.role).filter_by(role=Role.MANAGER)).all()
        assert len(roles) == 1


def test_an_admin_resets_a_managers_password_and_deactivates_it_after_confirming(
        app, client, admin, manager):
    login(client, admin)
    assert f"/admin/users/{manager.id}/password" in client.get("/admin/users").get_data(
        as_text=True)
    assert post_form(client, f"/admin/users/{manager.id}/password",
                     {"password": PASSWORD}).status_code == 302
    moved = dataclasses.replace(manager, password=PASSWORD)
    assert login(app.test_client(), moved).headers["Location"] == "/"

    asked = post_form(client, f"/admin/users/{manager.id}/active", {"active": "0"})
    assert asked.status_code == 200 and "Pat Floor" in asked.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(User, manager.id).active   # not before the confirmation
    post_form(client, f"/admin/users/{manager.id}/active", {"active": "0", "confirm": "1"})
    with app.app_context():
        assert not db.session.get(User, manager.id).active
    assert login(app.test_client(), moved).status_code == 401   # refused, form again
    post_form(client, f"/admin/users/{manager.id}/active", {"active": "1"})
    with app.app_context():
        assert db.session.get(User, manager.id).active


def test_a_manager_cannot_reach_the_admin_pages(app, client, manager, supervisor):
    login(client, manager)
    for path in ("/admin/users", "/admin/managers/new", "/admin/supervisors/new",
                 f"/admin/users/{supervisor.id}/password"):
        assert client.get(path).status_code == 403, path
    assert post_form(client, f"/admin/users/{supervisor.id}/active",
                     {"active": "0", "confirm": "1"}).status_code == 403


def test_the_menu_offers_a_manager_the_groups_and_house_ways(app, client, manager):
    login(client, manager)
    nav = re.search(r'<nav class="nav".*?</nav>', client.get("/").get_data(as_text=True), re.S)
    assert nav is not None
    assert 'href="/supervisor/"' in nav.group(0) and 'href="/manager/house-ways"' in nav.group(0)
    assert "/admin/" not in nav.group(0) and "/supervisor/groups/new" not in nav.group(0)
