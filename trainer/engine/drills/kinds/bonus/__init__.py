"""The ``bonus`` drill's home: name the bonus hand of seven cards, answer the dealer's cue
"does this qualify?" and pay the bonus bet by the group's pay table.

``kind`` holds the drill (and ``SLUG``), ``questions`` its question, answer (the key is
one) and graded part, ``key`` the key worked out from a question, ``generate`` the deal
(by category, and for one skill), ``grade`` the grader, ``words`` its sentences,
feedback, skills (the pay lines) and hint. It has no first generator of its own: a
context stored without one deals as generator 2 does.
"""
from .kind import SLUG, BonusDrill
from .questions import BonusAnswer, BonusPart, BonusQuestion

__all__ = ["SLUG", "BonusAnswer", "BonusDrill", "BonusPart", "BonusQuestion"]
