"""The ``hand-reading`` drill's home: name a five-card hand, or say which of two hands wins.

``kind`` holds the drill (and ``SLUG``), ``questions`` its question, answer and key,
``deal`` its dealing, ``words`` its skills and words, ``legacy`` its first generator.
"""
from .kind import SLUG, HandReadingDrill
from .questions import ReadingAnswer, ReadingKey, ReadingQuestion
from .words import CATEGORY_WORDS, category_message, category_words

__all__ = ["CATEGORY_WORDS", "SLUG", "HandReadingDrill", "ReadingAnswer", "ReadingKey",
           "ReadingQuestion", "category_message", "category_words"]
