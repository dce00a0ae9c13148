"""An answer's time is written without Babel's pattern machinery (``languages._ungrouped``):
it must write exactly what Babel's ungrouped pattern writes, in every language."""
from __future__ import annotations

from babel.numbers import format_decimal
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.services.languages import LANGUAGES
from trainer.web.platform.languages import _ungrouped


@settings(max_examples=400, deadline=None)
@given(value=st.floats(min_value=-1e7, max_value=1e7, allow_nan=False),
       digits=st.integers(min_value=0, max_value=3))
def test_an_ungrouped_number_is_written_as_babels_pattern_writes_it(value: float, digits: int) -> None:
    rounded = round(value, digits)
    pattern = "0" + ("." + "0" * digits if digits else "")
    for code in LANGUAGES:
        assert _ungrouped(rounded, digits, code) == format_decimal(rounded, format=pattern,
                                                                   locale=code), (code, rounded)
