"""Issue 29 (2): every account and group change goes through its service, which audits it.

``services/accounts.py`` creates, changes and deactivates accounts for the admin's pages,
the supervisor's, the account page, the sign-in and the commands; ``services/groups.py``
creates groups and changes their settings. Each entry is written by the service (the
tests look at who called ``audit.record``), with the action names of before; the
command line's entries name the operating-system user who ran the command. The pages
say and do what they did before (same messages, same redirects).

The services are imported inside the tests, so that on the commit before them each test
fails on what it checks rather than on the import.
"""
from __future__ import annotations

import getpass
import inspect
from typing import Any

import pytest
from flask import Flask

from trainer.extensions import db
from trainer.models import AuditLog, Group, Role, User
from trainer.services import audit
from web.helpers import login, post_form

PASSWORD = "harbour-lights-at-dawn"
ACCOUNT_KEYS = {"login", "name", "role", "active"}


@pytest.fixture
def writers(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[str, ...]]]:
    """Record, for each audit entry, its action and the modules that called ``audit.record``
    (nearest first, up to the first web or command module)."""
    seen: list[tuple[str, tuple[str, ...]]] = []
    original = audit.record

    def record(actor_id: Any, action: str, *args: Any, **kwargs: Any) -> None:
        chain = []
        for frame in inspect.stack()[1:]:
            module = str(frame.frame.f_globals.get("__name__", "?"))
            chain.append(module)
            if module.startswith(("trainer.web", "trainer.cli")):
                break
        seen.append((action, tuple(chain)))
        original(actor_id, action, *args, **kwargs)

    monkeypatch.setattr(audit, "record", record)
    return seen


def _entries(app: Flask, action: str | None = None) -> list[AuditLog]:
    with app.app_context():
        query = db.select(AuditLog).order_by(AuditLog.id)
        if action is not None:
            query = query.where(AuditLog.action == action)
        rows = db.session.execute(query).scalars().all()
        db.session.expunge_all()
        return list(rows)


def _user(app: Flask, login_name: str) -> User | None:
    with app.app_context():
        user = db.session.execute(db.select(User).filter_by(login=login_name)).scalar_one_or_none()
        if user is not None:
            db.session.expunge(user)
        return user


def _written_by(writers: list[tuple[str, tuple[str, ...]]], action: str, service: str) -> None:
    """Every entry of ``action`` was written by ``service``, none by a page or a command."""
    chains = [chain for seen, chain in writers if seen == action]
    assert chains, f"no {action} entry"
    for chain in chains:
        assert not chain[0].startswith(("trainer.web", "trainer.cli")), (action, chain)
        assert service in chain[:2], (action, chain)


def test_admin_created_supervisor_and_manager_are_audited_by_the_accounts_service(
        app: Flask, client: Any, admin: Any, writers: Any) -> None:
    login(client, admin)
    response = post_form(client, "/admin/supervisors/new", {
        "name": " Sue Pit ", "login": "Sue", "password": PASSWORD})
    assert response.status_code == 302 and response.headers["Location"] == "/admin/users"
    assert "Supervisor Sue Pit created." in client.get("/admin/users").get_data(as_text=True)
    response = post_form(client, "/admin/managers/new", {
        "name": "Pat Floor", "login": "floor", "password": PASSWORD})
    assert response.headers["Location"] == "/admin/users"
    assert "Table-games manager Pat Floor created." in client.get("/admin/users").get_data(
        as_text=True)
    _written_by(writers, "account.create", "trainer.services.accounts")
    sue, floor = _user(app, "sue"), _user(app, "floor")
    assert sue is not None and floor is not None
    assert (sue.name, sue.role, floor.role) == ("Sue Pit", Role.SUPERVISOR, Role.MANAGER)
    entries = _entries(app, "account.create")
    assert [(e.actor_id, e.target_id) for e in entries] == [(admin.id, sue.id), (admin.id, floor.id)]
    assert entries[0].new == {"login": "sue", "name": "Sue Pit", "role": "supervisor",
                              "active": True}
    assert "scrypt" not in str([e.new for e in entries])


def test_a_supervisor_created_trainee_is_audited_by_the_accounts_service_with_the_group(
        app: Flask, client: Any, supervisor: Any, group: int, writers: Any) -> None:
    login(client, supervisor)
    response = post_form(client, "/supervisor/trainees/new", {
        "name": "Ann Dealer", "login": "ann", "password": PASSWORD, "group_id": group})
    assert response.headers["Location"] == f"/supervisor/groups/{group}"
    assert "Trainee Ann Dealer created." in client.get(response.headers["Location"]).get_data(
        as_text=True)
    _written_by(writers, "account.create", "trainer.services.accounts")
    [entry] = _entries(app, "account.create")
    ann = _user(app, "ann")
    assert ann is not None and (entry.actor_id, entry.target_id) == (supervisor.id, ann.id)
    assert entry.new == {"login": "ann", "name": "Ann Dealer", "role": "trainee", "active": True,
                         "group_id": group}
    with app.app_context():
        assert db.session.get_one(User, ann.id).group.id == group


