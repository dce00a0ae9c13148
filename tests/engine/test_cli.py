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
