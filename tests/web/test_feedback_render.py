"""The answer's feedback partial draws the same HTML after issue 15's fourth round of cuts.

``drills/_feedback.html`` imports the kind's feedback template once and calls its
``right_answer`` and ``parts`` directly, where it went through the two wrapper macros of
``drills/_answers.html`` (each importing the kind's template again), and draws the
verdict with ``verdict_html`` (trainer/web/verdict.py), not the ``verdict`` macro of
``drills/_verdict.html``. Every reply's
feedback is drawn here a second time with the partial as it was (kept below) from the
same values, for every drill kind, right and wrong answers, and must be identical;
``verdict_html`` is also compared with the macro on made-up feedback: none, timed out,
parts right and wrong, a rule book section, a sheet line, text that needs escaping.
"""
from __future__ import annotations

from typing import Any

import pytest
from flask import Flask, render_template_string
from flask.testing import FlaskClient

from trainer.engine.drills import DRILLS
from trainer.engine.drills.explain import Feedback, Part
from trainer.services import drills as drill_service
from trainer.web import drills as drill_views
from trainer.web.verdict import verdict_html
from web.helpers import login
from web.test_drills import right_answer
from web.test_feedback_words import issued, post, start
from web.wrong_answers import wrong_answer

# drills/_feedback.html as it was before the cut.
# Issue 30 added "Practise this rule" after a practice answer to both (the same lines).
OLD_FEEDBACK = """{% from "drills/_answers.html" import right_answer, feedback_parts %}
{% from "learning/_macros.html" import practise_rule %}
{% from "drills/_verdict.html" import verdict %}
{#- What the trainee sees the moment they answer: the verdict in words (what they answered,
    what was right and why, each part of a multi-part answer; drills/_verdict.html), the
    right answer drawn by the kind and any graded parts (drills/kinds/<kind>/feedback.html). -#}
{% set fb = result.feedback %}
{{ verdict(fb, result.timed_out, result.elapsed_ms) }}
<dl class="facts feedback-facts">
  <dt>{{ _("Right answer") }}</dt><dd>{{ right_answer(kind, grade.correct_answer, q, category_names) }}</dd>
  <dt>{{ _("Rule") }}</dt><dd class="rule-id">{{ grade.rule_id|rule_tag(fb.house_way if fb else none) }}</dd>
  {#- The worked-out line is written in the reader's language and money since issue 19
      (web/way_words.py worked_out_words: "-$65.00" where the engine's English says "$-65.00"),
      from the grade's own sentences (``grade`` here is its dict, whose explanation is the
      English text): drawn here the same way, so the rest of the partial is compared. #}
  <dt>{{ _("How it is worked out") }}</dt><dd class="explanation">{{ worked_out_words(
      grade, fb, result.grade.explanation) }}</dd>
</dl>
{{ feedback_parts(kind, grade) }}
{#- After a practice answer: "Practise this rule", a new practice session of only this rule's
    hands (issue 30, web/learning.py). Not in a timed session, an exam or a live class. -#}
{% if result.mode is defined and result.mode == "practice" and grade.rule_id %}
<div class="feedback-practise">{{ practise_rule(grade.rule_id, grade.rule_id|rule_name(fb.house_way if fb else none), kind) }}</div>
{% endif %}"""  # noqa: E501  (the partial's own line)


@pytest.mark.parametrize("kind", tuple(DRILLS))
@pytest.mark.parametrize("first_right", [True, False])
def test_the_feedback_partial_draws_what_it_drew_before(
        app: Flask, client: FlaskClient, trainee: Any, monkeypatch: pytest.MonkeyPatch,
        kind: str, first_right: bool) -> None:
    drawn: list[tuple[str, str]] = []
    real = drill_views.render_template

    def both(name: str, **values: Any) -> str:
        new = real(name, **values)
        if name == "drills/_feedback.html":
            drawn.append((new, render_template_string(OLD_FEEDBACK, **values)))
        return new

    monkeypatch.setattr(drill_views, "render_template", both)
    login(client, trainee)
    session_id = start(client, kind)
    # Four answers in a row, right and wrong in turn (a round's steps: each kind of step).
    for position in range(1, 5):
        reply = post(client, f"/drills/sessions/{session_id}/question", {})
        assert reply.status_code == 200
        if reply.get_json()["finished"]:
            break
        if (position % 2 == 1) == first_right:
            answer = right_answer(app, session_id, position)
        else:
            question, context = issued(app, session_id, position)
            answer, _ = wrong_answer(kind, question, drill_service.answer_key(question, context),
                                     context)
        reply = post(client, f"/drills/sessions/{session_id}/answer",
                     {"position": position, "answer": answer})
        assert reply.status_code == 200, reply.get_json()
        assert reply.get_json()["correct"] is ((position % 2 == 1) == first_right)
    assert len(drawn) >= 2
    for new, old in drawn:
        assert new == old
        assert 'class="verdict' in new and "feedback-facts" in new


NASTY = 'a <b>"bold"</b> & \'odd\''
FEEDBACKS: list[Feedback | None] = [
    None,
    Feedback(correct=True, said="You set 9-8 in front", right="the house way", why="", rule_id="r.1"),
    Feedback(correct=False, said="You paid $5.00", right="pay $4.75", why="Commission is 5%.",
             rule_id="settle.commission", section="4.2"),
    Feedback(correct=False, said=NASTY, right=NASTY, why=NASTY, rule_id=NASTY, section=NASTY,
             parts=(Part(name=NASTY, correct=False, said=NASTY, right=NASTY, why=NASTY),
                    Part(name="commission", correct=True, said="$5", right="$5", why="ignored"))),
    Feedback(correct=False, said="You picked 9-8", right="8-7", why="Split the two pair.",
             rule_id="hw.two-pair", house_way="standard", sheet_rule="3"),
    Feedback(correct=False, said="x", right="y", why="z", rule_id="r", house_way="standard",
             parts=(Part(name="seat 1", correct=False, said="win", right="push", why=""),
                    Part(name="seat 2", correct=False, said="lose", right="win", why="Higher."))),
    Feedback(correct=True, said="x", right="y", why="", rule_id="r", timed_out=True),
]
MACRO = '{% from "drills/_verdict.html" import verdict %}{{ verdict(fb, timed_out, elapsed_ms) }}'


@pytest.mark.parametrize("fb", FEEDBACKS)
@pytest.mark.parametrize("timed_out", [False, True])
@pytest.mark.parametrize("elapsed_ms", [None, 0, 1234, 59999.6])
def test_verdict_html_draws_what_the_verdict_macro_draws(
        app: Flask, fb: Feedback | None, timed_out: bool, elapsed_ms: float | None) -> None:
    with app.test_request_context():
        old = render_template_string(MACRO, fb=fb, timed_out=timed_out, elapsed_ms=elapsed_ms)
        new = str(verdict_html(fb, timed_out, elapsed_ms))
    assert new == old
    assert "<b>" not in new
