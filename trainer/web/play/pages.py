"""The player's game: bet play chips, set seven cards or ask for the house way, settle.

A practice table for any signed-in user. The browser sends only a bet, two front
cards, or "house way", and ``static/js/play.js`` shows what comes back; dealing,
settling and the balance are ``trainer.services.table``'s.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from trainer.engine.cards import parse_cards
from trainer.engine.game import CHIPS_CENTS, STARTING_BALANCE_CENTS, split_table
from trainer.models import GameHand, PlayerGame
from trainer.services import table as game_table
from trainer.services.profiles import table_profile
from trainer.services.table import HandOnTable, HandSettled, PlayError, history_row
from trainer.web.platform import languages
from trainer.web.platform.access import get_owned_or_404
from trainer.web.platform.exam_lock import refuse_during_exam
from trainer.web.platform.pay_tables import chart
from trainer.web.words.engine_words import message_words

bp = Blueprint("play", __name__, url_prefix="/play")
# The game sets hands the house way (the button, the history): closed during an exam.
bp.before_request(refuse_during_exam)


def get_hand_or_404(hand_id: int) -> GameHand:
    """Return one of the signed-in user's hands, or 404 for anyone else's."""
    return get_owned_or_404(GameHand, hand_id, lambda h: h.game.user_id == current_user.id)


# The table's refusals that carry no sentence of their own, in the player's words.
REFUSALS = {HandOnTable: _l("Finish the hand on the table first."),
            HandSettled: _l("This hand is already settled.")}


def _error(error: PlayError) -> tuple[Response, int]:
    titles = {400: _("Not accepted"), 404: _("Not found"), 409: _("Not now")}
    message = REFUSALS.get(type(error)) or message_words(error)  # the engine's sentence, translated
    return jsonify(error=titles.get(error.status, _("Not accepted")),
                   message=str(message)), error.status


def _hand_view(hand: GameHand) -> dict[str, Any]:
    """Return what the browser may see of a dealt hand: the player's cards, never the banker's."""
    wheel = table_profile(hand.profile).wheel
    seven = parse_cards(hand.player_cards, 7)
    return {
        "id": hand.id,
        "number": hand.number,
        "bet_cents": hand.bet_cents,
        "bonus_cents": hand.bonus_bet_cents or 0,
        "cards": hand.player_cards,
        "splits": split_table(seven, wheel),
        "done_url": url_for("play.done", hand_id=hand.id),
        "house_way_url": url_for("play.house_way", hand_id=hand.id),
        "html": render_template("play/_dealt.html", hand=hand),
    }


def _state(game: PlayerGame | None) -> dict[str, Any]:
    house_way, profile = game_table.table_settings(current_user.group)
    hand = game_table.open_hand(game)
    return {
        "balance_cents": game.balance_cents if game else STARTING_BALANCE_CENTS,
        "last_bet_cents": game.last_bet_cents if game else None,
        "last_bonus_cents": game.last_bonus_cents if game else None,
        "chips": list(CHIPS_CENTS),
        "house_way": house_way,
        "profile": profile,
        **game_table.limits(hand.profile if hand else profile),
        "hand": _hand_view(hand) if hand else None,
    }


def _payload() -> dict[str, Any]:
    payload = request.get_json(silent=True)
    if not isinstance(payload, dict):
        raise PlayError(_("Send the request as JSON."))
    return payload


@bp.route("/")
@login_required
def table() -> str:
    """Show the table: balance, chips, bet circle, the cards and the history."""
    game = game_table.current_game(current_user.id)
    house_way, profile = game_table.table_settings(current_user.group)
    limits = game_table.limits(profile)
    return render_template("play/table.html", state=_state(game),
                           history=game_table.history(game), house_way=house_way,
                           limits=limits, chips=CHIPS_CENTS,
                           charts=[chart(limits["side_bet"]["table"])])


@bp.route("/state")
@login_required
def state() -> Response:
    """Return the balance, the limits and any hand still on the table, as JSON."""
    return jsonify(_state(game_table.current_game(current_user.id)))


@bp.route("/deal", methods=["POST"])
@login_required
def deal() -> tuple[Response, int] | Response:
    """Deal a hand for the bet in the circle."""
    try:
        payload = _payload()
        bet = payload.get("bet_cents")
        if isinstance(bet, bool) or not isinstance(bet, int):
            raise PlayError(_("Put a bet in the circle first."))
        bonus = payload.get("bonus_cents", 0)
        if bonus is None:
            bonus = 0
        if isinstance(bonus, bool) or not isinstance(bonus, int):
            raise PlayError(_("Choose the side bet from the list (or no side bet)."))
        hand = game_table.deal(current_user, bet, bonus)
    except PlayError as error:
        return _error(error)
    return jsonify(_state(hand.game))


@bp.route("/rebet", methods=["POST"])
@login_required
def rebet() -> tuple[Response, int] | Response:
    """Deal a hand for the same bet as the last one."""
    game = game_table.current_game(current_user.id)
    try:
        if game is None or game.last_bet_cents is None:
            raise PlayError(_("There is no previous bet to repeat."))
        hand = game_table.deal(current_user, game.last_bet_cents, game.last_bonus_cents or 0)
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
        bonus_net_cents=hand.bonus_net_cents,
        bonus_rule=hand.bonus_rule,
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
        hand = game_table.settle(hand, front)
    except PlayError as error:
        return _error(error)
    return _settled_reply(hand)


@bp.route("/hands/<id:hand_id>/house-way", methods=["POST"])
@login_required
def house_way(hand_id: int) -> tuple[Response, int] | Response:
    """Set the hand by the group's house way and settle it."""
    hand = get_hand_or_404(hand_id)
    try:
        hand = game_table.settle(hand, None)
    except PlayError as error:
        return _error(error)
    return _settled_reply(hand)


@bp.route("/new", methods=["POST"])
@login_required
def new_game() -> Response:
    """End the current game and start another with a fresh balance."""
    if not game_table.restart(current_user.id):
        flash(_("Finish the hand on the table first."), "error")
        return redirect(url_for("play.table"))
    flash(_("New game: your balance is %(amount)s.",
            amount=languages.money(STARTING_BALANCE_CENTS)), "success")
    return redirect(url_for("play.table"))
