"""Issue 26, words and numbers: every time, percentage and amount on the trainee's and the
supervisor's pages is written with the reader's decimal mark ("2,3 s", "67 %", "47,50 US$"
in Portuguese; "2.3 s" in English), and each language's settlement and round buttons are
answered by the initials of their own words, all different ("Ganha G · Empate E · Perde P",
never "Ganha W · Empate P · Perde L").
"""
from __future__ import annotations

import html
import re
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from trainer.extensions import db
from trainer.models import Attempt, Role
from trainer.services import accounts
from web.helpers import login, post_form
from web.test_drills import fetch_question, issued, send_answer, start

LANGUAGES = ("en", "pt", "es", "it", "ru")
DECIMAL = {"en": ".", "pt": ",", "es": ",", "it": ",", "ru": ","}
SPACE = "[ \u00a0\u202f]"
# A number with a decimal part (one or two figures: a thousands group has three) next to
# its unit: seconds ("2,3 s", "2,3 с"), a percentage, or an amount with its currency sign.
UNIT_AFTER = re.compile(rf"(\d[.,]\d{{1,2}})(?!\d){SPACE}?(?:s|с|%|US\$|\$)(?![\w])")
SIGN_BEFORE = re.compile(rf"(?:US\$|R\$|\$){SPACE}?[\d.,{SPACE[1:-1]}]*?(\d[.,]\d{{1,2}})(?!\d)")


# A bare figure in a table's number column or a fact ("Time (s)": 2,3).
CELL = re.compile(r'<(?:td class="num[^"]*"|dd)>\s*(\d+[.,]\d{1,2})\s*<')



def probe_json(kind: str, question: dict[str, Any]) -> dict[str, Any]:
    """Return the kind's probe answer to a stored question, as the browser sends it (JSON)."""
    from trainer.engine.drills import DRILLS

    drill = DRILLS[kind]
    typed = drill.read_question({k: v for k, v in question.items() if k != "context"})
    answer: dict[str, Any] = drill.answer_json(drill.probe(typed))
    return answer

def text_of(page: str) -> str:
    """A page's words as read: tags, scripts and attributes dropped, entities read."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def marks(page: str) -> set[str]:
    """The decimal marks of the page's times, percentages and amounts."""
    words = text_of(page)
    return {m[-3] if m[-3] in ".," else m[-2] for m in
            UNIT_AFTER.findall(words) + SIGN_BEFORE.findall(words) + CELL.findall(page)}


def _set_language(app: Flask, user_id: int, lang: str) -> None:
    with app.app_context():
        accounts.set_language(user_id, lang)
        db.session.commit()


def _play(app: Flask, client: FlaskClient, kind: str, answers: int) -> tuple[int, list[str]]:
    """Answer ``answers`` questions of a timed session with the engine's probe answer; return
    the session's id and each feedback's HTML."""

    session_id = start(client, kind, mode="practice")
    feedback = []
    for position in range(1, answers + 1):
        assert fetch_question(client, session_id).status_code == 200
        question, _context = issued(app, session_id, position)
        reply = send_answer(client, session_id, position, probe_json(kind, question))
        assert reply.status_code == 200, reply.get_data(as_text=True)
        feedback.append(reply.get_json()["html"])
    return session_id, feedback


