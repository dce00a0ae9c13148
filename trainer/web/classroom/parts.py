"""The classroom pages' pieces: which kinds a class offers, a hand typed in, the JSON a
trainee's device may be sent (an allow-list), the instructor's state, the summary's CSV.

A kind takes part in a class when its web folder holds ``class.html`` (its home: the
macro ``projector(q, context)`` draws its hand for the projector, and an optional
``typed()`` the form the instructor types a hand into); so no kind is named here.

A hand typed in arrives as the form's fields, each named ``<path>:<type>``: the path is
the question's JSON path (``banker.back``, ``positions.2.bet_cents``), the type how the
text is read (``cards``: cards in the usual notation, ``int``, ``money``: an amount in
the reader's format). A row of a list left blank is dropped.
"""
from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from flask import current_app, render_template
from flask_babel import gettext as _
from jinja2 import TemplateNotFound

from trainer.engine.cards import card_list, parse_cards
from trainer.engine.drills import DRILLS
from trainer.engine.messages import EngineError
from trainer.services import classroom
from trainer.web.platform import drill_kinds, languages, money_input
from trainer.web.words.names import CATEGORY_NAMES, MODE_NAMES

CLASS_TEMPLATE = "class.html"

# What a trainee's device may be sent (tests/web/test_classroom_security.py checks every
# reply against it): before the reveal nothing that tells or implies the right answer.
TRAINEE_KEYS = frozenset({"token", "poll_ms", "state", "hand"})
TRAINEE_HAND_KEYS = frozenset({"number", "kind", "state", "remaining_ms", "html", "answered",
                               "mine_html"})
REVEALED_HAND_KEYS = frozenset({"correct", "result_html"})
# ``token`` only when the device sent the token it held and it was current (web/classroom/pages.py).
ACK_KEYS = frozenset({"recorded", "hand", "mine_html", "token"})

# The trainee's drawing of the last hands, kept per app (``question_html``).
_DRAWN = "trainer.class_drawn_hands"
_QUESTIONS = "trainer.class_hand_questions"
_DRAWN_LOCK = threading.Lock()
DRAWN_HANDS = 64

_SEGMENT = re.compile(r"^(?:[a-z][a-z_]{0,31}|[0-9]{1,2})$")
_TYPES = ("cards", "int", "money")
MAX_TYPED_FIELDS = 80


class TypedError(ValueError):
    """A hand typed in that cannot be read; the message is in the reader's words."""


def class_kinds() -> list[drill_kinds.DrillKind]:
    """Return the kinds a class offers (those whose web folder holds ``class.html``), in order."""
    found = current_app.extensions.setdefault("trainer.class_kinds", {})
    if "kinds" not in found:
        found["kinds"] = [k for k in drill_kinds.drill_kinds()
                          if not DRILLS[k.slug].steps and _has(k.template_folder + CLASS_TEMPLATE)]
    kinds: list[drill_kinds.DrillKind] = found["kinds"]
    return kinds


def _has(template: str) -> bool:
    try:
        current_app.jinja_env.get_template(template)
    except TemplateNotFound:
        return False
    return True


def class_template(slug: str) -> str:
    """Return the template of a class kind's class parts."""
    kind = drill_kinds.get_kind(slug)
    if kind is None:
        raise ValueError(f"No class parts for {slug!r}.")
    return kind.template_folder + CLASS_TEMPLATE


def offered(slug: object) -> bool:
    """Tell whether a class offers the kind ``slug``."""
    return any(k.slug == slug for k in class_kinds())


def template_globals() -> dict[str, Any]:
    """The names the drills' templates draw with."""
    return {"category_names": CATEGORY_NAMES, "mode_names": MODE_NAMES,
            "class_template": class_template}


# --- a hand typed in -------------------------------------------------------------------------


def read_typed(fields: object) -> dict[str, Any]:
    """Return the question's JSON typed into a kind's form (``<path>:<type>`` fields)."""
    if not isinstance(fields, Mapping) or not fields or len(fields) > MAX_TYPED_FIELDS:
        raise TypedError(_("Type the hand in first."))
    tree: dict[str, Any] = {}
    for name, text in fields.items():
        if not isinstance(name, str) or not isinstance(text, str) or len(text) > 200:
            raise TypedError(_("The hand typed in cannot be read."))
        path, _sep, how = name.partition(":")
        segments = path.split(".")
        if how not in _TYPES or not all(_SEGMENT.match(s) for s in segments):
            raise TypedError(_("The hand typed in cannot be read."))
        node = tree
        for segment in segments[:-1]:
            node = node.setdefault(segment, {})
            if not isinstance(node, dict):
                raise TypedError(_("The hand typed in cannot be read."))
        node[segments[-1]] = _value(how, text)
    question: dict[str, Any] = _lists(tree)
    return question


def _value(how: str, text: str) -> Any:
    text = text.strip()
    if not text:
        return None
    try:
        if how == "cards":
            return card_list(parse_cards(text))
        if how == "money":
            return money_input.parse_cents(text, languages.language())
        number = int(text) if text.isdigit() and len(text) < 4 else None
    except (EngineError, money_input.AmountError) as error:
        raise TypedError(str(error)) from error
    if number is None:
        raise TypedError(_("%(text)s is not a whole number.", text=text))
    return number


def _lists(node: Any) -> Any:
    """Turn each dict keyed by row numbers into the list of its rows not left blank."""
    if not isinstance(node, dict):
        return node
    if node and all(k.isdigit() for k in node):
        rows = [_lists(node[k]) for k in sorted(node, key=int)]
        return [r for r in rows if not _blank(r)]
    return {k: _lists(v) for k, v in node.items()}


