"""What a request may carry: a body size, a JSON shape, and ids the database can hold.

``register`` runs before the blueprints and extensions, so that

- ``<id:name>`` in a route is a row id (1..2**31-1); a longer or larger number
  matches no route and answers 404 instead of reaching a query;
- every ``request.get_json`` goes through ``parse_json``: at most ``JSON_MAX_DEPTH``
  levels of nesting and ``JSON_MAX_ITEMS`` values, else 400 with a message;
- a body over ``MAX_CONTENT_LENGTH`` (64 KiB by default) answers 413 before
  anything reads it (the CSRF check included), so nothing is written.
"""
from __future__ import annotations

import json
import re
from typing import Any

from flask import Flask, Request, abort, current_app, jsonify, request
from flask import json as flask_json
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.exceptions import BadRequest
from werkzeug.routing import IntegerConverter, Map, ValidationError
from werkzeug.wrappers import Response

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
        return super().to_python(value)


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


def _refuse_large_body() -> None:
    """Answer 413 for a declared body over the limit, before the CSRF check reads it."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if limit is not None and request.content_length is not None and request.content_length > limit:
        abort(413)


def _json_rejected(error: JsonRejected) -> tuple[Response, int]:
    """Explain which JSON limit the request broke."""
    return jsonify(error=_("Request not accepted"), message=error.description), 400


def register(app: Flask) -> None:
    """Install the id converter, the JSON limits and the body-size check on ``app``."""
    app.url_map.converters["id"] = IdConverter
    app.request_class = LimitedRequest
    app.before_request(_refuse_large_body)
    app.register_error_handler(JsonRejected, _json_rejected)