@pytest.mark.parametrize("lang", LANGUAGES)
def test_times_percentages_and_money_use_the_reader_s_decimal_mark(
        app: Flask, client: FlaskClient, make_user: Any, supervisor: Any, group: int,
        lang: str) -> None:
    trainee = make_user(Role.TRAINEE, login="reader", group_id=group)
    _set_language(app, trainee.id, lang)
    _set_language(app, supervisor.id, lang)
    login(client, trainee)
    session_id, feedback = _play(app, client, "settlement", 3)
    with app.app_context():  # answers that took 2.25 s, 3.5 s, 4.75 s: times with decimals
        ids = db.session.execute(db.select(Attempt.id).filter_by(session_id=session_id)
                                 .order_by(Attempt.position)).scalars().all()
        for attempt, ms in zip(ids, (2_250, 3_500, 4_750), strict=True):
            # A test's own fixture: the record is append-only for the app, not for its tests.
            db.session.execute(sa.update(Attempt).where(Attempt.id == attempt).values(
                elapsed_ms=ms, correct=attempt != ids[0]))
        attempt_id = ids[0]
        db.session.commit()
    pages = {f"feedback {n}": page for n, page in enumerate(feedback, start=1)}
    for path in ("/", "/results", f"/results/{attempt_id}", f"/drills/sessions/{session_id}/summary"):
        response = client.get(path)
        assert response.status_code == 200, path
        pages[path] = response.get_data(as_text=True)
    post_form(client, "/auth/logout")
    login(client, supervisor)
    for path in (f"/supervisor/groups/{group}", f"/supervisor/groups/{group}?drill=settlement",
                 f"/supervisor/trainees/{trainee.id}", f"/supervisor/trainees/{trainee.id}/report",
                 f"/supervisor/attempts/{attempt_id}/replay"):
        response = client.get(path)
        assert response.status_code == 200, path
        pages[path] = response.get_data(as_text=True)

    seen = set()
    wrong = {}
    for name, page in pages.items():
        found = marks(page)
        seen |= found
        if found - {DECIMAL[lang]}:
            words = text_of(page)
            wrong[name] = sorted({m.group(0) for p in (UNIT_AFTER, SIGN_BEFORE) for m in p.finditer(words)
                                  if DECIMAL[lang] not in m.group(0)}
                                 | {c for c in CELL.findall(page) if DECIMAL[lang] not in c})[:6]
    assert wrong == {}, f"{lang}: figures with the wrong decimal mark: {wrong}"
    assert seen == {DECIMAL[lang]}, f"no decimal figure found on the pages in {lang}: {seen}"


def initial(word: str) -> str:
    """A word's first letter, lower-cased."""
    return next((c.lower() for c in word if c.isalpha()), "")


BUTTON = re.compile(r'data-key="([^"]*)"><span>([^<]*?) <kbd aria-hidden="true">([^<]*)</kbd>')


