"""The ``trainer`` command line: JSON answers, exit status 2 on bad input."""
import json

import pytest
from click.testing import CliRunner

from trainer.cli import cli
from trainer.cli.engine import register

register(cli)


@pytest.fixture()
def run():
    runner = CliRunner()

    def invoke(*args, stdin=None):
        result = runner.invoke(cli, list(args), input=stdin)
        return result

    return invoke


def test_hand_rank_prints_canonical_json(run):
    r = run("hand", "rank", "kh kd joker 7c 3s")
    assert r.exit_code == 0
    assert json.loads(r.stdout) == {
        "cards": ["Kh", "Kd", "JK", "7c", "3s"], "category": "one_pair",
        "ranks": ["K", "A", "7", "3"], "joker_as": "A",
        "description": "Pair of kings, A-7-3, joker as A"}


def test_hand_rank_two_cards(run):
    r = run("hand", "rank", "JK", "Ah")
    assert json.loads(r.stdout)["category"] == "one_pair"


@pytest.mark.parametrize("args, fragment", [
    (("hand", "rank", "As Ks Qs Js"), "4 were given"),
    (("hand", "rank", "As As Qs Js Ts"), "As appears twice"),
    (("hand", "rank", "Zz Ks Qs Js Ts"), "Zz is not a card"),
    (("dice", "20"), "dice total"),
    (("settle", "--player-back", "Ac 2d 3h 4s 5d"), "Missing"),
])
def test_bad_input_exits_2_with_one_line_error(run, args, fragment):
    r = run(*args)
    assert r.exit_code == 2
    assert fragment in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert r.stdout == ""


def test_hand_compare(run):
    assert json.loads(run("hand", "compare", "As Ad", "JK Ac").stdout) == {"result": "copy"}
    assert json.loads(run("hand", "compare", "2c 3d 4h 5s JK",
                          "9c Td Jh Qs Kd").stdout) == {"result": "win"}


def test_hand_foul(run):
    r = run("hand", "foul", "--back", "Kh Jd 9c 7s 3d", "--front", "Kc Qd")
    out = json.loads(r.stdout)
    assert out["fouled"] is True and "outranks" in out["reason"]
    r = run("hand", "foul", "--back", "Th Td Jc 5s 4d", "--front", "Tc Ts")
    assert json.loads(r.stdout) == {"fouled": False, "reason": None}


def test_settle_command(run):
    r = run("settle", "--player-back", "Ac 2d 3h 4s 5d", "--player-front", "Ks 2c",
            "--banker-back", "9c Td Jh Qs Kd", "--banker-front", "Qc Jd",
            "--bet-cents", "2000")
    assert json.loads(r.stdout) == {"back": "win", "front": "win", "fouled": False,
                                    "outcome": "win", "commission_cents": 100,
                                    "net_cents": 1900}


def test_dice_command(run):
    assert json.loads(run("dice", "15").stdout) == {"position": 1}
    assert json.loads(run("dice", "11").stdout) == {"position": 4}


def test_jsonl_answers_each_line_and_fails_at_the_end(run):
    r = run("hand", "rank", "--jsonl", stdin="As Ks Qs Js Ts\nXx Ks\n2c 3c\n")
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert r.exit_code == 2
    assert lines[0]["category"] == "royal_flush"
    assert "Xx is not a card" in lines[1]["error"]
    assert lines[2]["description"] == "3-2"


def test_jsonl_for_every_command(run):
    assert run("hand", "compare", "--jsonl",
               stdin='{"a": "As Ks", "b": "Ad Kd"}\n').stdout.strip() == '{"result": "copy"}'
    foul = run("hand", "foul", "--jsonl",
               stdin='{"back": "Kh Jd 9c 7s 3d", "front": "Kc Qd"}\n')
    assert json.loads(foul.stdout)["fouled"] is True
    req = {"player_back": "7c 7d 3h 4s 2d", "player_front": "Ts 2c",
           "banker_back": "9c Td Jh Qs Kd", "banker_front": "Qc Jd",
           "bet_cents": 2000, "profile": "california"}
    settled = run("settle", "--jsonl", stdin=json.dumps(req) + "\n{}\n")
    lines = [json.loads(x) for x in settled.stdout.splitlines()]
    assert lines[0]["net_cents"] == -2100 and "missing" in lines[1]["error"]
    assert settled.exit_code == 2
    dice = run("dice", "--jsonl", stdin="3\n8\nseven\n")
    assert [json.loads(x) for x in dice.stdout.splitlines()][:2] == [
        {"position": 3}, {"position": 1}]
    assert dice.exit_code == 2


