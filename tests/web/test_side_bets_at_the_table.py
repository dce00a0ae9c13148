"""Side bets on the site: the settlement and round drills and the player's game, per profile.

Every shipped side bet (Fortune with Envy, Emperor's Treasure, the progressive, Queen's
Dragon) is reached through its named profile and settled; the expected payments are
worked out here from the pay tables' data, not by the drills.
"""
from __future__ import annotations

import re
from html import unescape
from types import SimpleNamespace
from typing import Any

import pytest
from engine.json_edge import JsonDrill
from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.cards import parse_cards
from trainer.engine.drills import DrillContext
from trainer.engine.drills.kinds import round as round_kind
from trainer.engine.drills.kinds import settlement
from trainer.engine.drills.kinds.round import DEALER_SEAT
from trainer.engine.game import PRACTICE_METER_CENTS, deal_hand
from trainer.engine.hands import is_queen_high_pai_gow
from trainer.engine.side_bets import bonus_category, load_table
from trainer.models import Role
from trainer.services import drills as drill_service
from trainer.services import table as game_table
from trainer.services.drills import sessions
from web.helpers import login
from web.test_drills import attempts, fetch_question, issued, send_answer, start
from web.test_play import balance, send, state

PROFILES = {"nevada-fortune": "fortune-standard", "nevada-emperors": "emperors-treasure",
            "nevada-progressive": "progressive", "ez": "queens-dragon"}


def text(html: str) -> str:
    """Return what a page shows: the text without tags, spaces squeezed."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def dollars(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"


def seven(p: dict[str, Any]) -> list[int]:
    return list(parse_cards(p["back"] + p["front"], 7))


def pay_of(table: Any, category: Any, bet: int, meter: int | None) -> int:
    line = table.line_for(category)
    if line is None:
        return 0
    if line.odds is not None:
        return line.odds * bet
    return line.amount_cents if line.amount_cents is not None else meter * line.meter_percent // 100


def expected(side: dict[str, Any], seats: list[dict[str, Any]], banker: list[int],
             envy_hands: list[list[int]]) -> dict[int, dict[str, Any]]:
    """Each betting seat's side-bet pay (and envy) and pay line, from the tables' data."""
    table = load_table(side["table"])
    out: dict[int, dict[str, Any]] = {}
    for p in seats:
        bet = p.get("bonus_cents") or 0
        if not bet:
            continue
        if side["table"] == "queens-dragon":
            queen = is_queen_high_pai_gow(banker)
            entry: dict[str, Any] = {"bonus_paid_cents": 50 * bet if queen else 0,
                                     "rule": "bonus.queens-dragon."
                                             + ("queen-high-pai-gow" if queen else "nothing")}
        else:
            category = bonus_category(seven(p), table.match)
            paid = pay_of(table, category, bet, side.get("meter_cents"))
            entry = {"bonus_paid_cents": paid,
                     "rule": f"bonus.{side['table']}.{category.slug if paid else 'nothing'}"}
        if side.get("envy"):
            envy = load_table(side["envy"])
            entry["envy_paid_cents"] = 0 if bet < 500 else sum(
                pay_of(envy, bonus_category(h, envy.match), bet, None)
                for h in envy_hands if set(h) != set(seven(p)))
        out[p["seat"]] = entry
    return out


def fields(entry: dict[str, Any]) -> dict[str, int]:
    return {k: v for k, v in entry.items() if k != "rule"}


def signed_in_with(client: FlaskClient, make_user: Any, make_group: Any, supervisor: Any,
                   profile: str) -> Any:
    group_id = make_group(supervisor.id, name=f"Group {profile}", profile=profile)
    user = make_user(Role.TRAINEE, group_id=group_id)
    login(client, user)
    return user


def fix_seed(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Make the next questions deal from ``seed`` (the service draws it with secrets)."""
    monkeypatch.setattr(sessions, "secrets", SimpleNamespace(randbits=lambda bits: seed))


def settlement_seed(profile: str, want_envy: bool) -> int:
    ctx = DrillContext(profile=profile)
    for seed in range(500):
        q = JsonDrill(settlement.SLUG).question(seed, ctx)
        banker = list(parse_cards(q["banker"]["back"] + q["banker"]["front"], 7))
        exp = expected(q["side_bet"], q["positions"], banker, [seven(p) for p in q["positions"]])
        if any(e["bonus_paid_cents"] for e in exp.values()) and (
                not want_envy or any(e.get("envy_paid_cents") for e in exp.values())):
            return seed
    raise AssertionError("no seed")


