"""The house-way editor's blueprint (``manager_ways``, ``/manager/house-ways``) and its constants."""
from __future__ import annotations

from flask import (
    Blueprint,
)

from trainer.engine import toml_limits
from trainer.models import Role
from trainer.services import house_way_jobs

bp = Blueprint("manager_ways", __name__, url_prefix="/manager/house-ways")
MANAGERS = (Role.MANAGER, Role.ADMIN)
SEED = house_way_jobs.DEFAULT_SEED  # the same deals every time, so results compare
MAX_UPLOAD_BYTES = toml_limits.MAX_BYTES  # the engine's limit on a house-way file
