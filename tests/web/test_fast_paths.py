"""The speed tweaks (``trainer/web/platform/fast_paths.py``) change how a page is drawn,
never what it says.

The same app is built twice on one database: with every tweak (the default) and with
``FAST_PATHS = False`` (plain Flask, Jinja and the templates alone). A question of every
drill kind is asked of both and the two replies compared byte for byte; every answer's
feedback, drawn by the app that took the answer, is drawn again by the other app's
templates from the same values and compared byte for byte. Then each drawing in Python
is compared with the macro it stands for, on cards, hands and labels that need escaping,
and the switch itself: off installs nothing, a list installs only what it names.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask, current_app
from flask.testing import FlaskClient
from flask_babel import force_locale
from markupsafe import Markup

from trainer import create_app
from trainer.engine.drills import DRILLS
from trainer.extensions import db
from trainer.models import User
from trainer.services import languages as language_settings
from trainer.web.platform import fast_paths, i18n
from trainer.web.trainee import drills as drill_views
from web.helpers import login
from web.test_feedback_words import answer_in_turn, post, start


@pytest.fixture
def plain_app(app: Flask, app_config: dict[str, Any]) -> Iterator[Flask]:
    """Return the same app on the same database with the speed tweaks off."""
    plain = create_app({**app_config, "FAST_PATHS": False})
    yield plain
    with plain.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture(scope="module")
def drawing_apps(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, Flask]]:
    """The app with its speed tweaks and without, for the drawings alone (no request reads
    the database): made once for the module's hundred-odd drawings."""
    folder = tmp_path_factory.mktemp("drawing")
    config = {"TESTING": True, "SECRET_KEY": "test-secret-key",
              "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'unused.sqlite3'}"}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TRAINER_INSTANCE_PATH", str(folder / "instance"))
        patch.delenv("DATABASE_URL", raising=False)
        yield create_app(config), create_app({**config, "FAST_PATHS": False})


def _drawn_by_both(monkeypatch: pytest.MonkeyPatch, fast: Flask, plain: Flask) -> list[tuple[str, str, str]]:
    """Make every page the drills blueprint draws be drawn a second time, by the other
    app's templates and globals from the same values; return (template, drawn, again)."""
    drawn: list[tuple[str, str, str]] = []
    real = drill_views.render_template

    def both(name: str, **values: Any) -> str:
        html = real(name, **values)
        other = plain if current_app._get_current_object() is fast else fast  # type: ignore[attr-defined]
        context = dict(values)
        other.update_template_context(context)
        drawn.append((name, html, other.jinja_env.get_template(name).render(context)))
        return html

    monkeypatch.setattr(drill_views, "render_template", both)
    return drawn


def _play_in_both(fast: Flask, plain: Flask, clients: tuple[FlaskClient, FlaskClient], kind: str,
                  first_right: bool) -> int:
    """Play four questions of a practice session of ``kind``: each asked of both apps (the
    replies compared byte for byte), answered by each in turn, right and wrong in turn."""
    session_id = start(clients[0], kind)
    answered = 0
    for position in range(1, 5):
        replies = [post(client, f"/drills/sessions/{session_id}/question", {}) for client in clients]
        assert [reply.status_code for reply in replies] == [200, 200]
        assert replies[0].get_data() == replies[1].get_data()
        if replies[0].get_json()["finished"]:
            break
        answer = answer_in_turn(fast, kind, session_id, position,
                                right=(position % 2 == 1) == first_right)
        reply = post(clients[position % 2], f"/drills/sessions/{session_id}/answer",
                     {"position": position, "answer": answer})
        assert reply.status_code == 200, reply.get_json()
        answered += 1
    return answered


@pytest.mark.parametrize("kind", tuple(DRILLS))
@pytest.mark.parametrize("first_right", [True, False])
def test_a_question_and_an_answer_read_the_same_with_the_speed_tweaks_off_and_on(
        app: Flask, plain_app: Flask, trainee: Any, monkeypatch: pytest.MonkeyPatch,
        kind: str, first_right: bool) -> None:
    assert app.extensions["fast_paths"] == fast_paths.TWEAKS
    assert plain_app.extensions["fast_paths"] == ()
    clients = (app.test_client(), plain_app.test_client())
    for client in clients:
        login(client, trainee)
    drawn = _drawn_by_both(monkeypatch, app, plain_app)
    answered = _play_in_both(app, plain_app, clients, kind, first_right)
    feedback = [(html, again) for name, html, again in drawn if name == "drills/_feedback.html"]
    assert answered >= 2 and len(feedback) == answered
    questions = [(html, again) for name, html, again in drawn if name == "drills/_question.html"]
    for html, again in feedback + questions:
        assert html == again
        assert 'class="verdict' in html or "data-" in html


