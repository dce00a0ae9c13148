"""The drill kinds' JSON edge: frozen dataclasses written and read back strictly."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trainer.engine.drills.codec import OMIT_NONE, Answer, Question, from_json, to_json


class Side(enum.StrEnum):
    HIGH = "high"
    LOW = "low"


@dataclass(frozen=True, slots=True, kw_only=True)
class Inner(Answer):
    seat: int
    paid_cents: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Sample(Question):
    cards: tuple[str, ...]
    pair: tuple[int, str]
    side: Side
    layout: Literal["dealt", "other"]
    seats: tuple[Inner, ...] = ()
    note: str | None = field(default=None, metadata=OMIT_NONE)
    weights: dict[str, float] = field(default_factory=dict)


samples = st.builds(
    Sample, seed=st.integers(0, 2**63 - 1),
    cards=st.lists(st.sampled_from(["As", "Kh", "2c", "JK"]), max_size=7).map(tuple),
    pair=st.tuples(st.integers(-5, 5), st.text(max_size=3)),
    side=st.sampled_from(Side), layout=st.sampled_from(["dealt", "other"]),
    seats=st.lists(st.builds(Inner, seat=st.integers(1, 7),
                             paid_cents=st.none() | st.integers(0, 10**7)), max_size=3).map(tuple),
    note=st.none() | st.text(max_size=5),
    weights=st.dictionaries(st.text(max_size=3), st.floats(allow_nan=False), max_size=3))


@given(samples)
def test_a_question_read_back_from_its_json_is_the_same_question(q: Sample) -> None:
    assert from_json(Sample, to_json(q)) == q


def test_a_field_marked_omit_none_is_left_out_while_none_so_old_rows_keep_their_shape() -> None:
    q = Sample(cards=("As",), pair=(1, "a"), side=Side.LOW, layout="dealt")
    data = to_json(q)
    assert "note" not in data and data["side"] == "low" and data["cards"] == ["As"]
    assert to_json(Sample(cards=(), pair=(1, "a"), side=Side.LOW, layout="dealt", note="x"))["note"] == "x"


@pytest.mark.parametrize("change, words", [
    ({"seat": True}, "whole number"), ({"seat": "3"}, "whole number"),
    ({"extra": 1}, "unexpected extra"), ({"paid_cents": 1.5}, "whole number"),
])
def test_reading_an_answer_of_the_wrong_shape_names_the_field(change: dict[str, object], words: str) -> None:
    data = {"seat": 3, **change}
    with pytest.raises(ValueError, match=words):
        from_json(Inner, data)


def test_a_missing_required_field_and_a_value_outside_a_literal_or_enum_are_refused() -> None:
    good = to_json(Sample(cards=(), pair=(1, "a"), side=Side.HIGH, layout="other"))
    with pytest.raises(ValueError, match="cards is missing"):
        from_json(Sample, {k: v for k, v in good.items() if k != "cards"})
    with pytest.raises(ValueError, match="expected one of"):
        from_json(Sample, {**good, "layout": "house"})
    with pytest.raises(ValueError, match="not one of"):
        from_json(Sample, {**good, "side": "middle"})
    with pytest.raises(ValueError, match="expected 2 items"):
        from_json(Sample, {**good, "pair": [1]})
