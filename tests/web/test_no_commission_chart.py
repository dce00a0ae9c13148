"""The printed commission chart states the no-commission queen-high rule as the rule book has it."""
from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from web.helpers import login


def test_no_commission_chart_says_every_bet_pushes_against_a_queen_high_banker(
        client: FlaskClient, trainee: Any) -> None:
    login(client, trainee)
    html = client.get("/commission-chart?profile=no-commission").get_data(as_text=True)
    assert "queen-high pai gow, every bet pushes, whatever it would have been" in html
    assert "a fouled hand still loses" in html
    assert "a player hand that would have won is a push" not in html
    assert "when the banker holds a queen-high pai gow, every bet pushes" in html
