"""The ``round`` drill's home: one whole round as it runs on the floor, step by step.

``kind`` holds the drill (and ``SLUG``), ``questions`` its question, each step's answer
and key, and the step names (``STEPS``: the first is the action drill's ``SLUG``),
``deal`` its generator (steered by missed rules or a skill), ``grade`` its grader,
``words`` its skills, hints and the settle step's feedback, ``legacy`` its first
generator. The round reuses the action, house-way and settlement drills' questions,
answers, keys and words for its steps (their homes' ``SLUG`` and types, never their
slugs written here).
"""
from .deal import PLAYER_BANKER_RATE, RoundFocus, give_pile, seat_of_pile
from .grade import banker_cards, settle_all
from .kind import SLUG, RoundDrill
from .questions import (
    BANKER,
    DEALER_SEAT,
    SETTLE,
    STEPS,
    OrderEntry,
    Pile,
    RoundActionKey,
    RoundQuestion,
    SettleAnswer,
    SettleKey,
)

__all__ = ["BANKER", "DEALER_SEAT", "PLAYER_BANKER_RATE", "SETTLE", "SLUG", "STEPS",
           "OrderEntry", "Pile", "RoundActionKey", "RoundDrill", "RoundFocus",
           "RoundQuestion", "SettleAnswer", "SettleKey", "banker_cards", "give_pile",
           "seat_of_pile", "settle_all"]
