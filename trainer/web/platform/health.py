"""A trivial endpoint for load balancers and for the load test's baseline."""
from __future__ import annotations

from flask import Blueprint, jsonify
from werkzeug.wrappers import Response

bp = Blueprint("health", __name__)


@bp.route("/healthz")
def healthz() -> Response:
    """Answer that the process is up (no database work)."""
    return jsonify(status="ok")