@pytest.mark.parametrize("language", ["es", "ru"])
def test_cards_and_the_front_picker_read_the_same_in_another_language_with_its_letters(
        app: Flask, plain_app: Flask, trainee: Any, monkeypatch: pytest.MonkeyPatch,
        language: str) -> None:
    with app.app_context():
        db.session.get(User, trainee.id).language = language
        language_settings.set_installation(trainee.id, None, None, "local")
        db.session.commit()
    clients = (app.test_client(), plain_app.test_client())
    for client in clients:
        login(client, trainee)
    drawn = _drawn_by_both(monkeypatch, app, plain_app)
    assert _play_in_both(app, plain_app, clients, "house-way", True) >= 2
    assert drawn and all(html == again for _name, html, again in drawn)
    assert any('class="picker-hand"' in html for _name, html, _again in drawn)


# -- each drawing in Python against the macro it stands for -------------------------------------

CARDS: list[Any] = ["As", "Td", "JK", "2c", "<x", "A", 7, None, "Zz"]
HANDS: list[Any] = [
    ["As", "Kd", "JK", "Td", "2c"],
    ("Qh", "9s"),
    [],
    ["<x", "A", 7, None],  # a stored row's junk
    "AsKd",  # a string is iterable: its characters
    {"back": ["As"]},  # a mapping draws an empty hand
    None,
    7,
]
LABELS: list[Any] = ["", "House way back hand", 'Back "<hand>" & co', Markup("<b>safe</b>"), None, 0]


def _render(app: Flask, source: str, **values: Any) -> str:
    with app.test_request_context():
        return app.jinja_env.from_string(source).render(**values)


@pytest.mark.parametrize("card", CARDS)
@pytest.mark.parametrize("size, button, attrs", [
    ("", False, ""), ("small", False, ""), ("large", True, 'aria-pressed="false"'), ("", True, "")])
def test_the_card_drawn_in_python_is_the_card_macros_html(
        drawing_apps: tuple[Flask, Flask], card: Any, size: str, button: bool, attrs: str) -> None:
    app, plain_app = drawing_apps
    source = '{% from "_cards.html" import card %}{{ card(c, size, button, attrs) }}'
    values = {"c": card, "size": size, "button": button, "attrs": attrs}
    drawn = _render(app, source, **values)
    assert drawn == _render(plain_app, source, **values)
    assert drawn == _render(app, source, **values)  # the second time, from the kept drawing
    assert drawn.startswith("<button" if button else "<span") and "<x" not in drawn


def test_the_card_macro_draws_a_button_card_as_it_always_did(app: Flask, plain_app: Flask) -> None:
    for each in (app, plain_app):
        with each.test_request_context():
            label = each.jinja_env.globals["card_label"]("Td")
        html = _render(each, '{% from "_cards.html" import card %}'
                             """{{ card("Td", "large", button=true, attrs='aria-pressed="false"') }}""")
        assert html == (
            f'<button type="button" class="card card-d large" data-card="Td" aria-label="{label}" '
            'aria-pressed="false"><span class="card-rank" aria-hidden="true">10</span>'
            '<span class="card-suit" aria-hidden="true">\u2666</span></button>')


@pytest.mark.parametrize("cards", HANDS)
@pytest.mark.parametrize("label", LABELS)
@pytest.mark.parametrize("size", ["", "small"])
def test_the_hand_drawn_in_python_is_the_hand_macros_html(
        drawing_apps: tuple[Flask, Flask], cards: Any, label: Any, size: str) -> None:
    app, plain_app = drawing_apps
    source = '{% from "_cards.html" import hand %}{{ hand(cards, size, label) }}'
    drawn = _render(app, source, cards=cards, size=size, label=label)
    assert drawn == _render(plain_app, source, cards=cards, size=size, label=label)
    assert drawn.startswith('<span class="hand"') and "<hand>" not in drawn


PICKED: list[Any] = [["As", "Kd", "Qh", "Jc", "Ts", "9h", "JK"], ("2c", "3d"), [], ["Zz", "<b>", 7]]
PICKER_LABELS: list[Any] = ["Banker's cards", '<i>"x" & y</i>', Markup("<em>safe</em>"), None]


@pytest.mark.parametrize("cards", PICKED)
@pytest.mark.parametrize("label", PICKER_LABELS)
def test_the_front_picker_drawn_in_python_is_the_macros_html(
        drawing_apps: tuple[Flask, Flask], cards: Any, label: Any) -> None:
    app, plain_app = drawing_apps
    source = '{% from "drills/_picker.html" import front_picker %}{{ front_picker(cards, label) }}'
    drawn = _render(app, source, cards=cards, label=label)
    assert drawn == _render(plain_app, source, cards=cards, label=label)
    assert drawn.count('<span class="pick"') == len(cards) and "<i>" not in drawn


