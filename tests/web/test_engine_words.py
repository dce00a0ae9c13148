"""The engine's sentences reach the reader in the reader's language (issue 19, item 1).

The engine writes its refusals in English and marks them (``trainer/engine/messages.py``);
the web translates them in one place, ``trainer/web/engine_words.message_words``. These tests put
Spanish for a few of the engine's templates in front of the catalogue (a fake of the
per-request translations object, as the catalogues are being written) and check that a
malformed card in a drill answer, at the table and in the look-up comes back in Spanish,
still refused with nothing recorded, and that English readers read exactly what the
engine wrote.
"""
from __future__ import annotations

from typing import Any
from urllib.parse import quote_plus

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale, get_locale
from markupsafe import escape

from trainer.engine.cards import parse_cards
from trainer.engine.drills import get_drill
from trainer.engine.drills.kinds import action
from trainer.engine.drills.skills import skill
from trainer.engine.messages import N_, EngineError, Joined, Message, Money
from trainer.web.platform import languages
from trainer.web.words import engine_words
from web.helpers import csrf_token, login, post_form
from web.test_drills import attempts, fetch_question, issued, right_answer, send_answer, start, wrong_answer

# The fake catalogue: Spanish for these templates, as a translator would write them.
SPANISH = {
    "%(text)s is not a card: write a rank (2-9, T or 10, J, Q, K, A) and a suit (s, h, d, c), "
    "or JK for the joker.": "%(text)s no es una carta: escriba un valor (2-9, T o 10, J, Q, K, A) "
                            "y un palo (s, h, d, c), o JK para el comodín.",
    "%(card)s appears twice in the hand.": "%(card)s aparece dos veces en la mano.",
    "The front takes %(count)s cards; %(given)s were given.":
        "La mano baja lleva %(count)s cartas; se dieron %(given)s.",
    "front": "mano baja",
    "%(card)s is not one of your cards.": "%(card)s no es una de sus cartas.",
    "Seat %(seat)s: enter the amount paid, in cents, as a whole number up to %(most)s.":
        "Asiento %(seat)s: escriba lo pagado, en centavos, hasta %(most)s.",
    "The bet is more than your balance of %(balance)s.": "La apuesta supera su saldo de %(balance)s.",
    " or ": " o ",
    "A hand here has %(wanted)s cards; %(given)s were given.":
        "Una mano aquí tiene %(wanted)s cartas; se dieron %(given)s.",
    # The dice drill's practice hint and the rule book's lines it quotes (its home's skills).
    action.HINT: "La acción: sume los dados y cuente desde la banca como 1.",
    **{str(s.sentence): f"[es] regla {s.id}" for s in get_drill(action.SLUG).skills},
    # A service's own refusal, marked with the engine's N_ (services/drills.py).
    "The question number is missing.": "Falta el número de la pregunta.",
    # A translation that dropped its placeholder's name: the English is shown instead.
    "Seat %(seat)s is settled twice.": "El asiento %(asiento)s se liquida dos veces.",
}


class FakeSpanish:
    """The translations object of one request: Spanish above for an es reader, else as given."""

    def __init__(self, real: Any) -> None:
        self.real = real

    def ugettext(self, text: str) -> str:
        if str(get_locale()) == "es" and text in SPANISH:
            return SPANISH[text]
        return str(self.real.ugettext(text))


@pytest.fixture
def spanish_catalogue(monkeypatch: pytest.MonkeyPatch) -> None:
    real = engine_words.translations
    monkeypatch.setattr(engine_words, "translations", lambda: FakeSpanish(real()))


@pytest.fixture
def spanish_reader(client: FlaskClient, trainee: Any, spanish_catalogue: None) -> FlaskClient:
    login(client, trainee)
    post_form(client, "/auth/account/language", {"language": "es"})
    return client


@pytest.fixture
def english_reader(client: FlaskClient, trainee: Any, spanish_catalogue: None) -> FlaskClient:
    login(client, trainee)
    return client


def english_of(call: Any) -> str:
    with pytest.raises(ValueError) as caught:
        call()
    return str(caught.value)


# --- a drill answer ---------------------------------------------------------------------

@pytest.mark.parametrize(("front", "spanish"), [
    (["Zz", "Kd"], "Zz no es una carta: escriba un valor (2-9, T o 10, J, Q, K, A) "
                   "y un palo (s, h, d, c), o JK para el comodín."),
    (["As", "Ks", "Qs"], "La mano baja lleva 2 cartas; se dieron 3."),
])
def test_a_malformed_card_in_a_drill_answer_is_refused_in_spanish_and_nothing_is_recorded(
        app: Flask, spanish_reader: FlaskClient, front: list[str], spanish: str) -> None:
    session_id = start(spanish_reader, "house-way")
    fetch_question(spanish_reader, session_id)
    response = send_answer(spanish_reader, session_id, 1, {"front": front})
    assert response.status_code == 400
    assert response.get_json()["message"] == spanish
    assert attempts(app) == []
    assert send_answer(spanish_reader, session_id, 1, right_answer(app, session_id)).status_code == 200


def test_the_same_answer_reads_as_the_engine_wrote_it_in_english(
        app: Flask, english_reader: FlaskClient) -> None:
    session_id = start(english_reader, "house-way")
    fetch_question(english_reader, session_id)
    response = send_answer(english_reader, session_id, 1, {"front": ["Zz", "Kd"]})
    assert response.status_code == 400
    assert response.get_json()["message"] == english_of(lambda: parse_cards(["Zz", "Kd"]))
    assert response.get_json()["message"] == (
        "Zz is not a card: write a rank (2-9, T or 10, J, Q, K, A) and a suit (s, h, d, c), "
        "or JK for the joker.")
    assert attempts(app) == []


