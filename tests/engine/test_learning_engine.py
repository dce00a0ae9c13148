"""Practice that adapts, the engine's part (issue 30): ratings, memories, keys, policy, forecast."""
from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Card, Rating, Scheduler

from trainer.engine.drills import DrillContext, get_drill
from trainer.engine.house_way import load
from trainer.engine.learning.catalogue import catalogue
from trainer.engine.learning.dealing import question_for
from trainer.engine.learning.forecast import Outlook, Pace, forecast
from trainer.engine.learning.keys import SkillKey, skill_key
from trainer.engine.learning.memory import (
    SCHEDULER,
    CardState,
    Grade,
    recall,
    review,
    stability_for,
)
from trainer.engine.learning.policy import Pick, pick

NOW = datetime(2027, 1, 4, 9, 0, tzinfo=UTC)


# --- the rating of an answer ------------------------------------------------------------


@pytest.mark.parametrize("correct, timed_out, elapsed, criterion, expected", [
    (False, False, 1_000, 8_000, Grade.AGAIN),   # wrong
    (True, True, 1_000, 8_000, Grade.AGAIN),     # timed out, whatever it said
    (False, True, 40_000, None, Grade.AGAIN),
    (True, False, 8_001, 8_000, Grade.HARD),     # right, slower than the criterion time
    (True, False, 8_000, 8_000, Grade.GOOD),     # at it exactly: not slower
    (True, False, 4_000, 8_000, Grade.GOOD),     # half exactly: not under half
    (True, False, 3_999, 8_000, Grade.EASY),     # right in under half of it
    (True, False, 60_000, None, Grade.GOOD),     # no criterion time known: Good
])
def test_rating_wrong_or_timed_out_again_slow_hard_fast_easy_else_good(
        correct: bool, timed_out: bool, elapsed: int, criterion: int | None,
        expected: Grade) -> None:
    from trainer.engine.learning.memory import rating
    assert rating(correct, timed_out, elapsed, criterion) is expected
    assert int(expected) == int({Grade.AGAIN: Rating.Again, Grade.HARD: Rating.Hard,
                                 Grade.GOOD: Rating.Good, Grade.EASY: Rating.Easy}[expected])


def test_a_memory_stored_as_json_after_each_review_equals_the_librarys_uninterrupted_run() -> None:
    library = Scheduler(enable_fuzzing=False)
    assert library.parameters == SCHEDULER.parameters      # the library's defaults
    assert library.desired_retention == SCHEDULER.desired_retention == 0.9
    rng = random.Random(30)
    card = Card(card_id=1, due=NOW)
    text: str | None = None
    when = NOW
    for _ in range(60):
        when += timedelta(seconds=rng.choice([5, 600, 3600, 86_400, 5 * 86_400]))
        grade = rng.choice(list(Grade))
        card, _log = library.review_card(card, Rating(int(grade)), when)
        stored = review(None if text is None else CardState.from_json(text), grade, when)
        text = stored.as_json()
        again = CardState.from_json(text)
        assert {k: v for k, v in again.card().to_dict().items() if k != "card_id"} == \
            {k: v for k, v in card.to_dict().items() if k != "card_id"}
        later = when + timedelta(days=3)
        assert recall(again, later) == library.get_card_retrievability(card, later)
    assert recall(None, NOW) == 0.0


def test_stability_for_gives_the_stated_recall_a_day_after_the_review() -> None:
    for accuracy in (0.95, 0.98, 0.99):
        memory = CardState(2, None, stability_for(accuracy), 5.0, NOW, NOW)
        assert recall(memory, NOW + timedelta(days=1)) == pytest.approx(accuracy)
    assert stability_for(0.98) == pytest.approx(7.0, abs=0.05)


# --- the skill of an answer ---------------------------------------------------------------


def test_a_way_rule_is_scoped_to_the_way_and_version_a_declared_skill_is_not() -> None:
    assert skill_key("house-way", "two-pair.split.aces", "riverside@2", "abc") == \
        SkillKey("house-way", "two-pair.split.aces", "riverside@2", "abc")
    # The fallback of a rule whose setting would foul is its rule's skill.
    assert skill_key("house-way", "two-pair.split.aces.fallback", "riverside@2", "abc") == \
        SkillKey("house-way", "two-pair.split.aces", "riverside@2", "abc")
    assert skill_key("house-way", "one-pair.standard", "trump-plaza", None).digest == ""
    # A rule a kind's home declares is the same under every house way.
    assert skill_key("action", "action.count", "riverside@2", "abc") == \
        SkillKey("action", "action.count")
    assert skill_key("settlement", "settlement.copy-push", "foxwoods", "d").way == ""


# --- the policy -----------------------------------------------------------------------------


def _pick(**kw: object) -> Pick[int]:
    args: dict[str, object] = {"due": {}, "recall_now": {}, "recall_next": {},
                               "floor": frozenset({0, 1, 2}), "unseen": [], "new_left": 3,
                               "unbiased_share": 0.0}
    args.update(kw)
    return pick(random.Random(1), NOW, **args)  # type: ignore[arg-type]


