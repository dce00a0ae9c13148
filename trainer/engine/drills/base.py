"""The drill registry: each drill kind generates questions and grades answers.

A question is a JSON-ready dict holding only what the trainee may see; the answer
key is worked out again from the question when grading, so it never has to be
stored beside the question or sent to the browser. Questions are generated from
``random.Random(seed)`` and replay exactly from the seed and the context.

Generator 2 balances every fixed answer set (the seed picks the right answer
first, uniformly, then a question with that answer is drawn) and shuffles the
cards it shows. The generator's number rides in the context, so questions of
generator 1 (contexts stored without it) still replay from each kind's ``legacy``.
"""
from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from ..house_way import rule_family
from ..messages import N_, Message
from .codec import Question, from_json, to_json
from .context import GENERATOR, DrillContext, Grade
from .explain import NO_ANSWER, Feedback, Text, book_feedback
from .explain import hint as rule_hint
from .schema import Schema, derived
from .skills import BOOK, DefaultCriterion, Skill


class Drill:
    """One drill kind: its home (``kinds/<kind>/``) sets the class attributes and methods.

    A typed kind sets ``question_type``, ``answer_type`` and ``key_type`` (frozen
    dataclasses, ``codec``); the JSON edge below then reads and writes them. A kind
    not yet typed leaves them None and passes dicts.
    """

    slug: str = ""
    title: str = ""
    # What the drills page says of it (``N_``-marked; the web translates) and its place.
    blurb: str = ""
    order: int = 0
    default_time_limit_s: int = 10
    # Rule families this drill draws from, with their weights.
    families: dict[str, int] = {}
    # The names (``N_``-marked) of the rule families its skills' ids belong to
    # (``rule_family``: ``foul`` of ``foul.legal``), for the reports' families; a family
    # of its skills not named here is called by the kind's ``title``.
    family_names: dict[str, str] = {}
    # What the best constant answer scores: 1 / the number of fixed answers, or
    # None when the answer is free-form (cards to pick, amounts to pay).
    chance_level: float | None = None
    # The steps one unit of the drill takes, in order (a round: action, banker,
    # settle); a drill of single questions has none.
    steps: tuple[str, ...] = ()
    # Whether certification counts this drill's scored parts (``part_results``)
    # rather than whole questions.
    counts_parts: bool = False
    # The kind's question, answer and answer key (frozen dataclasses, ``codec``).
    question_type: type[Question] | None = None
    answer_type: type | None = None
    key_type: type | None = None
    # The skills its answers exercise (a house way's are its rules: ``skills_of``).
    skills: tuple[Skill, ...] = ()
    # Its certification criterion before a group changes it; None: not certified.
    criterion: DefaultCriterion | None = None
    # A kind older than generator 2: its home's ``legacy`` module, whose ``generate`` is its
    # first generator (``generate_v1``); None: a newer kind, with only one.
    legacy: ModuleType | None = None

    def skills_of(self, context: DrillContext) -> tuple[Skill, ...]:
        """Return the skills this kind grades under ``context``."""
        return self.skills

    def deal_for(self, rng: random.Random, context: DrillContext, skill: str) -> Any | None:
        """Return a question that exercises ``skill``, or None when no question does."""
        return None

    def generate_v1(self, rng: random.Random, context: DrillContext) -> Any:
        """Return a question of the first generator (contexts stored without one).

        A kind older than generator 2 keeps its first generator in its home
        (``kinds/<kind>/legacy.py``, named by ``legacy``); a newer kind has only one.
        """
        if self.legacy is not None:
            return self.legacy.generate(rng, context)
        return self.generate(rng, context)

    # --- the JSON edge (issue 28) ------------------------------------------------
    # Questions, answers and answer keys are values of the kind's own frozen dataclasses
    # from the engine up to the services; JSON only where they are stored or shown.
    # The services call these five at that edge and nowhere else.

    def read_question(self, data: Mapping[str, Any]) -> Any:
        """Return the question stored (or shown) as ``data``; ValueError when it does not fit."""
        if not isinstance(data, Mapping):
            raise ValueError("A stored question must be a JSON object.")
        if self.question_type is None:
            return dict(data)
        if data.get("kind", self.slug) != self.slug:
            raise ValueError(f"This question is not of the {self.slug!r} drill.")
        return from_json(self.question_type, {k: v for k, v in data.items() if k != "kind"})

    def question_json(self, question: Any) -> dict[str, Any]:
        """Return the JSON form of ``question`` (stored with it, drawn by its templates)."""
        if self.question_type is None:
            return dict(question)
        data: dict[str, Any] = to_json(question)
        # The kind and the seed last, as ``new_question`` wrote them on a question's dict,
        # so a row keeps its JSON text byte for byte.
        data["kind"] = self.slug
        data["seed"] = data.pop("seed")
        return data

    def read_answer(self, question: Any, data: Any, context: DrillContext | None) -> Any:
        """Return an untrusted answer checked against the question; ValueError in words."""
        checked = self.validate_answer(question, data, context)
        if self.answer_type is None:
            return checked
        return from_json(self.answer_type, checked, "answer")

    def answer_json(self, answer: Any) -> dict[str, Any]:
        """Return the JSON form of an answer (stored with the attempt)."""
        data: dict[str, Any] = to_json(answer) if self.answer_type is not None else dict(answer)
        return data

    def key_json(self, key: Any) -> dict[str, Any]:
        """Return the JSON form of an answer key (``Grade.correct_answer``)."""
        data: dict[str, Any] = to_json(key) if self.key_type is not None else dict(key)
        return data

    def shown_json(self, question: Any) -> dict[str, Any]:
        """Return the JSON the trainee's page is sent: ``question_json`` without the seed
        (from which the page could deal the question again and learn its key)."""
        data = self.question_json(question)
        data.pop("seed", None)
        return data

    # --- what the services ask of a kind's questions (issue 28) ---------------------

    def question_at(self, seed: int, context: DrillContext, position: int) -> Any:
        """Return the question at ``position`` (1, 2, ...) of a session dealt from ``seed``.

        A drill with several ``steps`` deals one unit (a round) per seed and asks its
        steps in turn, so the steps of one unit share the seed.
        """
        question = new_question(self.slug, seed, context)
        if len(self.steps) > 1:
            question = self.at_step(question, (position - 1) % len(self.steps), context)
        return question

    def unit_length(self) -> int:
        """Return how many questions make one unit of this drill: a round's steps, else 1."""
        return len(self.steps) or 1

    def answer_key(self, question: Any, context: DrillContext) -> Grade:
        """Return the grade of the drill's own well-formed ``probe``: the answer key
        (``correct_answer``) and the rule, for when no usable answer came (the clock ran
        out), replays and reports."""
        return self.grade(question, self.probe(question), context)

    def answer_choices(self, question: Any, context: DrillContext) -> dict[str, Any] | None:
        """Return each fixed answer to ``question`` by name; None when the answer is free-form."""
        return None

    def balanced(self, context: DrillContext) -> bool:
        """Tell whether no constant answer beats chance under ``context`` (its focus rules)."""
        return True

    def generate(self, rng: random.Random, context: DrillContext) -> Any:
        """Return a new question drawn from ``rng``."""
        raise NotImplementedError

    def grade(self, question: Any, answer: Any, context: DrillContext) -> Grade:
        """Grade an answer to a question; raise ValueError when it is malformed."""
        raise NotImplementedError

    def rule_of(self, question: Any, context: DrillContext) -> str:
        """Return the rule id a question tests (before it is answered)."""
        raise NotImplementedError

    def answer_schema(self, question: Any, context: DrillContext | None) -> Schema:
        """Return the exact shape of an answer to ``question`` (keys, types, lengths, ranges).

        ``context`` is None when the group's settings are not known; a drill whose
        answer depends on them (the foul check's reset) then accepts either form.
        A typed kind's schema is derived from its answer dataclass (``schema.derived``).
        """
        if self.answer_type is None:
            raise NotImplementedError
        return derived(self.answer_type, question, context)

    def validate_answer(self, question: Any, answer: Any,
                        context: DrillContext | None = None) -> dict[str, Any]:
        """Return the answer normalized by the drill's schema; raise ValueError if it does not fit."""
        checked: dict[str, Any] = self.answer_schema(question, context).check(answer)
        return checked

    def part_results(self, answer: Any, correct_answer: Any, timed_out: bool) -> list[bool]:
        """Return, per scored part of a recorded attempt, whether it was right.

        Read from the stored answer and answer key, with the grader's own rule; a
        drill scored by whole questions (``counts_parts`` false) has no parts: [].
        """
        return []

    def probe(self, question: Any) -> Any:
        """Return a well-formed answer, graded only to learn the key when no usable answer came."""
        raise NotImplementedError

    def wrong_answer(self, question: Any, context: DrillContext, rng: random.Random) -> Any:
        """Return a well-formed answer to ``question`` that is graded wrong (drawn by ``rng``),
        for tests and the demo class's seeded mistakes."""
        raise NotImplementedError

    def at_step(self, question: Any, step: int, context: DrillContext) -> Any:
        """Return the question of one step (an index into ``steps``) of a unit's question.

        Only a drill with ``steps`` has them; a drill of single questions has none.
        """
        raise NotImplementedError

    def feedback(self, question: Any, answer: Any | None,
                 context: DrillContext, grade: Grade | None = None,
                 timed_out: bool = False) -> Feedback:
        """Return the feedback on an answer in words (``explain``): what was said, what was right, why.

        ``answer`` None is no answer (the clock ran out); ``grade``, when given, is
        this answer's grade (it is worked out again otherwise). Each kind words its own.
        """
        grade = grade or self.grade(question, answer or self.probe(question), context)
        correct = grade.correct and answer is not None and not timed_out
        # A kind that words nothing of its own: its fixed answers by name, else the explanation.
        choices = self.answer_choices(question, context) or {}
        given = next((name for name, a in choices.items() if a == answer), None)
        right = next((name for name, a in choices.items()
                      if self.grade(question, a, context).correct), None)
        said = (NO_ANSWER if answer is None
                else Message(N_("You answered %(answer)s"), answer=given) if given
                else Message(N_("Your answer")))
        fix: Message | str = Message(N_("the right answer is %(answer)s"), answer=right) \
            if right else str(grade.explanation).rstrip(".")
        return book_feedback(correct, said, fix, grade.rule_id, grade.explanation, timed_out)

    def hint(self, rule_id: str, question: Any | None = None,
             context: DrillContext | None = None) -> Text:
        """Return the practice hint for a question on ``rule_id`` (``explain.hint``).

        A drill whose questions are set by the house way (``context.way``) hints from the
        way's own deciding rule; the others say what to look at.
        """
        return rule_hint(rule_id)

    def focus_family(self, rule_id: str) -> str:
        """Return the generation family that produces questions on ``rule_id``."""
        return rule_family(rule_id)

    def pick_family(self, rng: random.Random, context: DrillContext) -> str:
        """Pick a rule family by weight, or from the trainee's recent mistakes."""
        return pick_family(rng, self.families, [self.focus_family(r) for r in context.focus_rules])