def test_the_front_picker_with_a_translated_label_with_values_reads_the_same(
        app: Flask, plain_app: Flask) -> None:
    source = ('{% from "drills/_picker.html" import front_picker %}'
              """{{ front_picker(["As", "Kd"], _("Banker's cards (seat %(seat)s)", seat=seat)) }}""")
    drawn = _render(app, source, seat="<3>")
    assert drawn == _render(plain_app, source, seat="<3>") and "(seat &lt;3&gt;)" in drawn


# -- the other tweaks and the switch ------------------------------------------------------------


@pytest.mark.parametrize("text, values", [
    ("Front (2 cards)", {}),
    ("100%% sure", {}),
    ("Seat %(seat)s of %(n)s", {"seat": "<b>", "n": 7}),
    ("Right answer", {"unused": "x"}),
])
@pytest.mark.parametrize("autoescape", [True, False])
def test_the_templates_underscore_translates_as_jinjas_newstyle_gettext(
        drawing_apps: tuple[Flask, Flask], text: str, values: dict[str, Any], autoescape: bool) -> None:
    app, plain_app = drawing_apps
    # Jinja's ``_`` is an alias of the newstyle ``gettext`` Flask-Babel installs (the plain app).
    opening = "{% autoescape " + ("true" if autoescape else "false") + " %}"
    source = opening + "{{ _(text, **values) }}|{{ gettext(text, **values) }}{% endautoescape %}"
    drawn = _render(app, source, text=text, values=values)
    assert drawn == _render(plain_app, source, text=text, values=values)
    assert drawn.split("|")[0] == drawn.split("|")[1] and "%%" not in drawn
    assert app.jinja_env.globals["_"] is fast_paths._gettext


def test_template_globals_keep_chain_map_lookups_and_precedence() -> None:
    base = {"a": 1, "b": 2}
    own = {"b": 3}
    merged = fast_paths._Globals(own, base)
    assert merged["a"] == 1 and merged["b"] == 3 and "a" in merged and "z" not in merged
    assert set(merged.keys()) == {"a", "b"} and {"a", "b", "c"} - merged.keys() == {"c"}
    base["c"] = 4  # a global added to the environment later is seen
    assert merged["c"] == 4 and "c" in set(merged.keys())
    merged["d"] = 5  # a template's own global does not reach the environment's
    assert "d" not in base


def test_every_template_takes_the_globals_whose_keys_compare_in_c(app: Flask, plain_app: Flask) -> None:
    with app.test_request_context():
        assert isinstance(app.jinja_env.get_template("_cards.html").globals, fast_paths._Globals)
    with plain_app.test_request_context():
        assert not isinstance(plain_app.jinja_env.get_template("_cards.html").globals,
                              fast_paths._Globals)


def test_the_kept_translations_follow_a_change_of_locale(app: Flask) -> None:
    with app.test_request_context():
        english = i18n.translations()
        assert i18n.translations() is english
        with force_locale("de"):
            assert i18n.translations() is not english
        assert i18n.translations() is english


def test_without_the_tweak_the_translations_are_flask_babels_each_time(
        plain_app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    real = i18n.get_translations

    def counted() -> Any:
        asked.append(1)
        return real()

    monkeypatch.setattr(i18n, "get_translations", counted)
    with plain_app.test_request_context():
        i18n.translations()
        i18n.translations()
    assert len(asked) == 2


def test_fast_paths_off_installs_nothing_and_a_list_installs_only_its_names(
        app_config: dict[str, Any], plain_app: Flask) -> None:
    globals_ = plain_app.jinja_env.globals
    assert not {"card_html", "hand_html", "front_picker_html"} & set(globals_)
    assert globals_["_"] is not fast_paths._gettext
    assert not hasattr(plain_app.app_ctx_globals_class, "kept_translations")
    assert "make_globals" not in vars(plain_app.jinja_env)
    some = create_app({**app_config, "FAST_PATHS": ["cards"]})
    assert some.extensions["fast_paths"] == ("cards",)
    assert "card_html" in some.jinja_env.globals and "front_picker_html" not in some.jinja_env.globals
    assert not hasattr(some.app_ctx_globals_class, "kept_translations")
    # As the environment gives it (TRAINER_FAST_PATHS=...): a comma-separated string.
    named = create_app({**app_config, "FAST_PATHS": "front_picker, translations"})
    assert named.extensions["fast_paths"] == ("translations", "front_picker")


def test_an_unknown_tweak_name_stops_the_start(app_config: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="unknown tweaks: verdict"):
        create_app({**app_config, "FAST_PATHS": ["cards", "verdict"]})
