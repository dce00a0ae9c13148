"""``trainer bonus ...``: side-bet figures from the engine, no app (docs/side-bets.md).

``counts`` prints the exact number of seven-card hands in each bonus category,
``edge TABLE`` a pay table's exact house edge (Queen's Dragon's from the exact number
of queen-high pai gows; a table paid "for 1" returns no stake to a winner), ``envy``
the envy per other player, ``judge CARDS`` one hand's category. Tables are text; ``--json`` prints JSON.
"""
from __future__ import annotations

import json
import time

import click

from trainer.cli.io import fail
from trainer.engine.cards import parse_cards
from trainer.engine.side_bets import (
    PAY_ORDER,
    SIDE_BET_RULES,
    Match,
    PayTable,
    TableKind,
    bonus_hand,
    load_table,
    table_names,
)
from trainer.engine.side_bets.counts import (
    ALL_HANDS,
    category_counts,
    compute_category_counts,
    envy_per_player,
    house_edge,
    queen_high_count,
)
from trainer.engine.side_bets.paytables import RULES_VERSIONS

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


def _pays(paytable: PayTable) -> str:
    """Return a table's pay lines in a few words: "8,000 / 2,000 / ... / 2", "meter / ... / $5"."""
    pays = " / ".join(line.pays.removesuffix(" to 1").replace("100% of the meter", "meter")
                      for line in paytable.lines)
    if paytable.kind is TableKind.QUEENS_DRAGON:
        pays += " (the banker's queen-high pai gow)"
    return pays + (" (for 1)" if paytable.for_one else "")


@bonus.command("edge")
@click.argument("table", required=False)
@click.option("--meter", type=float, default=None,
              help="The progressive meter in dollars (for the progressive table).")
@click.option("--rules", type=click.Choice([str(v) for v in RULES_VERSIONS]),
              default=str(SIDE_BET_RULES), show_default=True,
              help="The side-bet rules version (1: the progressive paid to 1, its wager returned).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def edge_command(table: str | None, meter: float | None, rules: str, as_json: bool) -> None:
    """Print each pay table's house edge, exactly, from the category counts (TABLE: one).

    Queen's Dragon's is worked out from the number of queen-high pai gows (counted
    class by class, a few seconds).
    """
    kinds: tuple[TableKind, ...] = (TableKind.BONUS, TableKind.QUEENS_DRAGON)
    if meter is not None:
        kinds += (TableKind.PROGRESSIVE,)
    version = int(rules)
    names = [table] if table else [n for n in table_names()
                                   if load_table(n, version).kind in kinds]
    if meter is not None and (meter != meter or meter < 0 or meter > 1e9):
        fail("The meter is a number of dollars, from 0 to 1,000,000,000.")
    meter_cents = None if meter is None else round(meter * 100)
    rows = []
    for name in names:
        try:
            paytable = load_table(name, version)
            if paytable.kind is TableKind.PROGRESSIVE and meter_cents is None:
                fail("The progressive's edge depends on the meter: give --meter DOLLARS.")
            edge = house_edge(paytable, meter_cents)
        except ValueError as error:
            fail(str(error))
        rows.append((paytable, edge))
    if as_json:
        click.echo(json.dumps([{"table": t.name, "edge": f"{e.numerator}/{e.denominator}",
                                "edge_percent": round(float(e) * 100, 6),
                                "payment": t.payment.value, "rules": version}
                               for t, e in rows]))
        return
    click.echo(f"{'Table':<20} {'Pays':<70} {'House edge':>11} {'rounded':>8}")
    for paytable, edge in rows:
        click.echo(f"{paytable.name:<20} {_pays(paytable):<70} {float(edge) * 100:>10.4f}% "
                   f"{float(edge) * 100:>7.2f}%")
    if meter_cents is None and not table:
        click.echo("(the progressive needs --meter DOLLARS)")
    if meter_cents is not None:
        click.echo(f"(progressive meter ${meter_cents / 100:,.2f})")
    if any(t.for_one for t, _ in rows):
        click.echo("(for 1: every wager is collected when the cards are dealt; a winning hand "
                   "is paid the amount, and the wager is not returned)")
    if any(t.kind is TableKind.QUEENS_DRAGON for t, _ in rows):
        click.echo(f"(Queen's Dragon: the banker holds a queen-high pai gow in "
                   f"{queen_high_count():,} of {ALL_HANDS:,} seven-card hands)")


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
