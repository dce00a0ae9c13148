"""Dealing a hand to the class: at random, for a rule, from the group's weakest rules, or typed in.

Every way gives the drill's own question under the group's context (the one builder's);
it is stored as the drill stores a question (``question_json``, with the seed it was dealt
from: 0 for a hand typed in) beside the context's JSON, and its deciding rule
(``rule_of``) is kept on the server. A hand at random is the kind's generator's
(``new_question``), so it deals again from its seed; a hand for a rule is the kind's
dealing by rule (``deal_for``) drawn from ``random.Random(seed)``.
"""
from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from trainer.engine.drills import Drill, DrillContext, new_question
from trainer.engine.house_way import dealing as dealing_by_rule
from trainer.engine.messages import N_, EngineError, Message
from trainer.extensions import db
from trainer.models import ClassHand, Group, LiveClass, Membership, Role, User, utcnow
from trainer.models.classroom import DEALT_HOW
from trainer.models.types import bounded_int
from trainer.services.classroom import answers
from trainer.services.classroom.rows import (
    TIMER_MAX_S,
    ClassClosed,
    ClassError,
    changed,
    class_drill,
    current_hand,
    group_context,
    running_class,
)
from trainer.services.reports.sql import rule_figures

# The group's weakest rules are read from its trainees' answers of this many days.
WEAKEST_DAYS = 30


@dataclass(frozen=True, slots=True)
class DealOrder:
    """What the instructor asks for: a kind, how it is dealt, and for each way its detail.

    ``rule``: the rule a hand is dealt for (``how`` "rule"); ``typed``: the question's JSON
    as typed in (``how`` "typed"); ``timer_s``: the hand's timer (None: none).
    """

    kind: str
    how: str = "random"
    rule: str | None = None
    typed: Mapping[str, Any] | None = None
    timer_s: object = None


def deal(class_id: int, order: DealOrder) -> int:
    """Deal a hand to the class's table and return its number.

    A hand still open is locked (its answers recorded) first. Nothing is dealt when the
    order does not fit (ClassError in words).
    """
    live = running_class(class_id)
    drill = class_drill(order.kind)
    if order.how not in DEALT_HOW:
        raise ClassError(Message(N_("There is no way of dealing a hand called %(how)s."),
                                 how=repr(order.how)))
    timer = None if order.timer_s in (None, "", 0, "0") else bounded_int(order.timer_s, 1,
                                                                         TIMER_MAX_S)
    if order.timer_s not in (None, "", 0, "0") and timer is None:
        raise ClassError(Message(N_("A timer runs up to %(most)s seconds."), most=TIMER_MAX_S))
    group = db.session.get(Group, live.group_id)
    assert group is not None
    context = group_context(group)
    seed, question, asked = _dealt(live, drill, context, order)
    data = drill.question_json(question)
    data["seed"] = seed
    rule_id = drill.rule_of(question, context)
    answers.lock(class_id)
    db.session.refresh(live)
    number = live.current_number + 1
    now = utcnow()
    try:
        # The number moves on only from the number read: a deal at the same moment finds
        # it moved and changes nothing.
        if changed(update(LiveClass).where(LiveClass.id == live.id,
                                           LiveClass.current_number == live.current_number)
                   .values(current_number=number, version=LiveClass.version + 1)) == 1:
            db.session.add(ClassHand(
                class_id=live.id, number=number, kind=drill.slug, dealt=order.how,
                asked_rule=asked, seed=seed, question=data, context=context.as_dict(),
                rule_id=rule_id, state="open", timer_s=timer,
                deadline=now + timedelta(seconds=timer) if timer else None, dealt_at=now))
            db.session.commit()
            return number
    except IntegrityError:
        pass
    db.session.rollback()
    raise ClassClosed(Message(N_("Another hand was dealt at the same moment.")))


def next_hand(class_id: int) -> int:
    """Deal the next hand as the last was dealt (a hand typed in: the same drill at random)."""
    live = running_class(class_id)
    last = current_hand(live)
    if last is None:
        raise ClassError(Message(N_("Deal the first hand from the panel.")))
    how = "random" if last.dealt == "typed" else last.dealt
    return deal(class_id, DealOrder(kind=last.kind, how=how, rule=last.asked_rule,
                                    timer_s=last.timer_s))


