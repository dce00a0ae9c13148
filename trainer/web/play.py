"""The player's game: bet play chips, set seven cards or ask for the house way, settle.

A practice table for any signed-in user. The server deals, sets the banker's hand,
settles and keeps the balance; the browser sends only a bet, two front cards, or
"house way", and ``static/js/play.js`` shows what comes back.

Money: the balance changes only when a hand is settled, by the hand's net, in
the transaction that marks the hand settled. The bet is not taken at the deal;
instead a deal is refused unless the balance covers the worst loss (the bet and
any flat fee), and a game holds at most one open hand, so the balance can never
go below zero.
"""
from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required
from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response

from trainer.engine.cards import card_list, parse_cards
from trainer.engine.game import (
    CHIPS_CENTS,
    STARTING_BALANCE_CENTS,
    GameDeal,
    deal_hand,
    play_hand,
    same_value,
    setting_dict,
    split_table,
    verify_deal_bet,
)
from trainer.engine.profiles import get_profile
from trainer.extensions import db
from trainer.models import DEFAULT_HOUSE_WAY, DEFAULT_PROFILE, GameHand, PlayerGame, utcnow
from trainer.models.game import lock_player
from trainer.web.exam_lock import refuse_during_exam

bp = Blueprint("play", __name__, url_prefix="/play")
# The game sets hands the house way (the button, the history): closed during an exam.
bp.before_request(refuse_during_exam)

HISTORY_ROWS = 20


class PlayError(Exception):
    """A request the table refuses; ``status`` is the HTTP code to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def new_seed() -> int:
    """Draw the seed a hand is dealt from."""
    return secrets.randbits(63)


def _table_settings() -> tuple[str, str]:
    """Return the house way and table-rules profile of the signed-in user's group."""
    group = current_user.group
    if group is None:
        return DEFAULT_HOUSE_WAY, DEFAULT_PROFILE
    return group.house_way, group.profile


def _current_game() -> PlayerGame | None:
    return db.session.execute(
        db.select(PlayerGame)
        .filter_by(user_id=current_user.id, ended_at=None)
        .order_by(PlayerGame.id.desc())
        .limit(1)
    ).scalar_one_or_none()


def _new_game() -> PlayerGame:
    game = PlayerGame(user_id=current_user.id, balance_cents=STARTING_BALANCE_CENTS,
                      starting_cents=STARTING_BALANCE_CENTS, started_at=utcnow())
    db.session.add(game)
    db.session.flush()
    return game


def _open_hand(game: PlayerGame | None) -> GameHand | None:
    if game is None:
        return None
    return db.session.execute(
        db.select(GameHand).filter_by(game_id=game.id, state="dealt").limit(1)
    ).scalar_one_or_none()


def get_hand_or_404(hand_id: int) -> GameHand:
    """Return one of the signed-in user's hands, or 404 for anyone else's."""
    hand = db.session.get(GameHand, hand_id)
    if hand is None or hand.game.user_id != current_user.id:
        abort(404)
    return hand


def _error(error: PlayError) -> tuple[Response, int]:
    titles = {400: _("Not accepted"), 404: _("Not found"), 409: _("Not now")}
    return jsonify(error=titles.get(error.status, _("Not accepted")),
                   message=str(error)), error.status


def _limits(profile_name: str) -> dict[str, Any]:
    profile = get_profile(profile_name)
    return {"min_bet_cents": profile.min_bet_cents, "max_bet_cents": profile.max_bet_cents,
            "rules": profile.describe()}


def _hand_view(hand: GameHand) -> dict[str, Any]:
    """Return what the browser may see of a dealt hand: the player's cards, never the banker's."""
    wheel = get_profile(hand.profile).wheel
    seven = parse_cards(hand.player_cards, 7)
    return {
        "id": hand.id,
        "number": hand.number,
        "bet_cents": hand.bet_cents,
        "cards": hand.player_cards,
        "splits": split_table(seven, wheel),
        "done_url": url_for("play.done", hand_id=hand.id),
        "house_way_url": url_for("play.house_way", hand_id=hand.id),
        "html": render_template("play/_dealt.html", hand=hand),
    }


