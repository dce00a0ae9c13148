"""The shape of a drill answer, declared: exact keys, types, lengths and ranges.

Each drill kind builds its answer's schema from the question (the cards the
trainee may pick, the seats that have a hand, how many positions to settle) and
``Schema.check`` returns a new, normalized answer built only from what the
schema names: cards in canonical notation, no unknown keys, nothing unbounded.
Anything else raises ValueError with one sentence a trainee can read. Booleans
are not whole numbers, whole numbers are not booleans, and ``5.0`` is not ``5``.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..cards import card_list, parse_card, verify_distinct
from ..messages import N_, EngineError, Joined, Message, refusal

# Money in an answer: whole cents from nothing to $100,000, far above any table limit.
MAX_CENTS = 10_000_000
# The longest text a card may be written in ("joker", "10h").
MAX_CARD_TEXT = 5
# How much of an unknown key a message repeats.
SHOWN_KEY = 24

Path = tuple[str | int, ...]


def where(path: Path) -> Message:
    """Name a place in an answer for a message: ``The answer's 'positions' item 2 'outcome'``."""
    if not path:
        return Message(N_("The answer"))
    parts: list[Message | str] = []
    for step in path:
        parts.append(Message(N_("item %(number)s"), number=step + 1) if isinstance(step, int)
                     else f"'{step}'")
    return Message(N_("The answer's %(place)s"), place=Joined(parts))


def shown(key: Any) -> str:
    """Quote an unknown key briefly, however long it is."""
    text = str(key)
    return repr(text if len(text) <= SHOWN_KEY else text[:SHOWN_KEY] + "...")


class Schema:
    """One part of an answer's shape; ``check`` returns the normalized value or raises."""

    message: Message | str | None = None

    def check(self, value: Any, path: Path = ()) -> Any:
        """Return ``value`` normalized, or raise ValueError saying what is wrong."""
        raise NotImplementedError

    def refuse(self, path: Path, template: str, **params: Any) -> ValueError:
        """Return the error for a wrong value: the schema's own message, or a general one.

        ``template`` names the place as ``%(place)s``.
        """
        if self.message:
            return EngineError(self.message)
        return refusal(template, place=where(path), **params)


class Whole(Schema):
    """A whole number (never a boolean) from ``low`` to ``high``."""

    def __init__(self, low: int, high: int, message: Message | str | None = None) -> None:
        self.low, self.high, self.message = low, high, message

    def check(self, value: Any, path: Path = ()) -> int:
        """Return the number, or refuse a boolean, a fraction, text or one out of range."""
        if isinstance(value, bool) or not isinstance(value, int) \
                or not self.low <= value <= self.high:
            raise self.refuse(path, N_("%(place)s must be a whole number from %(low)s to %(high)s."),
                              low=self.low, high=self.high)
        return value


class Flag(Schema):
    """True or false (never 0 or 1)."""

    def __init__(self, message: Message | str | None = None) -> None:
        self.message = message

    def check(self, value: Any, path: Path = ()) -> bool:
        """Return the boolean, or refuse anything else."""
        if not isinstance(value, bool):
            raise self.refuse(path, N_("%(place)s must be true or false."))
        return value


class OneOf(Schema):
    """One of a few fixed words."""

    def __init__(self, options: Sequence[str], message: Message | str | None = None) -> None:
        self.options, self.message = tuple(options), message

    def check(self, value: Any, path: Path = ()) -> str:
        """Return the word, or refuse anything not on the list."""
        if not isinstance(value, str) or value not in self.options:
            raise self.refuse(path, N_("%(place)s must be one of: %(options)s."),
                              options=Joined(self.options, ", "))
        return value


# A card field's refusals, whole sentences per field (a noun dropped into "The %(what)s has
# ..." cannot agree with its article and verb in every language, issue 19): the wrong form,
# the wrong count, and something that is not a card name.
CARD_SENTENCES: dict[str, tuple[str, str, str]] = {
    "front": (N_("The front has the wrong form: it must be a list of %(count)s cards."),
              N_("The front takes %(count)s cards; %(given)s were given."),
              N_("The front must be a list of card names such as As or 10h.")),
    "cards": (N_("The cards have the wrong form: they must be a list of %(count)s cards."),
              N_("The answer takes %(count)s cards; %(given)s were given."),
              N_("The cards must be a list of card names such as As or 10h.")),
}


class Cards(Schema):
    """Exactly ``count`` distinct cards, each one of ``allowed``, as a list of card names.

    ``what`` names the field, a key of ``CARD_SENTENCES`` ("front"; the marked word
    ``Message(N_("front"))`` is read as its key); anything else reads as "cards".
    """

    def __init__(self, count: int, allowed: Sequence[str], what: Message | str | None = None) -> None:
        key = what.template if isinstance(what, Message) else what
        self.count, self.what = count, key if key in CARD_SENTENCES else "cards"
        self.allowed = frozenset(parse_card(c) for c in allowed)

    def check(self, value: Any, path: Path = ()) -> list[str]:
        """Return the cards in canonical notation, or refuse another shape or a card not dealt."""
        wrong_form, wrong_count, not_names = CARD_SENTENCES[self.what]
        if not isinstance(value, list):
            raise refusal(wrong_form, count=self.count)
        if len(value) != self.count:
            raise refusal(wrong_count, count=self.count, given=len(value))
        if not all(isinstance(c, str) and 0 < len(c) <= MAX_CARD_TEXT for c in value):
            raise refusal(not_names)
        cards = [parse_card(c) for c in value]
        verify_distinct(cards)
        for card in cards:
            if card not in self.allowed:
                raise refusal(N_("%(card)s is not one of this hand's cards."), card=card)
        return card_list(cards)


