"""Setting seven cards: the 21 splits and the foul test (docs/rules.md §3)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from .cards import Card, format_cards, verify_distinct
from .hands import Wheel, evaluate2, evaluate5, rank2, rank5
from .messages import N_, Message, refusal

# Index pairs of the front for the 21 ways to split seven cards.
FRONT_INDEXES: tuple[tuple[int, int], ...] = tuple(combinations(range(7), 2))
SPLITS: tuple[tuple[tuple[int, ...], tuple[int, int]], ...] = tuple(
    (tuple(i for i in range(7) if i not in front), front) for front in FRONT_INDEXES
)


@dataclass(frozen=True, slots=True)
class SetHand:
    """Seven cards set as a five-card back and a two-card front."""

    back: tuple[Card, ...]
    front: tuple[Card, ...]

    def __str__(self) -> str:
        return f"front {format_cards(self.front)} / back {format_cards(self.back)}"


def splits(seven: Sequence[int]) -> list[SetHand]:
    """Return the 21 ways to set seven cards."""
    if len(seven) != 7:
        raise refusal(N_("A Pai Gow hand has 7 cards; %(given)s were given."), given=len(seven))
    cards = tuple(Card(c) for c in seven)
    return [SetHand(tuple(cards[i] for i in back), tuple(cards[i] for i in front))
            for back, front in SPLITS]


def verify_set_hand(back: Sequence[int], front: Sequence[int]) -> None:
    """Raise ValueError when a set hand has the wrong card counts or a duplicate."""
    if len(back) != 5:
        raise refusal(N_("The back (high hand) needs 5 cards; it has %(given)s."), given=len(back))
    if len(front) != 2:
        raise refusal(N_("The front (low hand) needs 2 cards; it has %(given)s."),
                      given=len(front))
    verify_distinct(list(back) + list(front))


def is_foul_strengths(back_strength: int, front_strength: int) -> bool:
    """Tell whether a back of this strength fouls against a front of that strength.

    The strength layout makes the rule book's test one comparison: a pair beats no
    pair, equal categories compare their defining ranks in order, and when every
    rank of the front equals the back's, the back is the higher.
    """
    return back_strength < front_strength


def is_foul(back: Sequence[int], front: Sequence[int],
            wheel: str = Wheel.SECOND_HIGHEST) -> bool:
    """Tell whether a set hand is fouled (the front outranks the back)."""
    verify_set_hand(back, front)
    return rank5(back, wheel) < rank2(front)


def same_value(back_a: Sequence[int], front_a: Sequence[int], back_b: Sequence[int],
               front_b: Sequence[int], wheel: str = Wheel.SECOND_HIGHEST) -> bool:
    """Tell whether two settings have the same value in back and in front (docs/rules.md)."""
    return (rank5(back_a, wheel) == rank5(back_b, wheel)
            and rank2(front_a) == rank2(front_b))


def foul_reason(back: Sequence[int], front: Sequence[int],
                wheel: str = Wheel.SECOND_HIGHEST) -> str | None:
    """Explain why a set hand is fouled, or return None when it is legal."""
    found = foul_message(back, front, wheel)
    return None if found is None else str(found)


def foul_message(back: Sequence[int], front: Sequence[int],
                 wheel: str = Wheel.SECOND_HIGHEST) -> Message | None:
    """Return ``foul_reason`` as a message to translate, or None when the hand is legal."""
    verify_set_hand(back, front)
    b, f = evaluate5(back, wheel), evaluate2(front)
    if b.strength >= f.strength:
        return None
    return Message(N_("Fouled: the front (%(front)s) outranks the back (%(back)s); "
                      "the five-card hand must be the higher."),
                   front=f.name, back=b.name)
