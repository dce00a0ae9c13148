"""Accounts: the one place an account is created, changed, deactivated or reactivated.

Every way in calls this module: the admin's pages (a supervisor or a manager), the
supervisor's (a trainee in one of their groups), the account page (one's own
password, language and time zone), the sign-in (a password the rule now refuses)
and the commands (``trainer create-user``, ``trainer seed-demo``). Each change writes
its audit entry here, in the same transaction (the caller commits), with the action
names the audit page and its filter know: ``account.create``,
``account.password-reset``, ``account.password-change``,
``account.password-change-due``, ``account.activate``, ``account.deactivate`` and
``account.preferences``.

Who may change whom is the caller's to decide (the web's ``role_required`` and
``get_*_or_404``, the command line's shell access); what is done is decided here: a
login's form and uniqueness, a full name, the role, the group, the password rule
(``models/passwords.py``, applied by ``User.set_password``) and who may reactivate
an account. A refusal is an ``AccountError`` (an ``EngineError`` with an
``N_``-marked sentence, worded by the web with ``engine_words.message_words``), or the
model's ``PasswordRefused`` naming the rule's problem; nothing is changed then.

The actor is an ``Actor``: a signed-in account, or the command line. A command has
no account behind it, so its entries have no ``actor_id``; the operating-system user
who ran it is kept in the entry's new values as ``command_line_user`` and the audit
page shows "Command line (that user)" as who did it (docs/operations.md, "Accounts and
groups: one service each").
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError

from trainer.engine.messages import N_, EngineError, Message
from trainer.extensions import db
from trainer.models import Group, Membership, Role, User, normalize_login
from trainer.models.passwords import is_demo_pair, password_problem
from trainer.services import audit, languages, time_zones

# A login: letters, digits, dots, dashes and underscores, starting with a letter or
# digit (the web's new-account form checks the same, with these); at most the column's 64.
LOGIN_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]*$"
MAX_LOGIN_LENGTH = 64
MAX_NAME_LENGTH = 120
# The key of an entry's new values naming the operating-system user of a command.
COMMAND_LINE_KEY = "command_line_user"
UNKNOWN_OS_USER = "unknown"

# A role in a sentence (never its id), for the reactivation refusal.
ROLE_WORDS = {"admin": N_("an admin"), "manager": N_("a manager"),
              "supervisor": N_("a supervisor"), "trainee": N_("a trainee")}


@dataclass(frozen=True, slots=True)
class Actor:
    """Who makes a change: a signed-in account (``user_id``, ``role``) or the command line.

    The command line is whoever may run ``trainer`` on the server: it acts with an
    admin's rank (it may reactivate any account) and is named in the log by the
    operating-system user (``command_line_user``).
    """

    user_id: int | None
    role: str
    command_line_user: str | None = None

    @classmethod
    def account(cls, user: Any) -> Actor:
        """The signed-in account ``user`` (anything with ``id`` and ``role``)."""
        return cls(int(user.id), str(user.role))

    @classmethod
    def command_line(cls, os_user: str | None) -> Actor:
        """A ``trainer`` command run by the operating-system user ``os_user``."""
        return cls(None, Role.ADMIN.value, (os_user or "").strip()[:MAX_LOGIN_LENGTH]
                   or UNKNOWN_OS_USER)


class AccountError(EngineError):
    """An account change refused, in words; nothing was changed."""


class LoginRefused(AccountError):
    """A login that is not of the login's form, or too long."""


class LoginTaken(LoginRefused):
    """Another account has this login."""


class NameRefused(AccountError):
    """A full name that is empty or too long."""


class ReactivationRefused(AccountError):
    """The account was deactivated by a higher role than the one reactivating it."""


def record(actor: Actor, action: str, target_type: str, target_id: int,
           old: Any = None, new: Any = None) -> None:
    """Add an audit entry made by ``actor``; a command's entry names the OS user who ran it
    in its new values (``COMMAND_LINE_KEY``)."""
    if actor.command_line_user is not None:
        shown = dict(new) if isinstance(new, dict) else ({} if new is None else {"value": new})
        new = {**shown, COMMAND_LINE_KEY: actor.command_line_user}
    audit.record(actor.user_id, action, target_type, target_id, old=old, new=new)


def account_fields(user: User) -> dict[str, Any]:
    """Describe an account for the log (never its password hash)."""
    return {"login": user.login, "name": user.name, "role": str(user.role),
            "active": bool(user.active)}


def checked_login(login: str) -> str:
    """Return the login as stored (trimmed, lower case); LoginRefused for a bad one."""
    login = normalize_login(login or "")
    if len(login) > MAX_LOGIN_LENGTH:
        raise LoginRefused(too_long(N_("Login"), MAX_LOGIN_LENGTH))
    if not re.fullmatch(LOGIN_PATTERN, login):
        raise LoginRefused(N_("Use letters, digits, dots, dashes and underscores."))
    return login


def too_long(what: str, most: int) -> Message:
    """The refusal of a text over ``most`` characters; ``what`` is its ``N_``-marked name."""
    return Message(N_("%(what)s is too long: at most %(most)s characters."),
                   what=Message(what), most=most)


def checked_text(text: str, *, missing: str, what: str, most: int,
                 error: type[EngineError]) -> str:
    """Return a name as stored (trimmed); ``error`` saying ``missing`` when it is empty, or
    that ``what`` is too long past ``most`` characters (both ``N_``-marked)."""
    text = (text or "").strip()
    if not text:
        raise error(missing)
    if len(text) > most:
        raise error(too_long(what, most))
    return text


