"""Issue 19, items 3 and 4: choosing a language, money and typed amounts in the reader's
format, and cards named in each language (docs/languages.md).

The language a page speaks: the reader's own (the account page), else the installation's
(the admin's), else the browser's Accept-Language, else English. Money is integer cents
written as Babel writes it in that language and the installation's currency. Amounts a
trainee types are read in the page's language, and an unclear one is refused. Expected
words below are written out by hand (the catalogues, the casino vocabulary of
docs/glossary-*.md) or come from Babel itself, never from the code under test.
"""
from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_currency
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale

from trainer.extensions import db
from trainer.models import Attempt, InstallationSetting, User
from trainer.services.languages import LANGUAGES
from trainer.web.platform import languages as page_languages
from trainer.web.platform.fast_paths import card_html
from trainer.web.platform.filters import card_label
from trainer.web.platform.money_input import AmountError, parse_cents, read_amounts
from web.helpers import csrf_token, login, post_form
from web.test_drills import fetch_question, right_answer, send_answer, start
from web.test_request_cost import counted

ROOT = Path(__file__).resolve().parents[2]
LANG = re.compile(r'<html lang="([^"]+)">')
# "My account" in each catalogue (translations/<lang>/LC_MESSAGES/messages.po).
MY_ACCOUNT = {"en": "My account", "pt": "Minha conta", "es": "Mi cuenta", "it": "Il mio account",
              "ru": "Моя учётная запись"}
SAVED = {"pt": "Seu idioma foi salvo.", "es": "Se ha guardado tu idioma.",
         "it": "La tua lingua è stata salvata.", "ru": "Язык сохранён."}


def _lang(response: Any) -> str:
    match = LANG.search(response.get_data(as_text=True))
    assert match, "no <html lang> on the page"
    return match.group(1)


def _user_language(app: Flask, user_id: int) -> str | None:
    with app.app_context():
        return db.session.get_one(User, user_id).language


def _set_installation(app: Flask, **values: str) -> None:
    with app.app_context():
        for key, value in values.items():
            db.session.merge(InstallationSetting(key=key, value=value))
        db.session.commit()


# --- choosing a language ----------------------------------------------------------------

def test_the_supported_languages_are_english_and_the_four_markets(app: Flask) -> None:
    assert LANGUAGES == ("en", "pt", "es", "it", "ru")
    assert app.config["LANGUAGES"] == list(LANGUAGES)


@pytest.mark.parametrize("code", ["pt", "es", "it", "ru"])
def test_choosing_a_language_on_the_account_page_changes_the_pages_lang_and_words(
    app: Flask, client: FlaskClient, trainee: Any, code: str
) -> None:
    login(client, trainee)
    before = client.get("/auth/account")
    assert _lang(before) == "en" and MY_ACCOUNT["en"] in before.get_data(as_text=True)
    response = post_form(client, "/auth/account/language", {"language": code}, follow_redirects=True)
    page = response.get_data(as_text=True)
    assert _lang(response) == code
    assert MY_ACCOUNT[code] in page and MY_ACCOUNT["en"] not in page
    assert SAVED[code] in page  # the message speaks the new language already
    assert _user_language(app, trainee.id) == code
    # Every other page follows, whatever the browser prefers.
    other = client.get("/drills/", headers={"Accept-Language": "en-US,en;q=0.9"})
    assert _lang(other) == code


def test_clearing_ones_language_returns_to_the_browsers(
    app: Flask, client: FlaskClient, trainee: Any
) -> None:
    login(client, trainee)
    post_form(client, "/auth/account/language", {"language": "ru"})
    assert _user_language(app, trainee.id) == "ru"
    post_form(client, "/auth/account/language", {"language": ""})
    assert _user_language(app, trainee.id) is None
    assert _lang(client.get("/auth/account", headers={"Accept-Language": "it"})) == "it"


