"""What a request may carry: a body size, a JSON shape, and ids the database can hold.

``register`` runs before the blueprints and extensions, so that

- ``<id:name>`` in a route is a row id (1..2**31-1); a longer or larger number
  matches no route and answers 404 instead of reaching a query;
- every ``request.get_json`` goes through ``parse_json``: at most ``JSON_MAX_DEPTH``
  levels of nesting and ``JSON_MAX_ITEMS`` values, else 400 with a message;
- a body over ``MAX_CONTENT_LENGTH`` (64 KiB by default) answers 413 before
  anything reads it (the CSRF check included), so nothing is written;
- a path, query string or form field holding a NUL or another control character
  (tab, CR and LF are allowed in a query or a form field, none in a path), bytes that
  are not UTF-8, or a lone surrogate answers 400 (``InputRefused``), and a POST whose
  body is not of its endpoint's kind answers 415 (``WrongContentType``): a form
  endpoint takes ``application/x-www-form-urlencoded`` or ``multipart/form-data``,
  a JSON endpoint (``JSON_ENDPOINTS``) ``application/json``; a form endpoint's form
  that arrives empty or unreadable answers 400 too (it would read as every field
  blank). All run before any view, so nothing is written (a wrong kind is told after
  a missing CSRF token, as any POST is); ``web/platform/errors.py`` words them (an HTML page,
  or JSON to a JSON endpoint or a script).
"""
from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import unquote_to_bytes

from flask import Flask, Request, abort, current_app, jsonify, request
from flask import json as flask_json
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.exceptions import BadRequest, UnsupportedMediaType
from werkzeug.routing import IntegerConverter, Map, ValidationError
from werkzeug.sansio.multipart import Data, Epilogue, Field, MultipartDecoder, NeedData
from werkzeug.wrappers import Response

from trainer.engine import toml_limits
from trainer.models.types import ID_MAX

JSON_MAX_DEPTH = 8
JSON_MAX_ITEMS = 1000

_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_JSON_BRACKET = re.compile(r"[\[\]{}]")


