"""Account commands of the app: create-user, seed-demo, sweep-timeouts.

The accounts and the demo group are made by ``services/accounts.py`` and
``services/groups.py``, audited as the command line and the OS user who ran the command.
"""
from __future__ import annotations

import getpass
import secrets
import time
from typing import Any

import click
from flask import current_app
from flask.cli import with_appcontext

from trainer.extensions import db
from trainer.models import Group, Role, User, normalize_login
from trainer.models.passwords import password_problem
from trainer.services import accounts, demo_class, groups
from trainer.services.drills import settle_overdue
from trainer.services.group_settings import GroupSettings

DEMO_SUPERVISOR = ("demo-supervisor", "Demo Supervisor (demo)", "demo-supervisor-pw")
DEMO_MANAGER = ("demo-manager", "Demo Manager (demo)", "demo-manager-pw")
# The demo admin has no published password: one is generated and printed at creation.
DEMO_ADMIN = ("demo-admin", "Demo Admin (demo)")
DEMO_GROUP = "Demo group (demo)"
DEMO_TRAINEES = (
    ("demo-trainee1", "Demo Trainee One (demo)"),
    ("demo-trainee2", "Demo Trainee Two (demo)"),
    ("demo-trainee3", "Demo Trainee Three (demo)"),
)
DEMO_TRAINEE_PASSWORD = "demo-trainee-pw"
# The password rule (trainer/models/passwords.py DEMO_PASSWORDS) refuses these three
# everywhere else; seed-demo alone sets them (accounts.create(..., demo=True)), and
# signing in with them does not force a change (docs/operations.md, "Password rules").


def demo_logins() -> list[tuple[str, str, str]]:
    """Return (role, login, password) for every demo account."""
    rows = [(Role.MANAGER.value, DEMO_MANAGER[0], DEMO_MANAGER[2]),
            (Role.SUPERVISOR.value, DEMO_SUPERVISOR[0], DEMO_SUPERVISOR[2])]
    rows += [(Role.TRAINEE.value, login, DEMO_TRAINEE_PASSWORD) for login, _name in DEMO_TRAINEES]
    return rows


def command_line_actor() -> accounts.Actor:
    """The actor of an account command: the command line, named by the OS user who ran it.

    The command has no account behind it, so its audit entries have no actor; they name
    the operating-system user (``getpass.getuser``: $LOGNAME, $USER ..., else the
    password database; "unknown" when none says), docs/operations.md, "Accounts and groups".
    """
    try:
        os_user = getpass.getuser()
    except (OSError, KeyError, ImportError):  # no name in the environment or passwd
        os_user = None
    return accounts.Actor.command_line(os_user)


@click.command("create-user")
@click.option(
    "--role", type=click.Choice([role.value for role in Role]), required=True,
    help="What the account may do.",
)
@click.option("--login", required=True, help="The name the person signs in with.")
@click.option("--name", default=None, help="Full name shown in the app (defaults to the login).")
@click.password_option(help="Prompted for, twice, when not given.")
@with_appcontext
def create_user(role: str, login: str, name: str | None, password: str) -> None:
    """Create an account of any role; prompts for the password. Audited as the command
    line and the OS user who ran it."""
    login = normalize_login(login)
    try:
        accounts.create(command_line_actor(), login=login, name=name or login, role=role,
                        password=password)
    except accounts.LoginTaken as error:
        raise click.ClickException(f"The login {login!r} is taken.") from error
    except ValueError as error:  # a login, name or password refused, in words
        raise click.ClickException(str(error)) from error
    db.session.commit()
    click.echo(f"Created {role} {login!r}.")


@click.command("seed-demo")
@click.option("--accounts-only", is_flag=True,
              help="Add the demo accounts and group without the demo class (tests).")
