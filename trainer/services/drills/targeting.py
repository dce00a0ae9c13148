"""Sessions that learn (issue 30): the memory an answer reviews, and the questions dealt for a skill.

The session use cases (``sessions``) call these at three points:

- ``check`` and ``first_context`` when a session starts: a ``targeted`` session (practice
  that adapts: untimed practice of a kind of single questions, each dealt for the skill
  the policy picks, ``learning.plan``) and a session dealt for one skill ("practise this
  rule": ``focused``, every question dealt for it) store the skill in the question's
  context (``DEALT_FOR``), which every later question copies;
- ``rating_ms``: the answer time the session's right answers are rated by, fixed at its
  start (``learning.rating``);
- ``after_answer``, in the answer's transaction, after its attempt: the answer reviews the
  trainee's memory of its skill (not in an exam: exam answers are reviewed at its end),
  and in a targeted session the next question is chosen, dealt and stored ready.
"""
from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from datetime import datetime
from typing import Any

from trainer.engine.drills import DrillContext, Grade, get_drill
from trainer.engine.learning.catalogue import catalogue
from trainer.engine.learning.keys import skill_id
from trainer.engine.messages import N_, Message
from trainer.models import DrillSession
from trainer.services.drills.store import Loaded
from trainer.services.group_settings import GroupSettings
from trainer.services.learning import assignments, plan, records
from trainer.services.learning import memory as learning_memory
from trainer.services.learning import rating as learning_rating

TARGETED = "targeted"
# How a session dealt for one skill ("practise this rule") is recorded: focused practice.
ONE_SKILL = "focused"


class TargetingError(ValueError):
    """A targeted session or one skill's practice that cannot be started; said in words."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


def check(kind: str, mode: str, dealt: str, skill: str | None, context: DrillContext) -> None:
    """Refuse a targeted or one-skill session its kind or mode cannot have, in words."""
    drill = get_drill(kind)
    if dealt != TARGETED and skill is None:
        return
    if mode != "practice":
        raise TargetingError(Message(N_("Targeted practice and the practice of one rule are "
                                        "untimed practice only.")))
    if drill.unit_length() > 1:
        raise TargetingError(Message(N_("This drill is practised by whole rounds: practise its "
                                        "rules in the drills of single questions.")))
    if dealt == TARGETED and (skill is not None or context.focus_rules):
        raise TargetingError(Message(N_("Targeted practice chooses its own rules.")))
    if skill is not None and skill_id(skill) not in catalogue(drill, context).index:
        raise TargetingError(Message(N_("No question of this drill can be dealt for that rule "
                                        "under your group's rules.")))


def rating_ms(settings: GroupSettings, group_id: int | None, kind: str) -> int | None:
    """Return the answer time a new session's right answers are rated by."""
    return learning_rating.rating_time_ms(settings, group_id, kind)


def policy_rng() -> random.Random:
    """Return the random source of the policy's one draw a question (a fresh seed each)."""
    return random.Random(secrets.randbits(64))


def first_context(session: DrillSession, context: DrillContext, skill: str | None) -> dict[str, Any]:
    """Return the stored context of a new session's first question: dealt for ``skill``, or,
    in a targeted session, for the skill the policy picks from the trainee's memories."""
    base = context.as_dict()
    if session.dealt != TARGETED:
        return plan.context_json(base, None if skill is None else skill_id(skill))
    learning_memory.bring_up_to_date([session.user_id], session.kind)
    memories = records.memories_of([session.user_id], session.kind)[session.user_id]
    favoured = assignments.favoured(session.user_id, session.group_id, session.kind, context)
    chosen = plan.choose(get_drill(session.kind), context, memories, session.started_at, 0,
                         policy_rng(), favoured)
    return plan.context_json(base, chosen, favoured)


Issue = Callable[..., Any]


def after_answer(loaded: Loaded, context: DrillContext, grade: Grade, *, timed_out: bool,
                 elapsed_ms: int, now: datetime, finished: bool, issue: Issue) -> None:
    """Review the answer's skill and, in a targeted session, deal the next question ready
    (``issue``: the sessions' own dealing); in the answer's transaction, not committed."""
    session, issued = loaded.session, loaded.issued
    assert issued is not None
    if session.mode == "exam":
        return
    review = learning_memory.review_answer(
        user_id=session.user_id, kind=session.kind, rule_id=grade.rule_id,
        house_way=context.house_way, rules_digest=context.house_way_digest,
        aggregate=loaded.memories, correct=grade.correct and not timed_out,
        timed_out=timed_out, elapsed_ms=elapsed_ms, rating_ms=session.rating_time_ms, when=now)
    if session.dealt != TARGETED or finished:
        return
    chosen = plan.choose(get_drill(session.kind), context, review.all(), now,
                         plan.introduced_of(issued.context), policy_rng(),
                         plan.favoured_of(issued.context))
    issue(session, issued.position + 1, plan.context_json(issued.context, chosen), context,
          start_clock=False)
