"""Issue 15's fifth round of request cuts changes how, never what.

- The front picker is drawn in Python (``filters.front_picker_html``): compared here
  with the macro it replaced, kept below as it was.
- The templates' ``_`` translates directly (``i18n._gettext``): the same text as
  Jinja's newstyle ``gettext`` it stands for, escaping and ``%%`` included.
- ``TrainerFlask.ensure_sync`` remembers plain functions only; a coroutine function
  is still wrapped every time.
- The protective headers are added in one pass: each once, a view's own kept.
- ``names.rule_tag`` is kept per rule, preset house way and language only.
- A sweep's settle (``_settle_one``) of a session's last question finishes the
  session with a Core UPDATE that an ORM read of the session sees afterwards.
"""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import Markup

from trainer.extensions import db
from trainer.models import DrillSession, IssuedQuestion
from trainer.services import drills as drill_service
from trainer.services.drills import timeouts
from trainer.web import names
from trainer.web.application import TrainerFlask
from web.helpers import login
from web.test_drills import fetch_question, start

# The front picker macro of drills/_picker.html as it was before this cut.
OLD_PICKER = """{% macro front_picker(cards, label) -%}
  <div class="zone">
    <h2 class="zone-label" id="front-label">{{ _("Front (2 cards)") }}</h2>
    <div class="picker-front" role="group" aria-labelledby="front-label" data-front></div>
  </div>
  <div class="zone">
    <h2 class="zone-label" id="back-label">{{ label }}</h2>
    <div class="picker-hand" role="group" aria-labelledby="back-label" data-hand>
      {% for c in cards %}
      <span class="pick" data-index="{{ loop.index }}">{{ card_html(c, "large", true, 'aria-pressed="false"') }}<kbd>{{ loop.index }}</kbd></span>
      {% endfor %}
    </div>
  </div>
  <p class="actions"><button type="button" class="button button-big" data-submit disabled>{{ _("Set the hand") }} <kbd>Enter</kbd></button></p>
{%- endmacro %}"""  # noqa: E501

CARDS: list[Any] = [
    ["As", "Kd", "Qh", "Jc", "Ts", "9h", "JK"],
    ("2c", "3d"),
    [],
    ["Zz", "<b>", 7],  # junk, drawn escaped
]
LABELS: list[Any] = ["Banker's cards", '<i>"x" & y</i>', Markup("<em>safe</em>"), None]


def _render(app: Flask, source: str, **values: Any) -> str:
    with app.test_request_context():
        return app.jinja_env.from_string(source).render(**values)


@pytest.mark.parametrize("cards", CARDS)
@pytest.mark.parametrize("label", LABELS)
def test_the_front_picker_draws_what_its_macro_drew(app: Flask, cards: Any, label: Any) -> None:
    call = "{{ front_picker(cards, label) }}"
    old = _render(app, OLD_PICKER + call, cards=cards, label=label)
    new = _render(app, '{% from "drills/_picker.html" import front_picker %}' + call,
                  cards=cards, label=label)
    assert new == old
    assert new.count('<span class="pick"') == len(cards)


def test_the_front_picker_with_a_translated_label_with_values_draws_what_it_drew(app: Flask) -> None:
    call = """{{ front_picker(["As", "Kd"], _("Banker's cards (seat %(seat)s)", seat=seat)) }}"""
    old = _render(app, OLD_PICKER + call, seat="<3>")
    new = _render(app, '{% from "drills/_picker.html" import front_picker %}' + call, seat="<3>")
    assert new == old
    assert "(seat &lt;3&gt;)" in new


@pytest.mark.parametrize("text, values", [
    ("Front (2 cards)", {}),
    ("100%% sure", {}),
    ("Seat %(seat)s of %(n)s", {"seat": "<b>", "n": 7}),
    ("Right answer", {"unused": "x"}),
])
@pytest.mark.parametrize("autoescape", [True, False])
def test_the_templates_underscore_is_jinjas_newstyle_gettext(
    app: Flask, text: str, values: dict[str, Any], autoescape: bool
) -> None:
    # ``gettext`` is the newstyle wrapper Jinja installed; ``_`` used to be its alias.
    opening = "{% autoescape " + ("true" if autoescape else "false") + " %}"
    old = _render(app, opening + "{{ gettext(text, **values) }}{% endautoescape %}",
                  text=text, values=values)
    new = _render(app, opening + "{{ _(text, **values) }}{% endautoescape %}",
                  text=text, values=values)
    assert new == old
    assert "%%" not in new


def test_ensure_sync_remembers_plain_functions_and_still_wraps_coroutines() -> None:
    app = TrainerFlask(__name__)

    def view() -> str:
        return "ok"

    async def coroutine_view() -> str:
        return "ok"

    assert app.ensure_sync(view) is view
    assert view in app._sync_functions
    assert app.ensure_sync(view) is view
    # Flask wraps a coroutine function with ``async_to_sync`` (asgiref, not installed here).
    app.async_to_sync = lambda func: lambda *args, **kwargs: "wrapped"  # type: ignore[method-assign]
    for _ in range(2):  # asked again, Flask's own check again: wrapped, never remembered
        wrapped = app.ensure_sync(coroutine_view)
        assert wrapped is not coroutine_view and wrapped() == "wrapped"
        assert coroutine_view not in app._sync_functions


def test_protective_headers_are_sent_once_and_a_views_own_is_kept(app: Flask) -> None:
    @app.route("/_framed")
    def framed() -> tuple[str, int, dict[str, str]]:
        return "ok", 200, {"X-Frame-Options": "SAMEORIGIN"}

    client = app.test_client()
    for path in ("/healthz", "/_framed"):
        headers = client.get(path).headers
        for name in ("Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options",
                     "Referrer-Policy", "Permissions-Policy", "Cross-Origin-Opener-Policy"):
            assert len(headers.getlist(name)) == 1, (path, name)
    assert client.get("/_framed").headers["X-Frame-Options"] == "SAMEORIGIN"
    assert client.get("/healthz").headers["X-Frame-Options"] == "DENY"


def test_rule_tags_are_kept_only_for_preset_house_ways(app: Flask) -> None:
    with app.test_request_context():
        way = "trump-plaza"
        rule = next(iter(names._house_rules(way)))
        names._RULE_TAGS.clear()
        first = names.rule_tag(rule, way)
        assert first == names.rule_tag(rule, way)
        assert first == Markup('<span class="rule-name" data-rule="{}">{}</span>').format(
            rule, names.rule_name(rule, way))
        assert len(names._RULE_TAGS) == 1
        names.rule_tag(rule, "someones-way@1")  # not a preset: worked out each time
        assert len(names._RULE_TAGS) == 1


def test_a_swept_last_question_finishes_the_session_an_orm_read_then_sees(
    app: Flask, client: FlaskClient, trainee: Any
) -> None:
    login(client, trainee)
    session_id = start(client, "action", "timed")
    with app.app_context():
        db.session.get(DrillSession, session_id).length = 1
        db.session.commit()
    fetch_question(client, session_id)
    with app.app_context():
        row = db.session.execute(db.select(IssuedQuestion).filter_by(
            session_id=session_id, position=1)).scalar_one()
        row.issued_at -= timedelta(hours=1)
        db.session.commit()
        session = db.session.get(DrillSession, session_id)
        assert session.finished_at is None
        assert drill_service.settle_overdue(session_id=session_id) == 1
        # The settle's commit expired the ORM row: this reads the Core UPDATE's value.
        assert session.finished_at is not None
        assert timeouts.settle_one(row.id) is False  # once only
