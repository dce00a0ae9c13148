"""Questions, answers and answer keys as frozen dataclasses, and their JSON form.

A drill kind declares its question, answer and answer key as frozen dataclasses
(``Question`` and ``Answer`` are their bases); they travel typed from the engine up
to the services, and become JSON only where they are stored or shown (the kind's
``question_json`` / ``read_question`` and the like, ``base.Drill``).

``to_json`` writes a dataclass as a JSON object of its fields (tuples as lists, enums
as their values, nested dataclasses as objects); a field whose metadata says
``omit_none`` is left out while it is None, so a stored row keeps the shape it had
when it was a dict; one whose metadata gives a ``json_name`` (``JSON_NAME``) is written
and read under that name (a stored key that is a Python keyword, ``from``). ``from_json``
reads one back strictly by the field types (``int``, ``float``, ``str``, ``bool``,
``None``, unions with None, ``tuple[T, ...]``, fixed tuples, ``list[T]``,
``dict[str, T]``, ``Literal``, enums and nested dataclasses), raising ``ValueError``
naming the field that does not fit. An answer from a browser is checked by the kind's
schema first (``schema.py``: the trainee's words), then read by ``from_json``.
"""
from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

T = TypeVar("T")

# Field metadata: leave the field out of the JSON form while its value is None.
OMIT_NONE = {"omit_none": True}
# Field metadata: the field's name in the JSON form when it cannot be Python's (``from``).
JSON_NAME = "json_name"


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Question:
    """The base of every kind's question: the seed it was dealt from rides with it."""

    seed: int = 0


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Answer:
    """The base of every kind's answer (and answer key)."""


def to_json(value: Any) -> Any:
    """Return ``value`` in its JSON form (dataclasses as objects, tuples as lists)."""
    cls: type = type(value)
    plan = _plan(cls) if hasattr(cls, "__dataclass_fields__") else None
    if plan is not None:
        out: dict[str, Any] = {}
        for name, key, omit_none, _type, _required in plan:
            item = getattr(value, name)
            if item is None and omit_none:
                continue
            out[key] = to_json(item)
        return out
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    return value


# One field of a dataclass as the codec reads and writes it: its attribute, its JSON key,
# whether it is left out while None, its type, and whether the JSON must hold it.
FieldPlan = tuple[str, str, bool, Any, bool]


@functools.cache
def _plan(cls: type) -> tuple[FieldPlan, ...]:
    """Return how a dataclass's fields are written and read, worked out once per class."""
    hints = typing.get_type_hints(cls)
    return tuple((f.name, f.metadata.get(JSON_NAME, f.name), bool(f.metadata.get("omit_none")),
                  hints[f.name], f.default is dataclasses.MISSING
                  and f.default_factory is dataclasses.MISSING)
                 for f in dataclasses.fields(cls))


@functools.cache
def _keys(cls: type) -> frozenset[str]:
    """Return the JSON keys a dataclass takes."""
    return frozenset(key for _name, key, _omit, _type, _required in _plan(cls))


def from_json(cls: type[T], data: Any, where: str = "") -> T:
    """Return the dataclass ``cls`` read from its JSON form; ValueError if it does not fit."""
    value: T = _read(cls, data, where or cls.__name__)
    return value


def _read(kind: Any, data: Any, where: str) -> Any:
    """Read ``data`` as the type ``kind``."""
    origin = get_origin(kind)
    if kind is Any:
        return data
    if kind is type(None):
        if data is not None:
            raise ValueError(f"{where}: expected nothing (null).")
        return None
    if origin in (Union, types.UnionType):
        options = get_args(kind)
        if data is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _read(option, data, where)
            except ValueError as error:
                errors.append(str(error))
        raise ValueError(errors[0] if len(errors) == 1 else f"{where}: does not fit {kind}.")
    if origin is Literal:
        if data not in get_args(kind) or isinstance(data, bool) != any(
                isinstance(a, bool) for a in get_args(kind) if a == data):
            raise ValueError(f"{where}: expected one of {list(get_args(kind))}.")
        return data
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return _read_dataclass(kind, data, where)
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        try:
            return kind(data)
        except ValueError:
            raise ValueError(f"{where}: {data!r} is not one of "
                             f"{[m.value for m in kind]}.") from None
    if origin is tuple:
        args = get_args(kind)
        if not isinstance(data, (list, tuple)):
            raise ValueError(f"{where}: expected a list.")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_read(args[0], v, f"{where}[{i}]") for i, v in enumerate(data))
        if len(args) != len(data):
            raise ValueError(f"{where}: expected {len(args)} items.")
        return tuple(_read(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, data, strict=True)))
    if origin is list:
        if not isinstance(data, (list, tuple)):
            raise ValueError(f"{where}: expected a list.")
        (item,) = get_args(kind)
        return [_read(item, v, f"{where}[{i}]") for i, v in enumerate(data)]
    if origin is dict:
        if not isinstance(data, Mapping):
            raise ValueError(f"{where}: expected an object.")
        key, item = get_args(kind)
        return {_read(key, k, where): _read(item, v, f"{where}.{k}") for k, v in data.items()}
    return _read_plain(kind, data, where)


def _read_plain(kind: Any, data: Any, where: str) -> Any:
    """Read a JSON scalar as ``int``, ``float``, ``str`` or ``bool``."""
    if kind is bool:
        if not isinstance(data, bool):
            raise ValueError(f"{where}: expected true or false.")
        return data
    if kind is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise ValueError(f"{where}: expected a whole number.")
        return data
    if kind is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise ValueError(f"{where}: expected a number.")
        return float(data)
    if kind is str:
        if not isinstance(data, str):
            raise ValueError(f"{where}: expected text.")
        return data
    if kind is dict and isinstance(data, Mapping):
        return dict(data)
    if kind is list and isinstance(data, (list, tuple)):
        return list(data)
    raise ValueError(f"{where}: cannot read a {kind!r}.")


def _read_dataclass(cls: type, data: Any, where: str) -> Any:
    """Read a JSON object as the dataclass ``cls``: known fields only, defaults kept."""
    if not isinstance(data, Mapping):
        raise ValueError(f"{where}: expected an object.")
    if not _keys(cls).issuperset(data):
        unknown = sorted(str(k) for k in set(data) - _keys(cls))
        raise ValueError(f"{where}: unexpected {', '.join(unknown)}.")
    values: dict[str, Any] = {}
    for name, key, _omit, kind, required in _plan(cls):
        if key in data:
            values[name] = _read(kind, data[key], f"{where}.{key}")
        elif required:
            raise ValueError(f"{where}: {key} is missing.")
    return cls(**values)