@pytest.mark.parametrize("lang", LANGUAGES)
def test_settlement_keys_are_the_initials_of_the_language_s_own_words(
        app: Flask, client: FlaskClient, trainee: Any, lang: str) -> None:
    _set_language(app, trainee.id, lang)
    login(client, trainee)
    session_id = start(client, "settlement", mode="practice")
    page = fetch_question(client, session_id).get_json()["html"]
    seat = page.split("<fieldset", 2)[1]  # the first seat's three buttons
    buttons = BUTTON.findall(html.unescape(seat))
    assert len(buttons) == 3, seat
    keys = [key for key, _word, _shown in buttons]
    for key, word, shown in buttons:
        assert key == initial(word), f"{lang}: {word!r} is answered by {key!r}, not its initial"
        assert shown == key.upper(), f"{lang}: the button shows {shown!r} for key {key!r}"
    assert len(set(keys)) == 3, f"{lang}: the settlement keys repeat: {buttons}"
    if lang != "en":  # the language's own words, not English ones (a missing translation)
        assert [w for _k, w, _s in buttons] != ["Win", "Push", "Lose"] or \
            keys == ["w", "p", "l"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_round_keys_are_the_initials_of_take_and_pay_in_the_language(
        app: Flask, client: FlaskClient, trainee: Any, lang: str) -> None:

    _set_language(app, trainee.id, lang)
    login(client, trainee)
    session_id = start(client, "round", mode="practice")
    for position in (1, 2):  # the action and the banker's hand
        fetch_question(client, session_id)
        question, _context = issued(app, session_id, position)
        assert send_answer(client, session_id, position, probe_json("round", question)).status_code == 200
    page = html.unescape(fetch_question(client, session_id).get_json()["html"])
    take = re.search(r'data-take="\d+">([^<]*?) <kbd aria-hidden="true">([^<]*)</kbd>', page)
    pay = re.search(r'data-pay="\d+">([^<]*?) <kbd aria-hidden="true">([^<]*)</kbd>', page)
    assert take and pay, page
    keys = re.search(r'data-key-take="([^"]*)" data-key-pay="([^"]*)"', page)
    assert keys and keys.groups() == (initial(take.group(1)), initial(pay.group(1)))
    assert take.group(2) == keys.group(1).upper() and pay.group(2) == keys.group(2).upper()
    assert keys.group(1) != keys.group(2)
    prompt = text_of(page.split('<p class="prompt">', 1)[1].split("</p>", 1)[0])
    for key in keys.groups():  # the prompt names the same letters as the buttons
        assert re.search(rf"(?<!\w){re.escape(key.upper())}(?!\w)", prompt), (key, prompt)


KEYED = re.compile(r'data-key="([^"]*)"[^>]*>(?:<span>)?([^<]*?) <kbd aria-hidden="true">([^<]*)</kbd>')


def _keyed_buttons(page: str) -> list[tuple[str, str, str]]:
    """The (key, word, letter shown) of each button or choice answered by a letter."""
    return [(k, w.strip(), s) for k, w, s in KEYED.findall(html.unescape(page))]


def _questions(app: Flask, client: FlaskClient, kind: str, wanted: int) -> list[str]:
    """The question pages of a practice session, answered with the probe answer, until
    ``wanted`` different modes (hand reading: naming and comparing) have been seen."""

    session_id = start(client, kind, mode="practice")
    pages: dict[str, str] = {}
    for position in range(1, 41):
        page = fetch_question(client, session_id).get_json()["html"]
        question, _context = issued(app, session_id, position)
        pages.setdefault(str(question.get("mode")), page)
        if len(pages) == wanted:
            break
        assert send_answer(client, session_id, position, probe_json(kind, question)).status_code == 200
    assert len(pages) == wanted, f"{kind}: modes seen {sorted(pages)}"
    return list(pages.values())


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", ["foul-check", "bonus", "hand-reading"])
def test_every_drill_s_keys_are_letters_of_the_language_s_own_words_and_distinct(
        app: Flask, client: FlaskClient, trainee: Any, kind: str, lang: str) -> None:
    """Legal / fouled, yes / no (the Envy cue), a copy and the hand names are answered by
    their own words' initials in the reader's language ("Válida V · Inválida I", "Sim S ·
    Não N", "Да Д · Нет Н"), shown on the buttons and in the prompt, never two alike."""
    _set_language(app, trainee.id, lang)
    login(client, trainee)
    for page in _questions(app, client, kind, 2 if kind == "hand-reading" else 1):
        buttons = _keyed_buttons(page)
        assert len(buttons) >= 2, page
        keys = [key for key, _word, _shown in buttons]
        assert len(set(keys)) == len(keys), f"{lang} {kind}: keys repeat: {buttons}"
        for key, word, shown in buttons:
            assert key and shown == key.upper(), f"{lang} {kind}: {word!r} shows {shown!r} for {key!r}"
            assert key in word.lower(), f"{lang} {kind}: {word!r} is answered by {key!r}, not its own letter"
        if kind == "hand-reading" and len(buttons) > 3:
            continue  # the category names: each its first letter no name before it took
        # Legal / fouled, yes / no and a copy: their own initials (A and B name the hands).
        initials = {w: k for k, w, _s in buttons if w not in {"A wins", "B wins"} and
                    not re.search(r"(?<!\w)[AB](?!\w)", w)}
        assert initials and all(k == initial(w) for w, k in initials.items()), \
            f"{lang} {kind}: not the words' initials: {buttons}"
        prompt = text_of(page.split('class="prompt">', 1)[1].split("</p>", 1)[0]) if kind != "bonus" \
            else text_of(page.split('<legend class="seat-label">', 1)[1].split("</legend>", 1)[0])
        for key in initials.values():  # the prompt names the same letters as the buttons
            assert re.search(rf"(?<!\w){re.escape(key.upper())}(?!\w)", prompt), (lang, kind, key, prompt)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_group_settings_decimals_are_shown_and_read_in_the_reader_s_format(
        app: Flask, client: FlaskClient, supervisor: Any, group: int, lang: str) -> None:
    """The criteria's accuracy and median time: "97,5" and "8" in Portuguese (never "98.0"),
    typed back the same way; the other decimal mark is refused in words and nothing saved."""
    from trainer.models import Group
    from trainer.services.group_settings import GroupSettings

    _set_language(app, supervisor.id, lang)
    login(client, supervisor)
    mark, other = DECIMAL[lang], "," if DECIMAL[lang] == "." else "."
    form = {"name": "Day shift", "house_way": "foxwoods", "profile": "nevada",
            "certify-house-way": "y", "accuracy-house-way": f"97{mark}5", "window-house-way": "60",
            "median-house-way": "8", "certify-settlement": "y", "accuracy-settlement": "98",
            "window-settlement": "40", "median-settlement": f"6{mark}5"}
    path = f"/supervisor/groups/{group}/edit"
    assert post_form(client, path, form).status_code == 302

    def saved() -> dict[str, tuple[float, float | None]]:
        with app.app_context():
            row = db.session.get(Group, group)
            assert row is not None
            return {c.kind: (c.min_accuracy, c.max_median_s)
                    for c in GroupSettings.of(row).certification_criteria}

    assert saved() == {"house-way": (97.5, 8.0), "settlement": (98.0, 6.5)}
    page = client.get(path).get_data(as_text=True)
    values = {name: value for name, value in
              re.findall(r'<input[^>]*name="((?:accuracy|median)-[\w-]+)"[^>]*value="([^"]*)"', page)
              if name.endswith(("-house-way", "-settlement"))}
    assert values == {"accuracy-house-way": f"97{mark}5", "median-house-way": "8",
                      "accuracy-settlement": "98", "median-settlement": f"6{mark}5"}, values
    assert not re.search(r'name="(?:accuracy|median)-[\w-]+"[^>]*type="number"', page)
    refused = post_form(client, path, form | {"accuracy-house-way": f"96{other}5"})
    assert refused.status_code == 200
    errors = re.findall(r'<p class="error">([^<]*)</p>', refused.get_data(as_text=True))
    assert len(errors) == 1 and f"97{mark}5" in html.unescape(errors[0]), errors
    assert saved() == {"house-way": (97.5, 8.0), "settlement": (98.0, 6.5)}  # nothing changed


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_player_s_chips_show_a_bare_number_and_the_sign_once_above_them(
        app: Flask, client: FlaskClient, trainee: Any, lang: str) -> None:
    """A chip is 3.6 rem wide: "US$ 25" on it overlaps the next one (issue 26, pt). Each
    chip shows its number ("1", "5", "25", "100"), the currency sign once above the rack;
    a screen reader still hears the whole amount."""
    _set_language(app, trainee.id, lang)
    login(client, trainee)
    page = client.get("/play/").get_data(as_text=True)
    chips = re.findall(r'<button type="button" class="chip chip-(\d+)"[^>]*data-face="([^"]*)"[^>]*>'
                       r'<span class="visually-hidden">([^<]*)</span>'
                       r'<span class="chip-face[^"]*" aria-hidden="true">([^<]*)</span>', page)
    assert [(int(v), face) for v, face, _heard, _shown in chips] == \
        [(100, "1"), (500, "5"), (2500, "25"), (10_000, "100")], chips
    for _value, face, heard, shown in chips:
        assert shown == face and face in html.unescape(heard) and re.search(r"\$|USD", html.unescape(heard))
        assert not re.search(r"\$|USD", face)
    sign = re.search(r'<span class="chips-sign" id="chips-sign">([^<]*)</span>', page)
    assert sign and re.search(r"\$|USD", html.unescape(sign.group(1))), sign


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_exam_page_writes_its_criterion_in_the_reader_s_format(
        app: Flask, supervisor: Any, trainee: Any, group: int, lang: str) -> None:
    """The exam page's "at least 97,5% right, median time at most 7,5 s" in Portuguese."""
    from trainer.models import CertificationExam, Group

    with app.app_context():
        row = db.session.get(Group, group)
        assert row is not None
        row.settings = {"certification": {"criteria": [
            {"kind": "house-way", "min_accuracy": 97.5, "window": 3, "max_median_s": 7.5,
             "exam_length": 2, "exam_time_limit_s": 120}]}}
        db.session.commit()
    _set_language(app, trainee.id, lang)
    staff, dealer = app.test_client(), app.test_client()
    login(staff, supervisor)
    login(dealer, trainee)
    scheduled = post_form(staff, f"/supervisor/trainees/{trainee.id}/exams", {"kind": "house-way"})
    assert scheduled.status_code == 302
    with app.app_context():
        exam_id = db.session.execute(db.select(CertificationExam.id)).scalar_one()
    page = dealer.get(f"/exams/{exam_id}").get_data(as_text=True)
    words = text_of(page)
    assert f"97{DECIMAL[lang]}5" in words and f"7{DECIMAL[lang]}5" in words, words[-600:]
    assert marks(page) == {DECIMAL[lang]}, marks(page)
