"""The player's game: deal, settle and keep the balance of a practice table.

The server deals, sets the banker's hand, settles and keeps the balance; the
blueprint (``trainer.web.play.pages``) turns requests into these calls and their
results into JSON and pages.

Money: the balance changes only when a hand is settled, by the hand's net, in
the transaction that marks the hand settled. The bet is not taken at the deal;
instead a deal is refused unless the balance covers the worst loss (the bet and
any flat fee), and a game holds at most one open hand, so the balance can never
go below zero.
"""
from __future__ import annotations

import secrets
from typing import Any, TypeVar, cast

from sqlalchemy import select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError

from trainer.engine.cards import card_list, parse_cards
from trainer.engine.drills.side_bet_parts import pays_words
from trainer.engine.game import (
    PRACTICE_METER_CENTS,
    STARTING_BALANCE_CENTS,
    GameDeal,
    deal_hand,
    game_side_bet,
    play_hand,
    setting_dict,
    side_bet_sizes,
    verify_deal_bet,
)
from trainer.engine.house_way import HouseWayError
from trainer.engine.setting import same_value
from trainer.engine.side_bets import PAY_ORDER, TableKind, bonus_category, load_table
from trainer.extensions import db
from trainer.models import GameHand, Group, PlayerGame, User, utcnow
from trainer.services import house_ways, profiles
from trainer.services.group_settings import GroupSettings

HISTORY_ROWS = 20

_T = TypeVar("_T")


