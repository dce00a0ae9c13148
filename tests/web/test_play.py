"""The player's game: the server deals, sets, settles and keeps the balance."""
from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.cards import parse_cards
from trainer.engine.game import STARTING_BALANCE_CENTS, deal_hand, play_hand
from trainer.engine.house_way import load
from trainer.engine.setting import is_foul
from trainer.engine.settlement import commission_cents
from trainer.extensions import db
from trainer.models import GameHand, PlayerGame
from trainer.services import table as play
from web.helpers import csrf_token, login, post_form, run_together

HOUSE_WAY = "trump-plaza"


# --- helpers -------------------------------------------------------------------


def send(client: FlaskClient, path: str, body: Any = None) -> Any:
    """POST JSON as play.js does, with the CSRF header."""
    token = csrf_token(client, "/play/")
    return client.post(path, json=body if body is not None else {}, headers={"X-CSRFToken": token})


def state(client: FlaskClient) -> dict[str, Any]:
    """Return the table's state as play.js reads it."""
    response = client.get("/play/state")
    assert response.status_code == 200
    return response.get_json()


def balance(app: Flask, user_id: int) -> int | None:
    """Return the balance of the user's current game, from the database."""
    with app.app_context():
        game = db.session.execute(
            db.select(PlayerGame).filter_by(user_id=user_id, ended_at=None)
        ).scalar_one_or_none()
        return None if game is None else game.balance_cents


def stored_hand(app: Flask, hand_id: int) -> GameHand:
    """Return a hand's row, detached, for reading."""
    with app.app_context():
        hand = db.session.get(GameHand, hand_id)
        db.session.expunge(hand)
        return hand


def fouled_front(cards: list[str]) -> list[str] | None:
    """Return a front that fouls the hand, if the seven have one."""
    seven = parse_cards(cards, 7)
    for front in combinations(seven, 2):
        back = [c for c in seven if c not in front]
        if is_foul(back, front):
            return [str(c) for c in front]
    return None


def legal_fronts(cards: list[str]) -> list[list[str]]:
    """Return every front that does not foul the hand."""
    seven = parse_cards(cards, 7)
    return [[str(c) for c in front] for front in combinations(seven, 2)
            if not is_foul([c for c in seven if c not in front], front)]


def seed_with(outcome: str, house_way: bool = True, start: int = 0) -> int:
    """Return a seed whose deal, set the house way, ends in ``outcome`` under nevada."""
    for seed in range(start, start + 20_000):
        result = play_hand(deal_hand(seed), None, 2000, "nevada", HOUSE_WAY)
        if result.settlement.outcome.value == outcome:
            return seed
    raise AssertionError(f"no seed for {outcome}")


@pytest.fixture
def player(client: FlaskClient, trainee: Any) -> Any:
    """Sign the trainee in and hand back the account."""
    login(client, trainee)
    return trainee


