"""Checking a condition's tests one by one: known keys, the right kind of value each.

Whether the tests can hold together is ``can_hold``'s; this checks that each can be
read: a hand shape, a yes/no, a rank or range, this way's rank groups, a pool, a front
threshold, and the alternatives of ``any`` and ``not``.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...messages import N_, Message
from .. import kinds as K
from .errors import Errors
from .form import BOOL_KEYS, FIELD_LABEL, RANGE_KEYS
from .values import parse_range, parse_rank, quote


def validate_condition(cond: Any, path: str, groups: dict[str, tuple[int, int]] | None,
                        errors: Errors, post: bool, top: bool) -> None:
    if not isinstance(cond, Mapping):
        errors.add(path, Message(N_("A condition is a table of tests.")))
        return
    for key, value in cond.items():
        kpath = f"{path}.{key}"
        if key not in K.CONDITION_KEYS:
            errors.add(kpath, Message(N_("%(value)s is not a condition the trainer knows."),
                                      value=quote(key)))
        elif key in K.POST_KEYS and not post:
            errors.add(kpath, Message(N_("'%(test)s' tests a rule's own front, so it belongs in a "
                                         "rule's condition, not here."), test=Message(FIELD_LABEL[key])))
        elif key == "shapes":
            if not isinstance(value, list) or not value:
                errors.add(kpath, Message(N_("Choose at least one hand shape.")))
            else:
                bad = [v for v in value if v not in K.SHAPES]
                if bad:
                    errors.add(kpath, Message(N_("%(value)s is not a hand shape: use %(shapes)s."),
                                              value=quote(bad[0]), shapes=", ".join(K.SHAPES)))
        elif key in BOOL_KEYS:
            if not isinstance(value, bool):
                errors.add(kpath, Message(N_("'%(test)s' is answered yes or no."),
                                          test=Message(FIELD_LABEL[key])))
        elif key in RANGE_KEYS:
            _, err = parse_range(value)
            if err:
                errors.add(kpath, err)
        elif key == "pair_groups":
            _check_pair_groups(value, kpath, groups, errors)
        elif key == "singletons":
            if not isinstance(value, list) or not value:
                errors.add(kpath, Message(N_("List the singletons' ranks, such as A K.")))
            else:
                for v in value:
                    _, err = parse_rank(v)
                    if err:
                        errors.add(kpath, err)
                        break
        elif key == "holds":
            items = [value] if isinstance(value, str) else value
            if not isinstance(items, list) or not items or \
                    any(not isinstance(i, str) or i not in K.HOLD_NAMES for i in items):
                errors.add(kpath, Message(N_("Holds takes a straight, a flush, a straight flush "
                                             "or a royal flush.")))
        elif key in ("pool_empty", "beats_pool"):
            if not isinstance(value, str) or value not in K.POOLS:
                errors.add(kpath, Message(N_("%(value)s is not a pool: choose one of the pools "
                                             "the trainer knows."), value=quote(value)))
        elif key == "front_at_least":
            _check_threshold(value, kpath, errors)
        elif key == "any":
            if not isinstance(value, list) or not value:
                errors.add(kpath, Message(N_("'Any one of these' needs at least one alternative.")))
            else:
                for i, sub in enumerate(value):
                    validate_condition(sub, f"{kpath}[{i}]", groups, errors, False, False)
        elif key == "not":
            validate_condition(value, kpath, groups, errors, False, False)


def _check_pair_groups(value: Any, path: str, groups: dict[str, tuple[int, int]] | None,
                       errors: Errors) -> None:
    if not isinstance(value, list) or not value:
        errors.add(path, Message(N_("Choose at least one combination of rank groups.")))
        return
    if groups is None:      # the rank groups' own errors say what to fix
        return
    if not groups:
        errors.add(path, Message(N_("This house way has no rank groups: add them before using "
                                    "pair groups.")))
        return
    names = ", ".join(groups)
    for text in value:
        parts = [p.strip() for p in text.split("+")] if isinstance(text, str) else []
        if len(parts) != 2 or any(p not in groups for p in parts):
            errors.add(path, Message(N_("%(value)s is not two of this house way's rank groups "
                                        "joined by + (%(names)s), such as low+high."),
                                     value=quote(text), names=names))
            return


def _check_threshold(value: Any, path: str, errors: Errors) -> None:
    parts = str(value).strip().split("-") if isinstance(value, str) else []
    ok = 1 <= len(parts) <= 2
    for p in parts:
        _, err = parse_rank(p)
        ok = ok and err is None
    if not ok:
        errors.add(path, Message(N_("Write the lowest front the rule takes as a rank (K: a king "
                                    "or better) or two ranks (A-J).")))
