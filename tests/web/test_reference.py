"""The reference blueprint: the house-way sheet, its PDF, the commission chart, the look-up."""
from __future__ import annotations

import os
import re
from typing import Any
from urllib.parse import quote_plus

import pytest
from flask.testing import FlaskClient
from markupsafe import escape

from trainer.engine.cards import card_list, parse_cards
from trainer.engine.hands import rank2, rank5
from trainer.engine.house_way import load, preset_names
from trainer.engine.profiles import PROFILES, Rounding, TableProfile
from trainer.models import Role
from trainer.services.reference_examples import EXAMPLE_WHEEL, rule_examples
from web.helpers import login

PRESETS = preset_names()
CHROMIUM = "/usr/bin/chromium"
# A two-pair hand the sheets disagree on: Trump Plaza keeps it together, three split it.
DISPUTED = "Jh Jd 6c 6s As 9d 2c"
_PAGE = re.compile(rb"/Type\s*/Page(?![A-Za-z])")


def pdf_pages(pdf: bytes) -> int:
    """Count the page objects of a PDF (Chromium writes no object streams)."""
    return len(_PAGE.findall(pdf))


def text_of(response: Any) -> str:
    return response.get_data(as_text=True)


def rule_blocks(html: str) -> dict[str, str]:
    """Split a rendered sheet into its rule items, keyed by rule id."""
    blocks = {}
    for chunk in html.split('<li class="sheet-rule"')[1:]:
        rule_id = re.match(r'\s*id="rule-([^"]+)"', chunk).group(1)
        blocks[rule_id] = chunk.split("</li>")[0]
    return blocks


@pytest.fixture
def signed_in(client: FlaskClient, trainee: Any) -> FlaskClient:
    """Return a client signed in as a trainee of the default group."""
    login(client, trainee)
    return client


# --- the sheet ------------------------------------------------------------------------

def test_sheet_needs_a_signed_in_user(client: FlaskClient) -> None:
    response = client.get("/house-way/trump-plaza")
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/auth/login")


def test_unknown_preset_is_404(signed_in: FlaskClient) -> None:
    assert signed_in.get("/house-way/no-such-casino").status_code == 404
    assert signed_in.get("/house-way/no-such-casino/pdf").status_code == 404


def test_house_way_opens_the_groups_preset(client: FlaskClient, make_group: Any,
                                           supervisor: Any, make_user: Any) -> None:
    group_id = make_group(supervisor.id, name="Swing", house_way="foxwoods")
    login(client, make_user(Role.TRAINEE, login="swing", group_id=group_id))
    response = client.get("/house-way")
    assert response.headers["Location"] == "/house-way/foxwoods"


@pytest.mark.parametrize("preset", PRESETS)
def test_every_rule_appears_on_its_sheet_with_its_text(signed_in: FlaskClient, preset: str) -> None:
    way = load(preset)
    html = text_of(signed_in.get(f"/house-way/{preset}"))
    assert str(escape(way.casino)) in html
    blocks = rule_blocks(html)
    assert list(blocks) == list(way.rule_ids), "every rule, once each, in the sheet's order"
    for rule in way.rules:
        block = blocks[rule.id]
        assert str(escape(rule.text)) in block
        # The rule's short name shows; its id only as the tooltip (docs/house-ways.md).
        assert f'<strong class="rule-short" data-rule="{rule.id}">{escape(rule.short)}:</strong>' in block
        assert f'class="rule-number">{rule.number}<' in block
        if rule.resolved:
            assert str(escape(rule.resolved)) in block
    for section in way.sections:
        assert str(escape(section.title)) in html


