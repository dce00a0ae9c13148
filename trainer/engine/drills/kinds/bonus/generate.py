"""Dealing the bonus drill: by category, not from the deck, and for one skill.

Questions are drawn by category: half of them make a qualifying category (each of
those equally often), half do not (each of those equally often), so the cue's yes and
no are even, every category above a straight appears one question in fourteen, and no
constant answer beats chance. The seven cards of the category are then shown as dealt,
as the house way sets them, or as a player might set them (fouled or not: the setting
does not matter to a bonus).

Dealing for a skill (a pay line of the group's table or of the Envy table the cue asks
of, or either table's "nothing") picks, evenly, a category that decides that line, then
deals it the same way; a line of another table is reported (None), never dealt for.
"""
from __future__ import annotations

import random

from ....cards import card_list
from ....setting import splits
from ....side_bets import (
    PAY_ORDER,
    BonusCategory,
    Payment,
    TableKind,
    load_table,
    question_payment,
    sample_hand,
)
from ...context import DrillContext
from .questions import BonusQuestion, envy_table, offered_table, qualifying

# Bonus bets shown (dollars), within the offer's limits ($1 to $25 by default).
BETS_DOLLARS = (1, 2, 3, 5, 5, 5, 10, 10, 15, 20, 25, 25)
# A progressive's meter: whole dollars from this to that (cents shown are whole dollars).
METER_DOLLARS = (10_000, 250_000)
# How the seven are shown: as dealt, set by the house way, or set another way (fouled or
# not). Only the draw's place in this tuple is part of a question's replay; the names are
# never stored (a question holds ``cards``, or ``back`` and ``front``).
LAYOUTS = ("dealt", "house-set", "player-set")


def generate(rng: random.Random, context: DrillContext) -> BonusQuestion:
    """Pick qualifying or not (evenly), then a category (evenly), then deal seven cards of it."""
    offer, _offered = offered_table(context.table)
    good = qualifying(offer)
    rest = tuple(c for c in PAY_ORDER if c not in good)
    category = rng.choice(good if rng.random() < 0.5 else rest)
    return deal_category(rng, context, category)


def deal_category(rng: random.Random, context: DrillContext,
                  category: BonusCategory) -> BonusQuestion:
    """Deal seven cards of ``category`` with a bet at the group's table, shown in one of the layouts."""
    profile = context.table
    offer, offered = offered_table(profile)
    table = load_table(offer.table)
    seven = list(sample_hand(category, rng, table.match))
    rng.shuffle(seven)
    if table.fixed_bet_cents is not None:
        bet = table.fixed_bet_cents
    else:
        bets = [d * 100 for d in BETS_DOLLARS if offer.min_cents <= d * 100 <= offer.max_cents]
        bet = rng.choice(bets or [offer.min_cents])
    payment = question_payment(offer.table, context.side_bet_rules).get("payment")
    meter = (rng.randint(*METER_DOLLARS) * 100 if table.kind is TableKind.PROGRESSIVE
             else None)
    layout = rng.choice(LAYOUTS)
    cards: tuple[str, ...] | None = None
    back: tuple[str, ...] | None = None
    front: tuple[str, ...] | None = None
    if layout == LAYOUTS[0]:
        cards = tuple(card_list(seven))
    else:
        if layout == LAYOUTS[1]:
            s = context.way.set(seven, profile.wheel)
            setting = [list(s.back), list(s.front)]
        else:
            w = rng.choice(splits(seven))
            setting = [list(w.back), list(w.front)]
        for shown in setting:
            rng.shuffle(shown)
        back, front = tuple(card_list(setting[0])), tuple(card_list(setting[1]))
    return BonusQuestion(table=offer.table, offered=offered, envy=offer.envy, bet_cents=bet,
                         payment=Payment(payment) if payment else None, meter_cents=meter,
                         cards=cards, back=back, front=front)


def categories_for(context: DrillContext, skill: str) -> tuple[BonusCategory, ...]:
    """Return the categories whose question is graded by ``skill`` under ``context``.

    A line of the group's table: its category (the question's rule). The table's
    "nothing": every category it does not pay. A line of the Envy table the cue asks of:
    its category (the cue's part carries it); the Envy table's "nothing": every category
    that does not qualify. Any other rule: none.
    """
    offer, _offered = offered_table(context.table)
    for table in (load_table(offer.table), envy_table(offer)):
        if skill == table.losing_rule_id:
            return tuple(c for c in PAY_ORDER if table.line_for(c) is None)
        found = tuple(c for c in PAY_ORDER
                      if (line := table.line_for(c)) is not None and line.rule_id == skill)
        if found:
            return found
    return ()


def deal_for(rng: random.Random, context: DrillContext, skill: str) -> BonusQuestion | None:
    """Deal a question graded by ``skill`` (a category that decides it, evenly), or None."""
    reach = categories_for(context, skill)
    if not reach:
        return None
    return deal_category(rng, context, rng.choice(reach))
