"""What setting a hand answers: ``HouseWaySetting``, and ``HouseWayError`` when it cannot."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import FrozenInstanceError
from typing import TYPE_CHECKING, Any

from ...cards import Card
from .. import kinds as K

if TYPE_CHECKING:
    from .way import HouseWay


class HouseWayError(RuntimeError):
    """A house-way file is wrong, or leaves a hand undecided."""


class HouseWaySetting:
    """Seven cards set the house way: back, front, the deciding rule and why.

    Immutable. The explanation is worded on first access (from the rule and the
    cards), so that setting a hand from a class table does no wording at all.
    Two settings are equal when back, front, rule and explanation are.
    """

    __slots__ = ("_text", "_why", "back", "front", "rule")
    back: tuple[Card, ...]
    front: tuple[Card, ...]
    rule: str
    _text: str | None
    # (house way, cards in class order, split, wheel): what words the explanation.
    _why: tuple[HouseWay, Sequence[Card], int, str] | None

    def __init__(self, back: tuple[Card, ...], front: tuple[Card, ...], rule: str,
                 explanation: str | None = None,
                 why: tuple[HouseWay, Sequence[Card], int, str] | None = None) -> None:
        if explanation is None and why is None:
            raise TypeError("A house-way setting needs an explanation or a way to word one.")
        put = object.__setattr__
        put(self, "back", back)
        put(self, "front", front)
        put(self, "rule", rule)
        put(self, "_text", explanation)
        put(self, "_why", why)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    @property
    def explanation(self) -> str:
        """Return why the rule sets the hand so (worded on first access)."""
        text: str | None = self._text
        if text is None:
            assert self._why is not None
            way, cards, split, wheel = self._why
            text = way._explain(cards, split, self.rule, wheel)
            object.__setattr__(self, "_text", text)
            object.__setattr__(self, "_why", None)
        return text

    def _key(self) -> tuple[tuple[Card, ...], tuple[Card, ...], str, str]:
        return self.back, self.front, self.rule, self.explanation

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HouseWaySetting):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.back, self.front, self.rule))

    def __repr__(self) -> str:
        return (f"HouseWaySetting(back={self.back!r}, front={self.front!r}, "
                f"rule={self.rule!r}, explanation={self.explanation!r})")

    def __reduce__(self) -> tuple[type[HouseWaySetting], tuple[Any, ...]]:
        return HouseWaySetting, (self.back, self.front, self.rule, self.explanation)

    @property
    def family(self) -> str:
        """Return the deciding rule's family (``two-pair``)."""
        return K.rule_family(self.rule)

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON form used by the command line."""
        return {"back": [str(c) for c in self.back], "front": [str(c) for c in self.front],
                "rule": self.rule, "explanation": self.explanation}
