"""Static files: versioned URLs, precomputed gzip, long cache lifetimes.

Every ``url_for('static', filename=...)`` gets ``?v=<hash>``, the first 12 hex
digits of the file's SHA-256, so a changed file has a new URL and browsers may
keep a versioned one for a year (``Cache-Control: public, max-age=31536000,
immutable``). A request without the current version gets a short lifetime.

Each file's hash and gzip bytes are worked out when the app is built
(``configure_static_files`` in the factory, once in the master under
``gunicorn --preload``), never while answering a request; a file that appears
later is read once, on its first use, and kept. The work is kept per process
by path and modification time, so building the app again (as every test does)
reads nothing twice. With ``app.debug`` a file's modification time is checked
on each use, so an edited stylesheet gets its new hash without a restart.

A compressible file (text, scripts, SVG, JSON) is sent gzip-compressed when the
request's ``Accept-Encoding`` allows gzip, with ``Content-Encoding: gzip``,
``Vary: Accept-Encoding`` and an ETag of its own (``"<hash>-gz"``). The stdlib's
gzip is used; brotli would need a compiled library. Pages (HTML) are not
compressed here: they carry the CSRF token (BREACH); a proxy may do it.

Stylesheets are sent minified (``minify_css``: comments dropped, whitespace
collapsed outside strings) and scripts without their whole-line comments
(``minify_js``); the files on disk keep their comments for people.
The version hash is of the bytes sent.

A few files live outside the static folder and are served as if they were in it
(``extra``, a URL filename -> the file): each drill kind's script, kept in its web
folder ``templates/drills/kinds/<slug>/kind.js`` and served at
``/static/kinds/<slug>.js`` (``web/platform/drill_kinds.py``). They are versioned, minified,
gzipped and warmed exactly like the folder's files; only the names given are served
(an exact look-up, so no path reaches beside them), and any other name under
``kinds/`` is looked for in the folder like any file (404 when missing).
"""
from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os
import posixpath
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from flask import Flask, current_app, request
from flask.sessions import SecureCookieSessionInterface, SessionMixin
from flask.wrappers import Response as FlaskResponse
from werkzeug.security import safe_join
from werkzeug.wrappers import Response

VERSION_ARG = "v"
VERSION_LENGTH = 12
LONG_MAX_AGE = 31536000  # a year: the URL changes whenever the file does
SHORT_MAX_AGE = 300  # an unversioned or outdated URL
# Larger files are sent from disk as they are (the static folder has none).
MAX_KEPT_BYTES = 1024 * 1024
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml")
EXTENSION_KEY = "trainer.static_files"


@dataclass(frozen=True)
class StaticFile:
    """One static file as served: its bytes, their gzip, its version hash."""

    data: bytes
    gzipped: bytes | None
    version: str
    mimetype: str
    modified: datetime
    stamp: tuple[int, int, int]  # inode, modification time, size: a changed file differs


# A CSS string ("..." or '...', with escapes) or a comment; what lies between is minified.
_CSS_TOKENS = re.compile(r'("(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\')|/\*.*?\*/', re.S)
_CSS_SPACE = re.compile(r"\s+")
_CSS_AROUND = re.compile(r"\s*([{};,])\s*")


def minify_css(text: str) -> str:
    """Return a stylesheet without comments and with runs of whitespace collapsed.

    Strings are kept exactly. Whitespace is dropped only around ``{ } ; ,``, where
    CSS never reads it (not around ``:``, which a selector such as ``.a :focus``
    needs).
    """
    out: list[str] = []
    pos = 0

    def squeeze(chunk: str) -> str:
        return _CSS_AROUND.sub(r"\1", _CSS_SPACE.sub(" ", chunk))

    for m in _CSS_TOKENS.finditer(text):
        out.append(squeeze(text[pos:m.start()]))
        if m.group(1) is not None:
            out.append(m.group(1))
        else:
            out.append(" ")          # a comment separates like a space
        pos = m.end()
    out.append(squeeze(text[pos:]))
    return "".join(out).strip()


_JS_COMMENT_LINE = re.compile(r"^[ \t]*//.*(?:\n|$)", re.M)


def minify_js(text: str) -> str:
    """Return a script without its whole-line ``//`` comments (issue 26: the drill page's
    weight). Only lines that hold nothing but a comment go: a line can begin with ``//``
    only as a comment, except inside a template literal or a string continued with a
    backslash, and a script holding either is sent as written."""
    if "`" in text or re.search(r"\\\n", text):
        return text
    return _JS_COMMENT_LINE.sub("", text)


def _stamp(stat: os.stat_result) -> tuple[int, int, int]:
    return (stat.st_ino, stat.st_mtime_ns, stat.st_size)


# Per process, by absolute path: the file as served, with the stamp it was read at.
_LOADED: dict[str, StaticFile] = {}
_LOCK = threading.Lock()


def _mimetype(path: Path) -> str:
    guessed, _encoding = mimetypes.guess_type(path.name)
    return guessed or "application/octet-stream"