def test_the_policy_asks_due_and_least_retrievable_first_then_new_then_ahead() -> None:
    past, future = NOW - timedelta(minutes=1), NOW + timedelta(days=2)
    due = {0: past, 1: past, 2: future}
    now_r = {0: 0.9, 1: 0.6, 2: 1.0}
    next_r = {0: 0.8, 1: 0.5, 2: 0.7}
    assert _pick(due=due, recall_now=now_r, recall_next=next_r, unseen=[3]) == Pick(1, False)
    nothing_due = dict.fromkeys(due, future)
    assert _pick(due=nothing_due, recall_now=now_r, recall_next=next_r, unseen=[3],
                 floor=frozenset({0, 1, 2, 3})) == Pick(3, True)
    assert _pick(due=nothing_due, recall_now=now_r, recall_next=next_r, unseen=[3],
                 new_left=0) == Pick(1, False)          # ahead: lowest recall tomorrow
    # A rarer rule (not a floor rule) only after the floor's due and new rules.
    assert _pick(due={5: past}, recall_now={5: 0.1}, recall_next={5: 0.1},
                 unseen=[3], floor=frozenset({3})) == Pick(3, True)


def test_about_one_question_in_five_comes_from_the_unbiased_generator() -> None:
    rng = random.Random(4)
    picks = [pick(rng, NOW, due={0: NOW}, recall_now={0: 0.5}, recall_next={0: 0.5},
                  floor=frozenset({0}), unseen=[], new_left=0) for _ in range(5000)]
    share = sum(p.skill is None for p in picks) / len(picks)
    assert 0.18 < share < 0.22


def test_an_assigned_skill_comes_first_due_new_or_ahead_of_schedule() -> None:
    past, future = NOW - timedelta(minutes=1), NOW + timedelta(days=2)
    common = {"recall_now": {0: 0.1, 7: 0.9}, "recall_next": {0: 0.1, 7: 0.9}}
    assert _pick(due={0: past, 7: past}, favoured=frozenset({7}), **common) == Pick(7, False)
    assert _pick(due={0: past}, recall_now={0: 0.1}, recall_next={0: 0.1},
                 unseen=[2, 7], favoured=frozenset({7}), new_left=0) == Pick(7, True)
    assert _pick(due={0: future, 7: future}, favoured=frozenset({7}), new_left=0,
                 **common) == Pick(7, False)


# --- what is dealt for ----------------------------------------------------------------------


def test_a_ways_catalogue_is_its_rules_by_hands_with_the_floor_at_one_in_a_thousand() -> None:
    context = DrillContext(load("foxwoods"))
    cat = catalogue(get_drill("house-way"), context)
    assert set(cat.skills) <= set(context.way.rule_ids) and cat.of_a_way
    assert list(cat.shares) == sorted(cat.shares, reverse=True)
    assert sum(cat.shares) == pytest.approx(1.0)
    assert cat.floor == frozenset(i for i, s in enumerate(cat.shares) if s >= 0.001)
    settlement = catalogue(get_drill("settlement"), context)
    assert not settlement.of_a_way and settlement.floor == frozenset(range(len(settlement.skills)))


@pytest.mark.parametrize("kind", ["house-way", "action", "foul-check", "settlement", "bonus",
                                  "hand-reading"])
def test_a_question_dealt_for_a_skill_is_that_skills_and_replays_from_its_seed(kind: str) -> None:
    drill = get_drill(kind)
    context = DrillContext()
    for skill in catalogue(drill, context).skills[:6]:
        question = question_for(drill, 1234, context, 1, skill)
        assert question == question_for(drill, 1234, context, 1, skill)
        assert drill.read_question(drill.question_json(question)) == question
        if kind == "house-way":
            assert drill.rule_of(question, context) == skill


# --- the forecast ---------------------------------------------------------------------------


def test_the_forecast_counts_unseen_rules_and_the_window_and_is_ready_when_both_are_met() -> None:
    pace = Pace(session_length=20, sessions_per_day=1.0, answer_s=6.0)
    fresh = [Outlook(None, True) for _ in range(15)] + [Outlook(None, False) for _ in range(10)]
    new = forecast(fresh, NOW, pace, 0.98, 100, window_met=False)
    assert new.to_learn == new.unseen == 15 and not new.ready
    assert new.hands >= 100 + 15 and new.sessions >= new.hands // 20
    learned = CardState(2, None, 30.0, 4.0, NOW + timedelta(days=20), NOW)
    known = [Outlook(learned, True, 0.01) for _ in range(15)] + fresh[15:]
    done = forecast(known, NOW, pace, 0.98, 100, window_met=True)
    assert done.ready and (done.sessions, done.hands) == (0, 0)
    half = known[:8] + fresh[8:]
    partly = forecast(half, NOW, pace, 0.98, 100, window_met=False)
    assert done.hands < partly.hands < new.hands
    # A trainee who misses a rule often needs more answers on it.
    shaky = [Outlook(learned, True, 0.3) for _ in range(15)] + fresh[15:]
    assert forecast(shaky, NOW, pace, 0.98, 100, True).hands > done.hands
