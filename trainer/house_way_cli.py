"""House-way commands: ``trainer hand set`` and the ``trainer house-way`` group."""
from __future__ import annotations

import json
import math
import sys

import click

from trainer.engine.hands import Wheel
from trainer.engine.house_way import DEFAULT_HOUSE_WAY, load, preset_names
from trainer.engine_cli import emit, fail, stream_jsonl

# Published house way against house way, Trump Plaza, 5% commission (Wizard of Odds).
# The edge is the rates' own: 0.2998 - 0.95 x 0.2855 = 2.858%.
PUBLISHED = {"trump-plaza/trump-plaza": {"player_win": 0.2855, "push": 0.4147,
                                         "banker_win": 0.2998, "house_edge": 0.02858}}


def _way(name: str):
    try:
        return load(name)
    except ValueError as exc:
        fail(str(exc))


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


def register(cli: click.Group, hand_group: click.Group) -> None:
    """Add ``hand set`` to the hand group and the ``house-way`` group to the CLI."""

    @hand_group.command("set")
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
        answer = _hand_line(way, wheel)
        if jsonl:
            stream_jsonl(answer)
            return
        if not cards:
            fail("Give seven cards, e.g.: trainer hand set As Kd Qc 9h 7s 4c 2d")
        try:
            emit(answer(" ".join(cards)))
        except ValueError as exc:
            fail(str(exc))

    @cli.group("house-way")
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
    @click.option("--sample", default=None, help="Check N random hands instead of all.")
    @click.option("--seed", default=None, help="Seed for --sample (default 0).")
    @click.option("--wheel", default=Wheel.SECOND_HIGHEST.value, show_default=True)
    @click.option("--workers", default="2", show_default=True, help="Processes to use.")
    def verify_command(name, sample, seed, wheel, workers) -> None:
        """Check every seven-card hand (or a sample): no foul, all cards, deterministic."""
        from trainer.engine.house_way.verify import verify

        if name is None:
            fail("Give a house way, e.g.: trainer house-way verify trump-plaza")
        _way(name)
        if wheel not in {w.value for w in Wheel}:
            fail(f"Unknown wheel setting {wheel!r}; use second_highest or lowest.")
        n = None if sample is None else _count(sample, "the sample size")
        if n == 0:
            fail("The sample size must be more than zero.")
        summary = verify(name, n, _count(seed, "the seed", 0), wheel,
                         max(1, _count(workers, "the number of workers")))
        emit(summary)
        if summary["failed_hands"]:
            sys.exit(1)

    @house_way_group.command("simulate")
    @click.argument("name", required=False)
    @click.option("--against", default=None, help="The banker's house way (default: NAME).")
    @click.option("--hands", default=None, help="Number of deals.")
    @click.option("--seed", default=None, help="Random seed (default 0).")
    @click.option("--profile", default="nevada", show_default=True,
                  help="Table-rules profile: commission, wheel.")
    @click.option("--bet-cents", default="10000", show_default=True)
    @click.option("--workers", default="2", show_default=True, help="Processes to use.")
    def simulate_command(name, against, hands, seed, profile, bet_cents, workers) -> None:
        """Play a house way (player) against a house way (banker) on random deals."""
        from trainer.engine.house_way.simulate import simulate
        from trainer.engine.profiles import get_profile

        if name is None:
            fail("Give a house way, e.g.: trainer house-way simulate trump-plaza --hands 1000")
        against = against or name
        _way(name), _way(against)
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
        counts = simulate(name, against, n, _count(seed, "the seed", 0), table.wheel,
                          max(1, _count(workers, "the number of workers")))
        emit(summarize(name, against, counts, table, bet))


def summarize(player_way: str, banker_way: str, counts: dict, profile, bet_cents: int
              ) -> dict:
    """Turn outcome counts into rates and the house edge with its 95% interval."""
    from trainer.engine.settlement import commission_cents, fee_cents

    n = counts["hands"]
    win, push, lose = counts["win"], counts["push"], counts["lose"]
    fee = fee_cents(profile)
    pushed_wins = counts["win_vs_queen_high"] if profile.no_commission else 0
    paid_wins = win - pushed_wins
    net_win = bet_cents - commission_cents(bet_cents, profile) - fee
    # Player's net per hand, in bets: wins, pushes (incl. queen-high pushes), losses.
    values = ((paid_wins, net_win / bet_cents), (push + pushed_wins, -fee / bet_cents),
              (lose, (-bet_cents - fee) / bet_cents))
    mean = sum(k * v for k, v in values) / n
    var = sum(k * v * v for k, v in values) / n - mean * mean
    half = 1.96 * math.sqrt(max(var, 0.0) / n)
    rates = {"player_win": paid_wins / n, "push": (push + pushed_wins) / n,
             "banker_win": lose / n}
    out = {
        "player": player_way,
        "banker": banker_way,
        "profile": profile.name,
        "hands": n,
        **{k: round(v, 6) for k, v in rates.items()},
        "rates_ci95_half_width": {k: round(1.96 * math.sqrt(v * (1 - v) / n), 6)
                                  for k, v in rates.items()},
        "house_edge": round(-mean, 6),
        "house_edge_ci95": [round(-mean - half, 6), round(-mean + half, 6)],
        "seconds": round(counts["seconds"], 2),
        "deals_per_second": round(n / counts["seconds"]) if counts["seconds"] else None,
        "hands_set_per_second": (round(2 * n / counts["seconds"])
                                 if counts["seconds"] else None),
    }
    published = PUBLISHED.get(f"{player_way}/{banker_way}")
    if published and profile.name == "nevada":
        out["published"] = published
        out["published_within_ci95"] = {
            k: abs(rates[k] - published[k]) <= out["rates_ci95_half_width"][k]
            for k in rates}
        out["published_within_ci95"]["house_edge"] = (
            out["house_edge_ci95"][0] <= published["house_edge"] <= out["house_edge_ci95"][1])
    return out
