"""Issue 16 item 2: words where people read (rule names, families, house ways, profiles,
outcomes, the audit log and settings history) and times in the reader's time zone."""
from __future__ import annotations

import re
import tomllib
from datetime import UTC, datetime
from importlib import resources

import pytest

from trainer.engine.house_way import load, preset_names
from trainer.engine.house_way.interpreter import HouseWay
from trainer.extensions import db
from trainer.models import AuditLog, InstallationSetting, User
from trainer.web.words import names
from web.helpers import login, post_form

JSON_LIKE = re.compile(r'\{\s*"|"[A-Za-z_]+"\s*:')
TITLE_ATTR = re.compile(r'\s(?:title|data-rule)="[^"]*"')


def visible(html: str) -> str:
    """Return a page's markup without its title attributes (where ids may stay)."""
    return TITLE_ATTR.sub("", html)


@pytest.mark.parametrize("preset", preset_names())
def test_every_rule_of_every_preset_has_a_short_name_of_its_own(preset: str) -> None:
    raw = tomllib.loads(resources.files("trainer.engine.house_way").joinpath(
        "presets", f"{preset}.toml").read_text(encoding="utf-8"))
    written = {r["id"]: r.get("short") for s in raw["sections"] for r in s.get("rules", [])}
    assert all(written.values()), "every rule in the file carries its short name"
    for rule in load(preset).rules:
        assert rule.short == written[rule.id]
        assert rule.short != rule.id and 3 <= len(rule.short) <= 64
        assert not re.search(r"[a-z]+(\.[a-z0-9-]+)+", rule.short), rule.short


def test_a_custom_way_without_short_names_shows_its_section_titles() -> None:
    text = resources.files("trainer.engine.house_way").joinpath(
        "presets", "trump-plaza.toml").read_text(encoding="utf-8")
    custom = HouseWay.from_toml(re.sub(r'(?m)^short = ".*"\n', "", text))
    titles = {r.id: s.title for s in custom.sections for r in s.rules}
    assert all(r.short == titles[r.id] for r in custom.rules)


def test_names_are_words_not_ids(app) -> None:
    with app.test_request_context():
        rule = load("trump-plaza").rule("two-pair.split.always")
        assert names.rule_name("two-pair.split.always", "trump-plaza") == \
            f"{rule.short} (rule {rule.number})"
        tag = str(names.rule_tag("two-pair.split.always", "trump-plaza"))
        assert 'data-rule="two-pair.split.always"' in tag and rule.short in tag
        assert "title=" not in tag  # issue 26: no rule id as a tooltip
        assert names.family_name("two-pair") == "Two pair"
        assert names.family_name("sf") == "Straights and flushes"
        assert names.house_way_name("trump-plaza") == "Trump Plaza (Atlantic City)"
        assert names.profile_name("nevada") == "Nevada (5% commission)"
        assert names.outcome_name("push") == "Push"
        for rule_id in ("settlement.copy-push", "foul.higher-pair-in-front", "action.banker",
                        "round.settle.banker-commission", "reading.full-house.joker",
                        "reading.compare.5", "round.banker.two-pair", "no-such.rule-id"):
            words = names.rule_name(rule_id)
            assert words and words != rule_id and "." not in words, (rule_id, words)


def test_results_and_trainee_pages_show_rule_words_with_the_id_only_as_a_tooltip(
        app, client, supervisor, trainee, make_attempt) -> None:
    make_attempt(trainee.id, correct=False, rule_id="two-pair.split.always")
    short = load("trump-plaza").rule("two-pair.split.always").short
    login(client, trainee)
    for url in ("/results", "/"):
        html = client.get(url).get_data(as_text=True)
        assert short in html, url
        assert "two-pair.split.always" not in visible(html), url
    staff = client.application.test_client()
    login(staff, supervisor)
    html = staff.get(f"/supervisor/trainees/{trainee.id}?period=all").get_data(as_text=True)
    assert short in html and "two-pair.split.always" not in visible(html)


def test_the_audit_log_is_words_for_every_kind_of_entry(app, client, admin, supervisor) -> None:
    entries = [
        ("account.create", "user", supervisor.id, None,
         {"login": "sup", "name": "Sup", "role": "supervisor", "active": True}),
        ("account.deactivate", "user", supervisor.id, {"active": True}, {"active": False}),
        ("sign-in", "user", supervisor.id, None, {"address": "10.0.0.9", "session": 17}),
        ("sign-in.failed", "user", supervisor.id, None, {"address": "10.0.0.9", "active": True}),
        ("exam.schedule", "exam", 3, None, {
            "trainee_id": 9, "login": "ann", "group_id": 1, "kind": "house-way", "length": 20,
            "time_limit_ms": 30000, "house_way": "foxwoods", "profile": "california",
            "criteria": {"kind": "house-way", "min_accuracy": 95, "window": 50}}),
        ("installation.settings", "installation", 0, {"time_zone": None},
         {"time_zone": "Asia/Macau"}),
        ("something.new", "widget", 4, {"colour": {"deep": [1, {"x": True}]}}, {"size": 3}),
    ]
    with app.app_context():
        for action, target_type, target_id, old, new in entries:
            db.session.add(AuditLog(actor_id=admin.id, action=action, target_type=target_type,
                                    target_id=target_id, old=old, new=new))
        db.session.commit()
    login(client, admin)
    html = client.get("/admin/audit").get_data(as_text=True)
    table = visible(html.split('id="audit-log"', 1)[1].split("</table>", 1)[0])
    assert not JSON_LIKE.search(table), JSON_LIKE.search(table)
    for words in ("Account created", "Account deactivated", "Signed in", "Sign-in refused",
                  "Exam scheduled", "Installation settings changed", "Something new",
                  "Foxwoods (Connecticut)", "California", "Seconds per question: 30",
                  "Time zone: Asia/Macau", "Active: yes → no", "Address: 10.0.0.9",
                  "Sup (sup)", "Colour › Deep"):
        assert words in table, words
    for raw in ("account.create", "foxwoods", "time_limit_ms", "null", "Session: 17"):
        assert raw not in table, raw