@with_appcontext
def seed_demo(accounts_only: bool) -> None:
    """Add the demo accounts and group (skipped if present); into an empty database also
    the demo class: four weeks of graded answers, exams and a published custom house way."""
    login, name, password = DEMO_SUPERVISOR
    actor = command_line_actor()
    # The class goes only into a database that held nothing before this command.
    empty = not accounts_only and demo_class.database_is_empty()
    # A demo seeded before managers (or the admin) existed gets them on the next run.
    added_manager = _add_demo_manager(actor)
    admin_password = _add_demo_admin(actor)
    if accounts.login_taken(login):
        db.session.commit()
        added = [what for what, done in (("manager", added_manager),
                                         ("admin", admin_password is not None)) if done]
        click.echo(f"Demo {' and '.join(added)} added." if added
                   else "Demo accounts already present; nothing to do.")
        _echo_demo_logins(admin_password)
        return
    supervisor = accounts.create(actor, login=login, name=name, role=Role.SUPERVISOR,
                                 password=password, demo=True)
    group = groups.create(actor, name=DEMO_GROUP, supervisor=supervisor,
                          settings=GroupSettings(extra={"demo": True}))
    trainees = [accounts.create(actor, login=trainee_login, name=trainee_name, role=Role.TRAINEE,
                                password=DEMO_TRAINEE_PASSWORD, group=group, demo=True)
                for trainee_login, trainee_name in DEMO_TRAINEES]
    db.session.commit()
    click.echo("Demo accounts created.")
    if empty:
        _seed_demo_class(group, supervisor, trainees)
    _echo_demo_logins(admin_password)


def _seed_demo_class(group: Group, supervisor: User, trainees: list[User]) -> None:
    """Add the demo class (services/demo_class.py) and say what was added and how long it took."""
    app: Any = current_app._get_current_object()  # type: ignore[attr-defined]
    manager = db.session.execute(db.select(User).filter_by(login=DEMO_MANAGER[0])).scalar_one()
    started = time.perf_counter()
    click.echo("Adding the demo class (the house-way checks take a while) ...")
    refs = demo_class.seed_house_way(manager, str(app.config["SQLALCHEMY_DATABASE_URI"]))
    checked = time.perf_counter()
    sessions, attempts, exams = demo_class.seed_class(group, supervisor, trainees)
    click.echo(f"Demo class added in {time.perf_counter() - started:.1f} s: {attempts} graded "
               f"answers in {sessions} sessions over four weeks, {exams} exams, the house way "
               f"{' and '.join(refs)} (checked in {checked - started:.1f} s).")


def _add_demo_admin(actor: accounts.Actor) -> str | None:
    """Add the demo admin unless its login exists; return its new password, else None.

    The password is generated here (``secrets``), never published: the admin can reach
    every account, and ``HOST=0.0.0.0 ./run.sh`` puts the demo on the network. Only its
    hash is stored; the command prints it this once.
    """
    login, name = DEMO_ADMIN
    if accounts.login_taken(login):
        return None
    while True:
        password = secrets.token_urlsafe(12)  # 16 characters, 96 random bits
        if password_problem(password, login) is None:
            break
    accounts.create(actor, login=login, name=name, role=Role.ADMIN, password=password)
    return password


def _add_demo_manager(actor: accounts.Actor) -> bool:
    """Add the demo table-games manager unless its login exists; return whether it was added."""
    login, name, password = DEMO_MANAGER
    if accounts.login_taken(login):
        return False
    accounts.create(actor, login=login, name=name, role=Role.MANAGER, password=password,
                    demo=True)
    return True


@click.command("sweep-timeouts")
@with_appcontext
def sweep_timeouts() -> None:
    """Record every timed question left unanswered past its limit as timed out (run from cron)."""
    count = settle_overdue()
    click.echo(f"Recorded {count} unanswered timed question(s) as timed out.")


def _echo_demo_logins(admin_password: str | None = None) -> None:
    click.echo("Demo logins (published passwords: never use them in production):")
    for role, demo_login, demo_password in demo_logins():
        click.echo(f"  {role:<10} {demo_login:<16} {demo_password}")
    if admin_password is not None:
        click.echo(f"  {Role.ADMIN.value:<10} {DEMO_ADMIN[0]:<16} {admin_password}")
        click.echo("  The admin's password was generated now and is shown only this once: "
                   "note it (only its hash is stored).")
    else:
        click.echo(f"  {Role.ADMIN.value:<10} {DEMO_ADMIN[0]:<16} (the password printed when "
                   "it was created)")
