"""Error pages for 400, 403, 404, 413, 415, 500 and a rejected CSRF token."""
from __future__ import annotations

from flask import Flask, current_app, jsonify, render_template, request
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from trainer.extensions import db
from trainer.web.platform.limits import InputRefused, WrongContentType, is_json_endpoint


def _wants_json() -> bool:
    best = request.accept_mimetypes.best_match(["application/json", "text/html"])
    # A JSON endpoint answers JSON whatever the request sent (web/platform/limits.py).
    return request.is_json or best == "application/json" or is_json_endpoint(request.endpoint)


def wants_json() -> bool:
    """Tell whether the request is a script's that reads JSON (its errors are answered in JSON)."""
    return _wants_json()


def _render(code: int, title: str, message: str) -> tuple[str | Response, int]:
    if _wants_json():
        return jsonify(error=title, message=message), code
    return render_template("errors/error.html", code=code, title=title, message=message), code


def render_error(code: int, title: str, message: str) -> tuple[str | Response, int]:
    """Answer with an error page, or with JSON to a script that asks for it."""
    return _render(code, title, message)


def register(app: Flask) -> None:
    """Attach the error handlers to ``app``."""

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> tuple[str | Response, int]:
        """Explain a missing or stale form token."""
        return _render(
            400,
            _("This form has expired"),
            _("The page was open too long or was sent twice. Reload the page and try again."),
        )

    @app.errorhandler(InputRefused)
    def input_refused(error: InputRefused) -> tuple[str | Response, int]:
        """Explain which part of the request held characters that are not allowed."""
        return _render(400, _("Request not accepted"), str(error.description))

    @app.errorhandler(WrongContentType)
    def wrong_content_type(error: WrongContentType) -> tuple[str | Response, int]:
        """Explain which kind of request this address takes."""
        return _render(415, _("Request not accepted"), str(error.description))

    @app.errorhandler(400)
    def bad_request(error: HTTPException) -> tuple[str | Response, int]:
        """Explain a request the app could not read."""
        return _render(400, _("Bad request"), _("The request could not be understood."))

    @app.errorhandler(403)
    def forbidden(error: HTTPException) -> tuple[str | Response, int]:
        """Explain that the page is not for this account."""
        return _render(403, _("Not allowed"), _("Your account cannot open this page."))

    @app.errorhandler(404)
    def not_found(error: HTTPException) -> tuple[str | Response, int]:
        """Explain that there is nothing here."""
        return _render(404, _("Page not found"), _("There is no page at this address."))

    @app.errorhandler(413)
    def too_large(error: HTTPException) -> tuple[str | Response, int]:
        """Explain that the request was larger than the app accepts."""
        limit = current_app.config.get("MAX_CONTENT_LENGTH") or 0
        return _render(
            413,
            _("Request too large"),
            _("The request is larger than the %(kib)d KiB this app accepts; nothing was saved.",
              kib=limit // 1024),
        )

    @app.errorhandler(500)
    def server_error(error: Exception) -> tuple[str | Response, int]:
        """Apologise for a failure and leave the database session clean."""
        db.session.rollback()
        return _render(
            500,
            _("Something went wrong"),
            _("The error has been logged. Go back and try again, or ask your supervisor."),
        )
