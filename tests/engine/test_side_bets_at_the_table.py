"""Side bets in the settlement and round drills and the player's game (issue 17, docs/side-bets.md).

The expected payments are worked out here from the pay tables' data and the bonus
categories (tested on their own in test_bonus.py), never from the drills' code.
"""
from __future__ import annotations

from typing import Any

import pytest
from engine.json_edge import JsonDrill

from trainer.engine.cards import parse_cards
from trainer.engine.drills import DrillContext
from trainer.engine.drills.kinds import round as round_kind
from trainer.engine.drills.kinds import settlement
from trainer.engine.drills.kinds.round import DEALER_SEAT, STEPS
from trainer.engine.drills.kinds.round.grade import side_keys
from trainer.engine.game import (
    PRACTICE_METER_CENTS,
    GameDeal,
    deal_hand,
    game_side_bet,
    play_hand,
    verify_deal_bet,
)
from trainer.engine.hands import is_queen_high_pai_gow
from trainer.engine.house_way import DEFAULT_HOUSE_WAY
from trainer.engine.side_bets import bonus_category, load_table

# Each shipped side bet through its named profile.
PROFILES = {"nevada-fortune": "fortune-standard", "nevada-emperors": "emperors-treasure",
            "nevada-progressive": "progressive", "ez": "queens-dragon"}
# The drills through their JSON edge: questions, answers and keys as a stored row holds them.
SETTLEMENT = JsonDrill(settlement.SLUG)
ROUND = JsonDrill(round_kind.SLUG)


def new_question(slug: str, seed: int, ctx: DrillContext) -> dict[str, Any]:
    """Return the JSON of the question dealt from ``seed``."""
    return JsonDrill(slug).question(seed, ctx)


def seven(p: dict[str, Any]) -> list[int]:
    return list(parse_cards(p["back"] + p["front"], 7))