def test_a_refusal_the_service_words_itself_is_said_in_spanish_too(
        app: Flask, spanish_reader: FlaskClient) -> None:
    """(The drill service marks its own refusals with N_ as messages, issue 19 item 2.)"""
    session_id = start(spanish_reader, "house-way")
    fetch_question(spanish_reader, session_id)
    response = send_answer(spanish_reader, session_id, "1", {"front": ["As", "Ks"]})
    assert response.status_code == 400
    assert response.get_json()["message"] == "Falta el número de la pregunta."
    assert attempts(app) == []


def test_the_practice_hint_and_the_rule_books_line_are_in_spanish(
        app: Flask, spanish_reader: FlaskClient) -> None:
    session_id = start(spanish_reader, "action", mode="practice")
    data = fetch_question(spanish_reader, session_id).get_json()
    assert data["hint"] == "La acción: sume los dados y cuente desde la banca como 1."
    question, context = issued(app, session_id)
    drill = get_drill(action.SLUG)
    rule = drill.rule_of(drill.read_question(question), context)
    response = send_answer(spanish_reader, session_id, 1, wrong_answer(app, session_id))
    assert response.status_code == 200
    assert f">[es] regla {rule}</span>" in response.get_json()["html"]


def test_the_hint_and_the_rule_books_line_in_english_are_the_engines(
        app: Flask, english_reader: FlaskClient) -> None:
    session_id = start(english_reader, "action", mode="practice")
    data = fetch_question(english_reader, session_id).get_json()
    assert data["hint"] == action.HINT
    question, context = issued(app, session_id)
    drill = get_drill(action.SLUG)
    rule = drill.rule_of(drill.read_question(question), context)
    html = send_answer(english_reader, session_id, 1, wrong_answer(app, session_id)).get_json()["html"]
    found = skill(rule)
    assert found is not None and f">{escape(str(found.sentence))}</span>" in html


# --- the look-up and the table ------------------------------------------------------------

def look_up(client: FlaskClient, cards: str) -> str:
    response = client.get(f"/house-way/look-up?cards={quote_plus(cards)}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_the_look_up_shows_the_engines_refusal_in_spanish(spanish_reader: FlaskClient) -> None:
    html = look_up(spanish_reader, "As Kd Qh 9c 9d 4s As")
    assert 'role="alert">As aparece dos veces en la mano.<' in html
    assert 'id="lookup-result"' not in html
    html = look_up(spanish_reader, "As Kd Qh 9c 9d 4s")
    assert f'role="alert">{escape("Una mano aquí tiene 7 cartas; se dieron 6.")}<' in html


def test_the_look_up_in_english_is_unchanged(english_reader: FlaskClient) -> None:
    html = look_up(english_reader, "As Kd Qh 9c 9d 4s As")
    assert 'role="alert">As appears twice in the hand.<' in html


def test_a_card_not_dealt_at_the_table_is_refused_in_spanish(
        app: Flask, spanish_reader: FlaskClient) -> None:
    token = csrf_token(spanish_reader, "/play/")
    hand = spanish_reader.post("/play/deal", json={"bet_cents": 500},
                               headers={"X-CSRFToken": token}).get_json()["hand"]
    not_dealt = next(c for c in ("As", "Kd", "2c") if c not in hand["cards"])
    response = spanish_reader.post(f"/play/hands/{hand['id']}/done",
                                   json={"front": [not_dealt, hand["cards"][0]]},
                                   headers={"X-CSRFToken": token})
    assert response.status_code == 400
    assert response.get_json()["message"] == f"{not_dealt} no es una de sus cartas."


# --- say: the values in the reader's format --------------------------------------------

def test_numbers_and_money_in_a_sentence_are_written_in_the_readers_format(
        app: Flask, spanish_catalogue: None) -> None:
    message = Message(N_("Seat %(seat)s: enter the amount paid, in cents, as a whole number "
                         "up to %(most)s."), seat=3, most=10_000_000)
    balance = Message(N_("The bet is more than your balance of %(balance)s."),
                      balance=Money(123_450))
    with app.test_request_context():
        with force_locale("es"):
            assert engine_words.message_words(message) == \
                "Asiento 3: escriba lo pagado, en centavos, hasta 10.000.000."
            assert engine_words.message_words(balance) == \
                f"La apuesta supera su saldo de {languages.money(123_450)}."
            assert "1.234,50" in engine_words.message_words(balance)
            assert engine_words.message_words(Joined([5, 7], N_(" or "))) == "5 o 7"
        with force_locale("en"):
            assert engine_words.message_words(message) == str(message)
            assert engine_words.message_words(balance) == "The bet is more than your balance of $1,234.50."


def test_a_translation_whose_placeholders_do_not_fit_falls_back_to_english(
        app: Flask, spanish_catalogue: None) -> None:
    error = EngineError(N_("Seat %(seat)s is settled twice."), seat=4)
    with app.test_request_context(), force_locale("es"):
        assert engine_words.message_words(error) == "Seat 4 is settled twice."


def test_an_error_only_caused_by_an_engine_refusal_keeps_its_own_words(app: Flask) -> None:
    cause = EngineError(N_("%(card)s appears twice in the hand."), card="As")
    same = RuntimeError(str(cause))
    same.__cause__ = cause
    other = RuntimeError("Something else.")
    other.__cause__ = cause
    with app.test_request_context(), force_locale("en"):
        assert engine_words.message_of(same) is cause.message
        assert engine_words.message_of(other) is None
        assert engine_words.message_words(other) == "Something else."
