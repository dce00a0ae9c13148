"""The audit log: supervisors' and admins' changes, written with the change itself.

Each service writes its own entries (accounts: ``services/accounts.py``, groups:
``services/groups.py``); the web writes only the sign-ins' (``web/platform/sessions.py``,
``web/auth/pages.py``)."""
from __future__ import annotations

from typing import Any

from trainer.extensions import db
from trainer.models import AuditLog


def record(actor_id: int | None, action: str, target_type: str, target_id: int,
           old: Any = None, new: Any = None) -> None:
    """Add an audit entry to the current transaction (committed with the change)."""
    db.session.add(AuditLog(actor_id=actor_id, action=action, target_type=target_type,
                            target_id=target_id, old=old, new=new))

