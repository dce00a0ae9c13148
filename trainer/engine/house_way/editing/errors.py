"""A house way's problems: ``FieldError`` (where and why) and ``EditError`` (all of them).

Each problem is a sentence marked for the catalogues (``N_``), kept as a ``Message``
(``FieldError.said``) so the editor shows it in the manager's language; ``message`` is
its English, as the commands and tests read it.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ...messages import Message


@dataclass(frozen=True, slots=True)
class FieldError:
    """One problem with a house way: where (``sections[2].rules[0].when.high_pair``) and why."""

    path: str
    message: str
    said: Message | None = None

    @property
    def sentence(self) -> Message | str:
        """Return the problem as a sentence to say (its ``Message``, or the English text)."""
        return self.said if self.said is not None else self.message


class EditError(ValueError):
    """A house way that cannot be used as it is; ``errors`` says every problem."""

    def __init__(self, errors: Iterable[FieldError]) -> None:
        self.errors = list(errors)
        super().__init__(" ".join(e.message for e in self.errors[:3]))


def said(path: str, message: Message) -> FieldError:
    """Return a problem whose words are ``message`` (its English as ``message``)."""
    return FieldError(path, str(message), message)


class Errors(list[FieldError]):
    """The problems found so far; ``add`` takes a ``Message`` or, for no catalogue, English."""

    def add(self, path: str, message: Message | str) -> None:
        if isinstance(message, Message):
            self.append(said(path, message))
        else:
            self.append(FieldError(path, message))
