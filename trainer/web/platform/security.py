"""Security headers on every response, and HTTPS-only cookies behind a proxy."""
from __future__ import annotations

from flask import Flask, g, request, session
from flask_login import current_user
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wrappers import Response

# No inline script anywhere: scripts come from /static only. Inline style
# attributes are allowed (server-drawn SVG charts use them); nothing is loaded
# from another origin.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])


def _signed_in(app: Flask) -> bool:
    """Tell whether the response is a signed-in person's, without reading the database for it.

    A view that asked who is signed in has loaded the user already; for one that
    never did (``/healthz``) the cookies tell: a sign-in in the session or a
    remember-me cookie counts as signed in (``no-store`` costs nothing there), so
    the trivial endpoint sends no SQL.
    """
    if "_login_user" in g:
        return bool(current_user.is_authenticated)
    cookie = app.config.get("REMEMBER_COOKIE_NAME", "remember_token")
    return "_user_id" in session or cookie in request.cookies


def register(app: Flask) -> None:
    """Add the security headers and, when configured, trust the HTTPS proxy."""
    if app.config.get("TRUST_PROXY"):
        # Behind nginx or a load balancer terminating HTTPS: believe one hop's
        # X-Forwarded-For / -Proto so addresses and the scheme are right. (Flask types
        # wsgi_app as a method; wrapping it is Flask's documented way to add middleware.)
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)  # type: ignore[method-assign]
    if app.config.get("HTTPS"):
        app.config["SESSION_COOKIE_SECURE"] = True
        app.config["REMEMBER_COOKIE_SECURE"] = True
        app.config["PREFERRED_URL_SCHEME"] = "https"

    # NUL and other bytes no field may hold are refused by web/platform/limits.py (the request-limit
    # step, before the CSRF check), with a message saying where.

    protective = [
        ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "same-origin"),
        ("Permissions-Policy", "camera=(), microphone=(), geolocation=()"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
    ]
    if app.config.get("HTTPS"):
        protective.append(("Strict-Transport-Security", "max-age=31536000"))

    @app.after_request
    def add_security_headers(response: Response) -> Response:
        """Set CSP and the other protective headers (each unless the view set its own).

        One pass over the headers the response has, not one ``setdefault`` per header
        (each of which walks them all again).
        """
        headers = response.headers
        present = {key.lower() for key, _value in headers.items()}
        headers.extend([(key, value) for key, value in protective if key.lower() not in present])
        return response

    @app.after_request
    def forbid_storing_signed_in_pages(response: Response) -> Response:
        """Send every signed-in page and export with ``Cache-Control: no-store`` (not static files)."""
        if request.endpoint != "static" and _signed_in(app):
            response.headers["Cache-Control"] = "no-store"
        return response
