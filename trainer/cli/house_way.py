"""House-way commands: ``trainer hand set`` and the ``trainer house-way`` group."""
from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

import click

from trainer.cli.io import emit, fail, stream_jsonl
from trainer.engine.hands import Wheel
from trainer.engine.house_way import (
    DEFAULT_HOUSE_WAY,
    HouseWay,
    HouseWayError,
    load,
    preset_names,
)
from trainer.engine.profiles import DEFAULT_PROFILE, PROFILES

# The rule book's reference figures (docs/rules.md §11), Trump Plaza against Trump
# Plaza, per profile (share of deals; nevada's to about +-0.02 points, no-commission's
# "about"). The older published figures (Wizard of Odds' Appendix 4: 28.55 / 41.47 /
# 29.98, a random simulation of unstated size; its EZ table: 27.46 / 42.61 / 29.93)
# are cited in docs/house-ways.md, not compared with.
REFERENCE = {
    ("trump-plaza/trump-plaza", "nevada"): {
        "player_win": 0.2860, "push": 0.4149, "banker_win": 0.2991},
    ("trump-plaza/trump-plaza", "no-commission"): {
        "player_win": 0.2706, "push": 0.4305, "banker_win": 0.2989},
}


# A published custom version: ``<slug>@<n>`` (docs/house-ways.md, "Custom house ways").
STORED_REF = re.compile(r"[a-z][a-z0-9-]{2,39}@[1-9][0-9]*")


def _way(name: str):
    try:
        return load(name)
    except ValueError as exc:
        fail(str(exc))


def file_way(path: str, table: bool = True) -> HouseWay:
    """Read a house-way file (the presets' TOML format) into a house way; exit 2 if it is wrong.

    The engine alone: no app, no database. The file is validated as the manager's
    editor validates it (``editing.build``: every problem, with where it is). A way
    named like a preset, with that preset's rules, uses the preset's shipped class
    tables; any other is set by the interpreter.
    """
    from trainer.engine import toml_limits
    from trainer.engine.house_way import editing

    try:
        # No more than the limit is read (a device or a huge file included).
        with Path(path).open("rb") as handle:
            raw = handle.read(toml_limits.MAX_BYTES + 1)
    except OSError as exc:
        fail(f"Cannot read the house-way file {path}: {exc.strerror or exc}.")
    if len(raw) > toml_limits.MAX_BYTES:
        fail(f"{path} is not a usable house way: the file is larger than "
             f"{toml_limits.MAX_BYTES // 1024} KB.")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        fail(f"Cannot read the house-way file {path}: {exc}.")
    try:
        return editing.build(editing.from_toml(text), table)
    except editing.EditError as exc:
        problems = [f"{e.path}: {e.message}" if e.path else e.message for e in exc.errors]
        fail(f"{path} is not a usable house way: {' '.join(problems)}")


def stored_way(ref: str) -> HouseWay:
    """Return a published custom version (``slug@n``) from the app's database.

    This path loads the app (Flask, SQLAlchemy), imported here only, so the other
    house-way commands stay light: the app of the running command (``ScriptInfo``,
    or an app context already pushed) or one made from the environment's config.
    """
    from flask import has_app_context
    from flask.cli import ScriptInfo

    from trainer import create_app
    from trainer.services import house_ways

    def get() -> HouseWay:
        try:
            return house_ways.get_way(ref)
        except (ValueError, LookupError, HouseWayError) as exc:
            fail(str(exc))

    if has_app_context():
        return get()
    info = click.get_current_context().find_object(ScriptInfo)
    app = info.load_app() if info is not None else create_app()
    with app.app_context():
        try:
            return get()
        finally:
            if info is None:
                # The app was made here, for this one look-up: close its connections
                # now rather than leave them to the garbage collector.
                from trainer.extensions import db
                db.engine.dispose()


def _chosen(name: str | None, path: str | None, what: str, table: bool = True
            ) -> tuple[str, str | HouseWay]:
    """Return a way's label and what the engine takes: a preset's name or a house way.

    ``name`` is a preset or a stored version ``slug@n``; ``path`` a house-way file.
    """
    if path is not None:
        if name is not None:
            fail(f"Give {what} by name or by file, not both.")
        way = file_way(path, table)
        # Not the bare name: a file may name itself after a preset with other rules.
        return f"{way.name} (file {path})", way
    assert name is not None
    if name in preset_names():
        return name, name
    if STORED_REF.fullmatch(name):
        way = stored_way(name)
        if not table:
            # The same rules without their class tables: the interpreter alone.
            way = HouseWay(way.data, table=False)
        return name, way
    _way(name)  # fails: "Unknown house way ..."
    raise AssertionError("unreachable")


