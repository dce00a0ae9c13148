"""Hostile input to the engine: anything at all gets a readable ValueError, nothing else."""
import json

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.cli import cli
from trainer.cli.engine import register
from trainer.engine.cards import parse_cards
from trainer.engine.drills import DRILLS, DrillContext, get_drill, new_question
from trainer.engine.house_way import set_hand

register(cli)
CTX = DrillContext()


def _is_sentence(exc: ValueError) -> bool:
    """A message a trainee can read: one short sentence, no traceback."""
    text = str(exc)
    return bool(text) and text.rstrip().endswith((".", "?")) and len(text) < 300 \
        and "Traceback" not in text
card_like = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["As", "10h", "JK", "joker", "1s", "Ax", "AS", "Th", "", " ", "Jk"]),
)


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.text(max_size=60), st.lists(card_like, max_size=9)))
def test_card_parsing_answers_any_text_with_a_readable_error(text):
    try:
        cards = parse_cards(text)
    except ValueError as exc:
        assert _is_sentence(exc)
        return
    assert len(set(cards)) == len(cards)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_house_way_set_hand_refuses_bad_hands_readably(text):
    try:
        setting = set_hand(text)
    except ValueError as exc:
        assert _is_sentence(exc)
        return
    assert len(setting.back) == 5 and len(setting.front) == 2


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
              st.text(max_size=8)),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=10), inner, max_size=4)),
    max_leaves=12,
)
answer_like = st.one_of(
    json_values,
    st.fixed_dictionaries({"front": json_values}),
    st.fixed_dictionaries({"positions": st.lists(json_values, max_size=7)}),
    st.fixed_dictionaries({"seat": json_values}),
    st.fixed_dictionaries({"category": json_values, "winner": json_values}),
    st.fixed_dictionaries({"fouled": json_values, "front": json_values}),
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(DRILLS)), st.integers(0, 10_000), answer_like)
def test_every_drill_grades_or_refuses_any_answer(slug, seed, answer):
    question = new_question(slug, seed, CTX)
    try:
        grade = get_drill(slug).grade(question, answer, CTX)
    except ValueError as exc:
        assert _is_sentence(exc)
        return
    assert isinstance(grade.correct, bool) and grade.rule_id


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=["Cs"],
                                               blacklist_characters="\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"),
                        max_size=40), min_size=1, max_size=5),
       st.sampled_from([["hand", "rank"], ["hand", "compare"], ["hand", "foul"],
                        ["settle"], ["dice"], ["hand", "set"]]))
def test_jsonl_batch_never_crashes_on_junk(lines, command):
    result = CliRunner().invoke(cli, [*command, "--jsonl"], input="\n".join(lines) + "\n")
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code in (0, 2)
    answers = [json.loads(x) for x in result.stdout.splitlines()]
    assert len(answers) == sum(1 for line in lines if line.strip())
    if result.exit_code == 2:
        assert any("error" in a for a in answers)
