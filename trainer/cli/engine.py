"""Engine commands of the ``trainer`` script: JSON out, exit status 2 on bad input.

No Flask and no SQLAlchemy: ``trainer.cli.main`` runs these without loading the app.
"""
from __future__ import annotations

import json

import click

from trainer.cli import bonus, house_way
from trainer.cli.io import fail, json_object, run_one, stream_jsonl
from trainer.engine.action import action_position
from trainer.engine.bonus_settlement import envy_payments, queens_dragon, settle_bonus
from trainer.engine.cards import parse_cards, verify_distinct
from trainer.engine.hands import Wheel, compare, evaluate
from trainer.engine.profiles import DEFAULT_PROFILE, PROFILES, get_profile
from trainer.engine.setting import foul_reason
from trainer.engine.settlement import settle
from trainer.engine.side_bets import TableKind, load_table


def card_text(value) -> str:
    """Accept cards as a string or a list of strings."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return " ".join(value)
    if not isinstance(value, str):
        raise ValueError("Cards must be written as a string such as 'As Kd'.")
    return value


def rank_answer(cards: str, wheel: str) -> dict:
    """Rank a five-card or two-card hand."""
    return evaluate(parse_cards(cards, (5, 2)), wheel).as_dict()


def compare_answer(a: str, b: str, wheel: str) -> dict:
    """Compare two hands of the same size."""
    ha = parse_cards(card_text(a), (5, 2))
    hb = parse_cards(card_text(b), len(ha))
    return {"result": compare(ha, hb, wheel).value}


def foul_answer(back: str, front: str, wheel: str) -> dict:
    """Check a set hand for a foul."""
    b = parse_cards(card_text(back), 5)
    f = parse_cards(card_text(front), 2)
    reason = foul_reason(b, f, wheel)
    return {"fouled": reason is not None, "reason": reason}


def _whole(value):
    """A whole number written as text (``"500"``) becomes an int; anything else is kept."""
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return value


def _cents(value, what: str) -> int:
    value = _whole(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a whole number of cents, such as 500 for $5.00.")
    return value


def settle_answer(req: dict) -> dict:
    """Settle one player's bet against the banker, and their side bet if one is given.

    The side bet is the profile's own (its bonus or progressive table, or Queen's
    Dragon on the banker's seven cards); ``envy_hands`` are the other players'
    seven cards, for the Envy this player collects. Side bets are always against
    the house (docs/side-bets.md).
    """
    bet = _whole(req["bet_cents"])     # settle() words a bet that is not whole cents
    profile = get_profile(req.get("profile") or DEFAULT_PROFILE)
    player_back = parse_cards(card_text(req["player_back"]), 5)
    player_front = parse_cards(card_text(req["player_front"]), 2)
    banker_back = parse_cards(card_text(req["banker_back"]), 5)
    banker_front = parse_cards(card_text(req["banker_front"]), 2)
    out = settle(player_back, player_front, banker_back, banker_front, bet, profile).as_dict()
    side = req.get("side_bet_cents")
    envy_hands = req.get("envy_hands") or []
    if not isinstance(envy_hands, list):
        raise ValueError("envy_hands must be a list of seven-card hands.")
    if side in (None, ""):
        if envy_hands:
            raise ValueError("Envy is paid only on a bonus bet: give the side bet too.")
        return out
    side = _cents(side, "The side bet")
    if not profile.side_bets:
        raise ValueError(f"The {profile.name} table offers no side bet; choose a profile "
                         "with side bets, such as nevada-fortune.")
    table = load_table(profile.side_bets[0].table)
    seven = (*player_back, *player_front)
    if table.kind == TableKind.QUEENS_DRAGON:
        if envy_hands:
            raise ValueError("Queen's Dragon pays no Envy.")
        result = queens_dragon((*banker_back, *banker_front), side, profile)
    else:
        meter = req.get("meter_cents")
        result = settle_bonus(seven, side, profile,
                              meter_cents=None if meter in (None, "") else _cents(meter, "The meter"))
    out["side_bet"] = result.as_dict()
    others = [parse_cards(card_text(h), 7) for h in envy_hands]
    verify_distinct([*seven, *banker_back, *banker_front, *(c for h in others for c in h)])
    envies = [e for e in envy_payments([seven, *others], [side] + [0] * len(others), profile)
              if e.seat == 0] if others else []
    out["envy"] = [e.as_dict() for e in envies]
    out["total_net_cents"] = (out["net_cents"] + result.net_cents
                              + sum(e.amount_cents for e in envies))
    return out


def dice_answer(total) -> dict:
    """Give the position that receives the first pile."""
    if isinstance(total, str):
        try:
            total = int(total.strip())
        except ValueError:
            raise ValueError(f"{total!r} is not a dice total (3 to 18).") from None
    return {"position": action_position(total)}


WHEEL = click.option("--wheel", type=click.Choice([w.value for w in Wheel]),
                     default=Wheel.SECOND_HIGHEST.value, show_default=True,
                     help="Where the wheel A-2-3-4-5 ranks among straights.")
JSONL = click.option("--jsonl", is_flag=True,
                     help="Read one request per line on stdin; answer one per line.")


@click.group("hand")
def hand() -> None:
    """Rank, compare, check and set hands."""


@hand.command("rank")
@click.argument("cards", nargs=-1)
@WHEEL
@JSONL
def hand_rank(cards: tuple[str, ...], wheel: str, jsonl: bool) -> None:
    """Rank a five-card or two-card hand."""
    if jsonl:
        stream_jsonl(lambda line: rank_answer(line, wheel))
    else:
        run_one(lambda: rank_answer(" ".join(cards), wheel))


@hand.command("compare")
@click.argument("a", required=False)
@click.argument("b", required=False)
@WHEEL
@JSONL
def hand_compare(a: str | None, b: str | None, wheel: str, jsonl: bool) -> None:
    """Compare hand A with hand B: win, loss or copy for A."""
    if jsonl:
        stream_jsonl(lambda line: compare_answer(
            *(lambda r: (r["a"], r["b"]))(json_object(line, ("a", "b"))), wheel))
    elif a is None or b is None:
        fail("Give two hands, each in quotes: trainer hand compare 'As Ks ..' 'Qd ..'.")
    else:
        run_one(lambda: compare_answer(a, b, wheel))


@hand.command("foul")
@click.option("--back", default=None, help="The five-card hand.")
@click.option("--front", default=None, help="The two-card hand.")
@WHEEL
@JSONL
def hand_foul(back: str | None, front: str | None, wheel: str, jsonl: bool) -> None:
    """Tell whether a set hand is fouled."""
    if jsonl:
        stream_jsonl(lambda line: foul_answer(
            *(lambda r: (r["back"], r["front"]))(json_object(line, ("back", "front"))),
            wheel))
    elif back is None or front is None:
        fail("Give both --back (5 cards) and --front (2 cards).")
    else:
        run_one(lambda: foul_answer(back, front, wheel))


@click.command("settle")
@click.option("--player-back")
@click.option("--player-front")
@click.option("--banker-back")
@click.option("--banker-front")
@click.option("--bet-cents")
@click.option("--profile", type=click.Choice(list(PROFILES)), default=DEFAULT_PROFILE,
              show_default=True)
@click.option("--side-bet-cents", default=None,
              help="The player's side bet on the profile's table (bonus, progressive or "
                   "Queen's Dragon).")
@click.option("--meter-cents", default=None, help="The progressive meter.")
@click.option("--envy-hand", "envy_hands", multiple=True,
              help="Another player's seven cards, for Envy (repeat for each).")
@JSONL
def settle_command(player_back, player_front, banker_back, banker_front, bet_cents,
                   profile, side_bet_cents, meter_cents, envy_hands, jsonl: bool) -> None:
    """Settle a player's bet against the banker, with their side bet if given."""
    keys = ("player_back", "player_front", "banker_back", "banker_front", "bet_cents")
    if jsonl:
        stream_jsonl(lambda line: settle_answer(json_object(line, keys)))
        return
    req = dict(zip(keys, (player_back, player_front, banker_back, banker_front,
                          bet_cents), strict=True), profile=profile,
               side_bet_cents=side_bet_cents, meter_cents=meter_cents,
               envy_hands=list(envy_hands))
    missing = [k for k in keys if req[k] is None]
    if missing:
        fail("Missing " + ", ".join("--" + k.replace("_", "-") for k in missing) + ".")
    run_one(lambda: settle_answer(req))


@click.command("dice")
@click.argument("total", required=False)
@JSONL
def dice_command(total: str | None, jsonl: bool) -> None:
    """Give the position (1 = banker) that receives the first pile for a dice total."""
    if jsonl:
        stream_jsonl(lambda line: dice_answer(json.loads(line) if line.isdigit()
                                              else line))
    elif total is None:
        fail("Give the dice total, for example: trainer dice 11.")
    else:
        run_one(lambda: dice_answer(total))


def register(cli: click.Group) -> None:
    """Attach the engine commands (``hand``, ``settle``, ``dice``, ``house-way``) to a group."""
    cli.add_command(hand)
    cli.add_command(settle_command)
    cli.add_command(dice_command)
    house_way.register(cli, hand)
    bonus.register(cli)
