"""A drill spoken to in JSON, as the services speak to it at the edge (issue 28).

The tests written when questions, answers and keys were dicts read them as their JSON
forms (``question["dice"]``, ``key["order"]``): ``JsonDrill`` gives them those forms
through the kind's own edge (``read_question``, ``question_json``, ``read_answer``,
``answer_json``, ``key_json``), so each test still checks what a stored row holds, and
every call goes through the typed drill.
"""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from trainer.engine.drills import DrillContext, Grade, get_drill, new_question
from trainer.engine.drills.codec import to_json
from trainer.engine.drills.explain import Feedback


class JsonDrill:
    """The drill ``slug``, its questions, answers, keys and parts as JSON."""

    def __init__(self, slug: str) -> None:
        self.slug = slug
        self.drill = get_drill(slug)
        self.steps = self.drill.steps

    def typed(self, question: dict[str, Any]) -> Any:
        """Return a question's typed form (as a stored row is read)."""
        return self.drill.read_question(question)

    def question(self, seed: int, context: DrillContext) -> dict[str, Any]:
        """Return the JSON of the question dealt from ``seed``."""
        return self.drill.question_json(new_question(self.slug, seed, context))

    def at_step(self, question: dict[str, Any], step: int, context: DrillContext) -> dict[str, Any]:
        return self.drill.question_json(self.drill.at_step(self.typed(question), step, context))

    def rule_of(self, question: dict[str, Any], context: DrillContext) -> str:
        rule: str = self.drill.rule_of(self.typed(question), context)
        return rule

    def probe(self, question: dict[str, Any]) -> dict[str, Any]:
        return self.drill.answer_json(self.drill.probe(self.typed(question)))

    def wrong_answer(self, question: dict[str, Any], context: DrillContext,
                     rng: random.Random) -> dict[str, Any]:
        return self.drill.answer_json(self.drill.wrong_answer(self.typed(question), context, rng))

    def answer_choices(self, question: dict[str, Any], context: DrillContext
                       ) -> dict[str, dict[str, Any]] | None:
        choices = self.drill.answer_choices(self.typed(question), context)
        return None if choices is None else {
            name: self.drill.answer_json(answer) for name, answer in choices.items()}

    def grade(self, question: dict[str, Any], answer: Any, context: DrillContext) -> Grade:
        """Grade an answer (JSON, untrusted: read by the drill first); the key and parts as JSON."""
        typed = self.typed(question)
        grade = self.drill.grade(typed, self.drill.read_answer(typed, answer, context), context)
        return replace(grade, correct_answer=self.drill.key_json(grade.correct_answer),
                       parts=tuple(to_json(p) for p in grade.parts))

    def feedback(self, question: dict[str, Any], answer: Any, context: DrillContext,
                 grade: Grade | None = None, timed_out: bool = False) -> Feedback:
        """Word an answer (``grade``, a JSON grade of ``grade`` above, is worked out again)."""
        typed = self.typed(question)
        read = None if answer is None else self.drill.read_answer(typed, answer, context)
        feedback: Feedback = self.drill.feedback(typed, read, context, timed_out=timed_out)
        return feedback

    def hint(self, rule_id: str, question: dict[str, Any] | None = None,
             context: DrillContext | None = None) -> Any:
        return self.drill.hint(rule_id, None if question is None else self.typed(question), context)

    def validate_answer(self, question: dict[str, Any], answer: Any,
                        context: DrillContext | None = None) -> dict[str, Any]:
        checked: dict[str, Any] = self.drill.validate_answer(self.typed(question), answer, context)
        return checked

    def part_results(self, answer: Any, correct_answer: Any, timed_out: bool) -> list[bool]:
        results: list[bool] = self.drill.part_results(answer, correct_answer, timed_out)
        return results
