"""Issue 16 items 7 and 8 on the server side: the group overview's drill selector, aria-sort
on the column header, sparklines big enough to read with their scale, cards named by what
they show, the menu that folds without a script, and keyboard shortcuts on every choice."""
from __future__ import annotations

import re

import pytest

from trainer.web.platform.filters import card_label
from trainer.web.supervisor import charts
from web.helpers import login


@pytest.mark.parametrize(("card", "shown"), [
    ("Qh", "Q\u2665"), ("Ts", "10\u2660"), ("2d", "2\u2666"), ("Ac", "A\u2663"), ("JK", "JK\u2605"),
])
def test_a_cards_name_starts_with_what_the_card_shows(app, card, shown) -> None:
    with app.test_request_context():
        name = card_label(card)
    assert name.startswith(shown + ", ")
    assert len(name) > len(shown) + 2  # then the card in words


def test_the_queen_of_hearts_is_named_in_words_after_its_face(app) -> None:
    with app.test_request_context():
        assert card_label("Qh") == "Q\u2665, queen of hearts"


def test_a_sparkline_is_at_least_60_by_16_and_shows_its_scale() -> None:
    svg = str(charts.sparkline([0.5, None, 0.75, 1.0], "trend"))
    width, height = (int(v) for v in re.search(r'width="(\d+)" height="(\d+)"', svg).groups())
    assert width >= charts.SPARK_MIN_WIDTH == 60 and height >= charts.SPARK_MIN_HEIGHT == 16
    assert ">100%</text>" in svg and ">0%</text>" in svg
    assert svg.count('class="spark-guide"') == 3
    assert 'class="spark-line"' in svg and 'class="spark-dot"' in svg  # a run and a lone point
    with pytest.raises(ValueError, match="at least 60x16"):
        charts.sparkline([0.5], "tiny", width=59, height=28)
    with pytest.raises(ValueError, match="at least 60x16"):
        charts.sparkline([0.5], "flat", width=120, height=15)


def test_charts_take_their_colours_from_the_stylesheet() -> None:
    drawn = [
        str(charts.sparkline([0.2, 0.9], "s")),
        str(charts.line_chart([charts.Series(f"s{i}", [0.1, 0.5]) for i in range(6)], ["a", "b"],
                              "t", 0.0, 1.0, str)),
        str(charts.bar_chart([("a", 0.5), ("b", None)], "t", str, marks=[("goal", 0.9)])),
    ]
    for svg in drawn:
        assert "style=" not in svg and not re.search(r"#[0-9a-fA-F]{3,8}\b|rgba?\(", svg), svg


def _overview(client, group: int, query: str = "") -> str:
    page = client.get(f"/supervisor/groups/{group}?period=all{query}")
    assert page.status_code == 200
    return page.get_data(as_text=True)


def test_the_overview_shows_one_column_per_drill_or_one_drills_three(
        app, client, supervisor, group, trainee, make_attempt) -> None:
    kinds = ("house-way", "action", "settlement")
    for kind in kinds:
        make_attempt(trainee.id, correct=False, kind=kind)
    login(client, supervisor)
    every = _overview(client, group)
    head = every.split("<thead>", 1)[1].split("</thead>", 1)[0]
    assert "Median s" not in head and head.count('class="num kind-head"') == len(kinds)
    row = every.split(f'data-trainee="{trainee.id}"', 1)[1].split("</tr>", 1)[0]
    assert row.count('class="num kind-cell"') == len(kinds) and "median" in row
    assert 'aria-current="true">All drills<' in every
    one = _overview(client, group, "&drill=house-way")
    head = one.split("<thead>", 1)[1].split("</thead>", 1)[0]
    assert head.count('class="kind-head"') == 1 and head.count("Median s") == 1
    # the sort links and the periods keep the chosen drill
    assert "drill=house-way" in head
    assert re.search(r'period=7d[^"]*drill=house-way|drill=house-way[^"]*period=7d', one)
    assert 'class="num kind-head"' not in _overview(client, group, "&drill=no-such-drill").split("<thead>")[0]


