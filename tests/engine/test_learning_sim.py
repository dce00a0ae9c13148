"""The practice benchmark (bench/learning_sim.py, docs/learning.md; issue 30 step 6).

Fast checks of the bench itself, on a small made-up house way (the real ones need
the class tables, seconds of start-up): its learner model is the one the doc states
and replays for a seed, its FSRS memory stored as JSON after every answer is the
pinned library's uninterrupted run, and its JSON line carries every field.
"""
from __future__ import annotations

import importlib.util
import io
import json
import random
import sys
from contextlib import redirect_stdout
from datetime import timedelta
from pathlib import Path

import pytest
from fsrs import Card, Rating, Scheduler

BENCH = Path(__file__).resolve().parents[2] / "bench" / "learning_sim.py"


@pytest.fixture(scope="module")
def sim():
    spec = importlib.util.spec_from_file_location("learning_sim_under_test", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def small_way(sim):
    """Five rules; two rarer than 0.1% of hands; the hands add up to every hand."""
    hands = [90_000_000, 50_000_000, 13_943_080, 150_000, 50_000]
    assert sum(hands) == sim.TOTAL_HANDS
    return sim.Way("test-way", ("one-pair.standard", "two-pair.split.aces", "trips.standard",
                                "quads.split.aces", "five-aces.split"), tuple(hands))


def answers(run):
    return (run.hands, run.capped, run.rare_mean, run.rare_at_95, run.end_mean,
            run.end_below, run.calibration)


@pytest.mark.parametrize("policy", ["uniform", "mistakes", "adaptive"])
def test_model_replays_exactly_for_a_seed(sim, policy) -> None:
    """The same seed and trainee give the same run; another seed another trainee."""
    way = small_way(sim)
    first = sim.simulate(way, policy, 7, 0)
    again = sim.simulate(way, policy, 7, 0)
    assert answers(first) == answers(again)
    other = [answers(sim.simulate(way, policy, seed, 0)) for seed in (8, 9, 10)]
    assert any(o != answers(first) for o in other)


def test_same_trainee_meets_every_policy(sim) -> None:
    """A trainee's person (floors, rates, half-life) does not depend on the policy."""
    way = small_way(sim)
    people = [sim.Trainee.make(way, 3, 5, p) for p in sim.POLICIES]
    assert len({(tuple(p.floor), p.learn_wrong, p.learn_right, p.first_half_life)
                for p in people}) == 1
    assert people[0].floor != sim.Trainee.make(way, 3, 6, "uniform").floor


def test_floor_gives_the_stated_initial_error(sim, monkeypatch) -> None:
    """Without the personal terms, a rule's first accuracy is 1 - its family's error."""
    monkeypatch.setattr(sim, "ABILITY_SD", 0.0)
    monkeypatch.setattr(sim, "RULE_SD", 0.0)
    way = small_way(sim)
    person = sim.Trainee.make(way, 1, 0, "uniform")
    for r, rule in enumerate(way.rules):
        expected = 1 - sim.INITIAL_ERROR[sim.rule_family(rule)]
        assert person.p_right(r, 0.0) == pytest.approx(expected)


def test_learning_decays_by_half_in_one_half_life_to_the_floor(sim) -> None:
    """Exponential forgetting: half the knowledge above the floor is gone after h days."""
    way = small_way(sim)
    person = sim.Trainee.make(way, 1, 0, "uniform")
    person.answer(1, 0.0)
    h, floor, learned = person.half_life[1], person.floor[1], person.know[1]
    assert learned > floor
    assert person.knowledge(1, h) == pytest.approx(floor + (learned - floor) / 2)
    assert person.knowledge(1, 200 * h) == pytest.approx(floor)


def test_right_answer_after_full_forgetting_grows_half_life_by_the_stated_factor(sim) -> None:
    """1 + GROWTH after everything faded; 1 + GROWTH * MASSED with nothing faded; a miss halves."""
    way = small_way(sim)
    person = sim.Trainee.make(way, 1, 0, "uniform")
    person.rng = random.Random(0)
    person.answer(0, 0.0)
    h = person.half_life[0]
    person.rng.random = lambda: 0.0          # every answer right
    person.answer(0, 0.0)
    assert person.half_life[0] == pytest.approx(h * (1 + sim.GROWTH * sim.MASSED))
    h = person.half_life[0]
    person.answer(0, 10_000.0)
    assert person.half_life[0] == pytest.approx(h * (1 + sim.GROWTH), rel=1e-6)
    h = person.half_life[0]
    person.rng.random = lambda: 0.999_999   # wrong
    person.answer(0, 10_000.0)
    assert person.half_life[0] == pytest.approx(h * sim.LAPSE)


def test_fsrs_memory_stored_as_json_after_each_answer_equals_uninterrupted_library(sim) -> None:
    """Reloading the memory from JSON after every answer changes nothing FSRS computes."""
    rng = random.Random(30)
    library = Scheduler(enable_fuzzing=False)
    assert library.parameters == sim.SCHEDULER.parameters   # the library's defaults
    assert library.desired_retention == sim.SCHEDULER.desired_retention
    cards: dict[int, Card] = {}
    stored = sim.Memory().to_json()
    kept = sim.Memory()
    for day in range(40):
        for q in range(sim.SESSION):
            rule, right = rng.randrange(4), rng.random() < 0.8
            when = sim.clock(day, q)
            card = cards.get(rule) or Card(card_id=rule + 1, due=when)
            cards[rule], _ = library.review_card(card, Rating.Good if right else Rating.Again,
                                                 when)
            memory = sim.Memory.from_json(stored)
            memory.review(rule, right, when)
            stored = memory.to_json()
            kept.review(rule, right, when)
            reloaded = sim.Memory.from_json(stored)
            assert {r: c.to_dict() for r, c in reloaded.cards.items()} == \
                {r: c.to_dict() for r, c in cards.items()}
            later = when + timedelta(days=3)
            assert reloaded.recall(rule, later) == library.get_card_retrievability(
                cards[rule], later)
    assert kept.to_json() == stored
    assert len(cards) == 4 and all(c.stability for c in cards.values())


def test_mistakes_deals_only_the_families_of_recent_misses(sim) -> None:
    """Like the app's "my mistakes": the latest missed rules' families, else every rule."""
    way = small_way(sim)
    policy = sim.Mistakes(way, random.Random(1))
    policy.start(0)
    assert {policy.pick(0, q) for q in range(400)} >= {0, 1, 2}
    policy.seen(3, False, 0, 0)            # quads.split.aces missed
    policy.seen(0, True, 0, 1)
    policy.start(1)
    assert {policy.pick(1, q) for q in range(50)} == {3}


def test_json_line_has_every_field(sim, monkeypatch) -> None:
    way = small_way(sim)
    monkeypatch.setattr(sim, "load_ways", lambda names=None: [way])
    out = io.StringIO()
    with redirect_stdout(out):
        sim.main(["--trainees", "3", "--seed", "2", "--workers", "1"])
    lines = out.getvalue().splitlines()
    assert len(lines) == 1
    line = json.loads(lines[0])
    assert {"preset", "trainees", "seed", "scale_learning", "scale_forgetting", "session",
            "cap", "rules", "major_rules", "rare_rules", "rare_share_of_hands", "policies",
            "ratio", "goal", "meets_goal", "calibration", "seconds_all_presets",
            "seconds_total", "load_average"} <= set(line)
    assert line["preset"] == "test-way" and line["trainees"] == 3
    assert line["rare_rules"] == ["quads.split.aces", "five-aces.split"]
    assert set(line["policies"]) == {"uniform", "mistakes", "adaptive"}
    for figures in line["policies"].values():
        assert {"median", "p90", "capped_share", "rare_mean_accuracy", "rare_share_at_95",
                "end_mean_accuracy_median", "end_major_below_95_mean"} <= set(figures)
        assert 0 < figures["median"] <= figures["p90"] <= sim.CAP
    assert line["ratio"] == pytest.approx(
        line["policies"]["adaptive"]["median"] / line["policies"]["uniform"]["median"], abs=1e-3)
    assert {"mae", "answers", "deciles"} <= set(line["calibration"])
    assert len(line["calibration"]["deciles"]) == 10


def test_adaptive_introduces_floor_rules_before_rarer_ones(sim, monkeypatch) -> None:
    """New rules: those of 0.1% or more of hands first, most frequent first, 3 a session."""
    monkeypatch.setattr(sim, "UNBIASED_SHARE", 0.0)
    way = small_way(sim)
    policy = sim.Adaptive(way, random.Random(1))
    introduced = []
    for day in range(3):
        policy.start(day)
        for q in range(sim.SESSION):
            rule = policy.pick(day, q)
            if rule not in policy.memory.cards:
                introduced.append((day, rule))
            policy.seen(rule, True, day, q)
    assert introduced == [(0, 0), (0, 1), (0, 2), (1, 3), (1, 4)]


def test_adaptive_asks_a_missed_rule_again_within_the_session(sim, monkeypatch) -> None:
    """A miss is rated Again: FSRS makes the rule due a minute later, so it comes back."""
    monkeypatch.setattr(sim, "UNBIASED_SHARE", 0.0)
    way = small_way(sim)
    policy = sim.Adaptive(way, random.Random(1))
    policy.start(0)
    asked = []
    for q in range(sim.SESSION):
        rule = policy.pick(0, q)
        asked.append(rule)
        policy.seen(rule, rule != 2, 0, q)     # trips.standard always missed
    first = asked.index(2)
    assert asked[first + 1:].count(2) >= 3