class Maybe(Schema):
    """``None`` or a value of the inner schema."""

    def __init__(self, inner: Schema) -> None:
        self.inner = inner

    def check(self, value: Any, path: Path = ()) -> Any:
        """Return None, or the inner schema's value."""
        return None if value is None else self.inner.check(value, path)


class ListOf(Schema):
    """A list of ``low`` to ``high`` items, each of the item schema."""

    def __init__(self, item: Schema, low: int, high: int,
                 message: Message | str | None = None) -> None:
        self.item, self.low, self.high, self.message = item, low, high, message

    def check(self, value: Any, path: Path = ()) -> list[Any]:
        """Return the checked items, or refuse another shape or length."""
        if not isinstance(value, list):
            raise refusal(N_("%(place)s has the wrong form: it must be a list."), place=where(path))
        if not self.low <= len(value) <= self.high:
            raise self.refuse(path, N_("%(place)s must hold %(low)s to %(high)s items; "
                                       "%(given)s were given."),
                              low=self.low, high=self.high, given=len(value))
        return [self.item.check(v, (*path, i)) for i, v in enumerate(value)]


class Each(Schema):
    """A list of exactly as many items as schemas, the n-th checked by the n-th schema."""

    def __init__(self, items: Sequence[Schema], message: str | None = None) -> None:
        """``message``, a template, may name ``%(place)s``, ``%(wanted)s`` and ``%(given)s``."""
        self.items, self.wrong_count = tuple(items), message

    def check(self, value: Any, path: Path = ()) -> list[Any]:
        """Return the checked items, or refuse another shape or length."""
        if not isinstance(value, list):
            raise refusal(N_("%(place)s has the wrong form: it must be a list."), place=where(path))
        if len(value) != len(self.items):
            raise refusal(self.wrong_count or N_("%(place)s must hold %(wanted)s items; "
                                             "%(given)s were given."),
                          place=where(path), wanted=len(self.items), given=len(value))
        return [s.check(v, (*path, i))
                for i, (s, v) in enumerate(zip(self.items, value, strict=True))]


class Fields(Schema):
    """An object with exactly these keys: every required one, any optional one, no other.

    ``then`` checks what no single field can (a winner needs an amount) and may
    return the normalized object changed.
    """

    def __init__(self, required: Mapping[str, Schema], optional: Mapping[str, Schema] | None = None,
                 then: Callable[[dict[str, Any]], dict[str, Any] | None] | None = None,
                 message: Message | str | None = None) -> None:
        self.required, self.optional = dict(required), dict(optional or {})
        self.then, self.message = then, message

    def check(self, value: Any, path: Path = ()) -> dict[str, Any]:
        """Return a new object of the known keys, each checked, or refuse the first problem."""
        if not isinstance(value, dict):
            if self.message:
                raise EngineError(self.message)
            if not path:
                raise refusal(N_("The answer must be a JSON object."))
            raise refusal(N_("%(place)s has the wrong form: it must be an object."),
                          place=where(path))
        unknown = [k for k in value if k not in self.required and k not in self.optional]
        if unknown:
            raise refusal(N_("%(place)s has a field it does not take: %(field)s."),
                          place=where(path), field=shown(unknown[0]))
        out: dict[str, Any] = {}
        for key, schema in self.required.items():
            if key not in value:
                # A one-value field's own message asks for it best ("Pick one of the seats").
                own = schema.message if isinstance(schema, (Whole, Flag, OneOf)) else None
                if own:
                    raise EngineError(own)
                raise refusal(N_("%(place)s is missing '%(field)s'."), place=where(path), field=key)
            out[key] = schema.check(value[key], (*path, key))
        for key, schema in self.optional.items():
            if key in value:
                out[key] = schema.check(value[key], (*path, key))
        if self.then is not None:
            changed = self.then(out)
            out = out if changed is None else changed
        return out


def derived(answer_type: type, question: Any, context: Any,
            then: Callable[[dict[str, Any]], dict[str, Any] | None] | None = None) -> Fields:
    """Return the schema of a kind's answer dataclass, derived from its fields.

    Each field's metadata holds its ``schema``: a ``Schema``, or a function of the
    question and the context returning one (the cards a trainee may pick are the
    question's), or None when this question does not take the field (a hand to name
    takes a category, two hands to compare a winner). A field with a default is
    optional, any other required; metadata ``"required": True`` makes a field with a
    default required wherever the question takes it.
    """
    required: dict[str, Schema] = {}
    optional: dict[str, Schema] = {}
    for f in dataclasses.fields(answer_type):
        spec = f.metadata.get("schema")
        if spec is None:
            raise TypeError(f"{answer_type.__name__}.{f.name} declares no schema.")
        schema = spec if isinstance(spec, Schema) else spec(question, context)
        if schema is None:
            continue
        has_default = (f.default is not dataclasses.MISSING
                       or f.default_factory is not dataclasses.MISSING)
        is_required = f.metadata.get("required", not has_default)
        (required if is_required else optional)[f.name] = schema
    return Fields(required, optional, then)