@pytest.mark.parametrize("preset", PRESETS)
def test_each_example_is_set_that_way_by_the_engine_under_its_rule(
        signed_in: FlaskClient, preset: str) -> None:
    way = load(preset)
    blocks = rule_blocks(text_of(signed_in.get(f"/house-way/{preset}")))
    for rule_id, block in blocks.items():
        shown = re.search(r'data-cards="([^"]+)" data-front="([^"]+)" data-back="([^"]+)"', block)
        assert shown, f"{preset} rule {rule_id} has no example hand"
        seven, front, back = (group.split() for group in shown.groups())
        setting = way.set(parse_cards(seven, 7), EXAMPLE_WHEEL)
        assert setting.rule == rule_id
        assert card_list(setting.front) == front
        assert card_list(setting.back) == back
        assert sorted(front + back) == sorted(seven)
        # Drawn as cards by the _cards.html macro: two in front, five in back.
        assert block.count('data-card="') == 7


@pytest.mark.parametrize("preset", PRESETS)
def test_rule_examples_cover_every_rule_and_repeat(preset: str) -> None:
    examples = rule_examples(preset)
    assert list(examples) == list(load(preset).rule_ids)
    rule_examples.cache_clear()
    assert rule_examples(preset) == examples, "the same seed gives the same sheet"


def test_sheet_has_a_print_button_and_pdf_links(signed_in: FlaskClient) -> None:
    html = text_of(signed_in.get("/house-way/mgm-grand"))
    assert "data-print" in html and ">Print<" in html
    assert 'href="/house-way/mgm-grand/pdf?paper=letter"' in html
    assert 'href="/house-way/mgm-grand/pdf?paper=a4"' in html
    assert "/static/css/print.css" in html
    assert "<script>" not in html, "no inline scripts"


def test_sheet_nav_links(signed_in: FlaskClient) -> None:
    html = text_of(signed_in.get("/"))
    for href in ('href="/house-way"', 'href="/commission-chart"', 'href="/house-way/look-up"'):
        assert href in html


# --- the PDF --------------------------------------------------------------------------

needs_chromium = pytest.mark.skipif(
    not os.path.exists(CHROMIUM) and not os.environ.get("CI"), reason="no Chromium here")


@needs_chromium
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_sheet_pdf_is_printed_from_the_sheet(signed_in: FlaskClient, paper: str) -> None:
    response = signed_in.get(f"/house-way/flamingo-hilton/pdf?paper={paper}")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF")
    assert 1 <= pdf_pages(response.data) <= 2
    size = b"[0 0 612 792]" if paper == "letter" else b"[0 0 594.95996 841.91998]"
    assert size in response.data
    assert f"flamingo-hilton-house-way-{paper}.pdf" in response.headers["Content-Disposition"]


def test_sheet_pdf_without_chromium_is_503(app: Any, signed_in: FlaskClient) -> None:
    app.config["CHROMIUM_PATH"] = "/nonexistent/chromium"
    response = signed_in.get("/house-way/trump-plaza/pdf")
    assert response.status_code == 503
    assert "Chromium is not installed" in text_of(response)


# --- the commission chart -----------------------------------------------------------------

def chart_rows(html: str) -> list[tuple[str, str, str, str]]:
    return re.findall(
        r'<tr data-bet="(\d+)">\s*<td class="num">([^<]+)</td>\s*<td class="num">([^<]+)</td>'
        r'\s*<td class="num">([^<]+)</td>', html)


def test_chart_covers_the_table_limits_in_the_steps_the_drills_deal(signed_in: FlaskClient) -> None:
    """Issue 26: Nevada's limits are $2 to $100; the chart lists every whole dollar between
    them (the drills deal $13, $33, $55), not $5 to $500 in $5 steps."""
    html = text_of(signed_in.get("/commission-chart"))
    rows = chart_rows(html)
    assert [int(r[0]) for r in rows] == list(range(200, 10_001, 100))
    by_bet = {int(r[0]): (r[2], r[3]) for r in rows}
    # rules.md: a $20 bet wins $19.00, $25 wins $23.75, $5 wins $4.75.
    assert by_bet[2000] == ("$1.00", "$19.00")
    assert by_bet[2500] == ("$1.25", "$23.75")
    assert by_bet[500] == ("$0.25", "$4.75")
    assert by_bet[5500] == ("$2.75", "$52.25")
    assert by_bet[10_000] == ("$5.00", "$95.00")
    assert "nevada" in html and "exact to the cent" in html
    assert "$2.00 to $100.00, the table's limits, in $1.00 steps" in html


