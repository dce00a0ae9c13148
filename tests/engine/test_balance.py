"""Guessing does not pay: every fixed answer set is balanced, and the card order tells nothing."""
import functools
from collections import Counter, defaultdict

import pytest

from trainer.engine.cards import JOKER, parse_cards
from trainer.engine.drills import DRILLS, DrillContext, get_drill, new_question
from trainer.engine.drills import base as drills_base
from trainer.engine.drills.codec import to_json
from trainer.engine.profiles import FoulPolicy

CTX = DrillContext()
MARGIN = 0.03
# Seeds per drill kind: at least this many, more until every answer set has this many answers.
QUESTIONS = 2000
MAX_SEEDS = 8000


@functools.cache
def _question(kind, seed, ctx):
    return new_question(kind, seed, ctx)


def shown(kind, seed, ctx):
    """Return every question a seed shows: one, or each step of a multi-step drill."""
    drill = get_drill(kind)
    question = _question(kind, seed, ctx)
    steps = getattr(drill, "steps", ())
    return [drill.at_step(question, i, ctx) for i in range(len(steps))] if steps else [question]


def constant_scores(kind, ctx, seeds=QUESTIONS, cap=MAX_SEEDS):
    """Score each constant answer with the drill's grader, per answer set.

    Returns {answer set: (units answered, {answer: units right})}; a unit is a
    question, or a seat where the grade has parts (the settlement). A part that
    declares its own ``chance`` (the bonus drill's yes/no cue beside its twelve
    categories) is scored apart, against that chance: the answer set's key is then
    ``(answers, chance)``; a part whose chance is None (an amount) is free-form.
    """
    drill = get_drill(kind)
    units: Counter = Counter()
    right: dict = defaultdict(Counter)
    seed = 0
    while seed < seeds or (seed < cap and units and min(units.values()) < QUESTIONS):
        for question in shown(kind, seed, ctx):
            choices = drill.answer_choices(question, ctx)
            if not choices:
                continue
            answers = tuple(sorted(choices))
            for name, answer in choices.items():
                grade = drill.grade(question, answer, ctx)
                # A typed kind's parts are dataclasses: read them in their JSON form.
                parts = to_json(list(grade.parts)) or ({"correct": grade.correct},)
                counted: Counter = Counter()
                for p in parts:
                    if "chance" in p and p["chance"] is None:
                        continue
                    key = (answers, p["chance"]) if "chance" in p else answers
                    right[key][name] += p["correct"]
                    counted[key] += 1
            units.update(counted)
        seed += 1
    return {key: (units[key], right[key]) for key in units}


def chance_of(key):
    """Return the chance level of an answer set key: 1 / the answers, or a part's own."""
    if len(key) == 2 and isinstance(key[1], float):
        return key[1]
    return 1 / len(key)


def assert_no_constant_beats_chance(scores):
    for key, (units, right) in scores.items():
        for name, count in right.items():
            assert count / units <= chance_of(key) + MARGIN, (
                f"always answering {name!r} scores {count / units:.1%} of {units}, "
                f"chance is {chance_of(key):.1%}")


@pytest.mark.parametrize("kind", sorted(DRILLS))
def test_no_constant_answer_beats_the_chance_level_in_any_drill_kind(kind):
    drill = get_drill(kind)
    scores = constant_scores(kind, CTX)
    if drill.chance_level is not None:
        assert scores, f"{kind} declares a chance level but no fixed answers"
    assert_no_constant_beats_chance(scores)
    for units, _ in scores.values():
        assert units >= QUESTIONS


@pytest.mark.parametrize("kind", sorted(DRILLS))
def test_every_drill_kind_declares_its_chance_level(kind):
    drill = get_drill(kind)
    if drill.chance_level is None:
        return  # free-form answers: cards to pick, amounts, several seats or steps
    sizes = {len(drill.answer_choices(q, CTX))
             for seed in range(50) for q in shown(kind, seed, CTX)}
    assert min(sizes) > 1
    assert 1 / max(sizes) <= drill.chance_level <= 1 / min(sizes)