@pytest.mark.parametrize("bad", ["fr", "xx", "<b>", "e" * 40])
def test_a_language_the_trainer_does_not_speak_is_refused_and_nothing_changes(
    app: Flask, client: FlaskClient, trainee: Any, bad: str
) -> None:
    login(client, trainee)
    post_form(client, "/auth/account/language", {"language": "es"})
    response = post_form(client, "/auth/account/language", {"language": bad})
    assert response.status_code == 200
    assert 'class="error"' in response.get_data(as_text=True)
    assert _user_language(app, trainee.id) == "es"


@pytest.mark.parametrize(("header", "expected"), [
    ("ru,en;q=0.5", "ru"), ("pt-BR,pt;q=0.9", "pt"), ("it-IT", "it"), ("es-MX,es;q=0.8", "es"),
    ("fr-FR,de;q=0.8", "en"), ("", "en"), ("de,es;q=0.3", "es"),
])
def test_anonymous_pages_follow_the_browsers_accept_language(
    client: FlaskClient, header: str, expected: str
) -> None:
    assert _lang(client.get("/auth/login", headers={"Accept-Language": header})) == expected


def test_the_admin_sets_the_installations_language_currency_and_card_letters(
    app: Flask, client: FlaskClient, admin: Any, trainee: Any
) -> None:
    login(client, admin)
    response = post_form(client, "/admin/settings/language",
                         {"language": "pt", "currency": "eur", "card_letters": "local"})
    assert response.status_code == 302
    with app.app_context():
        rows = {r.key: r.value for r in db.session.execute(db.select(InstallationSetting)).scalars()}
    assert rows == {"language": "pt", "currency": "EUR", "card_letters": "local"}
    page = client.get("/admin/settings")
    assert _lang(page) == "pt"  # the admin chose no language of their own
    # Anonymous pages speak it before the browser's language...
    client.post("/auth/logout", data={"csrf_token": csrf_token(client, "/admin/settings")})
    assert _lang(client.get("/auth/login", headers={"Accept-Language": "es"})) == "pt"
    # ...and a reader's own choice comes first.
    login(client, trainee)
    post_form(client, "/auth/account/language", {"language": "it"})
    assert _lang(client.get("/auth/account", headers={"Accept-Language": "es"})) == "it"


def test_clearing_the_installations_language_gives_each_browser_its_own(
    app: Flask, client: FlaskClient, admin: Any
) -> None:
    _set_installation(app, language="ru")
    login(client, admin)
    post_form(client, "/admin/settings/language",
              {"language": "", "currency": "USD", "card_letters": "international"})
    with app.app_context():
        assert db.session.execute(db.select(InstallationSetting)).scalars().all() == []
    assert _lang(client.get("/auth/account", headers={"Accept-Language": "es"})) == "es"


@pytest.mark.parametrize("currency", ["XYZ", "JPY", "CLP", "KWD", "US", "$", "DOLLARS"])
def test_a_currency_without_cents_or_unknown_is_refused_and_nothing_changes(
    app: Flask, client: FlaskClient, admin: Any, currency: str
) -> None:
    login(client, admin)
    response = post_form(client, "/admin/settings/language",
                         {"language": "es", "currency": currency, "card_letters": "international"})
    assert response.status_code == 200
    assert "ISO 4217" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.execute(db.select(InstallationSetting)).scalars().all() == []


def test_only_an_admin_sets_the_installations_language(
    app: Flask, client: FlaskClient, trainee: Any
) -> None:
    login(client, trainee)
    response = post_form(client, "/admin/settings/language",
                         {"language": "ru", "currency": "RUB", "card_letters": "local"})
    assert response.status_code in (302, 403)
    with app.app_context():
        assert db.session.execute(db.select(InstallationSetting)).scalars().all() == []


def test_a_signed_in_request_reads_the_installations_settings_with_its_user(
    app: Flask, client: FlaskClient, trainee: Any
) -> None:
    """The locale costs no statement of its own: the settings come with the user's row."""
    _set_installation(app, language="es", currency="EUR")
    login(client, trainee)
    session_id = start(client, "settlement", "timed")
    token = csrf_token(client, "/drills/")
    client.post(f"/drills/sessions/{session_id}/question", json={}, headers={"X-CSRFToken": token})
    answer = right_answer(app, session_id)
    with counted(app) as statements:
        response = client.post(f"/drills/sessions/{session_id}/answer",
                               json={"position": 1, "answer": answer}, headers={"X-CSRFToken": token})
    assert response.status_code == 200
    assert len(statements) <= 4
    alone = [s for s in statements if "installation_settings" in s and "users" not in s]
    assert alone == []
    assert "\xa0€" in client.get("/play/").get_data(as_text=True)  # and they are in force