def pick_family(rng: random.Random, families: Mapping[str, int], focus: list[str]) -> str:
    """Pick one of ``families`` from ``focus`` (those of it in ``families``), else by weight.

    The draws are the ones both generators make (generator 1 with its own weights).
    """
    focus = [f for f in focus if f in families]
    if focus:
        return rng.choice(focus)
    names = sorted(families)
    return rng.choices(names, weights=[families[n] for n in names])[0]


DRILLS: dict[str, Drill] = {}


def register(cls: type[Drill]) -> type[Drill]:
    """Register a drill kind under its slug, and its declared skills in the book (``skills.BOOK``)."""
    DRILLS[cls.slug] = cls()
    BOOK.update((s.id, s) for s in cls.skills)
    return cls


def get_drill(slug: str) -> Drill:
    """Return the drill registered under ``slug``."""
    try:
        return DRILLS[slug]
    except KeyError:
        raise ValueError(f"There is no drill called {slug!r}.") from None


def new_question(slug: str, seed: int, context: DrillContext) -> Any:
    """Generate the question of drill ``slug`` for ``seed``; it replays exactly."""
    drill = get_drill(slug)
    rng = random.Random(seed)
    question: Any = (drill.generate(rng, context) if context.generator == GENERATOR
                     else drill.generate_v1(rng, context))
    if drill.question_type is not None:
        typed: Question = dataclasses.replace(question, seed=seed)
        return typed
    question["kind"] = slug
    question["seed"] = seed
    return question