def _dealt(live: LiveClass, drill: Drill, context: DrillContext,
           order: DealOrder) -> tuple[int, Any, str | None]:
    """Return (seed, question, the rule asked for) of a hand dealt as ``order`` asks."""
    if order.how == "typed":
        return 0, typed_question(drill, order.typed, context), None
    seed = secrets.randbits(63)
    if order.how == "random":
        return seed, new_question(drill.slug, seed, context), None
    if order.how == "rule":
        if not isinstance(order.rule, str) or not order.rule:
            raise ClassError(Message(N_("Choose the rule the hand is dealt for.")))
        question = _for_rule(drill, context, order.rule, seed)
        if question is None:
            raise ClassError(Message(N_("No hand can be dealt for that rule under the group's "
                                        "rules: choose another.")))
        return seed, question, order.rule
    for rule in _weakest_order(live, drill.slug):
        question = _for_rule(drill, context, rule, seed)
        if question is not None:
            return seed, question, rule
    raise ClassError(Message(N_("The group has missed no rule of this drill in the last "
                                "%(days)s days: deal at random or for a rule."), days=WEAKEST_DAYS))


def _for_rule(drill: Drill, context: DrillContext, rule: str, seed: int) -> Any | None:
    """Deal a hand that ``rule`` decides, drawn from ``seed``; None when none can be."""
    try:
        return drill.deal_for(random.Random(seed), context, rule)
    except EngineError:  # a way without its class table: nothing can be dealt for its rules
        return None


def weakest_rules(group_id: int, kind: str) -> list[str]:
    """Return the rules the group's trainees missed in drill ``kind`` in the last
    ``WEAKEST_DAYS`` days, weakest first (lowest accuracy, then most missed)."""
    members = list(db.session.execute(
        select(User.id).join(Membership, Membership.user_id == User.id)
        .where(Membership.group_id == group_id, User.role == Role.TRAINEE)).scalars())
    if not members:
        return []
    since = utcnow() - timedelta(days=WEAKEST_DAYS)
    return [r.rule for r in rule_figures(members, since, kind=kind) if r.figures.wrong]


def _weakest_order(live: LiveClass, kind: str) -> list[str]:
    """Return the group's weakest rules of ``kind``, those not yet dealt in this class first,
    so "next" goes round them."""
    rules = weakest_rules(live.group_id, kind)
    dealt = set(db.session.execute(select(ClassHand.asked_rule).where(
        ClassHand.class_id == live.id, ClassHand.kind == kind,
        ClassHand.dealt == "weakest")).scalars())
    return [r for r in rules if r not in dealt] + [r for r in rules if r in dealt]


def typed_question(drill: Drill, typed: Mapping[str, Any] | None,
                   context: DrillContext) -> Any:
    """Return the question the instructor typed in (its JSON), checked as the drill checks
    one: read strictly by its fields, then its rule and key worked out (every card, count
    and amount checked by the engine); ClassError in words when it does not fit."""
    if not isinstance(typed, Mapping) or not typed:
        raise ClassError(Message(N_("Type the hand in first.")))
    try:
        question = drill.read_question({**typed, "kind": drill.slug, "seed": 0})
        drill.rule_of(question, context)
        drill.answer_key(question, context)
    except EngineError as error:  # a card, a count, an amount: the engine's words
        raise ClassError(error.message) from error
    except (ValueError, TypeError, LookupError, ArithmeticError) as error:
        raise ClassError(Message(N_("The hand typed in does not fit this drill: fill in every "
                                    "hand and amount."))) from error
    return question


def warm_dealing() -> int:
    """Build the dealing-by-rule indexes of the house ways and wheel settings the groups
    train under (a class's hand for a rule, practice that adapts), and the shared class
    weights; return how many indexes were built or found. A web server calls it at start
    (``trainer/cli/gunicorn_conf.py``), so no request builds one; a way a group takes up
    later is built at its first hand in each worker (0.2 to 0.5 s, once)."""
    tables = {}
    for group in db.session.execute(select(Group)).scalars():
        try:
            context = group_context(group)
        except ClassError:  # a way no longer offered: the group's page says so
            continue
        tables[(context.way.name, context.way.rules_digest, context.table.wheel.value)] = (
            context.way, context.table.wheel.value)
    return dealing_by_rule.warm(tables.values())