def _count(text: str | None, what: str, default: int | None = None) -> int:
    if text is None:
        if default is None:
            fail(f"Give {what}.")
        return default
    try:
        value = int(str(text).replace("_", "").replace(",", ""))
    except ValueError:
        fail(f"{text!r} is not a whole number ({what}).")
    if value < 0:
        fail(f"{what.capitalize()} cannot be negative.")
    return value


def _hand_line(way, wheel: str):
    def answer(line: str) -> dict:
        text = line.strip()
        name = None
        if text[:1] in "[{\"":
            try:
                req = json.loads(text)
            except json.JSONDecodeError:
                raise ValueError("The line is neither cards nor valid JSON.") from None
            if isinstance(req, dict):
                name = req.get("house_way")
                req = req.get("cards")
            if isinstance(req, list) and all(isinstance(c, str) for c in req):
                req = " ".join(req)
            if not isinstance(req, str):
                raise ValueError("Write the seven cards as text, e.g. 'As Kd Qc 9h 7s 4c 2d'.")
            text = req
        return (load(name) if name else way).set(text, wheel).as_dict()
    return answer


@click.command("set")
@click.argument("cards", nargs=-1)
@click.option("--house-way", "house_way", default=DEFAULT_HOUSE_WAY,
              show_default=True, help="Preset name (see: trainer house-way list).")
@click.option("--wheel", default=Wheel.SECOND_HIGHEST.value, show_default=True,
              help="second_highest or lowest.")
@click.option("--jsonl", is_flag=True,
              help="Read one hand per line on stdin; answer one per line.")
def hand_set(cards: tuple[str, ...], house_way: str, wheel: str, jsonl: bool) -> None:
    """Set seven cards the house way: back, front, rule and explanation."""
    way = _way(house_way)
    if wheel not in {w.value for w in Wheel}:
        fail(f"Unknown wheel setting {wheel!r}; use second_highest or lowest.")
    if jsonl:
        # Many hands: from the class tables (loaded once, about 40 ms).
        stream_jsonl(_hand_line(way, wheel))
        return
    # One hand: the interpreter decides it in well under a millisecond, less than
    # loading the class tables would cost; the answer is the same (the tables are
    # checked against the interpreter on every class).
    answer = _hand_line(load(house_way, table=False), wheel)
    if not cards:
        fail("Give seven cards, e.g.: trainer hand set As Kd Qc 9h 7s 4c 2d")
    try:
        emit(answer(" ".join(cards)))
    except ValueError as exc:
        fail(str(exc))


@click.group("house-way")
def house_way_group() -> None:
    """List, verify and simulate the casinos' house ways."""


@house_way_group.command("list")
def list_command() -> None:
    """List the preset house ways with casino name and rule count."""
    emit({"default": DEFAULT_HOUSE_WAY, "presets": [
        {"name": n, "casino": load(n).casino, "rules": len(load(n).rules)}
        for n in preset_names()]})


@house_way_group.command("verify")
@click.argument("name", required=False)
@click.option("--file", "path", default=None, metavar="PATH",
              help="Verify the house way in this file (the presets' TOML format).")
@click.option("--sample", default=None, help="Check N random hands instead of all.")
@click.option("--seed", default=None, help="Seed for --sample (default 0).")
@click.option("--wheel", default=Wheel.SECOND_HIGHEST.value, show_default=True)
@click.option("--workers", default="2", show_default=True, help="Processes to use.")
@click.option("--no-table", is_flag=True,
              help="Set hands by the interpreter only, not the class table.")
def verify_command(name, path, sample, seed, wheel, workers, no_table) -> None:
    """Check every seven-card hand (or a sample): no foul, all cards, deterministic.

    NAME is a preset or a published custom version (slug@n, read from the app's
    database); --file reads a house-way file instead. Hands are set from the way's
    class table when it has one and compared with the interpreter.
    """
    from trainer.engine.house_way.verify import verify

    if name is None and path is None:
        fail("Give a house way, e.g.: trainer house-way verify trump-plaza "
             "(or --file my-way.toml, or a published version such as my-way@1)")
    if wheel not in {w.value for w in Wheel}:
        fail(f"Unknown wheel setting {wheel!r}; use second_highest or lowest.")
    n = None if sample is None else _count(sample, "the sample size")
    if n == 0:
        fail("The sample size must be more than zero.")
    seed_value = _count(seed, "the seed", 0)
    processes = max(1, _count(workers, "the number of workers"))
    label, way = _chosen(name, path, "the house way", not no_table)
    summary = verify(way, n, seed_value, wheel, processes, not no_table)
    if path is not None:
        summary["file"] = str(path)
    else:
        summary["house_way"] = label
    emit(summary)
    if summary["failed_hands"]:
        sys.exit(1)


@house_way_group.command("simulate")
@click.argument("name", required=False)
@click.option("--file", "path", default=None, metavar="PATH",
              help="The player's house way from this file (instead of NAME).")