# --- money in the reader's format -----------------------------------------------------------

AMOUNTS = [0, 1, 5, 99, 100, 4750, 12345, 100000, 123456, 99999999, 1234567890]


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("currency", ["USD", "EUR", "BRL", "RUB"])
def test_money_is_written_as_babel_writes_it(code: str, currency: str) -> None:
    form = page_languages.money_format(code, currency)
    for cents in AMOUNTS:
        for value in (cents, -cents):
            assert form.format(value) == format_currency(Decimal(value) / 100, currency, locale=code)


@pytest.mark.parametrize(("code", "written"), [
    ("en", "$47.50"), ("pt", "US$\xa047,50"), ("es", "47,50\xa0US$"), ("it", "47,50\xa0USD"),
    ("ru", "47,50\xa0$"),
])
def test_integer_cents_in_money_out_per_language(app: Flask, code: str, written: str) -> None:
    with app.test_request_context(), force_locale(code):
        assert page_languages.money(4750) == written
        assert page_languages.money(None) == "—" and page_languages.money(47.5) == "—"


def test_the_installations_currency_is_used(app: Flask) -> None:
    _set_installation(app, currency="EUR")
    with app.test_request_context(), force_locale("es"):
        assert page_languages.money(123450) == "1.234,50\xa0€"


def test_a_short_amount_drops_whole_cents_and_a_gain_is_signed(app: Flask) -> None:
    with app.test_request_context(), force_locale("es"):
        assert page_languages.money(2500, short=True) == "25\xa0US$"
        assert page_languages.money(2550, short=True) == "25,50\xa0US$"
        assert page_languages.money(2500, signed=True) == "+25,00\xa0US$"
        assert page_languages.money(-2500, signed=True) == "-25,00\xa0US$"


def test_every_page_gives_its_scripts_the_money_format(
    client: FlaskClient, trainee: Any
) -> None:
    login(client, trainee)
    post_form(client, "/auth/account/language", {"language": "ru"})
    page = client.get("/play/").get_data(as_text=True)
    found = re.search(r"<body data-money='([^']+)'", page)
    assert found
    assert json.loads(found.group(1).replace("&#39;", "'")) == {
        "positive": "%(n)s\xa0$", "negative": "-%(n)s\xa0$", "decimal": ",", "group": "\xa0"}
    assert "1\xa0000,00\xa0$" in page  # the balance, drawn in Russian


def test_no_script_writes_a_dollar_sign_of_its_own() -> None:
    scripts = [*(ROOT / "static" / "js").rglob("*.js"),
               *(ROOT / "templates" / "drills" / "kinds").rglob("kind.js")]  # the kinds' own
    assert any(path.name == "kind.js" for path in scripts)
    for path in scripts:
        code = re.sub(r"/(?:\\.|[^/\n])+/[gimsuy]*", "", path.read_text())  # regular expressions
        assert '"$' not in code and "'$" not in code, path


