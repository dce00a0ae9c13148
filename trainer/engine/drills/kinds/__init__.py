"""The drill kinds' homes: one package per kind, everything of that kind in it.

Each package (``<slug with - as _>``) holds its ``Drill`` subclass and its ``SLUG``
(written once), its question, answer and answer-key dataclasses, its generators
(generator 2 and the first, kept so older attempts replay), its grader and words, its
skills, default criterion and chance level, and dealing for one of its skills.
``trainer.engine.drills`` imports every package here, which registers it; no other
place names a kind (docs/architecture.md, "A drill kind's home").
"""