@click.option("--against", default=None,
              help="The banker's house way, a preset or slug@n (default: the player's).")
@click.option("--against-file", "against_path", default=None, metavar="PATH",
              help="The banker's house way from this file.")
@click.option("--hands", default=None, help="Number of deals.")
@click.option("--seed", default=None, help="Random seed (default 0).")
@click.option("--profile", default=DEFAULT_PROFILE, show_default=True,
              help="Table-rules profile: commission, wheel.")
@click.option("--bet-cents", default="10000", show_default=True)
@click.option("--workers", default="2", show_default=True, help="Processes to use.")
def simulate_command(name, path, against, against_path, hands, seed, profile, bet_cents,
                     workers) -> None:
    """Play a house way (player) against a house way (banker) on random deals.

    Each way is a preset, a published custom version (slug@n) or a file (--file,
    --against-file).
    """
    from trainer.engine.house_way.simulate import simulate
    from trainer.engine.profiles import get_profile

    if name is None and path is None:
        fail("Give a house way, e.g.: trainer house-way simulate trump-plaza --hands 1000")
    try:
        table = get_profile(profile)
    except ValueError as exc:
        fail(str(exc))
    n = _count(hands, "the number of hands (--hands N)")
    if n == 0:
        fail("The number of hands must be more than zero.")
    bet = _count(bet_cents, "the bet in cents")
    if bet == 0:
        fail("The bet must be more than zero.")
    seed_value = _count(seed, "the seed", 0)
    processes = max(1, _count(workers, "the number of workers"))
    player_label, player = _chosen(name, path, "the player's house way")
    if against is None and against_path is None:
        banker_label, banker = player_label, player
    else:
        banker_label, banker = _chosen(against, against_path, "the banker's house way")
    counts = simulate(player, banker, n, seed_value, table.wheel, processes)
    emit(summarize(player_label, banker_label, counts, table, bet))


def register(cli: click.Group, hand_group: click.Group) -> None:
    """Add ``hand set`` to the hand group and the ``house-way`` group to the CLI."""
    hand_group.add_command(hand_set)
    cli.add_command(house_way_group)


def summarize(player_way: str, banker_way: str, counts: dict, profile, bet_cents: int
              ) -> dict:
    """Turn outcome counts into rates and the house edge with its 95% interval.

    The counts are before table rules; each deal's result goes through
    ``settlement.table_result`` (the no-commission queen-high push) first.
    """
    from trainer.engine.settlement import Result, commission_cents, fee_cents, table_result

    n = counts["hands"]
    settled = {Result.WIN: 0, Result.PUSH: 0, Result.LOSE: 0}
    for result, key in ((Result.WIN, "win"), (Result.PUSH, "push"), (Result.LOSE, "lose")):
        queen_high = counts.get(f"{key}_vs_queen_high", 0)
        settled[table_result(result, False, profile)] += counts[key] - queen_high
        settled[table_result(result, True, profile)] += queen_high
    win, push, lose = settled[Result.WIN], settled[Result.PUSH], settled[Result.LOSE]
    fee = fee_cents(profile)
    net_win = bet_cents - commission_cents(bet_cents, profile) - fee
    # Player's net per hand, in bets: wins, pushes, losses.
    values = ((win, net_win / bet_cents), (push, -fee / bet_cents),
              (lose, (-bet_cents - fee) / bet_cents))
    mean = sum(k * v for k, v in values) / n
    var = sum(k * v * v for k, v in values) / n - mean * mean
    half = 1.96 * math.sqrt(max(var, 0.0) / n)
    rates = {"player_win": win / n, "push": push / n, "banker_win": lose / n}
    out = {
        "player": player_way,
        "banker": banker_way,
        "profile": profile.name,
        "hands": n,
        **{k: round(v, 6) for k, v in rates.items()},
        "rates_ci95_half_width": {k: round(1.96 * math.sqrt(v * (1 - v) / n), 6)
                                  for k, v in rates.items()},
        "banker_queen_high": sum(counts.get(f"{k}_vs_queen_high", 0)
                                 for k in ("win", "push", "lose")),
        "house_edge": round(-mean, 6),
        "house_edge_ci95": [round(-mean - half, 6), round(-mean + half, 6)],
        "seconds": round(counts["seconds"], 2),
        "deals_per_second": round(n / counts["seconds"]) if counts["seconds"] else None,
        "hands_set_per_second": (round(2 * n / counts["seconds"])
                                 if counts["seconds"] else None),
    }
    reference = REFERENCE.get((f"{player_way}/{banker_way}", profile.name))
    if reference and PROFILES.get(profile.name) == profile:
        # Agreement: within three standard errors of this run's share.
        out["reference"] = reference
        out["reference_within_3se"] = {
            k: abs(rates[k] - reference[k]) <= 3 * math.sqrt(rates[k] * (1 - rates[k]) / n)
            for k in rates}
    return out