def expected_side(question: dict[str, Any], seats: list[dict[str, Any]], banker: list[int],
                  envy_hands: list[list[int]]) -> dict[int, dict[str, Any]]:
    """Work out each betting seat's side-bet pay and envy from the tables' data."""
    side = question["side_bet"]
    table = load_table(side["table"])
    out: dict[int, dict[str, Any]] = {}
    for p in seats:
        bet = p.get("bonus_cents") or 0
        if not bet:
            continue
        if side["table"] == "queens-dragon":
            win = 50 * bet if is_queen_high_pai_gow(banker) else 0
            rule = ("bonus.queens-dragon.queen-high-pai-gow" if win
                    else "bonus.queens-dragon.nothing")
        else:
            category = bonus_category(seven(p), table.match)
            line = table.line_for(category)
            win = 0
            if line is not None:
                win = (line.odds * bet if line.odds is not None
                       else line.amount_cents if line.amount_cents is not None
                       else side["meter_cents"] * line.meter_percent // 100)
            rule = f"bonus.{side['table']}.{category.slug if line else 'nothing'}"
        entry: dict[str, Any] = {"bonus_paid_cents": win, "rule": rule}
        if side.get("envy"):
            envy = load_table(side["envy"])
            paid = 0
            if bet >= 500:
                for other in envy_hands:
                    if set(other) == set(seven(p)):
                        continue
                    line = envy.line_for(bonus_category(other, envy.match))
                    paid += line.amount_cents if line is not None else 0
            entry["envy_paid_cents"] = paid
        out[p["seat"]] = entry
    return out


def settlement_case(profile: str, wanted: Any, limit: int = 400) -> tuple[dict, DrillContext, dict]:
    ctx = DrillContext(profile=profile)
    for seed in range(limit):
        q = new_question("settlement", seed, ctx)
        banker = list(parse_cards(q["banker"]["back"] + q["banker"]["front"], 7))
        exp = expected_side(q, q["positions"], banker, [seven(p) for p in q["positions"]])
        if wanted(exp):
            return q, ctx, exp
    raise AssertionError(f"no settlement under {profile} shows it in {limit} seeds")


def settlement_answer(q: dict, ctx: DrillContext, exp: dict[int, dict[str, Any]]) -> dict:
    key = SETTLEMENT.grade(q, SETTLEMENT.probe(q), ctx).correct_answer
    positions = []
    for p, k in zip(q["positions"], key["positions"], strict=True):
        entry = {"outcome": k["outcome"]}
        if k["outcome"] == "win":
            entry["paid_cents"] = k["paid_cents"]
        if p["seat"] in exp:
            entry.update({f: v for f, v in exp[p["seat"]].items() if f != "rule"})
        positions.append(entry)
    return {"positions": positions}


def wins(exp: dict) -> bool:
    return any(e["bonus_paid_cents"] for e in exp.values())


def wins_and_envies(exp: dict) -> bool:
    return wins(exp) and any(e.get("envy_paid_cents") for e in exp.values())


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_settlement_drill_pays_each_shipped_side_bet_through_its_profile(profile: str) -> None:
    q, ctx, exp = settlement_case(profile, wins_and_envies if profile == "nevada-fortune" else wins)
    assert q["side_bet"]["table"] == PROFILES[profile]
    grade = SETTLEMENT.grade(q, settlement_answer(q, ctx, exp), ctx)
    assert grade.correct, grade.explanation
    side = [p for p in grade.parts if p.get("part")]
    assert {p["seat"] for p in side} == set(exp)
    for p in side:
        if p["part"] == "bonus":
            assert p["rule_id"] == exp[p["seat"]]["rule"]
            assert p["paid_cents"] == exp[p["seat"]]["bonus_paid_cents"]
        else:
            assert p["rule_id"].startswith("bonus.envy.")
            assert p["paid_cents"] == exp[p["seat"]]["envy_paid_cents"]


def test_a_wrong_bonus_payment_is_wrong_in_its_part_with_its_pay_line_and_said_in_words() -> None:
    q, ctx, exp = settlement_case("nevada-fortune", wins)
    answer = settlement_answer(q, ctx, exp)
    seat = next(s for s, e in exp.items() if e["bonus_paid_cents"])
    at = [p["seat"] for p in q["positions"]].index(seat)
    answer["positions"][at]["bonus_paid_cents"] += 100
    grade = SETTLEMENT.grade(q, answer, ctx)
    assert not grade.correct and grade.rule_id == exp[seat]["rule"]
    wrong = [p for p in grade.parts if not p["correct"]]
    assert [(p["seat"], p["part"]) for p in wrong] == [(seat, "bonus")]
    fb = SETTLEMENT.feedback(q, answer, ctx, grade)
    line = load_table("fortune-standard").line_by_slug(exp[seat]["rule"].rsplit(".", 1)[1])
    money = exp[seat]["bonus_paid_cents"]
    words = f"Seat {seat}: {line.name.lower()} pays {line.pays}: ${money // 100:,}.{money % 100:02d}"
    assert fb.wrong_parts == (f"seat {seat} bonus",)
    assert words in str(fb.parts[len(q["positions"]) + 2 * list(exp).index(seat)].why)
    assert str(fb.said).startswith(f"You paid seat {seat}'s bonus")


def test_envy_is_paid_only_to_bonus_bets_of_five_dollars_or_more() -> None:
    def small_bet_beside_envy(exp: dict) -> bool:
        return any(e.get("envy_paid_cents") for e in exp.values())
    ctx = DrillContext(profile="nevada-fortune")
    seen_small = False
    for seed in range(600):
        q = new_question("settlement", seed, ctx)
        banker = list(parse_cards(q["banker"]["back"] + q["banker"]["front"], 7))
        exp = expected_side(q, q["positions"], banker, [seven(p) for p in q["positions"]])
        if not small_bet_beside_envy(exp):
            continue
        grade = SETTLEMENT.grade(q, settlement_answer(q, ctx, exp), ctx)
        assert grade.correct
        for p in q["positions"]:
            if 0 < (p.get("bonus_cents") or 0) < 500:
                envy = next(x for x in grade.parts if x.get("part") == "envy"
                            and x["seat"] == p["seat"])
                assert envy["paid_cents"] == 0 and envy["rule_id"] == "bonus.envy.nothing"
                seen_small = True
        if seen_small:
            return
    raise AssertionError("no table showed a small bonus bet beside a qualifying hand")


def test_a_side_bet_answer_has_an_exact_shape() -> None:
    q, ctx, exp = settlement_case("nevada-fortune", wins)
    answer = settlement_answer(q, ctx, exp)
    seat = next(iter(exp))
    at = [p["seat"] for p in q["positions"]].index(seat)
    missing = {"positions": [dict(p) for p in answer["positions"]]}
    del missing["positions"][at]["bonus_paid_cents"]
    with pytest.raises(ValueError, match=f"Seat {seat}: enter what the bonus bet is paid"):
        SETTLEMENT.validate_answer(q, missing, ctx)
    for bad in ("5", 1.5, True, -1):
        shaped = {"positions": [dict(p) for p in answer["positions"]]}
        shaped["positions"][at]["envy_paid_cents"] = bad
        with pytest.raises(ValueError):
            SETTLEMENT.validate_answer(q, shaped, ctx)
    if any(not p.get("bonus_cents") for p in q["positions"]):
        idle = next(i for i, p in enumerate(q["positions"]) if not p.get("bonus_cents"))
        extra = {"positions": [dict(p) for p in answer["positions"]]}
        extra["positions"][idle]["bonus_paid_cents"] = 0
        with pytest.raises(ValueError, match="does not take"):
            SETTLEMENT.validate_answer(q, extra, ctx)


@pytest.mark.parametrize("kind", ["settlement", "round"])
def test_profiles_without_side_bets_deal_no_side_bets(kind: str) -> None:
    for profile in ("nevada", "california", "no-commission"):
        ctx = DrillContext(profile=profile)
        for seed in range(30):
            q = new_question(kind, seed, ctx)
            assert "side_bet" not in q
            seats = q["positions"] if kind == "settlement" else q["players"]
            assert all("bonus_cents" not in p for p in seats)


def test_an_old_question_without_side_bets_still_grades_under_a_side_bet_profile() -> None:
    q, ctx, _exp = settlement_case("nevada-fortune", wins)
    old = {**q, "positions": [{k: v for k, v in p.items() if k != "bonus_cents"}
                              for p in q["positions"]]}
    del old["side_bet"]
    answer = {"positions": [{"outcome": "lose"} for _ in old["positions"]]}
    grade = SETTLEMENT.grade(old, answer, ctx)
    assert not any(p.get("part") for p in grade.parts)
    assert len(SETTLEMENT.feedback(old, answer, ctx, grade).parts) == len(old["positions"])


def round_case(profile: str, wanted: Any, limit: int = 400) -> tuple[dict, DrillContext, dict]:
    ctx = DrillContext(profile=profile)
    for seed in range(limit):
        q = ROUND.at_step(new_question("round", seed, ctx), 2, ctx)
        banker = list(parse_cards(q["banker"]["back"] + q["banker"]["front"], 7))
        betting = [p for p in q["players"] if p["seat"] != DEALER_SEAT]
        # Envy comes from the players' hands and a player-banker's; the dealer's pays none.
        hands = [seven(p) for p in betting]
        if q["banker_seat"] != DEALER_SEAT:
            hands.append(banker)
        exp = expected_side(q, betting, banker, hands)
        if wanted(exp):
            return q, ctx, exp
    raise AssertionError(f"no round under {profile} shows it in {limit} seeds")


def round_answer(q: dict, ctx: DrillContext, exp: dict) -> dict:
    key = ROUND.grade(q, ROUND.probe(q), ctx).correct_answer
    answer: dict[str, Any] = {"order": key["order"],
                              "side": [{"seat": s, **{f: v for f, v in e.items() if f != "rule"}}
                                       for s, e in sorted(exp.items())]}
    if "banker_commission_cents" in key:
        answer["banker_commission_cents"] = key["banker_commission_cents"]
    return answer


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_round_drill_settles_each_shipped_side_bet_through_its_profile(profile: str) -> None:
    q, ctx, exp = round_case(profile, wins_and_envies if profile == "nevada-fortune" else wins)
    assert q["side_bet"]["table"] == PROFILES[profile] and len(STEPS) == 3
    grade = ROUND.grade(q, round_answer(q, ctx, exp), ctx)
    assert grade.correct, grade.explanation
    bonus = {p["seat"]: p for p in grade.parts if p.get("part") == "bonus"}
    assert {s: p["rule_id"] for s, p in bonus.items()} == {s: e["rule"] for s, e in exp.items()}
    wrong = round_answer(q, ctx, exp)
    wrong["side"][0]["bonus_paid_cents"] += 1
    graded = ROUND.grade(q, wrong, ctx)
    first = min(exp)
    assert not graded.correct and graded.rule_id == exp[first]["rule"]
    fb = ROUND.feedback(q, wrong, ctx, graded)
    assert str(fb.said).startswith(f"You paid seat {first}'s")


def test_a_player_bankers_hand_pays_envy_and_the_dealers_does_not() -> None:
    ctx = DrillContext(profile="nevada-fortune")
    envy = load_table("envy")
    for seed in range(3000):
        q = ROUND.at_step(new_question("round", seed, ctx), 2, ctx)
        if q["banker_seat"] == DEALER_SEAT:
            continue
        banker = list(parse_cards(q["banker"]["back"] + q["banker"]["front"], 7))
        if envy.line_for(bonus_category(banker, envy.match)) is None:
            continue
        if not any((p.get("bonus_cents") or 0) >= 500 for p in q["players"]):
            continue
        keys = side_keys(ROUND.typed(q), ctx)
        assert all(k["envy"]["paid_cents"] > 0 for k in keys if k["bet_cents"] >= 500)
        assert all(p["seat"] != DEALER_SEAT for p in keys)
        return
    pytest.skip("no player-banker with a qualifying hand in these seeds")


def test_the_round_side_answer_names_each_seat_with_a_side_bet_in_order() -> None:
    q, ctx, exp = round_case("nevada-emperors", wins)
    answer = round_answer(q, ctx, exp)
    with pytest.raises(ValueError, match="Pay the side bets of all"):
        ROUND.validate_answer(q, {**answer, "side": answer["side"][1:]}, ctx)
    del answer["side"]
    with pytest.raises(ValueError, match="missing 'side'"):
        ROUND.validate_answer(q, answer, ctx)


# --- the player's game ---------------------------------------------------------------


def test_the_game_offers_the_profiles_bonus_table_else_the_standard_fortune_table() -> None:
    assert game_side_bet("nevada").table == "fortune-standard"
    assert game_side_bet("no-commission").table == "fortune-standard"
    for profile, table in PROFILES.items():
        assert game_side_bet(profile).table == table


def game_seed(profile: str, wins_when: Any, limit: int = 20000) -> int:
    for seed in range(limit):
        if wins_when(deal_hand(seed)):
            return seed
    raise AssertionError("no deal")


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_the_game_settles_each_side_bet_against_the_house(profile: str) -> None:
    table = load_table(PROFILES[profile])
    bet = 100 if profile == "nevada-progressive" else 500

    def winning(d: GameDeal) -> bool:
        if profile == "ez":
            return is_queen_high_pai_gow(d.banker)
        return table.line_for(bonus_category(d.player, table.match)) is not None

    d = deal_hand(game_seed(profile, winning))
    result = play_hand(d, None, 1000, profile, DEFAULT_HOUSE_WAY, bet)
    if profile == "ez":
        assert result.bonus.win_cents == 50 * bet
    else:
        line = table.line_for(bonus_category(d.player, table.match))
        want = (line.odds * bet if line.odds is not None else line.amount_cents
                if line.amount_cents is not None
                else PRACTICE_METER_CENTS * line.meter_percent // 100)
        assert result.bonus.win_cents == want
    # The main bet is settled exactly as without a side bet.
    plain = play_hand(d, None, 1000, profile, DEFAULT_HOUSE_WAY)
    assert plain.bonus is None and plain.settlement == result.settlement


def test_the_game_refuses_a_side_bet_out_of_limits_or_over_the_balance() -> None:
    with pytest.raises(ValueError, match="between"):
        verify_deal_bet(1000, 100_000, "nevada", 5000)
    with pytest.raises(ValueError, match="fixed"):
        verify_deal_bet(1000, 100_000, "nevada-progressive", 500)
    with pytest.raises(ValueError, match="side bet"):
        verify_deal_bet(1000, 1400, "nevada", 500)
    verify_deal_bet(1000, 1500, "nevada", 500)
