"""The ``foul-check`` drill's home: is a player's set hand legal or fouled?

``kind`` holds the drill (and ``SLUG``), ``questions`` its question, answer and key,
``rules`` the foul rule part by part, ``deal`` its dealing, ``words`` its skills and
feedback, ``legacy`` its first generator.
"""
from .kind import SLUG, FoulCheckDrill
from .questions import FoulAnswer, FoulKey, FoulQuestion
from .rules import BOUNDARY_RULES, foul_rule

__all__ = ["BOUNDARY_RULES", "SLUG", "FoulAnswer", "FoulCheckDrill", "FoulKey", "FoulQuestion",
           "foul_rule"]