def test_every_bet_the_drills_deal_is_on_the_chart() -> None:
    """Issue 26: whatever a profile's limits, each bet the settlement drill can deal (and a
    round's seats, which deal the same) has its row on that profile's chart."""
    from trainer.engine.drills.kinds.settlement import BETS_DOLLARS
    from trainer.engine.profiles import PROFILES as ALL
    from trainer.web.reference.pages import chart_bets

    for profile in [*ALL.values(), TableProfile("high-room", min_bet_cents=2_500, max_bet_cents=50_000),
                    TableProfile("odd-room", min_bet_cents=250, max_bet_cents=7_500)]:
        dealt = [d * 100 for d in BETS_DOLLARS
                 if profile.min_bet_cents <= d * 100 <= profile.max_bet_cents] or [profile.min_bet_cents]
        chart = chart_bets(profile)
        assert chart[0] == profile.min_bet_cents and chart[-1] == profile.max_bet_cents
        assert set(dealt) <= set(chart), (profile.name, sorted(set(dealt) - set(chart)))


@pytest.mark.parametrize(("rounding", "bet", "commission", "paid"), [
    (Rounding.CENT, 3500, "$1.75", "$33.25"),
    (Rounding.QUARTER_UP, 1500, "$0.75", "$14.25"),
    (Rounding.QUARTER_UP, 2000, "$1.00", "$19.00"),
    (Rounding.DOLLAR_UP, 2500, "$2.00", "$23.00"),
    (Rounding.DOLLAR_UP, 500, "$1.00", "$4.00"),
])
def test_chart_takes_the_commission_under_the_profiles_rounding(
        signed_in: FlaskClient, monkeypatch: pytest.MonkeyPatch, rounding: Rounding,
        bet: int, commission: str, paid: str) -> None:
    monkeypatch.setitem(PROFILES, "test-room", TableProfile("test-room", commission_rounding=rounding))
    html = text_of(signed_in.get("/commission-chart?profile=test-room"))
    rows = {int(r[0]): (r[2], r[3]) for r in chart_rows(html)}
    assert rows[bet] == (commission, paid)
    words = {Rounding.CENT: "exact to the cent (half a cent rounds up)",
             Rounding.QUARTER_UP: "rounded up to the next $0.25",
             Rounding.DOLLAR_UP: "rounded up to the next $1.00"}
    assert words[rounding] in html