def load_file(path: Path) -> StaticFile | None:
    """Return the file at ``path`` hashed and compressed (kept per process), or None if it is not one."""
    try:
        stat = path.stat()
    except OSError:
        return None
    if not path.is_file() or stat.st_size > MAX_KEPT_BYTES:
        return None
    key = str(path)
    known = _LOADED.get(key)
    if known is not None and known.stamp == _stamp(stat):
        return known
    data = path.read_bytes()
    mimetype = _mimetype(path)
    if mimetype == "text/css":
        data = minify_css(data.decode("utf-8")).encode("utf-8")
    elif mimetype in ("text/javascript", "application/javascript"):
        data = minify_js(data.decode("utf-8")).encode("utf-8")
    gzipped: bytes | None = None
    if mimetype.startswith(COMPRESSIBLE):
        # mtime=0: the same file always compresses to the same bytes.
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        gzipped = packed if len(packed) < len(data) else None
    loaded = StaticFile(
        data=data,
        gzipped=gzipped,
        version=hashlib.sha256(data).hexdigest()[:VERSION_LENGTH],
        mimetype=mimetype,
        modified=datetime.fromtimestamp(stat.st_mtime, UTC),
        stamp=_stamp(stat),
    )
    with _LOCK:
        _LOADED[key] = loaded
    return loaded


class StaticFiles:
    """The app's static folder: each file's version and compressed bytes, by URL filename."""

    def __init__(self, folder: Path, check_changes: bool = False,
                 extra: Mapping[str, Path] | None = None) -> None:
        self.folder = folder
        self.check_changes = check_changes
        # Files served from outside the folder, by their URL filename (a kind's script).
        self.extra = {posixpath.normpath(name): path for name, path in (extra or {}).items()}
        self._files: dict[str, StaticFile] = {}

    def warm(self) -> None:
        """Hash and compress every file of the folder and every extra file now (at start-up,
        not in a request)."""
        if self.folder.is_dir():
            for path in sorted(self.folder.rglob("*")):
                if path.is_file():
                    self.get(path.relative_to(self.folder).as_posix())
        for name in sorted(self.extra):
            self.get(name)

    def _path(self, name: str) -> Path | None:
        """Return the file a normalised URL filename names: an extra file's, else the folder's."""
        if name in self.extra:
            return self.extra[name]
        joined = safe_join(str(self.folder), name)
        return Path(joined) if joined is not None else None

    def get(self, filename: str) -> StaticFile | None:
        """Return the file a URL names, or None when there is none (or it is too large to keep)."""
        name = posixpath.normpath(filename)
        known = self._files.get(name)
        if known is not None and not self.check_changes:
            return known
        path = self._path(name)
        if path is None:
            return None
        loaded = load_file(path)
        if loaded is None:
            self._files.pop(name, None)
            return None
        self._files[name] = loaded
        return loaded

    def version(self, filename: str) -> str | None:
        """Return the file's version hash, or None when there is no such file."""
        found = self.get(filename)
        return found.version if found is not None else None


class SessionWithoutStaticVary(SecureCookieSessionInterface):
    """Flask's cookie session, minus ``Vary: Cookie`` on a static file that sets no cookie.

    Flask-Login reads the session after every request, so Flask would mark every
    response ``Vary: Cookie``; a browser then revalidates a cached stylesheet each
    time the session cookie changes (signing in, a flashed message). A static file
    never depends on the cookie.
    """

    def save_session(self, app: Flask, session: SessionMixin, response: FlaskResponse) -> None:
        """Save the session as Flask does, then drop ``Cookie`` from a static file's ``Vary``."""
        super().save_session(app, session, response)
        if request.endpoint == "static" and "Set-Cookie" not in response.headers:
            response.vary.discard("cookie")  # lower case: HeaderSet.remove compares so


def files_of(app: Flask) -> StaticFiles:
    """Return the app's static files."""
    found: StaticFiles = app.extensions[EXTENSION_KEY]
    return found


def register(app: Flask, extra: Mapping[str, Path] | None = None) -> None:
    """Version the static URLs, serve the files compressed and cached, and work them out now.

    ``extra`` names files kept outside the static folder, served under the URL filename
    given (the drill kinds' scripts: ``drill_kinds.scripts``).
    """
    if app.static_folder is None:
        return
    files = StaticFiles(Path(app.static_folder), check_changes=app.debug, extra=extra)
    app.extensions[EXTENSION_KEY] = files
    files.warm()

    @app.url_defaults
    def add_static_version(endpoint: str, values: dict[str, Any]) -> None:
        """Give ``url_for('static', filename=...)`` the file's version."""
        if endpoint == "static" and VERSION_ARG not in values and "filename" in values:
            version = files.version(str(values["filename"]))
            if version is not None:
                values[VERSION_ARG] = version

    app.view_functions["static"] = serve
    if type(app.session_interface) is SecureCookieSessionInterface:
        app.session_interface = SessionWithoutStaticVary()


def _wants_gzip() -> bool:
    return request.accept_encodings["gzip"] > 0


def serve(filename: str) -> Response:
    """Send a static file: gzip when asked for, a year's lifetime when its URL has its version."""
    app = current_app
    found = files_of(app).get(filename)
    if found is None:
        return app.send_static_file(filename)  # a large file as Flask sends it, or 404
    compressed = found.gzipped is not None and _wants_gzip()
    body = found.gzipped if compressed and found.gzipped is not None else found.data
    response = app.response_class(body, mimetype=found.mimetype)
    if found.gzipped is not None:
        response.vary.add("Accept-Encoding")
    if compressed:
        response.content_encoding = "gzip"
    response.set_etag(found.version + ("-gz" if compressed else ""))
    response.last_modified = found.modified
    response.cache_control.public = True
    if request.args.get(VERSION_ARG) == found.version:
        response.cache_control.max_age = LONG_MAX_AGE
        response.cache_control.immutable = True
    else:
        response.cache_control.max_age = SHORT_MAX_AGE
    return response.make_conditional(request)