_NODE_RUN = """
const vm = require("vm"), fs = require("fs");
const libPath = process.argv[1];
const [formats, amounts] = [JSON.parse(process.argv[2]), JSON.parse(process.argv[3])];
const out = {};
for (const [code, format] of Object.entries(formats)) {
  const document = { querySelector: () => null, addEventListener: () => {},
                     body: { dataset: { money: JSON.stringify(format) } } };
  const window = { addEventListener: () => {} };
  vm.runInNewContext(fs.readFileSync(libPath, "utf8"), { window, document, JSON, String, Math, Number });
  out[code] = amounts.map(c => [window.PaiGow.money(c), window.PaiGow.money(c, true)]);
}
console.log(JSON.stringify(out));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_scripts_write_money_as_the_server_does() -> None:
    formats = {code: page_languages.money_format(code, "USD").as_dict() for code in LANGUAGES}
    amounts = [*AMOUNTS, *(-a for a in AMOUNTS if a)]
    done = subprocess.run(["node", "-e", _NODE_RUN, str(ROOT / "static/js/lib.js"),
                           json.dumps(formats), json.dumps(amounts)],
                          capture_output=True, text=True, timeout=60, check=True)
    written = json.loads(done.stdout)
    for code in LANGUAGES:
        form = page_languages.money_format(code, "USD")
        assert written[code] == [[form.format(c), form.format(c, short=True)] for c in amounts]
        assert written[code][5][0] == format_currency(Decimal("47.50"), "USD", locale=code)


# --- amounts typed in the reader's format -----------------------------------------------------

READ = [
    # (language, typed, cents)
    ("en", "47.50", 4750), ("en", "47.5", 4750), ("en", "47", 4700), ("en", "$47.50", 4750),
    ("en", "1,234.50", 123450), ("en", "1234", 123400), ("en", " 0.05 ", 5), ("en", ".50", 50),
    ("pt", "47,50", 4750), ("pt", "R$ 47,50", 4750), ("pt", "US$ 47,50", 4750),
    ("pt", "1.234,50", 123450), ("pt", "1234", 123400),
    ("es", "47,50", 4750), ("es", "47,5", 4750), ("es", "47,50 €", 4750), ("es", "1.234,50", 123450),
    ("es", "12.345.678,90", 1234567890), ("es", "EUR 12", 1200),
    ("it", "47,50", 4750), ("it", "47,50 €", 4750), ("it", "1.234,50", 123450), ("it", "0,05", 5),
    ("ru", "47,50", 4750), ("ru", "47,50 ₽", 4750), ("ru", "1 234,50", 123450),
    ("ru", "1\u00a0234", 123400), ("ru", "1\u202f234,5", 123450),
]


@pytest.mark.parametrize(("code", "typed", "cents"), READ)
def test_an_amount_typed_in_the_readers_format_is_read(app: Flask, code: str, typed: str, cents: int) -> None:
    with app.test_request_context(), force_locale(code):
        assert parse_cents(typed, code) == cents


REFUSED = [
    # (language, typed, what the English message says)
    ("es", "1.234", "is not clear"), ("pt", "1.234", "is not clear"), ("it", "1.234", "is not clear"),
    ("en", "1,234", "is not clear"), ("en", "1.234", "is not clear"), ("es", "1,234", "is not clear"),
    ("es", "47,505", "is not clear"), ("es", "1.234.567", "is not clear"),
    ("es", "1.5", "write it with a decimal comma"), ("pt", "47.50", "write it with a decimal comma"),
    ("it", "47.50", "write it with a decimal comma"), ("ru", "47.50", "write it with a decimal comma"),
    ("ru", "1.234,50", "write it with a decimal comma"), ("en", "1,5", "write it with a decimal point"),
    ("en", "47,50", "write it with a decimal point"), ("es", "1,234.50", "write it with a decimal comma"),
    ("en", "1.234,50", "write it with a decimal point"),
    ("es", "47,5050", "at most two digits"), ("en", "47.1234", "at most two digits"),
    ("es", "-5", "never negative"), ("en", "\u22125", "never negative"),
    ("es", "", "Write an amount"), ("es", "   ", "Write an amount"),
    ("es", "abc", "is not an amount"), ("es", "4 7", "is not an amount"), ("en", "1 234", "is not an amount"),
    ("es", "47,50,1", "is not an amount"), ("es", "ABC 12", "is not an amount"),
    ("en", "12.34.56", "is not an amount"), ("es", "1.23", "write it with a decimal comma"),
    ("en", "9999999999", "too large"),
]


@pytest.mark.parametrize(("code", "typed", "says"), REFUSED)
def test_an_unclear_or_wrong_amount_is_refused_with_a_sentence(
    app: Flask, code: str, typed: str, says: str
) -> None:
    with app.test_request_context(), force_locale("en"), pytest.raises(AmountError, match=says):
        parse_cents(typed, code)


@pytest.mark.parametrize(("code", "says"), [
    ("pt", "não está claro"), ("es", "no está claro"), ("it", "non è chiaro"), ("ru", "неоднозначно"),
])
def test_the_refusal_speaks_the_readers_language(app: Flask, code: str, says: str) -> None:
    with app.test_request_context(), force_locale(code), pytest.raises(AmountError) as refused:
        parse_cents("1.234" if code != "ru" else "1,234", code)
    assert says in str(refused.value) and "1234" in str(refused.value)


def test_typed_amounts_are_read_only_in_cents_fields(app: Flask) -> None:
    answer = {"positions": [{"outcome": "win", "paid_cents": "47,50", "bonus_paid_cents": 0},
                            {"outcome": "lose", "paid_cents": None, "note": "1.234"}],
              "banker_commission_cents": "1.234,00"}
    with app.test_request_context(), force_locale("es"):
        assert read_amounts(answer, "es") == {
            "positions": [{"outcome": "win", "paid_cents": 4750, "bonus_paid_cents": 0},
                          {"outcome": "lose", "paid_cents": None, "note": "1.234"}],
            "banker_commission_cents": 123400}


def _typed(cents: int) -> str:
    return f"{cents // 100},{cents % 100:02d}"


def test_an_unclear_drill_answer_is_refused_and_nothing_is_recorded(
    app: Flask, client: FlaskClient, trainee: Any
) -> None:
    login(client, trainee)
    post_form(client, "/auth/account/language", {"language": "es"})
    session_id = start(client, "settlement", "timed")
    fetch_question(client, session_id)
    right = right_answer(app, session_id)
    unclear = json.loads(json.dumps(right))
    unclear["positions"][0]["paid_cents"] = "1.234"
    response = send_answer(client, session_id, 1, unclear)
    assert response.status_code == 400
    assert "1.234" in response.get_json()["message"] and "no está claro" in response.get_json()["message"]
    with app.app_context():
        assert db.session.execute(db.select(Attempt)).scalars().all() == []
    # The same answer typed the Spanish way is read and graded right.
    typed = json.loads(json.dumps(right))
    for position in typed["positions"]:
        if position.get("paid_cents") is not None:
            position["paid_cents"] = _typed(position["paid_cents"])
    response = send_answer(client, session_id, 1, typed)
    assert response.status_code == 200 and response.get_json()["correct"] is True
    with app.app_context():
        stored = db.session.execute(db.select(Attempt)).scalar_one().answer
    assert stored["positions"] == right["positions"]  # integer cents underneath


def test_the_managers_amounts_are_read_in_their_language(
    app: Flask, client: FlaskClient, make_user: Any
) -> None:
    manager = make_user("manager", login="mgr")
    login(client, manager)
    post_form(client, "/auth/account/language", {"language": "it"})
    response = post_form(client, "/manager/profiles/new", {
        "title": "Sala Italia", "wheel": "lowest", "commission": "fee", "rate": "",
        "rounding": "cent", "fee": "1.000", "foul_policy": "lose", "min_bet": "5", "max_bet": "500"})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "«1.000» non è chiaro" in page  # refused: a thousand, or one unit?


# --- cards in each language -----------------------------------------------------------------

QUEEN_OF_HEARTS = {"en": "Q♥, queen of hearts", "pt": "Q♥, dama de copas", "es": "Q♥, reina de corazones",
                   "it": "Q♥, regina di cuori", "ru": "Q♥, дама червей"}
ACE_OF_SPADES = {"en": "A♠, ace of spades", "pt": "A♠, ás de espadas", "es": "A♠, as de picas",
                 "it": "A♠, asso di picche", "ru": "A♠, туз пик"}
TEN_OF_DIAMONDS = {"en": "10♦, ten of diamonds", "pt": "10♦, dez de ouros",
                   "es": "10♦, diez de diamantes", "it": "10♦, dieci di quadri", "ru": "10♦, десятка бубён"}
JOKER = {"en": "JK★, joker", "pt": "JK★, curinga", "es": "JK★, comodín", "it": "JK★, jolly",
         "ru": "JK★, джокер"}
LOCAL_QUEEN = {"en": "Q♥, queen of hearts", "pt": "D♥, dama de copas", "es": "D♥, reina de corazones",
               "it": "D♥, regina di cuori", "ru": "Д♥, дама червей"}


@pytest.mark.parametrize("code", LANGUAGES)
def test_cards_are_named_in_the_readers_language(app: Flask, code: str) -> None:
    with app.test_request_context(), force_locale(code):
        assert card_label("Qh") == QUEEN_OF_HEARTS[code]
        assert card_label("As") == ACE_OF_SPADES[code]
        assert card_label("Td") == TEN_OF_DIAMONDS[code]
        assert card_label("JK") == JOKER[code]
        names = {card_label(r + s) for r in "AKQJT98765432" for s in "shdc"}
        assert card_label("<x") == "<x"
    assert len(names) == 52  # every card its own name


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_cards_name_starts_with_what_it_shows(app: Flask, code: str) -> None:
    with app.test_request_context(), force_locale(code):
        for card in [r + s for r in "AKQJT98765432" for s in "shdc"] + ["JK"]:
            html = str(card_html(card))
            shown = "".join(re.findall(r'aria-hidden="true">([^<]*)<', html)).replace("&#9733;", "★")
            label = re.search(r'aria-label="([^"]+)"', html).group(1)
            assert label.startswith(shown + ", "), (card, label, shown)


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_installation_may_print_the_local_letters(app: Flask, code: str) -> None:
    _set_installation(app, card_letters="local")
    with app.test_request_context(), force_locale(code):
        assert card_label("Qh") == LOCAL_QUEEN[code]
        html = str(card_html("Qh"))
    assert f'<span class="card-rank" aria-hidden="true">{LOCAL_QUEEN[code][0]}</span>' in html


def test_a_drill_page_names_its_cards_in_the_trainees_language(
    app: Flask, client: FlaskClient, trainee: Any
) -> None:
    login(client, trainee)
    post_form(client, "/auth/account/language", {"language": "ru"})
    session_id = start(client, "house-way", "timed")
    html = fetch_question(client, session_id).get_json()["html"]
    labels = re.findall(r'data-card="[^"]+"[^>]*aria-label="([^"]+)"', html)
    assert labels and all(re.search(r", (туз|король|дама|валет|десятка|[а-яё]+ка|джокер)", label)
                          for label in labels), labels


# --- the catalogues -------------------------------------------------------------------------

@pytest.mark.parametrize("code", ["en", "pt", "es", "it", "ru"])
def test_each_compiled_catalogue_matches_its_source(code: str) -> None:
    """The .mo files are committed beside their .po (as translations/en was): rebuild them with
    ``pybabel compile -d translations`` after editing a .po."""
    folder = ROOT / "translations" / code / "LC_MESSAGES"
    with open(folder / "messages.po", "rb") as po_file:
        source = read_po(po_file, locale=code)
    rebuilt = io.BytesIO()
    write_mo(rebuilt, source)  # what ``pybabel compile`` writes (fuzzy entries left out)
    assert (folder / "messages.mo").read_bytes() == rebuilt.getvalue(), (
        f"translations/{code}/LC_MESSAGES/messages.mo is stale: run pybabel compile -d translations")


def test_a_printed_sheet_is_printed_anew_for_another_currency_or_letters(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cached PDF's key names the language, the currency and the cards' letters."""
    from trainer.engine.house_way import load, preset_names
    from trainer.engine.profiles import DEFAULT_PROFILE
    from trainer.web.platform.sheets import PAPER_SIZES, sheet_pdf_key

    way, paper = load(preset_names()[0]), next(iter(PAPER_SIZES))
    keys = []
    for values in ({}, {"currency": "EUR"}, {"card_letters": "local"}):
        _set_installation(app, **values)
        with app.test_request_context():
            keys.append(repr(sorted(sheet_pdf_key(way, paper, profile=DEFAULT_PROFILE,
                                                  language="en", zone="UTC").items())))
    assert len(set(keys)) == 3