def checked_name(name: str) -> str:
    """Return a full name as stored (trimmed); NameRefused when empty or too long."""
    return checked_text(name, missing=N_("Give the account a full name."), what=N_("Full name"),
                        most=MAX_NAME_LENGTH, error=NameRefused)


def login_taken(login: str) -> bool:
    """Tell whether an account has this login (as stored)."""
    return db.session.execute(
        db.select(User.id).filter_by(login=normalize_login(login))).first() is not None


def create(actor: Actor, *, login: str, name: str, role: str, password: str,
           group: Group | None = None, demo: bool = False) -> User:
    """Create an account, put a trainee in ``group``, and log it; the caller commits.

    Refuses (nothing added) a bad or taken login (``LoginRefused``, ``LoginTaken``), a
    missing or long name (``NameRefused``), an unknown role or a group for an account
    that is not a trainee (``AccountError``), and a password the rule refuses
    (``PasswordRefused``).
    ``demo`` is ``trainer seed-demo``'s: it gives a demo account its published
    password (``User.set_password``), and nothing else may.
    """
    login = checked_login(login)
    name = checked_name(name)
    if role not in {r.value for r in Role}:
        raise AccountError(N_("There is no such role."))
    if group is not None and role != Role.TRAINEE:
        raise AccountError(N_("Only a trainee belongs to a group."))
    if login_taken(login):
        raise LoginTaken(N_("That login is taken."))
    user = User(name=name, login=login, role=role)
    user.set_password(password, demo=demo)
    if group is not None:
        user.membership = Membership(group=group)
    db.session.add(user)
    try:
        db.session.flush()
    except IntegrityError as error:  # taken between the check and the write
        db.session.rollback()
        raise LoginTaken(N_("That login is taken.")) from error
    new = account_fields(user)
    if group is not None:
        new["group_id"] = group.id
    record(actor, "account.create", "user", user.id, new=new)
    return user


def reset_password(actor: Actor, user: User, password: str) -> None:
    """Give ``user`` a new password chosen by someone else, ending their sessions, and log it.

    ``PasswordRefused`` (nothing changed) for a password the rule refuses or the current
    one. The caller commits.
    """
    user.set_password(password)
    record(actor, "account.password-reset", "user", user.id)


def change_own_password(user: User, current: str, new: str) -> None:
    """Change one's own password after checking the current one, and log it.

    ``AccountError`` for a wrong current password, ``PasswordRefused`` for a new one
    the rule refuses; nothing changed then. Ends the user's other sessions (the caller
    signs this one in again). The caller commits.
    """
    if not user.check_password(current):
        raise AccountError(N_("That is not your current password."))
    user.set_password(new)
    record(Actor.account(user), "account.password-change", "user", user.id)


def note_password_at_sign_in(user: User, password: str) -> None:
    """At sign-in, mark the account to change a password the rule now refuses, and log it.

    Only at sign-in is the plain password known. The published passwords of the demo
    accounts (``trainer seed-demo``) are left as they are: a forced change would lock
    every other visitor out of the demo (docs/operations.md). Logged once, when the
    mark is set; the new password clears it (``User.set_password``).
    """
    if user.password_change_due:
        return
    if password_problem(password, user.login) is None or is_demo_pair(user.login, password):
        return
    user.password_change_due = True
    record(Actor.account(user), "account.password-change-due", "user", user.id,
           old={"password_change_due": False}, new={"password_change_due": True})


def check_active_change(actor: Actor, user: User, active: bool) -> None:
    """Refuse, before anything is asked or changed, an activation change ``actor`` may not make.

    Nobody deactivates (or reactivates) their own account; only the role that
    deactivated an account, or a higher one, reactivates it (``ReactivationRefused``).
    """
    if actor.user_id is not None and actor.user_id == user.id:
        raise AccountError(N_("You cannot deactivate your own account."))
    if active and not user.active and not user.may_be_reactivated_by(actor.role):
        role = str(user.deactivated_by_role or Role.ADMIN.value)
        raise ReactivationRefused(
            N_("Only %(role)s or a higher role can reactivate this account."),
            role=Message(ROLE_WORDS.get(role, role)))


def set_active(actor: Actor, user: User, active: bool) -> None:
    """Deactivate (ending the user's sessions) or reactivate an account, and log it.

    Refused as ``check_active_change`` says (nothing changed). The caller commits.
    """
    check_active_change(actor, user, active)
    old = account_fields(user)
    if active:
        user.active = True
        user.deactivated_by_role = None
    else:
        user.deactivate(by_role=actor.role)
    record(actor, "account.activate" if active else "account.deactivate", "user",
           user.id, old=old, new=account_fields(user))


def set_language(user_id: int, code: str | None) -> str | None:
    """Set (or clear, with an empty code) a user's own language, and log a change; return
    the language stored (None: cleared).

    ValueError in words (``languages.checked_language``) for a language the trainer
    does not have; the caller commits.
    """
    checked = languages.checked_language(code)
    _set_preference(user_id, "language", checked)
    return checked


def set_time_zone(user_id: int, name: str) -> None:
    """Set (or clear, with an empty name) a user's own time zone, and log a change.

    ValueError in words (``time_zones.checked_zone``) for a name that is not a zone;
    the caller commits.
    """
    _set_preference(user_id, "time_zone", time_zones.checked_zone(name))


def _set_preference(user_id: int, key: str, value: str | None) -> None:
    user = db.session.get_one(User, user_id)
    old = user.language if key == "language" else user.time_zone
    if old == value:
        return
    if key == "language":
        user.language = value
    else:
        user.time_zone = value
    record(Actor.account(user), "account.preferences", "user", user.id,
           old={key: old}, new={key: value})
