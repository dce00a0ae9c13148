"""The forecast: "at your pace, ready for the exam in about N sessions (M hands)".

Worked out from the trainee's memories (FSRS), their pace and the group's criterion
for the drill (docs/learning.md, "The forecast"):

1. A **floor skill** (every skill the criterion asks for: a house-way rule deciding at
   least 0.1% of hands, every skill of another kind) is *learned* when two things hold:
   - FSRS's memory of it lasts: past its learning steps, with a stability of at least
     ``target_days``, the stability at which recall one day after the last review is the
     criterion's accuracy (98% for the house way: about 7 days);
   - the trainee sets it right as often as the criterion asks: their recent miss rate on
     it (``recent_miss``, an average of their latest answers on it that weighs each new
     answer a fifth; an unseen skill starts at their average over the drill's skills
     seen, or one in three) is at most one minus the criterion's accuracy. Each further
     answer is expected to take a tenth off it (the benchmark's learner closes a tenth
     of what is left to learn with each right answer with feedback, docs/learning.md).
   Rarer rules are taught too, but the forecast does not wait for them.
2. For each floor skill not yet learned: the answers the miss rate needs, and the
   reviews FSRS needs, played forward through the pinned scheduler from the memory as it
   is now (a new card for an unseen skill), rated Good, each at the first session at or
   after the card is due (sessions of the trainee's length, at their number a day): the
   larger of the two, at most ``MAX_REVIEWS`` (a skill not learned by then counts them
   and is reported as ``beyond``).
3. Hands: those answers, divided by four fifths (one question in five is drawn by the
   unbiased generator), plus one criterion window of timed hands (the hands the
   criterion counts) unless the trainee's window already meets it. Sessions: the hands
   over the session length, but at least what the new-skill budget allows (3 unseen
   skills a session) and the calendar days FSRS's spacing needs.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from .memory import PRIOR_MISS, REVIEW, CardState, Grade, review, stability_for
from .policy import NEW_PER_SESSION, UNBIASED_SHARE

MAX_REVIEWS = 60
# Each further answer is expected to take this share off a skill's miss rate.
LEARNING_PER_ANSWER = 0.1


@dataclass(frozen=True, slots=True)
class Outlook:
    """One skill as the forecast sees it: its memory (None: unseen), whether the criterion
    asks for it, and the trainee's recent miss rate on it (None: unseen)."""

    memory: CardState | None
    floor: bool
    recent_miss: float | None = None


@dataclass(frozen=True, slots=True)
class Pace:
    """How the trainee practises: questions a session, sessions a day, seconds an answer."""

    session_length: int
    sessions_per_day: float = 1.0
    answer_s: float = 10.0


@dataclass(frozen=True, slots=True)
class Forecast:
    """Sessions and hands until ready, and what they are made of."""

    sessions: int
    hands: int
    ready: bool              # every floor skill learned and the criterion's window met
    to_learn: int            # floor skills not yet learned
    unseen: int              # floor skills never answered
    beyond: int              # floor skills not learned within MAX_REVIEWS answers each
    reviews: int             # answers the floor skills still need, targeted
    days: int                # calendar days FSRS's spacing needs
    target_days: float       # the stability (days) a skill's memory counts as lasting at


class _Sessions:
    """The trainee's sessions from ``now``: every ``gap``, each ``length`` long."""

    def __init__(self, now: datetime, pace: Pace) -> None:
        self.now = now
        self.gap = timedelta(days=1 / max(pace.sessions_per_day, 1e-6))
        self.length = timedelta(seconds=max(1, pace.session_length) * max(pace.answer_s, 0.1))

    def at_or_after(self, when: datetime) -> datetime:
        """Return ``when`` if a session is running then, else the next session's start."""
        if when <= self.now:
            return self.now
        k = math.floor((when - self.now) / self.gap)
        start = self.now + k * self.gap
        return when if when < start + self.length else start + self.gap


def lasting(memory: CardState | None, target: float) -> bool:
    """Tell whether FSRS's memory of a skill lasts: past its learning steps, stable enough."""
    return memory is not None and memory.state == REVIEW and (memory.stability or 0.0) >= target


def answers_to_accuracy(miss: float, accuracy: float) -> int:
    """Return the answers after which a miss rate of ``miss`` is at most ``1 - accuracy``."""
    allowed = max(1 - accuracy, 1e-6)
    if miss <= allowed:
        return 0
    return math.ceil(math.log(allowed / miss) / math.log(1 - LEARNING_PER_ANSWER))


def _spacing(memory: CardState | None, target: float,
             sessions: _Sessions) -> tuple[int, datetime]:
    """Play a skill's Good reviews forward until its memory lasts: (reviews, the last one's time)."""
    when, count = sessions.now, 0
    while count < MAX_REVIEWS and not lasting(memory, target):
        if memory is not None:
            when = sessions.at_or_after(max(when, memory.due))
        memory = review(memory, Grade.GOOD, when)
        count += 1
    return count, when


def forecast(skills: Sequence[Outlook], now: datetime, pace: Pace, accuracy: float,
             window: int, window_met: bool) -> Forecast:
    """Return the forecast for ``skills`` against a criterion of ``accuracy`` (0..1) over
    ``window`` hands (``window_met``: the trainee's window already meets it)."""
    target = stability_for(min(max(accuracy, 0.5), 0.999))
    sessions = _Sessions(now, pace)
    seen = [s.recent_miss for s in skills if s.recent_miss is not None]
    average = sum(seen) / len(seen) if seen else PRIOR_MISS
    reviews, unseen, to_learn, beyond = 0, 0, 0, 0
    last = now
    for outlook in skills:
        miss = average if outlook.recent_miss is None else outlook.recent_miss
        if not outlook.floor or (lasting(outlook.memory, target)
                                 and answers_to_accuracy(miss, accuracy) == 0):
            continue
        to_learn += 1
        unseen += outlook.memory is None
        spaced, when = _spacing(outlook.memory, target, sessions)
        needed = max(spaced, answers_to_accuracy(miss, accuracy))
        beyond += needed >= MAX_REVIEWS
        reviews += min(needed, MAX_REVIEWS)
        last = max(last, when)
    hands = math.ceil(reviews / (1 - UNBIASED_SHARE)) + (0 if window_met else window)
    count = max(math.ceil(hands / max(1, pace.session_length)),
                math.ceil(unseen / NEW_PER_SESSION),
                math.floor((last - now) / sessions.gap) + 1 if reviews else 0)
    return Forecast(sessions=count, hands=hands, ready=to_learn == 0 and window_met,
                    to_learn=to_learn, unseen=unseen, beyond=beyond, reviews=reviews,
                    days=math.ceil((last - now) / timedelta(days=1)), target_days=target)
