"""Drill kinds, registered by slug: each generates questions and grades answers."""
import importlib
import pkgutil

from . import kinds
from .base import DRILLS, Drill, get_drill, new_question
from .context import DrillContext, Grade

# Importing each kind's home (a package of ``kinds/``) registers it; no kind is named here.
for _home in pkgutil.iter_modules(kinds.__path__):
    importlib.import_module(f"{kinds.__name__}.{_home.name}")

__all__ = ["DRILLS", "Drill", "DrillContext", "Grade", "get_drill", "new_question"]
