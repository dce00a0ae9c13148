"""Account commands of the app: create-user, seed-demo, sweep-timeouts."""
from __future__ import annotations

import click
from flask.cli import with_appcontext

from trainer.extensions import db
from trainer.models import Group, Membership, Role, User, normalize_login
from trainer.services.drills import settle_overdue
from trainer.services.group_settings import GroupSettings

DEMO_SUPERVISOR = ("demo-supervisor", "Demo Supervisor (demo)", "demo-supervisor-pw")
DEMO_MANAGER = ("demo-manager", "Demo Manager (demo)", "demo-manager-pw")
DEMO_GROUP = "Demo group (demo)"
DEMO_TRAINEES = (
    ("demo-trainee1", "Demo Trainee One (demo)"),
    ("demo-trainee2", "Demo Trainee Two (demo)"),
    ("demo-trainee3", "Demo Trainee Three (demo)"),
)
DEMO_TRAINEE_PASSWORD = "demo-trainee-pw"
# The password rule (trainer/models/passwords.py DEMO_PASSWORDS) refuses these three
# everywhere else; seed-demo alone sets them (User.set_password(..., demo=True)), and
# signing in with them does not force a change (docs/operations.md, "Password rules").


def demo_logins() -> list[tuple[str, str, str]]:
    """Return (role, login, password) for every demo account."""
    rows = [(Role.MANAGER.value, DEMO_MANAGER[0], DEMO_MANAGER[2]),
            (Role.SUPERVISOR.value, DEMO_SUPERVISOR[0], DEMO_SUPERVISOR[2])]
    rows += [(Role.TRAINEE.value, login, DEMO_TRAINEE_PASSWORD) for login, _name in DEMO_TRAINEES]
    return rows


def _login_exists(login: str) -> bool:
    return db.session.execute(db.select(User.id).filter_by(login=login)).first() is not None


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
    """Create an account of any role; prompts for the password."""
    login = normalize_login(login)
    if _login_exists(login):
        raise click.ClickException(f"The login {login!r} is taken.")
    user = User(name=name or login, login=login, role=role)
    try:
        user.set_password(password)
    except ValueError as error:
        raise click.ClickException(str(error)) from error
    db.session.add(user)
    db.session.commit()
    click.echo(f"Created {role} {login!r}.")


@click.command("seed-demo")
@with_appcontext
def seed_demo() -> None:
    """Add a demo manager, supervisor, group and three trainees (skipped if present)."""
    login, name, password = DEMO_SUPERVISOR
    # A demo seeded before managers existed gets its manager on the next run.
    added_manager = _add_demo_manager()
    if _login_exists(login):
        db.session.commit()
        click.echo("Demo manager added." if added_manager
                   else "Demo accounts already present; nothing to do.")
        _echo_demo_logins()
        return
    supervisor = User(name=name, login=login, role=Role.SUPERVISOR)
    supervisor.set_password(password, demo=True)
    group = Group(name=DEMO_GROUP, supervisor=supervisor)
    GroupSettings(extra={"demo": True}).save_to(group)
    db.session.add_all([supervisor, group])
    for trainee_login, trainee_name in DEMO_TRAINEES:
        trainee = User(name=trainee_name, login=trainee_login, role=Role.TRAINEE)
        trainee.set_password(DEMO_TRAINEE_PASSWORD, demo=True)
        trainee.membership = Membership(group=group)
        db.session.add(trainee)
    db.session.commit()
    click.echo("Demo accounts created.")
    _echo_demo_logins()


def _add_demo_manager() -> bool:
    """Add the demo table-games manager unless its login exists; return whether it was added."""
    login, name, password = DEMO_MANAGER
    if _login_exists(login):
        return False
    manager = User(name=name, login=login, role=Role.MANAGER)
    manager.set_password(password, demo=True)
    db.session.add(manager)
    return True


@click.command("sweep-timeouts")
@with_appcontext
def sweep_timeouts() -> None:
    """Record every timed question left unanswered past its limit as timed out (run from cron)."""
    count = settle_overdue()
    click.echo(f"Recorded {count} unanswered timed question(s) as timed out.")


def _echo_demo_logins() -> None:
    click.echo("Demo logins (published passwords: never use them in production):")
    for role, demo_login, demo_password in demo_logins():
        click.echo(f"  {role:<10} {demo_login:<16} {demo_password}")
