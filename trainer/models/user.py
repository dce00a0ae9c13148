"""Accounts: trainees, supervisors, table-games managers and admins."""
from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING

from flask import current_app, has_app_context
from flask_login import UserMixin
from sqlalchemy import CheckConstraint, String, false
from sqlalchemy.orm import Mapped, mapped_column, relationship
from werkzeug.security import check_password_hash, generate_password_hash

from trainer.extensions import Model
from trainer.models.passwords import (
    DEMO_PASSWORDS,
    MIN_PASSWORD_LENGTH,
    PasswordProblem,
    normalize_password,
    password_problem,
)
from trainer.models.types import UTCDateTime, utcnow

if TYPE_CHECKING:
    from trainer.models.group import Group, Membership

__all__ = ["MIN_PASSWORD_LENGTH", "PasswordRefused", "Role", "User", "normalize_login"]

DEFAULT_HASH_METHOD = "scrypt"


class Role(StrEnum):
    """What an account may do in the training room."""

    TRAINEE = "trainee"
    SUPERVISOR = "supervisor"
    # The table-games manager: owns the house ways and table-rules profiles, prints
    # sheets, and reads every group's dashboards without changing them.
    MANAGER = "manager"
    ADMIN = "admin"


# Who outranks whom when an account is reactivated.
ROLE_RANK: dict[str, int] = {Role.TRAINEE: 0, Role.SUPERVISOR: 1, Role.MANAGER: 2, Role.ADMIN: 3}


def normalize_login(login: str) -> str:
    """Return the login as stored: trimmed and lower case."""
    return login.strip().lower()


class PasswordRefused(ValueError):
    """A password the rule refuses; ``problem`` says why (the caller words it)."""

    def __init__(self, problem: PasswordProblem) -> None:
        super().__init__(problem.english)
        self.problem = problem


class User(UserMixin, Model):
    """A person who signs in: a trainee, a supervisor, a manager or an admin."""

    __tablename__ = "users"
    __table_args__ = (
        CheckConstraint(
            "role IN ('trainee', 'supervisor', 'manager', 'admin')", name="role"
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    login: Mapped[str] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str] = mapped_column(String(256))
    role: Mapped[str] = mapped_column(String(16), default=Role.TRAINEE)
    active: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    # Part of the id kept in every signed-in session: bumping it (a password
    # change, a deactivation) ends the user's other sessions.
    session_version: Mapped[int] = mapped_column(default=0, server_default="0")
    # The role of whoever deactivated the account: only that role or a higher
    # one may reactivate it (None while active).
    deactivated_by_role: Mapped[str | None] = mapped_column(String(16))
    # The zone the user reads times in (an IANA name); None: the room's, then the browser's.
    time_zone: Mapped[str | None] = mapped_column(String(64))
    # The language the user reads pages in (services/languages.py LANGUAGES); None: the
    # installation's, then the browser's (issue 19).
    language: Mapped[str | None] = mapped_column(String(8))
    # Set at sign-in when the password typed breaks today's password rule
    # (models/passwords.py): the user must change it before any other page (issue 24).
    password_change_due: Mapped[bool] = mapped_column(default=False, server_default=false())

    membership: Mapped[Membership | None] = relationship(
        back_populates="user", cascade="all, delete-orphan", uselist=False
    )
    groups_supervised: Mapped[list[Group]] = relationship(
        back_populates="supervisor", order_by="Group.name"
    )

    @property
    def is_active(self) -> bool:
        """Tell Flask-Login whether this account may sign in."""
        return self.active

    @property
    def group(self) -> Group | None:
        """Return the trainee's group, if any."""
        return self.membership.group if self.membership else None

    # The token of the sign-in this object was loaded for (a UserSession row);
    # not a column: set at sign-in and by the user loader.
    session_token = ""

    def get_id(self) -> str:
        """Return the session id: user id, session version and this sign-in's token."""
        return f"{self.id}.{self.session_version or 0}.{self.session_token}"

    def end_other_sessions(self) -> None:
        """Invalidate every session signed in with the current session version."""
        self.session_version = (self.session_version or 0) + 1

    def deactivate(self, by_role: str | None = None) -> None:
        """Stop the account from signing in, end its sessions and note who did it."""
        self.active = False
        self.deactivated_by_role = by_role or Role.ADMIN
        self.end_other_sessions()

    def may_be_reactivated_by(self, role: str) -> bool:
        """Return whether ``role`` may reactivate the account: the deactivating role or higher.

        An inactive account with no recorded role (created inactive, or
        deactivated outside the app) waits for an admin.
        """
        needed = self.deactivated_by_role or Role.ADMIN
        return ROLE_RANK.get(role, -1) >= ROLE_RANK.get(needed, len(ROLE_RANK))

    def set_password(self, password: str, *, demo: bool = False) -> None:
        """Store a scrypt hash of the normalised ``password`` and end the user's other sessions.

        Raises ``PasswordRefused`` when the password breaks the rule
        (``models/passwords.py``) or is the current one. ``demo`` lets
        ``trainer seed-demo`` give a demo account its published password, and
        nothing else.
        """
        text = normalize_password(password)
        if demo:
            if text not in DEMO_PASSWORDS:
                raise PasswordRefused(PasswordProblem.DEMO)
        else:
            problem = password_problem(password, self.login)
            if problem is None and self.password_hash and self.check_password(password):
                problem = PasswordProblem.CURRENT
            if problem is not None:
                raise PasswordRefused(problem)
        method = DEFAULT_HASH_METHOD
        if has_app_context():
            # Tests lower the scrypt cost through config; production keeps the default.
            method = current_app.config.get("PASSWORD_HASH_METHOD", DEFAULT_HASH_METHOD)
        self.password_hash = generate_password_hash(text, method=method)
        self.password_change_due = False
        if self.id is not None:
            self.end_other_sessions()

    def check_password(self, password: str) -> bool:
        """Return whether ``password`` matches the stored hash.

        Hashes are of the normalised password; one stored before normalisation
        (issue 24) still matches the password exactly as typed.
        """
        text = normalize_password(password)
        if check_password_hash(self.password_hash, text):
            return True
        return text != password and check_password_hash(self.password_hash, password)

    def __repr__(self) -> str:
        return f"<User {self.login} {self.role}>"
