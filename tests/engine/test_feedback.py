"""Feedback in words and "my mistakes" steering, in the engine (issue 16; docs/drills.md)."""
from __future__ import annotations

from trainer.engine.cards import parse_cards
from trainer.engine.drills import DRILLS, DrillContext, get_drill, new_question
from trainer.engine.drills.explain import amount, commission_message, hint, sheet_sentence
from trainer.engine.drills.kinds.house_way import way_hint
from trainer.engine.house_way import load
from trainer.engine.profiles import get_profile


def test_money_is_written_from_whole_cents() -> None:
    def money(cents: int | None) -> str:
        return str(amount(cents))  # the English a sentence's amount reads as
    assert money(4750) == "$47.50" and money(5) == "$0.05" and money(123456) == "$1,234.56"
    assert money(-250) == "-$2.50" and money(None) == "nothing"


def test_commission_words_follow_the_table_rules() -> None:
    assert str(commission_message(get_profile("nevada"))) == "even money less 5% commission"
    assert "no commission" in str(commission_message(get_profile("no-commission")))
    assert "fee" in str(commission_message(get_profile("california")))


def test_a_sheet_rule_is_quoted_with_its_casino_and_number() -> None:
    assert sheet_sentence(load("trump-plaza"), "two-pair.split.always") == \
        "Trump Plaza (Atlantic City) 3.2: High + High, or Medium + High: split."


def test_the_hint_names_the_family_and_what_the_ways_deciding_rule_does() -> None:
    way = load("trump-plaza")
    context = DrillContext(way=way)
    said = str(get_drill("house-way").hint("two-pair.split.always", None, context))
    assert said == ("Two pair, Trump Plaza (Atlantic City): lower pair in front, higher pair + "
                    "the three singletons in back (rule 3.2: High + High, or Medium + High: "
                    "split).")
    assert str(way_hint(way, "two-pair.split.always")) == said
    # The round's banker step hints from the rule that sets the banker's hand.
    rounds = get_drill("round")
    step = next(q for q in (rounds.at_step(new_question("round", seed, context), 1, context)
                            for seed in range(400))
                if way.set(parse_cards(q.banker_cards, 7)).rule == "two-pair.split.always")
    assert str(rounds.hint(rounds.rule_of(step, context), step, context)) == said
    # Without the way, what to look at.
    assert str(get_drill("house-way").hint("two-pair.split.always")) == \
        "Look at the cards the rule turns on."
    # A rule whose setting would foul (a ``.fallback`` id): the same words, and the fallback.
    fallback = str(way_hint(way, "two-pair.split.always.fallback"))
    assert fallback.startswith(said) and "fallback setting plays" in fallback
    # The rule book's drills say what to look at.
    assert "look" in str(hint("settlement.copy-push")) and "look" in str(hint("foul.legal"))


def test_every_kind_words_a_wrong_answer_and_a_missing_one() -> None:
    context = DrillContext()
    for slug, drill in DRILLS.items():
        question = new_question(slug, 11, context)
        steps = [drill.at_step(question, i, context) for i in range(len(drill.steps))] \
            if drill.steps else [question]
        for q in steps:
            feedback = drill.feedback(q, None, context, timed_out=True)
            assert not feedback.correct and str(feedback.said) == "You gave no answer in time", slug
            answer = drill.probe(q)
            feedback = drill.feedback(q, answer, context)
            grade = drill.grade(q, answer, context)
            assert feedback.correct == grade.correct, slug
            assert feedback.said and feedback.why, slug
            if not grade.correct:
                assert feedback.right, slug


def test_my_mistakes_on_a_player_banker_steers_the_action_drill() -> None:
    context = DrillContext(focus_rules=("action.player-banker",))
    assert all(new_question("action", s, context).banker_seat != 1 for s in range(60))
    plain = [new_question("action", s, DrillContext()).banker_seat for s in range(60)]
    assert plain.count(1) > 20


def test_my_mistakes_on_copies_deals_copies_in_the_settlement_drill() -> None:
    drill = get_drill("settlement")

    def copies(context: DrillContext) -> int:
        total = 0
        for seed in range(40):
            q = new_question("settlement", seed, context)
            total += sum(p.rule_id.startswith("settlement.copy")
                         for p in drill.grade(q, drill.probe(q), context).parts)
        return total

    assert copies(DrillContext(focus_rules=("settlement.copy-lose",))) > 2 * copies(DrillContext())


def test_my_mistakes_on_a_banker_family_deals_the_rounds_banker_from_it() -> None:
    drill = get_drill("round")
    context = DrillContext(focus_rules=("round.banker.full-house",))
    for seed in range(30):
        q = new_question("round", seed, context)
        assert drill.rule_of(drill.at_step(q, 1, context), context) == "round.banker.full-house"
        cards = [c for pile in q.piles for c in pile] + list(q.unused)
        assert len(cards) == len(set(cards)) == 53


def test_unsteered_rounds_are_dealt_as_before_focus_rules_existed() -> None:
    """A context without focus rules draws exactly as the stored rounds were drawn."""
    context = DrillContext()
    other = DrillContext(focus_rules=("house-way.only",))  # a rule the round ignores
    for seed in range(20):
        assert new_question("round", seed, context) == new_question("round", seed, other)


def test_every_presets_hint_says_what_its_deciding_rule_does() -> None:
    # Issue 27: the two-trips hint said "look at the lower set; the higher three stay in
    # back", the opposite of every way. Each hint is now the way's own rule in words.
    from trainer.engine.house_way import RULE_KINDS, preset_names

    for name in preset_names():
        way = load(name)
        for rule in way.rules:
            said = str(way_hint(way, rule.id))
            kind = RULE_KINDS[rule.kind]
            assert f"(rule {rule.number}: {rule.text.rstrip('. ')})" in said, said
            if kind.front is not None:
                assert f"{kind.front_text} in front, {kind.back_text} in back" in said, said
        two_trips = str(way_hint(way, "two-trips.high-pair-front"))
        assert "two cards of the higher trips in front" in two_trips
        assert "lower set" not in two_trips and "lower trips in front" not in two_trips