def _state(game: PlayerGame | None) -> dict[str, Any]:
    house_way, profile = _table_settings()
    hand = _open_hand(game)
    return {
        "balance_cents": game.balance_cents if game else STARTING_BALANCE_CENTS,
        "last_bet_cents": game.last_bet_cents if game else None,
        "chips": list(CHIPS_CENTS),
        "house_way": house_way,
        "profile": profile,
        **_limits(hand.profile if hand else profile),
        "hand": _hand_view(hand) if hand else None,
    }


def _deal(bet_cents: Any) -> GameHand:
    """Deal a hand for ``bet_cents`` in the current game (started on the first deal)."""
    lock_player(current_user.id)  # a double Deal opens one game and one hand
    game = _current_game() or _new_game()
    if _open_hand(game) is not None:
        raise PlayError(_("Finish the hand on the table first."), 409)
    house_way, profile = _table_settings()
    try:
        verify_deal_bet(bet_cents, game.balance_cents, profile)
    except ValueError as error:
        raise PlayError(str(error)) from error
    number = (db.session.execute(
        db.select(db.func.max(GameHand.number)).filter_by(game_id=game.id)
    ).scalar() or 0) + 1
    seed = new_seed()
    dealt = deal_hand(seed)
    hand = GameHand(game_id=game.id, number=number, seed=seed, house_way=house_way,
                    profile=profile, bet_cents=bet_cents, state="dealt",
                    player_cards=card_list(dealt.player),
                    banker_cards=card_list(dealt.banker), dealt_at=utcnow())
    game.last_bet_cents = bet_cents
    db.session.add(hand)
    try:
        db.session.commit()
    except IntegrityError:
        # Another tab dealt this hand first.
        db.session.rollback()
        raise PlayError(_("Finish the hand on the table first."), 409) from None
    return hand


def _settle(hand: GameHand, front: list[str] | None) -> GameHand:
    """Settle a dealt hand with the player's front (None: the house way) and pay the net.

    The hand is marked settled only if it is still dealt, and the balance moves in
    the same transaction, so a double submit cannot settle or pay twice.
    """
    if hand.state != "dealt":
        raise PlayError(_("This hand is already settled."), 409)
    game_deal = GameDeal(parse_cards(hand.player_cards, 7), parse_cards(hand.banker_cards, 7))
    try:
        result = play_hand(game_deal, front, hand.bet_cents, hand.profile, hand.house_way)
    except ValueError as error:
        raise PlayError(str(error)) from error
    s, h = result.settlement, result.house_settlement
    done = db.session.execute(
        update(GameHand)
        .where(GameHand.id == hand.id, GameHand.state == "dealt")
        .values(
            state="settled", used_house_way=front is None,
            player_back=card_list(result.player.back),
            player_front=card_list(result.player.front),
            house_back=card_list(result.house.back), house_front=card_list(result.house.front),
            house_rule=result.house.rule,
            banker_back=card_list(result.banker.back),
            banker_front=card_list(result.banker.front), banker_rule=result.banker.rule,
            outcome=s.outcome.value, commission_cents=s.commission_cents,
            net_cents=s.net_cents, house_outcome=h.outcome.value,
            house_net_cents=h.net_cents, settled_at=utcnow(),
        )
        .execution_options(synchronize_session=False)
    )
    if done.rowcount != 1:
        db.session.rollback()
        raise PlayError(_("This hand is already settled."), 409)
    db.session.execute(
        update(PlayerGame)
        .where(PlayerGame.id == hand.game_id)
        .values(balance_cents=PlayerGame.balance_cents + s.net_cents)
        .execution_options(synchronize_session=False)
    )
    balance = db.session.execute(
        db.select(PlayerGame.balance_cents).filter_by(id=hand.game_id)
    ).scalar_one()
    db.session.execute(
        update(GameHand).where(GameHand.id == hand.id).values(balance_after_cents=balance)
        .execution_options(synchronize_session=False)
    )
    db.session.commit()
    db.session.refresh(hand)
    return hand


def history_row(hand: GameHand) -> dict[str, Any]:
    """Describe a settled hand for the history: both settings, both results, the cost."""
    wheel = get_profile(hand.profile).wheel
    player = setting_dict(parse_cards(hand.player_back, 5), parse_cards(hand.player_front, 2),
                          wheel)
    house = setting_dict(parse_cards(hand.house_back, 5), parse_cards(hand.house_front, 2),
                         wheel)
    banker = setting_dict(parse_cards(hand.banker_back, 5), parse_cards(hand.banker_front, 2),
                          wheel)
    followed = same_value(parse_cards(hand.player_back), parse_cards(hand.player_front),
                          parse_cards(hand.house_back), parse_cards(hand.house_front), wheel)
    return {"hand": hand, "player": player, "house": house, "banker": banker,
            "followed": followed, "cost_cents": hand.house_net_cents - hand.net_cents}


