"""The audit log: supervisors' and admins' changes, written with the change itself."""
from __future__ import annotations

from typing import Any

from trainer.engine.messages import N_, EngineError, Message
from trainer.extensions import db
from trainer.models import AuditLog

# A role in a sentence (never its id), for the refusal below.
ROLE_WORDS = {"admin": N_("an admin"), "manager": N_("a manager"),
              "supervisor": N_("a supervisor"), "trainee": N_("a trainee")}


def record(actor_id: int | None, action: str, target_type: str, target_id: int,
           old: Any = None, new: Any = None) -> None:
    """Add an audit entry to the current transaction (committed with the change)."""
    db.session.add(AuditLog(actor_id=actor_id, action=action, target_type=target_type,
                            target_id=target_id, old=old, new=new))


def account_fields(user: Any) -> dict[str, Any]:
    """Describe an account for the log (never its password hash)."""
    return {"login": user.login, "name": user.name, "role": str(user.role),
            "active": bool(user.active)}


class ReactivationRefused(EngineError):
    """The account was deactivated by a higher role than the one reactivating it."""


def change_active(actor_id: int, actor_role: str, user: Any, active: bool) -> None:
    """Deactivate (ending the user's sessions) or reactivate an account, and log it.

    Only the role that deactivated an account, or a higher one, may reactivate
    it (``ReactivationRefused``, nothing changed).
    """
    old = account_fields(user)
    if active:
        if not user.active and not user.may_be_reactivated_by(actor_role):
            role = str(user.deactivated_by_role or "admin")
            raise ReactivationRefused(
                N_("Only %(role)s or a higher role can reactivate this account."),
                role=Message(ROLE_WORDS.get(role, role)))
        user.active = True
        user.deactivated_by_role = None
    else:
        user.deactivate(by_role=actor_role)
    record(actor_id, "account.activate" if active else "account.deactivate", "user",
           user.id, old=old, new=account_fields(user))
