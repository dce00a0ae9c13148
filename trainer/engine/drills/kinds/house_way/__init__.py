"""The ``house-way`` drill's home: set the banker's seven cards by the group's house way.

``kind`` holds the drill (and ``SLUG``), ``questions`` its question, answer and key,
``words`` its skills (the way's rules), hints and feedback, ``legacy`` its first
generator. The round's banker step reuses the answer, the key and the feedback.
"""
from .kind import SLUG, HouseWayDrill
from .questions import SetAnswer, SetKey, SetQuestion
from .words import set_hand_feedback, setting_explanation, way_hint

__all__ = ["SLUG", "HouseWayDrill", "SetAnswer", "SetKey", "SetQuestion", "set_hand_feedback",
           "setting_explanation", "way_hint"]
