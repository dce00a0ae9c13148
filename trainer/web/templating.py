"""The templates' Jinja environment: Flask's, with globals whose key set compares in C.

Every ``{% import %}``/``{% from ... import %}`` of a render asks Jinja whether the
importing template has globals the imported one lacks (``ctx.globals_keys -
template.globals.keys()``, Jinja's ``Template._get_default_module``). Jinja keeps a
template's globals in a ``collections.ChainMap`` (the template's own over the
environment's), whose ``keys()`` answers each membership test in Python through
every map: about 35 globals, four imports in an answer's feedback, a sixth of its
rendering (issue 15: a question and an answer in 2 ms). ``_Globals.keys()`` gives
the same keys as a ``dict`` view, so the difference is taken in C. Lookups,
assignment and precedence are ``ChainMap``'s own, unchanged.
"""
from __future__ import annotations

from collections import ChainMap
from collections.abc import KeysView, MutableMapping
from typing import Any

from flask.templating import Environment as FlaskEnvironment


class _Globals(ChainMap[str, Any]):
    """A template's globals: a ``ChainMap`` whose ``keys()`` is a (snapshot) dict view."""

    def keys(self) -> KeysView[str]:
        merged: dict[str, None] = {}
        for mapping in reversed(self.maps):
            merged.update(dict.fromkeys(mapping))
        return merged.keys()


class Environment(FlaskEnvironment):
    """Flask's Jinja environment; each template's globals are a ``_Globals``."""

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return _Globals({} if d is None else d, self.globals)
