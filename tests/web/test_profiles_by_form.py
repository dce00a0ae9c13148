"""Table-rules profiles by form (issue 18, item 2): a manager makes, edits and offers them.

Each rule is a test: every field refuses a bad value with its own sentence and stores
nothing; a profile made in the app, offered, chosen for a group, settles the group's
settlement drill by its own commission (4%, worked out here, not by the drill);
withdrawal hides it from the choice and keeps groups on it working; only managers
(and admins) reach the pages.
"""
from __future__ import annotations

import html as html_lib
import re
from types import SimpleNamespace
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.drills import DrillContext, new_question
from trainer.engine.house_way import DEFAULT_HOUSE_WAY
from trainer.engine.profiles import DEFAULT_PROFILE, PROFILES
from trainer.extensions import db
from trainer.models import AuditLog, CustomProfile, Group, Role
from trainer.services import drills as drill_service
from trainer.services import profiles as profile_service
from trainer.services.drills import sessions
from trainer.services.group_settings import GroupSettings
from web.helpers import login, post_form
from web.test_drills import fetch_question, issued, send_answer, start

TITLE = "Downtown four percent"
NAME = "custom-downtown-four-percent"
GOOD = {"title": TITLE, "wheel": "second_highest", "commission": "rate", "rate": "4",
        "rounding": "cent", "fee": "", "foul_policy": "lose", "min_bet": "5", "max_bet": "500"}


@pytest.fixture
def manager(make_user: Any) -> Any:
    return make_user(Role.MANAGER, login="floor-boss", name="Pat Floor")


def text(page: str) -> str:
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", page)))


def options(page: str, field: str) -> list[str]:
    match = re.search(rf'<select[^>]*name="{field}"[^>]*>(.*?)</select>', page, re.S)
    assert match, f"no select {field}"
    return re.findall(r'<option[^>]*value="([^"]*)"', match.group(1))


def stored(app: Flask) -> int:
    with app.app_context():
        return int(db.session.execute(
            db.select(db.func.count()).select_from(CustomProfile)).scalar() or 0)


def create(client: FlaskClient, **changes: str) -> Any:
    return post_form(client, "/manager/profiles/new", {**GOOD, **changes})


