"""Supervisors' pages: groups and their dashboards, trainees, certification, settings, exports.

Supervisors see their own groups and the trainees now in them; admins see every
group, and so do table-games managers, read-only (``base.MANAGER_PAGES``). The
figures come from ``trainer.services.reports``; these modules only read the
request, check ownership and render. One blueprint (``base.bp``, with
the gate every page passes), split by page family.
"""
from trainer.web.supervisor import (  # noqa: F401  (attach the routes)
    class_rules,
    exports,
    groups,
    learning,
    settings,
    trainees,
)
from trainer.web.supervisor.base import bp

__all__ = ["bp"]
