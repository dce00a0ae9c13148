"""The side bets' pay charts on the commission chart and the house-way sheet (and its PDF key)."""
from __future__ import annotations

import dataclasses
import re
import threading
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.side_bets import load_table
from trainer.models import Role
from trainer.web.platform import pay_tables, sheets
from web.helpers import login


@pytest.fixture
def printed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Replace Chromium with a fake printer; return the pages it was asked to print."""
    pages: list[str] = []
    lock = threading.Lock()

    def fake_print(html: str) -> bytes:
        with lock:
            pages.append(html)
            return b"%PDF-1.4 fake " + str(len(pages)).encode()

    monkeypatch.setattr(sheets, "print_to_pdf", fake_print)
    return pages


def in_group(client: FlaskClient, make_user: Any, make_group: Any, supervisor: Any,
             profile: str) -> FlaskClient:
    group_id = make_group(supervisor.id, name=f"Group {profile}", profile=profile)
    login(client, make_user(Role.TRAINEE, group_id=group_id))
    return client


def chart_rows(page: str, table: str) -> dict[str, list[str]]:
    """Return a pay chart's rows on a page: hand name -> the cells after it."""
    body = page.split(f'data-table="{table}"', 1)[1].split("</table>", 1)[0]
    rows = {}
    for row in re.findall(r"<tr data-rule=[^>]*>(.*?)</tr>", body, re.S):
        cells = [re.sub(r"<[^>]+>", "", c).strip()
                 for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        rows[cells[0]] = cells[1:]
    return rows


def test_the_fortune_profiles_chart_pays_each_line_at_its_odds_on_four_bet_sizes(
        client: FlaskClient, make_user: Any, make_group: Any, supervisor: Any) -> None:
    in_group(client, make_user, make_group, supervisor, "nevada-fortune")
    page = client.get("/commission-chart").get_data(as_text=True)
    assert "Side bets: what to pay" in page
    rows = chart_rows(page, "fortune-standard")
    # 25 to 1 on $1, $5, $10 and $25; 8,000 to 1 on $25 is $200,000.
    assert rows["Four of a kind"] == ["25 to 1", "$25.00", "$125.00", "$250.00", "$625.00"]
    assert rows["Seven-card straight flush (no joker)"][-1] == "$200,000.00"
    assert rows["Straight"] == ["2 to 1", "$2.00", "$10.00", "$20.00", "$50.00"]
    envy = chart_rows(page, "envy")
    assert envy["Four of a kind"] == ["$5", "$5.00"]
    # Rule ids only in tooltips, never as text.
    assert "bonus.fortune-standard.four-of-a-kind" in page
    assert "bonus.fortune-standard" not in re.sub(r'(?:title|data-rule)="[^"]*"', "", page)


def test_the_progressive_chart_shows_its_fixed_dollar_and_the_meter(
        client: FlaskClient, trainee: Any) -> None:
    login(client, trainee)
    page = client.get("/commission-chart?profile=nevada-progressive").get_data(as_text=True)
    rows = chart_rows(page, "progressive")
    # Paid "for 1": the $1 is collected at the deal and not returned (docs/rules.md §12).
    assert rows["Royal flush"] == ["$325 for 1", "$325.00"]
    assert rows["Five aces"] == ["100% of the meter, for 1", "meter"]
    note = page.split('data-table="progressive"', 1)[1].split("</div>", 1)[0]
    assert "collected when the cards are dealt" in note and "is not returned" in note


@pytest.mark.parametrize("profile", ["nevada", "california", "no-commission"])
def test_a_profile_without_side_bets_shows_no_pay_chart(client: FlaskClient, trainee: Any,
                                                       profile: str) -> None:
    login(client, trainee)
    page = client.get(f"/commission-chart?profile={profile}").get_data(as_text=True)
    assert "pay-charts" not in page


def test_the_ez_chart_shows_queens_dragon(client: FlaskClient, trainee: Any) -> None:
    login(client, trainee)
    page = client.get("/commission-chart?profile=ez").get_data(as_text=True)
    cells = [cell for row in chart_rows(page, "queens-dragon").values() for cell in row]
    assert "50 to 1" in cells


def test_the_sheet_prints_the_groups_pay_tables_and_its_pdf_key_follows_their_data(
        app: Flask, client: FlaskClient, make_user: Any, make_group: Any, supervisor: Any,
        printed: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    in_group(client, make_user, make_group, supervisor, "nevada-emperors")
    sheet = client.get("/house-way/trump-plaza").get_data(as_text=True)
    assert 'data-table="emperors-treasure"' in sheet
    assert client.get("/house-way/trump-plaza/pdf").status_code == 200
    assert client.get("/house-way/trump-plaza/pdf").status_code == 200
    assert len(printed) == 1 and 'data-table="emperors-treasure"' in printed[0]
    # An edited pay table prints anew.
    real = load_table

    def edited(name: str) -> Any:
        table = real(name)
        return dataclasses.replace(table, sheet=table.sheet + " Edited.")

    monkeypatch.setattr(pay_tables, "load_table", edited)
    assert client.get("/house-way/trump-plaza/pdf").status_code == 200
    assert len(printed) == 2


def test_a_group_without_side_bets_keeps_the_sheet_without_pay_tables(
        client: FlaskClient, trainee: Any, printed: list[str]) -> None:
    login(client, trainee)
    assert "pay-charts" not in client.get("/house-way/trump-plaza").get_data(as_text=True)
    with client.application.test_request_context():
        assert pay_tables.tables_digest("nevada") is None
        assert pay_tables.tables_digest("nevada-fortune") != pay_tables.tables_digest("nevada-emperors")
