"""``trainer bonus ...``: side-bet figures from the engine, no app (docs/side-bets.md).

``counts`` prints the exact number of seven-card hands in each bonus category,
``edge TABLE`` a pay table's exact house edge, ``envy`` the envy per other player,
``judge CARDS`` one hand's category. Tables are text; ``--json`` prints JSON.
"""
from __future__ import annotations

import json
import time

import click

from trainer.cli.io import fail
from trainer.engine.cards import parse_cards
from trainer.engine.side_bets import PAY_ORDER, Match, TableKind, bonus_hand, load_table, table_names
from trainer.engine.side_bets.counts import (
    ALL_HANDS,
    category_counts,
    compute_category_counts,
    envy_per_player,
    house_edge,
)

MATCH_HELP = "The royal match: king-queen (Fortune) or ace-king (Emperor's Treasure, progressive)."


@click.group("bonus")
def bonus() -> None:
    """Side bets: bonus categories, exact counts and house edges."""


@bonus.command("counts")
@click.option("--match", "match", type=click.Choice([m.value for m in Match]),
              default=Match.KING_QUEEN.value, help=MATCH_HELP)
@click.option("--recount", is_flag=True, help="Count now instead of reading the shipped counts.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def counts_command(match: str, recount: bool, as_json: bool) -> None:
    """Count every bonus category over all 154,143,080 seven-card hands, exactly."""
    started = time.perf_counter()
    counts = compute_category_counts()[Match(match)] if recount else category_counts(match)
    seconds = time.perf_counter() - started
    total = sum(counts.values())
    if as_json:
        click.echo(json.dumps({"match": match, "total": total, "seconds": round(seconds, 3),
                               "counts": {c.slug: counts[c] for c in PAY_ORDER}}))
        return
    click.echo(f"{'Category':<42} {'Hands':>13} {'Probability':>13}")
    for category in PAY_ORDER:
        click.echo(f"{category.title:<42} {counts[category]:>13,} "
                   f"{counts[category] / ALL_HANDS:>13.8f}")
    click.echo(f"{'Total':<42} {total:>13,} {total / ALL_HANDS:>13.8f}")
    click.echo(f"({'counted' if recount else 'read'} in {seconds:.2f} s; match: {match})")
    if total != ALL_HANDS:
        fail(f"The counts add up to {total:,}, not {ALL_HANDS:,}.")


@bonus.command("edge")
@click.argument("table", required=False)
@click.option("--meter", type=float, default=None,
              help="The progressive meter in dollars (for the progressive table).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def edge_command(table: str | None, meter: float | None, as_json: bool) -> None:
    """Print each pay table's house edge, exactly, from the category counts (TABLE: one)."""
    kinds = (TableKind.BONUS,) if meter is None else (TableKind.BONUS, TableKind.PROGRESSIVE)
    names = [table] if table else [n for n in table_names() if load_table(n).kind in kinds]
    meter_cents = None if meter is None else round(meter * 100)
    rows = []
    for name in names:
        try:
            paytable = load_table(name)
            if paytable.kind is TableKind.PROGRESSIVE and meter_cents is None:
                fail("The progressive's edge depends on the meter: give --meter DOLLARS.")
            edge = house_edge(paytable, meter_cents)
        except ValueError as error:
            fail(str(error))
        rows.append((paytable, edge))
    if as_json:
        click.echo(json.dumps([{"table": t.name, "edge": f"{e.numerator}/{e.denominator}",
                                "edge_percent": round(float(e) * 100, 6)} for t, e in rows]))
        return
    click.echo(f"{'Table':<20} {'Pays':<70} {'House edge':>11}")
    for paytable, edge in rows:
        pays = " / ".join(line.pays.removesuffix(" to 1").replace("100% of the meter", "meter")
                          for line in paytable.lines)
        click.echo(f"{paytable.name:<20} {pays:<70} {float(edge) * 100:>10.4f}%")
    if meter_cents is None and not table:
        click.echo("(the progressive needs --meter DOLLARS)")
    if meter_cents is not None:
        click.echo(f"(progressive meter ${meter_cents / 100:,.2f})")


@bonus.command("envy")
@click.option("--bet", "bet_dollars", type=int, default=5, help="The bonus bet in dollars.")
def envy_command(bet_dollars: int) -> None:
    """Print the envy one other player's hand is worth, exactly, per bonus bet."""
    try:
        share = envy_per_player("envy", bet_dollars * 100)
    except ValueError as error:
        fail(str(error))
    click.echo(f"Envy per other player on a ${bet_dollars} bonus bet: {float(share) * 100:.4f} "
               f"points of the bet ({share.numerator}/{share.denominator})")


@bonus.command("judge")
@click.argument("cards")
@click.option("--match", "match", type=click.Choice([m.value for m in Match]),
              default=Match.KING_QUEEN.value, help=MATCH_HELP)
def judge_command(cards: str, match: str) -> None:
    """Print the bonus category of seven cards as JSON."""
    try:
        click.echo(json.dumps(bonus_hand(parse_cards(cards, 7), match).as_dict()))
    except ValueError as error:
        fail(str(error))


def register(cli: click.Group) -> None:
    """Attach ``bonus`` to a group."""
    cli.add_command(bonus)