def deal_a_winner(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the next settlement question one with a winner to pay (found under the custom rules)."""
    with app.app_context():
        ctx = DrillContext(profile=NAME, custom=profile_service.table_profile(NAME))
    seed = next(s for s in range(500) if any(
        k["outcome"] == "win" for k in drill_service.answer_key(
            new_question("settlement", s, ctx), ctx)["positions"]))
    monkeypatch.setattr(sessions, "secrets", SimpleNamespace(randbits=lambda bits: seed))


def offer(client: FlaskClient, name: str, on: bool = True) -> Any:
    return post_form(client, f"/manager/profiles/{name}/offer", {"offer": "1" if on else "0"})


# --- Validation: each bad value has its sentence, beside its field, and nothing is stored ---

BAD = [
    ({"title": ""}, "Give the table rules a name."),
    ({"title": "ab"}, "A name has 3 to 80 characters."),
    ({"title": "x" * 81}, "A name has 3 to 80 characters."),
    ({"title": "Nevada (5% commission)"}, "is the name of a preset table profile"),
    ({"title": "nevada"}, "is the name of a preset table profile"),
    ({"wheel": "sideways"}, "Not a valid choice"),
    ({"commission": "bribe"}, "Not a valid choice"),
    ({"rate": ""}, "Write the commission rate, such as 5 or 4.5."),
    ({"rate": "4.125"}, "with at most two decimals"),
    ({"rate": "0"}, "A commission rate is a percentage above 0 and at most 25"),
    ({"rate": "30"}, "A commission rate is a percentage above 0 and at most 25"),
    ({"rate": "five"}, "A commission rate is a percentage"),
    ({"rate": "-5"}, "A commission rate is a percentage"),
    ({"rounding": "down"}, "Not a valid choice"),
    ({"fee": "1.00"}, "Leave the flat fee empty: this table takes a commission."),
    ({"commission": "fee", "rate": "", "fee": ""}, "Write an amount"),
    ({"commission": "fee", "rate": "", "fee": "1.005"}, "is not clear"),
    ({"commission": "fee", "rate": "", "fee": "0"}, "A flat fee is from $0.01 to $100.00."),
    ({"commission": "fee", "rate": "", "fee": "250"}, "A flat fee is from $0.01 to $100.00."),
    ({"commission": "fee", "fee": "1"}, "Leave the commission rate empty: this table takes a flat fee."),
    ({"commission": "none"}, "Leave this empty: this table takes no commission."),
    ({"foul_policy": "shrug"}, "Not a valid choice"),
    ({"min_bet": ""}, "Write an amount"),
    ({"min_bet": "2.5.0"}, "is not an amount"),
    ({"min_bet": "0.50"}, "A bet limit is from $1.00 to $100,000.00."),
    ({"max_bet": "200000"}, "A bet limit is from $1.00 to $100,000.00."),
    ({"max_bet": "10", "min_bet": "50"}, "The largest bet cannot be below the smallest."),
    ({"side-fortune-standard": "y", "side-fortune-standard-min": "",
      "side-fortune-standard-max": "25"}, "Write an amount"),
    ({"side-fortune-standard": "y", "side-fortune-standard-min": "0.50",
      "side-fortune-standard-max": "25"}, "A side-bet limit is from $1.00 to $5,000.00."),
    ({"side-fortune-standard": "y", "side-fortune-standard-min": "5",
      "side-fortune-standard-max": "9000"}, "A side-bet limit is from $1.00 to $5,000.00."),
    ({"side-fortune-standard": "y", "side-fortune-standard-min": "25",
      "side-fortune-standard-max": "5"}, "The largest bet cannot be below the smallest."),
    ({"side-progressive": "y", "side-progressive-min": "5", "side-progressive-max": "5"},
     "Progressive jackpot is a fixed bet of $1.00."),
]


@pytest.mark.parametrize("changes,message", BAD, ids=[str(i) for i in range(len(BAD))])
def test_every_field_refuses_a_bad_value_in_words_and_stores_nothing(
        app: Flask, client: FlaskClient, manager: Any, changes: dict[str, str],
        message: str) -> None:
    login(client, manager)
    response = create(client, **changes)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert message in text(page)
    # The sentence is beside the field it is about (in that field's box).
    field = next(iter(changes))
    if field not in ("commission", "side-fortune-standard", "side-progressive"):
        box = re.search(rf'<div class="field field-error">\s*<label for="{re.escape(field)}"'
                        r'.*?</div>', page, re.S)
        assert box and message in text(box.group(0)), field
    assert stored(app) == 0
    with app.app_context():
        assert db.session.execute(db.select(AuditLog).filter_by(target_type="profile")).first() is None


def test_a_title_already_taken_by_a_custom_profile_is_refused(
        app: Flask, client: FlaskClient, manager: Any) -> None:
    login(client, manager)
    assert create(client).status_code == 302
    again = create(client, title=TITLE.upper())
    assert f"There is already a table profile called “{TITLE}”." in text(again.get_data(as_text=True))
    assert stored(app) == 1


# --- Made, offered, chosen, drilled ---

def test_a_manager_makes_and_offers_a_profile_a_supervisor_chooses_it_and_a_drill_settles_by_it(
        app: Flask, client: FlaskClient, manager: Any, supervisor: Any, group: int,
        make_user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    login(client, manager)
    page = client.get("/manager/house-ways").get_data(as_text=True)
    assert 'href="/manager/profiles"' in page
    assert create(client).status_code == 302
    with app.app_context():
        record = db.session.execute(db.select(CustomProfile)).scalar_one()
        assert (record.name, record.title, record.offered) == (NAME, TITLE, False)
        assert record.created_at.utcoffset() is not None and record.created_by_id == manager.id
        rules = profile_service.table_profile(NAME)
        assert str(rules.commission_rate) == "0.04" and rules.fee_cents is None
        assert (rules.min_bet_cents, rules.max_bet_cents) == (500, 50_000)
    listing = text(client.get("/manager/profiles").get_data(as_text=True))
    assert TITLE in listing and "4% commission on wins" in listing and "Not offered" in listing
    # Not offered yet: not a supervisor's choice.
    post_form(client, "/auth/logout")
    login(client, supervisor)
    assert NAME not in options(client.get(f"/supervisor/groups/{group}/edit").get_data(as_text=True),
                               "profile")
    refused = post_form(client, f"/supervisor/groups/{group}/edit",
                        {"name": "Day shift", "house_way": DEFAULT_HOUSE_WAY, "profile": NAME})
    assert "are not offered to supervisors" in text(refused.get_data(as_text=True))
    post_form(client, "/auth/logout")
    login(client, manager)
    assert offer(client, NAME).status_code == 302
    post_form(client, "/auth/logout")
    login(client, supervisor)
    page = client.get(f"/supervisor/groups/{group}/edit").get_data(as_text=True)
    assert NAME in options(page, "profile")
    assert f"{TITLE}: 4% commission on wins" in text(page)   # in words, its title
    saved = post_form(client, f"/supervisor/groups/{group}/edit",
                      {"name": "Day shift", "house_way": DEFAULT_HOUSE_WAY, "profile": NAME})
    assert saved.status_code == 302, saved.get_data(as_text=True)
    history = text(client.get(f"/supervisor/groups/{group}/edit").get_data(as_text=True))
    assert f"Table rules {PROFILES[DEFAULT_PROFILE].title} {TITLE}" in history
    post_form(client, "/auth/logout")
    trainee = make_user(Role.TRAINEE, login="dealer", group_id=group)
    login(client, trainee)
    deal_a_winner(app, monkeypatch)
    session_id = start(client, "settlement")
    question, context = issued(app, session_id)
    assert context.table.commission_rate * 100 == 4
    assert fetch_question(client, session_id).status_code == 200
    # The answer at 4%, worked out here: a winner is paid its bet less 4 cents a dollar.
    key = drill_service.answer_key(question, context)
    answer, winners = [], 0
    for position, right in zip(question["positions"], key["positions"], strict=True):
        entry = {"outcome": right["outcome"]}
        if right["outcome"] == "win":
            winners += 1
            bet = position["bet_cents"]
            assert bet * 4 % 100 == 0
            entry["paid_cents"] = bet - bet * 4 // 100
        answer.append(entry)
    for extra in ("bonus_paid_cents", "envy_paid_cents"):
        assert all(extra not in e for e in answer)
    data = send_answer(client, session_id, 1, {"positions": answer}).get_json()
    assert data["correct"] is True, data
    assert winners, "the drawn question has a winner to pay"


def test_a_nevada_payout_is_wrong_at_a_four_percent_table(
        app: Flask, client: FlaskClient, manager: Any, supervisor: Any, make_group: Any,
        make_user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    login(client, manager)
    create(client)
    offer(client, NAME)
    group_id = make_group(supervisor.id, name="Four", profile=NAME)
    trainee = make_user(Role.TRAINEE, login="four", group_id=group_id)
    post_form(client, "/auth/logout")
    login(client, trainee)
    deal_a_winner(app, monkeypatch)
    session_id = start(client, "settlement")
    question, context = issued(app, session_id)
    key = drill_service.answer_key(question, context)
    answer = [{"outcome": k["outcome"], **({"paid_cents": p["bet_cents"] - p["bet_cents"] * 5 // 100}
                                          if k["outcome"] == "win" else {})}
              for p, k in zip(question["positions"], key["positions"], strict=True)]
    assert fetch_question(client, session_id).status_code == 200
    data = send_answer(client, session_id, 1, {"positions": answer}).get_json()
    assert data["correct"] is False


# --- Edit, withdraw ---

def test_an_edit_is_audited_in_words_and_applies_to_sessions_started_after_it(
        app: Flask, client: FlaskClient, manager: Any, admin: Any, supervisor: Any,
        make_group: Any, make_user: Any) -> None:
    login(client, manager)
    create(client)
    offer(client, NAME)
    group_id = make_group(supervisor.id, name="Four", profile=NAME)
    trainee = make_user(Role.TRAINEE, login="four", group_id=group_id)
    form = client.get(f"/manager/profiles/{NAME}/edit").get_data(as_text=True)
    assert 'value="4"' in form and 'value="5.00"' in form
    refused = post_form(client, f"/manager/profiles/{NAME}/edit", {**GOOD, "rate": "4.555"})
    assert "with at most two decimals" in text(refused.get_data(as_text=True))
    with app.app_context():
        assert str(profile_service.table_profile(NAME).commission_rate) == "0.04"
    post_form(client, "/auth/logout")
    login(client, trainee)
    before = start(client, "settlement")
    post_form(client, "/auth/logout")
    login(client, manager)
    saved = post_form(client, f"/manager/profiles/{NAME}/edit",
                      {**GOOD, "rate": "3.5", "title": "Downtown three and a half"})
    assert saved.status_code == 302
    with app.app_context():
        rules = profile_service.table_profile(NAME)   # the name stays: groups stay on it
        assert str(rules.commission_rate) == "0.035" and rules.title == "Downtown three and a half"
    post_form(client, "/auth/logout")
    login(client, trainee)
    after = start(client, "settlement")
    assert issued(app, before)[1].table.commission_rate * 1000 == 40
    assert issued(app, after)[1].table.commission_rate * 1000 == 35
    post_form(client, "/auth/logout")
    login(client, admin)
    log = text(client.get("/admin/audit").get_data(as_text=True))
    for words in ("Table rules created", "Table rules changed",
                  "Table rules offered to supervisors", "Commission: 4%",
                  "Commission: 4% → 3.5%", "Offered to supervisors"):
        assert words in log, words
    assert "{" not in log.split("Table rules created", 1)[1][:2000]


def test_withdrawal_hides_a_profile_from_the_choice_and_keeps_groups_on_it_working(
        app: Flask, client: FlaskClient, manager: Any, supervisor: Any, make_group: Any,
        make_user: Any, group: int) -> None:
    login(client, manager)
    create(client)
    offer(client, NAME)
    post_form(client, "/auth/logout")
    login(client, supervisor)
    four = post_form(client, "/supervisor/groups/new", {
        "name": "Four", "house_way": DEFAULT_HOUSE_WAY, "profile": NAME})
    assert four.status_code == 302
    four_id = int(four.headers["Location"].rsplit("/", 1)[1])
    post_form(client, "/auth/logout")
    login(client, manager)
    assert offer(client, NAME, on=False).status_code == 302
    assert "Withdraw" not in re.search(
        rf'data-profile="{NAME}".*?</li>', client.get("/manager/profiles").get_data(as_text=True),
        re.S).group(0).split("Commission chart", 1)[1]
    post_form(client, "/auth/logout")
    login(client, supervisor)
    # Hidden from every other group's choice and from a new group's.
    for url in (f"/supervisor/groups/{group}/edit", "/supervisor/groups/new"):
        assert NAME not in options(client.get(url).get_data(as_text=True), "profile")
    refused = post_form(client, f"/supervisor/groups/{group}/edit",
                        {"name": "Day shift", "house_way": DEFAULT_HOUSE_WAY, "profile": NAME})
    assert "are not offered to supervisors" in text(refused.get_data(as_text=True))
    refused = post_form(client, "/supervisor/groups/new",
                        {"name": "Five", "house_way": DEFAULT_HOUSE_WAY, "profile": NAME})
    assert "are not offered to supervisors" in text(refused.get_data(as_text=True))
    # The group on it keeps it, shown as withdrawn, and may save its other settings.
    page = client.get(f"/supervisor/groups/{four_id}/edit").get_data(as_text=True)
    assert f"{TITLE} (withdrawn: kept for this group)" in text(page)
    kept = post_form(client, f"/supervisor/groups/{four_id}/edit",
                     {"name": "Four renamed", "house_way": DEFAULT_HOUSE_WAY, "profile": NAME})
    assert kept.status_code == 302
    with app.app_context():
        group_row = db.session.get(Group, four_id)
        assert (group_row.name, group_row.profile) == ("Four renamed", NAME)
        assert GroupSettings.of(group_row).profile == NAME
        assert db.session.execute(db.select(db.func.count()).select_from(Group)).scalar() == 2
    trainee = make_user(Role.TRAINEE, login="four", group_id=four_id)
    post_form(client, "/auth/logout")
    login(client, trainee)
    session_id = start(client, "settlement")
    assert issued(app, session_id)[1].table.commission_rate * 100 == 4
    chart = text(client.get("/commission-chart").get_data(as_text=True))
    assert "4% of the win" in chart


def test_the_default_profile_cannot_be_withdrawn_and_a_preset_can(
        app: Flask, client: FlaskClient, manager: Any, supervisor: Any, group: int) -> None:
    login(client, manager)
    response = offer(client, DEFAULT_PROFILE, on=False)
    assert "cannot be withdrawn" in text(client.get(response.headers["Location"]).get_data(
        as_text=True))
    assert offer(client, "california", on=False).status_code == 302
    with app.app_context():
        assert profile_service.offered(DEFAULT_PROFILE)
        assert not profile_service.offered("california")
        with pytest.raises(ValueError, match="not offered to supervisors"):
            GroupSettings(profile="california").check_profile_choice()
        with pytest.raises(ValueError, match="There is no table-rules profile"):
            GroupSettings(profile="custom-nothing")
    post_form(client, "/auth/logout")
    login(client, supervisor)
    assert "california" not in options(
        client.get(f"/supervisor/groups/{group}/edit").get_data(as_text=True), "profile")


def test_a_custom_profile_plays_in_the_players_game(
        app: Flask, client: FlaskClient, manager: Any, supervisor: Any, make_group: Any,
        make_user: Any) -> None:
    login(client, manager)
    create(client, commission="fee", rate="", fee="0.75", min_bet="10", max_bet="50")
    name = NAME
    offer(client, name)
    group_id = make_group(supervisor.id, name="Fee", profile=name)
    trainee = make_user(Role.TRAINEE, login="player", group_id=group_id)
    post_form(client, "/auth/logout")
    login(client, trainee)
    page = text(client.get("/play/").get_data(as_text=True))
    assert "Flat fee of $0.75 per hand" in page
    from web.test_play import send
    too_small = send(client, "/play/deal", {"bet_cents": 500})
    assert too_small.status_code == 400
    dealt = send(client, "/play/deal", {"bet_cents": 1000})
    assert dealt.status_code == 200, dealt.get_data(as_text=True)


# --- Who may ---

@pytest.mark.parametrize("role", [Role.TRAINEE, Role.SUPERVISOR])
def test_supervisors_and_trainees_cannot_make_edit_or_offer_profiles(
        app: Flask, client: FlaskClient, manager: Any, make_user: Any, role: str) -> None:
    login(client, manager)
    create(client)
    post_form(client, "/auth/logout")
    login(client, make_user(role, login="someone"))
    for url in ("/manager/profiles", "/manager/profiles/new", f"/manager/profiles/{NAME}/edit"):
        assert client.get(url).status_code == 403, url
    assert create(client, title="Sneaky rules").status_code == 403
    assert post_form(client, f"/manager/profiles/{NAME}/edit", {**GOOD, "rate": "1"}).status_code == 403
    assert offer(client, NAME).status_code == 403
    with app.app_context():
        record = db.session.execute(db.select(CustomProfile)).scalar_one()
        assert (record.title, record.offered) == (TITLE, False)
        assert str(profile_service.table_profile(NAME).commission_rate) == "0.04"


def test_an_admin_may_make_profiles_too(app: Flask, client: FlaskClient, admin: Any) -> None:
    login(client, admin)
    assert create(client).status_code == 302
    assert stored(app) == 1


def test_the_forms_fit_a_phone_and_show_no_ids(
        app: Flask, client: FlaskClient, manager: Any) -> None:
    login(client, manager)
    create(client)
    for url in ("/manager/profiles", "/manager/profiles/new", f"/manager/profiles/{NAME}/edit"):
        page = client.get(url).get_data(as_text=True)
        shown = text(re.sub(r"<(script|style)[^>]*>.*?</\1>", "", page, flags=re.S))
        assert NAME not in shown and "second_highest" not in shown and "{" not in shown, url
        assert 'name="viewport"' in page
