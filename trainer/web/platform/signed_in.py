"""The signed-in account of a request, as the sign-in's one read found it (``current_user``).

Every signed-in request reads its sign-in with one statement (``sessions.load``). That
read used to build an ORM ``User``: the ORM's loading machinery and the instrumented
object cost about as much as a whole ``/healthz`` request, on every question and answer
(docs/operations.md, "Per-request cost before and after issues 28 and 30"). A
``SignedIn`` holds the
account's columns from that same row (never its password hash) and answers what pages
ask of the one signed in: its id, role, name, login, language, time zone, whether a
password change is due; the trainee's group (``group``) and a supervisor's groups
(``groups_supervised``) are read when a page asks for them. It is not a row to change:
the account is changed by ``services/accounts.py`` (by id), and ``account()`` gives the
ORM ``User`` to a page that needs one. A page that changes what the rest of its own
request reads tells it here too (``speak``: the account page's language, so the
message after the change speaks it); a page that changes the session version keeps the session signed in
with ``sessions.keep``.

Right after signing in (``login_user``), the same request's ``current_user`` is the ORM
``User`` itself; both answer the same names.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_login import UserMixin
from sqlalchemy import select

from trainer.extensions import db
from trainer.models import Group, Membership, User

# The account's columns a request reads with its sign-in: all but the password's hash.
COLUMNS = tuple(c for c in User.__table__.columns if c.key != "password_hash")
COLUMN_KEYS = tuple(c.key for c in COLUMNS)


class SignedIn(UserMixin):
    """The signed-in account: its columns, as read with the sign-in (see the module)."""

    __slots__ = (*COLUMN_KEYS, "session_token", "_account", "_group")

    id: int
    role: str
    name: str
    login: str
    active: bool
    session_version: int
    language: str | None
    time_zone: str | None
    password_change_due: bool

    def __init__(self, values: Sequence[Any], session_token: str) -> None:
        for key, value in zip(COLUMN_KEYS, values, strict=True):
            setattr(self, key, value)
        self.session_token = session_token
        self._account: User | None = None
        self._group: tuple[Group | None] | None = None

    @property
    def is_active(self) -> bool:
        """Tell Flask-Login whether this account may sign in."""
        return bool(self.active)

    def get_id(self) -> str:
        """Return the session id, as ``User.get_id`` writes it."""
        return f"{self.id}.{self.session_version or 0}.{self.session_token}"

    def account(self) -> User:
        """Return the ORM row of this account (read once a request, when a page needs it)."""
        if self._account is None:
            self._account = db.session.get_one(User, self.id)
        return self._account

    @property
    def group(self) -> Group | None:
        """Return the trainee's group, if any: one statement, the first time it is asked."""
        if self._group is None:
            found = db.session.execute(
                select(Group).join(Membership, Membership.group_id == Group.id)
                .where(Membership.user_id == self.id)).scalar_one_or_none()
            self._group = (found,)
        return self._group[0]

    @property
    def groups_supervised(self) -> list[Group]:
        """Return the groups this account supervises, by name."""
        return list(self.account().groups_supervised)

    def speak(self, language: str | None) -> None:
        """Read the rest of this request in ``language``, the one just saved for this
        account (services/accounts.py wrote it; this is the request's copy)."""
        object.__setattr__(self, "language", language)

    def __repr__(self) -> str:
        return f"<SignedIn {self.id} {self.role}>"
