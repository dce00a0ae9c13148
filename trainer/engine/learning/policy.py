"""Targeted practice: which skill the next question exercises (docs/learning.md, "The policies").

One pure function, ``pick``, used by the app's targeted sessions
(``services/learning/plan.py``) and by the benchmark (``bench/learning_sim.py``,
``Adaptive``), so the policy the benchmark measures is the one the trainees get.

Skills are keys of any ordered type, the smaller first on a tie (the app and the bench
both number them by frequency, the most frequent 0). The caller says, per skill seen:
when FSRS has it due, its recall now and its recall at the next session; which skills
are *floor* skills (those the readiness criterion asks for: a house-way rule deciding
at least ``FLOOR_SHARE`` of hands, every skill of another kind); the unseen skills in
the order to introduce them; how many new skills the session may still introduce; and
the skills a supervisor assigned (``favoured``). The next question:

1. with probability ``unbiased_share`` (about one question in five): the unbiased
   generator (``Pick(None, False)``), so every skill keeps its honest share and the
   estimates stay honest;
2. an assigned skill that is due (the least retrievable now first), else an unseen
   assigned skill (it uses the session's budget when any is left, but is not held back
   by it);
3. else the floor skill due now with the lowest recall now (ties: earliest due, then the
   smaller key);
4. else, while the session's budget of new skills lasts, the first unseen floor skill;
5. else the same two steps for the rarer skills;
6. else, ahead of schedule, the seen assigned skill, else the seen floor skill, with the
   lowest recall at the next session (ties: the smaller key);
7. else the unbiased generator.

With nothing assigned, steps 2 and 6's first half do nothing, and the steps are those
the benchmark measured.
"""
from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence, Set
from datetime import datetime
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

UNBIASED_SHARE = 0.2         # about one question in five from the unbiased generator
NEW_PER_SESSION = 3          # unseen skills introduced per session
FLOOR_SHARE = 0.001          # a house-way rule deciding this share of hands is a floor rule


class _Ordered(Hashable, Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


K = TypeVar("K", bound=_Ordered)


class Pick(NamedTuple, Generic[K]):
    """The next question's skill (None: the unbiased generator) and whether it is new."""

    skill: K | None
    new: bool


def pick(rng: random.Random, now: datetime, *, due: Mapping[K, datetime],
         recall_now: Mapping[K, float], recall_next: Mapping[K, float], floor: Set[K],
         unseen: Sequence[K], new_left: int, favoured: Set[K] = frozenset(),
         unbiased_share: float = UNBIASED_SHARE) -> Pick[K]:
    """Return the next question's skill by the steps above.

    ``due``, ``recall_now`` and ``recall_next`` have a key per skill seen; ``unseen``
    lists the others in the order to introduce them; the rng is drawn once a question.
    """
    if rng.random() < unbiased_share:
        return Pick(None, False)
    due_now = [k for k, d in due.items() if d <= now]
    if favoured:
        wanted = [k for k in due_now if k in favoured]
        if wanted:
            return Pick(min(wanted, key=lambda k: (recall_now[k], due[k], k)), False)
        fresh = next((k for k in unseen if k in favoured), None)
        if fresh is not None:
            return Pick(fresh, True)
    for group in (True, False):               # floor skills, then the rarer ones
        wanted = [k for k in due_now if (k in floor) == group]
        if wanted:
            return Pick(min(wanted, key=lambda k: (recall_now[k], due[k], k)), False)
        if new_left > 0 and unseen and (unseen[0] in floor) == group:
            return Pick(unseen[0], True)
    ahead = [k for k in due if k in favoured] if favoured else []
    ahead = ahead or [k for k in due if k in floor]
    if ahead:
        return Pick(min(ahead, key=lambda k: (recall_next[k], k)), False)
    return Pick(None, False)