class IdConverter(IntegerConverter):
    """A route part that is a row id: decimal digits, 1..2**31-1, else no match (404)."""

    def __init__(self, map: Map, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min", 1)
        kwargs.setdefault("max", ID_MAX)
        super().__init__(map, *args, **kwargs)

    def to_python(self, value: str) -> int:
        """Return the id, refusing before ``int()`` anything longer than the largest id."""
        if len(value) > len(str(ID_MAX)):
            raise ValidationError()
        number: int = super().to_python(value)  # werkzeug types its converters' values Any
        return number


class JsonRejected(BadRequest):
    """A JSON body too deeply nested or with too many values; the description says which."""


def _nesting_depth(text: str) -> int:
    """Return how deeply a JSON text nests arrays and objects, without parsing it."""
    depth = deepest = 0
    for bracket in _JSON_BRACKET.finditer(_JSON_STRING.sub('""', text)):
        if bracket.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _value_count(value: Any, limit: int) -> int:
    """Count the values in a parsed JSON document, stopping once past ``limit``."""
    count, pending = 0, [value]
    while pending and count <= limit:
        item = pending.pop()
        count += 1
        if isinstance(item, dict):
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return count


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number.")


def parse_json(data: bytes | str, max_depth: int = JSON_MAX_DEPTH,
               max_items: int = JSON_MAX_ITEMS) -> Any:
    """Parse a request's JSON body within the nesting and size limits.

    Raises ValueError for text that is not JSON (``get_json(silent=True)`` then
    answers None, as before) and ``JsonRejected`` (a 400 with a message) for a
    document nested deeper than ``max_depth`` or holding more than ``max_items``
    values. The depth is measured before parsing, so no body can exhaust the
    parser's recursion.
    """
    text = data.decode(json.detect_encoding(data)) if isinstance(data, bytes) else data
    if _nesting_depth(text) > max_depth:
        raise JsonRejected(ngettext("The request nests more than %(num)d level deep.",
                                    "The request nests more than %(num)d levels deep.", max_depth))
    value = json.loads(text, parse_constant=_no_constant)
    if _value_count(value, max_items) > max_items:
        raise JsonRejected(ngettext("The request holds more than %(num)d value.",
                                    "The request holds more than %(num)d values.", max_items))
    return value


class _LimitedJsonModule:
    """The ``json_module`` of every request: ``loads`` is ``parse_json``."""

    @staticmethod
    def loads(data: bytes | str, **kwargs: Any) -> Any:
        """Parse a request body within the limits."""
        return parse_json(data)

    @staticmethod
    def dumps(obj: Any, **kwargs: Any) -> str:
        """Serialise as the app does."""
        return flask_json.dumps(obj, **kwargs)


class LimitedRequest(Request):
    """The app's request class: its JSON body goes through ``parse_json``."""

    @property
    def json_module(self) -> Any:
        """Return the limited parser that ``get_json`` reads the body with."""
        return _LimitedJsonModule

    @json_module.setter
    def json_module(self, provider: Any) -> None:
        # Flask sets the app's JSON provider on every request; the limits stay.
        pass


# Endpoints that take a larger body than MAX_CONTENT_LENGTH: a house-way file upload is
# limited by the engine's TOML limit (trainer/engine/toml_limits.py, 256 KB; a preset with
# its translations is 62 to 80 KB), plus room for the form around it.
LARGE_BODY_ENDPOINTS: dict[str, int] = {"manager_ways.import_way": toml_limits.MAX_BYTES + 8 * 1024}


def _refuse_large_body() -> None:
    """Answer 413 for a declared body over the limit, before the CSRF check reads it."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    larger = LARGE_BODY_ENDPOINTS.get(request.endpoint or "")
    if larger is not None and limit is not None:
        limit = max(limit, larger)
        request.max_content_length = limit  # what the form parser and get_data allow
    if limit is not None and request.content_length is not None and request.content_length > limit:
        abort(413)


def _json_rejected(error: JsonRejected) -> tuple[Response, int]:
    """Explain which JSON limit the request broke."""
    return jsonify(error=_("Request not accepted"), message=error.description), 400


# --- what a request may hold: its characters, and the kind of its body -------------------

# The endpoints that read a JSON body (``request.get_json``); every other endpoint that
# takes a POST reads a form. tests/web/test_input_edges.py checks this list against the views.
JSON_ENDPOINTS = frozenset({
    "drills.question", "drills.answer",
    "play.deal", "play.rebet", "play.done", "play.house_way",
    # Classroom mode (issue 31): the projector's drive and a trainee's answer.
    "classroom.deal", "classroom.next_hand", "classroom.lock", "classroom.reveal",
    "classroom.timer", "classroom.answer",
})
# Form endpoints whose view reads no field (only the CSRF token, which may come in the
# header): a POST with no body at all is accepted there too. Anywhere else an empty body
# would be read as a form with every field blank.
NO_FIELD_ENDPOINTS = frozenset({"auth.logout"})
FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})
JSON_TYPES = frozenset({"application/json"})
WRITING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

# C0 control characters: none in a path; tab, LF and CR are text in a query or a form field.
_PATH_CONTROLS = re.compile(r"[\x00-\x1f\x7f]")
_FIELD_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class InputRefused(BadRequest):
    """A request holding characters no field may hold; the description says where."""


class WrongContentType(UnsupportedMediaType):
    """A POST whose body is not the kind its endpoint reads; the description says which."""


def is_json_endpoint(endpoint: str | None) -> bool:
    """Tell whether ``endpoint`` reads a JSON body (and so answers its errors in JSON)."""
    return endpoint in JSON_ENDPOINTS


def _clean_text(raw: bytes, controls: re.Pattern[str]) -> bool:
    """Tell whether ``raw`` is UTF-8 (no lone surrogate) with none of ``controls``."""
    try:
        text = raw.decode("utf-8")  # strict: a surrogate's bytes (ED A0 80) are refused too
    except UnicodeDecodeError:
        return False
    return controls.search(text) is None


def _clean_wsgi(text: str, controls: re.Pattern[str]) -> bool:
    """Tell whether a WSGI string (each character one byte, PEP 3333) is clean UTF-8 text;
    plain ASCII, the usual case, is searched as it is."""
    if text.isascii():
        return controls.search(text) is None
    return _clean_text(text.encode("latin-1", "replace"), controls)


def _clean_encoded(encoded: str, controls: re.Pattern[str]) -> bool:
    """Tell whether a percent-encoded WSGI string (a query, a raw path, a form body read
    as latin-1) decodes to clean text.

    ``&``, ``=`` and ``+`` are ASCII, so decoding the whole at once finds what decoding
    each name and value would.
    """
    if "%" not in encoded:
        return _clean_wsgi(encoded, controls)
    return _clean_text(unquote_to_bytes(encoded.encode("latin-1", "replace")), controls)


def _clean_path(environ: dict[str, Any]) -> bool:
    """Tell whether the path is clean as the server received it: PATH_INFO and, where the
    server keeps it, the raw request URI's path (the test client and some servers put
    U+FFFD in PATH_INFO for a byte that is not UTF-8)."""
    if not _clean_wsgi(environ.get("PATH_INFO", ""), _PATH_CONTROLS):
        return False
    raw_uri = environ.get("RAW_URI") or environ.get("REQUEST_URI")
    return not raw_uri or _clean_encoded(raw_uri.split("?", 1)[0], _PATH_CONTROLS)


def _multipart_fields_clean(body: bytes, boundary: str) -> bool:
    """Tell whether every field (not file) of a multipart body is clean text."""
    decoder = MultipartDecoder(boundary.encode("latin-1", "replace"))
    try:
        decoder.receive_data(body)
        decoder.receive_data(None)
        in_field = False
        pieces: list[bytes] = []
        event = decoder.next_event()
        while not isinstance(event, (Epilogue, NeedData)):
            if isinstance(event, Field):
                in_field, pieces = True, []
            elif isinstance(event, Data):
                if in_field:
                    pieces.append(event.data)
                    if not event.more_data and not _clean_text(b"".join(pieces),
                                                               _FIELD_CONTROLS):
                        return False
            else:  # a file: its bytes are the view's to read
                in_field = False
            event = decoder.next_event()
    except ValueError:
        return True  # not multipart at all: the form parser finds no field (refused as empty)
    return True


def _check_csrf_first() -> None:
    """Say a missing or stale CSRF token before the body's kind, as for any other POST
    (the CSRF check's own hook runs after this step)."""
    csrf = current_app.extensions.get("csrf")
    config = current_app.config
    if csrf is not None and config.get("WTF_CSRF_ENABLED", True) \
            and config.get("WTF_CSRF_CHECK_DEFAULT", True):
        csrf.protect(apply_exemptions=True)


def _refuse_bad_input() -> None:
    """Refuse control characters and bytes that are not UTF-8 in the path, the query and
    the form (before the CSRF check), and a body of the wrong kind or an empty form (after
    checking the CSRF token: a request without one is told that first); all before the view."""
    # One look-up; Flask types its proxy as the object, without the proxy's own method.
    req: Request = request._get_current_object()  # type: ignore[attr-defined]
    environ = req.environ
    if not _clean_path(environ):
        raise InputRefused(_("The page address holds a character that is not allowed "
                             "(a control character, or bytes that are not UTF-8 text). "
                             "Nothing was saved."))
    query = environ.get("QUERY_STRING", "")
    if query and not _clean_encoded(query, _FIELD_CONTROLS):
        raise InputRefused(_("The address's query holds a character that is not allowed "
                             "(a control character, or bytes that are not UTF-8 text). "
                             "Nothing was saved."))
    if req.method not in WRITING_METHODS or req.url_rule is None:
        return  # a read, or no such page (404, 405): nothing to write
    mimetype = req.mimetype
    if is_json_endpoint(req.endpoint):
        if mimetype not in JSON_TYPES:
            _check_csrf_first()
            raise WrongContentType(_("This address takes a JSON request "
                                     "(application/json) only. Nothing was saved."))
        return
    if mimetype not in FORM_TYPES:
        if (req.endpoint in NO_FIELD_ENDPOINTS and not mimetype
                and not req.content_length):
            return  # no body at all where no field is read
        _check_csrf_first()
        raise WrongContentType(_("This address takes a form (application/x-www-form-urlencoded "
                                 "or multipart/form-data) only. Nothing was saved."))
    body = req.get_data(cache=True)  # at most MAX_CONTENT_LENGTH; the form parser reuses it
    if mimetype == "multipart/form-data":
        clean = _multipart_fields_clean(body, req.mimetype_params.get("boundary", ""))
    else:
        clean = _clean_encoded(body.decode("latin-1"), _FIELD_CONTROLS)
    if not clean:
        raise InputRefused(_("A form field holds a character that is not allowed "
                             "(a control character, or bytes that are not UTF-8 text). "
                             "Nothing was saved."))
    if req.endpoint not in NO_FIELD_ENDPOINTS and not req.form and not req.files:
        # A browser's form always holds at least its token; an empty or unreadable one
        # would be read as every field left blank.
        _check_csrf_first()
        raise InputRefused(_("The form arrived empty or could not be read. Nothing was saved."))


def register(app: Flask) -> None:
    """Install the id converter, the JSON limits, the body-size check and the input checks."""
    app.url_map.converters["id"] = IdConverter
    app.request_class = LimitedRequest
    app.before_request(_refuse_large_body)
    app.before_request(_refuse_bad_input)
    app.register_error_handler(JsonRejected, _json_rejected)