def test_chart_starts_at_the_table_minimum(signed_in: FlaskClient,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(PROFILES, "high-limit", TableProfile("high-limit", min_bet_cents=2500))
    rows = chart_rows(text_of(signed_in.get("/commission-chart?profile=high-limit")))
    assert [int(r[0]) for r in rows] == list(range(2500, 10_001, 100))  # to its maximum


def test_chart_uses_the_groups_flat_fee(client: FlaskClient, make_group: Any, supervisor: Any,
                                        make_user: Any) -> None:
    group_id = make_group(supervisor.id, name="Cardroom", profile="california")
    login(client, make_user(Role.TRAINEE, login="cardroom", group_id=group_id))
    html = text_of(client.get("/commission-chart"))
    assert 'data-profile="california"' in html
    assert "flat fee of $1.00" in html
    assert ">Fee<" in html and ">Commission<" not in html
    rows = {int(r[0]): (r[2], r[3]) for r in chart_rows(html)}
    assert rows[2500] == ("$1.00", "$25.00")


def test_chart_says_when_there_is_no_commission(signed_in: FlaskClient) -> None:
    html = text_of(signed_in.get("/commission-chart?profile=no-commission"))
    assert "this table takes no commission" in html
    assert chart_rows(html) == []


# --- the look-up ---------------------------------------------------------------------------

def look_up(client: FlaskClient, cards: str, **args: str) -> str:
    query = "&".join([f"cards={quote_plus(cards)}"] + [f"{k}={v}" for k, v in args.items()])
    response = client.get(f"/house-way/look-up?{query}")
    assert response.status_code == 200
    return text_of(response)


def test_look_up_shows_the_setting_and_the_rule(signed_in: FlaskClient) -> None:
    html = look_up(signed_in, "as kd 10h 9c 9d 4s joker", preset="trump-plaza")
    setting = load("trump-plaza").set("As Kd Th 9c 9d 4s JK")
    assert f'id="lookup-front" data-cards="{" ".join(card_list(setting.front))}"' in html
    assert f'id="lookup-back" data-cards="{" ".join(card_list(setting.back))}"' in html
    rule = load("trump-plaza").rule(setting.rule)
    assert f'<span id="lookup-rule-id" data-rule="{setting.rule}">{escape(rule.short)}</span>' in html
    assert str(escape(load("trump-plaza").rule(setting.rule).text)) in html
    # The shared link carries the cards, in canonical notation.
    assert "/house-way/look-up?cards=As+Kd+Th+9c+9d+4s+JK&amp;preset=trump-plaza" in html


def test_look_up_defaults_to_the_groups_house_way(client: FlaskClient, make_group: Any,
                                                  supervisor: Any, make_user: Any) -> None:
    group_id = make_group(supervisor.id, name="Nugget", house_way="golden-nugget")
    login(client, make_user(Role.TRAINEE, login="nugget", group_id=group_id))
    html = look_up(client, DISPUTED)
    assert '<option value="golden-nugget" selected>' in html
    assert load("golden-nugget").set(DISPUTED).rule in html


@pytest.mark.parametrize(("cards", "message"), [
    ("As Kd Qh 9c 9d 4s", "A hand here has 7 cards; 6 were given."),
    ("As Kd Qh 9c 9d 4s As", "As appears twice in the hand."),
    ("As Kd Qh 9c 9d 4s Xq", "Xq is not a card: write a rank"),
])
def test_bad_look_up_shows_the_engines_message_and_no_setting(
        signed_in: FlaskClient, cards: str, message: str) -> None:
    html = look_up(signed_in, cards, compare="1")
    with pytest.raises(ValueError) as engine_error:
        parse_cards(cards, 7)
    assert str(escape(message)) in html
    assert f'role="alert">{escape(str(engine_error.value))}<' in html
    assert 'id="lookup-result"' not in html
    assert 'id="lookup-compare"' not in html


def test_compare_casinos_sets_the_hand_by_every_preset(signed_in: FlaskClient) -> None:
    html = look_up(signed_in, DISPUTED, preset="trump-plaza", compare="1")
    rows = dict(re.findall(r'<tr class="[^"]*" data-preset="([^"]+)" data-differs="(yes|no)">', html))
    assert list(rows) == PRESETS

    def value(preset: str) -> tuple[int, int]:
        setting = load(preset).set(DISPUTED)
        return rank2(setting.front), rank5(setting.back)

    expected = {p: "yes" if value(p) != value("trump-plaza") else "no" for p in PRESETS}
    assert rows == expected
    assert list(expected.values()).count("yes") == 3
    assert "3 house ways set this hand differently" in html
    for preset in PRESETS:
        assert load(preset).set(DISPUTED).rule in html


def test_compare_is_a_shareable_link(signed_in: FlaskClient) -> None:
    html = look_up(signed_in, DISPUTED, compare="1")
    assert "cards=Jh+Jd+6c+6s+As+9d+2c&amp;preset=trump-plaza&amp;compare=1" in html


def test_look_up_form_works_without_javascript(signed_in: FlaskClient) -> None:
    html = text_of(signed_in.get("/house-way/look-up"))
    assert '<form method="get" action="/house-way/look-up"' in html
    assert 'name="cards"' in html
    # The 53-card grid is there for the script to reveal.
    grid = html.split('id="card-grid"')[1].split("</div>")[0]
    assert grid.count('data-card="') == 53
    assert 'id="lookup-result"' not in html
