"""The answer's feedback partial draws the same HTML as before issue 15's fourth round of cuts.

``drills/_feedback.html`` imports the kind's feedback template once and calls its
``right_answer`` and ``parts`` directly, where it went through the two wrapper macros of
``drills/_answers.html`` (each importing the kind's template again). Every reply's
feedback is drawn here a second time with the partial as it was (kept below) from the
same values, for every drill kind, right and wrong answers, and must be identical. (The
verdict is the ``verdict`` macro of ``drills/_verdict.html`` in both: issue 29 measured
its drawing in Python and dropped it, docs/operations.md "Speed tweaks (issue 29)".)
"""
from __future__ import annotations

from typing import Any

import pytest
from flask import Flask, render_template_string
from flask.testing import FlaskClient

from trainer.engine.drills import DRILLS
from trainer.web.trainee import drills as drill_views
from web.helpers import login
from web.test_feedback_words import answer_in_turn, post, start

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
      (web/words/way_words.py worked_out_words: "-$65.00" where the engine's English says "$-65.00"),
      from the grade's own sentences (``grade`` here is its dict, whose explanation is the
      English text): drawn here the same way, so the rest of the partial is compared. #}
  <dt>{{ _("How it is worked out") }}</dt><dd class="explanation">{{ worked_out_words(
      grade, fb, result.grade.explanation) }}</dd>
</dl>
{{ feedback_parts(kind, grade) }}
{#- After a practice answer: "Practise this rule", a new practice session of only this rule's
    hands (issue 30, web/trainee/learning.py). Not in a timed session, an exam or a live class. -#}
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
        answer = answer_in_turn(app, kind, session_id, position,
                                right=(position % 2 == 1) == first_right)
        reply = post(client, f"/drills/sessions/{session_id}/answer",
                     {"position": position, "answer": answer})
        assert reply.status_code == 200, reply.get_json()
        assert reply.get_json()["correct"] is ((position % 2 == 1) == first_right)
    assert len(drawn) >= 2
    for new, old in drawn:
        assert new == old
        assert 'class="verdict' in new and "feedback-facts" in new