def test_a_bad_time_zone_is_refused_with_a_message_and_changes_nothing(
        app, client, admin, trainee) -> None:
    login(client, admin)
    response = post_form(client, "/admin/settings", {"time_zone": "Mars/Olympus_Mons"})
    assert response.status_code == 200
    assert "is not a time zone name" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(InstallationSetting, "time_zone") is None
    user_client = app.test_client()
    login(user_client, trainee)
    response = post_form(user_client, "/auth/account", {"time_zone": "../../etc/passwd"})
    assert response.status_code == 200 and "is not a time zone name" in response.get_data(
        as_text=True)
    with app.app_context():
        assert db.session.get(User, trainee.id).time_zone is None


def _answered_cell(html: str) -> str:
    found = re.search(r'<a href="/results/\d+">([^<]*)</a>', html)
    assert found, "the results table links each answer by its time"
    return found.group(1).split(", ")[-1].split(":")[0]  # the hour, as shown


def test_times_are_shown_in_the_readers_zone_own_then_room_then_browser(
        app, client, admin, trainee, make_attempt) -> None:
    # Answered at 2024-05-01 12:00:04 UTC (tests/conftest.py make_attempt).
    make_attempt(trainee.id)
    login(client, trainee)
    utc = client.get("/results").get_data(as_text=True)
    assert _answered_cell(utc) == "12" and "(UTC)" in utc
    client.set_cookie("tz", "Asia/Tokyo")  # the browser's zone: 21:00 in Tokyo
    assert _answered_cell(client.get("/results").get_data(as_text=True)) == "9"
    client.set_cookie("tz", "Not/AZone")  # a bad cookie is ignored
    assert _answered_cell(client.get("/results").get_data(as_text=True)) == "12"
    staff = app.test_client()
    login(staff, admin)
    assert post_form(staff, "/admin/settings", {"time_zone": "America/New_York"}).status_code == 302
    page = client.get("/results").get_data(as_text=True)  # the room's zone: 08:00 EDT
    assert _answered_cell(page) == "8" and "America/New York" in page
    assert post_form(client, "/auth/account", {"time_zone": "Europe/Paris"}).status_code == 302
    page = client.get("/results").get_data(as_text=True)  # the reader's own: 14:00 CEST
    assert _answered_cell(page) == "2" and "Europe/Paris" in page
    with app.app_context():
        assert db.session.get(User, trainee.id).time_zone == "Europe/Paris"
        # Stored as UTC whatever the reader's zone.
        from trainer.models import Attempt
        answered = db.session.execute(db.select(Attempt.answered_at)).scalar_one()
        assert answered == datetime(2024, 5, 1, 12, 0, 4, tzinfo=UTC)


def test_hand_reading_rules_name_their_hand_size_in_words(app) -> None:
    """The drill's rule ids name the size as a word (reading.compare.five): the page
    says "five-card", never the id's English word dropped into a sentence."""
    with app.test_request_context():
        assert names.rule_name("reading.compare.five") == "Reading: which five-card hand wins"
        assert names.rule_name("reading.compare.two") == "Reading: which two-card hand wins"
        assert names.rule_name("reading.copy.five") == "Reading: a copy of five-card hands"


def test_hand_reading_rules_name_their_hand_in_the_readers_language(app) -> None:
    """A category's rule (reading.one-pair) names the hand with the drill's own words,
    translated, never the id's English words dropped into a translated sentence."""
    from trainer.engine.drills.kinds.hand_reading import CATEGORY_WORDS
    from trainer.web.platform.i18n import translations

    with app.test_request_context():
        assert names.rule_name("reading.one-pair") == "Reading: one pair"
        assert names.rule_name("reading.high-card") == "Reading: high card (pai gow)"
    with app.test_request_context(headers={"Accept-Language": "es"}):
        pair = str(translations().ugettext(CATEGORY_WORDS["one_pair"]))
        assert pair != "one pair"
        said = names.rule_name("reading.one-pair")
        assert pair in said and "one pair" not in said, said