def test_aria_sort_is_on_the_column_header_not_the_link(app, client, supervisor, group, trainee) -> None:
    login(client, supervisor)
    html = _overview(client, group, "&sort=readiness&dir=desc")
    assert re.search(r'<th rowspan="2" aria-sort="descending">\s*<a class="sort sort-active"', html)
    assert not re.search(r"<a[^>]*aria-sort", html)


def test_the_menu_folds_behind_a_checkbox_that_works_without_a_script(app, client, trainee) -> None:
    login(client, trainee)
    html = client.get("/").get_data(as_text=True)
    toggle = re.search(r'<input type="checkbox" id="menu-toggle"[^>]*>\s*<label for="menu-toggle"', html)
    assert toggle and 'aria-controls="main-menu"' in toggle.group(0)
    assert html.index('id="main-menu"') < html.index('aria-label="Main"')


def _buttons(html: str) -> list[tuple[str, str]]:
    """Return (data-key, the button's text) of each choice button."""
    button = r'<button[^>]*class="[^"]*choice[^"]*"[^>]*data-key="(\w)"[^>]*>(.*?)</button>'
    return re.findall(button, html, re.S)


def test_every_hand_name_has_its_own_shortcut_shown_on_its_button(app) -> None:
    from flask import render_template

    from trainer.web.words.names import CATEGORY_NAMES

    with app.test_request_context():
        html = render_template("drills/kinds/hand-reading/answer.html", q={"mode": "category"},
                               category_names=CATEGORY_NAMES)
        names = [str(name) for name in CATEGORY_NAMES.values()]
    buttons = _buttons(html)
    assert len(buttons) == html.count('class="button button-quiet choice"') == len(names)
    keys = [key for key, _ in buttons]
    assert len(set(keys)) == len(keys)
    for (key, text), name in zip(buttons, names, strict=True):
        assert text.startswith(name) and re.search(rf"<kbd[^>]*>{re.escape(key.upper())}</kbd>", text)
        assert key in name.lower()  # a letter of the name, so it can be remembered


def test_each_seats_outcomes_have_shortcuts_shown_on_them(app) -> None:
    from flask import render_template

    q = {"positions": [{"seat": s, "back": ["As", "Kd", "Qh", "Jc", "9s"], "front": ["2h", "3d"],
                        "bet_cents": 500} for s in (2, 3)]}
    with app.test_request_context():
        html = render_template("drills/kinds/settlement/answer.html", q=q)
    rows = html.split("<tr data-seat=")[1:]
    assert len(rows) == 2
    for row in rows:
        assert row.startswith(('"2" data-key-scope', '"3" data-key-scope'))
        for value, key in (("win", "w"), ("push", "p"), ("lose", "l")):
            shown = rf'<span>\w+ <kbd aria-hidden="true">{key.upper()}</kbd>'
            assert re.search(rf'value="{value}" data-outcome data-key="{key}">{shown}', row)


def test_the_dealers_seat_is_never_drawn_empty_when_a_player_banks(app) -> None:
    """Position 1 always has a hand (engine.action.deal_order): with a player banking,
    seat 1 is not in the question's `occupied`, yet it must not be dimmed as empty
    (dimmed, its small "Dealer" note also failed axe's contrast check)."""
    from flask import render_template_string

    question = {"dice": [3, 4, 5], "banker_seat": 4, "occupied": [2, 4, 6]}
    with app.test_request_context("/"):
        html = render_template_string('{% include "drills/_seats.html" %}', q=question)
    classes = dict(re.findall(r'class="seat seat-(\d)([^"]*)"', html))
    assert "seat-empty" not in classes["1"]
    assert "seat-empty" in classes["3"] and "seat-empty" in classes["7"]
    assert "seat-banker" in classes["4"] and "seat-empty" not in classes["2"]
