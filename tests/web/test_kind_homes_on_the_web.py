"""What the web and the services read from a drill kind's home (issue 28, docs/drills.md
"Adding a drill kind"): its rules' names and short names (``Skill.name``, ``Skill.short``),
its rule family's name, its title in the reader's language, and its default certification
criterion. Nothing per kind is written on the web side, so a kind registered with a home
is named and certified with nothing else touched: shown here with a made-up kind.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict
from typing import Any

import pytest
from flask import Flask
from flask_babel import gettext

from trainer.engine.drills import DRILLS, Drill
from trainer.engine.drills import skills as skill_book
from trainer.engine.drills.skills import DefaultCriterion, Skill
from trainer.engine.house_way import rule_family
from trainer.services.certification import criteria
from trainer.web.platform import drill_kinds
from trainer.web.words import engine_words, names

MADE_UP = "made-up-kind"


class MadeUpDrill(Drill):
    """A kind no one wrote: only its home's declarations."""

    slug = MADE_UP
    title = "Count the chips"
    blurb = "Say how many chips are in the stack."
    order = 5
    family_names = {"chips": "Chip counting"}  # noqa: RUF012 (as a home declares it)
    skills = (Skill("chips.stack", "§0", "Chips: a whole stack", "A stack", "Count by fives.",
                    "Look at the stack."),
              Skill("stacks.split", "§0", "Chips: a split stack", "Split", "Count each part.",
                    "Look at each part."))
    criterion = DefaultCriterion(min_accuracy=95.0, window=40, max_median_s=6.0, exam_length=30,
                                 exam_time_limit_s=12)


@pytest.fixture
def made_up(monkeypatch: pytest.MonkeyPatch) -> Iterator[MadeUpDrill]:
    """Register the made-up kind (its skills in the book) for one test."""
    drill = MadeUpDrill()
    monkeypatch.setitem(DRILLS, MADE_UP, drill)
    for skill in drill.skills:
        monkeypatch.setitem(skill_book.BOOK, skill.id, skill)
    yield drill


def _said(words: Any) -> str:
    return engine_words.sentence_words(words) if isinstance(words, str) else engine_words.message_words(words)


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_kinds_rules_are_named_by_its_home_in_the_readers_language(
        app: Flask, language: str) -> None:
    with app.test_request_context(headers={"Accept-Language": language}):
        named = 0
        for drill in DRILLS.values():
            for skill in drill.skills:
                words, short = names.rule_name(skill.id), names.rule_short(skill.id)
                assert words == _said(skill.name) and short == _said(skill.short), skill.id
                assert words and skill.id not in words
                named += 1
        assert named > 50  # the rule book's kinds declare their rules (the house way's: its own)


def test_a_kind_registered_with_a_home_is_named_with_nothing_else_touched(
        app: Flask, made_up: MadeUpDrill) -> None:
    with app.test_request_context():
        assert names.rule_name("chips.stack") == "Chips: a whole stack"
        assert names.rule_short("chips.stack") == "A stack"
        # Its families: the one its home names, the other by its title; an unknown rule of
        # a family reads as the family.
        assert names.family_name("chips") == "Chip counting"
        assert names.family_name("stacks") == "Count the chips"
        assert names.rule_name("stacks.retired-rule") == "Count the chips"


def test_a_kinds_rule_family_is_named_by_its_home_or_its_title_in_the_readers_language(
        app: Flask) -> None:
    with app.test_request_context(headers={"Accept-Language": "es"}):
        for drill in DRILLS.values():
            for family in {rule_family(s.id) for s in drill.skills}:
                assert names.family_name(family) == gettext(drill.family_names.get(family, drill.title))
                assert names.family_name(family) != names.slug_words(family)  # never the bare id


def test_a_kinds_title_and_blurb_are_its_homes_in_the_readers_language(app: Flask) -> None:
    with app.test_request_context(headers={"Accept-Language": "es"}):
        for slug, drill in DRILLS.items():
            kind = drill_kinds.get_kind(slug)
            assert kind is not None and kind.order == drill.order
            assert str(kind.title) == gettext(drill.title) and str(kind.blurb) == gettext(drill.blurb)
            assert names.kind_name(slug) == gettext(drill.title)
        assert [k.slug for k in drill_kinds.drill_kinds()] == sorted(DRILLS, key=lambda s: DRILLS[s].order)


def test_the_default_criteria_are_the_ones_the_homes_declare_in_the_kinds_order(made_up: MadeUpDrill) -> None:
    declared = criteria._declared_criteria()
    assert declared[0] == {"kind": MADE_UP, **asdict(made_up.criterion)}  # order 5: first
    assert [c["kind"] for c in declared] == [
        d.slug for d in sorted(DRILLS.values(), key=lambda d: d.order) if d.criterion is not None]
    # Today's defaults, unchanged by their move into the homes (house way, then settlement).
    assert list(criteria.DEFAULT_CRITERIA) == [
        {"kind": "house-way", "min_accuracy": 98.0, "window": 100, "max_median_s": 8.0,
         "exam_length": 50, "exam_time_limit_s": 10},
        {"kind": "settlement", "min_accuracy": 99.0, "window": 50, "max_median_s": None,
         "exam_length": 20, "exam_time_limit_s": 30},
    ]
    assert [c.as_dict() for c in criteria.default_criteria()] == list(criteria.DEFAULT_CRITERIA)

