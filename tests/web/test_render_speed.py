"""Issue 15's rendering cuts draw the same HTML as before.

- The ``hand`` macro of ``_cards.html`` is drawn in Python (``filters.hand_html``):
  compared here with the macro it replaced, kept below as it was, on hands, labels
  that need escaping, and a stored row's junk.
- The templates' globals (``web/templating.py``) keep ``ChainMap``'s lookups and
  precedence; only their ``keys()`` is a dict view, and imports still see them.
"""
from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from markupsafe import Markup

from trainer.web.filters import hand_html
from trainer.web.templating import _Globals

# The hand macro as it was before issue 15's cut, drawn with the card macro.
OLD_HAND = ("""{% from "_cards.html" import card %}
{% macro hand(cards, size="", label="") -%}
  <span class="hand" {% if label %}aria-label="{{ label }}" role="group"{% endif %}>
    {%- for c in (cards if cards is iterable and cards is not mapping else []) %}"""
    """{{ card(c|string, size) }}{% endfor -%}
  </span>
{%- endmacro %}""")

HANDS: list[Any] = [
    ["As", "Kd", "JK", "Td", "2c"],
    ("Qh", "9s"),
    [],
    ["<x", "A", 7, None],  # a stored row's junk
    "AsKd",  # a string is iterable: its characters, as the macro drew them
    {"back": ["As"]},  # a mapping draws an empty hand
    None,
    7,
]
LABELS: list[Any] = ["", "House way back hand", 'Back "<hand>" & co', Markup("<b>safe</b>"), None, 0]


def _render(app: Flask, source: str, **values: Any) -> str:
    with app.test_request_context():
        return app.jinja_env.from_string(source).render(**values)


@pytest.mark.parametrize("cards", HANDS)
@pytest.mark.parametrize("label", LABELS)
@pytest.mark.parametrize("size", ["", "small"])
def test_the_hand_macro_draws_what_it_drew_before(app: Flask, cards: Any, label: Any, size: str) -> None:
    call = "{{ hand(cards, size, label) }}"
    old = _render(app, OLD_HAND + call, cards=cards, size=size, label=label)
    new = _render(app, '{% from "_cards.html" import hand %}' + call, cards=cards, size=size,
                  label=label)
    assert new.strip() == old.strip()
    assert '<span class="hand"' in new


def test_the_hand_macro_with_default_arguments_draws_what_it_drew_before(app: Flask) -> None:
    old = _render(app, OLD_HAND + '{{ hand(["7h", "8h"]) }}|{{ hand(missing) }}')
    new = _render(app, '{% from "_cards.html" import hand %}{{ hand(["7h", "8h"]) }}|{{ hand(missing) }}')
    assert new.strip() == old.strip() and new.count('data-card="') == 2


def test_hand_html_escapes_the_label(app: Flask) -> None:
    with app.test_request_context():
        html = hand_html([], "", '"><script>')
    assert "<script>" not in html and "&#34;&gt;&lt;script&gt;" in html


def test_template_globals_keep_chain_map_lookups_and_precedence() -> None:
    base = {"a": 1, "b": 2}
    own = {"b": 3}
    merged = _Globals(own, base)
    assert merged["a"] == 1 and merged["b"] == 3 and "a" in merged and "z" not in merged
    assert set(merged.keys()) == {"a", "b"} and {"a", "b", "c"} - merged.keys() == {"c"}
    base["c"] = 4  # a global added to the environment later is seen
    assert merged["c"] == 4 and "c" in set(merged.keys())
    merged["d"] = 5  # a template's own global does not reach the environment's
    assert "d" not in base


def test_imported_macros_see_the_globals_of_the_app(app: Flask) -> None:
    html = _render(app, '{% from "_cards.html" import card %}{{ card("As") }}')
    assert 'data-card="As"' in html
