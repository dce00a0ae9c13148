"""A custom table-rules profile in the engine (issue 18, item 2): its stored form and a
drill's context that carries it, so a session grades by the rules it started under."""
from __future__ import annotations

from decimal import Decimal

import pytest

from trainer.engine.drills import DrillContext
from trainer.engine.profiles import PROFILES, SideBetOffer, TableProfile


@pytest.mark.parametrize("name", list(PROFILES))
def test_every_preset_profile_survives_its_stored_form(name: str) -> None:
    profile = PROFILES[name]
    assert TableProfile.from_dict(profile.as_dict()) == profile


def test_a_custom_profile_survives_its_stored_form_with_side_bets() -> None:
    profile = TableProfile("custom-x", commission_rate=Decimal("0.045"), min_bet_cents=500,
                           title="X", side_bets=(SideBetOffer("fortune-5000", 200, 5000, "envy",
                                                              True),))
    assert TableProfile.from_dict(profile.as_dict()) == profile


@pytest.mark.parametrize("data", [{}, {"name": "x", "commission_rate": "lots"},
                                  {"name": "x", "min_bet_cents": "two"},
                                  {"name": "x", "side_bets": [{"min_cents": 1}]}])
def test_a_stored_profile_that_is_not_one_is_refused(data: dict) -> None:
    with pytest.raises(ValueError):
        TableProfile.from_dict(data)


def test_a_drill_context_carries_a_custom_profile_through_its_stored_form() -> None:
    custom = TableProfile("custom-four", commission_rate=Decimal("0.04"), title="Four")
    context = DrillContext(profile="custom-four", custom=custom)
    stored = context.as_dict()
    assert stored["table"]["commission_rate"] == "0.04"
    again = DrillContext.from_dict(stored)
    assert again.table.commission_rate == Decimal("0.04") and again.custom == custom
    # A preset's context stores no rules: it is read from the engine, as before.
    assert "table" not in DrillContext(profile="nevada").as_dict()
    with pytest.raises(ValueError):
        DrillContext(profile="custom-four").table  # noqa: B018  (no rules: unknown)