def _history(game: PlayerGame | None) -> list[dict[str, Any]]:
    if game is None:
        return []
    hands = db.session.execute(
        db.select(GameHand).filter_by(game_id=game.id, state="settled")
        .order_by(GameHand.number.desc()).limit(HISTORY_ROWS)
    ).scalars()
    return [history_row(hand) for hand in hands]


def _payload() -> dict[str, Any]:
    payload = request.get_json(silent=True)
    if not isinstance(payload, dict):
        raise PlayError(_("Send the request as JSON."))
    return payload


@bp.route("/")
@login_required
def table() -> str:
    """Show the table: balance, chips, bet circle, the cards and the history."""
    game = _current_game()
    house_way, profile = _table_settings()
    return render_template("play/table.html", state=_state(game), history=_history(game),
                           house_way=house_way, limits=_limits(profile), chips=CHIPS_CENTS)


@bp.route("/state")
@login_required
def state() -> Response:
    """Return the balance, the limits and any hand still on the table, as JSON."""
    return jsonify(_state(_current_game()))


@bp.route("/deal", methods=["POST"])
@login_required
def deal() -> tuple[Response, int] | Response:
    """Deal a hand for the bet in the circle."""
    try:
        bet = _payload().get("bet_cents")
        if isinstance(bet, bool) or not isinstance(bet, int):
            raise PlayError(_("Put a bet in the circle first."))
        hand = _deal(bet)
    except PlayError as error:
        return _error(error)
    return jsonify(_state(hand.game))


@bp.route("/rebet", methods=["POST"])
@login_required
def rebet() -> tuple[Response, int] | Response:
    """Deal a hand for the same bet as the last one."""
    game = _current_game()
    try:
        if game is None or game.last_bet_cents is None:
            raise PlayError(_("There is no previous bet to repeat."))
        hand = _deal(game.last_bet_cents)
    except PlayError as error:
        return _error(error)
    return jsonify(_state(hand.game))


def _settled_reply(hand: GameHand) -> Response:
    row = history_row(hand)
    return jsonify(
        balance_cents=hand.balance_after_cents,
        outcome=hand.outcome,
        net_cents=hand.net_cents,
        commission_cents=hand.commission_cents,
        house_outcome=hand.house_outcome,
        house_net_cents=hand.house_net_cents,
        followed_house_way=row["followed"],
        result_html=render_template("play/_result.html", row=row),
        history_html=render_template("play/_history_row.html", row=row),
    )


@bp.route("/hands/<id:hand_id>/done", methods=["POST"])
@login_required
def done(hand_id: int) -> tuple[Response, int] | Response:
    """Settle the hand as the player set it: two cards in front, the rest behind."""
    hand = get_hand_or_404(hand_id)
    try:
        front = _payload().get("front")
        if not isinstance(front, list):
            raise PlayError(_("Pick two cards for the front."))
        hand = _settle(hand, front)
    except PlayError as error:
        return _error(error)
    return _settled_reply(hand)


@bp.route("/hands/<id:hand_id>/house-way", methods=["POST"])
@login_required
def house_way(hand_id: int) -> tuple[Response, int] | Response:
    """Set the hand by the group's house way and settle it."""
    hand = get_hand_or_404(hand_id)
    try:
        hand = _settle(hand, None)
    except PlayError as error:
        return _error(error)
    return _settled_reply(hand)


@bp.route("/new", methods=["POST"])
@login_required
def new_game() -> Response:
    """End the current game and start another with a fresh balance."""
    lock_player(current_user.id)
    game = _current_game()
    if _open_hand(game) is not None:
        flash(_("Finish the hand on the table first."), "error")
        return redirect(url_for("play.table"))
    if game is not None:
        game.ended_at = utcnow()
    _new_game()
    db.session.commit()
    flash(_("New game: your balance is $%(amount)s.",
            amount=f"{STARTING_BALANCE_CENTS / 100:,.2f}"), "success")
    return redirect(url_for("play.table"))
