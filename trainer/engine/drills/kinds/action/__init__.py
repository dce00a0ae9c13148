"""The ``action`` drill's home: call which seat receives the first pile from three dice.

``kind`` holds the drill (and ``SLUG``), ``questions`` its question, answer and key,
``words`` its skills, hint and feedback, ``legacy`` its first generator. A round's
action step reuses the question's parts, the answer, the key and the feedback.
"""
from .kind import SLUG, ActionDrill, action_key, position_of_seat, roll_to_seat
from .questions import SEATS, ActionAnswer, ActionKey, ActionQuestion
from .words import HINT, action_feedback

__all__ = ["HINT", "SEATS", "SLUG", "ActionAnswer", "ActionDrill", "ActionKey",
           "ActionQuestion", "action_feedback", "action_key", "position_of_seat",
           "roll_to_seat"]
