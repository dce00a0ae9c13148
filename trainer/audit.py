"""The audit log: supervisors' and admins' changes, written with the change itself."""
from __future__ import annotations

from typing import Any

from trainer.extensions import db
from trainer.models import AuditLog


def record(actor_id: int | None, action: str, target_type: str, target_id: int,
           old: Any = None, new: Any = None) -> None:
    """Add an audit entry to the current transaction (committed with the change)."""
    db.session.add(AuditLog(actor_id=actor_id, action=action, target_type=target_type,
                            target_id=target_id, old=old, new=new))


def account_fields(user: Any) -> dict[str, Any]:
    """Describe an account for the log (never its password hash)."""
    return {"login": user.login, "name": user.name, "role": str(user.role),
            "active": bool(user.active)}


def change_active(actor_id: int, user: Any, active: bool) -> None:
    """Deactivate (ending the user's sessions) or reactivate an account, and log it."""
    old = account_fields(user)
    if active:
        user.active = True
    else:
        user.deactivate()
    record(actor_id, "account.activate" if active else "account.deactivate", "user",
           user.id, old=old, new=account_fields(user))