@pytest.fixture
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Return a setter that makes the next deals use chosen seeds."""
    seeds: list[int] = []

    def use(*chosen: int) -> None:
        seeds.extend(chosen)

    monkeypatch.setattr(play, "new_seed", lambda: seeds.pop(0))
    return use


# --- pages and access --------------------------------------------------------


def test_the_table_needs_a_login(client: FlaskClient) -> None:
    response = client.get("/play/")
    assert response.headers["Location"].startswith("/auth/login?next=")


def test_the_table_shows_limits_chips_and_buttons(client: FlaskClient, player: Any) -> None:
    page = client.get("/play/").get_data(as_text=True)
    for text in ("Deal", "Clear", "Re-Bet", "House Way", "Done", "New Game", 'id="bet-circle"',
                 "$2 to $100", 'data-chip="100"', 'data-chip="10000"', "js/play.js"):
        assert text in page, text
    data = state(client)
    assert data["balance_cents"] == STARTING_BALANCE_CENTS
    assert (data["min_bet_cents"], data["max_bet_cents"]) == (200, 10_000)
    assert data["chips"] == [100, 500, 2500, 10_000]
    assert data["hand"] is None


def test_any_signed_in_role_may_play(client: FlaskClient, supervisor: Any) -> None:
    login(client, supervisor)
    assert client.get("/play/").status_code == 200
    assert send(client, "/play/deal", {"bet_cents": 500}).status_code == 200


def test_the_group_profile_sets_the_limits(app: Flask, client: FlaskClient, player: Any, group: int) -> None:
    with app.app_context():
        from trainer.models import Group

        db.session.get(Group, group).profile = "california"
        db.session.commit()
    page = client.get("/play/").get_data(as_text=True)
    assert "Flat fee of $1.00 per hand" in page


# --- bets --------------------------------------------------------------------


@pytest.mark.parametrize("bet", [100, 199, 10_001, 50_000, 0, -500])
def test_a_bet_outside_the_limits_is_refused(app: Flask, client: FlaskClient, player: Any, bet: int) -> None:
    response = send(client, "/play/deal", {"bet_cents": bet})
    assert response.status_code == 400
    message = response.get_json()["message"]
    assert "between $2.00 and $100.00" in message or "more than zero" in message
    assert state(client)["hand"] is None
    assert balance(app, player.id) in (None, STARTING_BALANCE_CENTS)


@pytest.mark.parametrize("bet", ["500", 5.0, True, None, [500]])
def test_a_bet_that_is_not_whole_cents_is_refused(client: FlaskClient, player: Any, bet: Any) -> None:
    response = send(client, "/play/deal", {"bet_cents": bet})
    assert response.status_code == 400
    assert state(client)["hand"] is None


def test_a_bet_larger_than_the_balance_is_refused(app: Flask, client: FlaskClient, player: Any,
                                                  fixed_seed: Any) -> None:
    fixed_seed(seed_with("win"))
    assert send(client, "/play/deal", {"bet_cents": 1000}).status_code == 200
    hand_id = state(client)["hand"]["id"]
    assert send(client, f"/play/hands/{hand_id}/house-way").status_code == 200
    with app.app_context():
        game = db.session.execute(db.select(PlayerGame).filter_by(user_id=player.id)).scalar_one()
        game.balance_cents = 700
        db.session.commit()
    response = send(client, "/play/deal", {"bet_cents": 1000})
    assert response.status_code == 400
    assert response.get_json()["message"] == "The bet is more than your balance of $7.00."
    response = send(client, "/play/rebet")
    assert response.status_code == 400
    assert balance(app, player.id) == 700


def test_the_flat_fee_must_be_covered_too(app: Flask, client: FlaskClient, player: Any, group: int,
                                          fixed_seed: Any) -> None:
    with app.app_context():
        from trainer.models import Group

        db.session.get(Group, group).profile = "california"
        db.session.commit()
    fixed_seed(seed_with("push"))
    send(client, "/play/deal", {"bet_cents": 500})
    send(client, f"/play/hands/{state(client)['hand']['id']}/house-way")
    with app.app_context():
        game = db.session.execute(db.select(PlayerGame).filter_by(user_id=player.id)).scalar_one()
        game.balance_cents = 1000
        db.session.commit()
    response = send(client, "/play/deal", {"bet_cents": 1000})
    assert response.status_code == 400
    assert "with the $1.00 fee" in response.get_json()["message"]


def test_rebet_without_a_previous_bet_is_refused(app: Flask, client: FlaskClient, player: Any) -> None:
    response = send(client, "/play/rebet")
    assert response.status_code == 400
    assert response.get_json()["message"] == "There is no previous bet to repeat."
    assert state(client)["hand"] is None
    assert balance(app, player.id) is None


def test_rebet_deals_the_last_bet_again(client: FlaskClient, player: Any) -> None:
    send(client, "/play/deal", {"bet_cents": 2500})
    send(client, f"/play/hands/{state(client)['hand']['id']}/house-way")
    response = send(client, "/play/rebet")
    assert response.status_code == 200
    assert response.get_json()["hand"]["bet_cents"] == 2500


def test_one_hand_at_a_time(client: FlaskClient, player: Any) -> None:
    assert send(client, "/play/deal", {"bet_cents": 500}).status_code == 200
    response = send(client, "/play/deal", {"bet_cents": 500})
    assert response.status_code == 409
    assert response.get_json()["message"] == "Finish the hand on the table first."


# --- the deal and the setting ------------------------------------------------


def test_the_deal_shows_the_players_cards_and_never_the_bankers(app: Flask, client: FlaskClient,
                                                                player: Any) -> None:
    data = send(client, "/play/deal", {"bet_cents": 500}).get_json()
    hand = data["hand"]
    row = stored_hand(app, hand["id"])
    assert hand["cards"] == row.player_cards and len(hand["cards"]) == 7
    assert len(hand["splits"]) == 21
    for card in row.banker_cards:
        assert f'data-card="{card}"' not in hand["html"]
        assert card not in set(hand["cards"])
    # Reloading the page finds the same hand on the table.
    assert state(client)["hand"]["id"] == hand["id"]
    assert data["balance_cents"] == STARTING_BALANCE_CENTS


def test_done_with_a_fouled_setting_is_refused(app: Flask, client: FlaskClient, player: Any,
                                               fixed_seed: Any) -> None:
    seed = next(s for s in range(1000) if fouled_front([str(c) for c in deal_hand(s).player]))
    fixed_seed(seed)
    hand = send(client, "/play/deal", {"bet_cents": 500}).get_json()["hand"]
    front = fouled_front(hand["cards"])
    key = "-".join(str(i) for i in sorted(hand["cards"].index(c) for c in front))
    assert hand["splits"][key]["fouled"]
    response = send(client, f"/play/hands/{hand['id']}/done", {"front": front})
    assert response.status_code == 400
    message = response.get_json()["message"]
    assert message.startswith("Fouled: the front") and message == hand["splits"][key]["reason"]
    assert stored_hand(app, hand["id"]).state == "dealt"
    assert balance(app, player.id) == STARTING_BALANCE_CENTS


@pytest.mark.parametrize("front", [
    "As Kd", ["As"], ["As", "Kd", "Qh"], [1, 2], ["xx", "yy"], None,
])
def test_done_with_a_malformed_front_is_refused(app: Flask, client: FlaskClient, player: Any,
                                                front: Any) -> None:
    hand = send(client, "/play/deal", {"bet_cents": 500}).get_json()["hand"]
    response = send(client, f"/play/hands/{hand['id']}/done", {"front": front})
    assert response.status_code == 400
    assert stored_hand(app, hand["id"]).state == "dealt"


def test_done_with_cards_that_were_not_dealt_is_refused(app: Flask, client: FlaskClient, player: Any) -> None:
    hand = send(client, "/play/deal", {"bet_cents": 500}).get_json()["hand"]
    banker = stored_hand(app, hand["id"]).banker_cards
    response = send(client, f"/play/hands/{hand['id']}/done", {"front": banker[:2]})
    assert response.status_code == 400
    assert "is not one of your cards" in response.get_json()["message"]
    response = send(client, f"/play/hands/{hand['id']}/done", {"front": [hand["cards"][0]] * 2})
    assert response.status_code == 400
    assert "appears twice" in response.get_json()["message"]


def test_house_way_sets_the_hand_by_the_groups_house_way(app: Flask, client: FlaskClient, player: Any,
                                                         group: int) -> None:
    with app.app_context():
        from trainer.models import Group

        db.session.get(Group, group).house_way = "foxwoods"
        db.session.commit()
    hand = send(client, "/play/deal", {"bet_cents": 500}).get_json()["hand"]
    response = send(client, f"/play/hands/{hand['id']}/house-way")
    assert response.status_code == 200
    assert response.get_json()["followed_house_way"] is True
    row = stored_hand(app, hand["id"])
    way = load("foxwoods")
    expected = way.set(parse_cards(row.player_cards, 7))
    assert row.house_way == "foxwoods" and row.used_house_way
    assert row.player_front == [str(c) for c in expected.front]
    assert row.house_rule == expected.rule
    assert row.banker_front == [str(c) for c in way.set(parse_cards(row.banker_cards, 7)).front]


def test_a_hand_is_settled_once(app: Flask, client: FlaskClient, player: Any) -> None:
    hand = send(client, "/play/deal", {"bet_cents": 500}).get_json()["hand"]
    first = send(client, f"/play/hands/{hand['id']}/house-way")
    assert first.status_code == 200
    after = balance(app, player.id)
    again = send(client, f"/play/hands/{hand['id']}/done", {"front": legal_fronts(hand["cards"])[0]})
    assert again.status_code == 409
    assert send(client, f"/play/hands/{hand['id']}/house-way").status_code == 409
    assert balance(app, player.id) == after


def test_another_players_hand_is_404(app: Flask, client: FlaskClient, player: Any, make_user: Any) -> None:
    hand = send(client, "/play/deal", {"bet_cents": 500}).get_json()["hand"]
    other = make_user(login="other")
    other_client = app.test_client()
    login(other_client, other)
    assert send(other_client, f"/play/hands/{hand['id']}/house-way").status_code == 404
    done = send(other_client, f"/play/hands/{hand['id']}/done", {"front": hand["cards"][:2]})
    assert done.status_code == 404
    assert stored_hand(app, hand["id"]).state == "dealt"


def test_posts_need_the_csrf_token(client: FlaskClient, player: Any) -> None:
    assert client.post("/play/deal", json={"bet_cents": 500}).status_code == 400
    assert state(client)["hand"] is None


# --- settlement and the balance ---------------------------------------------


@pytest.mark.parametrize("outcome", ["win", "push", "lose"])
@pytest.mark.parametrize("bet", [500, 2000, 2500, 10_000])
def test_each_outcome_is_settled_with_the_right_commission(
    app: Flask, client: FlaskClient, player: Any, fixed_seed: Any, outcome: str, bet: int,
) -> None:
    seed = seed_with(outcome, start=bet)
    fixed_seed(seed)
    hand = send(client, "/play/deal", {"bet_cents": bet}).get_json()["hand"]
    assert balance(app, player.id) == STARTING_BALANCE_CENTS
    data = send(client, f"/play/hands/{hand['id']}/house-way").get_json()
    expected_commission = commission_cents(bet) if outcome == "win" else 0
    expected_net = {"win": bet - expected_commission, "push": 0, "lose": -bet}[outcome]
    assert data["outcome"] == outcome
    assert data["commission_cents"] == expected_commission
    assert data["net_cents"] == expected_net
    assert data["balance_cents"] == STARTING_BALANCE_CENTS + expected_net
    assert balance(app, player.id) == STARTING_BALANCE_CENTS + expected_net
    assert stored_hand(app, hand["id"]).balance_after_cents == STARTING_BALANCE_CENTS + expected_net


def test_a_25_dollar_win_pays_23_75(app: Flask, client: FlaskClient, player: Any, fixed_seed: Any) -> None:
    fixed_seed(seed_with("win"))
    hand = send(client, "/play/deal", {"bet_cents": 2500}).get_json()["hand"]
    data = send(client, f"/play/hands/{hand['id']}/house-way").get_json()
    assert (data["net_cents"], data["commission_cents"]) == (2375, 125)
    assert "+$23.75" in data["result_html"] and "commission $1.25" in data["result_html"]


def test_the_history_shows_both_settings_and_what_the_deviation_cost(
    app: Flask, client: FlaskClient, player: Any, fixed_seed: Any,
) -> None:
    # A hand where some legal setting other than the house way's loses money against it.
    for seed in range(2000):
        game = deal_hand(seed)
        hw = play_hand(game, None, 2000, "nevada", HOUSE_WAY)
        worse = [f for f in legal_fronts([str(c) for c in game.player])
                 if play_hand(game, f, 2000, "nevada", HOUSE_WAY).settlement.net_cents
                 < hw.settlement.net_cents]
        if worse:
            break
    fixed_seed(seed)
    hand = send(client, "/play/deal", {"bet_cents": 2000}).get_json()["hand"]
    data = send(client, f"/play/hands/{hand['id']}/done", {"front": worse[0]}).get_json()
    assert data["followed_house_way"] is False
    mine = play_hand(deal_hand(seed), worse[0], 2000, "nevada", HOUSE_WAY)
    assert data["net_cents"] == mine.settlement.net_cents
    assert data["house_net_cents"] == hw.settlement.net_cents
    assert "would have won" in data["result_html"]
    assert 'class="deviation"' in data["history_html"]
    history = client.get("/play/").get_data(as_text=True).split('id="history"', 1)[1]
    assert '<tr data-hand="1" class="deviation">' in history


def test_the_balance_changes_only_by_settled_hands(app: Flask, client: FlaskClient, player: Any) -> None:
    expected = STARTING_BALANCE_CENTS
    for bet in (200, 500, 10_000, 2500, 700):
        send(client, "/play/rebet")                       # refused or dealt: no money moves
        send(client, "/play/deal", {"bet_cents": 20_000})  # over the limit
        response = send(client, "/play/deal", {"bet_cents": bet})
        hand = state(client)["hand"] if response.status_code == 409 else response.get_json()["hand"]
        assert balance(app, player.id) == expected
        fouled = fouled_front(hand["cards"])
        if fouled:
            send(client, f"/play/hands/{hand['id']}/done", {"front": fouled})
            assert balance(app, player.id) == expected
        front = legal_fronts(hand["cards"])[0]
        data = send(client, f"/play/hands/{hand['id']}/done", {"front": front}).get_json()
        expected += data["net_cents"]
        assert balance(app, player.id) == expected == data["balance_cents"]
    with app.app_context():
        hands = db.session.execute(db.select(GameHand)).scalars().all()
        assert STARTING_BALANCE_CENTS + sum(h.net_cents for h in hands) == expected
        assert all(h.state == "settled" for h in hands)


def test_new_game_resets_the_balance_but_not_with_a_hand_on_the_table(
    app: Flask, client: FlaskClient, player: Any,
) -> None:
    hand = send(client, "/play/deal", {"bet_cents": 10_000}).get_json()["hand"]
    response = post_form(client, "/play/new")
    assert response.headers["Location"] == "/play/"
    assert state(client)["hand"]["id"] == hand["id"]
    send(client, f"/play/hands/{hand['id']}/house-way")
    post_form(client, "/play/new")
    data = state(client)
    assert data["balance_cents"] == STARTING_BALANCE_CENTS and data["last_bet_cents"] is None
    with app.app_context():
        games = db.session.execute(db.select(PlayerGame).order_by(PlayerGame.id)).scalars().all()
        assert len(games) == 2 and games[0].ended_at is not None and games[1].ended_at is None
    assert send(client, "/play/rebet").status_code == 400



def _deal_at_once(app: Flask, account: Any, count: int, path: str = "/play/deal") -> list[int]:
    """Send ``count`` Deal POSTs from ``count`` tabs released at the same moment."""
    tabs = [app.test_client() for _ in range(count)]
    for tab in tabs:
        login(tab, account)
    tokens = [csrf_token(tab, "/play/") for tab in tabs]
    return run_together([
        (lambda tab=tab, token=token: tab.post(path, json={"bet_cents": 500},
                                               headers={"X-CSRFToken": token}).status_code)
        for tab, token in zip(tabs, tokens, strict=True)
    ])


def _games_and_hands(app: Flask, user_id: int) -> tuple[int, int]:
    with app.app_context():
        games = db.session.execute(db.select(db.func.count(PlayerGame.id))
                                   .filter_by(user_id=user_id)).scalar()
        hands = db.session.execute(
            db.select(db.func.count(GameHand.id)).join(PlayerGame)
            .filter(PlayerGame.user_id == user_id)).scalar()
        return games, hands


def test_ten_deals_at_once_open_one_game_and_one_hand(app: Flask, trainee: Any) -> None:
    statuses = _deal_at_once(app, trainee, 10)
    assert sorted(statuses) == [200] + [409] * 9
    assert _games_and_hands(app, trainee.id) == (1, 1)
    assert balance(app, trainee.id) == STARTING_BALANCE_CENTS

