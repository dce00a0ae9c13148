"""Issue 19: a service's refusal shown in a flash message or a form goes through the catalogue.

The exam, reactivation and table-rules refusals are the engine's ``EngineError`` with ``N_``-marked
templates (``engine/messages.py``), so ``engine_words.message_words`` translates them, and a role
appears as words, never as its id.
"""
from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from trainer.services import accounts
from trainer.services.certification import exams
from trainer.web.words import engine_words


class Marked:
    """Translations that wrap every message, to see which words went through them."""

    def ugettext(self, text: str) -> str:
        return f"[{text}]"


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine_words, "translations", lambda: Marked())


def test_a_reactivation_refusal_is_translated_with_the_role_in_words(app: Flask, marked: Any) -> None:
    class Account:
        active, deactivated_by_role, id, role = False, "manager", 1, "trainee"
        login, name = "t1", "Trainee One"

        def may_be_reactivated_by(self, role: str) -> bool:
            return False

    with app.test_request_context(), pytest.raises(accounts.ReactivationRefused) as refused:
        accounts.set_active(accounts.Actor(2, "supervisor"), Account(), True)
    assert str(refused.value) == "Only a manager or a higher role can reactivate this account."
    assert engine_words.message_words(refused.value) == (
        "[Only [a manager] or a higher role can reactivate this account.]")


def test_an_exam_refusal_is_translated(app: Flask, marked: Any) -> None:
    with app.test_request_context():
        said = engine_words.message_words(exams.ExamError(exams.N_("There is no such exam of yours.")))
    assert said == "[There is no such exam of yours.]"


def test_a_profile_title_refusal_is_translated(app: Flask, marked: Any) -> None:
    from trainer.services import profiles

    with app.app_context(), app.test_request_context():
        problem = profiles.title_problem(" Nevada ")
        assert problem is not None
        said = engine_words.message_words(problem)
    assert said == "[\u201cNevada\u201d is the name of a preset table profile; choose another.]"