def _blank(node: Any) -> bool:
    if isinstance(node, dict):
        return all(_blank(v) for v in node.values())
    return node is None


# --- what devices are sent -------------------------------------------------------------------


def trainee_json(view: classroom.TraineeView, token: str,
                 held: int | None = None) -> dict[str, Any]:
    """Return a trainee's state as their device is sent it: allow-listed keys only, and the
    right answer (``correct``, ``result_html``) only once the hand is revealed. The hand's
    drawing (``html``) is left out when the device holds that hand already (``held``: the
    number its token named): a lock, a reveal or an answer sends only what changed."""
    data: dict[str, Any] = {"token": token, "poll_ms": classroom.POLL_MS, "state": view.state,
                            "hand": None}
    hand = view.hand
    if hand is None:
        return allowed(data)
    shown: dict[str, Any] = {
        "number": hand.number, "kind": hand.kind, "state": hand.state,
        "remaining_ms": hand.remaining_ms,
        "answered": view.mine is not None,
        "mine_html": mine_html(hand.kind, view.mine, hand.id, hand.question),
    }
    if hand.question is not None:
        hand_question(hand.id, hand.question)  # kept for the replies that leave it out
        if held != hand.number:
            shown["html"] = question_html(hand)
    if hand.state == "revealed" and view.result is not None:
        result = view.result
        shown["correct"] = result.correct
        shown["result_html"] = render_template(
            "classroom/_result.html", kind=hand.kind, q=hand.question, result=result,
            grade={**result.grade.as_dict(), "correct_answer": result.key},
            **template_globals())
    data["hand"] = shown
    return allowed(data)


def question_html(hand: classroom.HandView) -> str:
    """Return the hand as a trainee's device draws it (the kind's question and answer
    templates), drawn once per worker, language and installation settings: every device
    of the room asks for the same drawing within a second of the deal, and a hand never
    changes once dealt. The last ``DRAWN_HANDS`` drawings are kept, per app."""
    assert hand.question is not None
    key = (hand.id, hand.number, languages.language(), languages.installation())
    drawn: OrderedDict[Any, str] = current_app.extensions.setdefault(_DRAWN, OrderedDict())
    found = drawn.get(key)
    if found is None:
        found = render_template("drills/_question.html", kind=hand.kind, q=hand.question,
                                context=hand.context, position=hand.number,
                                **template_globals())
        with _DRAWN_LOCK:  # the development server answers from several threads
            drawn[key] = found
            while len(drawn) > DRAWN_HANDS:
                drawn.popitem(last=False)
    return found


def allowed(data: dict[str, Any], *, ack: bool = False) -> dict[str, Any]:
    """Return a trainee's reply (a state, or with ``ack`` an answer's acknowledgement) once
    checked against the allow-list: a key outside it is a programming error, never sent,
    and the right answer comes only with a revealed hand."""
    hand = data.get("hand")
    if ack:
        outside = set(data) - ACK_KEYS
    else:
        keys = TRAINEE_HAND_KEYS
        if isinstance(hand, dict) and hand.get("state") == "revealed":
            keys = keys | REVEALED_HAND_KEYS
        outside = (set(data) - TRAINEE_KEYS) | (set(hand) - keys if isinstance(hand, dict)
                                                 else set())
    if outside:
        raise RuntimeError(f"A trainee's reply outside the allow-list: {sorted(outside)}")
    return data


def mine_html(kind: str, answer: Any, hand_id: int,
              question: dict[str, Any] | None = None) -> str | None:
    """Return a trainee's own answer drawn (no verdict), or None before they answer. A kind
    whose class.html has a ``mine(q, answer)`` macro draws it with the hand's question
    (a settled table names its seats): ``question``, else the hand's, kept per app."""
    if answer is None:
        return None

    def question_of() -> dict[str, Any] | None:
        return question if question is not None else hand_question(hand_id)

    return render_template("classroom/_mine.html", kind=kind, answer=answer,
                           question_of=question_of, **template_globals())


def hand_question(hand_id: int, question: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """Return (and keep, per app) a hand's question as a page draws it: ``question`` when the
    caller has it, else read once (``shown_question_of``). A hand never changes once dealt."""
    kept: OrderedDict[int, dict[str, Any]] = current_app.extensions.setdefault(
        _QUESTIONS, OrderedDict())
    found = question if question is not None else kept.get(hand_id)
    if found is None:
        found = classroom.shown_question_of(hand_id)
        if found is None:
            return None
    with _DRAWN_LOCK:
        kept[hand_id] = found
        while len(kept) > DRAWN_HANDS:
            kept.popitem(last=False)
    return found


def instructor_json(view: classroom.InstructorView, token: str) -> dict[str, Any]:
    """Return the projector's state: the hand drawn large, and the panel (counts, names,
    and after the reveal the answers given, who was right, and the rule)."""
    hand = view.hand
    return {
        "token": token, "poll_ms": classroom.POLL_MS, "state": view.live.state,
        "number": hand.number if hand is not None else 0,
        "hand_state": hand.state if hand is not None else None,
        "remaining_ms": hand.remaining_ms if hand is not None else None,
        "answered": len(view.answered), "present": view.present_count,
        "joined": len(view.present),
        "hand_html": render_template("classroom/_hand.html", view=view, **template_globals()),
        "panel_html": render_template("classroom/_panel.html", view=view, **template_globals()),
    }