def test_a_taken_login_is_refused_in_words_whether_the_check_or_the_database_finds_it(
        app: Flask, client: Any, admin: Any, supervisor: Any, group: int, trainee: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Both pages say "That login is taken." as before. Two admins creating the same login
    at once: the database's unique login refuses the second, and the page says the same
    (no error page, nothing written)."""
    login(client, admin)
    page = post_form(client, "/admin/supervisors/new", {
        "name": "Someone", "login": "TRAINEE", "password": PASSWORD})
    assert page.status_code == 200 and "That login is taken." in page.get_data(as_text=True)
    post_form(client, "/auth/logout")
    login(client, supervisor)
    page = post_form(client, "/supervisor/trainees/new", {
        "name": "Someone", "login": "trainee", "password": PASSWORD, "group_id": group})
    assert page.status_code == 200 and "That login is taken." in page.get_data(as_text=True)
    post_form(client, "/auth/logout")
    monkeypatch.setattr("trainer.services.accounts.login_taken", lambda login: False)
    login(client, admin)
    page = post_form(client, "/admin/supervisors/new", {
        "name": "Someone", "login": "trainee", "password": PASSWORD})
    assert page.status_code == 200 and "That login is taken." in page.get_data(as_text=True)
    assert _entries(app, "account.create") == []
    with app.app_context():  # the admin, the supervisor and the trainee
        assert db.session.execute(db.select(db.func.count()).select_from(User)).scalar_one() == 3


def test_group_creation_and_settings_changes_are_audited_by_the_groups_service(
        app: Flask, client: Any, supervisor: Any, writers: Any) -> None:
    login(client, supervisor)
    created = post_form(client, "/supervisor/groups/new", {
        "name": "Night shift", "house_way": "trump-plaza", "profile": "nevada"})
    with app.app_context():
        night = db.session.execute(db.select(Group).filter_by(name="Night shift")).scalar_one()
        night_id = night.id
    assert created.headers["Location"] == f"/supervisor/groups/{night_id}"
    form = {"name": "Late shift", "house_way": "foxwoods", "profile": "nevada",
            "length-house-way": "7"}
    saved = post_form(client, f"/supervisor/groups/{night_id}/edit", form)
    assert saved.headers["Location"] == f"/supervisor/groups/{night_id}"
    assert "Group Late shift saved. New sessions use these settings." in client.get(
        saved.headers["Location"]).get_data(as_text=True)
    again = post_form(client, f"/supervisor/groups/{night_id}/edit", form)
    assert "Nothing changed." in client.get(again.headers["Location"]).get_data(as_text=True)
    _written_by(writers, "group.create", "trainer.services.groups")
    _written_by(writers, "group.settings", "trainer.services.groups")
    [create] = _entries(app, "group.create")
    [change] = _entries(app, "group.settings")  # the unchanged save wrote nothing
    assert (create.actor_id, create.target_id, create.new) == (
        supervisor.id, night_id, {"name": "Night shift", "house_way": "trump-plaza",
                                  "profile": "nevada"})
    assert (change.actor_id, change.target_id) == (supervisor.id, night_id)
    assert change.old == {"name": "Night shift", "house_way": "trump-plaza", "settings": {}}
    assert set(change.new) == {"name", "house_way", "settings"}  # the profile did not change
    assert (change.new["name"], change.new["house_way"]) == ("Late shift", "foxwoods")
    assert change.new["settings"]["drills"] == {"house-way": {"length": 7}}
    history = client.get(f"/supervisor/groups/{night_id}/edit").get_data(as_text=True)
    assert "Late shift" in history and "Group created" in history


def test_resets_activation_and_own_changes_are_audited_by_the_accounts_service(
        app: Flask, client: Any, admin: Any, supervisor: Any, trainee: Any, writers: Any) -> None:
    login(client, admin)
    assert post_form(client, f"/admin/users/{supervisor.id}/password",
                     {"password": PASSWORD}).headers["Location"] == "/admin/users"
    post_form(client, f"/admin/users/{trainee.id}/active", {"active": "0", "confirm": "1"})
    post_form(client, f"/admin/users/{trainee.id}/active", {"active": "1"})
    refused = post_form(client, f"/admin/users/{admin.id}/active", {"active": "0"})
    assert refused.headers["Location"] == "/admin/users"
    assert "You cannot deactivate your own account." in client.get("/admin/users").get_data(
        as_text=True)
    post_form(client, "/auth/logout")
    tablet = app.test_client()
    login(tablet, trainee)
    assert post_form(tablet, "/auth/password", {
        "current": trainee.password, "new": PASSWORD, "confirm": PASSWORD}).status_code == 302
    wrong = post_form(tablet, "/auth/password", {
        "current": "not-the-password", "new": "another-long-one", "confirm": "another-long-one"})
    assert "That is not your current password." in wrong.get_data(as_text=True)
    assert post_form(tablet, "/auth/account/language", {"language": "pt"}).status_code == 302
    assert post_form(tablet, "/auth/account", {"time_zone": "Asia/Macau"}).status_code == 302
    assert post_form(tablet, "/auth/account", {"time_zone": "Asia/Macau"}).status_code == 302
    for action in ("account.password-reset", "account.deactivate", "account.activate",
                   "account.password-change", "account.preferences"):
        _written_by(writers, action, "trainer.services.accounts")
    preferences = _entries(app, "account.preferences")  # the second zone changed nothing
    assert [(e.actor_id, e.target_id, e.old, e.new) for e in preferences] == [
        (trainee.id, trainee.id, {"language": None}, {"language": "pt"}),
        (trainee.id, trainee.id, {"time_zone": None}, {"time_zone": "Asia/Macau"})]
    assert [e.target_id for e in _entries(app, "account.password-change")] == [trainee.id]
    assert not [e for e in _entries(app) if e.target_id == admin.id
                and e.action.startswith("account.")]


def test_a_weak_password_marked_at_sign_in_is_audited_once_by_the_accounts_service(
        app: Flask, client: Any, trainee: Any, writers: Any) -> None:
    from werkzeug.security import generate_password_hash

    with app.app_context():  # a password set before today's rule
        db.session.get_one(User, trainee.id).password_hash = generate_password_hash(
            "dealer123", method="scrypt:1024:8:1")
        db.session.commit()
    weak = type("Weak", (), {"login": trainee.login, "password": "dealer123"})
    assert login(client, weak).headers["Location"] == "/auth/password"
    post_form(client, "/auth/logout")
    login(client, weak)
    _written_by(writers, "account.password-change-due", "trainer.services.accounts")
    [entry] = _entries(app, "account.password-change-due")
    assert (entry.actor_id, entry.target_id, entry.new) == (
        trainee.id, trainee.id, {"password_change_due": True})


def test_create_user_on_the_command_line_is_audited_naming_the_os_user(
        app: Flask, runner: Any, client: Any, admin: Any, writers: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(getpass, "getuser", lambda: "pitops")
    result = runner.invoke(args=["create-user", "--role", "supervisor", "--login", "Night.Boss",
                                 "--name", "Nia Boss", "--password", PASSWORD])
    assert result.exit_code == 0 and "Created supervisor 'night.boss'." in result.output
    _written_by(writers, "account.create", "trainer.services.accounts")
    [entry] = _entries(app, "account.create")
    created = _user(app, "night.boss")
    assert created is not None and (entry.actor_id, entry.target_id) == (None, created.id)
    assert entry.new == {"login": "night.boss", "name": "Nia Boss", "role": "supervisor",
                         "active": True, "command_line_user": "pitops"}
    login(client, admin)
    log = client.get("/admin/audit").get_data(as_text=True)
    assert "Command line (pitops)" in log and "Nia Boss (night.boss)" in log


def test_an_unknown_os_user_is_named_unknown(app: Flask, runner: Any,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    def no_user() -> str:
        raise OSError("No username set in the environment")

    monkeypatch.setattr(getpass, "getuser", no_user)
    result = runner.invoke(args=["create-user", "--role", "admin", "--login", "root2",
                                 "--password", PASSWORD])
    assert result.exit_code == 0, result.output
    [entry] = _entries(app, "account.create")
    assert entry.new["command_line_user"] == "unknown"


def test_seed_demo_audits_each_account_and_the_demo_group_as_the_command_line(
        app: Flask, runner: Any, writers: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(getpass, "getuser", lambda: "installer")
    assert runner.invoke(args=["seed-demo", "--accounts-only"]).exit_code == 0
    _written_by(writers, "account.create", "trainer.services.accounts")
    _written_by(writers, "group.create", "trainer.services.groups")
    created = _entries(app, "account.create")
    [group_entry] = _entries(app, "group.create")
    with app.app_context():
        logins = {u.id: u.login for u in db.session.execute(db.select(User)).scalars()}
        demo_group = db.session.execute(db.select(Group)).scalar_one()
        assert demo_group.settings.get("demo") is True
        group_id = demo_group.id
    assert sorted(logins[e.target_id] for e in created) == sorted(logins.values())
    assert len(created) == 6
    for entry in [*created, group_entry]:
        assert entry.actor_id is None and entry.new["command_line_user"] == "installer"
    assert {e.new["login"] for e in created if e.new.get("group_id") == group_id} == {
        "demo-trainee1", "demo-trainee2", "demo-trainee3"}
    assert runner.invoke(args=["seed-demo", "--accounts-only"]).exit_code == 0
    assert len(_entries(app, "account.create")) == 6  # present: nothing added, nothing logged


def test_the_command_line_refuses_a_login_and_a_name_the_pages_refuse(app: Flask, runner: Any) -> None:
    spaced = runner.invoke(args=["create-user", "--role", "admin", "--login", "pit boss",
                                 "--password", PASSWORD])
    assert spaced.exit_code != 0
    assert "Use letters, digits, dots, dashes and underscores." in spaced.output
    long_name = runner.invoke(args=["create-user", "--role", "admin", "--login", "pit",
                                    "--name", "N" * 121, "--password", PASSWORD])
    assert long_name.exit_code != 0
    assert "Full name is too long: at most 120 characters." in long_name.output
    assert _user(app, "pit boss") is None and _user(app, "pit") is None
    assert _entries(app) == []


def test_every_way_in_creates_accounts_through_accounts_create(
        app: Flask, client: Any, runner: Any, admin: Any, supervisor: Any, group: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The one creation path: every account the pages and commands make comes out of
    ``accounts.create``, and the number of accounts grows by its calls and no more."""
    from trainer.services import accounts

    made: list[str] = []
    create = accounts.create

    def counted(*args: Any, **kwargs: Any) -> User:
        user = create(*args, **kwargs)
        made.append(user.login)
        return user

    monkeypatch.setattr(accounts, "create", counted)
    with app.app_context():
        before = db.session.execute(db.select(db.func.count()).select_from(User)).scalar_one()
    login(client, admin)
    post_form(client, "/admin/supervisors/new", {"name": "S", "login": "s1", "password": PASSWORD})
    post_form(client, "/admin/managers/new", {"name": "M", "login": "m1", "password": PASSWORD})
    post_form(client, "/auth/logout")
    login(client, supervisor)
    post_form(client, "/supervisor/trainees/new", {"name": "T", "login": "t1", "password": PASSWORD,
                                                   "group_id": group})
    assert runner.invoke(args=["create-user", "--role", "admin", "--login", "a1",
                               "--password", PASSWORD]).exit_code == 0
    assert runner.invoke(args=["seed-demo", "--accounts-only"]).exit_code == 0
    with app.app_context():
        after = db.session.execute(db.select(db.func.count()).select_from(User)).scalar_one()
    assert made[:4] == ["s1", "m1", "t1", "a1"] and len(made) == 4 + 6
    assert after - before == len(made)


def test_a_refused_account_changes_nothing(app: Flask, admin: Any, group: int) -> None:
    from trainer.models.user import PasswordRefused
    from trainer.services import accounts

    actor = accounts.Actor(admin.id, Role.ADMIN)
    with app.app_context():
        the_group = db.session.get_one(Group, group)
        good = {"login": "new", "name": "B", "role": "admin", "password": PASSWORD}
        refusals: list[tuple[dict[str, Any], type[Exception]]] = [
            ({**good, "login": "boss"}, accounts.LoginTaken),
            ({**good, "login": "x" * 65}, accounts.LoginRefused),
            ({**good, "name": "  "}, accounts.NameRefused),
            ({**good, "role": "owner"}, accounts.AccountError),
            ({**good, "group": the_group}, accounts.AccountError),  # only a trainee has one
            ({**good, "password": "password1"}, PasswordRefused),
            ({**good, "password": "demo-trainee-pw"}, PasswordRefused),
        ]
        for values, error in refusals:
            with pytest.raises(error):
                accounts.create(actor, **values)
        db.session.commit()
        assert db.session.execute(db.select(db.func.count()).select_from(User)).scalar_one() == 2
        assert db.session.execute(db.select(db.func.count()).select_from(AuditLog)).scalar_one() == 0
        # The same values with nothing wrong are taken: each refusal above was its own field's.
        made = accounts.create(actor, **good)
        db.session.commit()
        assert [e.target_id for e in _entries(app, "account.create")] == [made.id]


def test_a_refused_group_change_changes_nothing(app: Flask, supervisor: Any, group: int) -> None:
    from trainer.services import groups
    from trainer.services.accounts import Actor
    from trainer.services.group_settings import GroupSettings

    actor = Actor(supervisor.id, Role.SUPERVISOR)
    with app.app_context():
        the_group = db.session.get_one(Group, group)
        for name in ("   ", "G" * 121):
            with pytest.raises(groups.GroupError):
                groups.change(actor, the_group, name=name,
                              settings=GroupSettings(house_way="foxwoods"))
        db.session.commit()
        db.session.refresh(the_group)
        assert (the_group.name, the_group.house_way) == ("Day shift", "trump-plaza")
    assert _entries(app) == []