def settlement_answer(app: Flask, session_id: int) -> tuple[dict, dict]:
    question, context = issued(app, session_id)
    banker = list(parse_cards(question["banker"]["back"] + question["banker"]["front"], 7))
    exp = expected(question["side_bet"], question["positions"], banker,
                   [seven(p) for p in question["positions"]])
    key = drill_service.answer_key(question, context)
    positions = []
    for p, k in zip(question["positions"], key["positions"], strict=True):
        entry = {"outcome": k["outcome"]}
        if k["outcome"] == "win":
            entry["paid_cents"] = k["paid_cents"]
        entry.update(fields(exp.get(p["seat"], {})))
        positions.append(entry)
    return {"positions": positions}, exp


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_the_settlement_drill_pays_each_side_bet_through_its_profile(
        app: Flask, client: FlaskClient, make_user: Any, make_group: Any, supervisor: Any,
        monkeypatch: pytest.MonkeyPatch, profile: str) -> None:
    signed_in_with(client, make_user, make_group, supervisor, profile)
    fix_seed(monkeypatch, settlement_seed(profile, profile == "nevada-fortune"))
    session_id = start(client, "settlement")
    shown = fetch_question(client, session_id).get_json()
    assert text(load_table(PROFILES[profile]).title) in text(shown["html"])
    assert "data-bonus-paid" in shown["html"]
    answer, exp = settlement_answer(app, session_id)
    data = send_answer(client, session_id, 1, answer).get_json()
    assert data["correct"] is True, data
    side = {(p["seat"], p["part"]): p for p in data["parts"] if p.get("part")}
    assert {s: side[(s, "bonus")]["rule_id"] for s in exp} == {s: e["rule"] for s, e in exp.items()}
    if profile == "nevada-fortune":
        assert any(side[(s, "envy")]["paid_cents"] for s in exp)
    [attempt] = attempts(app, session_id)
    assert attempt.correct and attempt.answer["positions"] == answer["positions"]


