"""The draft and its words: the draft or 404, its stamp, its problems by path, saving it,
and why it cannot be published yet."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from flask import (
    abort,
    request,
)
from flask_babel import gettext as _
from flask_login import current_user

from trainer.engine.house_way import editing, explanations
from trainer.extensions import db
from trainer.services import house_ways as catalogue
from trainer.web.words.engine_words import message_words
from trainer.web.words.house_way_words import (
    path_words,
)
from trainer.web.words.names import way_label


def draft_or_404(way_id: int) -> Any:
    """Return the custom way ``way_id`` (its draft), or 404."""
    try:
        row = catalogue.get_draft(way_id)
    except (LookupError, ValueError):
        abort(404)
    if row is None:
        abort(404)
    return row


def draft_data(row: Any) -> dict[str, Any]:
    return dict(row.draft or {})


def stamp(data: Mapping[str, Any]) -> str:
    """Return a short fingerprint of a draft: a form made from an older draft is refused."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:16]


def is_stale(data: Mapping[str, Any]) -> bool:
    sent = request.form.get("stamp")
    return bool(sent) and sent != stamp(data)


class Placed(str):
    """A problem's words that already say where it is ("Rule 3.2, explanation in Spanish:
    ..."): shown without the path's words in front."""

    __slots__ = ()


def errors_by_path(errors: Sequence[Any]) -> list[tuple[str, str]]:
    # The engine's problem in the manager's language (FieldError.sentence, web/words/engine_words.py).
    out: list[tuple[str, str]] = []
    for e in errors:
        said = getattr(e, "sentence", getattr(e, "message", e))
        words = message_words(said)
        if getattr(said, "template", None) == explanations.NAMED:
            words = Placed(words)
        out.append((str(getattr(e, "path", "") or ""), words))
    return out


def placed(path: str, message: str, data: Mapping[str, Any]) -> str:
    """Return a problem with the words of where it is in front (unless it says so itself)."""
    if not path or isinstance(message, Placed):
        return message
    return f"{path_words(path, data)}: {message}"


def repair_list(data: Mapping[str, Any]) -> list[str]:
    """Return, in the manager's language, each explanation of a stored draft or version
    that cannot be used (issue 24): which rule, which language, why."""
    return [message_words(e.sentence) for e in editing.explanation_problems(data)]


def save_draft(row: Any, data: dict[str, Any]) -> list[tuple[str, str]]:
    """Validate and store the draft; return the engine's errors (nothing stored) or []."""
    errors = errors_by_path(editing.validate(data))
    if errors:
        return errors
    try:
        catalogue.save_draft(row.id, data, current_user.id)
    except editing.EditError as error:
        db.session.rollback()
        return errors_by_path(error.errors)
    return []


def publish_refusal(row: Any) -> str | None:
    """Return why the draft cannot be published yet (the service's words, said in the
    reader's language), or None."""
    refusal = catalogue.publish_refusal(row)
    if refusal is not None:
        return message_words(refusal)
    newest = max(catalogue.versions(row.id), key=lambda v: int(v.number), default=None)
    if newest is not None and dict(newest.data or {}) == draft_data(row):
        return _("This draft is version %(n)s as published: change it before publishing again.",
                 n=newest.number)
    return None


def base_title(ref: str) -> str | None:
    for choice in catalogue.choices():
        if str(choice.ref) == ref:
            return way_label(choice)
    return None


def rule_or_404(data: Mapping[str, Any], s: int, r: int) -> Mapping[str, Any]:
    try:
        rule: Mapping[str, Any] = data["sections"][s]["rules"][r]
    except (KeyError, IndexError, TypeError):
        abort(404)
    return rule