class PlayError(Exception):
    """A request the table refuses; ``status`` is the HTTP code to answer with.

    The message is the engine's sentence (a bet out of limits, a fouled front) or
    the web layer's own; the refusals below carry none: the web layer words them.
    """

    def __init__(self, message: str = "", status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class HandOnTable(PlayError):
    """A hand is dealt and not settled: finish it before dealing another."""

    def __init__(self) -> None:
        super().__init__("", 409)


class HandSettled(PlayError):
    """The hand is already settled."""

    def __init__(self) -> None:
        super().__init__("", 409)


def new_seed() -> int:
    """Draw the seed a hand is dealt from."""
    return secrets.randbits(63)


def lock_player(user_id: int) -> None:
    """Make this user's game requests take turns until the transaction ends.

    Two deals at once (a double click, ten tabs) would each find no open game or
    hand and each open one. The lock is on the user's row, which exists before
    any game does: ``SELECT ... FOR UPDATE`` on PostgreSQL; on SQLite an update
    that changes nothing takes the database's write lock first thing, so the other
    request waits (busy timeout) and then sees this one's game and hand.
    """
    if db.session.get_bind().dialect.name == "sqlite":
        # Not the key column: rewriting a key would make SQLite check every child table.
        db.session.execute(update(User).where(User.id == user_id).values(name=User.name)
                           .execution_options(synchronize_session=False))
    else:
        db.session.execute(select(User.id).where(User.id == user_id).with_for_update())


def table_settings(group: Group | None) -> tuple[str, str]:
    """Return the house way and table-rules profile of a player's group (the defaults without one)."""
    settings = GroupSettings.of(group)
    return settings.house_way, settings.profile


def current_game(user_id: int) -> PlayerGame | None:
    """Return the user's game still running, if any."""
    return db.session.execute(
        db.select(PlayerGame)
        .filter_by(user_id=user_id, ended_at=None)
        .order_by(PlayerGame.id.desc())
        .limit(1)
    ).scalar_one_or_none()


def _new_game(user_id: int) -> PlayerGame:
    game = PlayerGame(user_id=user_id, balance_cents=STARTING_BALANCE_CENTS,
                      starting_cents=STARTING_BALANCE_CENTS, started_at=utcnow())
    db.session.add(game)
    db.session.flush()
    return game


def open_hand(game: PlayerGame | None) -> GameHand | None:
    """Return the game's hand dealt and not yet settled, if any."""
    if game is None:
        return None
    return db.session.execute(
        db.select(GameHand).filter_by(game_id=game.id, state="dealt").limit(1)
    ).scalar_one_or_none()


def limits(profile_name: str) -> dict[str, Any]:
    """Return a profile's smallest and largest bet and its side bet (the page words the
    rules in the reader's language, web/words/data_words.py)."""
    profile = profiles.table_profile(profile_name)
    offer = game_side_bet(profile)
    table = load_table(offer.table)
    side = {"table": offer.table, "title": table.title, "min_cents": offer.min_cents,
            "max_cents": offer.max_cents, "sizes": list(side_bet_sizes(offer)),
            "offered": offer in profile.side_bets}
    if table.kind is TableKind.PROGRESSIVE:
        side["meter_cents"] = PRACTICE_METER_CENTS
    return {"min_bet_cents": profile.min_bet_cents, "max_bet_cents": profile.max_bet_cents,
            "side_bet": side}


def deal(user: User, bet_cents: Any, bonus_cents: Any = 0) -> GameHand:
    """Deal a hand for ``bet_cents`` in the user's current game (started on the first deal).

    ``bonus_cents`` is the side bet (0: none), on the table ``game_side_bet`` names.
    """
    lock_player(user.id)  # a double Deal opens one game and one hand
    game = current_game(user.id) or _new_game(user.id)
    if open_hand(game) is not None:
        raise HandOnTable()
    house_way, profile = table_settings(user.group)
    rules = profiles.table_profile(profile)  # a preset or a manager's custom profile
    try:
        # The rules the banker's hand is set by, kept with the hand (issue 18).
        digest = house_ways.pin(house_way)
    except house_ways.WayError as error:
        raise PlayError(str(error)) from error
    try:
        verify_deal_bet(bet_cents, game.balance_cents, rules, bonus_cents)
    except ValueError as error:
        raise PlayError(str(error)) from error
    number = (db.session.execute(
        db.select(db.func.max(GameHand.number)).filter_by(game_id=game.id)
    ).scalar() or 0) + 1
    seed = new_seed()
    dealt = deal_hand(seed)
    hand = GameHand(game_id=game.id, number=number, seed=seed, house_way=house_way,
                    house_way_digest=digest, profile=profile, bet_cents=bet_cents, state="dealt",
                    player_cards=card_list(dealt.player),
                    banker_cards=card_list(dealt.banker), dealt_at=utcnow(),
                    bonus_table=game_side_bet(rules).table if bonus_cents else None,
                    bonus_bet_cents=bonus_cents or None)
    game.last_bet_cents = bet_cents
    game.last_bonus_cents = bonus_cents or None
    db.session.add(hand)
    try:
        db.session.commit()
    except IntegrityError:
        # Another tab dealt this hand first.
        db.session.rollback()
        raise HandOnTable() from None
    return hand


def settle(hand: GameHand, front: list[str] | None) -> GameHand:
    """Settle a dealt hand with the player's front (None: the house way) and pay the net.

    The hand is marked settled only if it is still dealt, and the balance moves in
    the same transaction, so a double submit cannot settle or pay twice.
    """
    if hand.state != "dealt":
        raise HandSettled()
    game_deal = GameDeal(parse_cards(hand.player_cards, 7), parse_cards(hand.banker_cards, 7))
    try:
        # The house way the hand was dealt under: a preset as it was then, or a version.
        way = house_ways.exact(hand.house_way, hand.house_way_digest)
        result = play_hand(game_deal, front, hand.bet_cents,
                           profiles.table_profile(hand.profile), way,
                           hand.bonus_bet_cents or 0)
    except (ValueError, HouseWayError) as error:
        raise PlayError(str(error)) from error
    s, h, bonus = result.settlement, result.house_settlement, result.bonus
    # The side bet is against the house, whatever the setting: it moves the balance too.
    bonus_net = bonus.net_cents if bonus is not None else 0
    # An UPDATE gives a CursorResult, the Result that has a rowcount.
    done = cast("CursorResult[Any]", db.session.execute(
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
            bonus_rule=bonus.rule_id if bonus is not None else None,
            bonus_win_cents=bonus.win_cents if bonus is not None else None,
            bonus_net_cents=bonus.net_cents if bonus is not None else None,
        )
        .execution_options(synchronize_session=False)
    ))
    if done.rowcount != 1:
        db.session.rollback()
        raise HandSettled()
    db.session.execute(
        update(PlayerGame)
        .where(PlayerGame.id == hand.game_id)
        .values(balance_cents=PlayerGame.balance_cents + s.net_cents + bonus_net)
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


def restart(user_id: int) -> bool:
    """End the user's current game and start another; False while a hand is on the table."""
    lock_player(user_id)
    game = current_game(user_id)
    if open_hand(game) is not None:
        return False
    if game is not None:
        game.ended_at = utcnow()
    _new_game(user_id)
    db.session.commit()
    return True


def history_row(hand: GameHand) -> dict[str, Any]:
    """Describe a settled hand for the history: both settings, both results, the cost."""
    wheel = profiles.table_profile(hand.profile).wheel
    player_back, player_front = _settled(hand, hand.player_back), _settled(hand, hand.player_front)
    house_back, house_front = _settled(hand, hand.house_back), _settled(hand, hand.house_front)
    banker_back, banker_front = _settled(hand, hand.banker_back), _settled(hand, hand.banker_front)
    player = setting_dict(parse_cards(player_back, 5), parse_cards(player_front, 2), wheel)
    house = setting_dict(parse_cards(house_back, 5), parse_cards(house_front, 2), wheel)
    banker = setting_dict(parse_cards(banker_back, 5), parse_cards(banker_front, 2), wheel)
    followed = same_value(parse_cards(player_back), parse_cards(player_front),
                          parse_cards(house_back), parse_cards(house_front), wheel)
    cost_cents = _settled(hand, hand.house_net_cents) - _settled(hand, hand.net_cents)
    return {"hand": hand, "player": player, "house": house, "banker": banker,
            "followed": followed, "cost_cents": cost_cents, "bonus": side_bet_row(hand)}


def side_bet_row(hand: GameHand) -> dict[str, Any] | None:
    """Describe a settled hand's side bet: the table, the hand in words, the payout.

    ``for_one``: the bet was paid "for 1", its stake collected at the deal (the progressive).
    ``category`` is what the seven cards make (Queen's Dragon: the banker's hand),
    even when the table pays nothing for it; ``line`` is the pay line's name and ``pays``
    its payout as the engine's words (``Message`` or ``Money``: "25 to 1", "$325"; its
    ``str()`` is the English, the page says it in the reader's money, ``engine_words.message_words``).
    """
    if not hand.bonus_table or not hand.bonus_bet_cents or hand.bonus_rule is None:
        return None
    table = load_table(hand.bonus_table)
    line = table.line_by_slug(hand.bonus_rule.rsplit(".", 1)[-1])
    if table.kind is TableKind.QUEENS_DRAGON:
        category = ("the banker's queen-high pai gow" if line is not None
                    else "the banker's hand is no queen-high pai gow")
    else:
        made = bonus_category(parse_cards(hand.player_cards, 7), table.match)
        category = next(c.title for c in PAY_ORDER if c is made) if made.value \
            else "no bonus hand"
    net = _settled(hand, hand.bonus_net_cents)
    win = hand.bonus_win_cents or 0
    # Paid "for 1" (the stake collected at the deal): settled so since side-bet rules 2,
    # which a winner's stored net shows (the win less the stake; a hand settled before
    # kept its stake: net = win). A losing bet reads by the table's payment now.
    for_one = table.for_one and (not win or net == win - hand.bonus_bet_cents)
    return {"table": table.title, "bet_cents": hand.bonus_bet_cents, "category": category,
            "line": line.name if line is not None else None, "pays": pays_words(line) if line else None,
            "rule_id": hand.bonus_rule, "win_cents": win, "net_cents": net, "for_one": for_one}


def _settled(hand: GameHand, value: _T | None) -> _T:
    """Return a field that settling filled in; a hand still dealt has none to show."""
    if value is None:
        raise ValueError(f"Hand {hand.id} is not settled.")
    return value


def history(game: PlayerGame | None) -> list[dict[str, Any]]:
    """Return the game's latest settled hands, newest first, as history rows."""
    if game is None:
        return []
    hands = db.session.execute(
        db.select(GameHand).filter_by(game_id=game.id, state="settled")
        .order_by(GameHand.number.desc()).limit(HISTORY_ROWS)
    ).scalars()
    return [history_row(hand) for hand in hands]