def test_a_wrong_bonus_is_wrong_in_its_part_and_said_in_words(
        app: Flask, client: FlaskClient, make_user: Any, make_group: Any, supervisor: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    signed_in_with(client, make_user, make_group, supervisor, "nevada-fortune")
    fix_seed(monkeypatch, settlement_seed("nevada-fortune", False))
    session_id = start(client, "settlement")
    fetch_question(client, session_id)
    answer, exp = settlement_answer(app, session_id)
    question, _ctx = issued(app, session_id)
    seat = next(s for s, e in exp.items() if e["bonus_paid_cents"])
    at = [p["seat"] for p in question["positions"]].index(seat)
    answer["positions"][at]["bonus_paid_cents"] += 500
    data = send_answer(client, session_id, 1, answer).get_json()
    assert data["correct"] is False and data["rule_id"] == exp[seat]["rule"]
    line = load_table("fortune-standard").line_by_slug(exp[seat]["rule"].rsplit(".", 1)[1])
    shown = text(data["html"])
    words = f"Seat {seat}: {line.name.lower()} pays {line.pays}: {dollars(exp[seat]['bonus_paid_cents'])}"
    assert words in shown
    # Words, not rule ids, on the page (ids only in title= tooltips).
    assert exp[seat]["rule"] not in shown and "Bonus envy nothing" not in shown
    assert "Fortune bonus (standard table): " + line.name.lower() in shown


def test_a_side_bet_answer_of_the_wrong_shape_is_refused_and_nothing_recorded(
        app: Flask, client: FlaskClient, make_user: Any, make_group: Any, supervisor: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    signed_in_with(client, make_user, make_group, supervisor, "nevada-fortune")
    fix_seed(monkeypatch, settlement_seed("nevada-fortune", False))
    session_id = start(client, "settlement", mode="practice")
    fetch_question(client, session_id)
    answer, exp = settlement_answer(app, session_id)
    question, _ctx = issued(app, session_id)
    seat = next(iter(exp))
    at = [p["seat"] for p in question["positions"]].index(seat)
    missing = {"positions": [dict(p) for p in answer["positions"]]}
    del missing["positions"][at]["bonus_paid_cents"]
    floated = {"positions": [dict(p) for p in answer["positions"]]}
    floated["positions"][at]["bonus_paid_cents"] = 12.5
    for bad, said in ((missing, f"Seat {seat}: enter what the bonus bet is paid"),
                      (floated, f"Seat {seat}: enter what the bonus bet is paid")):
        reply = send_answer(client, session_id, 1, bad)
        assert reply.status_code == 400
        assert said in reply.get_json()["message"]
    assert attempts(app, session_id) == []


def test_profiles_without_side_bets_show_no_side_bet_columns(
        app: Flask, client: FlaskClient, make_user: Any, make_group: Any, supervisor: Any) -> None:
    signed_in_with(client, make_user, make_group, supervisor, "nevada")
    session_id = start(client, "settlement")
    shown = fetch_question(client, session_id).get_json()["html"]
    assert "data-bonus-paid" not in shown and "Side bet" not in shown
    question, _ctx = issued(app, session_id)
    reply = send_answer(client, session_id, 1, {"positions": [
        {"outcome": "lose", "bonus_paid_cents": 0} for _ in question["positions"]]})
    assert reply.status_code == 400 and "does not take" in reply.get_json()["message"]


# --- the round drill ------------------------------------------------------------------


def round_seed(profile: str, want_envy: bool) -> int:
    ctx = DrillContext(profile=profile)
    drill = JsonDrill(round_kind.SLUG)
    for seed in range(500):
        q = drill.at_step(drill.question(seed, ctx), 2, ctx)
        exp = round_expected(q)
        if any(e["bonus_paid_cents"] for e in exp.values()) and (
                not want_envy or any(e.get("envy_paid_cents") for e in exp.values())):
            return seed
    raise AssertionError("no seed")


def round_expected(q: dict[str, Any]) -> dict[int, dict[str, Any]]:
    banker = list(parse_cards(q["banker"]["back"] + q["banker"]["front"], 7))
    betting = [p for p in q["players"] if p["seat"] != DEALER_SEAT]
    hands = [seven(p) for p in betting] + ([banker] if q["banker_seat"] != DEALER_SEAT else [])
    return expected(q["side_bet"], betting, banker, hands)


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_the_round_drill_settles_each_side_bet_through_its_profile(
        app: Flask, client: FlaskClient, make_user: Any, make_group: Any, supervisor: Any,
        monkeypatch: pytest.MonkeyPatch, profile: str) -> None:
    signed_in_with(client, make_user, make_group, supervisor, profile)
    fix_seed(monkeypatch, round_seed(profile, profile == "nevada-fortune"))
    session_id = start(client, "round", mode="practice")
    for position in (1, 2):
        fetch_question(client, session_id)
        question, context = issued(app, session_id, position)
        key = drill_service.answer_key(question, context)
        answer = {"seat": key["seat"]} if position == 1 else {"front": key["front"]}
        assert send_answer(client, session_id, position, answer).get_json()["correct"]
    shown = fetch_question(client, session_id).get_json()
    assert "data-bonus-paid" in shown["html"]
    question, context = issued(app, session_id, 3)
    exp = round_expected(question)
    key = drill_service.answer_key(question, context)
    answer: dict[str, Any] = {"order": key["order"],
                              "side": [{"seat": s, **fields(e)} for s, e in sorted(exp.items())]}
    if "banker_commission_cents" in key:
        answer["banker_commission_cents"] = key["banker_commission_cents"]
    wrong = {**answer, "side": [dict(e) for e in answer["side"]]}
    wrong["side"][0]["bonus_paid_cents"] += 100
    assert send_answer(client, session_id, 3, {**answer, "side": []}).status_code == 400
    data = send_answer(client, session_id, 3, answer).get_json()
    assert data["correct"] is True, data
    bonus = {p["seat"]: p["rule_id"] for p in data["parts"] if p.get("part") == "bonus"}
    assert bonus == {s: e["rule"] for s, e in exp.items()}
    if profile == "nevada-fortune":
        assert any(p["paid_cents"] for p in data["parts"] if p.get("part") == "envy")
    # The recorded attempt is drawn with its side bets, in words.
    [*_, attempt] = attempts(app, session_id)
    assert attempt.answer["side"] == answer["side"]
    page = client.get(f"/results/{attempt.id}")
    assert page.status_code == 200
    shown = text(page.get_data(as_text=True))
    first = min(exp)
    assert f"side bet paid {dollars(exp[first]['bonus_paid_cents'])}" in shown
    bets = {p["seat"]: p["bonus_cents"] for p in question["players"]}
    assert f"side bet {dollars(bets[first])}" in shown


# --- the player's game -----------------------------------------------------------------


def game_seed(profile: str) -> int:
    """A deal whose side bet wins under the profile's table (the banker's hand for the Dragon)."""
    table = load_table(PROFILES[profile])
    for seed in range(50_000):
        d = deal_hand(seed)
        if profile == "ez" and is_queen_high_pai_gow(d.banker):
            return seed
        if profile != "ez" and table.line_for(bonus_category(d.player, table.match)):
            return seed
    raise AssertionError("no seed")


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_the_players_game_settles_its_side_bet_through_each_profile(
        app: Flask, client: FlaskClient, make_user: Any, make_group: Any, supervisor: Any,
        monkeypatch: pytest.MonkeyPatch, profile: str) -> None:
    user = signed_in_with(client, make_user, make_group, supervisor, profile)
    table = load_table(PROFILES[profile])
    page = text(client.get("/play/").get_data(as_text=True))
    assert f"Side bet: {text(table.title).strip()}" in page
    assert "Side bet pay table" in page
    seed = game_seed(profile)
    monkeypatch.setattr(game_table, "new_seed", lambda: seed)
    bonus = 100 if profile == "nevada-progressive" else 500
    before = state(client)["balance_cents"]
    dealt = send(client, "/play/deal", {"bet_cents": 1000, "bonus_cents": bonus})
    assert dealt.status_code == 200, dealt.get_json()
    hand = state(client)["hand"]
    assert hand["bonus_cents"] == bonus
    reply = send(client, hand["house_way_url"]).get_json()
    d = deal_hand(seed)
    if profile == "ez":
        win, hand_words = 50 * bonus, "queen-high pai gow"
    else:
        category = bonus_category(d.player, table.match)
        win = pay_of(table, category, bonus, PRACTICE_METER_CENTS)
        hand_words = category.title
    # The progressive is paid "for 1": its $1, collected at the deal, is not returned.
    net = win - bonus if profile == "nevada-progressive" else win
    assert reply["bonus_net_cents"] == net and reply["bonus_rule"].startswith(f"bonus.{table.name}.")
    assert reply["balance_cents"] == before + reply["net_cents"] + net
    assert balance(app, user.id) == reply["balance_cents"]
    shown = text(reply["result_html"])
    assert hand_words in shown and dollars(win) in shown
    assert reply["bonus_rule"] not in shown
    if profile == "nevada-progressive":
        assert "for 1" in shown and "collected when the cards were dealt" in shown
        assert "the bet stays" not in shown


def test_the_players_game_offers_the_standard_fortune_bet_without_a_bonus_table(
        app: Flask, client: FlaskClient, make_user: Any, make_group: Any, supervisor: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    user = signed_in_with(client, make_user, make_group, supervisor, "nevada")
    assert state(client)["side_bet"]["table"] == "fortune-standard"
    monkeypatch.setattr(game_table, "new_seed", lambda: 7)
    before = state(client)["balance_cents"]
    assert send(client, "/play/deal", {"bet_cents": 1000, "bonus_cents": 2500}).status_code == 200
    reply = send(client, state(client)["hand"]["house_way_url"]).get_json()
    table = load_table("fortune-standard")
    win = pay_of(table, bonus_category(deal_hand(7).player, table.match), 2500, None)
    assert reply["bonus_net_cents"] == (win or -2500)
    assert balance(app, user.id) == before + reply["net_cents"] + reply["bonus_net_cents"]
    # Re-Bet repeats the side bet too.
    assert send(client, "/play/rebet").status_code == 200
    assert state(client)["hand"]["bonus_cents"] == 2500


@pytest.mark.parametrize("bonus,said", [(5000, "between"), (True, "side bet"), ("5", "side bet"),
                                        (150.0, "side bet")])
def test_a_bad_side_bet_is_refused_and_nothing_dealt(
        app: Flask, client: FlaskClient, make_user: Any, make_group: Any, supervisor: Any,
        bonus: Any, said: str) -> None:
    user = signed_in_with(client, make_user, make_group, supervisor, "nevada-fortune")
    reply = send(client, "/play/deal", {"bet_cents": 1000, "bonus_cents": bonus})
    assert reply.status_code == 400 and said in reply.get_json()["message"]
    assert state(client)["hand"] is None
    assert balance(app, user.id) in (None, 100_000)
