"""What issue 15 changed to make a question and an answer cheap, held in place.

- The card macro of ``_cards.html`` is drawn in Python (``filters.card_html``), cached
  per card, size and language: its HTML must stay what the macro drew.
- ``/healthz`` (the load test's baseline) sends no SQL even for a signed-in browser:
  the ``no-store`` header is decided from the cookies when no view loaded the user.
- The templates' translations come from ``web/i18n.translations()``, cached per request
  but following a change of locale (``flask_babel.force_locale``).
"""
from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale

from trainer.web.filters import card_label
from trainer.web.i18n import translations
from web.helpers import login
from web.test_request_cost import counted


def _card(app: Flask, source: str) -> str:
    with app.test_request_context():
        return app.jinja_env.from_string('{% from "_cards.html" import card %}' + source).render()


def test_the_card_macro_draws_a_button_card_as_before(app: Flask) -> None:
    with app.test_request_context():
        label = card_label("Td")
    html = _card(app, """{{ card("Td", "large", button=true, attrs='aria-pressed="false"') }}""")
    assert html == (
        f'<button type="button" class="card card-d large" data-card="Td" aria-label="{label}" '
        'aria-pressed="false"><span class="card-rank" aria-hidden="true">10</span>'
        '<span class="card-suit" aria-hidden="true">\u2666</span></button>')


def test_the_card_macro_draws_the_joker_and_junk_as_before(app: Flask) -> None:
    with app.test_request_context():
        joker = card_label("JK")
    assert _card(app, '{{ card("JK") }}') == (
        f'<span class="card card-joker " data-card="JK" role="img" aria-label="{joker}">'
        '<span class="card-rank" aria-hidden="true">JK</span>'
        '<span class="card-suit" aria-hidden="true">&#9733;</span></span>')
    # A stored row's junk is escaped, never cached, never an error.
    assert _card(app, '{{ card("<x") }}') == (
        '<span class="card card-x " data-card="&lt;x" role="img" aria-label="&lt;x">'
        '<span class="card-rank" aria-hidden="true">&lt;</span>'
        '<span class="card-suit" aria-hidden="true"></span></span>')


def test_a_cached_card_is_the_same_html_the_second_time(app: Flask) -> None:
    first = _card(app, '{{ card("As", "small") }}')
    assert first == _card(app, '{{ card("As", "small") }}') and 'data-card="As"' in first


def test_healthz_sends_no_sql_for_a_signed_in_browser(
    app: Flask, client: FlaskClient, trainee: Any
) -> None:
    login(client, trainee)
    client.get("/healthz")
    with counted(app) as statements:
        response = client.get("/healthz")
    assert response.status_code == 200
    assert statements == []
    assert response.headers["Cache-Control"] == "no-store"  # signed in, by the cookie


def test_healthz_without_a_sign_in_is_not_marked_no_store(client: FlaskClient) -> None:
    assert "no-store" not in client.get("/healthz").headers.get("Cache-Control", "")


def test_the_cached_translations_follow_a_change_of_locale(app: Flask) -> None:
    with app.test_request_context():
        english = translations()
        assert translations() is english
        with force_locale("de"):
            assert translations() is not english
        assert translations() is english
