"""Targeted practice in the app: the next question's skill, chosen from the trainee's memories.

A targeted session (``DrillSession.dealt`` ``targeted``) deals every question for a
skill the policy (``engine/learning/policy.pick``) chooses, or by the kind's generator
one time in five. Its first question is chosen when the session starts; every later one
in the transaction of the answer before it, from the memories that answer's statement
read (``records.aggregate_column``) and its own review, and stored ready for the page
(``issued_at`` unset): showing it starts its clock and costs no more statements than
any question (issue 30).

What the policy is told (``choose``):

- the skills: the catalogue of the kind under the session's context
  (``engine/learning/catalogue``: the way's rules by their share of hands, or the kind's
  declared skills), numbered as the benchmark numbers them;
- per skill seen: when FSRS has it due, its recall now and its recall a day from now (the
  next day's session: the benchmark's "next session");
- the new skills the session may still introduce: ``NEW_PER_SESSION`` less those it has
  introduced (counted in its questions' context, ``INTRODUCED``; a skill first met on a
  question of the generator's uses none of the budget, as in the benchmark);
- the skills a supervisor assigned (``assignments.favoured``), kept with the session's
  questions from its start (``FAVOURED`` in their context), so an answer reads none.
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any

from trainer.engine.drills import Drill, DrillContext
from trainer.engine.learning.catalogue import Catalogue, catalogue
from trainer.engine.learning.dealing import DEALT_FOR, FAVOURED
from trainer.engine.learning.keys import SkillKey, skill_key
from trainer.engine.learning.memory import recall
from trainer.engine.learning.policy import NEW_PER_SESSION, Pick, pick
from trainer.services.learning.records import Memory

NEXT_SESSION = timedelta(days=1)
# The key of a targeted session's question context counting the new skills it introduced.
INTRODUCED = "introduced"


def key_of(cat: Catalogue, skill: str, context: DrillContext) -> SkillKey:
    """Return the memory key of one of a catalogue's skills under ``context``."""
    return skill_key(cat.kind, skill, context.house_way, context.house_way_digest)


def choose(drill: Drill, context: DrillContext, memories: Mapping[SkillKey, Memory],
           now: datetime, introduced: int, rng: random.Random,
           favoured: Iterable[str] = ()) -> Pick[str]:
    """Return the skill the next question of a targeted session is dealt for (None: the
    kind's generator, one question in five or nothing left to target) and whether it is
    new; ``introduced``: the new skills the session has brought in so far."""
    cat = catalogue(drill, context)
    due: dict[int, datetime] = {}
    now_r: dict[int, float] = {}
    next_r: dict[int, float] = {}
    for i, skill in enumerate(cat.skills):
        memory = memories.get(key_of(cat, skill, context))
        if memory is None:
            continue
        due[i] = memory.card.due
        now_r[i] = recall(memory.card, now)
        next_r[i] = recall(memory.card, now + NEXT_SESSION)
    wanted = set(favoured)
    choice = pick(rng, now, due=due, recall_now=now_r, recall_next=next_r, floor=cat.floor,
                  unseen=cat.unseen_order(set(due)),
                  new_left=max(0, NEW_PER_SESSION - introduced),
                  favoured=frozenset(i for i, s in enumerate(cat.skills) if s in wanted))
    return Pick(None if choice.skill is None else cat.skills[choice.skill], choice.new)


def introduced_of(context_data: Mapping[str, Any]) -> int:
    """Return the new skills a targeted session had introduced when this question was dealt."""
    count = context_data.get(INTRODUCED, 0)
    return count if isinstance(count, int) and not isinstance(count, bool) else 0


def context_json(base: Mapping[str, Any], choice: Pick[str] | str | None,
                 favoured: Iterable[str] | None = None) -> dict[str, Any]:
    """Return a question's stored context: ``base`` dealt for ``choice``'s skill (None: by
    the generator), counting it when new, with the session's assigned skills (kept from
    ``base`` when None)."""
    data = {k: v for k, v in base.items() if k != DEALT_FOR}
    if favoured is not None:
        data[FAVOURED] = sorted(set(favoured))
    if isinstance(choice, Pick):
        if choice.new:
            data[INTRODUCED] = introduced_of(base) + 1
        choice = choice.skill
    if choice is not None:
        data[DEALT_FOR] = choice
    return data


def favoured_of(context_data: Mapping[str, Any]) -> list[str]:
    """Return the assigned skills a targeted session's stored context keeps."""
    kept = context_data.get(FAVOURED)
    return [s for s in kept if isinstance(s, str)] if isinstance(kept, list) else []