# --- side bets through `trainer settle`, each shipped one through its named profile ---------

def _side(run, profile, player_back, player_front, banker_back, banker_front, side, *extra):
    r = run("settle", "--player-back", player_back, "--player-front", player_front,
            "--banker-back", banker_back, "--banker-front", banker_front, "--bet-cents", "1000",
            "--profile", profile, "--side-bet-cents", str(side), *extra)
    return r


def _odds(table, slug):
    from trainer.engine.side_bets import load_table
    return next(line for line in load_table(table).lines if line.slug == slug)


def test_settle_fortune_with_envy_pays_the_bonus_and_one_envy_per_other_qualifying_hand(run):
    # Five aces (four aces and the joker); two other players hold four of a kind.
    r = _side(run, "nevada-fortune", "As Ah Ad Ac 2h", "JK 3d", "Ks Kh 7c 6d 5s", "Qc 9d", 500,
              "--envy-hand", "8s 8h 8d 8c 2c 3c 4h", "--envy-hand", "Tc Td Th Ts 4c 5c 6h")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    line = _odds("fortune-standard", "five-aces")
    assert out["side_bet"]["rule_id"] == "bonus.fortune-standard.five-aces"
    assert out["side_bet"]["win_cents"] == 500 * line.odds
    envy = _odds("envy", "four-of-a-kind")
    assert [e["amount_cents"] for e in out["envy"]] == [envy.amount_cents] * 2
    assert out["total_net_cents"] == out["net_cents"] + 500 * line.odds + 2 * envy.amount_cents


def test_settle_emperors_treasure_pays_royal_plus_suited_ace_king(run):
    r = _side(run, "nevada-emperors", "As Ks Qs Js Ts", "Ah Kh", "9c 9d 4h 5c 6d", "2c 3d", 1000)
    assert r.exit_code == 0, r.output
    side = json.loads(r.stdout)["side_bet"]
    assert side["category"] == "royal-plus-match"
    assert side["win_cents"] == 1000 * _odds("emperors-treasure", "royal-plus-match").odds


def test_settle_progressive_pays_the_meter_or_its_fixed_amount(run):
    top = _side(run, "nevada-progressive", "Ah Ad Ac As 2h", "JK 3d", "9c 9d 4h 5c 6d",
                "2c 3c", 100, "--meter-cents", "2500000")
    assert top.exit_code == 0, top.output
    assert json.loads(top.stdout)["side_bet"]["win_cents"] == 2_500_000 * _odds(
        "progressive", "five-aces").meter_percent // 100
    quads = _side(run, "nevada-progressive", "8h 8d 8c 8s 2h", "Kc 3d", "9c 9d 4h 5c 6d",
                  "2c 3c", 100, "--meter-cents", "2500000")
    assert json.loads(quads.stdout)["side_bet"]["win_cents"] == _odds(
        "progressive", "four-of-a-kind").amount_cents
    wrong_bet = _side(run, "nevada-progressive", "8h 8d 8c 8s 2h", "Kc 3d", "9c 9d 4h 5c 6d",
                      "2c 3c", 500, "--meter-cents", "2500000")
    assert wrong_bet.exit_code == 2


def test_settle_queens_dragon_pays_fifty_to_one_on_the_bankers_queen_high_pai_gow(run):
    r = _side(run, "ez", "As Kh 9d 7c 2h", "Qd 3d", "Qs Jh 9c 6d 5s", "8c 4d", 500)
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["outcome"] == "push"          # no commission: queen-high pai gow pushes
    assert out["side_bet"]["win_cents"] == 500 * _odds("queens-dragon", "queen-high-pai-gow").odds
    lost = _side(run, "ez", "As Kh 9d 7c 2h", "Qd 3d", "Ks Jh 9c 6d 5s", "8c 4d", 500)
    assert json.loads(lost.stdout)["side_bet"]["net_cents"] == -500


def test_settle_refuses_a_side_bet_the_table_does_not_offer_or_a_card_dealt_twice(run):
    r = _side(run, "nevada", "As Kh 9d 7c 2h", "Qd 3d", "Qs Jh 9c 6d 5s", "8c 4d", 500)
    assert r.exit_code == 2 and "offers no side bet" in r.output
    dup = _side(run, "nevada-fortune", "As Kh 9d 7c 2h", "Qd 3d", "Qs Jh 9c 6d 5s", "8c 4d", 500,
                "--envy-hand", "As 8h 8d 8c 8s 3c 4h")
    assert dup.exit_code == 2