def test_chance_levels_are_one_over_the_answers():
    assert get_drill("foul-check").chance_level == 0.5
    assert get_drill("action").chance_level == pytest.approx(1 / 7)
    assert get_drill("hand-reading").chance_level == pytest.approx(7 / 12 / 11 + 5 / 12 / 3)
    assert get_drill("house-way").chance_level is None
    assert get_drill("settlement").chance_level is None
    assert get_drill("settlement").position_chance_level == pytest.approx(1 / 3)
    assert get_drill("round").chance_level is None


@pytest.mark.parametrize("ctx", [
    DrillContext(profile="no-commission"),
    DrillContext(profile="california", foul_policy=FoulPolicy.HOUSE_WAY),
], ids=["no-commission", "california-house-way-fouls"])
@pytest.mark.parametrize("kind", ["foul-check", "settlement"])
def test_balance_holds_under_every_table_rules_profile(kind, ctx):
    seeds = 600 if kind == "settlement" else 2000  # a settlement has 2-6 seats to score
    assert_no_constant_beats_chance(constant_scores(kind, ctx, seeds=seeds, cap=seeds))


# Focus rules ("my mistakes") from several families of each drill.
MISTAKES = {
    "foul-check": [("foul.legal.same-top-ranks",),
                   ("foul.pair-over-no-pair", "foul.legal.no-pair"),
                   ("foul.higher-pair-in-front", "foul.legal", "foul.legal.pair-under-pair")],
    "hand-reading": [("reading.copy.five",), ("reading.flush", "reading.compare.two"),
                     ("reading.straight.joker", "reading.copy.two", "reading.two-pair")],
    "action": [("action.banker",), ("action.count", "action.player-banker")],
}


@pytest.mark.parametrize("kind,focus", [(k, f) for k, fs in MISTAKES.items() for f in fs])
def test_my_mistakes_sessions_are_balanced_too(kind, focus):
    ctx = DrillContext(focus_rules=focus)
    assert get_drill(kind).balanced(ctx)
    scores = constant_scores(kind, ctx, seeds=1000, cap=3000)
    assert_no_constant_beats_chance(scores)


def test_my_mistakes_draw_from_the_missed_families():
    ctx = DrillContext(focus_rules=("foul.pair-over-no-pair", "foul.legal.no-pair"))
    drill = get_drill("foul-check")
    rules = Counter(drill.rule_of(new_question("foul-check", s, ctx), ctx) for s in range(200))
    assert set(rules) <= {"foul.pair-over-no-pair", "foul.higher-pair-in-front",
                          "foul.higher-cards-in-front", "foul.legal.no-pair", "foul.legal",
                          "foul.legal.same-pair", "foul.legal.same-top-ranks",
                          "foul.legal.pair-under-pair", "foul.legal.pair-under-better"}
    copies = DrillContext(focus_rules=("reading.copy.five",))
    questions = [new_question("hand-reading", s, copies) for s in range(300)]
    assert all(q.mode == "compare" and len(q.a) == 5 for q in questions)


@pytest.mark.parametrize("focus", [
    ("foul.pair-over-no-pair",),
    ("foul.legal.no-pair", "foul.legal.pair-under-better"),
    ("foul.legal", "foul.legal.pair-under-pair", "foul.legal.no-pair"),
])
def test_my_mistakes_of_one_answer_cannot_be_balanced(focus):
    ctx = DrillContext(focus_rules=focus)
    drill = get_drill("foul-check")
    assert not drill.balanced(ctx)
    answers = {drill.grade(q, drill.probe(q), ctx).correct_answer.fouled
               for q in (new_question("foul-check", s, ctx) for s in range(100))}
    assert len(answers) == 1


@pytest.mark.parametrize("kind", sorted(DRILLS))
def test_the_same_seed_gives_the_same_question(kind):
    for ctx in (CTX, DrillContext(profile="no-commission"),
                DrillContext(focus_rules=sum(MISTAKES.get(kind, [()]), ()))):
        for seed in (0, 5, 2**62 + 11):
            first = new_question(kind, seed, ctx)
            assert new_question(kind, seed, ctx) == first
            stored = DrillContext.from_dict(ctx.as_dict())
            assert stored.generator == drills_base.GENERATOR
            assert new_question(kind, seed, stored) == first


def test_questions_recorded_before_balancing_still_replay_as_they_were_shown():
    # A context stored before generator 2 has no "generator": it replays generator 1.
    old = DrillContext.from_dict({"house_way": "trump-plaza", "profile": "nevada",
                                  "foul_policy": "lose", "focus_rules": []})
    assert old.generator == 1
    action = get_drill("action")
    assert action.question_json(new_question("action", 3, old)) == {
        "banker_seat": 1, "dice": [2, 5, 5], "kind": "action", "occupied": [1, 2, 3, 4, 5, 6, 7],
        "seed": 3}
    assert new_question("action", 3, CTX) != new_question("action", 3, old)
    with pytest.raises(ValueError, match="no question generator"):
        DrillContext.from_dict({"generator": 99})


def _card_lists(value, path=""):
    """Yield (path, cards) for every list of card names in a question."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _card_lists(item, f"{path}.{key}")
    elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        try:
            yield path, parse_cards(value)
        except ValueError:
            return
    elif isinstance(value, list):
        for item in value:
            yield from _card_lists(item, f"{path}[]")


@pytest.mark.parametrize("kind", sorted(DRILLS))
def test_the_joker_shows_anywhere_in_a_hand(kind):
    where: dict = defaultdict(Counter)
    for seed in range(1500):
        # The question as shown (its JSON): every list of cards in it, however deep.
        for path, cards in _card_lists(get_drill(kind).question_json(_question(kind, seed, CTX))):
            if JOKER in cards and len(cards) > 1:
                where[(path, len(cards))][cards.index(JOKER)] += 1
    for (path, size), spots in where.items():
        total = sum(spots.values())
        if total < 100:
            continue
        assert max(spots.values()) / total <= 1 / size + 0.08, (path, dict(spots))


def test_the_first_cards_shown_are_not_the_house_way_front():
    drill = get_drill("house-way")
    in_front = Counter()
    by_family: dict = defaultdict(Counter)
    n = 2000
    for seed in range(n):
        question = new_question("house-way", seed, CTX)
        key = drill.key(question, CTX)
        front = set(key.front)
        cards = parse_cards(question.cards, 7)
        for i, card in enumerate(cards):
            in_front[i] += card in front
        by_family[key.family]["n"] += 1
        by_family[key.family]["first"] += cards[0] in front
    for i in range(7):
        assert abs(in_front[i] / n - 2 / 7) <= 0.04, (i, in_front[i] / n)
    for family, counts in by_family.items():
        if counts["n"] >= 150:
            assert abs(counts["first"] / counts["n"] - 2 / 7) <= 0.12, family


def test_foul_check_card_order_does_not_tell_legal_from_fouled():
    drill = get_drill("foul-check")
    first_high = Counter()
    for seed in range(2000):
        question = new_question("foul-check", seed, CTX)
        answer = drill.grade(question, drill.probe(question), CTX).correct_answer.fouled
        back = parse_cards(question.back, 5)
        first_high[answer, "n"] += 1
        first_high[answer, "top"] += back[0].rank == max(c.rank for c in back)
    for answer in (True, False):
        share = first_high[answer, "top"] / first_high[answer, "n"]
        assert share <= 1 / 5 + 0.06, (answer, share)


# The bonus drill: its cue (does this qualify?) is scored apart from its twelve categories.
@pytest.mark.parametrize("profile", ["nevada-emperors", "nevada-progressive", "ez"])
def test_the_bonus_drill_is_balanced_under_each_side_bet_profile(profile):
    scores = constant_scores("bonus", DrillContext(profile=profile), seeds=1500, cap=1500)
    assert scores
    assert_no_constant_beats_chance(scores)


def test_the_bonus_drills_cue_is_yes_half_the_time_and_no_category_is_guessable():
    scores = constant_scores("bonus", DrillContext(profile="nevada-fortune"), seeds=2000, cap=2000)
    cue = next(v for k, v in scores.items() if k[1] == 0.5)
    category = next(v for k, v in scores.items() if k[1] == pytest.approx(1 / 12))
    units, right = cue
    assert max(right.values()) / units <= 0.53
    units, right = category
    assert max(right.values()) / units <= 1 / 12 + 0.03
